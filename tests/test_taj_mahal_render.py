"""Taj Mahal pictures: many random states draw without error, stay small, and the public
picture is drawn from the public view alone (which holds no hand)."""

from __future__ import annotations

import pytest

from render.common import encode_png
from render.registry import render_png
from render.taj_mahal import draw
from rules.playout import random_playout
from rules.taj_mahal import GAME

NAMES = ["Ágnes", "Bálint", "Csilla", "Dániel", "Ödön"]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_states_draw_small_pngs(players: int) -> None:
    states = []

    def keep(old, seat, move, new, events) -> None:  # noqa: ANN001
        if len(states) < 400:
            states.append(new)

    final, _ = random_playout(GAME, players, 7 + players, on_step=keep)
    states.append(final)
    for st in states[:: max(1, len(states) // 6)] + [final]:
        pub = GAME.view(st, None)
        assert "hand" not in pub
        img = draw(pub, NAMES[:players], None)
        assert 1200 <= img.width <= 1600
        png = encode_png(img)
        assert len(png) < 400_000
        seat = GAME.to_act(st)[0] if GAME.to_act(st) else 0
        mine = draw(GAME.view(st, seat), NAMES[:players], seat)
        assert 400 <= mine.width <= 600 and len(encode_png(mine)) < 400_000


def test_registry_renders_and_names_with_duplicate_initials() -> None:
    st = GAME.setup(4, 1)
    png = render_png("taj-mahal", GAME.view(st, None), ["Ann", "Amy", "Bo", "Cy"])
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    # a private picture of a big hand still fits and is drawn
    st["hands"][0] = sorted(st["deck"][:40])
    img = draw(GAME.view(st, 0), ["Ann", "Amy", "Bo", "Cy"], 0)
    assert img.height > 400 and len(encode_png(img)) < 400_000


def _info(in_visit: bool, *symbol_lists: list[str]) -> dict:
    return {"in_visit": in_visit, "played": [{"symbols": s} for s in symbol_lists]}


def test_court_shows_who_leads_each_prize_and_by_how_much() -> None:
    from render.taj_mahal import court_leads

    view = {
        "court": ["vizier", "general", "monk", "mogul", "elephant"],
        "player_info": [
            _info(True, ["vizier", "elephant"], ["vizier"]),
            _info(True, ["vizier", "general"], ["elephant"]),
            _info(False, ["monk"], ["monk"], ["monk"]),  # withdrew: no longer counts
        ],
    }
    leads = court_leads(view)
    assert leads["vizier"] == ([0], 2, 1)  # seat 0 leads by one
    assert leads["general"] == ([1], 1, 1)
    assert leads["elephant"] == ([0, 1], 1, 0)  # a tie: nobody would win it
    assert "monk" not in leads and "mogul" not in leads  # nobody in the visit shows one
    assert "princess" not in leads  # not in the court any more


def test_plural_words_for_cards_and_commissions() -> None:
    from render.words.catalogue import tn

    assert tn("pic.pastiche.n_cards", 1) == "1 palette card"
    assert tn("pic.pastiche.n_cards", 4) == "4 palette cards"
    assert tn("pic.pastiche.n_commissions", 0) == "0 commissions"
    assert tn("pic.pastiche.n_commissions", 1, "pt") == "1 commission"  # a language we lack
