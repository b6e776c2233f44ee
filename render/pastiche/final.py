"""The finished game's arithmetic, big enough for a phone: in place of the close-up, each
seat's place, name and points by source as the rulebook scores them (§5: commissions +
usable palette cards + painter bonus = total), in the band's letter size (≥ 9 px when the
picture is shown 400 px wide). The numbers are the outcome's, the record's final scoring."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import ImageDraw

from render.common import (
    INK,
    MUTED,
    fit_text,
    font,
    player_colour,
    player_text_colour,
    wrap_text,
)
from render.pastiche.common import PAD, View, _name
from render.words.catalogue import t


@dataclass(frozen=True, slots=True)
class FinalRow:
    seat: int
    place: int
    commissions: int
    usable: int
    bonus: int
    total: int


def final_rows(view: View) -> list[FinalRow]:
    """One row per seat, best place first (seat order on ties); none before the end."""
    out = view.get("outcome") if view["over"] else None
    if not out:
        return []
    rows = [
        FinalRow(s, out["ranks"][s], d["commissions"], d["usable"], d["bonus"], out["scores"][s])
        for s, d in enumerate(out["details"])
    ]
    return sorted(rows, key=lambda r: (r.place, r.seat))


def draw_final_table(
    draw: ImageDraw.ImageDraw,
    top: int,
    width: int,
    size: int,
    view: View,
    names: list[str],
    lang: str,
) -> int:
    """The legend ("commissions + usable palette cards + painter bonus"), then a row per
    seat: ``#1 (Á) Ágnes   44 + 5 + 4 = 53``, the numbers in columns. Returns the bottom."""
    f, fb = font(size), font(size, True)
    y = top + 6
    for line in _legend(width, size, lang):
        draw.text((PAD, y), line, font=fb, fill=INK)
        y += size + 10
    y += 6
    rows = final_rows(view)
    num = max(fb.getlength(str(v)) for r in rows for v in (r.commissions, r.usable, r.bonus))
    tot = max(fb.getlength(str(r.total)) for r in rows)
    gap = fb.getlength(" + ")
    right = width - PAD
    # right to left: total, "=", bonus, "+", usable, "+", commissions
    x_total = right
    x_bonus = x_total - tot - fb.getlength(" = ")
    x_usable = x_bonus - num - gap
    x_comm = x_usable - num - gap
    place_w = fb.getlength("#4") + size * 0.4
    d = size * 1.15
    for r in rows:
        cy = y + size * 0.75
        draw.text((PAD, cy), f"#{r.place}", font=fb, fill=INK, anchor="lm")
        bx = PAD + place_w
        draw.ellipse((bx, cy - d / 2, bx + d, cy + d / 2), fill=player_colour(r.seat), outline=INK)
        initial = (_name(names, r.seat, lang)[:1] or str(r.seat + 1)).upper()
        draw.text((bx + d / 2, cy), initial, font=fb, fill=player_text_colour(r.seat), anchor="mm")
        name_x = bx + d + size * 0.4
        name = _name(names, r.seat, lang)
        room = x_comm - num - size * 0.6 - name_x
        nf = fb
        while nf.getlength(name) > room and nf.size > size * 0.7:  # a long name: smaller
            nf = font(int(nf.size) - 1, True)
        name = fit_text(name, nf, int(room))  # a 32-letter name: cut, never over the figures
        draw.text((name_x, cy), name, font=nf, fill=INK, anchor="lm")
        for x, v in ((x_comm, r.commissions), (x_usable, r.usable), (x_bonus, r.bonus)):
            draw.text((x, cy), str(v), font=f, fill=INK, anchor="rm")
        draw.text((x_comm + gap / 2, cy), "+", font=f, fill=MUTED, anchor="mm")
        draw.text((x_usable + gap / 2, cy), "+", font=f, fill=MUTED, anchor="mm")
        draw.text((x_bonus + (x_total - tot - x_bonus) / 2, cy), "=", font=f, fill=MUTED,
                  anchor="mm")  # fmt: skip
        draw.text((x_total, cy), str(r.total), font=fb, fill=INK, anchor="rm")
        y += int(size * 1.5) + 4
    return y + 6


def _legend(width: int, size: int, lang: str) -> list[str]:
    return wrap_text(t("pic.pastiche.final", lang), font(size, True), width - 2 * PAD)


def final_table_height(width: int, size: int, view: View, lang: str) -> int:
    """How far below its ``top`` :func:`draw_final_table` ends, measured without drawing
    (the public picture's canvas is made to its content's height before drawing)."""
    lines = len(_legend(width, size, lang))
    return 6 + lines * (size + 10) + 6 + len(final_rows(view)) * (int(size * 1.5) + 4) + 6
