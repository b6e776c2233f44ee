"""The private picture (a seat's hand): the cards grouped by colour, with a small header.

Cards the seat can no longer play this visit are dimmed, and a line says why (his colour
this visit, the colour change, or that he has withdrawn); a card of another colour that
only the colour-change card lets through carries its "⇄". Which cards those are is the
rules' answer (the view's ``playable``, from the same rule as the legal moves), never
worked out here.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageColor, ImageDraw

from render.common import (
    BACKGROUND,
    INK,
    MUTED,
    font,
    player_colour,
    player_text_colour,
    wrap_text,
)
from render.taj_mahal.canvas import Canvas
from render.taj_mahal.pieces import _card, _colour, _name
from render.words.catalogue import t, tn
from render.words.say import say
from rules.taj_mahal.components import components

#: Hand pictures: cards per row and the narrowest picture (phone-shaped, see _draw_private).
HAND_PER_ROW = 7
HAND_MIN_W = 460


def _draw_private(view: dict[str, Any], names: list[str], seat: int, lang: str) -> Image.Image:
    """The hand, laid out for a phone: a narrow picture (at most :data:`HAND_PER_ROW` cards
    a row, each colour group under its own heading) cropped to what it holds."""
    comp = components()
    hand = view.get("hand", [])
    groups: list[tuple[str, list[dict[str, Any]]]] = []
    for colour in comp.colours:
        groups.append((colour, [c for c in hand if c["colour"] == colour]))
    groups.append(("white", [c for c in hand if c["kind"] == "white"]))
    groups.append(("special", [c for c in hand if c["kind"] == "special"]))
    groups = [g for g in groups if g[1]]
    cw, ch, gap, pad = 58, 82, 8, 14
    per_row = min(HAND_PER_ROW, max((len(cards) for _, cards in groups), default=1))
    width = max(HAND_MIN_W, 2 * pad + per_row * (cw + gap) - gap)
    info = view["player_info"][seat]
    colour = _colour(info["colour"], lang) if info["colour"] else t("pic.taj.no_colour", lang)
    head = tn(
        "pic.taj.hand_head",
        len(hand),
        lang,
        name=_name(names, seat, lang),
        score=info["score"],
        colour=colour,
    )
    f_head, f_status, f_group = font(20, True), font(17), font(18, True)
    head_lines = wrap_text(head, f_head, width - 2 * pad)
    status = say(view["status"], lang, names)
    rule = _playable_words(view, info, lang)
    status_lines = wrap_text(status, f_status, width - 2 * pad)
    if rule:
        status_lines += wrap_text(rule, f_status, width - 2 * pad)
    head_h = 14 + 28 * len(head_lines)
    top = head_h + 10 + 24 * len(status_lines) + 8
    rh = ch + 26
    # groups flow left to right like words, wrapping when the next one does not fit
    placed: list[tuple[int, int, str, list[dict[str, Any]]]] = []
    x, y, line_h = pad, top, 0
    for label, cards in groups:
        cols = min(per_row, len(cards))
        words = t("pic.taj.group", lang, label=_colour(label, lang), count=len(cards))
        need = max(cols * (cw + gap) - gap, int(f_group.getlength(words)) + 4)
        if x > pad and x + need > width - pad:
            x, y, line_h = pad, y + line_h, 0
        placed.append((x, y, label, cards))
        line_h = max(line_h, 30 + -(-len(cards) // per_row) * rh)
        x += need + 3 * gap
    height = y + line_h + (40 if not groups else 0)
    img = Image.new("RGB", (width, height + pad), BACKGROUND)
    d = ImageDraw.Draw(img)
    canvas = Canvas(img)
    d.rectangle((0, 0, width, head_h), fill=player_colour(seat))
    for i, line in enumerate(head_lines):
        d.text((pad, 10 + 28 * i), line, font=f_head, fill=player_text_colour(seat))
    for i, line in enumerate(status_lines):
        d.text((pad, head_h + 10 + 24 * i), line, font=f_status, fill=INK)
    if not groups:
        d.text((pad, top + 8), t("pic.taj.no_cards", lang), font=font(18), fill=MUTED)
    playable = view.get("playable") or {}
    usable = set(playable.get("cards") or [])
    with_change = set(playable.get("with_change") or [])
    dim = bool(playable) and not view["over"]
    veil = Image.new("RGBA", (cw + 1, ch + 1), (*ImageColor.getrgb(BACKGROUND), 170))
    for gx, gy, label, cards in placed:
        d.text(
            (gx, gy),
            t("pic.taj.group", lang, label=_colour(label, lang), count=len(cards)),
            font=f_group,
            fill=INK,
        )
        for i, card in enumerate(cards):
            r, c = divmod(i, per_row)
            cx, cy = gx + c * (cw + gap), gy + 30 + r * rh
            _card(canvas, cx, cy, card, cw, ch)
            out = dim and card["id"] not in usable
            if out:  # not this visit: dimmed (its code below stays readable)
                img.paste(veil, (cx, cy), veil)
            elif card["id"] in with_change:  # only with the colour-change card
                d.ellipse(
                    (cx + cw - 20, cy - 4, cx + cw + 4, cy + 20),
                    fill="#FFFFFF",
                    outline=INK,
                    width=2,
                )
                d.text((cx + cw - 8, cy + 8), "⇄", font=font(16, True), fill=INK, anchor="mm")
            ink = MUTED if out else INK
            d.text((cx + cw / 2, cy + ch + 2), card["code"], font=font(15), fill=ink, anchor="ma")
    return img


def _playable_words(view: dict[str, Any], info: dict[str, Any], lang: str) -> str | None:
    """Which cards are dimmed and why, by the view's ``playable`` (None once the game is
    over, or for a view without it)."""
    playable = view.get("playable")
    if playable is None or view["over"]:
        return None
    if not info["in_visit"]:
        return t("pic.taj.play_none", lang)
    if not playable["cards"]:
        return t("pic.taj.play_nothing", lang)
    if info["colour"] is None:
        return t("pic.taj.play_any", lang)
    colour = _colour(info["colour"], lang)
    if playable["with_change"]:
        return t("pic.taj.play_lock_change", lang, colour=colour)
    return t("pic.taj.play_lock", lang, colour=colour)
