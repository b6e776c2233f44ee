"""Azul (Michael Kiesling, 2017) behind the Tessera game interface.

Rules reference: ``docs/rules/azul.md`` (restating the published rules after the Polish
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
- [our decision, beyond the reference] The game also ends, after a round's wall tiling, when
  no player can complete any wall row any more however the game is played (reason
  ``no_row_possible``; see ``board.any_row_can_be_completed``). On the grey wall a row dies
  when its missing colours all sit in the columns of its empty spaces; on either wall a
  colour can starve (all its tiles still in play locked in pattern lines that need more of
  it). Random playouts found both, and without this such games never end. Checked after
  the "row completed" and "no tile can be drawn" ends; the published rules are silent.
- The box lid is public (discarded tiles are face up); the view shows bag and lid counts and
  their colour make-up, which any player could work out from the table anyway.
- No move can be skipped in Azul, so ``default_move`` returns ``None`` (a clock that runs
  out is the match's business).
- The state remembers what the last move put on the table (``state["last"]``, see
  ``last_turn.py``) and where each seat's points came from (``state["tally"]``, kept in
  ``rounds.py``), both public, so the picture can mark the move and explain the final
  scores; neither changes play.
- Commitments (``is_commitment``): none. Everything in Azul is public, so taking a move back
  shows nobody anything new; a move that refilled the factories revealed tiles from the bag
  and is never taken back (``Event.reveals``).
"""

from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache
from operator import add, itemgetter
from typing import Any

from pydantic import BaseModel, ConfigDict

from rules.azul.board import (
    CENTRE,
    COLOURS,
    FACTORY_COUNT,
    FLOOR_SPACES,
    FREE_COLOURS,
    MARKER,
    TILES_PER_COLOUR,
    legal_grey_columns,
    placement_points,
)
from rules.azul.last_turn import column_choice, settle
from rules.azul.moves import (
    _GROUPS,
    FLOOR,
    FLOOR_SLOT,
    PARSED,
    column_move,
    dest_words,
    group,
    parse_column,
    parse_offer,
    source_name,
    tiles_words,
)
from rules.azul.rounds import (
    OFFER,
    OVER,
    TILING,
    advance,
    after_tiling,
    end_offer,
    new_tally,
    outcome_of,
    own_players,
    place,
    refill,
    refill_event,
    tile_event,
    tiles_text,
)
from rules.azul.told import tell
from rules.azul.view import build_view
from rules.azul.words import COLOUR_WORDS
from rules.base import (
    NOT_YOUR_TURN,
    OVER_ALREADY,
    Event,
    Game,
    IllegalMove,
    Move,
    Outcome,
    State,
    Told,
    View,
)
from rules.rng import Rng
from rules.words import Join, Msg, Seat


class AzulOptions(BaseModel):
    """Match options. ``grey_wall``: play the grey (uncoloured) wall variant."""

    model_config = ConfigDict(extra="forbid")

    grey_wall: bool = False


def _floor_only(slots: list[Move | None]) -> tuple[Move | None]:
    return (slots[FLOOR_SLOT],)


def _line_slots(state: State, seat: int) -> list[list[int]]:
    """slots[k]: the group slots (line * 8 + free space) of ``seat``'s pattern lines that
    accept colour k now, in line order (the floor always does and is not listed)."""
    lc = state["lc"][seat]
    ln = state["ln"][seat]
    rows = state["rows"][seat]
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
    return slots


#: Three bits per colour (colour k at bit 3k): a one for each colour *not* in a 5-bit wall
#: row ``mask``, the colours an empty pattern line in that row accepts.
_ACCEPTS = tuple(sum(1 << 3 * k for k in FREE_COLOURS[mask]) for mask in range(32))
#: A one in every colour's field: the floor line accepts every colour.
_FLOOR_ONLY = sum(1 << 3 * k for k in range(5))


#: _HOLDS[k]: a one in colour k's 3-bit field (a started line accepts its own colour).
_HOLDS = tuple(1 << 3 * k for k in range(5))


def _split(sizes: int) -> tuple[int, int, int, int, int]:
    """The five 3-bit fields of ``sizes`` (colour k at bit 3k)."""
    return sizes & 7, sizes >> 3 & 7, sizes >> 6 & 7, sizes >> 9 & 7, sizes >> 12 & 7


