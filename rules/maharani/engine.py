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
change it in place; ``Game.apply`` stays pure by copying first. Their ``events`` list
receives what happened in words; ``None`` (``Maharani.next_state``: random playouts and the
search) changes the state exactly the same way and builds no words.
"""

from __future__ import annotations

from typing import Any

from rules.base import Event
from rules.maharani import tally
from rules.maharani.data import Geometry, geometry
from rules.maharani.words import a_tile, animal, colour, gold, quarter_name
from rules.rng import Rng
from rules.words import Join, Msg, Seat

State = dict[str, Any]

#: Quarter scoring: gold by number of workers of one colour in the quarter [C S1, S2].
QUARTER_GOLD: tuple[int, ...] = (0, 4, 6, 9, 13, 18, 24)
SECOND_TILE_COST = 2
WORKERS_PER_COLOUR: dict[int, int] = {2: 7, 3: 10, 4: 8}
#: Names of a 2-player seat's two worker colours, as the picture draws them (● and ■).
WORKER_STYLE: tuple[Msg, ...] = (Msg("maharani.worker.round"), Msg("maharani.worker.square"))
ARROW_GLYPH: dict[str, str] = {"N": "↑", "E": "→", "S": "↓", "W": "←"}
#: The board sides in words, for status lines ("the arrow points to Ann's side, west").
SIDE_WORDS: dict[str, Msg] = {d: Msg(f"maharani.side.{d}") for d in "NESW"}


def who(seat: int) -> Seat:
    """The seat in words (English value: the ``{pN}`` placeholder the application fills)."""
    return Seat(seat)


def seat_sides(n: int, two_player_seats: str) -> list[str]:
    g = geometry()
    key = f"2-{two_player_seats}" if n == 2 else str(n)
    return list(g.seat_sides[key])


def new_state(
    n: int, seed: int, two_player_seats: str, refresh_as_pass: bool = False
) -> tuple[State, list[Event]]:
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
        "refresh_as_pass": refresh_as_pass,
        **tally.fresh(n),
    }
    events: list[Event] = []
    _refill(st, rng, events)
    st["rng"] = rng.state
    events.append(Event("start", Msg("maharani.ev.start", who=who(start))))
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
    tally.copy(st, out)
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
    # a loop, not any(): no generator per call (this runs at every turn's end)
    for s, _ in geometry().fits[tile]:  # noqa: SIM110
        if tiles[s] is None:
            return True
    return False


def any_centre_space_empty(st: State) -> bool:
    tiles = st["tiles"]
    # a loop, not any(): no generator per call (this runs at every placement)
    for s in geometry().centre_spaces:  # noqa: SIM110
        if tiles[s] is None:
            return True
    return False


def _refill(st: State, rng: Rng, events: list[Event] | None) -> None:
    """Fill empty rondel fields from the bag in ascending field order. Once every
    centre-pillar space is taken, centre-pillar tiles drawn are set aside and drawing goes on.
    ``events=None``: nobody reads the words (see ``Maharani.next_state``), so none are built."""
    g = geometry()
    drawn: list[Msg] = []
    removed: list[str] = []
    centre_open = any_centre_space_empty(st)
    rondel, bag = st["rondel"], st["bag"]
    for f in range(4):
        while rondel[f] is None and bag:
            tile = bag.pop(rng.below(len(bag)))
            if g.tile_type[tile] == "C" and not centre_open:
                st["discarded"].append(tile)
                removed.append(g.tile_ids[tile])
                continue
            rondel[f] = tile
            if events is not None:
                drawn.append(
                    Msg("maharani.ev.drawn", field=f + 1, colour=colour(g.tile_colour[tile]))
                )
    if events is not None and (drawn or removed):
        aside = Msg("maharani.ev.set_aside", n=len(removed)) if removed else ""
        text = (
            Msg("maharani.ev.refill", drawn=Join("words.comma", drawn), aside=aside)
            if drawn
            else Msg("maharani.ev.refill_none", aside=aside)
        )
        events.append(
            Event(
                "refill",
                text,
                data={
                    "rondel": [None if t is None else g.tile_ids[t] for t in st["rondel"]],
                    "set_aside": removed,
                    "bag": len(st["bag"]),
                },
                reveals=True,
            )
        )


def _remove_surplus_centre(st: State, events: list[Event] | None) -> None:
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
            if events is None:
                continue
            gone.append(Msg("maharani.ev.removed", colour=colour(g.tile_colour[t]), field=f + 1))
            ids.append(g.tile_ids[t])
    if events is not None and gone:
        events.append(
            Event(
                "surplus",
                Msg("maharani.ev.surplus", removed=Join("words.comma", gone)),
                data={"removed": [str(x) for x in gone], "tiles": ids},
            )
        )


Placement = tuple[int, int, int, int, str, bool]


def placements(st: State, seat: int) -> list[Placement]:
    """Every legal tile placement for ``seat`` now, as
    ``(field, tile, source quarter, space, arrow, uses_marker)``.

    A rondel tile goes free into the quarter its field lies over; into another quarter only
    while the seat's marker of the *source* quarter is face up (it is then flipped).
    """
    sq = geometry().space_quarter
    return [
        (f, tile, src, s, d, sq[s] != src)
        for f, tile, src, fits in open_fits(st, seat)
        for s, dirs in fits
        for d in dirs
    ]


def open_fits(
    st: State, seat: int
) -> list[tuple[int, int, int, list[tuple[int, tuple[str, ...]]]]]:
    """:func:`placements` grouped by rondel field, without a tuple per arrow:
    ``(field, tile, source quarter, [(space, arrows), ...])`` in the same order (field,
    space, arrow), so the n-th placement is the same in both. A random move draws from
    these counts (see ``moves.random_move``) instead of listing every placement."""
    g = geometry()
    tiles = st["tiles"]
    markers = st["markers"][seat]
    arrow = active_side(st)
    sq = g.space_quarter
    out = []
    for f in range(1, 5):
        tile = st["rondel"][f - 1]
        if tile is None:
            continue
        src = g.field_quarter(f, arrow)
        if markers[src]:
            fits = [x for x in g.fits[tile] if tiles[x[0]] is None]
        else:
            fits = [x for x in g.fits[tile] if tiles[x[0]] is None and sq[x[0]] == src]
        out.append((f, tile, src, fits))
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


def place_tile(
    st: State, seat: int, field: int, space: int, d: str, events: list[Event] | None
) -> None:
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
    won = tile_group_size(st, space)
    st["gold"][seat] += won
    tally.add(st, seat, tally.TILES, won)
    if events is not None:
        _tile_event(g, seat, field, tile, src, tgt, space, d, won, events)
    _remove_surplus_centre(st, events)
    if d == active_side(st):
        options = worker_options(st, seat, space)
        if not options:
            if events is not None:
                events.append(Event("worker", Msg("maharani.ev.no_worker", who=who(seat))))
        elif len(options) == 1:
            place_worker(st, seat, space, options[0], events)
        else:
            st["phase"] = "worker"
            st["pending"] = {"space": space, "options": options}
            return
    continue_turn(st, events)


def _tile_event(
    g: Geometry,
    seat: int,
    field: int,
    tile: int,
    src: int,
    tgt: int,
    space: int,
    d: str,
    won: int,
    events: list[Event],
) -> None:
    """The event of a tile placed (``place_tile``'s words)."""
    tile_colour = g.tile_colour[tile]
    text = Msg(
        "maharani.ev.tile",
        who=who(seat),
        tile=a_tile(tile_colour),
        src=animal(g.animals[src]),
        space=g.space_names[space],
        tgt=animal(g.animals[tgt]),
        glyph=ARROW_GLYPH[d],
        side=d,
        marker=Msg("maharani.ev.tile_marker", animal=animal(g.animals[src])) if src != tgt else "",
        gold=gold(won),
        area=Msg("maharani.ev.area", n=won) if won > 1 else "",
    )
    events.append(
        Event(
            "tile",
            text,
            data={
                "tile": g.tile_ids[tile],
                "colour": tile_colour,
                "field": field,
                "space": g.space_names[space],
                "arrow": d,
                "gold": won,
                "marker": g.animals[src] if src != tgt else None,
            },
        )
    )


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


def place_worker(
    st: State, seat: int, space: int, option: list[Any], events: list[Event] | None
) -> None:
    g = geometry()
    wc = option[1]
    code = seat * 2 + wc
    if option[0] == "move":
        st["workers"][option[2]] = None
    else:
        st["supply"][seat][wc] -= 1
    st["workers"][space] = code
    won = group_size(g, space, st["workers"], code)
    st["gold"][seat] += won
    tally.add(st, seat, tally.WORKERS, won)
    if events is None:
        return
    style = Msg("maharani.ev.worker_style", style=WORKER_STYLE[wc]) if st["colours"] == 2 else ""
    words = {
        "who": who(seat),
        "style": style,
        "space": g.space_names[space],
        "gold": gold(won),
        "group": Msg("maharani.ev.group", n=won) if won > 1 else "",
    }
    text = (
        Msg("maharani.ev.worker_move", origin=g.space_names[option[2]], **words)
        if option[0] == "move"
        else Msg("maharani.ev.worker_new", **words)
    )
    events.append(
        Event(
            "worker",
            text,
            data={"space": g.space_names[space], "worker_colour": wc, "gold": won},
        )
    )


def continue_turn(st: State, events: list[Event] | None) -> None:
    """After a tile (and its worker): offer the second tile if one can go anywhere legal,
    else end the turn."""
    st["phase"] = "first"
    st["pending"] = None
    if st["placed"] == 1 and has_placement(st, st["turn"]):
        st["phase"] = "second"
        return
    end_turn(st, events)


def may_refresh(st: State, seat: int) -> bool:
    """Whether ``seat`` may refresh now: only with a face-down marker to turn up, unless
    the match was made with the house rule ``refresh_as_pass`` (every match stored before
    this rule, whose state has no such key: see the package docstring)."""
    return st.get("refresh_as_pass", True) or not all(st["markers"][seat])


def refresh(st: State, seat: int, events: list[Event] | None) -> None:
    down = sum(1 for m in st["markers"][seat] if not m)
    st["markers"][seat] = [True] * 4
    st["recent"] = []
    if events is not None:
        events.append(
            Event(
                "refresh",
                Msg("maharani.ev.refresh", who=who(seat), n=down),
                data={"turned_up": down},
            )
        )
    end_turn(st, events)


def score_quarter(
    st: State, q: int, events: list[Event] | None, *, unfinished: bool = False
) -> None:
    """Gold by workers per worker colour in quarter ``q``; the workers go home."""
    g = geometry()
    counts: dict[int, int] = {}
    for s in g.quarter_spaces[q]:
        w = st["workers"][s]
        if w is not None:
            counts[w] = counts.get(w, 0) + 1
            st["workers"][s] = None
            st["supply"][w // 2][w % 2] += 1
    parts: list[Msg] = []
    results = []
    for seat in range(st["n"]):
        for c in range(st["colours"]):
            k = counts.get(seat * 2 + c, 0)
            won = QUARTER_GOLD[min(k, len(QUARTER_GOLD) - 1)]
            st["gold"][seat] += won
            if events is None:
                continue
            results.append({"seat": seat, "worker_colour": c, "workers": k, "gold": won})
            style = (
                Msg("maharani.ev.score_style", style=WORKER_STYLE[c]) if st["colours"] == 2 else ""
            )
            parts.append(
                Msg("maharani.ev.score_result", who=who(seat), style=style, workers=k, gold=won)
            )
    st["scored"][q] = True
    workers = [
        [counts.get(seat * 2 + c, 0) for c in range(st["colours"])] for seat in range(st["n"])
    ]
    tally.quarter(st, q, workers)
    if events is None:
        return
    events.append(
        Event(
            "score",
            Msg(
                "maharani.ev.score",
                quarter=quarter_name(g.animals[q]),
                unfinished=Msg("maharani.ev.score_unfinished") if unfinished else "",
                results=Join("words.comma", parts),
            ),
            data={"quarter": q + 1, "animal": g.animals[q], "results": results},
        )
    )


def stalled(st: State) -> bool:
    """[R] Stall test at the start of a turn: no rondel tile fits any empty space at all
    (markers ignored, since a refresh could free them)."""
    return not any(t is not None and fits_anywhere(st, t) for t in st["rondel"])


def _full(tiles: list[int | None], spaces: tuple[int, ...]) -> bool:
    """Whether every one of ``spaces`` holds a tile (a loop, not ``all()``: no generator per
    call; this runs for every quarter at every turn's end)."""
    for s in spaces:  # noqa: SIM110
        if tiles[s] is None:
            return False
    return True


def end_turn(st: State, events: list[Event] | None) -> None:
    """Pay for a second tile, refill the rondel, score completed quarters, pass the turn."""
    seat = st["turn"]
    if st["placed"] == 2:
        st["gold"][seat] -= SECOND_TILE_COST
        tally.add(st, seat, tally.PAID, SECOND_TILE_COST)
        if events is not None:
            text = Msg("maharani.ev.pay", who=who(seat), gold=gold(SECOND_TILE_COST))
            events.append(Event("pay", text, data={"gold": SECOND_TILE_COST}))
    rng = Rng(st["rng"])
    _refill(st, rng, events)
    st["rng"] = rng.state
    tiles = st["tiles"]
    for q, spaces in enumerate(geometry().quarter_spaces):
        if not st["scored"][q] and _full(tiles, spaces):
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
        if events is not None:
            events.append(Event("stall", Msg("maharani.ev.stall")))
        for q in range(4):
            if not st["scored"][q]:
                score_quarter(st, q, events, unfinished=True)
        _finish(st, "stall", events)


def _finish(st: State, reason: str, events: list[Event] | None) -> None:
    st["phase"] = "over"
    st["end"] = reason
    if events is None:
        return
    best = max(st["gold"])
    winners = [s for s, gold in enumerate(st["gold"]) if gold == best]
    names = Join("words.and", [who(s) for s in winners])
    key = "maharani.ev.end_shared" if len(winners) > 1 else "maharani.ev.end_win"
    text = Msg(key, who=names, gold=gold(best))
    events.append(Event("end", text, data={"end": reason}))
