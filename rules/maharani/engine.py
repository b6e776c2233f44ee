"""Maharani state and its transitions (setup, placing tiles and workers, end of turn, scoring).

The state is plain JSON data so a match replays from seed + moves:

- ``tiles`` / ``dirs`` / ``workers``: one entry per space (index into board.json's list):
  the tile index (into tiles.json) or None, its arrow direction ("N", "E", "S", "W") or None,
  and the worker on it as ``seat * 2 + worker_colour`` or None.
- ``rondel``: the tile on fields 1..4 (or None); ``bag``: tiles still in the bag (drawn with
  the stored RNG, so the bag's order is not fixed in advance); ``discarded``: surplus
  centre-pillar tiles that left the game.
- ``supply[seat][colour]``: workers off the board; ``markers[seat][quarter]``: True = face up.
- ``phase``: "first" (place a tile or refresh), "worker" (2-player worker choice pending),
  "second" (optional second tile or stop), "over".

Functions here take a state that the caller already copied (see :func:`copy_state`) and
change it in place; ``Game.apply`` stays pure by copying first.
"""

from __future__ import annotations

from typing import Any

from rules.base import Event
from rules.maharani.data import Geometry, geometry
from rules.rng import Rng

State = dict[str, Any]

#: Quarter scoring: gold by number of workers of one colour in the quarter [C S1, S2].
QUARTER_GOLD: tuple[int, ...] = (0, 4, 6, 9, 13, 18, 24)
SECOND_TILE_COST = 2
WORKERS_PER_COLOUR: dict[int, int] = {2: 7, 3: 10, 4: 8}
#: Names of a 2-player seat's two worker colours, as the picture draws them.
WORKER_STYLE: tuple[str, ...] = ("round", "square")
ARROW_GLYPH: dict[str, str] = {"N": "↑", "E": "→", "S": "↓", "W": "←"}
#: The board sides in words, for status lines ("the arrow points to Ann's side, west").
SIDE_WORDS: dict[str, str] = {"N": "north", "E": "east", "S": "south", "W": "west"}