#: _PER_COLOUR[sizes] = _split(sizes), filled as met (at most 6**5 entries): one look-up
#: instead of ten shifts and masks at every random move.
_PER_COLOUR: dict[int, tuple[int, int, int, int, int]] = {}


def _nth_line_slot(ln: list[int], lc: list[int], rows: list[int], colour: int, n: int) -> int:
    """The group slot (see :func:`_line_slots`) of the ``n``-th pattern line (0-based, in
    line order) that accepts ``colour`` now, for a seat's line counts ``ln``, line colours
    ``lc`` and wall-row colour masks ``rows``."""
    for i in range(5):
        c = ln[i]
        if (c <= i and lc[i] == colour) if c != 0 else not rows[i] >> colour & 1:
            if n == 0:
                return i * 9 + 1 - c
            n -= 1
    raise AssertionError("unreachable: fewer lines accept the colour than were counted")


def _sources(state: State) -> list[tuple[int, int, int]]:
    """(source, colour, group key) of every non-empty pile: factories in order, then the
    centre (whose first taker also takes the marker): the order of the legal moves."""
    out = [
        (f, k, ((f * 5 + k) << 5 | c) << 1)
        for f, fac in enumerate(state["fac"])
        for k, c in enumerate(fac)
        if c
    ]
    marker = 1 if state["marker"] < 0 else 0
    out += [
        (CENTRE, k, ((CENTRE * 5 + k) << 5 | c) << 1 | marker)
        for k, c in enumerate(state["centre"])
        if c
    ]
    return out


def _getter(wanted: list[int]) -> Any:
    """A fast picker of the wanted group slots plus the floor move, always as a tuple."""
    return itemgetter(*wanted, FLOOR_SLOT) if wanted else _floor_only


@lru_cache(maxsize=8192)
def _take_record(
    seat: int, count: int, colour: int, src: int, dest: int, over: int, to_lid: int, marker: bool
) -> tuple[Msg, dict[str, Any]]:
    """The words and data of a take event (cached: messages are immutable, and random
    playouts make thousands of takes a second; the data is copied for every event, since a
    caller may keep and change an event's data)."""
    words = Msg(
        "azul.ev.take",
        who=Seat(seat),
        tiles=tiles_words(count, colour),
        source=source_name(src),
        dest=dest_words(dest),
        over=Msg("azul.label.over", n=over) if dest != FLOOR and over else "",
        lid=Msg("azul.ev.lid", n=to_lid) if to_lid else "",
        marker=Msg("azul.ev.marker") if marker else "",
    )
    data = {
        "seat": seat,
        "source": "C" if src == CENTRE else src + 1,
        "colour": COLOURS[colour],
        "count": count,
        "line": None if dest == FLOOR else dest + 1,
        "overflow": over if dest != FLOOR else 0,
        "lid": to_lid,
        "marker": marker,
    }
    return words, data


