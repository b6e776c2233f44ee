"""Maharani moves: notation, human labels, guided-panel steps and reasons for refusals.

Notation (case and spaces ignored; ``-`` ``:`` ``,`` ``/`` are ignored too):

- ``1F7S``: take the tile on rondel field 1, put it on space F7 (column F, row 7 as drawn),
  arrow pointing S (the board's bottom edge). ``1F7`` alone is accepted when only one arrow
  direction fits.
- ``refresh``: turn all your action markers face up (your whole turn).
- ``stop``: no second tile.
- ``new1`` / ``new2`` / ``move1`` / ``move2``: the 2-player worker choice (worker colour 1 =
  round, 2 = square).

A placement's words (notation, label, steps) are cached by what they depend on (field, tile
colour, quarters, space, arrow, side), which keeps random playouts and the search fast;
only its suggestion rank is computed per state.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from rules.base import NOT_YOUR_TURN, OVER_ALREADY, Move, Step
from rules.maharani.data import COLUMNS, geometry
from rules.maharani.engine import (
    ARROW_GLYPH,
    WORKER_STYLE,
    Placement,
    State,
    active_side,
    may_refresh,
    open_fits,
    placements,
)
from rules.maharani.words import a_tile, animal, colour
from rules.rng import Rng
from rules.words import Join, Msg

#: More target spaces than this for one tile adds a quarter step before the space step.
MAX_STEP_OPTIONS = 25

PLACEMENT_RE = re.compile(r"^([1-4])([a-h])([1-8])([nesw])?$")


@lru_cache(maxsize=1024)
def _field_step(field: int, tile_colour: str, src: int) -> Step:
    label = Msg(
        "maharani.step.field",
        field=field,
        colour=colour(tile_colour),
        animal=animal(geometry().animals[src]),
    )
    return Step(str(field), label)


@lru_cache(maxsize=1024)
def _quarter_step(tgt: int, marker: bool) -> Step:
    extra = Msg("maharani.step.quarter_marker") if marker else ""
    label = Msg("maharani.step.quarter", animal=animal(geometry().animals[tgt]), marker=extra)
    return Step(f"Q{tgt + 1}", label)


@lru_cache(maxsize=4096)
def _space_step(space: int, marker_src: int | None) -> Step:
    g = geometry()
    name = g.space_names[space]
    flips = (
        ""
        if marker_src is None
        else Msg("maharani.step.space_flips", animal=animal(g.animals[marker_src]))
    )
    label = Msg(
        "maharani.step.space",
        space=name,
        animal=animal(g.animals[g.space_quarter[space]]),
        flips=flips,
    )
    return Step(name, label)


@lru_cache(maxsize=64)
def _arrow_step(d: str, to_you: bool) -> Step:
    worker = Msg("maharani.step.arrow_worker") if to_you else ""
    return Step(d, Msg("maharani.step.arrow", glyph=ARROW_GLYPH[d], side=d, worker=worker))


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
    """The Move for one placement. Its words are cached (rollouts meet the same placements
    again); the rank, which depends on the neighbouring tiles, is not part of the key."""
    notation, label, steps = _placement_words(
        field, geometry().tile_colour[tile], src, space, d, marker, side, quarter_step
    )
    return Move(notation, label, steps, rank)


@lru_cache(maxsize=1 << 16)
def _placement_words(
    field: int,
    tile_colour: str,
    src: int,
    space: int,
    d: str,
    marker: bool,
    side: str,
    quarter_step: bool,
) -> tuple[str, Msg, tuple[Step, ...]]:
    """Notation, label and steps of a placement: they depend on the tile's colour only,
    not on which tile of that colour it is."""
    g = geometry()
    tgt = g.space_quarter[space]
    name = g.space_names[space]
    arrow = _arrow_step(d, d == side)
    field_step = _field_step(field, tile_colour, src)
    space_step = _space_step(space, src if marker else None)
    words = {
        "colour": colour(tile_colour),
        "src": animal(g.animals[src]),
        "tgt": animal(g.animals[tgt]),
        "space": name,
        "arrow": arrow.label,
        "flips": Msg("maharani.label.flips", animal=animal(g.animals[src])) if marker else "",
    }
    label = Msg("maharani.label.place", **words)
    if len(label) > 100:  # the longest animal/colour names: drop a redundant word
        label = Msg("maharani.label.place_short", **words)
    if quarter_step:
        steps: tuple[Step, ...] = (field_step, _quarter_step(tgt, marker), space_step, arrow)
    else:
        steps = (field_step, space_step, arrow)
    return f"{field}{name}{d}", label, steps


REFRESH = Move(
    "refresh",
    Msg("maharani.label.refresh"),
    (Step("refresh", Msg("maharani.step.refresh")),),
    0.5,
)
PASS_REFRESH = Move(REFRESH.notation, REFRESH.label, REFRESH.steps, -1.0)
STOP = Move("stop", Msg("maharani.label.stop"), (Step("stop", Msg("maharani.step.stop")),), 1.0)


def worker_move(st: State, seat: int, space: int, option: list[Any]) -> Move:
    c = option[1]
    if option[0] == "move":
        return _worker_move("move", c, space, option[2])
    return _worker_move("new", c, space, st["supply"][seat][c])


@lru_cache(maxsize=1024)
def _worker_move(kind: str, c: int, space: int, detail: int) -> Move:
    """Cached by what its words depend on (``detail``: the space a worker moves from, or
    the workers left in supply): the search meets the same worker choices again."""
    g = geometry()
    style = WORKER_STYLE[c]
    name = g.space_names[space]
    label: Msg
    if kind == "move":
        notation = f"move{c + 1}"
        origin = g.space_names[detail]
        label = Msg("maharani.label.move_worker", style=style, origin=origin, space=name)
        rank = 1.0
    else:
        notation = f"new{c + 1}"
        label = Msg("maharani.label.new_worker", style=style, space=name, supply=detail)
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
    closing = _closing_move(st, seat)
    if closing is not None:
        moves.append(closing)
    return moves


def random_move(st: State, seat: int, rng: Rng) -> Move:
    """``rng.choice(legal_moves(st, seat))`` without building the moves not drawn: the same
    draw from the same generator gives the same move (random playouts stay as they were)."""
    phase = st["phase"]
    if phase == "over" or seat != st["turn"]:
        raise ValueError("no legal move")
    if phase == "worker":  # one move per option, in order: build only the one drawn
        pending = st["pending"]
        return worker_move(st, seat, pending["space"], rng.choice(pending["options"]))
    groups = open_fits(st, seat)
    total = 0
    for group in groups:
        for fit in group[3]:
            total += len(fit[1])
    closing = _closing_move(st, seat)
    if total == 0 and closing is None:
        raise ValueError("no legal move")
    i = rng.below(total + (closing is not None))
    if i == total and closing is not None:
        return closing
    for f, tile, src, fits in groups:
        for s, dirs in fits:
            if i < len(dirs):
                d = dirs[i]
                marker = geometry().space_quarter[s] != src
                return _placement_at(st, (f, tile, src, s, d, marker), len(fits))
            i -= len(dirs)
    raise AssertionError("the drawn placement lies beyond the counted ones")


def _spaces_per_field(found: list[Placement]) -> dict[int, int]:
    """How many distinct target spaces each rondel field's tile has (for the quarter step)."""
    spaces: dict[int, set[int]] = {}
    for f, _t, _src, s, _d, _m in found:
        spaces.setdefault(f, set()).add(s)
    return {f: len(v) for f, v in spaces.items()}


