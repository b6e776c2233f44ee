"""Round flow between decisions: wall tiling, floor penalties, the next round's factories,
the end of the game and its result.

These functions work on a state ``s`` that the caller has already copied (see
:func:`own_players`), so ``Azul.apply`` stays pure while the round-end bookkeeping mutates
freely. Events are appended to the caller's list; ``events=None`` (``Azul.next_state``,
for random playouts and the search) means nobody reads them, so none are built and the
state changes exactly the same.
"""

from __future__ import annotations

from functools import lru_cache
from operator import add

from rules.azul.board import (
    COLOURS,
    FLOOR_SPACES,
    FLOOR_TOTAL,
    MARKER,
    PILE_COUNTS,
    TILES_PER_FACTORY,
    any_row_can_be_completed,
    complete_rows,
    draw_tiles,
    end_bonus,
    legal_grey_columns,
    placement_points,
)
from rules.azul.last_turn import WALLS, add_floor, add_wall, settle
from rules.azul.words import COLOUR_WORDS
from rules.base import Event, Outcome, State, rank_by
from rules.rng import Rng
from rules.words import Join, Msg, Seat

OFFER, TILING, OVER = "offer", "tiling", "over"


def tiles_text(counts: list[int]) -> Msg | Join:
    """What a pile holds in words: "2 red, 1 black" (or "nothing")."""
    parts = [Msg("azul.tiles", n=n, colour=COLOUR_WORDS[k]) for k, n in enumerate(counts) if n]
    return Join("words.comma", parts) if parts else Msg("azul.nothing")


@lru_cache(maxsize=4096)
def _tile_wall_words(p: int, placed: tuple[tuple[int, int, int], ...]) -> Msg:
    """ "{p0} tiles the wall: line 1 blue +1, ...": ``placed`` holds (line, colour, points).
    Cached, like the other frequent event words: messages are immutable."""
    words = Join(
        "words.comma",
        [
            Msg("azul.ev.placed", line=line, colour=COLOUR_WORDS[k], points=points)
            for line, k, points in placed
        ],
    )
    return Msg("azul.ev.tile_wall", who=Seat(p), placed=words)


@lru_cache(maxsize=1024)
def _floor_words(p: int, penalty: int, lost: int) -> Msg:
    """The floor penalty; ``lost`` >= 0 when the score stopped at 0 (it lost only that)."""
    clamp = Msg("azul.ev.floor_clamp", lost=lost) if lost >= 0 else ""
    return Msg("azul.ev.floor", who=Seat(p), penalty=penalty, clamp=clamp)


def tile_event(seat: int, line: int, colour: int, column: int, points: int, forced: bool) -> Event:
    """Grey wall: the tile of ``seat``'s full pattern ``line`` went to ``column`` (0-based),
    chosen by the player, or ``forced`` when it was the only legal column. One helper for
    both, so their words and data keep the same shape (``forced`` only adds the flag)."""
    said = {
        "who": Seat(seat),
        "line": line + 1,
        "colour": COLOUR_WORDS[colour],
        "column": column + 1,
        "points": points,
    }
    data: dict[str, object] = {
        "seat": seat,
        "line": line + 1,
        "colour": COLOURS[colour],
        "column": column + 1,
        "points": points,
    }
    if forced:
        data["forced"] = True
    key = "azul.ev.tile_forced" if forced else "azul.ev.tile_column"
    return Event("tile", Msg(key, **said), data)


#: ``state["tally"][seat]``: where the seat's points came from so far, as the rules score
#: them: [wall placement points, floor points lost, floor penalty the score could not pay
#: (it never drops below 0)]. The end bonuses are ``state["bonus"]``. Kept so the final
#: picture can show the arithmetic; ``None`` in a state saved before it was kept.
WALL_POINTS, FLOOR_LOST, FLOOR_SPARED = range(3)


def new_tally(players: int) -> list[list[int]]:
    return [[0, 0, 0] for _ in range(players)]


