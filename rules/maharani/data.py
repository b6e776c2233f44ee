"""Maharani component data: the palace floor, the 60 mosaic tiles, seats and the rondel.

Why a separate module: the printed board and tiles are *reconstructions* ([R] in
maharani.md), so they live in ``data/maharani/*.json`` and a corrected file must change the
game without touching code. Everything is validated here, once, with pydantic for the shape
and explicit checks for what makes the rules work (14 spaces per quarter, 8 centre-pillar
spaces, every half pillar matched across its edge, tile classes matching space classes). A
bad file raises :class:`DataError` naming the file and the problem.

The rules code reads only the precomputed :class:`Geometry` (tuples and small ints), which
keeps legal-move generation and group counting fast.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from data import read_json

GAME_DIR = "maharani"
SIDES: tuple[str, ...] = ("N", "E", "S", "W")
#: Unit step (dr, dc) towards each side of a cell.
DELTA: dict[str, tuple[int, int]] = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
OPPOSITE: dict[str, str] = {"N": "S", "S": "N", "E": "W", "W": "E"}
PillarType = Literal["C", "H1", "HS", "HL"]
Side = Literal["N", "E", "S", "W"]
COLUMNS = "ABCDEFGH"


class DataError(ValueError):
    """A data file is malformed; the message names the file and what is wrong."""


def rotate(sides: frozenset[str], quarter_turns: int) -> frozenset[str]:
    """Sides after turning clockwise ``quarter_turns`` times (N->E->S->W)."""
    return frozenset(SIDES[(SIDES.index(s) + quarter_turns) % 4] for s in sides)


def _check_pattern(kind: str, sides: list[str]) -> str | None:
    """Why a pillar type and its half-pillar sides disagree (None when they agree)."""
    if len(set(sides)) != len(sides):
        return f"repeats a side in {sides}"
    want = {"C": 0, "H1": 1, "HS": 2, "HL": 2}[kind]
    if len(sides) != want:
        return f"type {kind} needs {want} half pillar(s), has {sides}"
    if kind in ("HS", "HL") and len(sides) == 2:
        opposite = OPPOSITE[sides[0]] == sides[1]
        if kind == "HS" and not opposite:
            return f"type HS needs opposite sides, has {sides}"
        if kind == "HL" and opposite:
            return f"type HL needs adjacent sides, has {sides}"
    return None


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SpaceModel(_Strict):
    r: int
    c: int
    q: int
    type: PillarType
    half_pillars: list[Side]


class QuarterModel(_Strict):
    pos: Literal["top-left", "top-right", "bottom-right", "bottom-left"]
    animal: str


class BoardModel(_Strict):
    grid: str
    rondel: list[list[int]]
    not_spaces: list[list[int]]
    quarters: dict[str, QuarterModel]
    spaces: list[SpaceModel]


class TileModel(_Strict):
    id: str
    colour: str
    type: PillarType
    half_pillars: list[Side]


class GeometryModel(_Strict):
    note: str = ""
    clockwise_sides: list[Side]
    quarters_clockwise: list[int]
    rondel_fields_when_arrow_S: dict[str, int]
    seat_sides: dict[str, list[Side]]

    @field_validator("clockwise_sides")
    @classmethod
    def _four_sides(cls, v: list[str]) -> list[str]:
        if sorted(v) != sorted(SIDES):
            raise ValueError("must list N, E, S, W once each")
        return v


@dataclass(frozen=True, slots=True)
class Geometry:
    """Everything the rules need, precomputed from the three data files."""

    # spaces (index = position in board.json's list)
    rows: tuple[int, ...]
    cols: tuple[int, ...]
    space_quarter: tuple[int, ...]  # 0..3 (Q1..Q4)
    space_type: tuple[str, ...]
    space_sides: tuple[frozenset[str], ...]
    space_names: tuple[str, ...]  # "F7": column letter + row number, as drawn
    space_by_name: dict[str, int]
    neighbours: tuple[tuple[int, ...], ...]
    quarter_spaces: tuple[tuple[int, ...], ...]
    centre_spaces: tuple[int, ...]
    animals: tuple[str, ...]  # per quarter index
    quarter_pos: tuple[str, ...]
    rondel_cells: tuple[tuple[int, int], ...]
    # tiles (index = position in tiles.json's list)
    tile_ids: tuple[str, ...]
    tile_colour: tuple[str, ...]
    tile_colour_idx: tuple[int, ...]
    tile_type: tuple[str, ...]
    tile_sides: tuple[tuple[str, ...], ...]  # with the arrow pointing N
    colours: tuple[str, ...]
    #: fits[tile] = ((space, (arrow directions...)), ...) for every space the tile fits.
    fits: tuple[tuple[tuple[int, tuple[str, ...]], ...], ...]
    # seats and rondel
    clockwise_sides: tuple[str, ...]
    field_base_quarter: tuple[int, ...]  # quarter index under fields 1..4 when arrow is S
    seat_sides: dict[str, tuple[str, ...]]

    def field_quarter(self, field: int, arrow: str) -> int:
        """Quarter index (0..3) under rondel field ``field`` (1..4) with the arrow at ``arrow``.

        Turning the rondel a quarter-turn clockwise moves every field one quarter clockwise.
        """
        k = self.clockwise_sides.index(arrow)
        return (self.field_base_quarter[field - 1] + k) % 4

    def arrow_dirs(self, tile: int, space: int) -> tuple[str, ...]:
        """Arrow directions in which ``tile`` matches the pillars of ``space`` (maybe none)."""
        for s, dirs in self.fits[tile]:
            if s == space:
                return dirs
        return ()


def _fail(file: str, problem: str) -> DataError:
    return DataError(f"data/{GAME_DIR}/{file}: {problem}")


M = TypeVar("M", bound=BaseModel)


def _model(file: str, model: type[M], raw: object) -> M:
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "top level"
        raise _fail(file, f"{where}: {first['msg']}") from None


_POS_BLOCK = {
    "top-left": (0, 0),
    "top-right": (0, 1),
    "bottom-right": (1, 1),
    "bottom-left": (1, 0),
}


def build_geometry(board_raw: object, tiles_raw: object, geo_raw: object) -> Geometry:
    """Validate raw JSON (as read from the three files) and precompute the geometry."""
    board = _model("board.json", BoardModel, board_raw)
    if not isinstance(tiles_raw, list):
        raise _fail("tiles.json", "must be a list of tiles")
    tiles = [_model("tiles.json", TileModel, t) for t in tiles_raw]
    geo = _model("geometry.json", GeometryModel, geo_raw)

    # ---- quarters
    if sorted(board.quarters) != ["1", "2", "3", "4"]:
        raise _fail("board.json", f"quarters must be 1-4, found {sorted(board.quarters)}")
    quarters = [board.quarters[str(i)] for i in range(1, 5)]
    if len({q.pos for q in quarters}) != 4:
        raise _fail("board.json", "two quarters share a position")
    if len({q.animal for q in quarters}) != 4:
        raise _fail("board.json", "two quarters share an animal")

    # ---- spaces
    cells: dict[tuple[int, int], int] = {}
    blocked = {tuple(x) for x in board.rondel} | {tuple(x) for x in board.not_spaces}
    if len(board.rondel) != 4:
        raise _fail("board.json", "the rondel must cover 4 cells")
    for i, sp in enumerate(board.spaces):
        name = f"space r{sp.r}c{sp.c}"
        if not (0 <= sp.r < 8 and 0 <= sp.c < 8):
            raise _fail("board.json", f"{name} lies outside the 8x8 grid")
        if (sp.r, sp.c) in cells:
            raise _fail("board.json", f"{name} is listed twice")
        if (sp.r, sp.c) in blocked:
            raise _fail("board.json", f"{name} lies on the rondel or a non-space cell")
        if str(sp.q) not in board.quarters:
            raise _fail("board.json", f"{name} names unknown quarter {sp.q}")
        block = _POS_BLOCK[board.quarters[str(sp.q)].pos]
        if (sp.r // 4, sp.c // 4) != block:
            raise _fail("board.json", f"{name} is not inside quarter {sp.q}'s part of the floor")
        if why := _check_pattern(sp.type, list(sp.half_pillars)):
            raise _fail("board.json", f"{name} {why}")
        cells[(sp.r, sp.c)] = i
    if len(board.spaces) != 56:
        raise _fail("board.json", f"the floor must have 56 spaces, found {len(board.spaces)}")
    per_q = Counter(sp.q for sp in board.spaces)
    for q in range(1, 5):
        if per_q[q] != 14:
            raise _fail("board.json", f"quarter {q} has {per_q[q]} spaces, not 14")
    n_centre = sum(sp.type == "C" for sp in board.spaces)
    if n_centre != 8:
        raise _fail("board.json", f"there must be 8 centre-pillar spaces, found {n_centre}")
    for sp in board.spaces:
        for side in sp.half_pillars:
            dr, dc = DELTA[side]
            other = cells.get((sp.r + dr, sp.c + dc))
            if other is None:
                raise _fail(
                    "board.json",
                    f"space r{sp.r}c{sp.c} has a half pillar on {side} but no space lies there",
                )
            if OPPOSITE[side] not in board.spaces[other].half_pillars:
                raise _fail(
                    "board.json",
                    f"space r{sp.r}c{sp.c}'s half pillar on {side} is not matched by "
                    f"r{sp.r + dr}c{sp.c + dc} on {OPPOSITE[side]}",
                )

    # ---- tiles
    if len(tiles) != 60:
        raise _fail("tiles.json", f"there must be 60 tiles, found {len(tiles)}")
    seen: set[str] = set()
    for t in tiles:
        if t.id in seen:
            raise _fail("tiles.json", f"tile id {t.id} is used twice")
        seen.add(t.id)
        if why := _check_pattern(t.type, list(t.half_pillars)):
            raise _fail("tiles.json", f"tile {t.id} {why}")
    by_colour = Counter(t.colour for t in tiles)
    if len(by_colour) != 6 or set(by_colour.values()) != {10}:
        raise _fail("tiles.json", f"need 6 colours x 10 tiles, found {dict(by_colour)}")
    tile_cls = Counter(t.type for t in tiles)
    space_cls = Counter(sp.type for sp in board.spaces)
    for kind in ("H1", "HS", "HL"):
        if tile_cls[kind] != space_cls[kind]:
            raise _fail(
                "tiles.json",
                f"{tile_cls[kind]} tiles of class {kind} but the floor has "
                f"{space_cls[kind]} such spaces",
            )
    if tile_cls["C"] < space_cls["C"]:
        raise _fail("tiles.json", "fewer centre-pillar tiles than centre-pillar spaces")

    # ---- seats and rondel
    if sorted(geo.quarters_clockwise) != [1, 2, 3, 4]:
        raise _fail("geometry.json", "quarters_clockwise must list 1-4")
    fields = geo.rondel_fields_when_arrow_S
    if sorted(fields) != ["1", "2", "3", "4"] or sorted(fields.values()) != [1, 2, 3, 4]:
        raise _fail("geometry.json", "rondel_fields_when_arrow_S must map fields 1-4 to quarters")
    for key, want in (("2-opposite", 2), ("2-adjacent", 2), ("3", 3), ("4", 4)):
        sides = geo.seat_sides.get(key)
        if sides is None or len(sides) != want or len(set(sides)) != want:
            raise _fail("geometry.json", f"seat_sides[{key}] must list {want} different sides")
    # quarter order in the engine is Q1..Q4 clockwise; the file must agree
    if geo.quarters_clockwise != [1, 2, 3, 4]:
        raise _fail("geometry.json", "the engine expects quarters_clockwise = [1, 2, 3, 4]")

    rows = tuple(sp.r for sp in board.spaces)
    cols = tuple(sp.c for sp in board.spaces)
    neighbours = tuple(
        tuple(cells[(r + dr, c + dc)] for dr, dc in DELTA.values() if (r + dr, c + dc) in cells)
        for r, c in zip(rows, cols, strict=True)
    )
    space_sides = tuple(frozenset(sp.half_pillars) for sp in board.spaces)
    space_type = tuple(sp.type for sp in board.spaces)
    colours = tuple(dict.fromkeys(t.colour for t in tiles))
    fits: list[tuple[tuple[int, tuple[str, ...]], ...]] = []
    for t in tiles:
        base = frozenset(t.half_pillars)
        row: list[tuple[int, tuple[str, ...]]] = []
        for s in range(len(board.spaces)):
            if (space_type[s] == "C") != (t.type == "C"):
                continue
            dirs = tuple(d for k, d in enumerate(SIDES) if rotate(base, k) == space_sides[s])
            if dirs:
                row.append((s, dirs))
        if not row:
            raise _fail("tiles.json", f"tile {t.id} fits no space of the floor")
        fits.append(tuple(row))
    names = tuple(f"{COLUMNS[c]}{r + 1}" for r, c in zip(rows, cols, strict=True))
    return Geometry(
        rows=rows,
        cols=cols,
        space_quarter=tuple(sp.q - 1 for sp in board.spaces),
        space_type=space_type,
        space_sides=space_sides,
        space_names=names,
        space_by_name={n: i for i, n in enumerate(names)},
        neighbours=neighbours,
        quarter_spaces=tuple(
            tuple(i for i, sp in enumerate(board.spaces) if sp.q == q) for q in range(1, 5)
        ),
        centre_spaces=tuple(i for i, t in enumerate(space_type) if t == "C"),
        animals=tuple(q.animal for q in quarters),
        quarter_pos=tuple(q.pos for q in quarters),
        rondel_cells=tuple((a, b) for a, b in board.rondel),
        tile_ids=tuple(t.id for t in tiles),
        tile_colour=tuple(t.colour for t in tiles),
        tile_colour_idx=tuple(colours.index(t.colour) for t in tiles),
        tile_type=tuple(t.type for t in tiles),
        tile_sides=tuple(tuple(t.half_pillars) for t in tiles),
        colours=colours,
        fits=tuple(fits),
        clockwise_sides=tuple(geo.clockwise_sides),
        field_base_quarter=tuple(fields[str(f)] - 1 for f in range(1, 5)),
        seat_sides={k: tuple(v) for k, v in geo.seat_sides.items()},
    )


@cache
def geometry() -> Geometry:
    """The validated game data, loaded once."""
    return build_geometry(
        read_json(GAME_DIR, "board.json"),
        read_json(GAME_DIR, "tiles.json"),
        read_json(GAME_DIR, "geometry.json"),
    )
