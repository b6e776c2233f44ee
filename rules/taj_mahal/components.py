"""Taj Mahal component data: loaded once from ``data/taj_mahal/*.json`` and validated.

Why validate so hard: most of this data is reconstructed ([R] in the rules reference) and
will be corrected by editing JSON, not code. A corrected file must either give a playable
game or fail loudly with the file name and the problem, never half-load.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from data import read_json
from rules.taj_mahal.words import Msg

GAME_DIR = "taj_mahal"

#: The six card symbols (rule meaning: each is one court prize), with the letter used in
#: notation and pictures. Mogul is C (its prize is the crown) so it never clashes with M(onk).
SYMBOL_LETTERS: dict[str, str] = {
    "vizier": "V",
    "general": "G",
    "monk": "M",
    "princess": "P",
    "mogul": "C",
    "elephant": "E",
}
SYMBOLS: tuple[str, ...] = tuple(SYMBOL_LETTERS)
INFLUENCE: tuple[str, ...] = ("vizier", "general", "monk", "princess")
GOODS: tuple[str, ...] = ("rice", "tea", "spice", "jewel")
#: Compass suffixes of city keys, in words for labels.
COMPASS = {"N": "north", "E": "east", "S": "south", "W": "west", "TAJ": "Taj Mahal"}


class DataError(ValueError):
    """A data file is malformed; the message names the file and the problem."""


# ----- pydantic shapes of the files ------------------------------------------------------
class _Strict(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class SetupFile(_Strict):
    players: list[int]
    visits: int
    starting_hand: int
    display_size: dict[str, int]
    palaces_per_player: int
    influence_tiles_per_kind: int
    court_prizes: list[str]
    last_visit_province: str
    max_cards_per_turn: int


class CardGroup(_Strict):
    symbols: list[str]
    count: int

    @field_validator("symbols")
    @classmethod
    def _known(cls, v: list[str]) -> list[str]:
        for s in v:
            if s not in SYMBOL_LETTERS:
                raise ValueError(f"unknown symbol {s!r}")
        return v


class PairCycles(_Strict):
    cycle_A_for: list[str]
    cycle_A: list[list[str]]
    cycle_B_for: list[str]
    cycle_B: list[list[str]]


class CardsFile(_Strict):
    colors: list[str]
    per_color_fixed: list[CardGroup]
    per_color_non_elephant_pairs: PairCycles
    white: list[CardGroup]


class SpecialCard(_Strict):
    id: str
    name: str
    effect: Literal["symbol", "points", "colour_change"]
    symbol: str | None = None
    value: int | None = None
    claimed_with: str


class SpecialFile(_Strict):
    cards: list[SpecialCard]


class BonusTile(_Strict):
    kind: Literal["points", "card", "good"]
    value: int | None = None
    good: str | None = None
    name: str | None = None
    count: int = 1


class BonusFixed(_Strict):
    city: str
    tile: BonusTile


class BonusRandom(_Strict):
    tiles: list[BonusTile]


class BonusFile(_Strict):
    fixed: BonusFixed
    random_15: BonusRandom


class ProvinceModel(_Strict):
    key: str
    label: str
    n_cities: int
    always_tile: int | None = None


class CityModel(_Strict):
    id: int
    key: str
    province: str
    fortress: bool


class MapFile(_Strict):
    provinces: list[ProvinceModel]
    cities: list[CityModel]
    roads_within_provinces: list[list[str]]
    roads_between_provinces: list[list[str]]


# ----- what the rules use ----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Card:
    """One physical card. ``code`` is its notation (``R-VE``, ``W-C``, ``S-X``)."""

    id: int
    kind: str  # "colour" | "white" | "special"
    colour: str | None
    symbols: tuple[str, ...]
    code: str
    name: str  # a message (rules.words.Msg): shown in the reader's language
    special: str | None = None  # special card id ("elephant", "points", ...)
    points: int = 0  # +2 Points card


@dataclass(frozen=True, slots=True)
class Bonus:
    """A fortress bonus tile (index 0 is the fixed Taj Mahal tile)."""

    kind: str  # points | card | good
    value: int
    good: str | None
    name: str
    code: str


@dataclass(frozen=True)
class Components:
    setup: SetupFile
    colours: tuple[str, ...]
    colour_letter: dict[str, str]
    cards: tuple[Card, ...]
    deck: tuple[int, ...]  # ids of the 96 ordinary cards
    specials: dict[str, int]  # special id -> card id
    special_for_kind: dict[str, str]  # influence kind -> special id
    province_keys: tuple[str, ...]
    province_label: dict[str, str]
    agra: str
    cities: tuple[str, ...]
    city_province: dict[str, str]
    province_cities: dict[str, tuple[str, ...]]
    fortresses: frozenset[str]
    neighbours: dict[str, tuple[str, ...]]
    roads: tuple[tuple[str, str], ...]
    tile_goods: dict[int, tuple[str, ...]]  # province tile number -> goods
    bonus_tiles: tuple[Bonus, ...]  # index 0 = fixed tile
    taj_city: str

    def city_label(self, city: str) -> str:
        """The city's name as a message: its province and compass side."""
        prov, _, pos = city.partition("_")
        return Msg("taj_mahal.city", province=self.province_label[prov], side=_side(pos))

    def city_code(self, city: str) -> str:
        """``DEL_N`` -> ``delhi-n`` (used in notation)."""
        prov, _, pos = city.partition("_")
        return f"{self.province_label[prov].lower().replace(' ', '')}-{pos.lower()}"

    def display_size(self, players: int) -> int:
        return self.setup.display_size[str(players)]