def own_players(s: State) -> None:
    """Give ``s`` its own copies of every per-player list (before a whole-table update)."""
    for key in ("lc", "ln", "wall", "rows", "floor"):
        s[key] = list(map(list, s[key]))
    s["score"] = list(s["score"])
    s["lid"] = list(s["lid"])
    tally = s.get("tally")
    s["tally"] = None if tally is None else list(map(list, tally))


def _add_wall_points(s: State, p: int, points: int) -> None:
    tally = s["tally"]
    if tally is not None:
        tally[p][WALL_POINTS] += points


def end_offer(s: State, events: list[Event] | None) -> None:
    """The table is empty: tile the walls (or ask grey-wall players), then go on."""
    own_players(s)
    s["turn"] = -1
    if s["grey"]:
        s["phase"] = TILING
        s["tnext"] = [0] * s["players"]
        for p in range(s["players"]):
            advance(s, p, events)
        if all(t >= 5 for t in s["tnext"]):
            after_tiling(s, events)
        settle(s)
        return
    lid, score, tally = s["lid"], s["score"], s["tally"]
    walls = s["last"][WALLS]  # the take that ended the offer wrote it: it is s's own
    seats = zip(s["lc"], s["ln"], s["wall"], s["rows"], strict=True)
    for p, (lc, ln, wall, rows) in enumerate(seats):
        tiled = []
        for i, c in enumerate(ln):
            if c == i + 1:
                # place(), written out: this runs for every full line of every round
                k = lc[i]
                col = (k + i) % 5  # printed_column(i, k)
                wall[i * 5 + col] = k
                rows[i] |= 1 << k
                lid[k] += i
                ln[i] = 0
                lc[i] = -1
                pts = placement_points(wall, i, col)
                score[p] += pts
                if tally is not None:
                    tally[p][WALL_POINTS] += pts
                walls.append([p, i, col, pts])
                if events is not None:
                    tiled.append((i + 1, k, col + 1, pts))
        if tiled and events is not None:
            placed = [
                {"line": line, "colour": COLOURS[k], "column": col, "points": pts}
                for line, k, col, pts in tiled
            ]
            events.append(
                Event(
                    "tile",
                    _tile_wall_words(p, tuple((line, k, pts) for line, k, _, pts in tiled)),
                    {"seat": p, "placed": placed, "points": sum(t[3] for t in tiled)},
                )
            )
    after_tiling(s, events)
    settle(s)


def place(s: State, p: int, line: int, col: int) -> int:
    """Move the tile of full ``line`` to the wall at ``col``, the rest to the lid; score.
    ``s``'s per-player lists must already be its own."""
    k = s["lc"][p][line]
    wall = s["wall"][p]
    wall[line * 5 + col] = k
    s["rows"][p][line] |= 1 << k
    s["lid"][k] += line
    s["ln"][p][line] = 0
    s["lc"][p][line] = -1
    pts = placement_points(wall, line, col)
    s["score"][p] += pts
    _add_wall_points(s, p, pts)
    add_wall(s, p, line, col, pts)
    return pts


def advance(s: State, p: int, events: list[Event] | None) -> None:
    """Grey wall: walk ``p``'s lines from ``tnext`` down, settling every line that needs
    no choice, and stop at the first line with two or more legal columns."""
    i = s["tnext"][p]
    while i < 5:
        if s["ln"][p][i] == i + 1:
            k = s["lc"][p][i]
            cols = legal_grey_columns(s["wall"][p], i, k)
            if len(cols) >= 2:
                break
            if cols:
                pts = place(s, p, i, cols[0])
                if events is not None:
                    events.append(tile_event(p, i, k, cols[0], pts, forced=True))
            else:
                floor = s["floor"][p]
                room = FLOOR_SPACES - len(floor)
                on_floor = min(room, i + 1)
                add_floor(s, p, len(floor), len(floor) + on_floor)
                floor.extend([k] * on_floor)
                s["lid"][k] += i + 1 - on_floor
                s["ln"][p][i] = 0
                s["lc"][p][i] = -1
                if events is not None:
                    events.append(
                        Event(
                            "no_column",
                            Msg(
                                "azul.ev.no_column",
                                who=Seat(p),
                                line=i + 1,
                                colour=COLOUR_WORDS[k],
                                n=i + 1,
                            ),
                            {
                                "seat": p,
                                "line": i + 1,
                                "colour": COLOURS[k],
                                "floor": on_floor,
                                "lid": i + 1 - on_floor,
                            },
                        )
                    )
        i += 1
    s["tnext"][p] = i


