"""Pastiche's cached parts are keyed by everything that changes their pixels (a cache keyed
wrongly shows a stale picture), and the public picture's canvas is measured before it is
drawn (drawn once, at its size: no second pass, no crop)."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image, ImageChops

import render.pastiche.players as players_panel
import render.pastiche.public as public
from render.common import BACKGROUND
from render.pastiche import draw
from render.pastiche.common import paste_card
from render.words.catalogue import MESSAGES, messages
from rules.pastiche import GAME
from rules.playout import random_playout

NAMES = ["Detti", "Gábor", "Móni", "Dunda"]
COM = {
    "id": "P05",
    "title": "The Fifer",
    "painter": "Edouard Manet",
    "points": 16,
    "palette": ["red", "black", "white", "gray"],
}


def _card(com: dict[str, Any], lack: list[str] | None = None, **kw: Any) -> Image.Image:
    img = Image.new("RGB", (520, 300), BACKGROUND)
    paste_card(img, 10, 10, kw.pop("w", 480), com, lack, **kw)
    return img


def _differ(a: Image.Image, b: Image.Image) -> bool:
    return a.size != b.size or ImageChops.difference(a, b).getbbox() is not None


def test_a_commission_card_changes_with_each_thing_it_shows() -> None:
    plain = _card(COM, tag="P05")
    assert not _differ(plain, _card(dict(COM), tag="P05"))  # the same card: the same pixels
    assert _differ(plain, _card(COM, ["red"], tag="P05"))  # a lacking colour
    assert _differ(_card(COM, ["red"]), _card(COM, ["gray"]))
    assert _differ(plain, _card({**COM, "points": 15}, tag="P05"))
    assert _differ(plain, _card({**COM, "palette": ["red", "black", "white"]}, tag="P05"))
    assert _differ(plain, _card({**COM, "id": "P23"}, tag="P05"))  # another painting
    assert _differ(plain, _card(COM, tag="P23"))
    assert _differ(plain, _card(COM, tag="P05", lang="de"))
    assert _differ(plain, _card(COM, tag="P05", w=400))
    german = {**COM, "id": "P29", "palette": ["orange", "green"]}  # a long title in German
    assert _differ(_card(german, lang="de", smallest=16), _card(german, lang="de", smallest=11))


def _with_offers() -> dict[str, Any]:
    found: list[dict[str, Any]] = []

    def grab(old: Any, seat: Any, move: Any, new: dict[str, Any], events: Any) -> None:
        if not found and GAME.view(new, None).get("offers"):
            found.append(new)

    random_playout(GAME, 3, 5, on_step=grab)
    assert found, "no offer in the game"
    return found[0]


def test_the_offers_change_with_the_names_and_the_language() -> None:
    view = GAME.view(_with_offers(), None)
    one, _ = public._offers_sprite(view, NAMES[:3], "en")
    assert not _differ(one, public._offers_sprite(view, list(NAMES[:3]), "en")[0])
    assert _differ(one, public._offers_sprite(view, ["Ann", "Ben", "Cy"], "en")[0])
    assert _differ(one, public._offers_sprite(view, NAMES[:3], "hu")[0])
    other = dict(view, offers=[dict(o, id=o["id"] + 1) for o in view["offers"]])
    assert _differ(one, public._offers_sprite(other, NAMES[:3], "en")[0])


def _states(players: int, seed: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    final, _ = random_playout(GAME, players, seed, on_step=lambda old, *_: out.append(old))
    return [*out[:: max(1, len(out) // 10)], final]


@pytest.mark.parametrize(("players", "lang"), [(2, "en"), (3, "pl"), (4, "de")])
def test_the_public_canvas_is_measured_before_drawing(
    players: int, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every part's height is known before drawing, so the canvas is made once at the
    picture's size: a measure that disagreed with the drawing would cost a crop or a
    second pass (the picture stays right, but ~2 ms slower)."""
    seen: list[tuple[int, int]] = []
    canvas = public._on_canvas

    def measured(width: int, height: int, paint: Any, band: Any = None) -> Image.Image:
        def check(img: Image.Image, top: int) -> int:
            bottom = int(paint(img, top))
            seen.append((bottom, top + height))
            return bottom

        return canvas(width, height, check, band)

    monkeypatch.setattr(public, "_on_canvas", measured)
    for state in _states(players, 30 + players):
        draw(GAME.view(state, None), NAMES[:players], None, lang)
    assert seen and all(bottom == size for bottom, size in seen), seen


def test_a_seat_head_changes_with_each_thing_it_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    head = players_panel._seat_head
    monkeypatch.setitem(MESSAGES, "pl", {**(messages("pl") or {}), "pic.pastiche.token": "g{n}"})
    head.cache_clear()  # and again below: no head with the made-up word outlives the test
    one = head(1, True, "Gábor", "G", "12", 342, "en")
    assert not _differ(one, head(1, True, "Gábor", "G", "12", 342, "en"))
    for other in (
        head(2, True, "Gábor", "G", "12", 342, "en"),  # the seat's colour and token
        head(1, False, "Gábor", "G", "12", 342, "en"),  # whether it acts
        head(1, True, "Gabor", "G", "12", 342, "en"),
        head(1, True, "Gábor", "Gá", "12", 342, "en"),  # the initial (shared initials)
        head(1, True, "Gábor", "G", "13", 342, "en"),
        head(1, True, "Gábor", "G", "12", 684, "en"),
        head(1, True, "Gábor", "G", "12", 342, "pl"),  # the token's word (made up here)
    ):
        assert _differ(one, other)
    head.cache_clear()


def test_the_players_panel_follows_the_names_and_scores() -> None:
    """The same state drawn for other names, or with another score, is another picture
    (the seats' heads are cached)."""
    state = _states(3, 9)[5]
    view = GAME.view(state, None)
    one = draw(view, NAMES[:3], None)
    assert not _differ(one, draw(view, NAMES[:3], None))
    assert _differ(one, draw(view, ["Detti", "Gábor", "Móna"], None))
    seats = [dict(s) for s in view["seats"]]
    seats[1]["score"] += 1
    assert _differ(one, draw(dict(view, seats=seats), NAMES[:3], None))
