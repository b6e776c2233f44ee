"""Pastiche component data: loaded once from ``data/pastiche/*.json`` and validated.

Why a separate module: the commission deck, the hex layouts and the mixing chart are partly
reconstructions ([R] in the rules reference). Keeping every number in JSON and checking it
here means a corrected file (the real deck, say) changes the game without touching code, and
a broken file fails loudly at load time with the file name and the problem.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from data import read_json

GAME_DIR = "pastiche"
PRIMARY_LETTERS = "BRY"  # sorted: mixing-chart keys list dab letters alphabetically
COMMISSIONS_IN_DECK = 34
HEXES_IN_SUPPLY = 54
PALETTE_CARDS = 132


class DataError(ValueError):
    """A data file is malformed; the message names the file and the problem."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class ColourModel(_Strict):
    name: str = Field(min_length=1)
    group: Literal["primary", "secondary", "tertiary", "shade", "gray", "cream"]
    count: int = Field(ge=1, le=40)
    value: int = Field(ge=0, le=20)
    letter: Literal["R", "Y", "B"] | None = None


class PaletteFile(_Strict):
    colours: list[ColourModel]
    starting_hand: list[str]


class HexModel(_Strict):
    id: str = Field(min_length=1)
    corners: str = Field(pattern=r"^[RYB]{6}$")
    centre: str = Field(pattern=r"^[RYB]{1,2}$")


class StartHexModel(_Strict):
    id: str = Field(min_length=1)
    q: int
    r: int
    corners: str = Field(pattern=r"^[RYB]{6}$")


class StartFile(_Strict):
    hexes: list[StartHexModel]


class MixingFile(_Strict):
    mix2: dict[str, str | None]
    mix3: dict[str, str | None]


class CommissionModel(_Strict):
    id: str = Field(min_length=1)
    painter: str = Field(min_length=1)
    title: str = Field(min_length=1)
    points: int = Field(ge=7, le=16)
    palette: list[str] = Field(min_length=2, max_length=7)


@dataclass(frozen=True, slots=True)
class Colour:
    name: str
    group: str
    count: int
    value: int
    letter: str | None


@dataclass(frozen=True, slots=True)
class Commission:
    id: str
    painter: str
    title: str
    points: int
    palette: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PaletteHex:
    id: str
    corners: str
    centre: str


@dataclass(frozen=True, slots=True)
class StartHex:
    id: str
    q: int
    r: int
    corners: str


@dataclass(frozen=True, slots=True)
class Data:
    colours: tuple[Colour, ...]
    colour: dict[str, Colour]
    names: tuple[str, ...]
    value: dict[str, int]
    letter_colour: dict[str, str]  # "R" -> "red"
    starting_hand: tuple[str, ...]
    hexes: dict[str, PaletteHex]
    hex_ids: tuple[str, ...]
    start: tuple[StartHex, ...]
    mix: dict[str, str | None]  # sorted dab letters (2 or 3) -> colour or None
    commissions: dict[str, Commission]
    commission_ids: tuple[str, ...]


def _load(name: str, model: type[BaseModel]) -> BaseModel:
    try:
        raw = read_json(GAME_DIR, name)
    except (OSError, ValueError) as exc:
        raise DataError(f"data/{GAME_DIR}/{name}: cannot read: {exc}") from None
    try:
        if model is _CommissionList:
            return _CommissionList(items=[CommissionModel.model_validate(x) for x in raw])
        if model is _HexList:
            return _HexList(items=[HexModel.model_validate(x) for x in raw])
        return model.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"])
        raise DataError(f"data/{GAME_DIR}/{name}: {loc}: {first['msg']}") from None
    except TypeError as exc:
        raise DataError(f"data/{GAME_DIR}/{name}: wrong shape: {exc}") from None


class _CommissionList(BaseModel):
    items: list[CommissionModel]


class _HexList(BaseModel):
    items: list[HexModel]


def _fail(name: str, problem: str) -> DataError:
    return DataError(f"data/{GAME_DIR}/{name}: {problem}")


def _check_palette(pal: PaletteFile) -> None:
    names = [c.name for c in pal.colours]
    if len(set(names)) != len(names):
        raise _fail("palette.json", "colour names repeat")
    if len(names) != 17:
        raise _fail("palette.json", f"expected 17 colours, found {len(names)}")
    total = sum(c.count for c in pal.colours)
    if total != PALETTE_CARDS:
        raise _fail("palette.json", f"expected {PALETTE_CARDS} palette cards, found {total}")
    letters = sorted(c.letter for c in pal.colours if c.letter)
    prim = [c for c in pal.colours if c.group == "primary"]
    if letters != sorted(PRIMARY_LETTERS) or len(prim) != 3 or any(not c.letter for c in prim):
        raise _fail("palette.json", "the three primaries need letters R, Y and B")
    for needed in ("black", "white", "gray", "cream", "yellow", "brown"):
        if needed not in names:
            raise _fail("palette.json", f"colour {needed!r} is missing (the bank trades use it)")
    for c in pal.starting_hand:
        if c not in names:
            raise _fail("palette.json", f"starting hand names unknown colour {c!r}")