def after_tiling(s: State, events: list[Event] | None) -> None:
    """Floor penalties, then the end check or the next round's factories."""
    lid, score, floors, tally = s["lid"], s["score"], s["floor"], s["tally"]
    for p, floor in enumerate(floors):
        if not floor:
            continue
        penalty = FLOOR_TOTAL[len(floor)]
        before = score[p]
        score[p] = before - penalty if before > penalty else 0
        if tally is not None:
            tally[p][FLOOR_LOST] += before - score[p]
            tally[p][FLOOR_SPARED] += penalty - (before - score[p])
        for k in floor:
            if k != MARKER:
                lid[k] += 1
        if events is not None:
            events.append(
                Event(
                    "floor",
                    _floor_words(p, penalty, -1 if before >= penalty else before),
                    {
                        "seat": p,
                        "items": len(floor),
                        "penalty": penalty,
                        "lost": before - score[p],
                    },
                )
            )
        floors[p] = []
    s["phase"] = OFFER
    s["tnext"] = None
    for rows in s["rows"]:
        if 31 in rows:  # a wall row holds all five colours
            finish(s, events, "row")
            return
    if sum(s["bag"]) + sum(lid) == 0:
        if events is not None:
            events.append(
                Event(
                    "no_tiles",
                    Msg("azul.ev.no_tiles"),
                    {"round": s["round"]},
                )
            )
        finish(s, events, "no_tiles")
        return
    supply = list(map(add, s["bag"], lid))
    if not any_row_can_be_completed(s["wall"], s["lc"], s["ln"], supply, s["grey"]):
        if events is not None:
            events.append(
                Event(
                    "no_row_possible",
                    Msg("azul.ev.no_row_possible"),
                    {"round": s["round"]},
                )
            )
        finish(s, events, "no_row_possible")
        return
    holder = s["marker"] if s["marker"] >= 0 else s["first"]
    s["round"] += 1
    s["first"] = s["turn"] = holder
    s["marker"] = -1
    s["bag"] = list(s["bag"])
    rng = Rng(s["rng"])
    poured, lid_tiles = refill(s, rng)
    s["rng"] = rng.state
    if events is not None:
        events.append(refill_event(s, poured, lid_tiles))


def refill(s: State, rng: Rng) -> tuple[int, int]:
    """Fill the factories from the bag (lid poured in when the bag runs dry), in factory
    order, so with too few tiles the last factories stay short (an empty one is ``[]``).
    Replaces ``s``'s factories and mutates its ``bag`` and ``lid`` (which must be its own).
    Returns (tiles drawn before the lid was poured, -1 if never; number of lid tiles
    poured)."""
    lid_tiles = sum(s["lid"])
    count = len(s["fac"])
    drawn, poured = draw_tiles(rng, s["bag"], s["lid"], TILES_PER_FACTORY * count)
    letters = "".join(map(COLOURS.__getitem__, drawn))
    s["fac_draw"] = draws = [
        letters[i : i + TILES_PER_FACTORY]
        for i in range(0, TILES_PER_FACTORY * count, TILES_PER_FACTORY)
    ]
    s["fac"] = [list(PILE_COUNTS[d]) if d else [] for d in draws]
    s["left"] = len(drawn)
    return poured, lid_tiles if poured >= 0 else 0


