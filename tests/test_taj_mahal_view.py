"""What the Taj Mahal view tells beyond the rules' own needs (issue 42): every seat's points
by the rulebook's sources, equal to the record's scoring events; the last turn; what the
table shows face up (the discard pile, the cards taken from the display); and which cards
of a hand may still be played this visit."""

from __future__ import annotations

from typing import Any

import pytest

from rules.playout import random_playout
from rules.taj_mahal import GAME
from rules.taj_mahal.scoring import SOURCES
from tests.test_taj_mahal_rules import COMP, blank, give, play, show


@pytest.mark.parametrize(("players", "seed"), [(3, 5), (4, 6), (5, 7)])
def test_each_seats_breakdown_adds_up_and_equals_the_records_scoring_events(
    players: int, seed: int
) -> None:
    """Over a whole game: after every move each seat's score changed by exactly what that
    move's events (as the record stores them) say it scored, source by source; at the end
    the view's breakdown sums to the final score and equals the events' sums."""
    from_events = [dict.fromkeys(SOURCES, 0) for _ in range(players)]
    scoring_moves = 0

    def keep(old: Any, seat: int, move: Any, new: Any, events: list) -> None:
        nonlocal scoring_moves
        moved = [0] * players
        for event in events:
            data = event.to_json(include_secret=False)["data"]
            for source, points in data.get("sources", {}).items():
                from_events[data["seat"]][source] += points
                moved[data["seat"]] += points
        assert [b - a for a, b in zip(old["score"], new["score"], strict=True)] == moved
        scoring_moves += any(moved)

    final, _ = random_playout(GAME, players, seed, on_step=keep)
    view = GAME.view(final, None)
    assert view["over"] and scoring_moves > 10
    for seat, info in enumerate(view["player_info"]):
        assert set(info["points"]) == set(SOURCES)
        assert sum(info["points"].values()) == info["score"] == final["score"][seat]
        assert info["points"] == from_events[seat]
    # every source is met in a few whole games, the end's hands in every seat
    assert all(
        info["points"]["hand"] == h["points"]
        for info, h in zip(view["player_info"], view["final"], strict=True)
    )
    assert sum(i["points"]["palaces"] for i in view["player_info"]) > 0
    assert sum(i["points"]["goods"] for i in view["player_info"]) > 0


def test_the_last_turn_is_in_the_view_cards_or_prizes_palaces_and_picks() -> None:
    s = blank()
    assert GAME.view(s, None)["last"] is None
    show(s, "R-VE", "R-GE", "R-ME", "R-PE", "R-CE")
    give(s, 0, "B-VE", "W-V")
    give(s, 1, "B-GE")
    s, _ = play(s, 0, "B-VE+W-V")
    last = GAME.view(s, None)["last"]
    assert last["seat"] == 0 and [c["code"] for c in last["cards"]] == ["B-VE", "W-V"]
    assert last["won"] == [] and last["palaces"] == [] and last["took"] == []
    s["inv"][2] = False
    s, _ = play(s, 1, "withdraw")  # nothing played: wins nothing, picks two
    s, _ = play(s, 1, "take-R-GE")
    last = GAME.view(s, None)["last"]
    assert last["seat"] == 1 and last["cards"] == [] and last["won"] == []
    assert [c["code"] for c in last["took"]] == ["R-GE"]
    s, _ = play(s, 1, "take-R-PE")
    s, _ = play(s, 0, "withdraw")  # wins the vizier and the elephant: one palace
    last = GAME.view(s, None)["last"]
    assert last["seat"] == 0 and set(last["won"]) == {"vizier", "elephant"} and last["took"] == []
    city = GAME.palace_cities(s)[0]
    s, _ = play(s, 0, "palace-" + COMP.city_code(city))
    s, _ = play(s, 0, "take-R-ME")
    last = GAME.view(s, None)["last"]
    assert last["palaces"] == [city] and [c["code"] for c in last["took"]] == ["R-ME"]


