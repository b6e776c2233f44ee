"""The players' rows of the public picture's panel: chip, name and score line, tiles line,
the cards played this visit (the last turn's framed), and the cards known to be in the
hand because they were taken from the face-up display.

Why measured before drawn (:func:`_measure`): a row's height depends on its words (a long
translation takes two lines), on how many cards were played and on how many cards are
known to be in the hand; fixed equal rows made a busy row run into the next one with five
players. Each row gets what it needs, and what is left over makes the cards bigger.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from render.common import INK, MUTED, fit_lines, fit_text, font, smallest_size, wrap_text
from render.taj_mahal.board import MAP_W, W
from render.taj_mahal.canvas import Canvas
from render.taj_mahal.court import chip
from render.taj_mahal.pieces import GOOD_LETTER, _card, _colour, _mark_box, _name, card_bonus
from render.words.catalogue import t, tn
from rules.taj_mahal.components import SYMBOL_LETTERS

#: Played cards in a player's row: at least this size, bigger when there is room.
CARD_W, CARD_H = 36, 52
CARD_H_MAX = 70
#: The acting player's row: a dark frame (a shape, on the panel's own background; a pale
#: yellow fill had too little contrast to matter) beside the "▶" before the name.
X0 = MAP_W + 14
TEXT_X = X0 + 32
RIGHT = W - 12
LINE = 19


@dataclass(slots=True)
class _Row:
    """What one row says, measured: its lines and how tall it must be."""

    head: list[str]
    head_size: int
    tiles: list[str]
    used: list[str]
    known: list[str]
    known_beside: bool
    height: int


def known_words(known: list[dict[str, Any]], lang: str) -> str:
    """The cards known to be in a hand, by colour: "from the display: R: GE CE · G: VE"."""
    groups: dict[str, list[str]] = {}
    for card in known:
        colour, _, symbols = card["code"].partition("-")
        groups.setdefault(colour, []).append(symbols)
    cards = " · ".join(f"{c}: {' '.join(s)}" for c, s in groups.items())
    return t("pic.taj.known", lang, cards=cards)


def _measure(view: dict[str, Any], names: list[str], s: int, lang: str) -> _Row:
    info = view["player_info"][s]
    f, fb = font(16), font(16, bold=True)
    floor = smallest_size(W)
    acting = s in view["to_act"]
    name = fit_text(_name(names, s, lang), fb, 150)
    lx = TEXT_X + min(178, max(120, int(fb.getlength(("▶ " if acting else "") + name)) + 16))
    state = t("pic.taj.in" if info["in_visit"] else "pic.taj.out", lang)
    if info["colour"]:
        state += " " + _colour(info["colour"], lang)
    if s == view["start"]:
        state += " · " + t("pic.taj.starts", lang)
    line = tn("pic.taj.player_line", info["score"], lang, hand=info["hand_size"], state=state)
    # shrunk to the legible floor, else on two lines (the rest of the row moves down)
    head, hf = fit_lines(line, int(f.size), RIGHT - lx, smallest=floor)
    infl = " ".join(SYMBOL_LETTERS[k] for k in info["influence"]) or "–"
    goods = " ".join(f"{GOOD_LETTER[g]}{c}" for g, c in sorted(info["goods"].items())) or "–"
    tiles = t("pic.taj.player_line2", lang, tiles=infl, goods=goods, palaces=info["palaces_left"])
    used = [c for c in info["bonus_tiles"] if c.endswith("card")]
    tile_lines = wrap_text(tiles, f, RIGHT - TEXT_X - 60 * len(used))
    played = len(info["played"])
    known: list[str] = []
    beside = True
    if info.get("known") and not view["over"]:  # at the end every hand is counted
        words = known_words(info["known"], lang)
        kx = TEXT_X + played * (CARD_W + 8) + (8 if played else 0)
        if RIGHT - kx >= 170:
            known = wrap_text(words, font(15), RIGHT - kx)
        else:
            beside = False
            known = wrap_text(words, font(15), RIGHT - TEXT_X)
    cards_h = CARD_H if played else 0
    band = max(cards_h, 17 * len(known)) if beside else cards_h + 4 + 17 * len(known)
    top = 30 + (10 if len(head) > 1 else 0)
    height = top + LINE * len(tile_lines) + 12 + band + 12
    return _Row(head, int(hf.size), tile_lines, used, known, beside, height)


def measure_rows(view: dict[str, Any], names: list[str], lang: str) -> list[_Row]:
    """Every player's row, measured (its lines and the height it needs)."""
    return [_measure(view, names, s, lang) for s in range(view["players"])]


def draw_rows(
    c: Canvas,
    view: dict[str, Any],
    names: list[str],
    letters: list[str],
    rows: list[_Row],
    y: int,
    lang: str,
) -> None:
    """The rows (:func:`measure_rows`) from ``y`` down."""
    n = view["players"]
    # what the rows leave free makes their cards bigger, up to CARD_H_MAX; the rest stays
    # below them (a tall pale row for the acting player reads no better)
    spare = min(CARD_H_MAX - CARD_H, max(0, c.height - 6 - y - sum(r.height for r in rows)) // n)
    last = view.get("last") or {}
    last_ids = {c["id"] for c in last.get("cards") or []} if last.get("seat") is not None else set()
    fb, f, fk = font(16, bold=True), font(16), font(15)
    for s, row in enumerate(rows):
        info = view["player_info"][s]
        h = row.height + spare
        acting = s in view["to_act"]
        if acting:
            c.rectangle((X0 - 10, y - 2, W - 4, y + h - 6), outline=INK, width=3)
        chip(c, X0 + 10, y + 16, s, letters[s], 14)
        name = ("▶ " if acting else "") + fit_text(_name(names, s, lang), fb, 150)
        c.text((TEXT_X, y + 5), name, font=fb, fill=INK)
        lx = TEXT_X + min(178, max(120, int(fb.getlength(name)) + 16))
        hf = font(row.head_size)
        for k, text in enumerate(row.head):
            c.text((lx, y + 5 + 16 - row.head_size + k * 17), text, font=hf, fill=INK)
        ty = y + 30 + (10 if len(row.head) > 1 else 0)
        for k, text in enumerate(row.tiles):
            c.text((TEXT_X, ty + LINE * k), text, font=f, fill=MUTED)
        for b, code in enumerate(row.used):
            card_bonus(c, W - 44 - b * 60, ty + 10, code, used=True)  # used when taken
        cy = ty + LINE * len(row.tiles) + 12
        # as big as the room left lets them be (the court's counts say it on a phone)
        ch = CARD_H if row.known else CARD_H + spare
        cw = ch * CARD_W // CARD_H
        played = info["played"][: (RIGHT - TEXT_X + 8) // (cw + 8)]
        for i, card in enumerate(played):
            cx = TEXT_X + i * (cw + 8)
            _card(c, cx, cy, card, cw, ch)
            if card["id"] in last_ids and last["seat"] == s:
                _mark_box(c, (cx, cy, cx + cw, cy + ch), 8, 8)
        if row.known_beside:
            kx, ky = TEXT_X + len(played) * (cw + 8) + (8 if played else 0), cy
        else:
            kx, ky = TEXT_X, cy + (ch + 4 if played else 0)
        for k, text in enumerate(row.known):
            c.text((kx, ky + 17 * k), text, font=fk, fill=INK)
        y += h
