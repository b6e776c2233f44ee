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


def _crown(d: ImageDraw.ImageDraw, cx: float, cy: float, size: float, fill: str) -> None:
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


def _card(img: Image.Image, x: int, y: int, card: dict[str, Any], w: int = 46, h: int = 66) -> None:
    """Paste a card (drawn once per card and size: a picture shows up to ~60)."""
    key = (card["code"], card["kind"], card["colour"], tuple(card["symbols"]), w, h)
    sprite = _card_sprite(*key)
    img.paste(sprite, (int(x), int(y)), sprite)


@lru_cache(maxsize=512)
def _card_sprite(
    code: str, kind: str, colour: str | None, symbols: tuple[str, ...], w: int, h: int
) -> Image.Image:
    sprite = Image.new("RGBA", (w + 1, h + 1), (0, 0, 0, 0))
    card = {"code": code, "kind": kind, "colour": colour, "symbols": list(symbols)}
    _draw_card(ImageDraw.Draw(sprite), 0, 0, card, w, h)
    return sprite


def _draw_card(
    d: ImageDraw.ImageDraw, x: int, y: int, card: dict[str, Any], w: int = 46, h: int = 66
) -> None:
    """A card: fill by colour, its colour letter in the corner, its symbols big."""
    kind = card["kind"]
    fill = SPECIAL_FILL if kind == "special" else CARD_FILL.get(card["colour"], "#FFFFFF")
    d.rounded_rectangle((x, y, x + w, y + h), 6, fill=fill, outline=INK, width=2)
    tag = card["code"].split("-")[0]
    f_small = font(15, bold=True)
    d.text((x + 4, y + 2), tag, font=f_small, fill=INK)
    syms = card["symbols"]
    if kind == "special" and not syms:
        label = card["code"].split("-")[1]
        d.text(
            (x + w / 2, y + h / 2 + 6),
            "+2" if label == "2" else "⇄",
            font=font(20, True),
            fill=INK,
            anchor="mm",
        )
        return
    if kind == "special":
        d.text((x + w - 4, y + 2), "+1", font=f_small, fill=INK, anchor="ra")
    n = len(syms)
    size = 20 if h >= 60 else 17
    for i, s in enumerate(syms):
        cy = y + h * (0.58 if n == 1 else (0.42 + 0.32 * i))
        _symbol(d, x + w / 2, cy, s, size)


def _symbol(d: ImageDraw.ImageDraw, cx: float, cy: float, sym: str, size: int) -> None:
    if sym == "mogul":
        _crown(d, cx, cy, size * 1.1, "#F2C230")
    else:
        d.text((cx, cy), SYMBOL_LETTERS[sym], font=font(size, bold=True), fill=INK, anchor="mm")


def _mini_card(d: ImageDraw.ImageDraw, x: float, y: float, w: float = 12, h: float = 17) -> None:
    """A small card outline (two stacked cards), the icon of "draw a card"."""
    d.rounded_rectangle((x + 3, y - 2, x + w + 3, y + h - 2), 2, fill="#D9D2C2", outline=INK)
    d.rounded_rectangle((x, y, x + w, y + h), 2, fill="#FFFFFF", outline=INK, width=2)


def _card_bonus(
    d: ImageDraw.ImageDraw, bx: float, by: float, code: str, used: bool = False
) -> None:
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
    img: Image.Image,
    x: int,
    y: int,
    number: int,
    goods: list[str],
    faded: bool,
    goods_left: bool = False,
) -> None:
    """Paste a province tile badge (drawn once per tile, goods and look)."""
    sprite, cx, cy = _badge_sprite(number, tuple(goods), faded, goods_left)
    img.paste(sprite, (int(x) - cx, int(y) - cy), sprite)


@lru_cache(maxsize=256)
def _badge_sprite(
    number: int, goods: tuple[str, ...], faded: bool, goods_left: bool
) -> tuple[Image.Image, int, int]:
    span = 15 + 4 + 20 * len(goods) + 4
    sprite = Image.new("RGBA", (2 * span, 36), (0, 0, 0, 0))
    _draw_tile_badge(ImageDraw.Draw(sprite), span, 18, number, list(goods), faded, goods_left)
    return sprite, span, 18


def _draw_tile_badge(
    d: ImageDraw.ImageDraw,
    x: int,
    y: int,
    number: int,
    goods: list[str],
    faded: bool,
    goods_left: bool = False,
) -> None:
    """An octagonal province tile: number, then its goods as letter chips (to its left
    where the right would run into the side panel)."""
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
        gx = x - r - 4 - 18 - i * 20 if goods_left else x + r + 4 + i * 20
        d.rounded_rectangle((gx, y - 9, gx + 18, y + 9), 4, fill=GOOD_FILL[g], outline=INK)
        d.text((gx + 9, y), GOOD_LETTER[g], font=font(15, bold=True), fill=INK, anchor="mm")
