"""Random full Azul games with invariants checked at every step."""

from __future__ import annotations

import copy
import json

import pytest

from rules.azul import GAME
from rules.azul.board import COLOURS, MARKER
from rules.playout import random_playout, replay
from tests.test_azul_support import per_colour_total, tile_total


def _check_state(s: dict) -> None:
    assert tile_total(s) == 100
    assert per_colour_total(s) == [20] * 5
    assert s["left"] == sum(map(sum, s["fac"])) + sum(s["centre"])
    assert min(s["bag"] + s["lid"] + s["centre"]) >= 0
    for p in range(s["players"]):
        assert s["score"][p] >= 0
        assert len(s["floor"][p]) <= 7
        marks = s["floor"][p].count(MARKER)
        assert marks <= 1 and (marks == 0 or s["marker"] == p)
        wall = s["wall"][p]
        for r in range(5):
            row = [x for x in wall[r * 5 : r * 5 + 5] if x >= 0]
            assert len(row) == len(set(row))
            mask = sum(1 << k for k in row)
            assert s["rows"][p][r] == mask
            n = s["ln"][p][r]
            assert 0 <= n <= r + 1
            if n:
                assert not mask >> s["lc"][p][r] & 1
        for c in range(5):
            col = [x for x in wall[c::5] if x >= 0]
            assert len(col) == len(set(col))
        if not s["grey"]:
            assert all(x < 0 or x == (i % 5 - i // 5) % 5 for i, x in enumerate(wall))
    assert json.loads(json.dumps(s)) == s


@pytest.mark.parametrize("grey", [False, True])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_conserve_tiles_at_every_step(players: int, grey: bool) -> None:
    for seed in (1, 2, 3):
        seen_refills = 0

        def check(old, seat, move, new, events):
            nonlocal seen_refills
            snapshot = copy.deepcopy(old)
            _check_state(new)
            assert old == snapshot  # apply did not touch the old state
            assert seat in GAME.to_act(old)
            for ev in events:
                json.dumps(ev.to_json(include_secret=True))
                if ev.kind == "refill":
                    seen_refills += 1
                    assert ev.reveals
                    # the event alone says which tiles went where
                    factories = ev.data["factories"]
                    assert len(factories) == len(new["fac"])
                    for f, tiles in zip(new["fac"], factories, strict=True):
                        assert (f or [0] * 5) == [tiles.count(c) for c in COLOURS]
            view = GAME.view(new, None)
            json.dumps(view)
            assert GAME.view(new, 0) == view  # nothing is hidden in Azul
            assert view["bag"] == sum(new["bag"]) and view["lid"] == sum(new["lid"])

        state, log = random_playout(GAME, players, seed, {"grey_wall": grey}, on_step=check)
        assert GAME.outcome(state) is not None
        assert seen_refills == state["round"] - 1
        assert replay(GAME, players, seed, {"grey_wall": grey}, log) == state


def test_many_random_games_end_with_a_row_or_no_tiles() -> None:
    reasons = set()
    for seed in range(120):
        players = 2 + seed % 3
        grey = seed % 2 == 1
        state, _ = random_playout(GAME, players, seed, {"grey_wall": grey})
        _check_state(state)
        out = GAME.outcome(state)
        assert out is not None and 1 in out.ranks
        reasons.add(state["end"])
        if state["end"] == "row":
            assert any(d["rows"] >= 1 for d in out.details)
        assert out.scores == state["score"]
        expected = sorted(range(players), key=lambda p: (-out.scores[p], -out.details[p]["rows"]))
        assert out.ranks[expected[0]] == 1
    assert "row" in reasons


def test_grey_wall_decisions_are_moves_of_the_right_players() -> None:
    decisions = 0

    def check(old, seat, move, new, events):
        nonlocal decisions
        if old["phase"] == "tiling":
            decisions += 1
            assert move.notation.startswith("col-")
            assert len(GAME.legal_moves(old, seat)) >= 2  # only real choices are asked
            line = old["tnext"][seat]
            assert old["ln"][seat][line] == line + 1

    for seed in range(6):
        random_playout(GAME, 3, seed, {"grey_wall": True}, on_step=check)
    assert decisions > 20


def test_setup_events_record_the_first_factories() -> None:
    s = GAME.setup(4, 9)
    (ev,) = GAME.setup_events(s)
    assert ev.reveals and ev.data["round"] == 1
    assert [[t.count(c) for c in COLOURS] for t in ev.data["factories"]] == s["fac"]


@pytest.mark.parametrize(("players", "grey"), [(2, False), (3, True)])
def test_quick_legality_check_agrees_with_the_legal_moves(players: int, grey: bool) -> None:
    """``apply`` and ``next_state`` judge an offer inside ``_take`` (``None`` for a refusal)
    and only ask ``_offer_problem`` for the words of a refusal: both must say exactly what
    ``legal_moves`` says, for every source, colour and destination (out of range too)."""
    from rules.azul.board import CENTRE
    from rules.azul.moves import FLOOR, PARSED

    states: list[dict] = []
    for seed in range(3):
        random_playout(
            GAME, players, seed, {"grey_wall": grey}, on_step=lambda old, *_: states.append(old)
        )
    checked = 0
    for state in states[::3]:
        if state["phase"] != "offer":
            continue
        seat = state["turn"]
        legal_offers = {PARSED[m.notation] for m in GAME.legal_moves(state, seat)}
        for src in [*range(-1, len(state["fac"]) + 1), CENTRE]:
            for colour in range(5):
                for dest in [*range(-1, 6), FLOOR]:
                    quick = GAME._take(state, seat, src, colour, dest, None) is not None
                    assert quick == ((src, colour, dest) in legal_offers)
                    assert quick == (GAME._offer_problem(state, seat, src, colour, dest) is None)
                    checked += 1
    assert checked > 1000