def _load(name: str, model: type[BaseModel]) -> Any:
    try:
        raw = read_json(GAME_DIR, name)
    except FileNotFoundError:
        raise DataError(f"data/{GAME_DIR}/{name}: file is missing") from None
    except ValueError as exc:
        raise DataError(f"data/{GAME_DIR}/{name}: not valid JSON ({exc})") from None
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise DataError(f"data/{GAME_DIR}/{name}: {where}: {first['msg']}") from None


def _check(ok: bool, name: str, problem: str) -> None:
    if not ok:
        raise DataError(f"data/{GAME_DIR}/{name}: {problem}")


def _symbol_key(symbols: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(symbols, key=SYMBOLS.index))


def _side(pos: str) -> str:
    """A city key's compass suffix in words (a suffix a corrected map adds: as written)."""
    return Msg(f"taj_mahal.side.{pos}") if pos in COMPASS else pos.lower()


def _card_code_name(prefix: str, colour: str, symbols: tuple[str, ...]) -> tuple[str, str]:
    """A card's notation and its name as a message (``red vizier+elephant``)."""
    code = prefix + "-" + "".join(SYMBOL_LETTERS[s] for s in symbols)
    if colour == "white":
        return code, Msg("taj_mahal.card.white", symbol=Msg(f"taj_mahal.symbol.{symbols[0]}"))
    hue = Msg(f"taj_mahal.colour.{colour}")
    if len(set(symbols)) < len(symbols):
        return code, Msg("taj_mahal.card.double", colour=hue, symbols=_plural(symbols[0]))
    first, second = (Msg(f"taj_mahal.symbol.{s}") for s in symbols)
    return code, Msg("taj_mahal.card.pair", colour=hue, first=first, second=second)


def _plural(symbol: str) -> str:
    return Msg(f"taj_mahal.symbols.{symbol}")