def with_article(word: str) -> str:
    """ "a red", "an orange": the indefinite article English wants before ``word``."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def who(seat: int) -> str:
    """The ``{pN}`` placeholder the application replaces with a display name."""
    return "{p" + str(seat) + "}"


def seat_sides(n: int, two_player_seats: str) -> list[str]:
    g = geometry()
    key = f"2-{two_player_seats}" if n == 2 else str(n)
    return list(g.seat_sides[key])


def new_state(n: int, seed: int, two_player_seats: str) -> tuple[State, list[Event]]:
    """A fresh game: bag of 60 tiles, rondel filled 1..4, random start player."""
    g = geometry()
    rng = Rng.from_seed(seed, "maharani")
    colours = 2 if n == 2 else 1
    start = rng.below(n)
    st: State = {
        "n": n,
        "sides": seat_sides(n, two_player_seats),
        "colours": colours,
        "rng": 0,
        "bag": list(range(len(g.tile_ids))),
        "rondel": [None, None, None, None],
        "tiles": [None] * len(g.rows),
        "dirs": [None] * len(g.rows),
        "workers": [None] * len(g.rows),
        "supply": [[WORKERS_PER_COLOUR[n]] * colours for _ in range(n)],
        "gold": [0] * n,
        "markers": [[True] * 4 for _ in range(n)],
        "scored": [False] * 4,
        "discarded": [],
        "turn": start,
        "turn_no": 1,
        "phase": "first",
        "placed": 0,
        "pending": None,
        "recent": [],
        "end": None,
    }
    events: list[Event] = []
    _refill(st, rng, events)
    st["rng"] = rng.state
    events.append(Event("start", f"{who(start)} starts; the rondel points at them."))
    return st, events


def copy_state(st: State) -> State:
    """A copy deep enough that changing it never touches ``st`` (all values are flat lists
    or lists of flat lists, plus ``pending`` which is replaced, never edited)."""
    out = dict(st)
    for key in ("bag", "rondel", "tiles", "dirs", "workers", "gold", "scored", "discarded"):
        out[key] = list(st[key])
    out["recent"] = list(st["recent"])
    out["supply"] = [list(x) for x in st["supply"]]
    out["markers"] = [list(x) for x in st["markers"]]
    return out


def active_side(st: State) -> str:
    """Where the rondel's arrow points: at the player on turn (turned at the turn's start)."""
    return st["sides"][st["turn"]]


def field_quarter(st: State, field: int) -> int:
    return geometry().field_quarter(field, active_side(st))


def empty_count(st: State, q: int) -> int:
    tiles = st["tiles"]
    return sum(1 for s in geometry().quarter_spaces[q] if tiles[s] is None)


def group_size(g: Geometry, start: int, values: list[Any], value: Any) -> int:
    """Size of the orthogonally connected group of spaces holding ``value`` around ``start``
    (across quarter borders: the rules' "special case")."""
    seen = {start}
    stack = [start]
    nb = g.neighbours
    while stack:
        s = stack.pop()
        for t in nb[s]:
            if t not in seen and values[t] == value:
                seen.add(t)
                stack.append(t)
    return len(seen)


def tile_group_size(st: State, space: int) -> int:
    """Size of the same-colour tile area around ``space`` (colours looked up only for the
    spaces the search reaches: this runs on every placement)."""
    g = geometry()
    colour_of = g.tile_colour_idx
    tiles = st["tiles"]
    colour = colour_of[tiles[space]]
    seen = {space}
    stack = [space]
    nb = g.neighbours
    while stack:
        s = stack.pop()
        for t in nb[s]:
            if t not in seen:
                tile = tiles[t]
                if tile is not None and colour_of[tile] == colour:
                    seen.add(t)
                    stack.append(t)
    return len(seen)


def fits_anywhere(st: State, tile: int) -> bool:
    tiles = st["tiles"]
    return any(tiles[s] is None for s, _ in geometry().fits[tile])


def any_centre_space_empty(st: State) -> bool:
    tiles = st["tiles"]
    return any(tiles[s] is None for s in geometry().centre_spaces)


def _refill(st: State, rng: Rng, events: list[Event]) -> None:
    """Fill empty rondel fields from the bag in ascending field order. Once every
    centre-pillar space is taken, centre-pillar tiles drawn are set aside and drawing goes on."""
    g = geometry()
    drawn: list[str] = []
    removed: list[str] = []
    centre_open = any_centre_space_empty(st)
    for f in range(4):
        while st["rondel"][f] is None and st["bag"]:
            tile = st["bag"].pop(rng.below(len(st["bag"])))
            if g.tile_type[tile] == "C" and not centre_open:
                st["discarded"].append(tile)
                removed.append(g.tile_ids[tile])
                continue
            st["rondel"][f] = tile
            drawn.append(f"{f + 1}: {g.tile_colour[tile]}")
    if drawn or removed:
        text = "Rondel refilled (" + ", ".join(drawn) + ")" if drawn else "Nothing to draw"
        if removed:
            text += f"; {len(removed)} surplus centre-pillar tile(s) drawn and set aside"
        events.append(
            Event(
                "refill",
                text + ".",
                data={
                    "rondel": [None if t is None else g.tile_ids[t] for t in st["rondel"]],
                    "set_aside": removed,
                    "bag": len(st["bag"]),
                },
                reveals=True,
            )
        )


def _remove_surplus_centre(st: State, events: list[Event]) -> None:
    """When the last centre-pillar space is filled, centre-pillar tiles on the rondel leave
    the game at once (so they cannot be the second tile of this turn)."""
    if any_centre_space_empty(st):
        return
    g = geometry()
    gone = []
    ids = []
    for f, t in enumerate(st["rondel"]):
        if t is not None and g.tile_type[t] == "C":
            st["rondel"][f] = None
            st["discarded"].append(t)
            gone.append(f"{g.tile_colour[t]} on field {f + 1}")
            ids.append(g.tile_ids[t])
    if gone:
        events.append(
            Event(
                "surplus",
                "All centre-pillar spaces are filled: removed " + ", ".join(gone) + ".",
                data={"removed": gone, "tiles": ids},
            )
        )


Placement = tuple[int, int, int, int, str, bool]


def placements(st: State, seat: int) -> list[Placement]:
    """Every legal tile placement for ``seat`` now, as
    ``(field, tile, source quarter, space, arrow, uses_marker)``.

    A rondel tile goes free into the quarter its field lies over; into another quarter only
    while the seat's marker of the *source* quarter is face up (it is then flipped).
    """
    g = geometry()
    tiles = st["tiles"]
    markers = st["markers"][seat]
    arrow = active_side(st)
    sq = g.space_quarter
    out: list[Placement] = []
    for f in range(1, 5):
        tile = st["rondel"][f - 1]
        if tile is None:
            continue
        src = g.field_quarter(f, arrow)
        free_anywhere = markers[src]
        for s, dirs in g.fits[tile]:
            if tiles[s] is not None:
                continue
            marker = sq[s] != src
            if marker and not free_anywhere:
                continue
            for d in dirs:
                out.append((f, tile, src, s, d, marker))
    return out


def placement_ok(st: State, seat: int, field: int, space: int, d: str) -> bool:
    """Whether putting rondel field ``field``'s tile on ``space`` with arrow ``d`` is legal."""
    g = geometry()
    tile = st["rondel"][field - 1]
    if tile is None or st["tiles"][space] is not None or d not in g.arrow_dirs(tile, space):
        return False
    src = g.field_quarter(field, active_side(st))
    return g.space_quarter[space] == src or st["markers"][seat][src]


def has_placement(st: State, seat: int) -> bool:
    g = geometry()
    tiles = st["tiles"]
    markers = st["markers"][seat]
    arrow = active_side(st)
    for f in range(1, 5):
        tile = st["rondel"][f - 1]
        if tile is None:
            continue
        src = g.field_quarter(f, arrow)
        for s, _ in g.fits[tile]:
            if tiles[s] is None and (markers[src] or g.space_quarter[s] == src):
                return True
    return False


def place_tile(st: State, seat: int, field: int, space: int, d: str, events: list[Event]) -> None:
    """Place the tile of rondel ``field`` on ``space`` with its arrow to ``d`` (legality was
    checked by the caller), collect tile gold, then the worker if the arrow points at you."""
    g = geometry()
    tile = st["rondel"][field - 1]
    src = field_quarter(st, field)
    tgt = g.space_quarter[space]
    st["rondel"][field - 1] = None
    if src != tgt:
        st["markers"][seat][src] = False
    st["tiles"][space] = tile
    st["dirs"][space] = d
    st["recent"] = [space] if st["placed"] == 0 else [*st["recent"], space]
    st["placed"] += 1
    gold = tile_group_size(st, space)
    st["gold"][seat] += gold
    colour = g.tile_colour[tile]
    text = (
        f"{who(seat)} places {with_article(colour)} tile from the {g.animals[src]} field on "
        f"{g.space_names[space]} ({g.animals[tgt]} quarter), arrow {ARROW_GLYPH[d]} {d}"
    )
    if src != tgt:
        text += f", turning their {g.animals[src]} marker face down"
    text += f": +{gold} gold" + (f" (area of {gold})" if gold > 1 else "") + "."
    events.append(
        Event(
            "tile",
            text,
            data={
                "tile": g.tile_ids[tile],
                "colour": colour,
                "field": field,
                "space": g.space_names[space],
                "arrow": d,
                "gold": gold,
                "marker": g.animals[src] if src != tgt else None,
            },
        )
    )
    _remove_surplus_centre(st, events)
    if d == active_side(st):
        options = worker_options(st, seat, space)
        if not options:
            events.append(
                Event("worker", f"The arrow points at {who(seat)}, but they have no worker left.")
            )
        elif len(options) == 1:
            place_worker(st, seat, space, options[0], events)
        else:
            st["phase"] = "worker"
            st["pending"] = {"space": space, "options": options}
            return
    continue_turn(st, events)


def worker_options(st: State, seat: int, space: int) -> list[list[Any]]:
    """What may happen to a worker for a tile whose arrow points at ``seat``:
    ``["new", colour]`` or ``["move", colour, from_space]``. One worker per worker colour
    per tile colour per quarter: an existing one moves, else a new one comes from supply."""
    g = geometry()
    q = g.space_quarter[space]
    colour = g.tile_colour_idx[st["tiles"][space]]
    existing: dict[int, int] = {}
    workers, tiles = st["workers"], st["tiles"]
    for s in g.quarter_spaces[q]:
        w = workers[s]
        if w is not None and w // 2 == seat and g.tile_colour_idx[tiles[s]] == colour:
            existing[w % 2] = s
    supply = st["supply"][seat]
    if st["colours"] == 1:
        if 0 in existing:
            return [["move", 0, existing[0]]]
        return [["new", 0]] if supply[0] > 0 else []
    # two-player variant: a real choice between colours / moving and placing new
    moves = [["move", c, existing[c]] for c in (0, 1) if c in existing]
    news = [["new", c] for c in (0, 1) if c not in existing and supply[c] > 0]
    return moves + news


def place_worker(st: State, seat: int, space: int, option: list[Any], events: list[Event]) -> None:
    g = geometry()
    colour = option[1]
    code = seat * 2 + colour
    style = f" {WORKER_STYLE[colour]}" if st["colours"] == 2 else ""
    if option[0] == "move":
        st["workers"][option[2]] = None
        what = f"moves their{style} worker from {g.space_names[option[2]]} to"
    else:
        st["supply"][seat][colour] -= 1
        what = f"places a new{style} worker on"
    st["workers"][space] = code
    gold = group_size(g, space, st["workers"], code)
    st["gold"][seat] += gold
    events.append(
        Event(
            "worker",
            f"{who(seat)} {what} {g.space_names[space]}: +{gold} gold"
            + (f" (group of {gold})." if gold > 1 else "."),
            data={"space": g.space_names[space], "worker_colour": colour, "gold": gold},
        )
    )


def continue_turn(st: State, events: list[Event]) -> None:
    """After a tile (and its worker): offer the second tile if one can go anywhere legal,
    else end the turn."""
    st["phase"] = "first"
    st["pending"] = None
    if st["placed"] == 1 and has_placement(st, st["turn"]):
        st["phase"] = "second"
        return
    end_turn(st, events)


def refresh(st: State, seat: int, events: list[Event]) -> None:
    down = sum(1 for m in st["markers"][seat] if not m)
    st["markers"][seat] = [True] * 4
    st["recent"] = []
    events.append(
        Event(
            "refresh",
            f"{who(seat)} refreshes their action markers ({down} turned face up).",
            data={"turned_up": down},
        )
    )
    end_turn(st, events)


def score_quarter(st: State, q: int, events: list[Event], *, unfinished: bool = False) -> None:
    """Gold by workers per worker colour in quarter ``q``; the workers go home."""
    g = geometry()
    counts: dict[int, int] = {}
    for s in g.quarter_spaces[q]:
        w = st["workers"][s]
        if w is not None:
            counts[w] = counts.get(w, 0) + 1
            st["workers"][s] = None
            st["supply"][w // 2][w % 2] += 1
    parts = []
    results = []
    for seat in range(st["n"]):
        for c in range(st["colours"]):
            k = counts.get(seat * 2 + c, 0)
            gold = QUARTER_GOLD[min(k, len(QUARTER_GOLD) - 1)]
            st["gold"][seat] += gold
            results.append({"seat": seat, "worker_colour": c, "workers": k, "gold": gold})
            style = f" {WORKER_STYLE[c]}" if st["colours"] == 2 else ""
            parts.append(f"{who(seat)}{style} {k} → {gold}")
    st["scored"][q] = True
    events.append(
        Event(
            "score",
            f"{g.animals[q].capitalize()} quarter scored{' unfinished' if unfinished else ''}: "
            + ", ".join(parts)
            + ".",
            data={"quarter": q + 1, "animal": g.animals[q], "results": results},
        )
    )


def stalled(st: State) -> bool:
    """[R] Stall test at the start of a turn: no rondel tile fits any empty space at all
    (markers ignored, since a refresh could free them)."""
    return not any(t is not None and fits_anywhere(st, t) for t in st["rondel"])


def end_turn(st: State, events: list[Event]) -> None:
    """Pay for a second tile, refill the rondel, score completed quarters, pass the turn."""
    seat = st["turn"]
    if st["placed"] == 2:
        st["gold"][seat] -= SECOND_TILE_COST
        events.append(Event("pay", f"{who(seat)} pays 2 gold for the second tile."))
    rng = Rng(st["rng"])
    _refill(st, rng, events)
    st["rng"] = rng.state
    tiles = st["tiles"]
    for q, spaces in enumerate(geometry().quarter_spaces):
        if not st["scored"][q] and all(tiles[s] is not None for s in spaces):
            score_quarter(st, q, events)
    st["phase"] = "first"
    st["placed"] = 0
    st["pending"] = None
    if all(st["scored"]):
        _finish(st, "complete", events)
        return
    st["turn"] = (seat + 1) % st["n"]
    st["turn_no"] += 1
    if stalled(st):
        events.append(
            Event(
                "stall",
                "No tile on the rondel fits any empty space: the game stops and the "
                "unfinished quarters are scored.",
            )
        )
        for q in range(4):
            if not st["scored"][q]:
                score_quarter(st, q, events, unfinished=True)
        _finish(st, "stall", events)


def _finish(st: State, reason: str, events: list[Event]) -> None:
    st["phase"] = "over"
    st["end"] = reason
    best = max(st["gold"])
    winners = [s for s, gold in enumerate(st["gold"]) if gold == best]
    names = " and ".join(who(s) for s in winners)
    verb = "share the victory" if len(winners) > 1 else "wins"
    text = f"Game over: {names} {verb} with {best} gold."
    events.append(Event("end", text, data={"end": reason}))
