"""Azul move notation, labels, ranks and the caches that make ``legal_moves`` cheap.

Notation (case and spaces ignored, dashes optional when typed):

- ``F3-R-2``: from factory 3 take all red tiles into pattern line 2;
- ``C-B-F``: from the centre take all blue tiles straight to the floor line;
- ``col-3`` (grey-wall variant, wall tiling): put the tile of the pending line in column 3.

Why caches: a random 2-player game makes ~70 decisions and the benchmark wants 400 games per
second, so building Move objects (frozen dataclasses) afresh for every call would dominate.
A move's notation, label, steps and rank depend only on (source, colour, number of tiles,
whether the marker comes along, destination line and its free space), so each is built once,
in groups per (source, colour, count, marker), and reused (Moves are immutable).
"""

from __future__ import annotations

import re
from functools import cache

from rules.azul.board import CENTRE, COLOURS
from rules.azul.words import COLOUR_WORDS
from rules.base import Move, Step
from rules.words import Msg

FLOOR = 5  # destination index for "straight to the floor line"

#: Parsed notation -> (source, colour, destination); filled as moves are built.
PARSED: dict[str, tuple[int, int, int]] = {}

_OFFER_RE = re.compile(r"^(?:f(?:actory)?(\d)|c(?:entre|enter)?)([byrkw])(\d|f(?:loor)?)$")
_COLUMN_RE = re.compile(r"^(?:col(?:umn)?|c)(\d)$")


def source_code(src: int) -> str:
    return "C" if src == CENTRE else f"F{src + 1}"


@cache
def source_name(src: int) -> Msg:
    return Msg("azul.centre") if src == CENTRE else Msg("azul.factory", number=src + 1)


@cache
def tiles_words(count: int, colour: int) -> Msg:
    """A count of tiles of one colour ("3 red")."""
    return Msg("azul.tiles", n=count, colour=COLOUR_WORDS[colour])


@cache
def dest_words(dest: int, extra: str = "") -> Msg:
    """The floor, or a line with an ``extra`` clause such as " (fills it)"."""
    if dest == FLOOR:
        return Msg("azul.floor")
    return Msg("azul.line", number=dest + 1, extra=extra)


def dest_code(dest: int) -> str:
    return "F" if dest == FLOOR else str(dest + 1)


def notation(src: int, colour: int, dest: int) -> str:
    return f"{source_code(src)}-{COLOURS[colour]}-{dest_code(dest)}"


@cache
def _source_step(src: int) -> Step:
    return Step(source_code(src), source_name(src))


@cache
def _colour_step(colour: int, count: int) -> Step:
    return Step(COLOURS[colour], tiles_words(count, colour))


def _one(src: int, colour: int, count: int, marker: bool, dest: int, space: int) -> Move:
    """One offer move (built once: see :func:`group`)."""
    source, tiles = source_name(src), tiles_words(count, colour)
    marker_words = Msg("azul.label.marker") if marker else ""
    first = (_source_step(src), _colour_step(colour, count))
    note = notation(src, colour, dest)
    PARSED[note] = (src, colour, dest)
    if dest == FLOOR:
        floor = dest_words(FLOOR)
        move = Move(
            note,
            Msg("azul.label.take", source=source, tiles=tiles, dest=floor, marker=marker_words),
            (*first, Step("F", floor)),
            -3.0 - 2.0 * count - (1.0 if marker else 0.0),
        )
    else:
        placed = min(count, space)
        over = count - placed
        extra: Msg | str
        if over:
            extra = Msg("azul.label.over", n=over)
        elif placed == space:
            extra = Msg("azul.label.fills")
        else:
            extra = ""
        rank = placed + (3.0 if placed == space and not over else 0.0) - 2.0 * over
        rank -= 1.0 if marker else 0.0
        rank += 0.01 * dest  # stable order: prefer the longer of equally good lines
        line = dest_words(dest, extra)
        move = Move(
            note,
            Msg("azul.label.take", source=source, tiles=tiles, dest=line, marker=marker_words),
            (*first, Step(str(dest + 1), line)),
            rank,
        )
    return move


#: Slot of the floor move in a group; line ``i`` with free ``space`` sits at ``i * 8 + space``.
FLOOR_SLOT = 63
_GROUPS: dict[int, list[Move | None]] = {}


def group_key(src: int, colour: int, count: int, marker: int) -> int:
    return (((src * 5 + colour) << 5 | count) << 1) | marker


def group(src: int, colour: int, count: int, marker: int) -> list[Move | None]:
    """Every move that takes ``count`` ``colour`` tiles from ``src`` (with or without the
    marker), for every line and free space, in slots ``line * 8 + space`` plus the floor in
    :data:`FLOOR_SLOT`. ``legal_moves`` picks its slots with one ``itemgetter`` call."""
    key = group_key(src, colour, count, marker)
    slots = _GROUPS.get(key)
    if slots is None:
        slots = [None] * 64
        for line in range(5):
            for space in range(1, line + 2):
                slots[line * 8 + space] = _one(src, colour, count, bool(marker), line, space)
        slots[FLOOR_SLOT] = _one(src, colour, count, bool(marker), FLOOR, 0)
        _GROUPS[key] = slots
    return slots


@cache
def column_move(line: int, colour: int, column: int, points: int) -> Move:
    """Grey-wall tiling: the tile of pattern line ``line`` goes to ``column``."""
    return Move(
        f"col-{column + 1}",
        Msg(
            "azul.label.column",
            line=line + 1,
            colour=COLOUR_WORDS[colour],
            column=column + 1,
            points=points,
        ),
        (Step(f"col-{column + 1}", Msg("azul.step.column", column=column + 1, points=points)),),
        float(points),
    )


def canonical(text: str) -> str:
    """Lower-case, no spaces, dashes or dots: the form typed text is matched in."""
    return re.sub(r"[\s\-_.:>→]+", "", text).lower()


def parse_offer(text: str) -> tuple[int, int, int] | None:
    """Typed text to (source, colour, destination); ``None`` when it is not offer notation.
    The factory number is returned as typed minus one (range is checked by the caller)."""
    m = _OFFER_RE.match(canonical(text))
    if m is None:
        return None
    src = CENTRE if m.group(1) is None else int(m.group(1)) - 1
    colour = COLOURS.lower().index(m.group(2))
    d = m.group(3)
    dest = FLOOR if d.startswith("f") else int(d) - 1
    return src, colour, dest


def parse_column(text: str) -> int | None:
    """Typed text to a 0-based column (not range-checked), or ``None``."""
    m = _COLUMN_RE.match(canonical(text))
    return None if m is None else int(m.group(1)) - 1
