"""What both Pastiche pictures share: the layout's sizes, the names of colours, paintings
and painters in the picture's language, seat badges, named colour chips, commission cards,
and the canvas that grows to fit its content."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    BACKGROUND,
    INK,
    MUTED,
    fit_lines,
    fit_text,
    font,
    player_colour,
    player_text_colour,
    smallest_size,
)
from render.header import band_font_size
from render.pastiche.paints import _paint, _text_on
from render.seats import seat_letters
from render.words.catalogue import t, tn
from rules.pastiche.words import painter_key

View = dict[str, Any]


CANVAS = "#FCFAF4"
START_FILL = "#EADFC8"
SPOT_LINE = "#C9BFAE"
PANEL = "#FFFFFF"
LINE = "#B8AE9C"

WIDTH_RIGHT = 520
PAINT_W = 880
#: The bank's colour names shrink down to the public picture's legible floor.
BANK_SMALLEST = smallest_size(PAINT_W + WIDTH_RIGHT)
PAD = 16
#: The hand picture's width: phone-shaped (a tall column a phone shows at 400 px, 5/7 of
#: its size, like Taj Mahal's hand), not a 900 px strip whose 16 px text shrinks to 7 px.
HAND_W = 560
#: The hand's smallest text: still 9 px (the header band's floor) once shown 400 px wide.
HAND_SMALLEST = band_font_size(HAND_W)


def _name(names: list[str], seat: int, lang: str = "en") -> str:
    return names[seat] if seat < len(names) else t("pic.common.player", lang, n=seat + 1)


def _badge(
    draw: ImageDraw.ImageDraw, x: int, y: int, seat: int, names: list[str], lang: str = "en"
) -> int:
    """A round seat badge with the player's initial (colour is never the only cue)."""
    return badge(draw, x, y, seat, initials(tuple(names), max(len(names), seat + 1))[seat])


@lru_cache(maxsize=64)
def initials(names: tuple[str, ...], seats: int) -> tuple[str, ...]:
    """:func:`render.seats.seat_letters`, once per table (~35 µs, and a picture asks for
    them for every badge and for the band)."""
    return tuple(seat_letters(list(names), seats))


def badge(draw: ImageDraw.ImageDraw, x: int, y: int, seat: int, initial: str) -> int:
    """:func:`_badge` with the seat's initial given. Returns the x after it."""
    d = 30
    draw.ellipse((x, y, x + d, y + d), fill=player_colour(seat), outline=INK)
    f = font(17, True)
    w = f.getlength(initial)
    draw.text((x + (d - w) / 2, y + 4), initial, font=f, fill=player_text_colour(seat))
    return x + d + 8


def _colour(name: str, lang: str) -> str:
    """A paint colour's name in the picture's language."""
    return t(f"pastiche.colour.{name}", lang)


def _title(com: dict[str, Any], lang: str) -> str:
    """A commission's painting by the title it is known by in the picture's language."""
    return t(f"pastiche.painting.{com['id']}", lang)


def _painter(com: dict[str, Any], lang: str) -> str:
    return t(painter_key(com["painter"]), lang)


def chip(draw: ImageDraw.ImageDraw, x: int, y: int, colour: str, text: str, size: int = 16) -> int:
    """A named colour swatch: a filled rounded box with the colour's name on it."""
    f = font(size, True)
    w = int(f.getlength(text)) + 14
    h = size + 10
    draw.rounded_rectangle(
        (x, y, x + w, y + h), radius=6, fill=_paint(colour), outline=INK, width=1
    )
    draw.text((x + 7, y + 4), text, font=f, fill=_text_on(colour))
    return x + w + 6


def _chips(
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    width: int,
    items: list[tuple[str, str]],
    size: int = 16,
) -> int:
    """Flow chips left to right, wrapping at ``width``; returns the y below them."""
    f = font(size, True)
    cx, cy = x, y
    for colour, text in items:
        w = int(f.getlength(text)) + 20
        if cx + w > x + width and cx > x:
            cx, cy = x, cy + size + 16
        cx = chip(draw, cx, cy, colour, text, size)
    return cy + size + 16


