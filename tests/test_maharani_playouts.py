"""Random full Maharani games for 2, 3 and 4 players with invariants checked at every step."""

from __future__ import annotations

import json
from collections import Counter, defaultdict

import pytest

from rules.maharani import GAME
from rules.maharani.data import geometry
from rules.maharani.engine import WORKERS_PER_COLOUR
from rules.playout import random_playout, replay

G = geometry()


def check_invariants(st: dict) -> None:
    n = st["n"]
    # all 60 tiles accounted for, each exactly once
    where = (
        st["bag"]
        + [t for t in st["rondel"] if t is not None]
        + [t for t in st["tiles"] if t is not None]
        + st["discarded"]
    )
    assert sorted(where) == list(range(60)), "tiles lost or duplicated"
    # only surplus centre-pillar tiles leave the game, at most 4 of them
    assert all(G.tile_type[t] == "C" for t in st["discarded"])
    assert len(st["discarded"]) <= 4
    # placed tiles match their space's pillars with the stored arrow
    for s, t in enumerate(st["tiles"]):
        if t is None:
            assert st["dirs"][s] is None and st["workers"][s] is None
        else:
            assert st["dirs"][s] in G.arrow_dirs(t, s)
    # workers conserved per seat and worker colour
    on_board = Counter(w for w in st["workers"] if w is not None)
    for seat in range(n):
        for c in range(st["colours"]):
            total = st["supply"][seat][c] + on_board[seat * 2 + c]
            assert total == WORKERS_PER_COLOUR[n]
            assert st["supply"][seat][c] >= 0
    # one worker per worker colour per tile colour per quarter; none in scored quarters
    seen: dict[tuple[int, int, int], int] = defaultdict(int)
    for s, w in enumerate(st["workers"]):
        if w is not None:
            q = G.space_quarter[s]
            assert not st["scored"][q]
            seen[(w, q, G.tile_colour_idx[st["tiles"][s]])] += 1
    assert all(v == 1 for v in seen.values())
    # scored quarters are full (unless the stall rule scored them unfinished); a full
    # quarter is scored by the end of the turn that filled it
    for q in range(4):
        full = all(st["tiles"][s] is not None for s in G.quarter_spaces[q])
        if st["scored"][q] and st["end"] != "stall":
            assert full
        if full and st["phase"] in ("first", "over"):
            assert st["scored"][q]
    assert all(g >= 0 for g in st["gold"])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_full_games_keep_invariants(players: int) -> None:
    for seed in range(30):
        decisions = 0

        def on_step(old, seat, move, new, events) -> None:
            nonlocal decisions
            decisions += 1
            check_invariants(new)
            assert seat in GAME.to_act(old)
            # gold only moves by the second-tile payment inside a turn
            assert sum(new["gold"]) >= sum(old["gold"]) - 2

        final, log = random_playout(GAME, players, seed, on_step=on_step)
        assert final["phase"] == "over"
        out = GAME.outcome(final)
        assert out is not None and 1 in out.ranks
        if final["end"] == "complete":
            assert all(t is not None for t in final["tiles"]), "all 56 spaces filled"
            assert len(final["discarded"]) == 4
            assert final["bag"] == [] and final["rondel"] == [None] * 4
        assert final["scored"] == [True] * 4
        assert all(w is None for w in final["workers"])  # everyone went home after scoring
        assert json.loads(json.dumps(final)) == final
        if seed < 2:
            assert replay(GAME, players, seed, None, log) == final


def test_two_player_games_reach_worker_choices() -> None:
    choices = Counter()
    for seed in range(10):

        def on_step(old, seat, move, new, events) -> None:
            if old["phase"] == "worker":
                choices[move.notation[:-1]] += 1

        random_playout(GAME, 2, seed, on_step=on_step)
    assert choices["new"] > 0 and choices["move"] > 0


def test_step_trees_stay_small_and_notation_is_unique() -> None:
    """Every step of the guided panel offers at most 25 options; notations are unique,
    short and parse back; labels fit Discord's 100 characters."""
    for players in (2, 3, 4):
        st = GAME.setup(players, 7)
        for _ in range(200):
            seats = GAME.to_act(st)
            if not seats:
                break
            seat = seats[0]
            moves = GAME.legal_moves(st, seat)
            notes = [m.notation for m in moves]
            assert len(notes) == len(set(n.lower() for n in notes))
            children: dict[tuple[str, ...], set[str]] = defaultdict(set)
            for m in moves:
                assert len(m.notation) <= 80 and " " not in m.notation
                assert 0 < len(m.label) <= 100
                keys = tuple(s.key for s in m.steps)
                for i in range(len(keys)):
                    children[keys[:i]].add(keys[i])
            assert max(len(v) for v in children.values()) <= 25
            for m in moves[:: max(1, len(moves) // 10)]:
                assert GAME.parse(st, seat, m.notation) == m
            st, _ = GAME.apply(st, seat, moves[len(moves) // 3])


def test_apply_is_pure() -> None:
    st = GAME.setup(3, 4)
    for _ in range(60):
        seats = GAME.to_act(st)
        if not seats:
            break
        before = json.dumps(st, sort_keys=True)
        move = GAME.legal_moves(st, seats[0])[0]
        new, _ = GAME.apply(st, seats[0], move)
        assert json.dumps(st, sort_keys=True) == before
        st = new
