"""The public picture: the painting, the palette bank, the gallery, the open trade offers
and each player's panel (:mod:`render.pastiche.players`) under the header band."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    BACKGROUND,
    INK,
    MUTED,
    final_places,
    fit_text,
    font,
    shrink_to_fit,
    wrap_text,
)
from render.header import Band, away_words, band_font_size, header_band
from render.pastiche.board import (
    MARK_DARK,
    MARK_LIGHT,
    Painted,
    _close_up,
    _draw_texts,
    _painting,
)
from render.pastiche.common import (
    BANK_SMALLEST,
    LINE,
    PAD,
    PAINT_W,
    WIDTH_RIGHT,
    View,
    _badge,
    _chips,
    _colour,
    _name,
    _on_canvas,
    _title,
    card,
    initials,
)
from render.pastiche.final import draw_final_table, final_rows, final_table_height
from render.pastiche.paints import _paint, _text_on
from render.pastiche.players import _players, _players_height
from render.words.catalogue import t, tn
from render.words.say import say
from rules.pastiche.trade import side_words
from rules.words import Msg, Seat


def _bank(img: Image.Image, x: int, y: int, view: View, lang: str) -> int:
    """The palette bank: a swatch per colour with its name and count, three to a row; two
    to a row when a language's colour names do not fit three (Polish *pomarańczowy*)."""
    draw = ImageDraw.Draw(img)
    draw.text((x, y), t("pic.pastiche.bank", lang), font=font(22, True), fill=INK)
    y += 34
    colours = tuple(c["name"] for c in view["colours"])
    names, cols = _bank_names(colours, lang)
    col_w = (WIDTH_RIGHT - 2 * PAD) // cols
    for i, (c, name) in enumerate(zip(colours, names, strict=True)):
        cx = x + (i % cols) * col_w
        cy = y + (i // cols) * 36
        img.paste(_swatch(c, name, view["bank"][c], col_w), (cx, cy))
    return y + _bank_height(view, lang) - 34


@lru_cache(maxsize=16)
def _bank_names(colours: tuple[str, ...], lang: str) -> tuple[tuple[str, ...], int]:
    """The bank's colour names in ``lang``, and how many stacks fit a row: three, or two
    when a name does not fit three at the smallest legible size."""
    names = tuple(_colour(c, lang) for c in colours)
    widest = font(BANK_SMALLEST, True)
    room = _bank_room(3, font(16, True))
    return names, 2 if any(widest.getlength(name) > room for name in names) else 3


def _bank_height(view: View, lang: str) -> int:
    """How far below its top :func:`_bank` ends, measured without drawing."""
    colours = tuple(c["name"] for c in view["colours"])
    cols = _bank_names(colours, lang)[1]
    return 34 + (len(colours) + cols - 1) // cols * 36 + 8


@lru_cache(maxsize=512)  # ~25 KB each
def _swatch(colour: str, name: str, n: int, col_w: int) -> Image.Image:
    """One bank stack: the paint with its name and count (a pale empty box when none is
    left). Drawn once per name and count: the bank changes with nearly every move, one or
    two stacks at a time, and drawing its 17 stacks cost ~3 ms."""
    img = Image.new("RGB", (col_w - 7, 31), BACKGROUND)
    draw = ImageDraw.Draw(img)
    f = font(16, True)
    draw.rounded_rectangle(
        (0, 0, col_w - 8, 30),
        radius=6,
        fill=_paint(colour) if n else "#E6E0D4",
        outline=INK if n else LINE,
    )
    fill = _text_on(colour) if n else MUTED
    cnt = f"{n}"
    room = col_w - 30 - int(f.getlength(cnt))  # a longer language is set smaller
    fn = shrink_to_fit(name, 16, room, smallest=BANK_SMALLEST, bold=True)
    name = fit_text(name, fn, room)
    draw.text((7, 5 + (16 - fn.size) // 2), name, font=fn, fill=fill)
    draw.text((col_w - 16 - f.getlength(cnt), 5), cnt, font=f, fill=fill)
    return img


def _bank_room(cols: int, f: Any) -> int:
    """Room for a colour's name in a bank swatch beside a two-digit count."""
    return (WIDTH_RIGHT - 2 * PAD) // cols - 30 - int(f.getlength("12"))


def _gallery(
    img: Image.Image, x: int, y: int, view: View, cards: list[tuple[Image.Image, int]], lang: str
) -> int:
    """The gallery: its heading (with the deck's count), then its ``cards``
    (:func:`_gallery_cards`). Returns the bottom y."""
    draw = ImageDraw.Draw(img)
    gallery = t("pic.pastiche.gallery", lang, deck=view["deck"])
    draw.text((x, y), gallery, font=font(22, True), fill=INK)
    y += 34
    for sprite, below in cards:
        img.paste(sprite, (x, y))
        y += below
    if not view["gallery"]:
        draw.text((x, y), t("pic.pastiche.empty", lang), font=font(16), fill=MUTED)
        y += 26
    return y


def _gallery_cards(view: View, lang: str) -> list[tuple[Image.Image, int]]:
    """The gallery's cards (cached sprites, see :func:`render.pastiche.common.card_sprite`)
    and the offset from each one's top to the next."""
    w = WIDTH_RIGHT - 2 * PAD
    return [card(w, com, None, com["id"], lang, 16) for com in view["gallery"]]


def _gallery_height(cards: list[tuple[Image.Image, int]]) -> int:
    """How far below its top :func:`_gallery` ends, with these ``cards``."""
    return 34 + sum(below for _, below in cards) + (0 if cards else 26)


def _fresh_texts(view: View, names: list[str], width: int, size: int, lang: str) -> list[list[str]]:
    """The commissions the last turn completed (the two newest), each as the lines of its
    plate under the close-up."""
    fresh = view.get("fresh") or []
    owner = {c["id"]: s for s, info in enumerate(view["seats"]) for c in info["done"]}
    done = {c["id"]: c for info in view["seats"] for c in info["done"]}
    f = font(size, True)
    tw = int(f.getlength(t("pic.pastiche.new", lang))) + 16
    plates = []
    for cid in fresh[-2:]:
        if cid not in done:
            continue
        com = done[cid]
        text = t(
            "pic.pastiche.fresh",
            lang,
            name=_name(names, owner[cid], lang),
            title=_title(com, lang),
            points=tn("pic.pastiche.pts", com["points"], lang),
        )
        plates.append(wrap_text(text, f, width - 2 * PAD - tw - 20))
    return plates


def _fresh_height(plates: list[list[str]], size: int) -> int:
    """How far below its top :func:`_fresh_plates` ends."""
    return sum(8 + len(lines) * (size + 10) + 10 for lines in plates)


def _fresh_plates(
    draw: ImageDraw.ImageDraw, y: int, size: int, plates: list[list[str]], lang: str
) -> int:
    """The commissions the last turn completed (:func:`_fresh_texts`), in words under the
    close-up (never over the painting), ``size`` px tall (the band's, so ≥ 9 px at phone
    width): with the newest hex framed above, the whole last move reads on a phone.
    Returns the bottom."""
    f = font(size, True)
    tag = t("pic.pastiche.new", lang)
    tw = int(f.getlength(tag)) + 16
    step = size + 10
    for lines in plates:
        right = PAD + tw + 14 + max(f.getlength(line) for line in lines)
        y += 8
        draw.rounded_rectangle(
            (PAD - 6, y, right, y + len(lines) * step + 10),
            radius=8,
            fill="#FFFFFF",
            outline=MARK_DARK,
            width=3,
        )
        draw.rounded_rectangle((PAD, y + 6, PAD + tw, y + 4 + step), radius=6, fill=MARK_DARK)
        draw.text((PAD + tw / 2, y + 5 + step / 2), tag, font=f, fill=MARK_LIGHT, anchor="mm")
        for i, line in enumerate(lines):
            draw.text((PAD + tw + 8, y + 5 + step / 2 + i * step), line, font=f, fill=INK,
                      anchor="lm")  # fmt: skip
        y += len(lines) * step + 10
    return y


#: Offers drawn in the public picture; more are summed up in one line.
MAX_OFFERS_DRAWN = 6


def _offers(
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    width: int,
    view: View,
    names: list[str],
    lang: str,
) -> int:
    """The open trade offers (public: the rules make them so), each with its number, who
    offers whom, the cards on both sides as chips and how to answer. Returns the bottom y."""
    draw.text((x, y), t("pic.pastiche.offers", lang), font=font(20, True), fill=INK)
    y += 30
    offers = view["offers"]
    small = font(16)
    for o in offers[:MAX_OFFERS_DRAWN]:
        giver, taker = _name(names, o["from"], lang), _name(names, o["to"], lang)
        bx = _badge(draw, x, y, o["from"], names, lang)
        head = t("pic.pastiche.offer_head", lang, id=o["id"], giver=giver, taker=taker)
        draw.text(
            (bx, y + 4),
            fit_text(head, font(18, True), width - (bx - x)),
            font=font(18, True),
            fill=INK,
        )
        y += 34
        sides = (
            (t("pic.pastiche.offer_gives", lang), o["give"]),
            (t("pic.pastiche.offer_for", lang), o["get"]),
        )
        for label, cards in sides:
            draw.text((x + 8, y + 5), label, font=small, fill=MUTED)
            cx = x + 16 + int(small.getlength(label))
            if cards:
                chips = [(c, _colour(c, lang)) for c in cards]
                y = _chips(draw, cx, y, width - (cx - x), chips) - 6
            else:
                draw.text((cx, y + 5), t("pic.pastiche.offer_nothing", lang), font=small, fill=INK)
                y += 26
        answer = t("pic.pastiche.offer_answer", lang, taker=taker, id=o["id"])
        draw.text((x + 8, y + 2), fit_text(answer, small, width - 8), font=small, fill=MUTED)
        y += 30
    if len(offers) > MAX_OFFERS_DRAWN:
        more = t("pic.pastiche.offers_more", lang, n=len(offers) - MAX_OFFERS_DRAWN)
        draw.text((x, y), more, font=small, fill=MUTED)
        y += 26
    return y


def _status_lines(view: View, names: list[str], lang: str = "en") -> list[str]:
    if view.get("ended"):  # resigned or aborted: what happened instead of whose turn
        return [view["ended"]["text"]]
    lines = []
    goal = tn("pic.pastiche.goal", view["threshold"], lang)
    if view["end"] == "trigger":
        goal += t("pic.pastiche.goal_reached", lang, name=_name(names, view["last_seat"], lang))
    elif view["end"] == "hexes":
        goal += t("pic.pastiche.goal_hexes", lang, name=_name(names, view["last_seat"], lang))
    else:
        goal += tn("pic.pastiche.goal_supply", view["supply"], lang)
    if view["over"]:
        goal = t("pic.pastiche.final", lang)
    lines.append(goal)
    return lines


#: The close-up's height and the overview's largest (the whole painting, under it).
CLOSE_H = 400
OVERVIEW_H = 440


def draw_public(view: View, names: list[str], lang: str = "en") -> Image.Image:
    """Phone first: under the status line, a close-up of the painting's latest area big
    enough to read at 400 px; under it, the whole painting with the close-up's window
    framed; the bank, gallery and offers on the right; the players below.

    Every part's height is known before anything is drawn (the paintings and the cards
    are cached sprites, the texts are measured), so the canvas is made to the picture's
    size at once, with the band on top (see :func:`render.pastiche.common._on_canvas`)."""
    paint, close = _paintings(_painting_key(view), lang)
    pw, ph = paint.img.size
    w = pw + WIDTH_RIGHT
    close_size = band_font_size(w)  # the close-up's words: ≥ 9 px at phone width
    final = bool(final_rows(view))
    status = [
        part
        for line in ([] if final else _status_lines(view, names, lang))
        for part in wrap_text(line, font(18, True), pw - 2 * PAD)  # never cut off
    ]
    plates = [] if final else _fresh_texts(view, names, pw, close_size, lang)
    # the left column: status, close-up (or the final table), the whole painting
    close_top = PAD + 26 * len(status) + 8
    if final:
        over_top = close_top + final_table_height(pw, close_size, view, lang) + 6
    else:
        over_top = close_top + CLOSE_H + _fresh_height(plates, close_size) + 6
    # the right column: bank, gallery, offers
    gallery_top = PAD + _bank_height(view, lang) + 10
    cards = _gallery_cards(view, lang)
    right_bottom = gallery_top + _gallery_height(cards)
    offers = _offers_sprite(view, names, lang) if view.get("offers") else None
    offers_top = right_bottom + 10
    if offers is not None:
        right_bottom = offers_top + offers[1]
    py = max(over_top + ph, right_bottom) + PAD
    height = py + _players_height(view, w - 2 * PAD, lang) + PAD

    def layout(img: Image.Image, top: int) -> int:
        draw = ImageDraw.Draw(img)
        y = top + PAD
        for part in status:
            draw.text((PAD, y), part, font=font(18, True), fill=INK)
            y += 26
        if final:  # the scores' arithmetic where the close-up was: the end reads on a phone
            draw_final_table(draw, top + close_top, pw, close_size, view, names, lang)
        else:
            img.paste(close.img, (0, top + close_top))
            _draw_texts(draw, 0, top + close_top, close.labels)
            _fresh_plates(draw, top + close_top + CLOSE_H, close_size, plates, lang)
        img.paste(paint.img, (0, top + over_top))
        _draw_texts(draw, 0, top + over_top, paint.labels)
        if not final:
            _frame(draw, top + over_top, paint, close)
        rx = pw + PAD
        _bank(img, rx, top + PAD, view, lang)
        _gallery(img, rx, top + gallery_top, view, cards, lang)
        if offers is not None:
            img.paste(offers[0], (rx - PANEL_MARGIN, top + offers_top - PANEL_MARGIN))
        draw.line((PAD, top + py - 8, w - PAD, top + py - 8), fill=LINE, width=2)
        return _players(img, PAD, top + py, w - 2 * PAD, view, names, lang) + PAD

    return _on_canvas(w, height, layout, _band(w, view, names, lang))


PaintingKey = tuple[Any, ...]


def _painting_key(view: View) -> PaintingKey:
    """What the two paintings are drawn from: the hexes, the open spots, the newest hex."""
    board = tuple((b["q"], b["r"], b["name"], b["corners"], b["centre"], b["start"])
                  for b in view["board"])  # fmt: skip
    spots = tuple(zip(view["spots"], map(tuple, view["spot_cells"]), strict=True))
    return board, spots, view.get("last"), view["over"]


@lru_cache(maxsize=4)  # ~2.7 MB each
def _paintings(key: PaintingKey, lang: str) -> tuple[Painted, Painted]:
    """The whole painting and its close-up, drawn once per painting: every move of a turn
    but the placement (trades, exchanges, completions, the turn's end) shows the same one.
    Callers only paste the images, never draw on them."""
    board, spots, last, over = key
    view: View = {
        "board": [
            {"q": q, "r": r, "name": n, "corners": c, "centre": ce, "start": st}
            for q, r, n, c, ce, st in board
        ],
        "spots": [name for name, _ in spots],
        "spot_cells": [list(cell) for _, cell in spots],
        "last": last,
        "over": over,
    }
    paint = _painting(view, PAINT_W, OVERVIEW_H, lang)
    w = paint.img.width + WIDTH_RIGHT
    return paint, _close_up(view, paint.img.width, CLOSE_H, band_font_size(w), lang)


def _frame(draw: ImageDraw.ImageDraw, top: int, paint: Painted, close: Painted) -> None:
    """The close-up's window on the whole painting: a dark frame with a light edge."""
    cw, ch = close.img.size
    x0 = paint.ox + (0 - close.ox) / close.s * paint.s
    x1 = paint.ox + (cw - close.ox) / close.s * paint.s
    y0 = paint.oy + (0 - close.oy) / close.s * paint.s
    y1 = paint.oy + (ch - close.oy) / close.s * paint.s
    pw, ph = paint.img.size
    x0, x1 = max(3.0, x0), min(pw - 4.0, x1)
    y0, y1 = max(3.0, y0), min(ph - 4.0, y1)
    box = (x0, top + y0, x1, top + y1)
    draw.rectangle(box, outline=MARK_LIGHT, width=6)
    draw.rectangle((box[0] + 1, box[1] + 1, box[2] - 1, box[3] - 1), outline=MARK_DARK, width=3)


def _band(w: int, view: View, names: list[str], lang: str) -> Image.Image:
    n = len(view["seats"])
    letters = list(initials(tuple(names), n))
    out = view.get("outcome") if view["over"] else None
    if view.get("ended"):
        action = view["ended"]["text"]
    elif view["over"]:
        action = t("pic.pastiche.game_over", lang)
        if out:
            winners = ", ".join(_name(names, s, lang) for s in out["winners"])
            action += t("pic.pastiche.winner", lang, names=winners)
    else:
        cur = view["current"]
        action = t(
            "pic.pastiche.band_turn",
            lang,
            name=_name(names, cur, lang),
            verb=t(f"pic.pastiche.verb.{view['phase']}", lang),
        )
        action += offer_words(view, names, lang)
    scores = [(s, str(out["scores"][s] if out else view["seats"][s]["score"])) for s in range(n)]
    band = Band(
        game=t("pic.pastiche.title", lang),
        stage=t("pic.pastiche.stage", lang, round=view["round"]),
        acting=[] if view["over"] or view.get("ended") else list(view["to_act"]),
        action=action,
        scores=scores,
        last=view.get("last_move"),
        away=away_words(view, names, lang),
        places=final_places(view),
    )
    return header_band(w, band, letters, lang)


#: Open offers the band spells out; more are counted ("… and 2 more").
BAND_OFFERS = 3


def offer_words(view: View, names: list[str], lang: str) -> str:
    """The open offers in the band's words, " · offer 1: Bálint gives 2 orange for violet,
    Łucja to answer": the band rings both the player on turn and each offer's receiver, so
    it names both sides of every offer (the rules' own status words, in every language)."""
    offers = view.get("offers") or []
    everyone = [_name(names, s, lang) for s in range(len(view["seats"]))]
    parts = [
        say(
            Msg(
                "pastiche.status.offer",
                id=o["id"],
                maker=Seat(o["from"]),
                give=side_words(o["give"]),
                get=side_words(o["get"]),
                taker=Seat(o["to"]),
            ),
            lang,
            everyone,
        )
        for o in offers[:BAND_OFFERS]
    ]
    if len(offers) > BAND_OFFERS:
        parts.append(t("pic.pastiche.offers_more", lang, n=len(offers) - BAND_OFFERS))
    return "".join(f" · {p}" for p in parts)


#: The offers' sprite reaches this far left of and above the offers (their badges' edges).
PANEL_MARGIN = 8


def _offers_sprite(view: View, names: list[str], lang: str) -> tuple[Image.Image, int]:
    """The open offers (:func:`_offers`), and how far below their top they end."""
    return _offers_panel(json.dumps(view["offers"], sort_keys=True), tuple(names), lang)


@lru_cache(maxsize=16)  # ~0.3 MB each
def _offers_panel(key: str, names: tuple[str, ...], lang: str) -> tuple[Image.Image, int]:
    """The open offers drawn once while they stand: an offer stays open over several
    pictures (the other moves of the turn). Read-only: callers only paste it."""
    m = PANEL_MARGIN
    part = {"offers": json.loads(key)}
    guess = 2 * m + 30 + 200 * min(len(part["offers"]), MAX_OFFERS_DRAWN + 1)

    def paint(img: Image.Image, top: int) -> int:
        return _offers(
            ImageDraw.Draw(img), m, top + m, WIDTH_RIGHT - 2 * PAD, part, list(names), lang
        )

    sprite = _on_canvas(WIDTH_RIGHT, guess, paint)
    return sprite, sprite.height - m
