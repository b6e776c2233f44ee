"""Azul's fixed components and the pure arithmetic on them (no game flow here).

Why computed, not data: the coloured wall is a Latin square given by one formula in the rules
reference (colour at row r, column c is ORDER[(c - r) mod 5]), the floor penalties and factory
counts are printed on the boxes. Nothing here can be "corrected" by a data file without
changing the game itself, so they live as constants.

Representation, chosen for playout speed: colours are ints 0..4 in the order B Y R K W; a wall
is a flat list of 25 ints (-1 = empty, else the colour on it) indexed ``row * 5 + column``;
bags, lids, factories and the centre are lists of 5 per-colour counts.
"""

from __future__ import annotations

from bisect import bisect_left
from itertools import product, repeat
from operator import contains

from rules.rng import Rng

COLOURS = "BYRKW"
COLOUR_NAMES = ("blue", "yellow", "red", "black", "white")
#: The first-player marker as it sits in a floor list (it is not one of the 100 tiles).
MARKER = 5
TILES_PER_COLOUR = 20
TOTAL_TILES = 100
TILES_PER_FACTORY = 4
FACTORY_COUNT = {2: 5, 3: 7, 4: 9}
#: Source index used for the centre of the table (factories are 0..8).
CENTRE = 9
FLOOR_PENALTIES = (1, 1, 2, 2, 2, 3, 3)
FLOOR_SPACES = len(FLOOR_PENALTIES)
#: Total penalty for a floor holding k items (marker included), k = 0..7.
FLOOR_TOTAL = tuple(sum(FLOOR_PENALTIES[:k]) for k in range(FLOOR_SPACES + 1))
BONUS_ROW, BONUS_COLUMN, BONUS_COLOUR = 2, 7, 10

#: PILE_COUNTS[letters]: per-colour counts of a factory's tiles written as letters ("RRBK"),
#: for every factory content up to four tiles (a refill turns its draw into counts at once).
PILE_COUNTS: dict[str, tuple[int, ...]] = {
    "".join(tiles): tuple(tiles.count(c) for c in COLOURS)
    for size in range(TILES_PER_FACTORY + 1)
    for tiles in product(COLOURS, repeat=size)
}


def printed_colour(row: int, column: int) -> int:
    """Colour printed on the coloured wall at (row, column)."""
    return (column - row) % 5


def printed_column(row: int, colour: int) -> int:
    """Column where ``colour`` belongs in ``row`` on the coloured wall."""
    return (colour + row) % 5


#: FREE_COLOURS[mask] = colours whose bit is not set in the 5-bit ``mask``.
FREE_COLOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(k for k in range(5) if not mask >> k & 1) for mask in range(32)
)


def placement_points(wall: list[int], row: int, column: int) -> int:
    """Points for a tile just placed at (row, column) (already on ``wall``).

    A tile with no horizontal or vertical neighbour scores 1; otherwise each unbroken run
    through it of length >= 2 (horizontal, vertical) scores its length.
    """
    base = row * 5
    left = column
    while left > 0 and wall[base + left - 1] >= 0:
        left -= 1
    right = column
    while right < 4 and wall[base + right + 1] >= 0:
        right += 1
    up = row
    while up > 0 and wall[(up - 1) * 5 + column] >= 0:
        up -= 1
    down = row
    while down < 4 and wall[(down + 1) * 5 + column] >= 0:
        down += 1
    horizontal = right - left + 1
    vertical = down - up + 1
    if horizontal == 1 and vertical == 1:
        return 1
    return (horizontal if horizontal > 1 else 0) + (vertical if vertical > 1 else 0)


_ROWS = tuple(slice(r * 5, r * 5 + 5) for r in range(5))
_COLUMNS = tuple(slice(c, 25, 5) for c in range(5))


# The three counts below run in C (maps over the five rows, columns or colours): every
# game's final scoring and outcome ask them, and a generator costs a resumed frame per item.
def complete_rows(wall: list[int]) -> int:
    return 5 - sum(map(contains, map(wall.__getitem__, _ROWS), repeat(-1)))


def complete_columns(wall: list[int]) -> int:
    return 5 - sum(map(contains, map(wall.__getitem__, _COLUMNS), repeat(-1)))


def complete_colours(wall: list[int]) -> int:
    return list(map(wall.count, range(5))).count(5)


def end_bonus(wall: list[int]) -> tuple[int, int, int, int]:
    """(rows, columns, colours, bonus points) for the final scoring."""
    rows, cols, colours = complete_rows(wall), complete_columns(wall), complete_colours(wall)
    return rows, cols, colours, rows * BONUS_ROW + cols * BONUS_COLUMN + colours * BONUS_COLOUR


def legal_grey_columns(wall: list[int], row: int, colour: int) -> list[int]:
    """Columns of ``row`` where ``colour`` may go on the grey wall: the space is empty, the
    row does not hold the colour yet and neither does the column."""
    base = row * 5
    if colour in wall[base : base + 5]:
        return []
    return [c for c in range(5) if wall[base + c] < 0 and colour not in wall[c::5]]


