"""The final picture's arithmetic: every seat's points by source, as the rules score them.

One row per seat: wall placement points, floor penalties, then the end bonuses for complete
rows (2 each), columns (7 each) and colours (10 each), and the total — numbers big enough to
read on a phone (the numbers are 36 px, the headings 29 px: 11 and 9 px on a picture shown
400 px wide), the count behind each bonus under it ("3 × 2"). When a floor penalty met a score
of 0 (a score never drops below 0) the full penalty is shown in brackets with a footnote,
so the row still adds up to the total. The numbers are the view's ``points`` (kept by the
rules as they score, and equal to the record's scoring events: tests/test_azul_pictures.py).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from PIL import ImageDraw, ImageFont

from render.azul.board import seat_chip
from render.azul.geometry import (
    HEADER_H,
    MARGIN,
    SUM_HEAD_H,
    SUM_PAD,
    SUM_ROW_H,
    WIDTH,
    Layout,
)
from render.common import INK, MUTED, fit_text, font, shrink_to_fit, smallest_size
from render.seats import seat_letters
from render.words.catalogue import t

#: the sources in the order the rules score them, and what each counts in
SOURCES = ("wall", "floor", "rows", "columns", "colours")
RATE = {"rows": 2, "columns": 7, "colours": 10}
#: each column's heading (the sources, then the total)
HEADINGS = {
    "wall": "pic.azul.sum.wall",
    "floor": "pic.azul.sum.floor",
    "rows": "pic.azul.sum.rows",
    "columns": "pic.azul.sum.columns",
    "colours": "pic.azul.sum.colours",
    "total": "pic.azul.sum.total",
}
NAME_W = 270
NUMBER = 36
HEADING = 29  # 9 px on a phone (400 px wide), like the header band's smallest text
HEADING_MIN = 20
NOTE = 22
STRIPE = "#EFE7D9"
PENALTY_INK = "#8A2B1C"


def shows_breakdown(view: dict[str, Any]) -> bool:
    """The final picture of a game scored to the end (not one resigned or aborted, nor
    one saved before the sources were kept)."""
    return view["phase"] == "over" and all(p.get("points") for p in view["players"])


def needs_footnote(view: dict[str, Any]) -> bool:
    return any(p.get("floor_spared") for p in view["players"])


def _columns() -> list[tuple[int, int]]:
    """(left, right) of the name column, then each source's, then the total's."""
    left = MARGIN + SUM_PAD
    right = WIDTH - MARGIN - SUM_PAD
    cols = [(left, left + NAME_W)]
    step = (right - left - NAME_W) / (len(SOURCES) + 1)
    for i in range(len(SOURCES) + 1):
        a = left + NAME_W + i * step
        cols.append((round(a), round(a + step)))
    return cols


@cache
def _heading_font(lang: str) -> ImageFont.FreeTypeFont:
    """One size for every heading: the largest in which the longest fits its column."""
    cols = _columns()
    room = cols[1][1] - cols[1][0] - 8
    words = [t(key, lang) for key in HEADINGS.values()]
    longest = max(words, key=lambda w: font(HEADING, True).getlength(w))
    return shrink_to_fit(longest, HEADING, room, smallest=HEADING_MIN, bold=True)


def _signed(n: int, first: bool) -> str:
    if n == 0:
        return "0"
    if n < 0:
        return f"−{-n}"
    return str(n) if first else f"+{n}"


def draw_breakdown(
    d: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str], lay: Layout, lang: str
) -> None:
    cols = _columns()
    top = HEADER_H + SUM_PAD
    hf = _heading_font(lang)
    title = t("pic.azul.sum.title", lang)
    d.text(
        (cols[0][0] + 8, top + SUM_HEAD_H // 2),
        title,
        font=shrink_to_fit(title, HEADING, NAME_W - 16, smallest=HEADING_MIN, bold=True),
        fill=INK,
        anchor="lm",
    )
    for (a, b), key in zip(cols[1:], HEADINGS.values(), strict=True):
        d.text(
            ((a + b) // 2, top + SUM_HEAD_H // 2),
            t(key, lang),
            font=hf,
            fill=INK,
            anchor="mm",
        )
    y = top + SUM_HEAD_H
    d.line((cols[0][0], y - 2, cols[-1][1], y - 2), fill=MUTED, width=2)
    big = font(NUMBER, True)
    letters = seat_letters(names)
    note = font(NOTE)
    for i, p in enumerate(view["players"]):
        seat = p["seat"]
        row_top = y + i * SUM_ROW_H
        if i % 2 == 0:
            d.rectangle((cols[0][0], row_top, cols[-1][1], row_top + SUM_ROW_H - 1), fill=STRIPE)
        mid = row_top + 26
        seat_chip(d, seat, letters[seat], cols[0][0] + 26, mid)
        name_font = font(30, True)
        d.text(
            (cols[0][0] + 54, mid),
            fit_text(names[seat], name_font, NAME_W - 62),
            font=name_font,
            fill=INK,
            anchor="lm",
        )
        points = p["points"]
        for j, ((a, b), source) in enumerate(zip(cols[1:-1], SOURCES, strict=True)):
            n = points[source]
            ink = PENALTY_INK if n < 0 else INK if n else MUTED
            d.text(((a + b) // 2, mid), _signed(n, j == 0), font=big, fill=ink, anchor="mm")
            sub = ""
            if source in RATE and n:
                sub = f"{n // RATE[source]} × {RATE[source]}"
            elif source == "floor" and p.get("floor_spared"):
                sub = f"({_signed(n - p['floor_spared'], False)})*"
            if sub:
                d.text(((a + b) // 2, row_top + 56), sub, font=note, fill=MUTED, anchor="mm")
        a, b = cols[-1]
        d.text(((a + b) // 2, mid), f"= {p['score']}", font=big, fill=INK, anchor="mm")
    if lay.footnote:
        foot_y = y + len(view["players"]) * SUM_ROW_H + 17
        text = t("pic.azul.sum.spared", lang)
        room = cols[-1][1] - cols[0][0] - 16
        small = shrink_to_fit(text, NOTE, room, smallest=smallest_size(WIDTH))
        d.text((cols[0][0] + 8, foot_y), text, font=small, fill=MUTED, anchor="lm")