def _commission_card(
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    w: int,
    com: dict[str, Any],
    lack: list[str] | None = None,
    tag: str = "",
    lang: str = "en",
    smallest: int = 16,
) -> int:
    """A commission: title, painter and points, then its palette as named chips. With
    ``lack`` the colours still missing are marked '✗ name' on a pale chip. A long title
    (a painting's name in German, say, or the points word) is set smaller, down to
    ``smallest`` (the picture's legible floor), then on a second line: the card grows."""
    f_t, f_s = font(19, True), font(16)
    top = y
    pts = tn("pic.pastiche.pts", com["points"], lang)
    room = w - 30 - int(f_t.getlength(pts))
    lines, f_title = fit_lines(_title(com, lang), 19, room, smallest=smallest, bold=True)
    for i, line in enumerate(lines):
        ty = y + 8 + 19 - f_title.size + i * (f_title.size + 4)
        draw.text((x + 10, ty), line, font=f_title, fill=INK)
    draw.text((x + w - 10 - f_t.getlength(pts), y + 8), pts, font=f_t, fill=INK)
    y += (len(lines) - 1) * (int(f_title.size) + 4)
    sub = _painter(com, lang) + (f" · {tag}" if tag else "")
    draw.text((x + 10, y + 34), fit_text(sub, f_s, w - 20), font=f_s, fill=MUTED)
    cy = y + 60
    cx = x + 10
    fb = font(16, True)
    for c in com["palette"]:
        missing = lack is not None and c in lack
        text = f"✗ {_colour(c, lang)}" if missing else _colour(c, lang)
        cw = int(fb.getlength(text)) + (40 if missing else 20)
        if cx + cw > x + w - 6 and cx > x + 10:
            cx, cy = x + 10, cy + 32
        if missing:  # white chip, grey border, a small swatch: readable for white/cream too
            draw.rounded_rectangle(
                (cx, cy, cx + cw - 6, cy + 26), radius=6, fill="#FFFFFF", outline=MUTED, width=2
            )
            draw.rectangle((cx + 6, cy + 6, cx + 20, cy + 20), fill=_paint(c), outline=INK)
            draw.text((cx + 26, cy + 4), text, font=fb, fill=INK)
            cx += cw
        else:
            cx = chip(draw, cx, cy, c, text)
    bottom = cy + 34
    draw.rounded_rectangle((x, top, x + w, bottom), radius=10, outline=LINE, width=2)
    return bottom + 8


def paste_card(
    img: Image.Image,
    x: int,
    y: int,
    w: int,
    com: dict[str, Any],
    lack: list[str] | None = None,
    tag: str = "",
    lang: str = "en",
    smallest: int = 16,
) -> int:
    """:func:`_commission_card` on ``img`` (on the background colour) from a cached sprite:
    a card stays the same over many pictures (the gallery's until it is completed, a
    hand's until its lacking colours change), and its ~15 texts and chips cost ~0.5 ms.
    Returns the y below it, as drawing it in place would."""
    sprite, below = card(w, com, lack, tag, lang, smallest)
    img.paste(sprite, (x, y))
    return y + below


def card(
    w: int, com: dict[str, Any], lack: list[str] | None, tag: str, lang: str, smallest: int
) -> tuple[Image.Image, int]:
    """A commission card's sprite (:func:`card_sprite`) and the offset from its top to
    the y below it."""
    return card_sprite(json.dumps([com, lack], sort_keys=True), w, tag, lang, smallest)


#: A card is rarely taller (a two-line title and three rows of chips are ~200 px).
CARD_GUESS = 260


@lru_cache(maxsize=128)  # ~190 KB each: at most ~24 MB per render worker
def card_sprite(key: str, w: int, tag: str, lang: str, smallest: int) -> tuple[Image.Image, int]:
    """A commission card (``key``: the commission and its lacking colours as JSON) drawn
    at the top left of an image just large enough (its frame is ``w`` + 1 px wide), and
    the offset from its top to the y below it. Read-only: callers only paste it."""
    com, lack = json.loads(key)
    below = 0

    def paint(img: Image.Image, top: int) -> int:
        nonlocal below
        below = _commission_card(ImageDraw.Draw(img), 0, top, w, com, lack, tag, lang, smallest)
        return below - 7  # the frame's last row is 8 px above: nothing below it is drawn

    return _on_canvas(w + 1, CARD_GUESS, paint), below


def _blank(width: int, height: int, band: Image.Image | None) -> Image.Image:
    img = Image.new("RGB", (width, height), BACKGROUND)
    if band is not None:
        img.paste(band, (0, 0))
    return img


def _on_canvas(
    width: int,
    height: int,
    paint: Callable[[Image.Image, int], int],
    band: Image.Image | None = None,
) -> Image.Image:
    """Run ``paint(img, top) -> bottom`` on a canvas with room for ``height`` pixels of
    content under ``top`` (the header ``band``'s height, pasted above; 0 without one) and
    keep the canvas down to ``bottom``. When ``height`` is the content's measured height
    (the public picture measures it), the canvas is the picture: nothing is filled twice
    nor copied (a guessed canvas cost ~2 ms of filling and cropping 8 MB on every public
    picture). With a guess, a shorter content is cropped; a taller one (rare: a guess is
    generous) is painted again on a canvas that fits. The band is drawn above instead of
    stacked on afterwards (what :func:`render.header.with_band` does, copying the whole
    picture a second time)."""
    top = band.height if band is not None else 0
    img = _blank(width, top + height, band)
    bottom = paint(img, top)
    if bottom > img.height:
        img = _blank(width, bottom, band)
        paint(img, top)
    if bottom < img.height:
        img = img.crop((0, 0, width, bottom))
    return img
