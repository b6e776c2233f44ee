"""The court, drawn for a phone: the six prizes as big circles, and under each the symbols
every player still in the visit has played for it, the leader's count boxed.

Why a table of counts rather than only the cards: who wins a prize is decided by these
counts (strictly more than every other player still in the visit), and on a phone the
small played cards are unreadable, while one big number per prize and player reads at
400 px. The cards themselves stay in each player's row for a closer look.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import ImageDraw

from render.common import INK, MUTED, font, player_colour, player_text_colour
from render.seats import is_computer_label
from render.taj_mahal.canvas import Canvas, Sprite, put, split, stamp
from render.taj_mahal.pieces import CARD_FILL, _mark_ring, _symbol, _tile_badge, robot_badge
from render.words.catalogue import t

#: The court's prizes in drawing order; the elephant (the province tile) is the sixth.
COURT = ("vizier", "general", "monk", "princess", "mogul", "elephant")
#: Width of the column of seat chips left of the counts, and the circles' diameter.
LABEL_W = 72
CIRCLE = 58
#: The prizes' letters (and the crown): about 9 px when the picture is shown 400 px wide.
SYMBOL = 32
ROW_H = 38
PRIZE_THERE = "#FFF7D6"
PRIZE_GONE = "#E4DED2"


def symbol_counts(cards: list[dict[str, Any]]) -> dict[str, int]:
    """How many of each symbol these played cards show (as the view gives them)."""
    mine: dict[str, int] = {}
    for card in cards:
        for sym in card["symbols"]:
            mine[sym] = mine.get(sym, 0) + 1
    return mine


def court_leads(view: dict[str, Any]) -> dict[str, tuple[list[int], int, int]]:
    """Per court prize still there: (leading seats, their count, lead over the next) among
    the players still in the visit — what players otherwise count on the tiny cards."""
    counts = [
        (s, symbol_counts(info["played"]))
        for s, info in enumerate(view["player_info"])
        if info["in_visit"]
    ]
    out = {}
    for sym in COURT:
        if sym not in view["court"]:
            continue
        ranked = sorted(((m.get(sym, 0), s) for s, m in counts), reverse=True)
        top = ranked[0][0] if ranked else 0
        if top == 0:
            continue
        leaders = sorted(s for n, s in ranked if n == top)
        second = next((n for n, _ in ranked if n < top), 0)
        out[sym] = (leaders, top, 0 if len(leaders) > 1 else top - second)
    return out


def chip(c: Canvas, cx: float, cy: float, seat: int, letter: str, r: int) -> None:
    """A seat's round chip: its colour, outlined, with its letters (unique in the match:
    :func:`render.seats.seat_letters`); a computer's wears a robot at its lower right.
    Pasted from a sprite drawn once per look and sub-pixel phase (:func:`_chip_sprite`)."""
    x, fx = split(cx)
    y, fy = split(cy)
    colour, ink = player_colour(seat), player_text_colour(seat)
    put(c, _chip_sprite(colour, ink, str(letter), is_computer_label(letter), r, fx, fy), x, y)


@lru_cache(maxsize=128)
def _chip_sprite(
    colour: str, ink: str, letter: str, computer: bool, r: int, fx: float, fy: float
) -> tuple[Sprite, int, int]:
    def draw(d: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=INK, width=2)
        size = max(15, int(r * (1.25 if len(letter) < 2 else 0.95)))
        d.text((cx, cy), letter, font=font(size, True), fill=ink, anchor="mm")
        if computer:
            robot_badge(d, cx + r * 0.45, cy + r * 0.75, max(9, round(r * 0.9)))

    return stamp(draw, fx, fy, 2 * r + 4)


def colour_swatch(c: Canvas, x: float, cy: float, colour: str | None) -> None:
    """A small card in a player's locked colour with its letter (none chosen: an outline)."""
    left, fx = split(x)
    y, fy = split(cy)
    put(c, _swatch_sprite(colour, fx, fy), left, y)


@lru_cache(maxsize=32)
def _swatch_sprite(colour: str | None, fx: float, fy: float) -> tuple[Sprite, int, int]:
    def draw(d: ImageDraw.ImageDraw, x: float, cy: float) -> None:
        box = (x, cy - 16, x + 26, cy + 16)
        if colour is None:
            d.rounded_rectangle(box, 4, outline=MUTED, width=2)
            return
        d.rounded_rectangle(box, 4, fill=CARD_FILL[colour], outline=INK, width=2)
        d.text((x + 13, cy), colour[:1].upper(), font=font(20, True), fill=INK, anchor="mm")

    return stamp(draw, fx, fy, 32)


