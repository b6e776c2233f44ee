"""Maharani moves: notation, human labels, guided-panel steps and reasons for refusals.

Notation (case and spaces ignored; ``-`` ``:`` ``,`` ``/`` are ignored too):

- ``1F7S``: take the tile on rondel field 1, put it on space F7 (column F, row 7 as drawn),
  arrow pointing S (the board's bottom edge). ``1F7`` alone is accepted when only one arrow
  direction fits.
- ``refresh``: turn all your action markers face up (your whole turn).
- ``stop``: no second tile.
- ``new1`` / ``new2`` / ``move1`` / ``move2``: the 2-player worker choice (worker colour 1 =
  round, 2 = square).

Move objects for placements are cached: the same placement in the same situation yields the
same (immutable) Move, which keeps random playouts fast.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from rules.base import Move, Step
from rules.maharani.data import COLUMNS, geometry
from rules.maharani.engine import (
    ARROW_GLYPH,
    WORKER_STYLE,
    Placement,
    State,
    active_side,
    placements,
)
from rules.rng import Rng

#: More target spaces than this for one tile adds a quarter step before the space step.
MAX_STEP_OPTIONS = 25

PLACEMENT_RE = re.compile(r"^([1-4])([a-h])([1-8])([nesw])?$")


@lru_cache(maxsize=1024)
def _field_step(field: int, colour: str, src: int) -> Step:
    return Step(str(field), f"{field}: {colour} ({geometry().animals[src]} field)")


@lru_cache(maxsize=1024)
def _quarter_step(tgt: int, marker: bool) -> Step:
    extra = " (marker)" if marker else ""
    return Step(f"Q{tgt + 1}", f"{geometry().animals[tgt]} quarter{extra}")


@lru_cache(maxsize=4096)
def _space_step(space: int, marker_src: int | None) -> Step:
    g = geometry()
    name = g.space_names[space]
    flips = "" if marker_src is None else f" (flips {g.animals[marker_src]} marker)"
    return Step(name, f"{name} in {g.animals[g.space_quarter[space]]} quarter{flips}")


@lru_cache(maxsize=64)
def _arrow_step(d: str, to_you: bool) -> Step:
    return Step(d, f"arrow {ARROW_GLYPH[d]} {d}" + (" to you: worker" if to_you else ""))


@lru_cache(maxsize=1 << 16)
def placement_move(
    field: int,
    tile: int,
    src: int,
    space: int,
    d: str,
    marker: bool,
    side: str,
    quarter_step: bool,
    rank: float,
) -> Move:
    """The Move for one placement (cached: rollouts meet the same placements again)."""
    g = geometry()
    colour = g.tile_colour[tile]
    tgt = g.space_quarter[space]
    name = g.space_names[space]
    arrow = _arrow_step(d, d == side)
    field_step = _field_step(field, colour, src)
    space_step = _space_step(space, src if marker else None)
    label = (
        f"{colour} tile from {g.animals[src]} field → {g.animals[tgt]} quarter {name}, "
        f"{arrow.label}" + (f"; flips {g.animals[src]} marker" if marker else "")
    )
    if quarter_step:
        steps: tuple[Step, ...] = (field_step, _quarter_step(tgt, marker), space_step, arrow)
    else:
        steps = (field_step, space_step, arrow)
    if len(label) > 100:  # the longest animal/colour names: drop a redundant word
        label = label.replace(" tile from ", " from ", 1)
    return Move(f"{field}{name}{d}", label[:100], steps, rank)


REFRESH = Move(
    "refresh",
    "Refresh: turn all your action markers face up (no tile this turn)",
    (Step("refresh", "Refresh action markers"),),
    0.5,
)
PASS_REFRESH = Move(REFRESH.notation, REFRESH.label, REFRESH.steps, -1.0)
STOP = Move("stop", "Stop: no second tile", (Step("stop", "Stop (no second tile)"),), 1.0)


def worker_move(st: State, seat: int, space: int, option: list[Any]) -> Move:
    g = geometry()
    c = option[1]
    style = WORKER_STYLE[c]
    name = g.space_names[space]
    if option[0] == "move":
        notation = f"move{c + 1}"
        label = f"Move your {style} worker from {g.space_names[option[2]]} to {name}"
        rank = 1.0
    else:
        notation = f"new{c + 1}"
        label = f"New {style} worker on {name} ({st['supply'][seat][c]} in supply)"
        rank = 2.0
    return Move(notation, label, (Step(notation, label),), rank)


def legal_moves(st: State, seat: int) -> list[Move]:
    phase = st["phase"]
    if phase == "over" or seat != st["turn"]:
        return []
    if phase == "worker":
        pending = st["pending"]
        return [worker_move(st, seat, pending["space"], o) for o in pending["options"]]
    found = placements(st, seat)
    per_field = _spaces_per_field(found)
    moves = [_placement_at(st, found[i], per_field[found[i][0]]) for i in range(len(found))]
    moves.append(_closing_move(st, seat))
    return moves


def random_move(st: State, seat: int, rng: Rng) -> Move:
    """``rng.choice(legal_moves(st, seat))`` without building the moves not drawn: the same
    draw from the same generator gives the same move (random playouts stay as they were)."""
    phase = st["phase"]
    if phase == "over" or seat != st["turn"]:
        raise ValueError("no legal move")
    if phase == "worker":
        return rng.choice(legal_moves(st, seat))
    found = placements(st, seat)
    i = rng.below(len(found) + 1)
    if i == len(found):
        return _closing_move(st, seat)
    field = found[i][0]
    spaces = len({p[3] for p in found if p[0] == field})
    return _placement_at(st, found[i], spaces)


def _spaces_per_field(found: list[Placement]) -> dict[int, int]:
    """How many distinct target spaces each rondel field's tile has (for the quarter step)."""
    spaces: dict[int, set[int]] = {}
    for f, _t, _src, s, _d, _m in found:
        spaces.setdefault(f, set()).add(s)
    return {f: len(v) for f, v in spaces.items()}