def _build_cards(cf: CardsFile, sf: SpecialFile, st: SetupFile) -> tuple[list[Card], dict]:
    name = "cards.json"
    colours = cf.colors
    _check(len(colours) == len(set(colours)) >= 1, name, "colours must be distinct")
    letters = {c: c[0].upper() for c in colours}
    _check(
        len(set(letters.values())) == len(colours) and not {"W", "S"} & set(letters.values()),
        name,
        "colour names must start with distinct letters other than W and S",
    )
    cyc = cf.per_color_non_elephant_pairs
    _check(
        sorted(cyc.cycle_A_for + cyc.cycle_B_for) == sorted(colours),
        name,
        "cycle_A_for and cycle_B_for must split the colours exactly",
    )
    cards: list[Card] = []
    for colour in colours:
        groups = [(tuple(g.symbols), g.count) for g in cf.per_color_fixed]
        cycle = cyc.cycle_A if colour in cyc.cycle_A_for else cyc.cycle_B
        for pair in cycle:
            _check(
                len(pair) == 2 and pair[0] != pair[1] and "elephant" not in pair,
                name,
                f"non-elephant pair {pair} must be two different non-elephant symbols",
            )
            for s in pair:
                _check(s in SYMBOL_LETTERS, name, f"unknown symbol {s!r}")
            groups.append((tuple(pair), 1))
        for symbols, count in groups:
            _check(len(symbols) == 2, name, f"coloured card {symbols} must show two symbols")
            _check(count >= 1, name, f"count of {symbols} must be positive")
            key = _symbol_key(symbols)
            code, word = _card_code_name(letters[colour], colour, key)
            for _ in range(count):
                cards.append(Card(len(cards), "colour", colour, key, code, word))
        per = sum(1 for c in cards if c.colour == colour)
        _check(per == 21, name, f"{colour} has {per} cards, expected 21")
    for g in cf.white:
        _check(len(g.symbols) == 1, name, f"white card {g.symbols} must show one symbol")
        key = tuple(g.symbols)
        code, word = _card_code_name("W", "white", key)
        for _ in range(g.count):
            cards.append(Card(len(cards), "white", None, key, code, word))
    whites = sum(1 for c in cards if c.kind == "white")
    _check(whites == 12, name, f"{whites} white cards, expected 12")
    _check(len(cards) == 96, name, f"{len(cards)} cards in the deck, expected 96")

    sname = "special_cards.json"
    _check(len(sf.cards) == 4, sname, f"{len(sf.cards)} special cards, expected 4")
    _check(len({c.id for c in sf.cards}) == 4, sname, "special card ids must be distinct")
    kinds = sorted(c.claimed_with for c in sf.cards)
    _check(kinds == sorted(INFLUENCE), sname, "each influence kind must claim exactly one card")
    specials: dict[str, int] = {}
    for sc in sf.cards:
        syms: tuple[str, ...]
        if sc.effect == "symbol":
            symbol = sc.symbol or ""  # no symbol at all is refused just below, like a wrong one
            _check(symbol in SYMBOL_LETTERS, sname, f"{sc.id}: unknown symbol {sc.symbol!r}")
            code, syms, pts = "S-" + SYMBOL_LETTERS[symbol], (symbol,), 0
        elif sc.effect == "points":
            _check((sc.value or 0) > 0, sname, f"{sc.id}: points card needs a positive value")
            code, syms, pts = f"S-{sc.value}", (), sc.value or 0
        else:
            code, syms, pts = "S-X", (), 0
        specials[sc.id] = len(cards)
        name = Msg(
            f"taj_mahal.special.{sc.id}"
        )  # the English is sc.name (rules/taj_mahal/words.py)
        cards.append(Card(len(cards), "special", None, syms, code, name, sc.id, pts))
    codes = [c.code for c in cards if c.kind == "special"]
    _check(len(set(codes)) == 4, sname, "two special cards would share a notation")
    return cards, {"letters": letters, "specials": specials}


