"""Taj Mahal's picture caches (render/taj_mahal/canvas.py and the sprites of its modules):
a cached sprite lands on exactly the pixels drawing in place sets, a cache never shows a
stale piece of an earlier picture, and the legend drawn once into the cached canvas looks
as drawn last, on a picture of the usual height and on a taller one."""

from __future__ import annotations

import random
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

import render.taj_mahal.public as public
from render.common import INK, font
from render.taj_mahal import draw
from render.taj_mahal.board import H, W, _base
from render.taj_mahal.canvas import Canvas, cut, put, split, stamp
from rules.playout import random_playout
from rules.taj_mahal import GAME
from tests.picture_probe import fresh_caches

NAMES = ["Ágnes", "Bálint", "Csilla", "Dániel", "Ödön"]
COMPUTERS = ["🤖 Ada (normal)", "Anna", "Bob", "🤖 Bea (hard)", "Cecilia"]


def _same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


def _views(players: int, seed: int) -> list[dict[str, Any]]:
    states: list[dict[str, Any]] = []
    final, _ = random_playout(GAME, players, seed, on_step=lambda *a: states.append(a[3]))
    step = len(states) // 3
    return [GAME.view(s, None) for s in (*states[step::step][:3], final)]


def _shape(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
    """Shapes with fractional corners and a centred text, as the sprites draw them."""
    d.rounded_rectangle((x - 13.5, y - 9.25, x + 12.75, y + 9.5), 4, fill="#FFE9A8", outline=INK)
    d.ellipse((x - 7.5, y - 7.5, x + 7.5, y + 7.5), fill="#0072B2", outline=INK, width=2)
    d.text((x, y), "Ab", font=font(15, True), fill="#FFFFFF", anchor="mm")


def test_a_sprite_sets_the_pixels_drawing_in_place_sets() -> None:
    """At any sub-pixel position (halves too: Pillow rounds some coordinates half to
    even), a stamped sprite pasted on a canvas below a band (37 px: odd) sets the pixels
    the shape drawn there on a board of its own sets."""
    rng = random.Random(4)
    points = [(20.5, 30.5), (21.5, 31.5), (40.0, 41.0), (33.25, 27.75)]
    points += [(rng.uniform(20, 80), rng.uniform(20, 80)) for _ in range(20)]
    for x, y in points:
        drawn = Image.new("RGB", (100, 103), "#F4EFE6")
        _shape(ImageDraw.Draw(drawn), x, y)
        pasted = Image.new("RGB", (100, 140), "#F4EFE6")
        (px, fx), (py, fy) = split(x), split(y)
        put(Canvas(pasted, 37), stamp(_shape, fx, fy, 20), px, py)
        assert _same(drawn, pasted.crop((0, 37, 100, 140))), (x, y)


def test_a_cut_sprite_pastes_as_the_whole_sprite_through_its_alpha() -> None:
    """Opaque runs copied, the rest through the mask: the same pixels as one masked paste,
    smoothed edges (partial alpha) included."""
    big = Image.new("RGBA", (160, 120), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.polygon([(10, 110), (80, 8), (150, 110)], fill="#D55E00", outline=INK, width=6)
    d.rounded_rectangle((30, 60, 130, 100), 12, fill="#FFFFFF", outline=INK, width=4)
    sprite = big.reduce(4)  # smoothed: partial alpha on every slanted edge
    assert set(sprite.getchannel("A").tobytes()) - {0, 255}
    for background in ("#F4EFE6", "#222222"):
        whole = Image.new("RGB", (60, 50), background)
        whole.paste(sprite, (9, 11), sprite)
        parts = Image.new("RGB", (60, 50), background)
        Canvas(parts).paste(cut(sprite), (9, 11))
        assert _same(whole, parts)


def test_warm_caches_draw_the_pictures_cold_caches_draw() -> None:
    """Pictures drawn one after another (sprites, layers and the legend cached by the
    earlier ones) equal each drawn with every cache empty: no cache is keyed by less than
    what changes its pixels (language, seat colours and letters, a computer's robot,
    the cards, the prizes, the phase of a position)."""
    cases = []
    for players, seed, names in ((3, 11, NAMES), (5, 12, COMPUTERS), (4, 13, COMPUTERS)):
        for i, view in enumerate(_views(players, seed)):
            cases.append((view, names[:players], ("en", "hu", "de", "pl")[i]))
    warm = [draw(view, names, None, lang) for view, names, lang in cases]
    for (view, names, lang), picture in zip(cases, warm, strict=True):
        fresh_caches("taj-mahal")
        assert _same(draw(view, names, None, lang), picture), lang


def _taller_view() -> dict[str, Any]:
    """A view whose players' rows need more than the usual height (many cards)."""
    view = _views(5, 3)[1]
    cards = [c for info in view["player_info"] for c in info["played"]] + view["display"]
    for info in view["player_info"]:
        info["played"] = (cards * 8)[:8]
        info["known"] = (cards * 20)[:20]
    return view


@pytest.mark.parametrize("taller", [False, True])
def test_the_legend_drawn_into_the_cached_canvas_looks_as_drawn_last(
    taller: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = _taller_view() if taller else _views(4, 5)[1]
    names = NAMES[: view["players"]]
    for lang in ("en", "hu"):
        picture = draw(view, names, None, lang)
        # a band is ~130 px; the taller rows add ~190
        assert (picture.height > H + 240) == taller

        def plain(lang: str) -> public._Layer:
            img = Image.new("RGB", (W, public.BAND_ROOM + H))
            img.paste(_base(lang), (0, public.BAND_ROOM))
            return public._Layer(img, None, None)

        with monkeypatch.context() as patch:
            patch.setattr(public, "_canvas", plain)
            last = draw(view, names, None, lang)
        assert public._canvas(lang).legend is not None  # drawn into the canvas here
        assert _same(picture, last), lang


def test_a_band_taller_than_the_room_kept_for_it_leaves_the_board_as_it_is() -> None:
    """The cached canvas keeps room for a usual band; a band taller than that (an endless
    last move) gets it too, and the board below either band is the same."""
    view = _views(3, 6)[1]
    names = NAMES[:3]
    short = draw({**view, "last_move": "Ágnes: played R-VE."}, names, None)
    long = draw({**view, "last_move": "Ágnes: " + "played a card, " * 120}, names, None)
    band_short, band_long = short.height - H, long.height - H
    assert band_long > public.BAND_ROOM > band_short
    assert _same(
        short.crop((0, band_short, W, short.height)), long.crop((0, band_long, W, long.height))
    )
