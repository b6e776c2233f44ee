"""Taj Mahal's pieces as drawn in both pictures: cards (colour, letter and symbol), the
court's symbols with the Grand Mogul's crown, fortress bonus cards, good tiles with their
letters, and the names of seats and card colours in the picture's language. Colour is never
the only cue: every card and tile carries its letter. Cards and tiles are cached sprites."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    INK,
    MUTED,
    font,
)
from render.seats import draw_robot
from render.taj_mahal.canvas import Canvas, Pen, Sprite, cut, put, split, stamp
from render.words.catalogue import t, word
from rules.taj_mahal.components import SYMBOL_LETTERS

#: Card colours chosen to stay apart (CAM02-UCS ΔE ≥ 18) under simulated deuteranopia,
#: protanopia and tritanopia as well as normal vision (tests/test_picture_colours.py);
#: every card also carries its colour's letter.
CARD_FILL = {
    "red": "#CE5061",
    "yellow": "#FBD84E",
    "green": "#9DCB9A",
    "blue": "#6B95FF",
    None: "#FFFFFF",
}
SPECIAL_FILL = "#D3942F"
GOOD_FILL = {"rice": "#FFFFFF", "tea": "#9ED39B", "spice": "#F0A35E", "jewel": "#B9A3F0"}
GOOD_LETTER = {"rice": "R", "tea": "T", "spice": "S", "jewel": "J"}
FORT = "#5C2A5A"  # plum: apart from every player colour, blue too, for deuteranopes


def _name(names: list[str], seat: int, lang: str = "en") -> str:
    return names[seat] if seat < len(names) else t("pic.common.player", lang, n=seat + 1)


def _colour(name: str, lang: str) -> str:
    return word("pic.taj.colour", name, lang)


def _crown(d: Pen, cx: float, cy: float, size: float, fill: str) -> None:
    """A three-pointed crown centred at (cx, cy): the Grand Mogul's symbol."""
    w, h = size, size * 0.75
    x0, y0, x1, y1 = cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2
    pts = [
        (x0, y1),
        (x0, y0),
        (x0 + w * 0.25, y0 + h * 0.45),
        (cx, y0 - h * 0.05),
        (x1 - w * 0.25, y0 + h * 0.45),
        (x1, y0),
        (x1, y1),
    ]
    d.polygon(pts, fill=fill, outline=INK, width=max(1, int(size / 12)))


def _card(c: Canvas, x: int, y: int, card: dict[str, Any], w: int = 46, h: int = 66) -> None:
    """Paste a card (drawn once per card and size: a picture shows up to ~60)."""
    key = (card["code"], card["kind"], card["colour"], tuple(card["symbols"]), w, h)
    c.paste(_card_sprite(*key), (int(x), int(y)))


@lru_cache(maxsize=512)
def _card_sprite(
    code: str, kind: str, colour: str | None, symbols: tuple[str, ...], w: int, h: int
) -> Sprite:
    sprite = Image.new("RGBA", (w + 1, h + 1), (0, 0, 0, 0))
    card = {"code": code, "kind": kind, "colour": colour, "symbols": list(symbols)}
    _draw_card(ImageDraw.Draw(sprite), 0, 0, card, w, h)
    return cut(sprite)


