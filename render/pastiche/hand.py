"""The private picture (a seat's hand): the palette cards, the commissions with the colours
still lacking, the gallery's needs, and both hexes in every distinct rotation with the best
spot for each."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    BACKGROUND,
    INK,
    MUTED,
    fit_lines,
    font,
    smallest_size,
    wrap_text,
)
from render.pastiche.board import _hex_sprite, _paste_centred
from render.pastiche.common import (
    HAND_W,
    HEADER_H,
    PAD,
    View,
    _badge,
    _chips,
    _colour,
    _commission_card,
    _name,
    _on_canvas,
    _title,
)
from render.pastiche.paints import LETTER
from render.words.catalogue import t, tn


def _header(
    draw: ImageDraw.ImageDraw, w: int, view: View, names: list[str], title: str, lang: str
) -> None:
    draw.rectangle((0, 0, w, HEADER_H), fill="#3B3229")
    draw.text((PAD, 14), title, font=font(26, True), fill="#FFFFFF")
    x = PAD + int(font(26, True).getlength(title)) + 20
    f = font(20, True)
    if view["over"]:
        text = t("pic.pastiche.game_over", lang)
        out = view.get("outcome")
        if out:
            winners = ", ".join(_name(names, s, lang) for s in out["winners"])
            text += t("pic.pastiche.winner", lang, names=winners)
    else:
        cur = view["current"]
        x = _badge(draw, x, 17, cur, names, lang)
        verb = t(f"pic.pastiche.verb.{view['phase']}", lang)
        text = t(
            "pic.pastiche.turn", lang, name=_name(names, cur, lang), verb=verb, round=view["round"]
        )
    # smaller, then on two lines, when a language needs more room: centred on the bar
    lines, f = fit_lines(text, int(f.size), w - x - 20, smallest=smallest_size(w), bold=True)
    step = f.size + 4
    y = 20 + (20 - f.size) // 2 - (len(lines) - 1) * step // 2
    for i, line in enumerate(lines):
        draw.text((x, y + i * step), line, font=f, fill="#FFFFFF")


def draw_private(view: View, names: list[str], seat: int, lang: str = "en") -> Image.Image:
    me = view["me"]
    w = HAND_W

    def layout(scratch: Image.Image) -> int:
        draw = ImageDraw.Draw(scratch)
        title = t("pic.pastiche.your_hand", lang, name=_name(names, seat, lang))
        _header(draw, w, view, names, title, lang)
        y = HEADER_H + PAD
        total = sum(me["cards"].values())
        note = t("pic.pastiche.over_limit", lang) if total > 8 else ""
        cards = tn("pic.pastiche.cards", me["usable"], lang, total=total, note=note)
        for line in wrap_text(cards, font(22, True), w - 2 * PAD):
            draw.text((PAD, y), line, font=font(22, True), fill=INK)
            y += 32
        y += 4
        items = [
            (c["name"], f"{_colour(c['name'], lang)} ×{me['cards'][c['name']]}")
            for c in view["colours"]
        ]
        items = [it for it in items if me["cards"][it[0]] > 0]
        if items:
            y = _chips(draw, PAD, y, w - 2 * PAD, items, 18)
        else:
            draw.text((PAD, y), t("pic.pastiche.none", lang), font=font(18), fill=MUTED)
            y += 30
        y += 6
        heading = t("pic.pastiche.commissions", lang)
        draw.text((PAD, y), heading, font=font(22, True), fill=INK)
        y += 34
        cw = (w - 3 * PAD) // 2
        bottoms = [y]
        for i, com in enumerate(me["hand"]):
            bottoms.append(
                _commission_card(
                    draw,
                    PAD + i * (cw + PAD),
                    y,
                    cw,
                    com,
                    com["lack"],
                    com["id"],
                    lang,
                    smallest_size(w),
                )
            )
        y = max(bottoms) + 4
        gl = me.get("gallery_lack", {})
        if view["gallery"]:
            heading = t("pic.pastiche.gallery_lack", lang)
            draw.text((PAD, y), heading, font=font(18, True), fill=INK)
            y += 28
            for com in view["gallery"]:
                lack = gl.get(com["id"], [])
                if lack:
                    need = t(
                        "pic.pastiche.need", lang, colours=", ".join(_colour(c, lang) for c in lack)
                    )
                else:
                    need = t("pic.pastiche.ready", lang)
                line = t(
                    "pic.pastiche.gallery_line",
                    lang,
                    title=_title(com, lang),
                    points=com["points"],
                    need=need,
                )
                lines, f = fit_lines(line, 17, w - 3 * PAD, smallest=smallest_size(w))
                for part in lines:
                    draw.text((PAD + 8, y), part, font=f, fill=INK)
                    y += 25
        y += 10
        draw.text(
            (PAD, y),
            t("pic.pastiche.rotations", lang),
            font=font(22, True),
            fill=INK,
        )
        y += 36
        for hx in me["hexes"]:
            if hx is None:
                continue
            y = _rotations(scratch, draw, PAD, y, w - 2 * PAD, hx, lang)
        if not any(me["hexes"]):
            draw.text((PAD, y), t("pic.pastiche.no_hexes", lang), font=font(18), fill=MUTED)
            y += 30
        return y + PAD

    return _on_canvas(w, 1160, layout)


def _rotations(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    w: int,
    hx: dict[str, Any],
    lang: str = "en",
) -> int:
    centre = t("pic.pastiche.or", lang).join(_colour(LETTER[c], lang) for c in hx["centre"])
    heading = t("pic.pastiche.hex", lang, slot=hx["slot"], centre=centre)
    draw.text((x, y), heading, font=font(20, True), fill=INK)
    y += 30
    cell_w = w // 6
    s = 40.0
    size = int(2 * s + 6)
    bottom = y
    f = font(16)
    for i, rot in enumerate(hx["rotations"]):
        cx = x + i * cell_w
        sprite = _hex_sprite(rot["corners"], hx["centre"], False, s, BACKGROUND)
        _paste_centred(img, sprite, cx + (cell_w - size) // 2 + size / 2, y + size / 2)
        ty = y + size + 2
        label = f"r{rot['rotation']}"
        draw.text(
            (cx + (cell_w - font(18, True).getlength(label)) / 2, ty),
            label,
            font=font(18, True),
            fill=INK,
        )
        ty += 24
        cards = rot["best"]
        if rot["best_spot"]:
            head = t("pic.pastiche.at", lang, spot=rot["best_spot"])
        else:
            head = t("pic.pastiche.no_cards_anywhere", lang)
        draw.text((cx + 6, ty), head, font=font(16, True), fill=INK)
        ty += 22
        line = ""
        for c in (_colour(c, lang) for c in cards or []):
            nxt = f"{line}, {c}" if line else c
            if f.getlength(nxt) > cell_w - 12:
                draw.text((cx + 6, ty), line + ",", font=f, fill=INK)
                ty += 21
                line = c
            else:
                line = nxt
        if line:
            draw.text((cx + 6, ty), line, font=f, fill=INK)
            ty += 21
        if rot["best_spot"] and not cards:
            draw.text((cx + 6, ty), t("pic.pastiche.no_cards", lang), font=f, fill=MUTED)
            ty += 21
        bottom = max(bottom, ty)
    return bottom + 12