def _build_map(mf: MapFile, st: SetupFile) -> dict[str, Any]:
    name = "map.json"
    keys = [p.key for p in mf.provinces]
    _check(len(keys) == len(set(keys)), name, "province keys must be distinct")
    _check(len(keys) == st.visits, name, f"{len(keys)} provinces, expected {st.visits}")
    for k in keys:
        _check("_" not in k, name, f"province key {k!r} must not contain '_'")
    ids = [c.id for c in mf.cities]
    _check(ids == list(range(len(ids))), name, "city ids must be 0, 1, 2, ... in order")
    ckeys = [c.key for c in mf.cities]
    _check(len(ckeys) == len(set(ckeys)), name, "city keys must be distinct")
    city_prov: dict[str, str] = {}
    for c in mf.cities:
        _check(c.province in keys, name, f"city {c.key} is in unknown province {c.province}")
        _check(
            c.key.startswith(c.province + "_"), name, f"city {c.key} must start with its province"
        )
        city_prov[c.key] = c.province
    prov_cities = {k: tuple(c.key for c in mf.cities if c.province == k) for k in keys}
    for p in mf.provinces:
        got = len(prov_cities[p.key])
        _check(
            got == p.n_cities,
            name,
            f"province {p.key} has {got} cities, n_cities says {p.n_cities}",
        )
    agras = [p.key for p in mf.provinces if p.always_tile is not None]
    _check(len(agras) == 1, name, "exactly one province must have always_tile")
    agra = agras[0]
    agra_p = next(p for p in mf.provinces if p.key == agra)
    _check(agra_p.always_tile == st.visits, name, f"always_tile must be {st.visits}")
    _check(agra == st.last_visit_province, name, "always_tile province must be last_visit_province")
    neighbours: dict[str, set[str]] = {k: set() for k in ckeys}
    roads: list[tuple[str, str]] = []
    for inside, group in ((True, mf.roads_within_provinces), (False, mf.roads_between_provinces)):
        for road in group:
            _check(len(road) == 2, name, f"road {road} must join two cities")
            a, b = road
            for x in (a, b):
                _check(x in city_prov, name, f"road {road} names unknown city {x}")
            _check(a != b, name, f"road {road} joins a city to itself")
            same = city_prov[a] == city_prov[b]
            kind = "roads_within_provinces" if inside else "roads_between_provinces"
            _check(same == inside, name, f"road {road} is listed under {kind} wrongly")
            _check(b not in neighbours[a], name, f"road {road} is listed twice")
            neighbours[a].add(b)
            neighbours[b].add(a)
            roads.append((a, b))

    def connected(nodes: tuple[str, ...] | list[str]) -> bool:
        allowed = set(nodes)
        seen = {nodes[0]}
        todo = [nodes[0]]
        while todo:
            for n in neighbours[todo.pop()]:
                if n in allowed and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return seen == allowed

    _check(connected(ckeys), name, "the road network is not connected")
    for k in keys:
        _check(connected(prov_cities[k]), name, f"the cities of province {k} are not connected")
    return {
        "keys": tuple(keys),
        # names as messages; their English is the label (rules/taj_mahal/words.py)
        "labels": {p.key: Msg(f"taj_mahal.province.{p.key}") for p in mf.provinces},
        "agra": agra,
        "cities": tuple(ckeys),
        "city_prov": city_prov,
        "prov_cities": prov_cities,
        "fortresses": frozenset(c.key for c in mf.cities if c.fortress),
        "neighbours": {k: tuple(sorted(v)) for k, v in neighbours.items()},
        "roads": tuple(roads),
    }


def _bonus(tile: BonusTile, name: str) -> Bonus:
    if tile.kind == "good":
        _check(tile.good in GOODS, name, f"bonus tile good {tile.good!r} unknown")
        good = Msg(f"taj_mahal.good.{tile.good}")
        return Bonus("good", 1, tile.good, Msg("taj_mahal.bonus.good", good=good), f"{tile.good}")
    _check((tile.value or 0) > 0, name, f"{tile.kind} bonus tile needs a positive value")
    v = tile.value or 0
    if tile.kind == "points":
        if tile.name == "taj_mahal":
            label = Msg("taj_mahal.bonus.taj", points=v)
        else:
            label = Msg("taj_mahal.bonus.points", n=v)
        return Bonus("points", v, None, label, f"+{v}")
    return Bonus("card", v, None, Msg("taj_mahal.bonus.card", n=v), f"+{v}card")