def _draw_card(d: Pen, x: int, y: int, card: dict[str, Any], w: int = 46, h: int = 66) -> None:
    """A card: fill by colour, a top strip with its colour letter, its symbols below.

    A special card has no colour letter: its shape says it (a second frame inside the
    edge) and its top strip says what it adds ("+1"), so the two never share the strip
    (a small card once drew "S" and "+1" into one another: "$1")."""
    kind = card["kind"]
    special = kind == "special"
    fill = SPECIAL_FILL if special else CARD_FILL.get(card["colour"], "#FFFFFF")
    d.rounded_rectangle((x, y, x + w, y + h), 6, fill=fill, outline=INK, width=2)
    f_small = font(15, bold=True)
    syms = card["symbols"]
    if special:
        d.rounded_rectangle((x + 4, y + 4, x + w - 4, y + h - 4), 4, outline=INK, width=1)
        if not syms:
            label = "+2" if card["code"].split("-")[1] == "2" else "⇄"
            size = 20 if w >= 40 else 17
            d.text((x + w / 2, y + h / 2), label, font=font(size, True), fill=INK, anchor="mm")
            return
        d.text((x + w / 2, y + 5), "+1", font=f_small, fill=INK, anchor="ma")
    else:
        d.text((x + 4, y + 2), card["code"].split("-")[0], font=f_small, fill=INK)
    # the symbols share what is left below the strip, each in its own band
    top = y + 20
    band = (y + h - 4 - top) / max(1, len(syms))
    size = max(15, min(24, int(band), int(w * 0.5)))
    for i, sym in enumerate(syms):
        _symbol(d, x + w / 2, top + band * (i + 0.5), sym, size)


def _symbol(d: Pen, cx: float, cy: float, sym: str, size: int) -> None:
    if sym == "mogul":
        _crown(d, cx, cy, size * 1.1, "#F2C230")
    else:
        d.text((cx, cy), SYMBOL_LETTERS[sym], font=font(size, bold=True), fill=INK, anchor="mm")


def _mark_below(d: Pen, cx: float, y: float, size: float = 14) -> None:
    """The last-move pointer: a dark triangle pointing down at ``y`` (its tip), outlined
    in white so it shows on any background. A shape, never a colour alone."""
    pts = [(cx - size * 0.6, y - size), (cx + size * 0.6, y - size), (cx, y)]
    d.polygon(pts, fill=INK, outline="#FFFFFF", width=1)


def _mark_box(
    d: Pen, box: tuple[float, float, float, float], r: int = 8, pointer: int = 10
) -> None:
    """The last-move frame around a card: a thick dark frame with a white line inside, a
    triangle pointing at it from above (contrast on light and dark fills alike)."""
    x0, y0, x1, y1 = box
    d.rounded_rectangle((x0 - 4, y0 - 4, x1 + 4, y1 + 4), r, outline=INK, width=3)
    d.rounded_rectangle((x0 - 1, y0 - 1, x1 + 1, y1 + 1), r - 2, outline="#FFFFFF", width=1)
    _mark_below(d, (x0 + x1) / 2, y0 - 4, pointer)


def _mark_ring(d: Pen, cx: float, cy: float, r: float) -> None:
    """The last-move ring around a palace or a prize: dark, white inside, a pointer."""
    d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=INK, width=3)
    d.ellipse((cx - r + 3, cy - r + 3, cx + r - 3, cy + r - 3), outline="#FFFFFF", width=2)
    _mark_below(d, cx, cy - r + 2)


def robot_badge(d: ImageDraw.ImageDraw, x: float, cy: float, size: int) -> None:
    """A computer seat's mark: a drawn robot head ``size`` px tall from ``x`` on a white
    plate (:func:`render.seats.draw_robot`: the 🤖 of its name is no glyph of our fonts,
    and colour alone would be its only cue)."""
    d.rounded_rectangle(
        (x - 2, cy - size * 0.62, x + size * 0.98, cy + size * 0.62), radius=3, fill="#FFFFFF"
    )
    draw_robot(d, x, cy, size, INK, "#FFFFFF")


def _mini_card(d: Pen, x: float, y: float, w: float = 12, h: float = 17) -> None:
    """A small card outline (two stacked cards), the icon of "draw a card"."""
    d.rounded_rectangle((x + 3, y - 2, x + w + 3, y + h - 2), 2, fill="#D9D2C2", outline=INK)
    d.rounded_rectangle((x, y, x + w, y + h), 2, fill="#FFFFFF", outline=INK, width=2)