def _check_mixing(mixing: MixingFile, names: set[str]) -> dict[str, str | None]:
    mix: dict[str, str | None] = {}
    for size, table, label in ((2, mixing.mix2, "mix2"), (3, mixing.mix3, "mix3")):
        expected = {"".join(k) for k in combinations_with_replacement(PRIMARY_LETTERS, size)}
        if set(table) != expected:
            missing = sorted(expected - set(table))
            extra = sorted(set(table) - expected)
            raise _fail("mixing.json", f"{label} keys wrong (missing {missing}, extra {extra})")
        for key, colour in table.items():
            if colour is not None and colour not in names:
                raise _fail("mixing.json", f"{label}[{key}] names unknown colour {colour!r}")
            mix[key] = colour
    return mix


def _check_hexes(hexes: list[HexModel]) -> None:
    if len(hexes) != HEXES_IN_SUPPLY:
        raise _fail("hexes.json", f"expected {HEXES_IN_SUPPLY} hexes, found {len(hexes)}")
    ids = [h.id for h in hexes]
    if len(set(ids)) != len(ids):
        raise _fail("hexes.json", "hex ids repeat")
    for h in hexes:
        if len(h.centre) == 2 and h.centre[0] == h.centre[1]:
            raise _fail("hexes.json", f"{h.id}: a two-colour centre needs two different primaries")


def _check_start(start: StartFile) -> None:
    cells = [(h.q, h.r) for h in start.hexes]
    if len(cells) != 3 or len(set(cells)) != 3:
        raise _fail("start_piece.json", "the starting piece needs three distinct hexes")
    directions = {(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)}
    for i, (q1, r1) in enumerate(cells):
        for q2, r2 in cells[i + 1 :]:
            if (q2 - q1, r2 - r1) not in directions:
                raise _fail("start_piece.json", "the three start hexes must touch each other")


def _check_commissions(items: list[CommissionModel], names: set[str]) -> None:
    if len(items) != COMMISSIONS_IN_DECK:
        raise _fail(
            "commissions.json", f"expected {COMMISSIONS_IN_DECK} commissions, found {len(items)}"
        )
    ids = [c.id for c in items]
    if len(set(ids)) != len(ids):
        raise _fail("commissions.json", "commission ids repeat")
    painters = Counter(c.painter for c in items)
    if len(painters) != 17 or set(painters.values()) != {2}:
        raise _fail("commissions.json", "the deck needs 17 painters with exactly two cards each")
    pair_sum: Counter[str] = Counter()
    for c in items:
        pair_sum[c.painter] += c.points
        if len(set(c.palette)) != len(c.palette):
            raise _fail("commissions.json", f"{c.id}: palette repeats a colour")
        for colour in c.palette:
            if colour not in names:
                raise _fail("commissions.json", f"{c.id}: unknown colour {colour!r}")
    for painter, total in pair_sum.items():
        if not 15 <= total <= 31:
            raise _fail(
                "commissions.json",
                f"{painter}: pair sum {total} is outside the bonus table (15–31)",
            )


@cache
def load() -> Data:
    """Read and validate every Pastiche data file (once per process)."""
    pal = _load("palette.json", PaletteFile)
    assert isinstance(pal, PaletteFile)
    _check_palette(pal)
    names = {c.name for c in pal.colours}
    mixing = _load("mixing.json", MixingFile)
    assert isinstance(mixing, MixingFile)
    mix = _check_mixing(mixing, names)
    hexes = _load("hexes.json", _HexList)
    assert isinstance(hexes, _HexList)
    _check_hexes(hexes.items)
    start = _load("start_piece.json", StartFile)
    assert isinstance(start, StartFile)
    _check_start(start)
    comms = _load("commissions.json", _CommissionList)
    assert isinstance(comms, _CommissionList)
    _check_commissions(comms.items, names)
    colours = tuple(Colour(c.name, c.group, c.count, c.value, c.letter) for c in pal.colours)
    return Data(
        colours=colours,
        colour={c.name: c for c in colours},
        names=tuple(c.name for c in colours),
        value={c.name: c.value for c in colours},
        letter_colour={c.letter: c.name for c in colours if c.letter},
        starting_hand=tuple(pal.starting_hand),
        hexes={h.id: PaletteHex(h.id, h.corners, h.centre) for h in hexes.items},
        hex_ids=tuple(h.id for h in hexes.items),
        start=tuple(StartHex(h.id, h.q, h.r, h.corners) for h in start.hexes),
        mix=mix,
        commissions={
            c.id: Commission(c.id, c.painter, c.title, c.points, tuple(c.palette))
            for c in comms.items
        },
        commission_ids=tuple(c.id for c in comms.items),
    )
