"""Random full Pastiche games for 2, 3 and 4 players with invariants checked at every step:
132 palette cards and 34 commissions (and 54 hexes) accounted for, the frontier consistent,
the hand limit held at the end of one's own turn, equal turns at the end, every game ends."""

from __future__ import annotations

import json

import pytest

from rules.base import normalise_notation
from rules.pastiche import GAME
from rules.pastiche import board as bd
from rules.pastiche import moves as mv
from rules.playout import random_playout, replay
from tests.test_pastiche_rules import _check_steps, check_conservation


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 12), (4, 13), (2, 14)])
def test_random_game_keeps_every_invariant(players: int, seed: int) -> None:
    stats = {"steps": 0, "offers": 0, "turn_ends": 0}

    def check(old, seat, move, new, events) -> None:
        stats["steps"] += 1
        check_conservation(new)
        assert new["spots"] == [[q, r] for q, r in bd.frontier(new["board"])]
        assert len(move.notation) <= 80 and len(move.label) <= 100
        if move.notation.startswith("offer"):
            stats["offers"] += 1
        if new["cur"] != old["cur"] or new["over"]:
            stats["turn_ends"] += 1
            assert mv.hand_size(new["players"][old["cur"]]["cards"]) <= mv.HAND_LIMIT
            assert new["deals"] == [] and new["made"] == [0] * players
        if stats["steps"] % 23 == 0:
            moves = GAME.legal_moves(old, seat)
            _check_steps(moves)
            keys = [normalise_notation(m.notation) for m in moves]
            assert len(keys) == len(set(keys))
            pub = json.dumps(GAME.view(new, None))
            for p in new["players"]:
                for cid in p["hand"]:
                    assert f'"{cid}"' not in pub
        for ev in events:
            json.dumps(ev.to_json(include_secret=True))

    final, log = random_playout(GAME, players, seed, on_step=check)
    out = GAME.outcome(final)
    assert out is not None and final["over"]
    assert len(set(final["turns"])) == 1  # equal turns for all
    assert final["cur"] == (final["start"] - 1) % players
    assert stats["offers"] > 0 and stats["turn_ends"] >= 54 // players
    assert out.scores == [d["total"] for d in out.details]
    assert sorted(out.ranks)[0] == 1
    assert replay(GAME, players, seed, None, log) == final


def test_games_with_eager_completers_end_by_the_trigger() -> None:
    """Random play rarely completes commissions; a player who always completes when able
    (and otherwise plays randomly) reaches the goal, and the game ends with equal turns."""
    from rules.rng import Rng

    for players, seed in ((2, 3), (4, 5)):  # 4 players: this one ends by the hexes
        state = GAME.setup(players, seed)
        pick = Rng.from_seed(seed, "eager")
        for _ in range(5000):
            seats = GAME.to_act(state)
            if not seats:
                break
            seat = seats[0]
            moves = GAME.legal_moves(state, seat)
            best = [m for m in moves if m.notation.startswith(("complete", "accept"))]
            if best:
                move = best[0]
            elif state["phase"] == "place":
                move = moves[0]  # the best-ranked placement
            elif state["phase"] == "trade":
                useful = [m for m in moves if m.notation.startswith("bank") and m.rank >= 3]
                move = useful[0] if useful else next(m for m in moves if m.notation == "end")
            else:
                move = moves[pick.below(len(moves))]
            state, _ = GAME.apply(state, seat, move)
        assert state["over"]
        assert len(set(state["turns"])) == 1
        details = GAME.outcome(state).details
        if players == 2:  # this seed's eager player reaches the goal
            assert state["end"] == "trigger"
            assert max(d["commissions"] for d in details) >= 45
