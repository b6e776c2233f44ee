"""The final picture's arithmetic: every seat's points by the rulebook's sources (palaces
and their connections, goods, bonus tiles, the +2 Points card, the cards left in hand), one
column per seat, summing to its score; and how each hand scored.

Why from the view's ``points`` and not worked out here: the rules keep the breakdown as
they score (``rules/taj_mahal/state.add_points``), and a test holds it equal to the
record's scoring events; a picture that counted again could disagree with the record.
"""

from __future__ import annotations

from typing import Any

from render.common import INK, MUTED, fit_lines, font, shrink_to_fit, smallest_size
from render.taj_mahal.canvas import Canvas, Pen
from render.taj_mahal.court import chip
from render.taj_mahal.pieces import _colour
from render.words.catalogue import t
from rules.taj_mahal.scoring import SOURCES

#: Each source's words (literal keys: tests/test_picture_words.py finds every key drawn).
SOURCE_WORDS = {
    "palaces": "pic.taj.source.palaces",
    "goods": "pic.taj.source.goods",
    "bonus": "pic.taj.source.bonus",
    "special": "pic.taj.source.special",
    "hand": "pic.taj.source.hand",
}
LABEL_W = 190
ROW_H = 46


def has_breakdown(view: dict[str, Any]) -> bool:
    """Whether the view carries every seat's points by source (a state stored before the
    breakdown was kept has none)."""
    return all(info.get("points") is not None for info in view["player_info"])


def draw_breakdown(
    c: Canvas,
    view: dict[str, Any],
    letters: list[str],
    x0: int,
    y: int,
    width: int,
    canvas_w: int,
    lang: str,
) -> int:
    """The table from ``y`` down: a column per seat (its chip on top), a row per source,
    the total below a rule, the best total(s) boxed; then a line per seat saying how its
    hand scored. Returns the y below it."""
    n = view["players"]
    floor = smallest_size(canvas_w)
    title = t("pic.taj.final_title", lang)
    lines, f_title = fit_lines(title, 19, width, smallest=floor, bold=True)
    for line in lines:
        c.text((x0, y), line, font=f_title, fill=INK)
        y += 26
    y += 4
    col = (width - LABEL_W) / n
    centres = [x0 + LABEL_W + col * (s + 0.5) for s in range(n)]
    for s, cx in enumerate(centres):
        chip(c, cx, y + 21, s, letters[s], 21)
    y += 48
    wide = col >= 80  # five seats leave ~60 px a column: the numbers a size smaller
    f_num = font(32 if wide else 28, bold=True)
    points = [info["points"] for info in view["player_info"]]
    for source in SOURCES:
        _label(c, t(SOURCE_WORDS[source], lang), x0, y, floor, bold=False)
        for s, cx in enumerate(centres):
            value = points[s].get(source, 0)
            c.text(
                (cx, y + ROW_H / 2),
                str(value),
                font=f_num,
                fill=INK if value else MUTED,
                anchor="mm",
            )
        y += ROW_H
    c.line((x0, y + 2, x0 + width, y + 2), fill=INK, width=3)
    y += 6
    _label(c, t("pic.taj.source.total", lang), x0, y, floor, bold=True)
    totals = [sum(p.values()) for p in points]
    best = max(totals)
    f_total = font(36 if wide else 30, bold=True)
    for s, cx in enumerate(centres):
        text = str(totals[s])
        if totals[s] == best:  # the winning total(s): boxed, not only coloured
            tw = f_total.getlength(text)
            pad = 8 if wide else 5
            box = (cx - tw / 2 - pad, y + 3, cx + tw / 2 + pad, y + ROW_H - 1)
            c.rounded_rectangle(box, 6, fill="#FFFFFF", outline=INK, width=3)
        c.text((cx, y + ROW_H / 2 + 1), text, font=f_total, fill=INK, anchor="mm")
    y += ROW_H + 8
    f = font(16)
    for s, hand in enumerate(view.get("final") or []):
        parts = [t("pic.taj.hand_part", lang, what=_colour("white", lang), n=hand["white"])]
        parts.append(
            t("pic.taj.hand_part", lang, what=_colour("special", lang), n=hand["specials"])
        )
        if hand["colour"]:
            parts.append(
                t(
                    "pic.taj.hand_part",
                    lang,
                    what=_colour(hand["colour"], lang),
                    n=hand["colour_cards"],
                )
            )
        text = t("pic.taj.hand_sum", lang, parts=" + ".join(parts), points=hand["points"])
        chip(c, x0 + 12, y + 11, s, letters[s], 11)
        lines, lf = fit_lines(text, int(f.size), width - 30, smallest=floor)
        for k, line in enumerate(lines):
            c.text((x0 + 30, y + 2 + k * 19), line, font=lf, fill=INK)
        y += 6 + 19 * len(lines)
    return y + 6


def _label(d: Pen, text: str, x0: int, y: int, floor: int, bold: bool) -> None:
    """A row's label in the label column: one line, shrunk to fit (down to the legible
    floor), else on two."""
    room = LABEL_W - 8
    fnt = shrink_to_fit(text, 21, room, smallest=floor, bold=bold)
    if fnt.getlength(text) <= room:
        d.text((x0, y + ROW_H / 2), text, font=fnt, fill=INK, anchor="lm")
        return
    lines, lf = fit_lines(text, int(fnt.size), room, smallest=floor, bold=bold)
    for k, line in enumerate(lines):
        d.text(
            (x0, y + ROW_H / 2 + (k - (len(lines) - 1) / 2) * 17),
            line,
            font=lf,
            fill=INK,
            anchor="lm",
        )