class Azul(Game):
    id = "azul"
    name = "Azul"
    min_players = 2
    max_players = 4
    Options = AzulOptions
    summary = Msg("azul.summary")
    notation_help = Msg("azul.notation_help")
    has_hidden_information = False
    later_keys = ("last", "tally")  # a snapshot from before issue 42 lacks them

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
            "last": None,
            "tally": new_tally(n),
        }
        refill(s, rng)
        s["rng"] = rng.state
        return s

    def setup_events(self, state: State) -> list[Event]:
        """The chance outcome of the first round's factories (for a game record)."""
        return [refill_event(state, -1, 0)]

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
        slots = _line_slots(state, seat)
        pick: list[Any] = [None, None, None, None, None]
        moves: list[Move] = []
        for src, k, key in _sources(state):
            g = _GROUPS.get(key) or group(src, k, key >> 1 & 31, key & 1)
            getter = pick[k]
            if getter is None:
                getter = pick[k] = _getter(slots[k])
            moves += getter(g)
        return moves

    def random_move(self, state: State, seat: int, rng: Rng) -> Move:
        """Exactly ``rng.choice(self.legal_moves(state, seat))``, but counts the moves of
        each pile instead of listing them, and picks only the one drawn.

        Why written so: random playouts (the benchmark, the search's rollouts) call this
        at every decision, and measured by instruction counts a Python loop step costs
        more than the arithmetic in it. A pile's moves are the moves per colour it holds,
        summed as ``count and moves`` (0 for a colour it lacks) with no inner loop; a
        binary search in the running totals finds the drawn index's pile, and only that
        pile's colours are walked. ``map``/``compress`` pipelines and table look-ups keyed
        by tuples over these five-entry lists cost more than plain code (iterators to
        allocate, tuples to hash); the loops use what CPython 3.11 specialises (``range``,
        small-integer additions and comparisons, list and tuple indexing).
        """
        if state["phase"] != OFFER or seat != state["turn"]:
            return rng.choice(self.legal_moves(state, seat))
        # moves per colour k in 3-bit fields (colour k at bit 3k): one per pattern line
        # that accepts k now, plus the floor (at most six)
        lc = state["lc"][seat]
        rows = state["rows"][seat]
        ln = state["ln"][seat]
        sizes = _FLOOR_ONLY
        for i in range(5):
            c = ln[i]
            if c == 0:
                sizes += _ACCEPTS[rows[i]]
            elif c <= i:
                sizes += _HOLDS[lc[i]]
        per_colour = _PER_COLOUR.get(sizes) or _PER_COLOUR.setdefault(sizes, _split(sizes))
        m0, m1, m2, m3, m4 = per_colour
        facs = state["fac"]
        piles = [*facs, state["centre"]]  # an emptied factory is []
        total = 0
        ends = []  # the moves of the piles so far, after each pile
        for pile in piles:
            if pile:
                c0, c1, c2, c3, c4 = pile
                total += (c0 and m0) + (c1 and m1) + (c2 and m2) + (c3 and m3) + (c4 and m4)
            ends.append(total)
        i = rng.below(total)
        src = bisect_right(ends, i)
        if src:
            i -= ends[src - 1]
        for k, c in enumerate(piles[src]):
            if c:
                n = per_colour[k]
                if i < n:
                    marker = 0
                    if src == len(facs):
                        src = CENTRE
                        marker = 1 if state["marker"] < 0 else 0
                    key = ((src * 5 + k) << 5 | c) << 1 | marker
                    moves = _GROUPS.get(key) or group(src, k, c, marker)
                    last = i == n - 1  # the floor comes after the lines
                    move = moves[FLOOR_SLOT if last else _nth_line_slot(ln, lc, rows, k, i)]
                    assert move is not None
                    return move
                i -= n
        raise AssertionError("unreachable: the draw is below the number of moves")

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
        events: list[Event] = []
        return self._apply(state, seat, move, events), events

    def next_state(self, state: State, seat: int, move: Move) -> State:
        """``apply`` building no events (see ``Game.next_state``): random playouts and the
        search call this. ``events=None`` below means "nobody reads the words": the state
        changes exactly as in ``apply``; only the events are skipped. An offer by the seat
        to move goes straight to :meth:`_take` (one call, no dispatch); anything else, a
        refusal included, takes ``apply``'s way."""
        parsed = PARSED.get(move.notation)
        if parsed is not None and state["phase"] == OFFER and seat == state["turn"]:
            src, colour, dest = parsed
            after = self._take(state, seat, src, colour, dest, None)
            if after is not None:
                return after
        return self._apply(state, seat, move, None)

    def tell(self, seat: int, notation: str, events: list[Event]) -> Told | None:
        """The move's public sentence (:mod:`rules.azul.told`)."""
        return tell(seat, notation, events)

    def _apply(self, state: State, seat: int, move: Move, events: list[Event] | None) -> State:
        phase = state["phase"]
        if phase == OFFER:
            if seat != state["turn"]:
                raise IllegalMove(NOT_YOUR_TURN)
            parsed = PARSED.get(move.notation) or parse_offer(move.notation)
            after = None if parsed is None else self._take(state, seat, *parsed, events)
            if after is None:
                raise IllegalMove(self.explain_illegal(state, seat, move.notation))
            return after
        if phase == TILING:
            if state["tnext"][seat] >= 5:
                raise IllegalMove(NOT_YOUR_TURN)
            col = parse_column(move.notation)
            if col is None or self._column_problem(state, seat, col) is not None:
                raise IllegalMove(self.explain_illegal(state, seat, move.notation))
            return self._choose_column(state, seat, col, events)
        raise IllegalMove(OVER_ALREADY)

    def _take(
        self,
        state: State,
        seat: int,
        src: int,
        colour: int,
        dest: int,
        events: list[Event] | None,
    ) -> State | None:
        """The state after ``seat`` takes ``colour`` from ``src`` into ``dest``, or ``None``
        when that is illegal now (``_offer_problem`` finds the words). Why the check is
        here and not in a function of its own: it reads the pile and the line that the
        take then changes, so judging and taking share their look-ups (random playouts
        and the search run this at every decision)."""
        old_centre = state["centre"]
        old_facs = state["fac"]
        old_ln = state["ln"]
        old_lc = state["lc"]
        held = placed = 0
        if src == CENTRE:
            count = old_centre[colour]
            if not count:
                return None
        else:
            if not 0 <= src < len(old_facs):
                return None
            fac = old_facs[src]
            count = fac[colour] if fac else 0  # an emptied factory is []
            if not count:
                return None
        if dest != FLOOR:
            if not 0 <= dest < 5:
                return None
            held = old_ln[seat][dest]
            if held:
                if held > dest or old_lc[seat][dest] != colour:
                    return None  # a full line, or one holding another colour
            elif state["rows"][seat][dest] >> colour & 1:
                return None  # the wall row has the colour already

        s = dict(state)
        if src == CENTRE:
            centre = s["centre"] = list(old_centre)
            centre[colour] = 0
            took_marker = state["marker"] < 0
            if took_marker:
                s["marker"] = seat
        else:
            facs = s["fac"] = list(old_facs)
            # the other colours go to the centre; the taken colour stays as it was there
            centre = s["centre"] = list(map(add, old_centre, fac))
            centre[colour] = old_centre[colour]
            facs[src] = []  # an emptied factory is [] so legal_moves skips it at once
            took_marker = False
        left = s["left"] = state["left"] - count

        over = count
        if dest != FLOOR:
            ln = list(old_ln[seat])
            lcs = list(old_lc[seat])
            room = dest + 1 - held
            placed = count if count < room else room
            ln[dest] = held + placed
            lcs[dest] = colour
            over = count - placed
            s["ln"] = x = list(old_ln)
            x[seat] = ln
            s["lc"] = x = list(old_lc)
            x[seat] = lcs
        to_lid = 0
        fell: list[
            list[int]
        ] = []  # the floor items the take added, for the record of the last move
        if over or took_marker:
            floors = state["floor"]
            floor = list(floors[seat])
            before = len(floor)
            if took_marker and len(floor) < FLOOR_SPACES:
                floor.append(MARKER)
            if over:
                room = FLOOR_SPACES - len(floor)
                on_floor = over if over < room else room
                floor.extend([colour] * on_floor)
                to_lid = over - on_floor
                if to_lid:
                    s["lid"] = lid = list(state["lid"])
                    lid[colour] += to_lid
            s["floor"] = x = list(floors)
            x[seat] = floor
            if len(floor) > before:  # not so when a full floor took the marker
                fell = [[seat, before, len(floor)]]
        s["last"] = [seat, src, dest, held, held + placed, fell, []]

        if events is not None:
            words, data = _take_record(seat, count, colour, src, dest, over, to_lid, took_marker)
            events.append(Event("take", words, dict(data)))
        if left:
            s["turn"] = (seat + 1) % state["players"]
        else:
            end_offer(s, events)
        return s

    # ------------------------------------------------------------------ wall tiling (grey)

    def _choose_column(
        self, state: State, seat: int, col: int, events: list[Event] | None
    ) -> State:
        s = dict(state)
        own_players(s)
        s["last"] = column_choice(seat)
        s["tnext"] = list(state["tnext"])
        line = s["tnext"][seat]
        k = s["lc"][seat][line]
        pts = place(s, seat, line, col)
        if events is not None:
            events.append(tile_event(seat, line, k, col, pts, forced=False))
        s["tnext"][seat] = line + 1
        advance(s, seat, events)
        if all(t >= 5 for t in s["tnext"]):
            after_tiling(s, events)
        settle(s)
        return s

    # ------------------------------------------------------------------ legality words
    def _offer_problem(
        self, state: State, seat: int, src: int, colour: int, dest: int
    ) -> Msg | None:
        """Why taking ``colour`` from ``src`` into ``dest`` is illegal now, or ``None``."""
        nf = len(state["fac"])
        cname = COLOUR_WORDS[colour]
        if src != CENTRE and not 0 <= src < nf:
            return Msg("azul.no.factory", number=src + 1, count=nf)
        if not (0 <= dest < 5 or dest == FLOOR):
            return Msg("azul.no.line", number=dest + 1)
        if src == CENTRE:
            pile = state["centre"]
            if not pile[colour]:
                if not any(pile):
                    if state["marker"] < 0:
                        return Msg("azul.no.marker_only")
                    return Msg("azul.no.centre_empty")
                return Msg("azul.no.centre_colour", colour=cname, holds=tiles_text(pile))
        else:
            pile = state["fac"][src]
            if not any(pile):
                return Msg("azul.no.factory_empty", number=src + 1)
            if not pile[colour]:
                return Msg(
                    "azul.no.factory_colour", number=src + 1, colour=cname, holds=tiles_text(pile)
                )
        if dest == FLOOR:
            return None
        held = state["ln"][seat][dest]
        if held:
            have = state["lc"][seat][dest]
            if have != colour:
                return Msg("azul.no.line_colour", number=dest + 1, colour=COLOUR_WORDS[have])
            if held == dest + 1:
                return Msg("azul.no.line_full", number=dest + 1, tiles=tiles_words(held, colour))
        elif state["rows"][seat][dest] >> colour & 1:
            return Msg("azul.no.wall_row", number=dest + 1, colour=cname)
        return None

    def _column_problem(self, state: State, seat: int, col: int) -> Msg | None:
        line = state["tnext"][seat]
        k = state["lc"][seat][line]
        wall = state["wall"][seat]
        if not 0 <= col < 5:
            return Msg("azul.no.column", number=col + 1)
        if wall[line * 5 + col] >= 0:
            return Msg("azul.no.tiled", row=line + 1, column=col + 1)
        for r in range(5):
            if wall[r * 5 + col] == k:
                return Msg(
                    "azul.no.column_colour", column=col + 1, colour=COLOUR_WORDS[k], row=r + 1
                )
        return None

    def explain_illegal(self, state: State, seat: int, text: str) -> Msg:
        phase = state["phase"]
        if phase == OVER:
            return OVER_ALREADY
        if seat not in self.to_act(state):
            return NOT_YOUR_TURN
        if phase == TILING:
            line = state["tnext"][seat]
            k = state["lc"][seat][line]
            col = parse_column(text)
            legal = Join("words.comma", [m.notation for m in self._column_moves(state, seat)])
            if col is None:
                return Msg(
                    "azul.no.choose_column", line=line + 1, colour=COLOUR_WORDS[k], legal=legal
                )
            problem = self._column_problem(state, seat, col)
            if problem:
                return Msg("azul.no.column_choose", problem=problem, legal=legal)
            return Msg("azul.no.column_legal")
        parsed = parse_offer(text)
        if parsed is None:
            if parse_column(text) is not None:
                return Msg("azul.no.columns_only_grey", help=self.notation_help)
            shown = text.strip()[:40]
            return Msg("azul.no.not_a_move", text=shown, help=self.notation_help)
        problem = self._offer_problem(state, seat, *parsed)
        return problem or Msg("azul.no.legal")

    def parse(self, state: State, seat: int, text: str) -> Move:
        """Like the default, but typed text may omit dashes or spell a source out
        (``f3r2``, ``factory 3 r 2``, ``centre b floor``)."""
        if self.outcome(state) is not None:
            raise IllegalMove(OVER_ALREADY)
        if seat not in self.to_act(state):
            raise IllegalMove(NOT_YOUR_TURN)
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
        return outcome_of(state)

    def scores(self, state: State) -> list[int]:
        return list(state["score"])

    def status(self, state: State) -> Msg:
        phase = state["phase"]
        r = state["round"]
        if phase == OFFER:
            return Msg("azul.status.offer", round=r, who=Seat(state["turn"]))
        if phase == TILING:
            who = Join("words.and", [Seat(p) for p in self.to_act(state)])
            return Msg("azul.status.tiling", round=r, who=who)
        out = self.outcome(state)
        assert out is not None
        return Msg("azul.status.over", round=r, reason=out.reason)

    # ------------------------------------------------------------------ view
    def view(self, state: State, seat: int | None) -> View:
        """Everything is public in Azul, so every seat sees the same view."""
        return build_view(self, state)


GAME = Azul()
