"""The final picture's arithmetic: each seat's gold by source as the rulebook scores it —
tile areas, worker groups, second tiles paid for, each quarter's result (workers → gold) —
adding up to the final gold, drawn from the view's ``sources`` (:mod:`rules.maharani.tally`).
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    INK,
    MUTED,
    fit_lines,
    font,
    player_colour,
    player_text_colour,
    smallest_size,
)
from render.maharani.pieces import WIDTH, _animal, worker_sprite
from render.words.catalogue import t

LINE = "#CFC6B0"
ROW = 30


def rows(view: dict[str, Any], lang: str) -> list[tuple[str, list[str], bool]]:
    """The table as words: (label, one cell per seat, is the total row). A quarter's cell
    is ``workers→gold``, ``0`` without a worker there (two worker colours in the 2-player
    game: ``3→9 + 1→4``)."""
    sources = view["sources"]
    out: list[tuple[str, list[str], bool]] = [
        (t("pic.maharani.src.tiles", lang), [_signed(s["tiles"]) for s in sources], False),
        (t("pic.maharani.src.workers", lang), [_signed(s["workers"]) for s in sources], False),
        (t("pic.maharani.src.second", lang), [_signed(s["second_tiles"]) for s in sources], False),
    ]
    for q in range(4):
        label = f"{t('pic.maharani.quarter', lang, n=q + 1)} {_animal(view['animals'][q], lang)}"
        out.append((label, [_quarter(s["quarters"][q]) for s in sources], False))
    out.append((t("pic.maharani.src.total", lang), [str(g) for g in view["gold"]], True))
    return out


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def _quarter(result: dict[str, Any] | None) -> str:
    if result is None:  # not scored (a game that ended early scores every quarter)
        return "–"
    pairs = zip(result["workers"], result["golds"], strict=True)
    return " + ".join(f"{k}→{g}" if k else "0" for k, g in pairs)


def draw_breakdown(
    img: Image.Image,
    x: int,
    y: int,
    right: int,
    view: dict[str, Any],
    letters: list[str],
    lang: str,
) -> int:
    """The table under the seat boxes: a heading, a column per seat headed by its disc, a
    row per source, a ruled total. Returns the bottom."""
    d = ImageDraw.Draw(img)
    d.text((x, y), t("pic.maharani.src.head", lang), font=font(20, True), fill=INK)
    y += 32
    table = rows(view, lang)
    n = view["players"]
    cell_f, total_f = font(17, True), font(19, True)
    widest = max(cell_f.getlength(c) for _, cells, _ in table for c in cells)
    col = max(56, int(widest) + 14)
    label_w = right - x - n * col - 6
    for s in range(n):
        disc = worker_sprite(player_colour(s), player_text_colour(s), letters[s], False, 30)
        cx = right - (n - s) * col + col // 2
        img.paste(disc, (cx - 15, y), disc)
    y += 38
    for label, cells, total in table:
        lines, lf = fit_lines(label, 17, label_w, smallest=smallest_size(WIDTH), bold=total)
        tall = max(ROW, len(lines) * (int(lf.size) + 4) + 8)
        if total:
            d.line((x, y - 2, right, y - 2), fill=INK, width=2)
        for i, line in enumerate(lines):
            d.text((x + 4, y + 5 + i * (int(lf.size) + 4)), line, font=lf, fill=INK)
        f = total_f if total else cell_f
        for s, cell in enumerate(cells):
            cx = right - (n - s) * col + col // 2
            d.text((cx, y + tall / 2), cell, font=f, fill=INK, anchor="mm")
        if not total:
            d.line((x, y + tall - 1, right, y + tall - 1), fill=LINE, width=1)
        y += tall
    d.text((x, y + 6), t("pic.maharani.src.legend", lang), font=font(16), fill=MUTED)
    return y + 30