def test_the_discard_pile_and_the_cards_taken_from_the_display_are_public() -> None:
    s = blank()
    show(s, "R-VE", "R-GE", "R-ME", "R-PE", "R-CE")
    give(s, 0, "B-VE")
    give(s, 1, "B-GE")
    s["inv"][2] = False
    s, _ = play(s, 0, "B-VE")
    s, _ = play(s, 1, "withdraw")
    s, _ = play(s, 1, "take-R-GE")
    s, _ = play(s, 1, "take-R-VE")
    pub = GAME.view(s, None)
    assert "hand" not in pub
    assert sorted(c["code"] for c in pub["player_info"][1]["known"]) == ["R-GE", "R-VE"]
    assert pub["player_info"][0]["known"] == []
    s, _ = play(s, 0, "withdraw")  # his blue card goes face up onto the discard pile
    s, _ = play(s, 0, "palace-" + COMP.city_code(GAME.palace_cities(s)[0]))
    pub = GAME.view(s, None)
    assert [c["id"] for c in pub["discard"]] == s["discard"]
    assert "B-VE" in [c["code"] for c in pub["discard"]] and pub["discard_size"] == len(
        s["discard"]
    )
    # a known card played (next visit) is no longer known; the other stays known
    while s["visit"] == 0:
        seat = GAME.to_act(s)[0]
        s, _ = GAME.apply(s, seat, GAME.legal_moves(s, seat)[0])
    while GAME.to_act(s) != [1]:
        seat = GAME.to_act(s)[0]
        s, _ = GAME.apply(s, seat, GAME.legal_moves(s, seat)[0])
    s, _ = play(s, 1, "R-VE")
    assert [c["code"] for c in GAME.view(s, None)["player_info"][1]["known"]] == ["R-GE"]


def test_the_hand_view_says_which_cards_may_still_be_played_this_visit() -> None:
    s = blank()
    give(s, 0, "R-VE", "R-GE", "B-ME", "W-P")
    give(s, 1, "Y-VE", "S-X", "G-GE", "W-C")
    give(s, 2, "G-VE")

    def playable(seat: int) -> tuple[list[str], list[str]]:
        got = GAME.view(s, seat)["playable"]
        return (
            sorted(COMP.cards[c].code for c in got["cards"]),
            sorted(COMP.cards[c].code for c in got["with_change"]),
        )

    assert playable(0) == (["B-ME", "R-GE", "R-VE", "W-P"], [])  # no colour yet: all
    s, _ = play(s, 0, "R-VE")
    assert playable(0) == (["R-GE", "W-P"], [])  # red now; the white beside a red card
    s, _ = play(s, 1, "Y-VE")
    # no yellow left: green only with the colour change, and then no room for the white
    assert playable(1) == (["G-GE", "S-X"], ["G-GE"])
    s, _ = play(s, 2, "G-VE")
    s, _ = play(s, 0, "R-GE")
    assert playable(0) == ([], [])  # only the white card left: no coloured card beside it
    s, _ = play(s, 1, "withdraw")
    assert playable(1) == ([], [])  # withdrawn: nothing until the next visit


def test_a_state_saved_before_these_records_plays_on_draws_and_thinks() -> None:
    """A match stored before ``sources``, ``known`` and ``last`` were kept: its moves
    apply, its views say the last turn from then on, its final picture shows no breakdown
    (the sources before are unknown) rather than a wrong one, and a computer player still
    reads its view."""
    from render.taj_mahal import draw
    from rules.ai.hooks import ai_for
    from rules.rng import Rng

    states: list[dict] = []
    random_playout(GAME, 3, 4, on_step=lambda *a: states.append(a[3]))
    later = set(GAME.later_keys)
    old = {k: v for k, v in states[len(states) // 2].items() if k not in later}
    view = GAME.view(old, None)
    assert view["last"] is None and view["player_info"][0]["points"] is None
    seat = GAME.to_act(old)[0]
    ai_for(GAME).determinize(GAME, GAME.view(old, seat), seat, Rng(1))
    s = old
    while GAME.to_act(s):
        seat = GAME.to_act(s)[0]
        s, _ = GAME.apply(s, seat, GAME.legal_moves(s, seat)[0])
        assert GAME.view(s, None)["last"]["seat"] == seat
    final = GAME.view(s, None)
    assert final["over"] and final["player_info"][0]["points"] is None
    draw(final, ["Ann", "Ben", "Cid"], None)
    draw(GAME.view(s, 0), ["Ann", "Ben", "Cid"], 0)