@cache
def components() -> Components:
    """Load and validate every data file once (raises DataError naming the file)."""
    st: SetupFile = _load("setup.json", SetupFile)
    _check(st.players == [3, 4, 5], "setup.json", "players must be [3, 4, 5]")
    for n in st.players:
        size = st.display_size.get(str(n))
        _check(size is not None and size >= 1, "setup.json", f"no display size for {n} players")
    _check(
        sorted(st.court_prizes) == sorted(SYMBOLS),
        "setup.json",
        "court_prizes must be the 6 symbols",
    )
    _check(st.visits >= 1 and st.starting_hand >= 0, "setup.json", "visits/starting_hand invalid")
    _check(st.palaces_per_player >= 1, "setup.json", "palaces_per_player must be positive")
    _check(st.influence_tiles_per_kind >= 2, "setup.json", "influence_tiles_per_kind must be ≥ 2")
    _check(st.max_cards_per_turn == 2, "setup.json", "max_cards_per_turn must be 2")
    cf: CardsFile = _load("cards.json", CardsFile)
    sf: SpecialFile = _load("special_cards.json", SpecialFile)
    cards, extra = _build_cards(cf, sf, st)
    m = _build_map(_load("map.json", MapFile), st)

    raw_tiles = read_json(GAME_DIR, "province_tiles.json")
    _check(isinstance(raw_tiles, dict), "province_tiles.json", "must be an object")
    _check(
        sorted(raw_tiles, key=lambda k: int(k) if k.isdigit() else -1)
        == [str(i) for i in range(1, st.visits + 1)],
        "province_tiles.json",
        f"tiles must be numbered 1..{st.visits}",
    )
    tile_goods: dict[int, tuple[str, ...]] = {}
    for k, goods in raw_tiles.items():
        _check(
            isinstance(goods, list) and bool(goods), "province_tiles.json", f"tile {k} has no goods"
        )
        for g in goods:
            _check(g in GOODS, "province_tiles.json", f"tile {k}: unknown good {g!r}")
        _check(len(set(goods)) == len(goods), "province_tiles.json", f"tile {k} repeats a good")
        tile_goods[int(k)] = tuple(goods)

    bname = "bonus_tiles.json"
    bf: BonusFile = _load(bname, BonusFile)
    _check(bf.fixed.city in m["fortresses"], bname, f"fixed city {bf.fixed.city} is not a fortress")
    tiles = [_bonus(bf.fixed.tile, bname)]
    for t in bf.random_15.tiles:
        _check(t.count >= 1, bname, "tile counts must be positive")
        tiles.extend(_bonus(t, bname) for _ in range(t.count))
    others = len(m["fortresses"]) - 1
    _check(
        len(tiles) - 1 == others,
        bname,
        f"{len(tiles) - 1} random tiles for {others} fortresses without a fixed tile "
        "(fortresses are marked in map.json)",
    )
    return Components(
        setup=st,
        colours=tuple(cf.colors),
        colour_letter=extra["letters"],
        cards=tuple(cards),
        deck=tuple(c.id for c in cards if c.kind != "special"),
        specials=extra["specials"],
        special_for_kind={sc.claimed_with: sc.id for sc in sf.cards},
        province_keys=m["keys"],
        province_label=m["labels"],
        agra=m["agra"],
        cities=m["cities"],
        city_province=m["city_prov"],
        province_cities=m["prov_cities"],
        fortresses=m["fortresses"],
        neighbours=m["neighbours"],
        roads=m["roads"],
        tile_goods=tile_goods,
        bonus_tiles=tuple(tiles),
        taj_city=bf.fixed.city,
    )