def _closing_move(st: State, seat: int) -> Move | None:
    """The move after the placements: stop (second tile) or refresh (first tile; none with
    every marker face up, unless the match plays refresh as a pass)."""
    if st["phase"] == "second":
        return STOP
    if not all(st["markers"][seat]):
        return REFRESH
    return PASS_REFRESH if st.get("refresh_as_pass", True) else None


def _placement_at(st: State, found: Placement, spaces_of_field: int) -> Move:
    """The Move (with its suggestion rank) for one entry of :func:`placements`."""
    g = geometry()
    f, t, src, s, d, m = found
    side = active_side(st)
    tiles = st["tiles"]
    colour_of = g.tile_colour_idx
    own = colour_of[t]
    # suggestion rank: bigger same-colour area, a worker, no marker spent
    # (a second tile costs 2 gold)
    rank = (-1.0 if st["phase"] == "second" else 1.0) + (3.0 if d == side else 0.0)
    rank -= 0.5 if m else 0.0
    for x in g.neighbours[s]:
        if tiles[x] is not None and colour_of[tiles[x]] == own:
            rank += 1.0
    return placement_move(f, t, src, s, d, m, side, spaces_of_field > MAX_STEP_OPTIONS, rank)


def clean(text: str) -> str:
    """Lower case without spaces and harmless separators."""
    return re.sub(r"[\s\-:,/.]+", "", text).lower()


