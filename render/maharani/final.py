"""The final picture's arithmetic: each seat's gold by source as the rulebook scores it —
tile areas, worker groups, second tiles paid for, each quarter's result (workers → gold) —
adding up to the final gold, drawn from the view's ``sources`` (:mod:`rules.maharani.tally`).

Why a strip under the board, as wide as the picture: this table is what a finished game's
players read, mostly on a phone, where the picture shows ~400 px wide (a quarter of its
width). In the side panel, with four seats' columns beside the labels, it had 17 px text
(~4.6 px on a phone); across the picture its labels, names and numbers are 28–34 px
(~8 px there), and the panel above keeps its usual layout.
"""

from __future__ import annotations

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
    player_text_colour,
    shrink_to_fit,
    smallest_size,
    wrap_text,
)
from render.maharani.pieces import MARGIN, WIDTH, _animal, worker_sprite
from render.words.catalogue import t

#: sizes in px at full width (1,478 px): ~30 px text reads ~8 px tall on a phone (400 px)
LABEL, CELL, TOTAL, NAME = 30, 32, 34, 28
LEGEND_SIZE = 22
ROW, TOTAL_ROW, HEAD, TOP, LEGEND = 50, 58, 64, 18, 30
COLUMN = 300  # a seat's column at most: with 2 players, no long gaps to read across
DISC, PAD = 40, 14
STRIPE = "#FFFFFF"  # every other row, so a row reads across the wide table


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


def breakdown(view: dict[str, Any], names: list[str], letters: list[str], lang: str) -> Image.Image:
    """The table as a strip as wide as the picture, stacked under the board and the panel:
    a heading, a column per seat headed by its disc and name, a row per source (every other
    one on a stripe, so a row reads across), a ruled total, and how a quarter's cells read."""
    table = rows(view, lang)
    n = view["players"]
    floor = smallest_size(WIDTH)
    label_f, total_f = font(LABEL), font(TOTAL, True)
    label_w = max((total_f if total else label_f).getlength(label) for label, _, total in table)
    label_w = min(int(label_w) + 2 * PAD, (WIDTH - 2 * MARGIN) // 2)
    col = min(COLUMN, (WIDTH - 2 * MARGIN - label_w) // n)
    # every cell one size (two worker colours' quarters at 2 players are the widest)
    widest = max((c for _, cells, _ in table for c in cells), key=total_f.getlength)
    cell_f = shrink_to_fit(widest, CELL, col - 2 * PAD, smallest=floor, bold=True)
    total_f = total_f if cell_f.size == CELL else cell_f
    x0 = (WIDTH - label_w - n * col) // 2  # the table in the middle of the picture
    x1 = x0 + label_w + n * col
    img = Image.new(
        "RGB", (WIDTH, TOP + HEAD + ROW * (len(table) + 1) + TOTAL_ROW + 4 * LEGEND), BACKGROUND
    )
    d = ImageDraw.Draw(img)
    y = TOP
    d.text((x0, y), t("pic.maharani.src.head", lang), font=font(TOTAL, True), fill=INK)
    y += HEAD
    room = col - DISC - 3 * PAD
    for s in range(n):  # each column's head: the seat's disc and name (smaller if long)
        disc = worker_sprite(player_colour(s), player_text_colour(s), letters[s], False, DISC)
        name_f = shrink_to_fit(names[s], NAME, room, smallest=NAME - 6, bold=True)
        name = fit_text(names[s], name_f, room)
        left = int(x0 + label_w + s * col + (col - DISC - PAD - name_f.getlength(name)) / 2)
        img.paste(disc, (left, y + (ROW - DISC) // 2), disc)
        d.text((left + DISC + PAD, y + ROW / 2), name, font=name_f, fill=INK, anchor="lm")
    y += ROW
    for i, (label, cells, total) in enumerate(table):
        tall = TOTAL_ROW if total else ROW
        if total:
            d.line((x0, y + 1, x1, y + 1), fill=INK, width=3)
        elif i % 2 == 0:
            d.rectangle((x0, y, x1, y + tall - 1), fill=STRIPE)
        size = TOTAL if total else LABEL
        lines, lf = fit_lines(label, size, label_w - 2 * PAD, smallest=floor, bold=total)
        step = int(lf.size) + 2
        top = y + tall / 2 - step * (len(lines) - 1) / 2
        for k, line in enumerate(lines):
            d.text((x0 + PAD, top + k * step), line, font=lf, fill=INK, anchor="lm")
        f = total_f if total else cell_f
        for s, cell in enumerate(cells):
            d.text(
                (x0 + label_w + s * col + col / 2, y + tall / 2),
                cell,
                font=f,
                fill=INK,
                anchor="mm",
            )
        y += tall
    y += PAD
    pays = " · ".join(f"{k}→{g}" for k, g in enumerate(view["quarter_gold"]) if k)
    parts = [t("pic.maharani.src.legend", lang), f"{t('pic.maharani.quarter_pays', lang)} {pays}"]
    legend_f = font(LEGEND_SIZE)
    lines = [" · ".join(parts)]  # on one line when it fits the table's width, else two
    if legend_f.getlength(lines[0]) > x1 - x0:
        parts[1] = parts[1][:1].upper() + parts[1][1:]  # a line of its own: a capital
        lines = [part for text in parts for part in wrap_text(text, legend_f, x1 - x0)]
    for line in lines:
        d.text((x0, y), line, font=legend_f, fill=MUTED)
        y += LEGEND
    return img.crop((0, 0, WIDTH, y + PAD))
