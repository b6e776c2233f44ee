"""The optimised engines behave exactly as the engines before the speed work.

``tests/data/engine_digests.json`` was recorded by the engine *before* any speed change
(see :mod:`tests.engine_corpus`): digests of seeded random games covering every legal-move
list drawn from, every event, state, view and outcome, for every game, player count and
option variant. A faster engine must reproduce them bit for bit.

``random_move`` overrides are checked directly too: Azul, Taj Mahal and Maharani must draw
exactly the move ``rng.choice(legal_moves)`` draws, consuming the generator identically;
Pastiche's rollout policy must only ever return moves that are in ``legal_moves``.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from rules import get_game
from rules.playout import random_playout
from rules.rng import Rng
from tests.engine_corpus import DATA, SMALL, cell_key, cells, digest_cell

REFERENCE = json.loads(DATA.read_text())


@pytest.mark.parametrize(
    ("game_id", "options", "players", "games"),
    cells(SMALL),
    ids=[cell_key(g, o, p) for g, o, p, _ in cells(SMALL)],
)
def test_engine_reproduces_the_recorded_games(
    game_id: str, options: dict, players: int, games: int
) -> None:
    want = REFERENCE["small"][cell_key(game_id, options, players)]
    got = digest_cell(game_id, options, players, games)
    assert want["games"] == str(games)
    for part in ("play", "words", "views", "playout"):
        assert got.get(part) == want.get(part), f"{part} differs"


def _states(game_id: str, players: int, seed: int, options: dict | None = None) -> list[dict]:
    """Every state a random game passes through (the decision's old state)."""
    out: list[dict] = []
    game = get_game(game_id)
    random_playout(game, players, seed, options, on_step=lambda old, *_: out.append(old))
    return out


@pytest.mark.parametrize(
    ("game_id", "players"), [("azul", 3), ("taj-mahal", 4), ("maharani", 2), ("maharani", 4)]
)
def test_random_move_draws_what_the_uniform_choice_draws(game_id: str, players: int) -> None:
    game = get_game(game_id)
    checked = 0
    for seed in range(3):
        for i, state in enumerate(_states(game_id, players, seed)):
            for seat in game.to_act(state):
                fast, slow = Rng.from_seed(seed * 1000 + i), Rng.from_seed(seed * 1000 + i)
                assert game.random_move(state, seat, fast) == slow.choice(
                    game.legal_moves(state, seat)
                )
                assert fast.state == slow.state
                checked += 1
    assert checked > 100


def test_pastiche_rollout_moves_are_legal() -> None:
    game = get_game("pastiche")
    kinds: set[str] = set()
    for players in (2, 3, 4):
        for i, state in enumerate(_states("pastiche", players, players)):
            if i % 3 and not state["deals"]:
                continue  # listing Pastiche's legal moves is slow: every third state + offers
            for seat in game.to_act(state):
                legal = game.legal_moves(state, seat)
                rng = Rng.from_seed(i, f"check{seat}")
                for _ in range(3):
                    move = game.random_move(state, seat, rng)
                    assert move in legal
                    kinds.add(move.notation.split()[0][:4])
    # the policy reaches every kind of move, not just placements and turn ends
    assert {"h1", "h2", "comp", "bank", "offe", "swap", "end", "acce", "decl"} <= kinds


def test_pastiche_rollout_draws_its_bank_trade_from_the_useful_bank_moves() -> None:
    """The rollout picks a useful bank trade without building every bank move: the trades
    it draws from are, in order, the bank moves ranked at least ``USEFUL_TRADE``."""
    from rules.pastiche import moves as mv
    from rules.pastiche import rollout

    checked = 0
    for players in (2, 3):
        for state in _states("pastiche", players, players + 10):
            seat = state["cur"]
            if state["over"] or state["phase"] != "trade":
                continue
            need = mv.needs(state, seat)
            useful = [m for m in mv.bank_moves(state, seat) if m.rank >= rollout.USEFUL_TRADE]
            fast = rollout.useful_trades(state, seat, need)
            assert [mv.bank_move(give, target, need) for give, target in fast] == useful
            checked += bool(useful)
    assert checked > 5


def test_pastiche_placement_takes_rank_what_place_moves_lists() -> None:
    """The rollout ranks sampled placements with ``placement_takes`` and builds only the
    best: its (rank, take) pairs are those of ``place_moves`` for that hex, spot and
    rotation, in the same order, at every placement decision of whole games."""
    from rules.pastiche import moves as mv
    from rules.pastiche.data import load

    checked = 0
    for players in (2, 4):
        for i, state in enumerate(_states("pastiche", players, players + 20)):
            seat = state["cur"]
            if (
                state["over"]
                or state["phase"] != "place"
                or seat not in get_game("pastiche").to_act(state)
            ):
                continue
            need = mv.needs(state, seat)
            hexes = state["players"][seat]["hexes"]
            for slot, hex_id in enumerate(hexes):
                if hex_id is None:
                    continue
                for q, r in state["spots"][i % 3 :: 3]:  # a third of the spots: keep it quick
                    for rot, _ in mv.distinct_rotations(load().hexes[hex_id].corners):
                        moves = mv.place_moves(state, seat, slot, (q, r), rot)
                        want = [(m.rank, m.notation.rsplit(" ", 1)[1]) for m in moves]
                        assert mv.placement_takes(state, seat, slot, (q, r), rot, need) == want
                        checked += 1
    assert checked > 500


@pytest.mark.parametrize(
    ("game_id", "players", "options"),
    [
        ("azul", 2, None),
        ("azul", 3, {"grey_wall": True}),
        ("taj-mahal", 3, None),
        ("taj-mahal", 5, None),
        ("taj-mahal", 4, {"last_player_may_play": False, "palace_per_influence_tile": False}),
        ("maharani", 2, None),
        ("maharani", 2, {"two_player_seats": "adjacent"}),
        ("maharani", 3, None),
        ("maharani", 4, None),
        ("pastiche", 2, None),
        ("pastiche", 3, None),
        ("pastiche", 4, None),
    ],
)
def test_next_state_is_the_state_apply_returns(
    game_id: str, players: int, options: dict | None
) -> None:
    """The quiet path random playouts and the search take (no events built) must change
    the state exactly as ``apply`` does, at every decision of whole games, and must leave
    the state it was given unchanged, like ``apply``."""
    game = get_game(game_id)
    checked = 0
    for seed in range(3):
        for i, state in enumerate(_states(game_id, players, seed, options)):
            before = json.dumps(state, sort_keys=True)
            for seat in game.to_act(state):
                move = game.random_move(state, seat, Rng.from_seed(seed * 1000 + i))
                assert game.next_state(state, seat, move) == game.apply(state, seat, move)[0]
                assert json.dumps(state, sort_keys=True) == before
                checked += 1
    assert checked > 100


@pytest.mark.parametrize(
    ("game_id", "players"),
    [("azul", 2), ("taj-mahal", 3), ("maharani", 2), ("maharani", 4), ("pastiche", 3)],
)
def test_next_state_builds_no_words(
    game_id: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The quiet path builds no messages and no events: not the events ``apply`` would
    return, and, once a listing of the state's moves has built their words (the caches a
    position's search fills), not the words of a legality check either. Checked at every
    few decisions of a whole game, with a move drawn from ``legal_moves``."""
    from rules.base import Event
    from rules.words import Join, Msg

    game = get_game(game_id)
    built: list[str] = []

    def counted(cls: type, original: Callable[..., object]) -> Callable[..., object]:
        def make(*args: object, **kwargs: object) -> object:
            built.append(f"{cls.__name__}{args[1:2]}")
            return original(*args, **kwargs)

        return make

    states = _states(game_id, players, 5)
    checked = 0
    for i, state in enumerate(states[:: 3 if game_id == "pastiche" else 1]):
        for seat in game.to_act(state):
            moves = game.legal_moves(state, seat)
            move = moves[Rng.from_seed(i, "quiet").below(len(moves))]
            with monkeypatch.context() as m:
                m.setattr(Msg, "__new__", counted(Msg, Msg.__new__))
                m.setattr(Join, "__new__", counted(Join, Join.__new__))
                m.setattr(Event, "__init__", counted(Event, Event.__init__))
                game.next_state(state, seat, move)
            assert not built, f"{move.notation}: {built[:5]}"
            checked += 1
    assert checked > 30