def card_bonus(c: Canvas, bx: float, by: float, code: str, used: bool = False) -> None:
    """Paste the "+1 card" bonus tile centred at (``bx``, ``by``) (:func:`_card_bonus`,
    drawn once per code, look and sub-pixel phase)."""
    x, fx = split(bx)
    y, fy = split(by)
    put(c, _card_bonus_sprite(code, used, fx, fy), x, y)


@lru_cache(maxsize=64)
def _card_bonus_sprite(code: str, used: bool, fx: float, fy: float) -> tuple[Sprite, int, int]:
    def draw(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
        _card_bonus(d, x, y, code, used)

    return stamp(draw, fx, fy, 60)


def _card_bonus(d: Pen, bx: float, by: float, code: str, used: bool = False) -> None:
    """The "+1 card" bonus tile: "+1" beside a card icon (not a glyph that may be missing);
    ``used``: greyed and struck through (taken tiles are used at once)."""
    f = font(15, bold=True)
    text = code.split("card")[0] or "+1"
    tw = f.getlength(text)
    w = tw + 24
    ink = MUTED if used else INK
    d.rounded_rectangle(
        (bx - w / 2 - 4, by - 11, bx + w / 2 + 4, by + 11),
        4,
        fill="#E4DED2" if used else "#FFFFFF",
        outline=MUTED if used else FORT,
        width=2,
    )
    d.text((bx - w / 2, by), text, font=f, fill=ink, anchor="lm")
    _mini_card(d, bx - w / 2 + tw + 4, by - 7, 11, 15)
    if used:
        d.line((bx - w / 2 - 2, by + 9, bx + w / 2 + 2, by - 9), fill=ink, width=2)


def _tile_badge(
    c: Canvas,
    x: int,
    y: int,
    number: int,
    goods: list[str],
    faded: bool,
) -> None:
    """Paste a province tile badge (drawn once per tile, goods and look)."""
    sprite, cx, cy = _badge_sprite(number, tuple(goods), faded)
    c.paste(sprite, (int(x) - cx, int(y) - cy))


@lru_cache(maxsize=256)
def _badge_sprite(number: int, goods: tuple[str, ...], faded: bool) -> tuple[Sprite, int, int]:
    """The badge, cropped to what it covers (its goods lie right of its centre: half of a
    centred square was empty, and pasting costs by the pixel)."""
    span = 15 + 4 + 20 * len(goods) + 4
    sprite = Image.new("RGBA", (2 * span, 36), (0, 0, 0, 0))
    _draw_tile_badge(ImageDraw.Draw(sprite), span, 18, number, list(goods), faded)
    box = sprite.getbbox() or (0, 0, 1, 1)
    return cut(sprite.crop(box)), span - box[0], 18 - box[1]


def _draw_tile_badge(
    d: Pen,
    x: int,
    y: int,
    number: int,
    goods: list[str],
    faded: bool,
) -> None:
    """An octagonal province tile: number, then its goods as letter chips to its right
    (the map places the tile where they fit: ``render.taj_mahal.board.tile_xy``)."""
    r = 15
    pts = [
        (x + r * a, y + r * b)
        for a, b in (
            (-0.42, -1),
            (0.42, -1),
            (1, -0.42),
            (1, 0.42),
            (0.42, 1),
            (-0.42, 1),
            (-1, 0.42),
            (-1, -0.42),
        )
    ]
    d.polygon(pts, fill="#D8D2C4" if faded else "#FFF7D6", outline=MUTED if faded else INK, width=2)
    d.text((x, y), str(number), font=font(16, bold=True), fill=MUTED if faded else INK, anchor="mm")
    if faded:
        return
    for i, g in enumerate(goods):
        gx = x + r + 4 + i * 20
        d.rounded_rectangle((gx, y - 9, gx + 18, y + 9), 4, fill=GOOD_FILL[g], outline=INK)
        d.text((gx + 9, y), GOOD_LETTER[g], font=font(15, bold=True), fill=INK, anchor="mm")
