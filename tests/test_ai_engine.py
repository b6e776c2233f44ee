"""The computer players: legal moves over whole games, determinism, no peeking (the
hidden-information permutation test), and normal beating random.

Budgets are tiny (the iteration count has a floor of 16), so these tests check behaviour,
not strength; strength is measured by ``python -m bot arena`` (docs/performance.md).
To cover another game, add its id to ``AI_GAMES`` and a variant to tests/ai_helpers.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.tools.arena import play_one
from rules.ai import LEVELS, api, choose_move, suggest
from rules.ai.api import ARENA_LEVELS
from rules.playout import random_playout
from rules.rng import Rng
from tests.ai_helpers import game_for, hidden_variant
from tests.hookless.games import HOOKLESS_PILE as PILE

#: Games whose computer players are tested here: all four and the open test game.
AI_GAMES = ["azul", "taj-mahal", "maharani", "pastiche", "test-open-pile"]
#: Tiny budget: 16 iterations (the floor) in every game.
BUDGET = 0.001


@pytest.fixture(autouse=True)
def _no_wall_clock_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """The wall-clock safety net is the one documented way a search can stop early and
    differ from its seed's result; on a loaded test machine it must not fire, so these
    tests widen it (the iteration count, not the clock, is what they test)."""
    monkeypatch.setattr(api, "CAP_MARGIN_S", 600.0)


def _sample_states(game_id: str, players: int, count: int, seed: int) -> list[dict[str, Any]]:
    """Decision points spread over a random game."""
    game = game_for(game_id)
    states: list[dict[str, Any]] = []
    random_playout(game, players, seed, on_step=lambda old, *_: states.append(old))
    step = max(1, len(states) // count)
    return states[::step][:count]


def _player_counts(game_id: str) -> list[int]:
    game = game_for(game_id)
    return list(range(game.min_players, game.max_players + 1))


def _whole_game(game_id: str, players: int, seed: int, options: Any = None) -> int:
    """Play a whole game with computer seats (normal, easy alternating), checking every
    move is legal; returns the number of decisions."""
    game = game_for(game_id)
    state = game.setup(players, seed, options)
    levels = ["normal", "easy"]
    decisions = 0
    while game.outcome(state) is None:
        seat = game.to_act(state)[0]
        move = choose_move(
            game,
            game.view(state, seat),
            seat,
            levels[seat % 2],
            seed=seed * 1000 + decisions,
            budget_s=BUDGET,
        )
        legal = {m.notation for m in game.legal_moves(state, seat)}
        assert move.notation in legal
        state, _ = game.apply(state, seat, move)
        decisions += 1
        assert decisions < 2000
    return decisions


@pytest.mark.parametrize("players", _player_counts("test-open-pile"))
def test_a_game_without_hooks_is_played_legally_to_its_end(players: int) -> None:
    """A fifth game gets a computer player from its rules alone. (The four games play
    whole matches at every player count through the service in
    tests/test_computer_players.py.)"""
    assert _whole_game("test-open-pile", players, seed=players) > 0


def test_azul_grey_wall_computer_game() -> None:
    """The grey wall asks several seats at once for wall columns: still legal throughout."""
    assert _whole_game("azul", 2, seed=5, options={"grey_wall": True}) > 0


@pytest.mark.parametrize("game_id", AI_GAMES)
def test_same_seed_same_move_and_hints(game_id: str) -> None:
    game = game_for(game_id)
    players = game.min_players
    for state in _sample_states(game_id, players, 3, seed=21):
        seat = game.to_act(state)[0]
        view = game.view(state, seat)
        for level in LEVELS:
            first = choose_move(game, view, seat, level, seed=99, budget_s=BUDGET)
            again = choose_move(game, view, seat, level, seed=99, budget_s=BUDGET)
            assert first == again
        hints = suggest(game, view, seat, seed=7, budget_s=BUDGET)
        assert hints == suggest(game, view, seat, seed=7, budget_s=BUDGET)
        assert hints and all(0.0 <= h.value <= 1.0 and h.reason for h in hints)
        legal = {m.notation for m in game.legal_moves(state, seat)}
        assert {h.move.notation for h in hints} <= legal
        assert len({h.move.notation for h in hints}) == len(hints)


@pytest.mark.parametrize("game_id", AI_GAMES)
def test_hidden_information_does_not_change_decisions(game_id: str) -> None:
    """Permute everything the seat cannot see (and the random-number state): its view is
    the same, so its decisions and hints must be identical."""
    game = game_for(game_id)
    rng = Rng.from_seed(5, "permute")
    checked = 0
    for players in (game.min_players, game.max_players):
        for state in _sample_states(game_id, players, 2, seed=players + 40):
            for seat in game.to_act(state):
                other = hidden_variant(game_id, state, seat, rng)
                assert other != state
                view = game.view(state, seat)
                assert game.view(other, seat) == view
                for level in LEVELS:
                    mine = choose_move(game, view, seat, level, seed=3, budget_s=BUDGET)
                    theirs = choose_move(
                        game, game.view(other, seat), seat, level, seed=3, budget_s=BUDGET
                    )
                    assert mine == theirs
                assert suggest(game, view, seat, seed=4, budget_s=BUDGET) == suggest(
                    game, game.view(other, seat), seat, seed=4, budget_s=BUDGET
                )
                checked += 1
    assert checked >= 4


@pytest.mark.parametrize(("game_id", "games"), [("azul", 4), ("maharani", 4)])
def test_normal_beats_random(game_id: str, games: int) -> None:
    """Fixed seeds, so no flakiness: normal (tiny budget) wins every game against random,
    from both seats."""
    results = [play_one(game_id, ["normal", "random"], i, 300, BUDGET) for i in range(games)]
    assert [r.wins[0] for r in results] == [1.0] * games
    assert all(r.scores[0] > r.scores[1] for r in results)


def test_the_arena_lets_an_offer_be_answered_before_its_maker_moves_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As the bot's driver does (``Game.waits_for``): a normal Pastiche player makes offers
    (a dozen in this game); with the seat on turn moving first they expired unanswered."""
    import bot.tools.arena as arena

    real = arena.choose_move
    moves: list[tuple[int, bool, bool]] = []  # (seat, its offer waits, it answers one)

    def spy(game: Any, view: Any, seat: int, level: str, **kw: Any) -> Any:
        offers = view["offers"]
        waits = any(d["from"] == seat for d in offers)
        owes = any(d["to"] == seat for d in offers)
        moves.append((seat, waits and not owes, owes))
        return real(game, view, seat, level, **kw)

    monkeypatch.setattr(arena, "choose_move", spy)
    play_one("pastiche", ["normal", "random"], 0, 300, BUDGET)
    assert [m for m in moves if m[2]]  # offers were made and answered
    assert not [m for m in moves if m[1]]  # nobody moved on while their offer waited


def test_hidden_game_without_determinizer_says_so() -> None:
    """Pile hides cards and has no AI hooks: a clear error, never a peek at the state."""
    state = PILE.setup(2, 1)
    seat = PILE.to_act(state)[0]
    with pytest.raises(NotImplementedError, match="determinizer"):
        choose_move(PILE, PILE.view(state, seat), seat, "normal", seed=1, budget_s=BUDGET)


def test_unknown_level_is_refused() -> None:
    game = game_for("azul")
    state = game.setup(2, 1)
    seat = game.to_act(state)[0]
    with pytest.raises(ValueError, match="unknown level"):
        choose_move(game, game.view(state, seat), seat, "godlike", seed=1)
    assert set(LEVELS) < set(ARENA_LEVELS)


def test_no_hints_when_not_your_turn() -> None:
    game = game_for("azul")
    state = game.setup(2, 1)
    idle = 1 - game.to_act(state)[0]
    assert suggest(game, game.view(state, idle), idle, seed=1, budget_s=BUDGET) == []
