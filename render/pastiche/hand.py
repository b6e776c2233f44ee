"""The private picture (a seat's hand), laid out for a phone: one narrow column
(:data:`~render.pastiche.common.HAND_W` px) with the palette cards, the commissions (one
under the other) with the colours still lacking, the gallery's needs, and both hexes in
every distinct rotation with the best spot for each. Every text stays ≥ 9 px when a phone
shows the picture 400 px wide (:data:`~render.pastiche.common.HAND_SMALLEST`)."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    BACKGROUND,
    INK,
    MUTED,
    fit_lines,
    font,
    wrap_text,
)
from render.pastiche.board import _hex_sprite, _paste_centred
from render.pastiche.common import (
    HAND_SMALLEST,
    HAND_W,
    PAD,
    View,
    _badge,
    _chips,
    _colour,
    _name,
    _on_canvas,
    _title,
    paste_card,
)
from render.pastiche.paints import LETTER
from render.words.catalogue import t, tn

HEAD_FILL = "#3B3229"
#: Rotations drawn side by side: three a row, so each keeps room for its cards' names.
ROTATIONS_PER_ROW = 3


def _header(
    draw: ImageDraw.ImageDraw, w: int, view: View, names: list[str], title: str, lang: str
) -> int:
    """The dark head: whose hand (one line, smaller or on two when long), then whose turn
    with their badge, wrapped. Returns its bottom."""
    width = w - 2 * PAD
    lines, f = fit_lines(title, 24, width, smallest=HAND_SMALLEST, bold=True)
    status_f = font(17, True)
    if view["over"]:
        text = t("pic.pastiche.game_over", lang)
        out = view.get("outcome")
        if out:
            winners = ", ".join(_name(names, s, lang) for s in out["winners"])
            text += t("pic.pastiche.winner", lang, names=winners)
        status = wrap_text(text, status_f, width)
        indent = 0
    else:
        cur = view["current"]
        verb = t(f"pic.pastiche.verb.{view['phase']}", lang)
        text = t(
            "pic.pastiche.turn", lang, name=_name(names, cur, lang), verb=verb, round=view["round"]
        )
        indent = 38
        status = wrap_text(text, status_f, width - indent)
    step = int(f.size) + 6
    bottom = PAD + len(lines) * step + 8 + len(status) * 24 + 10
    draw.rectangle((0, 0, w, bottom), fill=HEAD_FILL)
    y = PAD - 4
    for line in lines:
        draw.text((PAD, y), line, font=f, fill="#FFFFFF")
        y += step
    y += 8
    if not view["over"]:
        _badge(draw, PAD, y - 4, view["current"], names, lang)
    for line in status:
        draw.text((PAD + indent, y), line, font=status_f, fill="#FFFFFF")
        y += 24
    return bottom


def draw_private(view: View, names: list[str], seat: int, lang: str = "en") -> Image.Image:
    me = view["me"]
    w = HAND_W
    width = w - 2 * PAD

    def layout(scratch: Image.Image, top: int) -> int:  # no band: top is 0
        draw = ImageDraw.Draw(scratch)
        title = t("pic.pastiche.your_hand", lang, name=_name(names, seat, lang))
        y = _header(draw, w, view, names, title, lang) + PAD
        total = sum(me["cards"].values())
        note = t("pic.pastiche.over_limit", lang) if total > 8 else ""
        cards = tn("pic.pastiche.cards", me["usable"], lang, total=total, note=note)
        for line in wrap_text(cards, font(20, True), width):
            draw.text((PAD, y), line, font=font(20, True), fill=INK)
            y += 28
        y += 4
        items = [
            (c["name"], f"{_colour(c['name'], lang)} ×{me['cards'][c['name']]}")
            for c in view["colours"]
        ]
        items = [it for it in items if me["cards"][it[0]] > 0]
        if items:
            y = _chips(draw, PAD, y, width, items, 18)
        else:
            draw.text((PAD, y), t("pic.pastiche.none", lang), font=font(18), fill=MUTED)
            y += 30
        y += 6
        for line in wrap_text(t("pic.pastiche.commissions", lang), font(20, True), width):
            draw.text((PAD, y), line, font=font(20, True), fill=INK)
            y += 28
        y += 4
        for com in me["hand"]:
            y = paste_card(scratch, PAD, y, width, com, com["lack"], com["id"], lang, HAND_SMALLEST)
        y = _gallery_needs(draw, y + 4, view, me, lang) + 10
        for line in wrap_text(t("pic.pastiche.rotations", lang), font(20, True), width):
            draw.text((PAD, y), line, font=font(20, True), fill=INK)
            y += 28
        y += 6
        for hx in me["hexes"]:
            if hx is None:
                continue
            y = _rotations(scratch, draw, PAD, y, width, hx, lang)
        if not any(me["hexes"]):
            draw.text((PAD, y), t("pic.pastiche.no_hexes", lang), font=font(18), fill=MUTED)
            y += 30
        return y + PAD

    return _on_canvas(w, 1900, layout)


def _gallery_needs(draw: ImageDraw.ImageDraw, y: int, view: View, me: View, lang: str) -> int:
    """One line (or two) per gallery card: its title, points and the colours still lacking."""
    if not view["gallery"]:
        return y
    width = HAND_W - 2 * PAD
    for line in wrap_text(t("pic.pastiche.gallery_lack", lang), font(18, True), width):
        draw.text((PAD, y), line, font=font(18, True), fill=INK)
        y += 26
    gl = me.get("gallery_lack", {})
    f = font(16)
    for com in view["gallery"]:
        lack = gl.get(com["id"], [])
        if lack:
            need = t("pic.pastiche.need", lang, colours=", ".join(_colour(c, lang) for c in lack))
        else:
            need = t("pic.pastiche.ready", lang)
        line = t(
            "pic.pastiche.gallery_line",
            lang,
            title=_title(com, lang),
            points=com["points"],
            need=need,
        )
        for i, part in enumerate(wrap_text(line, f, width - 20)):
            draw.text((PAD + 8 + (12 if i else 0), y), part, font=f, fill=INK)
            y += 22
        y += 3
    return y


def _rotations(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    w: int,
    hx: dict[str, Any],
    lang: str = "en",
) -> int:
    """A hex in every distinct rotation, three a row: the hex, its rotation (``r3``), the
    best spot and the cards it yields there."""
    centre = t("pic.pastiche.or", lang).join(_colour(LETTER[c], lang) for c in hx["centre"])
    heading = t("pic.pastiche.hex", lang, slot=hx["slot"], centre=centre)
    for line in wrap_text(heading, font(18, True), w):
        draw.text((x, y), line, font=font(18, True), fill=INK)
        y += 26
    y += 2
    cell_w = w // ROTATIONS_PER_ROW
    s = 38.0
    size = int(2 * s + 6)
    f, fb = font(16), font(16, True)
    rots = hx["rotations"]
    for r0 in range(0, len(rots), ROTATIONS_PER_ROW):
        bottom = y
        for i, rot in enumerate(rots[r0 : r0 + ROTATIONS_PER_ROW]):
            cx = x + i * cell_w
            sprite = _hex_sprite(rot["corners"], hx["centre"], False, s, BACKGROUND)
            _paste_centred(img, sprite, cx + cell_w / 2, y + size / 2)
            ty = y + size + 2
            label = f"r{rot['rotation']}"
            lf = font(18, True)
            draw.text((cx + (cell_w - lf.getlength(label)) / 2, ty), label, font=lf, fill=INK)
            ty += 24
            if rot["best_spot"]:
                head = t("pic.pastiche.at", lang, spot=rot["best_spot"])
            else:
                head = t("pic.pastiche.no_cards_anywhere", lang)
            for line in wrap_text(head, fb, cell_w - 12):
                draw.text((cx + 6, ty), line, font=fb, fill=INK)
                ty += 21
            cards = ", ".join(_colour(c, lang) for c in rot["best"] or [])
            for line in wrap_text(cards, f, cell_w - 12):
                draw.text((cx + 6, ty), line, font=f, fill=INK)
                ty += 21
            if rot["best_spot"] and not rot["best"]:
                draw.text((cx + 6, ty), t("pic.pastiche.no_cards", lang), font=f, fill=MUTED)
                ty += 21
            bottom = max(bottom, ty)
        y = bottom + 12
    return y