def row_can_be_completed(wall: list[int], row: int) -> bool:
    """Grey wall: can ``row`` still be filled, i.e. can its missing colours go into its empty
    spaces with no colour twice in a column? (A small bipartite matching, by backtracking.)
    On the coloured wall this is always true; on the grey wall a row can become dead."""
    base = row * 5
    cells = wall[base : base + 5]
    empty = [c for c in range(5) if cells[c] < 0]
    missing = [k for k in range(5) if k not in cells]
    if not empty:
        return True
    blocked = [{wall[r * 5 + c] for r in range(5)} for c in range(5)]

    def fit(i: int, used: int) -> bool:
        if i == len(missing):
            return True
        k = missing[i]
        return any(
            not used >> j & 1 and k not in blocked[c] and fit(i + 1, used | 1 << j)
            for j, c in enumerate(empty)
        )

    return fit(0, 0)


def any_row_can_be_completed(
    walls: list[list[int]],
    line_colours: list[list[int]],
    line_counts: list[list[int]],
    supply: list[int],
    grey: bool,
) -> bool:
    """Can any player still complete any wall row, however everyone plays from now on?

    ``supply`` counts, per colour, the tiles that can still reach a pattern line (bag, lid,
    table, floors). Tiles in an unfinished pattern line are locked until it fills; a line
    holding n of its m tiles of colour k can fill if m - n more k tiles are available, and
    filling it gives m - 1 back to the lid (all m on the grey wall when no column takes it,
    so we count n back there: an upper bound, to never end a game that could go on).
    Because a completion never lowers the supply, completing every completable line in any
    order reaches the largest supply (a fixpoint). A row can then be completed if its
    pattern line is free (empty or completable), every missing colour has enough tiles for a
    full line, and (grey wall) the missing colours fit its empty columns.
    """
    if not grey and min(supply) >= 5:
        return True  # every line can fill and every colour can fill any line
    avail = list(supply)
    locked = [
        (line_colours[p][r], line_counts[p][r], r + 1, p * 5 + r)
        for p in range(len(walls))
        for r in range(5)
        if line_counts[p][r]
    ]
    free: set[int] = set()
    progress = True
    while progress:
        progress = False
        for k, n, m, key in locked:
            if key not in free and avail[k] >= m - n:
                free.add(key)
                avail[k] += n if grey else n - 1
                progress = True
    for p, wall in enumerate(walls):
        for r in range(5):
            row = wall[r * 5 : r * 5 + 5]
            held = line_colours[p][r] if line_counts[p][r] else -1
            if held >= 0 and p * 5 + r not in free:
                continue
            if grey and not row_can_be_completed(wall, r):
                continue
            if all(avail[k] >= r + 1 or k == held for k in range(5) if k not in row):
                return True
    return False


_DRAW_LIMIT = 1 << 62
#: tiles in the bag << 8 | tiles still wanted -> (how many to draw with one random number,
#: the number of equally likely orders of that many): filled as met, at most 100 x 36
#: entries (an integer key: hashing a pair cost more than the look-up).
_DRAW_SPANS: dict[int, tuple[int, int]] = {}


def _draw_span(total: int, wanted: int) -> tuple[int, int]:
    """The most tiles j <= ``wanted`` that one random number below 2**62 can draw from
    ``total`` in order, and the number of their orders total(total-1)...(total-j+1)."""
    span = 1
    j = 0
    while j < wanted and j < total and span * (total - j) < _DRAW_LIMIT:
        span *= total - j
        j += 1
    return j, span


def _tiles_in_order(counts: list[int]) -> list[int]:
    """One entry per tile, colours in order: [0, 0, 1, 3] for counts [2, 1, 0, 1, 0]."""
    b, y, r, k, w = counts  # no loop: this runs at every round's refill
    return [0] * b + [1] * y + [2] * r + [3] * k + [4] * w


def draw_tiles(rng: Rng, bag: list[int], lid: list[int], count: int) -> tuple[list[int], int]:
    """Draw up to ``count`` tiles from ``bag`` (mutated), pouring ``lid`` (mutated) into the
    bag whenever the bag runs empty. Returns (colours drawn in order, number of tiles drawn
    before the lid was poured in, or -1 if it never was).

    Why the arithmetic: drawing j tiles in order from t tiles has t(t-1)...(t-j+1) equally
    likely outcomes, so one uniform integer below that product (``rng.below`` is unbiased),
    read as a mixed-radix number, picks all j tiles at once: digit r takes the r-th of the
    tiles left, counted in colour order. That is exactly as fair as one draw per tile and
    several times faster, which matters for the playout benchmark. The tiles left are kept
    as one list sorted by colour, so taking the r-th is a single ``pop``.
    """
    drawn: list[int] = []
    poured_after = -1
    pool = _tiles_in_order(bag)
    total = len(pool)
    wanted = count
    while wanted:
        if total == 0:
            if not any(lid):
                break
            pool = _tiles_in_order(lid)
            total = len(pool)
            lid[:] = [0] * 5
            poured_after = len(drawn)
        key = total << 8 | wanted
        j, span = _DRAW_SPANS.get(key) or _DRAW_SPANS.setdefault(key, _draw_span(total, wanted))
        x = rng.below(span)
        for t in range(total, total - j, -1):
            x, r = divmod(x, t)
            drawn.append(pool.pop(r))
        total -= j
        wanted -= j
    # the pool stays sorted by colour, so the bag's counts are the gaps between the places
    # where each colour starts (four binary searches instead of comparing every tile 5 times)
    b = bisect_left(pool, 1)
    y = bisect_left(pool, 2, b)
    r = bisect_left(pool, 3, y)
    k = bisect_left(pool, 4, r)
    bag[:] = (b, y - b, r - y, k - r, len(pool) - k)
    return drawn, poured_after
