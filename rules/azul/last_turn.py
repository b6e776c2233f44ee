"""What the last move put on the table, kept in the state so a picture can mark it.

Why in the state: a picture is drawn from the view alone, and the view from the state alone;
nothing else says which tiles are new. Everything here is public (Azul hides nothing).

The state keeps ``state["last"]`` as one short list, written on every take (random playouts
and the search take thousands of times a second, so a take builds one list and at most one
small one, no dict)::

    [seat, source, dest, line_from, line_to, floors, walls]

- ``seat``: who moved;
- ``source``: the factory (0-based) or :data:`CENTRE` the take emptied of a colour, ``-1``
  when there is none to show (a grey-wall column choice, or the table was refilled since);
- ``dest``: the pattern line (0-based) the take went to, :data:`FLOOR` for the floor line (and
  for a column choice);
- ``line_from``, ``line_to``: the new tiles of that line are those at index ``line_from`` to
  ``line_to - 1`` counted from the right (``line_from == line_to``: none left there, e.g. the
  full line was tiled since);
- ``floors``: ``[seat, from, to]`` per floor line that received items (marker included);
- ``walls``: ``[seat, row, column, points]`` per tile the move placed on a wall (0-based),
  with the placement points it scored.

A move that ends the offer phase also tiles the walls; :func:`settle` then forgets what is
no longer on the table (full lines moved, floors cleared, factories refilled), so the state
holds exactly what the view shows and the computer player rebuilds it from the view.
"""

from __future__ import annotations

from typing import Any

from rules.azul.board import CENTRE
from rules.azul.moves import FLOOR
from rules.base import State

SEAT, SOURCE, DEST, LINE_FROM, LINE_TO, FLOORS, WALLS = range(7)


def column_choice(seat: int) -> list[Any]:
    """The record of a grey-wall column choice, before its tiles are added."""
    return [seat, -1, FLOOR, 0, 0, [], []]


def add_wall(s: State, seat: int, row: int, column: int, points: int) -> None:
    """A tile went to ``seat``'s wall during the current move (whose take or column choice
    wrote ``s["last"]``, so it is ``s``'s own to add to)."""
    s["last"][WALLS].append([seat, row, column, points])


def add_floor(s: State, seat: int, before: int, after: int) -> None:
    """``seat``'s floor line grew from ``before`` to ``after`` items during the current move."""
    if after > before:
        s["last"][FLOORS].append([seat, before, after])


def settle(s: State) -> None:
    """Forget what the round end took off the table: a pattern line that was tiled, floor
    items that went to the lid, and the source once the factories were refilled."""
    last = s.get("last")
    if last is None:
        return
    seat, source, dest, start, end, floors, walls = last
    if dest != FLOOR and s["ln"][seat][dest] < end:
        start = end = 0
    floors = [f for f in floors if len(s["floor"][f[0]]) >= f[2]]
    if s["phase"] == "offer":  # a new round: the factories hold new tiles
        source = -1
    s["last"] = [seat, source, dest, start, end, floors, walls]


def to_view(last: list[Any] | None) -> dict[str, Any] | None:
    """The public form of ``state["last"]`` (see :func:`rules.azul.view.build_view`)."""
    if last is None:
        return None
    seat, source, dest, start, end, floors, walls = last
    return {
        "seat": seat,
        "source": None if source < 0 else "C" if source == CENTRE else source + 1,
        "line": None if dest == FLOOR else dest + 1,
        "line_slots": [start, end],
        "floor_slots": [list(f) for f in floors],
        "wall_cells": [list(w) for w in walls],
    }


def from_view(seen: dict[str, Any] | None) -> list[Any] | None:
    """``state["last"]`` back from its public form (the computer player's determinizer)."""
    if seen is None:
        return None
    source = seen["source"]
    start, end = seen["line_slots"]
    return [
        seen["seat"],
        -1 if source is None else CENTRE if source == "C" else source - 1,
        FLOOR if seen["line"] is None else seen["line"] - 1,
        start,
        end,
        [list(f) for f in seen["floor_slots"]],
        [list(w) for w in seen["wall_cells"]],
    ]