@lru_cache(maxsize=1024)
def _refill_words(round_: int, poured: bool, lid_tiles: int, short: int) -> Msg:
    """The words of a refill (cached like the other frequent event words)."""
    return Msg(
        "azul.ev.refill",
        round=round_,
        poured=Msg("azul.ev.refill_poured", n=lid_tiles) if poured else "",
        short=Msg("azul.ev.refill_short", n=short) if short else "",
    )


def refill_event(s: State, poured: int, lid_tiles: int) -> Event:
    short = sum(1 for d in s["fac_draw"] if len(d) < TILES_PER_FACTORY)
    data = {
        "round": s["round"],
        "factories": list(s["fac_draw"]),
        "lid_poured_after": poured,
        "lid_tiles_poured": lid_tiles,
        "first": s["first"],
    }
    words = _refill_words(s["round"], poured >= 0, lid_tiles, short)
    return Event("refill", words, data, reveals=True)


def finish(s: State, events: list[Event] | None, reason: str) -> None:
    s["phase"] = OVER
    s["turn"] = -1
    s["end"] = reason
    s["bonus"] = bonus = []
    for p in range(s["players"]):
        rows, cols, colours, pts = end_bonus(s["wall"][p])
        bonus.append([rows, cols, colours, pts])
        s["score"][p] += pts
        if pts and events is not None:
            events.append(
                Event(
                    "bonus",
                    Msg(
                        "azul.ev.bonus",
                        who=Seat(p),
                        points=pts,
                        rows=Msg("azul.ev.bonus_rows", n=rows),
                        columns=Msg("azul.ev.bonus_columns", n=cols),
                        colours=Msg("azul.ev.bonus_colours", n=colours),
                    ),
                    {
                        "seat": p,
                        "rows": rows,
                        "columns": cols,
                        "colours": colours,
                        "points": pts,
                    },
                )
            )
    if events is None:
        return
    out = outcome_of(s)
    assert out is not None
    events.append(
        Event(
            "end",
            Msg("azul.ev.end", reason=out.reason),
            {"scores": out.scores, "ranks": out.ranks},
        )
    )


def outcome_of(state: State) -> Outcome | None:
    if state["phase"] != OVER:
        return None
    scores = list(state["score"])
    rows = [complete_rows(w) for w in state["wall"]]
    ranks = rank_by([(sc, r) for sc, r in zip(scores, rows, strict=True)])
    winners = [p for p, r in enumerate(ranks) if r == 1]
    best = max(scores)
    tied = [p for p, sc in enumerate(scores) if sc == best]
    reason: Msg
    if len(winners) > 1:
        reason = Msg(
            "azul.result.shared",
            who=Join("words.and", [Seat(p) for p in winners]),
            points=best,
            n=rows[winners[0]],
        )
    elif len(tied) > 1:
        w = winners[0]
        reason = Msg(
            "azul.result.tie_break",
            tied=Join("words.and", [Seat(p) for p in tied]),
            n=best,  # the family's form (and number) by the score
            points=best,  # the same, for a reader of the words stored before (one form)
            who=Seat(w),
            rows=rows[w],
            other=max(rows[p] for p in tied if p != w),
        )
    else:
        reason = Msg("azul.result.wins", who=Seat(winners[0]), n=best, points=best)
    if state["end"] == "no_tiles":
        reason = Msg("azul.result.no_tiles", reason=reason)
    elif state["end"] == "no_row_possible":
        reason = Msg("azul.result.no_row_possible", reason=reason)
    details = [
        {
            "seat": p,
            "score": scores[p],
            "rows": b[0],
            "columns": b[1],
            "colours": b[2],
            "bonus": b[3],
        }
        for p, b in enumerate(state["bonus"] or [])
    ]
    return Outcome(scores, ranks, reason, details)