@lru_cache(maxsize=32)
def _prize_sprite(prize: str, there: bool, fx: float, fy: float) -> tuple[Sprite, int, int]:
    """A prize's circle: its symbol while it is there, a dash once it is gone."""
    f_big = font(SYMBOL, bold=True)

    def draw(d: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
        r = CIRCLE / 2
        d.ellipse(
            (cx - r, cy - r, cx + r, cy + r),
            fill=PRIZE_THERE if there else PRIZE_GONE,
            outline=INK if there else MUTED,
            width=3 if there else 2,
        )
        if not there:
            return
        if prize == "elephant":
            d.text((cx, cy), "E", font=f_big, fill=INK, anchor="mm")
        else:
            _symbol(d, cx, cy, prize, SYMBOL)

    return stamp(draw, fx, fy, CIRCLE // 2 + 4)


@lru_cache(maxsize=64)
def _lead_sprite(text: str, fx: float, fy: float) -> tuple[Sprite, int, int]:
    """The sole leader's count, boxed (it would win the prize now)."""
    f_count = font(30, bold=True)

    def draw(d: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
        tw = f_count.getlength(text)
        box = (cx - tw / 2 - 8, cy - 17, cx + tw / 2 + 8, cy + 17)
        d.rounded_rectangle(box, 6, fill="#FFFFFF", outline=INK, width=3)
        d.text((cx, cy), text, font=f_count, fill=INK, anchor="mm")

    return stamp(draw, fx, fy, 40)


def draw_court(
    c: Canvas,
    view: dict[str, Any],
    letters: list[str],
    x0: int,
    y: int,
    width: int,
    title: str,
) -> int:
    """The court from ``y`` down, ``width`` wide: its title with the province tile up for
    grabs, the six prizes, then one row of counts per player still in the visit. Returns
    the y below it."""
    f_title = font(19, bold=True)
    c.text((x0, y), title, font=f_title, fill=INK)
    if view["court_tile"] is not None:  # the elephant's prize: this visit's province tile
        goods = view["tile_goods"][str(view["court_tile"])]
        _tile_badge(c, x0 + width - 20 - 20 * len(goods), y + 11, view["court_tile"], goods, False)
    y += 34
    col = (width - LABEL_W) / len(COURT)
    last = view.get("last") or {}
    won_now = set(last.get("won") or [])
    f_big = font(SYMBOL, bold=True)
    for i, prize in enumerate(COURT):
        cx, cy = x0 + LABEL_W + col * (i + 0.5), y + CIRCLE / 2
        there = prize in view["court"]
        x, fx = split(cx)
        top, fy = split(cy)
        put(c, _prize_sprite(prize, there, fx, fy), x, top)
        if there:
            continue
        if prize in won_now:  # taken by the last turn: its taker's chip, marked
            chip(c, cx, cy, last["seat"], letters[last["seat"]], 20)
            _mark_ring(c, cx, cy, CIRCLE / 2 + 5)
        else:
            c.text((cx, cy), "–", font=f_big, fill=MUTED, anchor="mm")
    y += CIRCLE + 8
    leads = court_leads(view)
    f_count = font(30, bold=True)
    for seat, info in enumerate(view["player_info"]):
        if not info["in_visit"]:
            continue
        cy = y + ROW_H / 2
        chip(c, x0 + 17, cy, seat, letters[seat], 17)
        colour_swatch(c, x0 + 40, cy, info["colour"])
        mine = symbol_counts(info["played"])
        for i, prize in enumerate(COURT):
            if prize not in view["court"]:
                continue
            cx = x0 + LABEL_W + col * (i + 0.5)
            n = mine.get(prize, 0)
            if n == 0:
                c.text((cx, cy), "·", font=f_count, fill=MUTED, anchor="mm")
                continue
            leaders, _, _ = leads.get(prize, ([], 0, 0))
            text = str(n)
            if leaders == [seat]:  # the sole leader would win it now: boxed
                x, fx = split(cx)
                top, fy = split(cy)
                put(c, _lead_sprite(text, fx, fy), x, top)
                continue
            if seat in leaders:  # tied at the top: nobody would win it, "=" says so
                text = "=" + text
            c.text((cx, cy), text, font=f_count, fill=INK, anchor="mm")
        y += ROW_H
    return y + 4


def court_words(lang: str, visit: int, visits: int, province: str) -> str:
    """The court's title in the picture's language."""
    return t("pic.taj.court", lang, visit=visit, visits=visits, province=province)
