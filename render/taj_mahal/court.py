"""The court, drawn for a phone: the six prizes as big circles, and under each the symbols
every player still in the visit has played for it, the leader's count boxed.

Why a table of counts rather than only the cards: who wins a prize is decided by these
counts (strictly more than every other player still in the visit), and on a phone the
small played cards are unreadable, while one big number per prize and player reads at
400 px. The cards themselves stay in each player's row for a closer look.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render.common import INK, MUTED, font, player_colour, player_text_colour
from render.seats import is_computer_label
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


def chip(d: ImageDraw.ImageDraw, cx: float, cy: float, seat: int, letter: str, r: int) -> None:
    """A seat's round chip: its colour, outlined, with its letters (unique in the match:
    :func:`render.seats.seat_letters`); a computer's wears a robot at its lower right."""
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=player_colour(seat), outline=INK, width=2)
    size = max(15, int(r * (1.25 if len(letter) < 2 else 0.95)))
    d.text((cx, cy), letter, font=font(size, True), fill=player_text_colour(seat), anchor="mm")
    if is_computer_label(letter):
        robot_badge(d, cx + r * 0.45, cy + r * 0.75, max(9, round(r * 0.9)))


def colour_swatch(d: ImageDraw.ImageDraw, x: float, cy: float, colour: str | None) -> None:
    """A small card in a player's locked colour with its letter (none chosen: an outline)."""
    box = (x, cy - 16, x + 26, cy + 16)
    if colour is None:
        d.rounded_rectangle(box, 4, outline=MUTED, width=2)
        return
    d.rounded_rectangle(box, 4, fill=CARD_FILL[colour], outline=INK, width=2)
    d.text((x + 13, cy), colour[:1].upper(), font=font(20, True), fill=INK, anchor="mm")


def draw_court(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
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
    d.text((x0, y), title, font=f_title, fill=INK)
    if view["court_tile"] is not None:  # the elephant's prize: this visit's province tile
        goods = view["tile_goods"][str(view["court_tile"])]
        _tile_badge(
            img, x0 + width - 20 - 20 * len(goods), y + 11, view["court_tile"], goods, False
        )
    y += 34
    col = (width - LABEL_W) / len(COURT)
    last = view.get("last") or {}
    won_now = set(last.get("won") or [])
    f_big = font(SYMBOL, bold=True)
    for i, prize in enumerate(COURT):
        cx, cy = x0 + LABEL_W + col * (i + 0.5), y + CIRCLE / 2
        there = prize in view["court"]
        r = CIRCLE / 2
        d.ellipse(
            (cx - r, cy - r, cx + r, cy + r),
            fill=PRIZE_THERE if there else PRIZE_GONE,
            outline=INK if there else MUTED,
            width=3 if there else 2,
        )
        if there:
            if prize == "elephant":
                d.text((cx, cy), "E", font=f_big, fill=INK, anchor="mm")
            else:
                _symbol(d, cx, cy, prize, SYMBOL)
        elif prize in won_now:  # taken by the last turn: its taker's chip, marked
            chip(d, cx, cy, last["seat"], letters[last["seat"]], 20)
            _mark_ring(d, cx, cy, r + 5)
        else:
            d.text((cx, cy), "–", font=f_big, fill=MUTED, anchor="mm")
    y += CIRCLE + 8
    leads = court_leads(view)
    f_count = font(30, bold=True)
    for seat, info in enumerate(view["player_info"]):
        if not info["in_visit"]:
            continue
        cy = y + ROW_H / 2
        chip(d, x0 + 17, cy, seat, letters[seat], 17)
        colour_swatch(d, x0 + 40, cy, info["colour"])
        mine = symbol_counts(info["played"])
        for i, prize in enumerate(COURT):
            if prize not in view["court"]:
                continue
            cx = x0 + LABEL_W + col * (i + 0.5)
            n = mine.get(prize, 0)
            if n == 0:
                d.text((cx, cy), "·", font=f_count, fill=MUTED, anchor="mm")
                continue
            leaders, _, _ = leads.get(prize, ([], 0, 0))
            text = str(n)
            if leaders == [seat]:  # the sole leader would win it now: boxed
                tw = f_count.getlength(text)
                box = (cx - tw / 2 - 8, cy - 17, cx + tw / 2 + 8, cy + 17)
                d.rounded_rectangle(box, 6, fill="#FFFFFF", outline=INK, width=3)
            elif seat in leaders:  # tied at the top: nobody would win it, "=" says so
                text = "=" + text
            d.text((cx, cy), text, font=f_count, fill=INK, anchor="mm")
        y += ROW_H
    return y + 4


def court_words(lang: str, visit: int, visits: int, province: str) -> str:
    """The court's title in the picture's language."""
    return t("pic.taj.court", lang, visit=visit, visits=visits, province=province)
