"""What Maharani's pictures explain, measured on whole games: the gold by source (tile
areas, worker groups, second tiles, each quarter's result) adds up to every seat's gold and
equals what the record's events say, and the final picture prints that arithmetic; a state
saved before the tally existed still plays and draws."""

from __future__ import annotations

from typing import Any

import pytest

from rules.maharani import GAME
from rules.maharani.engine import QUARTER_GOLD
from rules.playout import random_playout
from tests.picture_probe import draw_probed

NAMES = ["Anna", "Bálint", "Csilla", "Łukasz"]


def _from_record(players: int, events: list[Any]) -> list[dict[str, Any]]:
    """Each seat's gold by source, summed from the record's events alone."""
    out = [
        {"tiles": 0, "workers": 0, "second_tiles": 0, "quarters": [None] * 4}
        for _ in range(players)
    ]
    for seat, e in events:
        if e.kind == "tile":
            out[seat]["tiles"] += e.data["gold"]
        elif e.kind == "worker" and "gold" in e.data:
            out[seat]["workers"] += e.data["gold"]
        elif e.kind == "pay":
            out[seat]["second_tiles"] -= e.data["gold"]
        elif e.kind == "score":
            q = e.data["quarter"] - 1
            for s in range(players):
                mine = [r for r in e.data["results"] if r["seat"] == s]
                out[s]["quarters"][q] = {
                    "workers": [r["workers"] for r in mine],
                    "gold": sum(r["gold"] for r in mine),
                }
    return out


@pytest.mark.parametrize(
    ("players", "seed", "options"),
    [(2, 31, None), (3, 32, None), (4, 33, None), (2, 34, {"two_player_seats": "adjacent"})],
)
def test_gold_by_source_adds_up_and_equals_the_record(
    players: int, seed: int, options: dict[str, Any] | None
) -> None:
    events: list[tuple[int, Any]] = []
    steps = checked = 0

    def record(old: Any, seat: int, move: Any, new: dict[str, Any], evs: Any) -> None:
        nonlocal steps, checked
        events.extend((seat, e) for e in evs)
        steps += 1
        if steps % 5 == 0:  # on the way: the view's sources add up to the gold
            view = GAME.view(new, None)
            for s, src in enumerate(view["sources"]):
                quarters = sum(q["gold"] for q in src["quarters"] if q is not None)
                assert (
                    src["tiles"] + src["workers"] + src["second_tiles"] + quarters
                    == (view["gold"][s])
                )
            checked += 1

    final, _ = random_playout(GAME, players, seed, options, on_step=record)
    assert checked > 10
    view = GAME.view(final, None)
    assert view["sources"] == _from_record(players, events)
    assert all(q is not None for q in view["sources"][0]["quarters"])
    for s, src in enumerate(view["sources"]):
        for q in src["quarters"]:
            assert q["gold"] == sum(QUARTER_GOLD[min(k, 6)] for k in q["workers"])
        total = src["tiles"] + src["workers"] + src["second_tiles"]
        assert total + sum(q["gold"] for q in src["quarters"]) == view["gold"][s]


def test_a_state_saved_before_the_tally_still_plays_and_draws() -> None:
    state = GAME.setup(3, 5)
    for _ in range(12):
        seat = GAME.to_act(state)[0]
        state, _ = GAME.apply(state, seat, GAME.legal_moves(state, seat)[0])
    old = {k: v for k, v in state.items() if k not in ("tally", "results")}
    seat = GAME.to_act(old)[0]
    new, _ = GAME.apply(old, seat, GAME.legal_moves(old, seat)[0])
    assert "tally" not in new and GAME.view(new, None)["sources"] is None
    img, _ = draw_probed("maharani", GAME.view(new, None), NAMES[:3], None, "en")
    assert img.width > 0
