"""The hex painting: axial geometry, cell names, the frontier and what a placement yields.

Geometry follows the rules reference §2.3 exactly (pointy-top axial (q, r); neighbour
directions E, NE, NW, W, SW, SE; corner k between directions k and k+1, counter-clockwise
from the upper-right corner). The painting is unbounded, so cells get *stable* names that
never change as it grows: a row letter (row ``m`` holds the first start hex, ``a`` is 12 rows
above, further rows get two letters) and a column number (the first start hex is column 10;
odd rows sit half a hex to the right, as in "odd-r" offset coordinates).

Board storage in the state: ``{"q,r": [hex_id, rotation, rotated_corners]}``. The rotated
corner string is kept beside the id so yields are computed without re-rotating every hex.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from rules.pastiche.data import load

Cell = tuple[int, int]

#: Neighbour directions in corner order (§2.3): E, NE, NW, W, SW, SE.
DIRS: tuple[Cell, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
COLUMN_OFFSET = 10
_ROW_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_NAME_RE = re.compile(r"^([a-z]+)(-?\d+)$")


def key(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def unkey(text: str) -> Cell:
    q, r = text.split(",")
    return int(q), int(r)


def rotate(corners: str, rot: int) -> str:
    """Corner string after ``rot`` counter-clockwise steps: c'[k] = c[(k - rot) mod 6]."""
    rot %= 6
    return corners[-rot:] + corners[:-rot] if rot else corners


def _pos_row(k: int) -> str:
    return _ROW_LETTERS[k] if k < 26 else "z" + _pos_row(k - 26)


def _neg_row(k: int) -> str:
    return _ROW_LETTERS[k] if k < 26 else "a" + _neg_row(k - 26)


@cache
def row_name(r: int) -> str:
    """Stable row label: r = 0 is ``m``; rows beyond a–z get longer (``za``, ``aa``…)."""
    if -12 <= r <= 13:
        return _ROW_LETTERS[r + 12]
    if r > 13:
        return "z" + _pos_row(r - 14)
    return "a" + _neg_row(-13 - r)


@cache
def _row_by_name() -> dict[str, int]:
    return {row_name(r): r for r in range(-200, 201)}


def column(cell: Cell) -> int:
    q, r = cell
    return q + (r - (r & 1)) // 2


@cache
def cell_name(cell: Cell) -> str:
    return f"{row_name(cell[1])}{column(cell) + COLUMN_OFFSET}"


def parse_cell(name: str) -> Cell | None:
    """``m11`` -> (1, 0); None if the text is not a cell name."""
    m = _NAME_RE.match(name.lower())
    if not m:
        return None
    r = _row_by_name().get(m.group(1))
    if r is None:
        return None
    col = int(m.group(2)) - COLUMN_OFFSET
    return col - (r - (r & 1)) // 2, r


def neighbours(cell: Cell) -> list[Cell]:
    q, r = cell
    return [(q + dq, r + dr) for dq, dr in DIRS]


def start_board() -> dict[str, list[object]]:
    """The three-hex starting piece as board entries (rotation 0, corners as printed)."""
    return {key((h.q, h.r)): [h.id, 0, h.corners] for h in load().start}


def frontier(board: dict[str, list[object]]) -> list[Cell]:
    """Empty cells sharing a side with the painting, sorted by row then column."""
    seen: set[Cell] = set()
    for k in board:
        for n in neighbours(unkey(k)):
            if key(n) not in board:
                seen.add(n)
    return sorted(seen, key=lambda c: (c[1], column(c)))


def grow_frontier(
    spots: list[list[int]], board: dict[str, list[object]], cell: Cell
) -> list[list[int]]:
    """The frontier after painting ``cell`` (``board`` already holds it): kept in the state
    so that checking a typed placement never rescans the whole painting."""
    have = {(q, r) for q, r in spots}
    have.discard(cell)
    for n in neighbours(cell):
        if key(n) not in board:
            have.add(n)
    return [[q, r] for q, r in sorted(have, key=lambda c: (c[1], column(c)))]


def dabs_at(board: dict[str, list[object]], cell: Cell) -> tuple[str, ...]:
    """For each corner k of ``cell``: the dab letters already painted at that vertex.

    Corner k of H is corner (k+2) mod 6 of H+D[k] and corner (k+4) mod 6 of H+D[k+1].
    """
    q, r = cell
    out: list[str] = []
    for k in range(6):
        dq, dr = DIRS[k]
        a = board.get(f"{q + dq},{r + dr}")
        dq, dr = DIRS[(k + 1) % 6]
        b = board.get(f"{q + dq},{r + dr}")
        s = ""
        if a is not None:
            s += str(a[2])[(k + 2) % 6]
        if b is not None:
            s += str(b[2])[(k + 4) % 6]
        out.append(s)
    return tuple(out)


@cache
def mix(dabs: str) -> str | None:
    """Card made where these dabs meet (2 or 3 letters, any order); None for no card."""
    return load().mix["".join(sorted(dabs))]


@lru_cache(maxsize=1 << 14)
def placement_yield(corners: str, others: tuple[str, ...]) -> tuple[str, ...]:
    """Cards from the new hex's corners (one per corner meeting one or two painted hexes),
    in corner order.

    Why bounded, and built by ``map``: listing placements asks this for every hex, rotation
    and spot, most of them new when many matches are listed one after another, so an
    unbounded cache grew for as long as the process ran, and the miss is the common case
    (one cached look-up per corner, no Python loop)."""
    return tuple(filter(None, map(_corner_card, corners, others)))


@cache
def _corner_card(letter: str, dabs: str) -> str | None:
    """The card a new hex's corner ``letter`` makes with the ``dabs`` painted there: None
    when nothing is painted there or the dabs make no card (few pairs exist)."""
    return mix(letter + dabs) if dabs else None
