"""The players' panel under the public picture: a column per seat with its head (the bar
that says it acts, its badge, name, offer token and score), its cards and commissions in
hand, its completed commissions (those the last move completed framed behind a "new"
plate) and its hexes in hand (public by the rules)."""

from __future__ import annotations

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
)
from render.pastiche.board import MARK_DARK, MARK_LIGHT, _hex_row
from render.pastiche.common import View, _name, _title, badge, initials
from render.words.catalogue import t, tn


def _players(
    img: Image.Image,
    x: int,
    y: int,
    w: int,
    view: View,
    names: list[str],
    lang: str,
) -> int:
    draw = ImageDraw.Draw(img)
    n = len(view["seats"])
    col = w // n
    out = view.get("outcome") if view["over"] else None
    bottom = y
    for seat, info in enumerate(view["seats"]):
        cx = x + seat * col
        score = f"{out['scores'][seat]}" if out else f"{info['score']}"
        initial = initials(tuple(names), max(len(names), seat + 1))[seat]  # as _badge's
        head = _seat_head(
            seat, seat in view["to_act"], _name(names, seat, lang), initial, score, col, lang
        )
        img.paste(head, (cx, y))
        cy = y + HEAD_H
        lines, f = _seat_lines(view, seat, col, lang)
        for part in lines:
            draw.text((cx, cy), part, font=f, fill=MUTED)
            cy += 24
        bonus = t("pic.pastiche.bonus", lang, bonus=info["bonus"]) if info["bonus"] else ""
        draw.text(
            (cx, cy),
            tn("pic.pastiche.completed", info["commission_points"], lang, bonus=bonus),
            font=font(16, True),
            fill=INK,
        )
        cy += 24
        fresh = set(view.get("fresh") or [])
        for com in info["done"]:
            done = f"{com['points']:>2} · {_title(com, lang)}"
            if com["id"] in fresh:  # the last move: framed, behind a "new" plate
                cy = _fresh_row(draw, cx, cy, col - 14, done, lang)
                continue
            draw.text((cx + 4, cy), fit_text(done, font(16), col - 20), font=font(16), fill=INK)
            cy += 22
        if not info["done"]:
            draw.text((cx + 4, cy), t("pic.pastiche.none_yet", lang), font=font(16), fill=MUTED)
            cy += 22
        if info.get("hexes"):  # hexes in hand are public
            per = max(1, (col - 10) // 50)
            hexes = info["hexes"]
            for r0 in range(0, len(hexes), per):
                _hex_row(img, cx, cy + 4, hexes[r0 : r0 + per], 21, BACKGROUND)
                cy += 52
        bottom = max(bottom, cy)
    return bottom + 8


#: The height of a seat's head in the players' panel (:func:`_seat_head`).
HEAD_H = 54


@lru_cache(maxsize=64)  # ~150 KB each
def _seat_head(
    seat: int, acting: bool, name: str, initial: str, score: str, col: int, lang: str
) -> Image.Image:
    """A seat's head in the players' panel, ``col`` px wide: a bar in the seat's colour
    while it acts, its badge, name, offer token (what ``offer p2`` refers to) and score.
    Drawn once per look: a score changes only on completions (~0.1 ms a seat each
    picture). Read-only: callers only paste it."""
    img = Image.new("RGB", (col, HEAD_H), BACKGROUND)
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle(
        (0, 0, col - 10, 10), radius=4, fill=player_colour(seat) if acting else "#E6E0D4"
    )
    cy = 16
    bx = badge(draw, 0, cy, seat, initial)
    token = t("pic.pastiche.token", lang, n=seat + 1)
    tf = font(16, True)
    tw = tf.getlength(token) + 10
    nm = fit_text(name, font(20, True), int(col - 150 - tw))
    draw.text((bx, cy + 3), nm, font=font(20, True), fill=INK)
    tx = bx + font(20, True).getlength(nm) + 8
    draw.rounded_rectangle((tx, cy + 4, tx + tw, cy + 28), 6, fill="#FFFFFF", outline=MUTED)
    draw.text((tx + tw / 2, cy + 16), token, font=tf, fill=INK, anchor="mm")
    draw.text((col - 24 - font(26, True).getlength(score), cy), score, font=font(26, True),
              fill=INK)  # fmt: skip
    return img


def _seat_lines(view: View, seat: int, col: int, lang: str) -> tuple[list[str], Any]:
    """A seat's cards and commissions in hand (or, at the end, its place and points) in
    lines of ``col`` - 16 px: the panel grows, nothing is cut."""
    info = view["seats"][seat]
    out = view.get("outcome") if view["over"] else None
    line = t(
        "pic.pastiche.seat_line",
        lang,
        cards=tn("pic.pastiche.n_cards", info["cards"], lang),
        commissions=tn("pic.pastiche.n_commissions", info["commissions"], lang),
    )
    if seat == view["start"]:
        line += t("pic.pastiche.started", lang)
    if out:
        d = out["details"][seat]
        line = t(
            "pic.pastiche.final_line",
            lang,
            place=out["ranks"][seat],
            commissions=d["commissions"],
            usable=d["usable"],
            bonus=d["bonus"],
        )
    return fit_lines(line, 16, col - 16, smallest=16)


def _players_height(view: View, w: int, lang: str) -> int:
    """How far below its top :func:`_players` ends (with the hexes in hand), measured
    without drawing: the tallest seat's column."""
    col = w // len(view["seats"])
    fresh = set(view.get("fresh") or [])
    tallest = 0
    for seat, info in enumerate(view["seats"]):
        h = 16 + 38 + 24 * len(_seat_lines(view, seat, col, lang)[0]) + 24
        h += sum(32 if c["id"] in fresh else 22 for c in info["done"]) or 22
        if info.get("hexes"):
            h += 52 * -(-len(info["hexes"]) // max(1, (col - 10) // 50))
        tallest = max(tallest, h)
    return tallest + 8


def _fresh_row(draw: ImageDraw.ImageDraw, x: int, y: int, width: int, text: str, lang: str) -> int:
    """A commission completed by the last move: a black frame around the row and a black
    "new" plate before it, the same marks as the newest hex's (shape, not hue)."""
    tag = t("pic.pastiche.new", lang)
    fb = font(16, True)
    tw = int(fb.getlength(tag)) + 12
    draw.rounded_rectangle((x, y - 2, x + width, y + 26), radius=6, outline=MARK_DARK, width=3)
    draw.rounded_rectangle((x + 4, y + 2, x + 4 + tw, y + 22), radius=4, fill=MARK_DARK)
    draw.text((x + 4 + tw / 2, y + 12), tag, font=fb, fill=MARK_LIGHT, anchor="mm")
    room = width - tw - 16
    draw.text((x + tw + 10, y + 2), fit_text(text, fb, room), font=fb, fill=INK)
    return y + 32