def explain(st: State, seat: int, text: str) -> Msg:
    """Precise words for why ``text`` is not a legal move now."""
    g = geometry()
    key = clean(text)
    shown = text.strip()[:40]
    phase = st["phase"]
    if phase == "over":
        return OVER_ALREADY
    if seat != st["turn"]:
        return NOT_YOUR_TURN
    if phase == "worker":
        opts = Join("words.comma", [m.notation for m in legal_moves(st, seat)])
        return Msg("maharani.no.worker_first", options=opts)
    if key == "refresh" and phase == "second":
        return Msg("maharani.no.refresh_second")
    if key == "refresh" and not may_refresh(st, seat):
        return Msg("maharani.no.refresh_all_up")
    if key == "stop" and phase == "first":
        return Msg(
            "maharani.no.stop_first" if may_refresh(st, seat) else "maharani.no.stop_first_place"
        )
    if key.startswith(("new", "move")):
        return Msg("maharani.no.worker_none")
    m = PLACEMENT_RE.match(key)
    if not m:
        if phase == "second":
            return Msg("maharani.no.not_a_move_second", text=shown)
        if not may_refresh(st, seat):
            return Msg("maharani.no.not_a_move_place", text=shown)
        return Msg("maharani.no.not_a_move_first", text=shown)
    field = int(m.group(1))
    col = COLUMNS.index(m.group(2).upper())
    row = int(m.group(3)) - 1
    name = f"{COLUMNS[col]}{row + 1}"
    tile = st["rondel"][field - 1]
    if tile is None:
        return Msg("maharani.no.field_empty", field=field)
    space = g.space_by_name.get(name)
    if space is None:
        if (row, col) in g.rondel_cells:
            return Msg("maharani.no.under_rondel", space=name)
        return Msg("maharani.no.corner", space=name)
    if st["tiles"][space] is not None:
        held = a_tile(g.tile_colour[st["tiles"][space]])
        return Msg("maharani.no.taken", space=name, tile=held)
    words = {"colour": colour(g.tile_colour[tile]), "field": field, "space": name}
    if (g.tile_type[tile] == "C") != (g.space_type[space] == "C"):
        if g.tile_type[tile] == "C":
            return Msg("maharani.no.tile_centre", **words)
        return Msg("maharani.no.space_centre", **words)
    dirs = g.arrow_dirs(tile, space)
    if not dirs:
        return Msg("maharani.no.pillars", **words)
    src = g.field_quarter(field, active_side(st))
    tgt = g.space_quarter[space]
    if tgt != src and not st["markers"][seat][src]:
        return Msg("maharani.no.marker_down", animal=animal(g.animals[src]))
    d = m.group(4)
    if d is None:
        example = f"{field}{name}{dirs[0]}"
        return Msg("maharani.no.which_arrow", dirs=Join("words.comma", dirs), example=example)
    if d.upper() not in dirs:
        return Msg("maharani.no.arrow", side=d.upper(), space=name, dirs=Join("maharani.or", dirs))
    return Msg("game.not_legal_bare", text=shown)
