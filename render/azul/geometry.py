"""Where everything sits on the Azul picture: sizes, the table, the boards, the legend.

Phone legibility drives the layout: 1280 px wide, boards two per row (a 2x2 grid for 3-4
players, the 3-player gap holds the legend), tiles >= 40 px, text >= 16 px. A finished game
has nothing left on the table, so its final picture puts the score breakdown there (as tall
as its rows need) instead of the empty factories.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

WIDTH = 1280
MARGIN = 16
#: room above the table; the header band (render.header) says the round, who acts and the
#: bag and lid, so the board itself starts right under it
HEADER_H = MARGIN
TABLE_H = 160
LEGEND_H = 44
BOARD_W = (WIDTH - 3 * MARGIN) // 2
BOARD_H = 452
CELL = 52  # pitch of pattern-line, wall and floor spaces
TILE = 46  # tile size inside a space
FAC_TILE = 40
FAC_D = 104  # factory disc diameter

# The final breakdown (render.azul.breakdown): a heading row, a row per seat, a footnote.
SUM_HEAD_H = 56
SUM_ROW_H = 70
SUM_FOOT_H = 34
SUM_PAD = 10

# Board-relative positions
NAME_H = 54
LINES_X = 22
WALL_X = LINES_X + 5 * CELL + 40
GRID_Y = NAME_H + 14
FLOOR_Y = GRID_Y + 5 * CELL + 30
FLOOR_X = LINES_X


@dataclass(frozen=True)
class Layout:
    players: int
    #: the final picture: the table holds the score breakdown (with a footnote line when
    #: ``footnote``), not factories
    final: bool
    footnote: bool
    height: int
    table_h: int
    boards: tuple[tuple[int, int], ...]  # top-left corner of each board
    legend_box: tuple[int, int] | None  # 3 players: the free grid slot
    factories: tuple[tuple[int, int], ...]  # centres of the factory discs
    centre_box: tuple[int, int, int, int]


def breakdown_height(players: int, footnote: bool) -> int:
    return 2 * SUM_PAD + SUM_HEAD_H + players * SUM_ROW_H + (SUM_FOOT_H if footnote else 0)


@cache
def layout(players: int, final: bool = False, footnote: bool = False) -> Layout:
    nf = {2: 5, 3: 7, 4: 9}[players]
    table_top = HEADER_H
    table_h = breakdown_height(players, footnote) if final else TABLE_H
    centre_w = 250
    span = WIDTH - 2 * MARGIN - centre_w - MARGIN
    step = min(span // nf, FAC_D + 30)
    y = table_top + TABLE_H // 2 + 9
    factories = tuple(
        (MARGIN + step // 2 + i * step + (span - step * nf) // 2, y) for i in range(nf)
    )
    cx = WIDTH - MARGIN - centre_w
    centre_box = (cx, table_top + 10, WIDTH - MARGIN, table_top + TABLE_H - 10)
    top = table_top + table_h + MARGIN // 2
    rows = 1 if players == 2 else 2
    boards = tuple(
        (MARGIN + (i % 2) * (BOARD_W + MARGIN), top + (i // 2) * (BOARD_H + MARGIN))
        for i in range(players)
    )
    legend_box = (MARGIN + BOARD_W + MARGIN, top + BOARD_H + MARGIN) if players == 3 else None
    height = top + rows * (BOARD_H + MARGIN) + (0 if players == 3 else LEGEND_H)
    return Layout(
        players,
        final,
        final and footnote,
        height,
        table_h,
        boards,
        legend_box,
        factories,
        centre_box,
    )


def cell_box(x: int, y: int) -> tuple[int, int, int, int]:
    """The tile inside the space whose top-left corner is (x, y)."""
    pad = (CELL - TILE) // 2
    return x + pad, y + pad, x + pad + TILE, y + pad + TILE


def line_cell(origin: tuple[int, int], line: int, index: int) -> tuple[int, int]:
    """Top-left corner of pattern line ``line``'s space ``index`` (0-based, from the right:
    lines fill from the wall side)."""
    bx, by = origin
    return bx + LINES_X + (4 - index) * CELL, by + GRID_Y + line * CELL


def wall_cell(origin: tuple[int, int], row: int, column: int) -> tuple[int, int]:
    bx, by = origin
    return bx + WALL_X + column * CELL, by + GRID_Y + row * CELL


def floor_cell(origin: tuple[int, int], index: int) -> tuple[int, int]:
    bx, by = origin
    return bx + FLOOR_X + index * CELL, by + FLOOR_Y
