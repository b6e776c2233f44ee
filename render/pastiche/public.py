"""The public picture: the painting, the palette bank, the gallery, the open trade offers
and each player's panel under the header band."""

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
    fit_lines,
    fit_text,
    font,
    player_colour,
    shrink_to_fit,
    wrap_text,
)
from render.header import Band, away_words, header_band
from render.pastiche.board import _draw_texts, _hex_row, _painting
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
    _commission_card,
    _name,
    _on_canvas,
    _title,
)
from render.pastiche.paints import _paint, _text_on
from render.seats import seat_letters
from render.words.catalogue import t, tn


def _bank(draw: ImageDraw.ImageDraw, x: int, y: int, view: View, lang: str) -> int:
    """The palette bank: a swatch per colour with its name and count, three to a row; two
    to a row when a language's colour names do not fit three (Polish *pomarańczowy*)."""
    draw.text((x, y), t("pic.pastiche.bank", lang), font=font(22, True), fill=INK)
    y += 34
    f = font(16, True)
    names = [_colour(c["name"], lang) for c in view["colours"]]
    widest = font(BANK_SMALLEST, True)
    cols = 3
    if any(widest.getlength(name) > _bank_room(cols, f) for name in names):
        cols = 2
    col_w = (WIDTH_RIGHT - 2 * PAD) // cols
    for i, (c, name) in enumerate(zip(view["colours"], names, strict=True)):
        cx = x + (i % cols) * col_w
        cy = y + (i // cols) * 36
        n = view["bank"][c["name"]]
        draw.rounded_rectangle(
            (cx, cy, cx + col_w - 8, cy + 30),
            radius=6,
            fill=_paint(c["name"]) if n else "#E6E0D4",
            outline=INK if n else LINE,
        )
        fill = _text_on(c["name"]) if n else MUTED
        cnt = f"{n}"
        room = col_w - 30 - int(f.getlength(cnt))  # a longer language is set smaller
        fn = shrink_to_fit(name, 16, room, smallest=BANK_SMALLEST, bold=True)
        name = fit_text(name, fn, room)
        draw.text((cx + 7, cy + 5 + (16 - fn.size) // 2), name, font=fn, fill=fill)
        draw.text((cx + col_w - 16 - f.getlength(cnt), cy + 5), cnt, font=f, fill=fill)
    rows = (len(view["colours"]) + cols - 1) // cols
    return y + rows * 36 + 8


def _bank_room(cols: int, f: Any) -> int:
    """Room for a colour's name in a bank swatch beside a two-digit count."""
    return (WIDTH_RIGHT - 2 * PAD) // cols - 30 - int(f.getlength("12"))


def _gallery(draw: ImageDraw.ImageDraw, x: int, y: int, view: View, lang: str) -> int:
    gallery = t("pic.pastiche.gallery", lang, deck=view["deck"])
    draw.text((x, y), gallery, font=font(22, True), fill=INK)
    y += 34
    for com in view["gallery"]:
        y = _commission_card(draw, x, y, WIDTH_RIGHT - 2 * PAD, com, tag=com["id"], lang=lang)
    if not view["gallery"]:
        draw.text((x, y), t("pic.pastiche.empty", lang), font=font(16), fill=MUTED)
        y += 26
    return y


def _players(
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    w: int,
    view: View,
    names: list[str],
    lang: str,
    img: Image.Image | None = None,
) -> int:
    n = len(view["seats"])
    col = w // n
    bottom = y
    for seat, info in enumerate(view["seats"]):
        cx = x + seat * col
        cy = y
        acting = seat in view["to_act"]
        draw.rounded_rectangle(
            (cx, cy, cx + col - 10, cy + 10),
            radius=4,
            fill=player_colour(seat) if acting else "#E6E0D4",
        )
        cy += 16
        bx = _badge(draw, cx, cy, seat, names, lang)
        token = t("pic.pastiche.token", lang, n=seat + 1)  # what `offer p2` refers to
        tf = font(16, True)
        tw = tf.getlength(token) + 10
        nm = fit_text(_name(names, seat, lang), font(20, True), int(col - 150 - tw))
        draw.text((bx, cy + 3), nm, font=font(20, True), fill=INK)
        tx = bx + font(20, True).getlength(nm) + 8
        draw.rounded_rectangle((tx, cy + 4, tx + tw, cy + 28), 6, fill="#FFFFFF", outline=MUTED)
        draw.text((tx + tw / 2, cy + 16), token, font=tf, fill=INK, anchor="mm")
        out = view.get("outcome") if view["over"] else None
        sc = f"{out['scores'][seat]}" if out else f"{info['score']}"
        draw.text(
            (cx + col - 24 - font(26, True).getlength(sc), cy), sc, font=font(26, True), fill=INK
        )
        cy += 38
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
        lines, f = fit_lines(line, 16, col - 16, smallest=16)  # the panel grows: no cut
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
        for com in info["done"]:
            done = fit_text(f"{com['points']:>2} · {_title(com, lang)}", font(16), col - 20)
            draw.text((cx + 4, cy), done, font=font(16), fill=INK)
            cy += 22
        if not info["done"]:
            draw.text((cx + 4, cy), t("pic.pastiche.none_yet", lang), font=font(16), fill=MUTED)
            cy += 22
        if info.get("hexes") and img is not None:  # hexes in hand are public
            per = max(1, (col - 10) // 50)
            hexes = info["hexes"]
            for r0 in range(0, len(hexes), per):
                _hex_row(img, cx, cy + 4, hexes[r0 : r0 + per], 21, BACKGROUND)
                cy += 52
        bottom = max(bottom, cy)
    return bottom + 8


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


def draw_public(view: View, names: list[str], lang: str = "en") -> Image.Image:
    paint, texts = _painting(view, PAINT_W, 820, lang)
    pw, ph = paint.size
    w = pw + WIDTH_RIGHT

    def layout(img: Image.Image) -> int:
        draw = ImageDraw.Draw(img)
        y = PAD
        for line in _status_lines(view, names, lang):
            for part in wrap_text(line, font(18, True), pw - 2 * PAD):  # never cut off
                draw.text((PAD, y), part, font=font(18, True), fill=INK)
                y += 26
        top = y + 8
        img.paste(paint, (0, top))
        _draw_texts(draw, 0, top, texts)
        rx = pw + PAD
        yb = _paste_panel(img, "bank", rx, PAD, view, lang)
        right_bottom = _paste_panel(img, "gallery", rx, yb + 10, view, lang)
        if view.get("offers"):
            right_bottom = _offers(
                draw, rx, right_bottom + 10, WIDTH_RIGHT - 2 * PAD, view, names, lang
            )
        py = max(top + ph, right_bottom) + PAD
        draw.line((PAD, py - 8, w - PAD, py - 8), fill=LINE, width=2)
        return _players(draw, PAD, py, w - 2 * PAD, view, names, lang, img) + PAD

    return _on_canvas(w, max(ph, 640) + 640, layout, _band(w, view, names, lang))


def _band(w: int, view: View, names: list[str], lang: str) -> Image.Image:
    n = len(view["seats"])
    letters = seat_letters(names, n)
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


#: The view parts each cached side panel is drawn from (and keyed by).
PANEL_PARTS = {"bank": ("bank", "colours"), "gallery": ("gallery", "deck")}
PANEL_MARGIN = 8


def _paste_panel(img: Image.Image, kind: str, x: int, y: int, view: View, lang: str) -> int:
    """Paste the bank or the gallery, drawn once per content and language: they change far
    less often than the rest (the gallery only on completions), and their ~20 chips and
    cards cost several ms each time. Returns the bottom y, as drawing in place would."""
    key = json.dumps([view[p] for p in PANEL_PARTS[kind]], sort_keys=True)
    sprite, bottom = _panel_sprite(kind, key, lang)
    img.paste(sprite, (x - PANEL_MARGIN, y - PANEL_MARGIN))
    return y + bottom


@lru_cache(maxsize=48)  # bank ~0.4 MB, gallery ~1 MB: at most ~35 MB per render worker
def _panel_sprite(kind: str, key: str, lang: str) -> tuple[Image.Image, int]:
    parts = dict(zip(PANEL_PARTS[kind], json.loads(key), strict=True))
    m = PANEL_MARGIN
    img = Image.new("RGB", (WIDTH_RIGHT, 1600), BACKGROUND)
    paint = _bank if kind == "bank" else _gallery
    bottom = paint(ImageDraw.Draw(img), m, m, parts, lang) - m
    return img.crop((0, 0, WIDTH_RIGHT, bottom + m)), bottom
