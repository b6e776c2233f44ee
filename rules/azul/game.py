"""Azul (Michael Kiesling, 2017) behind the Tessera game interface.

Rules reference: ``shared/rules/azul.md`` (restating the published rules after the Polish
seed rulebook). Decisions where that text is unclear, marked [R]/[our decision], or silent:

- Starting player: drawn at random from the match seed (the seed gives it to whoever was
  last in Portugal).
- [our decision] If at the start of a round not a single tile can be drawn (bag and lid both
  empty), the game ends at once with the final scoring (reason ``no_tiles``).
- The first player to take from the centre puts the marker on the leftmost free floor space
  *before* the taken tiles are placed (the rules say "also takes the marker ... Then the
  player puts the taken tiles"), so overflow tiles land to its right. If the floor is already
  full (7), the player still takes the marker and starts the next round, but it occupies no
  space and costs nothing (published FAQ practice; the floor has only 7 spaces).
- If nobody took from the centre during a round (possible when every factory held one
  colour), the marker is still in the centre and the same player starts the next round.
- Wall tiling on the coloured side is automatic and happens inside the move that empties the
  table; its scoring appears as events. Floor penalties are applied after all of a player's
  lines are tiled; the score is then clamped at 0 (it can never be negative at any time).
- Grey-wall variant: after the offer phase every player with a full pattern line whose
  tile has two or more legal columns is asked, top line first. All such players are asked at
  the same time (``to_act`` lists them all): their walls are independent, so the result does
  not depend on the order in which they answer. A line with exactly one legal column is placed
  there automatically (no choice to make; an event says so); a line with none goes to the
  floor line, overflow to the lid. Placing in phase A still refuses a colour already in that
  wall row.
- The box lid is public (discarded tiles are face up); the view shows bag and lid counts and
  their colour make-up, which any player could work out from the table anyway.
- No move can be skipped in Azul, so ``default_move`` returns ``None`` (a clock that runs
  out is the match's business).
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any

from pydantic import BaseModel, ConfigDict

from rules.azul.board import (
    CENTRE,
    COLOUR_NAMES,
    COLOURS,
    FACTORY_COUNT,
    FLOOR_PENALTIES,
    FLOOR_SPACES,
    FLOOR_TOTAL,
    FREE_COLOURS,
    MARKER,
    TILES_PER_COLOUR,
    TILES_PER_FACTORY,
    complete_rows,
    draw_tiles,
    end_bonus,
    legal_grey_columns,
    placement_points,
    printed_colour,
    printed_column,
)
from rules.azul.moves import (
    _GROUPS,
    FLOOR,
    FLOOR_SLOT,
    PARSED,
    column_move,
    group,
    parse_column,
    parse_offer,
    source_name,
)
from rules.base import Event, Game, IllegalMove, Move, Outcome, State, View, rank_by
from rules.rng import Rng

OFFER, TILING, OVER = "offer", "tiling", "over"


class AzulOptions(BaseModel):
    """Match options. ``grey_wall``: play the grey (uncoloured) wall variant."""

    model_config = ConfigDict(extra="forbid")

    grey_wall: bool = False


def _cname(k: int) -> str:
    return COLOUR_NAMES[k]


def _tiles_text(counts: list[int]) -> str:
    parts = [f"{n} {COLOUR_NAMES[k]}" for k, n in enumerate(counts) if n]
    return ", ".join(parts) if parts else "nothing"


def _floor_only(slots: list[Move | None]) -> tuple[Move | None]:
    return (slots[FLOOR_SLOT],)


def _getter(wanted: list[int]) -> Any:
    """A fast picker of the wanted group slots plus the floor move, always as a tuple."""
    return itemgetter(*wanted, FLOOR_SLOT) if wanted else _floor_only


def _own_players(s: State) -> None:
    """Give ``s`` its own copies of every per-player list (before a whole-table update)."""
    for key in ("lc", "ln", "wall", "rows", "floor"):
        s[key] = [list(x) for x in s[key]]
    s["score"] = list(s["score"])
    s["lid"] = list(s["lid"])


class Azul(Game):
    id = "azul"
    name = "Azul"
    min_players = 2
    max_players = 4
    Options = AzulOptions
    summary = (
        "Draft tiles: take every tile of one colour from a factory (the rest go to the centre)\n"
        "or from the centre (the first to do so takes the first-player marker to the floor).\n"
        "Put them all in one pattern line (one colour per line, not a colour already in that\n"
        "wall row); extras fall to the floor (−1 −1 −2 −2 −2 −3 −3). Full lines move one tile\n"
        "to the wall and score its connected runs. The game ends after a round in which a wall\n"
        "row is completed: +2 per row, +7 per column, +10 per full colour."
    )
    notation_help = (
        "Write source-colour-line: F3-R-2 takes red from factory 3 into line 2, C-B-F takes "
        "blue from the centre to the floor. Colours: B blue, Y yellow, R red, K black, "
        "W white. Grey wall tiling: col-3."
    )
    has_hidden_information = False

    # ------------------------------------------------------------------ setup
    def setup(
        self, player_count: int, seed: int, options: BaseModel | dict[str, Any] | None = None
    ) -> State:
        self.check_player_count(player_count)
        opts = self.parse_options(options)
        assert isinstance(opts, AzulOptions)
        n = player_count
        rng = Rng.from_seed(seed, "azul")
        first = rng.below(n)
        s: State = {
            "players": n,
            "grey": opts.grey_wall,
            "round": 1,
            "phase": OFFER,
            "first": first,
            "turn": first,
            "marker": -1,
            "bag": [TILES_PER_COLOUR] * 5,
            "lid": [0] * 5,
            "fac": [[0] * 5 for _ in range(FACTORY_COUNT[n])],
            "centre": [0] * 5,
            "left": 0,
            "lc": [[-1] * 5 for _ in range(n)],
            "ln": [[0] * 5 for _ in range(n)],
            "wall": [[-1] * 25 for _ in range(n)],
            "rows": [[0] * 5 for _ in range(n)],
            "floor": [[] for _ in range(n)],
            "score": [0] * n,
            "tnext": None,
            "end": None,
            "bonus": None,
            "rng": 0,
        }
        self._refill(s, rng)
        s["rng"] = rng.state
        return s

    def setup_events(self, state: State) -> list[Event]:
        """The chance outcome of the first round's factories (for a game record)."""
        return [self._refill_event(state, -1, 0)]

    # ------------------------------------------------------------------ queries
    def to_act(self, state: State) -> list[int]:
        phase = state["phase"]
        if phase == OFFER:
            return [state["turn"]]
        if phase == TILING:
            return [p for p, t in enumerate(state["tnext"]) if t < 5]
        return []

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        phase = state["phase"]
        if phase != OFFER:
            if phase == TILING and state["tnext"][seat] < 5:
                return self._column_moves(state, seat)
            return []
        if seat != state["turn"]:
            return []
        lc = state["lc"][seat]
        ln = state["ln"][seat]
        rows = state["rows"][seat]
        # slots[k]: group slots (line * 8 + free space) of the lines that accept colour k
        slots: list[list[int]] = [[], [], [], [], []]
        for i in range(5):
            c = ln[i]
            if c:
                if c <= i:
                    slots[lc[i]].append(i * 9 + 1 - c)
            else:
                x = i * 9 + 1
                for k in FREE_COLOURS[rows[i]]:
                    slots[k].append(x)
        pick: list[Any] = [None, None, None, None, None]
        moves: list[Move] = []
        groups_get = _GROUPS.get
        for f, fac in enumerate(state["fac"]):
            for k, c in enumerate(fac):
                if c:
                    g = groups_get(((f * 5 + k) << 5 | c) << 1) or group(f, k, c, 0)
                    getter = pick[k]
                    if getter is None:
                        getter = pick[k] = _getter(slots[k])
                    moves += getter(g)
        marker = 1 if state["marker"] < 0 else 0
        for k, c in enumerate(state["centre"]):
            if c:
                g = groups_get(((CENTRE * 5 + k) << 5 | c) << 1 | marker) or group(
                    CENTRE, k, c, marker
                )
                getter = pick[k]
                if getter is None:
                    getter = pick[k] = _getter(slots[k])
                moves += getter(g)
        return moves

    def _column_moves(self, state: State, seat: int) -> list[Move]:
        line = state["tnext"][seat]
        colour = state["lc"][seat][line]
        wall = list(state["wall"][seat])
        moves = []
        for col in legal_grey_columns(wall, line, colour):
            wall[line * 5 + col] = colour
            moves.append(column_move(line, colour, col, placement_points(wall, line, col)))
            wall[line * 5 + col] = -1
        return moves

    # ------------------------------------------------------------------ apply
    def apply(self, state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
        phase = state["phase"]
        if phase == OFFER:
            if seat != state["turn"]:
                raise IllegalMove("It is not your turn.")
            parsed = PARSED.get(move.notation) or parse_offer(move.notation)
            if parsed is None or self._offer_problem(state, seat, *parsed) is not None:
                raise IllegalMove(self.explain_illegal(state, seat, move.notation))
            return self._take(state, seat, *parsed)
        if phase == TILING:
            if state["tnext"][seat] >= 5:
                raise IllegalMove("It is not your turn.")
            col = parse_column(move.notation)
            if col is None or self._column_problem(state, seat, col) is not None:
                raise IllegalMove(self.explain_illegal(state, seat, move.notation))
            return self._choose_column(state, seat, col)
        raise IllegalMove("This game is over; no more moves can be made.")

    def _take(
        self, state: State, seat: int, src: int, colour: int, dest: int
    ) -> tuple[State, list[Event]]:
        s = dict(state)
        centre = s["centre"] = list(state["centre"])
        took_marker = False
        if src == CENTRE:
            count = centre[colour]
            centre[colour] = 0
            if state["marker"] < 0:
                took_marker = True
                s["marker"] = seat
        else:
            facs = s["fac"] = list(state["fac"])
            fac = facs[src]
            count = fac[colour]
            for k in range(5):
                if k != colour:
                    centre[k] += fac[k]
            facs[src] = []  # an emptied factory is [] so legal_moves skips it at once
        s["left"] = state["left"] - count

        floor = list(state["floor"][seat])
        if took_marker and len(floor) < FLOOR_SPACES:
            floor.append(MARKER)
        over = count
        if dest != FLOOR:
            ln = list(state["ln"][seat])
            lcs = list(state["lc"][seat])
            placed = min(count, dest + 1 - ln[dest])
            ln[dest] += placed
            lcs[dest] = colour
            over = count - placed
            s["ln"] = x = list(state["ln"])
            x[seat] = ln
            s["lc"] = x = list(state["lc"])
            x[seat] = lcs
        to_lid = 0
        if over:
            room = FLOOR_SPACES - len(floor)
            on_floor = over if over < room else room
            floor.extend([colour] * on_floor)
            to_lid = over - on_floor
            if to_lid:
                s["lid"] = lid = list(state["lid"])
                lid[colour] += to_lid
        if over or took_marker:
            s["floor"] = x = list(state["floor"])
            x[seat] = floor

        where = "floor" if dest == FLOOR else f"line {dest + 1}"
        text = f"{{p{seat}}} took {count} {COLOUR_NAMES[colour]} from {source_name(src)} → {where}"
        if dest != FLOOR and over:
            text += f" ({over} to floor)"
        if to_lid:
            text += f" ({to_lid} to the box lid)"
        if took_marker:
            text += " and the first player marker"
        events = [
            Event(
                "take",
                text,
                {
                    "seat": seat,
                    "source": "C" if src == CENTRE else src + 1,
                    "colour": COLOURS[colour],
                    "count": count,
                    "line": None if dest == FLOOR else dest + 1,
                    "overflow": over if dest != FLOOR else 0,
                    "lid": to_lid,
                    "marker": took_marker,
                },
            )
        ]
        if s["left"]:
            s["turn"] = (seat + 1) % s["players"]
        else:
            self._end_offer(s, events)
        return s, events

    # ------------------------------------------------------------------ wall tiling
    def _end_offer(self, s: State, events: list[Event]) -> None:
        """The table is empty: tile the walls (or ask grey-wall players), then go on."""
        _own_players(s)
        s["turn"] = -1
        if s["grey"]:
            s["phase"] = TILING
            s["tnext"] = [0] * s["players"]
            for p in range(s["players"]):
                self._advance(s, p, events)
            if all(t >= 5 for t in s["tnext"]):
                self._after_tiling(s, events)
            return
        for p in range(s["players"]):
            lc, ln = s["lc"][p], s["ln"][p]
            placed = []
            for i in range(5):
                if ln[i] == i + 1:
                    k = lc[i]
                    col = printed_column(i, k)
                    pts = self._place(s, p, i, col)
                    placed.append(
                        {"line": i + 1, "colour": COLOURS[k], "column": col + 1, "points": pts}
                    )
            if placed:
                words = ", ".join(
                    f"line {d['line']} {COLOUR_NAMES[COLOURS.index(d['colour'])]} +{d['points']}"
                    for d in placed
                )
                events.append(
                    Event(
                        "tile",
                        f"{{p{p}}} tiles the wall: {words}",
                        {"seat": p, "placed": placed, "points": sum(d["points"] for d in placed)},
                    )
                )
        self._after_tiling(s, events)

    def _place(self, s: State, p: int, line: int, col: int) -> int:
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
        return pts

    def _advance(self, s: State, p: int, events: list[Event]) -> None:
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
                    pts = self._place(s, p, i, cols[0])
                    events.append(
                        Event(
                            "tile",
                            f"{{p{p}}} tiles line {i + 1} ({_cname(k)}) in column {cols[0] + 1}, "
                            f"the only legal column: +{pts}",
                            {
                                "seat": p,
                                "line": i + 1,
                                "colour": COLOURS[k],
                                "column": cols[0] + 1,
                                "points": pts,
                                "forced": True,
                            },
                        )
                    )
                else:
                    floor = s["floor"][p]
                    room = FLOOR_SPACES - len(floor)
                    on_floor = min(room, i + 1)
                    floor.extend([k] * on_floor)
                    s["lid"][k] += i + 1 - on_floor
                    s["ln"][p][i] = 0
                    s["lc"][p][i] = -1
                    events.append(
                        Event(
                            "no_column",
                            f"{{p{p}}} has no legal column for line {i + 1} ({_cname(k)}): "
                            f"its {i + 1} tiles go to the floor",
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

    def _choose_column(self, state: State, seat: int, col: int) -> tuple[State, list[Event]]:
        s = dict(state)
        _own_players(s)
        s["tnext"] = list(state["tnext"])
        line = s["tnext"][seat]
        k = s["lc"][seat][line]
        pts = self._place(s, seat, line, col)
        events = [
            Event(
                "tile",
                f"{{p{seat}}} tiles line {line + 1} ({_cname(k)}) in column {col + 1}: +{pts}",
                {
                    "seat": seat,
                    "line": line + 1,
                    "colour": COLOURS[k],
                    "column": col + 1,
                    "points": pts,
                },
            )
        ]
        s["tnext"][seat] = line + 1
        self._advance(s, seat, events)
        if all(t >= 5 for t in s["tnext"]):
            self._after_tiling(s, events)
        return s, events

    def _after_tiling(self, s: State, events: list[Event]) -> None:
        """Floor penalties, then the end check or the next round's factories."""
        n = s["players"]
        for p in range(n):
            floor = s["floor"][p]
            if not floor:
                continue
            penalty = FLOOR_TOTAL[len(floor)]
            before = s["score"][p]
            s["score"][p] = max(0, before - penalty)
            for k in floor:
                if k != MARKER:
                    s["lid"][k] += 1
            events.append(
                Event(
                    "floor",
                    f"{{p{p}}} loses {penalty} for the floor line"
                    + ("" if before >= penalty else f" (score stops at 0, lost {before})"),
                    {
                        "seat": p,
                        "items": len(floor),
                        "penalty": penalty,
                        "lost": before - s["score"][p],
                    },
                )
            )
            s["floor"][p] = []
        s["phase"] = OFFER
        s["tnext"] = None
        if any(31 in rows for rows in s["rows"]):  # a wall row holds all five colours
            self._finish(s, events, "row")
            return
        holder = s["marker"] if s["marker"] >= 0 else s["first"]
        s["round"] += 1
        s["first"] = s["turn"] = holder
        s["marker"] = -1
        s["fac"] = [[0] * 5 for _ in s["fac"]]
        s["bag"] = list(s["bag"])
        rng = Rng(s["rng"])
        poured, lid_tiles = self._refill(s, rng)
        s["rng"] = rng.state
        if s["left"] == 0:
            events.append(
                Event(
                    "no_tiles",
                    "Not a single tile can be drawn (bag and box lid are empty): the game ends.",
                    {"round": s["round"]},
                )
            )
            s["round"] -= 1
            self._finish(s, events, "no_tiles")
            return
        events.append(self._refill_event(s, poured, lid_tiles))

    def _refill(self, s: State, rng: Rng) -> tuple[int, int]:
        """Fill the factories from the bag (lid poured in when the bag runs dry), in factory
        order, so with too few tiles the last factories stay short. Mutates ``s`` (whose
        ``bag``, ``lid`` and ``fac`` must be its own). Returns (tiles drawn before the lid was
        poured, -1 if never; number of lid tiles poured)."""
        lid_tiles = sum(s["lid"])
        facs = s["fac"]
        drawn, poured = draw_tiles(rng, s["bag"], s["lid"], TILES_PER_FACTORY * len(facs))
        for j, k in enumerate(drawn):
            facs[j // TILES_PER_FACTORY][k] += 1
        s["left"] = len(drawn)
        if len(drawn) < TILES_PER_FACTORY * len(facs):
            s["fac"] = [f if any(f) else [] for f in facs]
        s["fac_draw"] = [
            "".join(COLOURS[k] for k in drawn[i : i + TILES_PER_FACTORY])
            for i in range(0, TILES_PER_FACTORY * len(facs), TILES_PER_FACTORY)
        ]
        return poured, lid_tiles if poured >= 0 else 0

    def _refill_event(self, s: State, poured: int, lid_tiles: int) -> Event:
        short = sum(1 for d in s["fac_draw"] if len(d) < TILES_PER_FACTORY)
        text = f"Round {s['round']}: the factories are filled"
        if poured >= 0:
            text += f" (the bag ran out; {lid_tiles} tiles from the box lid went back into it)"
        if short:
            text += f"; {short} factor{'y' if short == 1 else 'ies'} stay short: the bag is empty"
        data = {
            "round": s["round"],
            "factories": list(s["fac_draw"]),
            "lid_poured_after": poured,
            "lid_tiles_poured": lid_tiles,
            "first": s["first"],
        }
        return Event("refill", text, data, reveals=True)

    def _finish(self, s: State, events: list[Event], reason: str) -> None:
        s["phase"] = OVER
        s["turn"] = -1
        s["end"] = reason
        s["bonus"] = bonus = []
        for p in range(s["players"]):
            rows, cols, colours, pts = end_bonus(s["wall"][p])
            bonus.append([rows, cols, colours, pts])
            s["score"][p] += pts
            if pts:
                events.append(
                    Event(
                        "bonus",
                        f"{{p{p}}} scores {pts} end bonus: {rows} row(s) ×2, {cols} column(s) ×7, "
                        f"{colours} colour(s) ×10",
                        {
                            "seat": p,
                            "rows": rows,
                            "columns": cols,
                            "colours": colours,
                            "points": pts,
                        },
                    )
                )
        out = self.outcome(s)
        assert out is not None
        events.append(
            Event("end", "Game over. " + out.reason, {"scores": out.scores, "ranks": out.ranks})
        )

    # ------------------------------------------------------------------ legality words
    def _offer_problem(
        self, state: State, seat: int, src: int, colour: int, dest: int
    ) -> str | None:
        """Why taking ``colour`` from ``src`` into ``dest`` is illegal now, or ``None``."""
        nf = len(state["fac"])
        cname = COLOUR_NAMES[colour]
        if src != CENTRE and not 0 <= src < nf:
            return f"There is no factory {src + 1}: this game has factories 1–{nf}."
        if not (0 <= dest < 5 or dest == FLOOR):
            return f"There is no line {dest + 1}: pattern lines are 1–5 (or F for the floor)."
        if src == CENTRE:
            pile = state["centre"]
            if not pile[colour]:
                if not any(pile):
                    if state["marker"] < 0:
                        return (
                            "The centre holds only the first player marker; taking only the "
                            "marker is not a move."
                        )
                    return "The centre is empty."
                return f"The centre has no {cname} tiles (it holds {_tiles_text(pile)})."
        else:
            pile = state["fac"][src]
            if not any(pile):
                return f"Factory {src + 1} is empty."
            if not pile[colour]:
                return f"Factory {src + 1} has no {cname} tiles (it holds {_tiles_text(pile)})."
        if dest == FLOOR:
            return None
        held = state["ln"][seat][dest]
        if held:
            have = state["lc"][seat][dest]
            if have != colour:
                held_name = COLOUR_NAMES[have]
                return f"Line {dest + 1} already holds {held_name}; it only takes {held_name}."
            if held == dest + 1:
                return (
                    f"Line {dest + 1} is already full ({held} {cname}); choose another line "
                    "or the floor."
                )
        elif state["rows"][seat][dest] >> colour & 1:
            return (
                f"Your wall row {dest + 1} already has {cname}; put it in another line or "
                "the floor."
            )
        return None

    def _column_problem(self, state: State, seat: int, col: int) -> str | None:
        line = state["tnext"][seat]
        k = state["lc"][seat][line]
        wall = state["wall"][seat]
        if not 0 <= col < 5:
            return f"There is no column {col + 1}: wall columns are 1–5."
        if wall[line * 5 + col] >= 0:
            return f"Row {line + 1}, column {col + 1} of your wall is already tiled."
        for r in range(5):
            if wall[r * 5 + col] == k:
                return f"Column {col + 1} already has a {COLOUR_NAMES[k]} tile (row {r + 1})."
        return None

    def explain_illegal(self, state: State, seat: int, text: str) -> str:
        phase = state["phase"]
        if phase == OVER:
            return "This game is over; no more moves can be made."
        if seat not in self.to_act(state):
            return "It is not your turn."
        if phase == TILING:
            line = state["tnext"][seat]
            k = state["lc"][seat][line]
            col = parse_column(text)
            legal = ", ".join(m.notation for m in self._column_moves(state, seat))
            if col is None:
                return (
                    f"Now choose the wall column for line {line + 1} ({COLOUR_NAMES[k]}): "
                    f"one of {legal}."
                )
            problem = self._column_problem(state, seat, col)
            return f"{problem} Choose one of {legal}." if problem else "That column is legal."
        parsed = parse_offer(text)
        if parsed is None:
            if parse_column(text) is not None:
                return "Wall columns are chosen only during grey-wall tiling. " + self.notation_help
            shown = text.strip()[:40]
            return f"“{shown}” is not a move. {self.notation_help}"
        problem = self._offer_problem(state, seat, *parsed)
        return problem or "That move is legal."

    def parse(self, state: State, seat: int, text: str) -> Move:
        """Like the default, but typed text may omit dashes or spell a source out
        (``f3r2``, ``factory 3 r 2``, ``centre b floor``)."""
        if self.outcome(state) is not None:
            raise IllegalMove("This game is over; no more moves can be made.")
        if seat not in self.to_act(state):
            raise IllegalMove("It is not your turn.")
        if state["phase"] == OFFER:
            parsed = parse_offer(text)
            if parsed is not None:
                for m in self.legal_moves(state, seat):
                    if PARSED.get(m.notation) == parsed:
                        return m
        else:
            col = parse_column(text)
            if col is not None:
                for m in self.legal_moves(state, seat):
                    if m.notation == f"col-{col + 1}":
                        return m
        return super().parse(state, seat, text)

    # ------------------------------------------------------------------ results
    def outcome(self, state: State) -> Outcome | None:
        if state["phase"] != OVER:
            return None
        scores = list(state["score"])
        rows = [complete_rows(w) for w in state["wall"]]
        ranks = rank_by([(sc, r) for sc, r in zip(scores, rows, strict=True)])
        winners = [p for p, r in enumerate(ranks) if r == 1]
        best = max(scores)
        tied = [p for p, sc in enumerate(scores) if sc == best]
        names = lambda ps: " and ".join(f"{{p{p}}}" for p in ps)  # noqa: E731
        if len(winners) > 1:
            reason = (
                f"{names(winners)} share the victory with {best} points and "
                f"{rows[winners[0]]} complete row(s) each."
            )
        elif len(tied) > 1:
            w = winners[0]
            reason = (
                f"{names(tied)} tied on {best} points; {{p{w}}} wins with more complete rows "
                f"({rows[w]} vs {max(rows[p] for p in tied if p != w)})."
            )
        else:
            reason = f"{{p{winners[0]}}} wins with {best} points."
        if state["end"] == "no_tiles":
            reason = "No tile could be drawn for a new round, so the game ended. " + reason
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

    def scores(self, state: State) -> list[int]:
        return list(state["score"])

    def status(self, state: State) -> str:
        phase = state["phase"]
        r = state["round"]
        if phase == OFFER:
            return f"Round {r}: {{p{state['turn']}}} to take tiles."
        if phase == TILING:
            who = " and ".join(f"{{p{p}}}" for p in self.to_act(state))
            return f"Round {r}, wall tiling: {who} to choose a wall column."
        out = self.outcome(state)
        assert out is not None
        return f"Game over after round {r}. {out.reason}"

    # ------------------------------------------------------------------ view
    def view(self, state: State, seat: int | None) -> View:
        """Everything is public in Azul, so every seat sees the same view."""
        n = state["players"]
        grey = state["grey"]

        def letters(counts: list[int]) -> list[str]:
            return [COLOURS[k] for k, n in enumerate(counts) for _ in range(n)]

        players = []
        for p in range(n):
            wall = state["wall"][p]
            floor = state["floor"][p]
            players.append(
                {
                    "seat": p,
                    "score": state["score"][p],
                    "lines": [
                        {
                            "size": i + 1,
                            "colour": COLOURS[state["lc"][p][i]] if state["ln"][p][i] else None,
                            "count": state["ln"][p][i],
                        }
                        for i in range(5)
                    ],
                    "wall": [
                        [
                            COLOURS[wall[r * 5 + c]] if wall[r * 5 + c] >= 0 else None
                            for c in range(5)
                        ]
                        for r in range(5)
                    ],
                    "floor": ["M" if k == MARKER else COLOURS[k] for k in floor],
                    "floor_penalty": -FLOOR_TOTAL[len(floor)],
                    "has_marker": state["marker"] == p,
                    "complete_rows": complete_rows(wall),
                }
            )
        pending = []
        if state["phase"] == TILING:
            for p in self.to_act(state):
                line = state["tnext"][p]
                pending.append(
                    {
                        "seat": p,
                        "line": line + 1,
                        "colour": COLOURS[state["lc"][p][line]],
                        "columns": [int(m.notation[4:]) for m in self._column_moves(state, p)],
                    }
                )
        out = self.outcome(state)
        return {
            "game": self.id,
            "player_count": n,
            "grey_wall": grey,
            "round": state["round"],
            "phase": state["phase"],
            "turn": state["turn"] if state["phase"] == OFFER else None,
            "to_act": self.to_act(state),
            "first_player": state["first"],
            "bag": sum(state["bag"]),
            "bag_colours": {COLOURS[k]: state["bag"][k] for k in range(5)},
            "lid": sum(state["lid"]),
            "lid_colours": {COLOURS[k]: state["lid"][k] for k in range(5)},
            "factories": [letters(f) for f in state["fac"]],
            "centre": letters(state["centre"]),
            "marker_in_centre": state["marker"] < 0 and state["phase"] == OFFER,
            "wall_pattern": None
            if grey
            else [[COLOURS[printed_colour(r, c)] for c in range(5)] for r in range(5)],
            "floor_penalties": [-x for x in FLOOR_PENALTIES],
            "players": players,
            "pending": pending,
            "status": self.status(state),
            "outcome": out.to_json() if out else None,
        }


GAME = Azul()