def _closing_move(st: State, seat: int) -> Move:
    """The move after the placements: stop (second tile) or refresh (first tile)."""
    if st["phase"] == "second":
        return STOP
    return REFRESH if not all(st["markers"][seat]) else PASS_REFRESH


def _placement_at(st: State, found: Placement, spaces_of_field: int) -> Move:
    """The Move (with its suggestion rank) for one entry of :func:`placements`."""
    g = geometry()
    f, t, src, s, d, m = found
    side = active_side(st)
    tiles = st["tiles"]
    colour_of = g.tile_colour_idx
    colour = colour_of[t]
    # suggestion rank: bigger same-colour area, a worker, no marker spent
    # (a second tile costs 2 gold)
    rank = (-1.0 if st["phase"] == "second" else 1.0) + (3.0 if d == side else 0.0)
    rank -= 0.5 if m else 0.0
    for x in g.neighbours[s]:
        if tiles[x] is not None and colour_of[tiles[x]] == colour:
            rank += 1.0
    return placement_move(f, t, src, s, d, m, side, spaces_of_field > MAX_STEP_OPTIONS, rank)


def clean(text: str) -> str:
    """Lower case without spaces and harmless separators."""
    return re.sub(r"[\s\-:,/.]+", "", text).lower()


def explain(st: State, seat: int, text: str) -> str:
    """Precise words for why ``text`` is not a legal move now."""
    g = geometry()
    key = clean(text)
    shown = text.strip()[:40]
    phase = st["phase"]
    if phase == "over":
        return "This game is over; no more moves can be made."
    if seat != st["turn"]:
        return "It is not your turn."
    if phase == "worker":
        opts = ", ".join(m.notation for m in legal_moves(st, seat))
        return f"First choose what happens with your worker: {opts}."
    if key == "refresh" and phase == "second":
        return "Refreshing markers takes a whole turn; you already placed a tile. Type stop."
    if key == "stop" and phase == "first":
        return "You must place a tile this turn (or type refresh to refresh your markers)."
    if key.startswith(("new", "move")):
        return "There is no worker choice to make now."
    m = PLACEMENT_RE.match(key)
    if not m:
        return f"“{shown}” is not a move. Type field, space and arrow like 1F7S, " + (
            "or stop." if phase == "second" else "or refresh."
        )
    field = int(m.group(1))
    col = COLUMNS.index(m.group(2).upper())
    row = int(m.group(3)) - 1
    name = f"{COLUMNS[col]}{row + 1}"
    tile = st["rondel"][field - 1]
    if tile is None:
        return f"Rondel field {field} is empty."
    space = g.space_by_name.get(name)
    if space is None:
        if (row, col) in g.rondel_cells:
            return f"{name} is under the rondel in the middle, not a space."
        return f"{name} is a corner of the palace, not a space."
    if st["tiles"][space] is not None:
        return f"{name} already holds a {g.tile_colour[st['tiles'][space]]} tile."
    colour = g.tile_colour[tile]
    if (g.tile_type[tile] == "C") != (g.space_type[space] == "C"):
        if g.tile_type[tile] == "C":
            return f"The {colour} tile on field {field} has a centre pillar; {name} does not."
        return f"{name} has a centre pillar; the {colour} tile on field {field} has none."
    dirs = g.arrow_dirs(tile, space)
    if not dirs:
        return f"The pillar marks of the {colour} tile on field {field} cannot match {name}."
    src = g.field_quarter(field, active_side(st))
    tgt = g.space_quarter[space]
    if tgt != src and not st["markers"][seat][src]:
        return (
            f"Your {g.animals[src]} marker is face down: the tile from the {g.animals[src]} "
            f"field may only go into the {g.animals[src]} quarter (or refresh first)."
        )
    d = m.group(4)
    if d is None:
        return f"Say which way the arrow points: {', '.join(dirs)} (e.g. {field}{name}{dirs[0]})."
    if d.upper() not in dirs:
        return (
            f"With the arrow to {d.upper()} the pillars would not match {name}; "
            f"the arrow can point {' or '.join(dirs)}."
        )
    return f"“{shown}” is not a legal move now."
