"""The Taj Mahal move engine (see the package docstring for the rule decisions).

State (plain JSON):
  n, opts, rng, visit (0-based), tiles {province: tile number}, bonus {city: bonus index},
  palace {city: seat} (regular), crowned {city: seat}, left [palaces in supply],
  court [symbols whose prize is still there], stock {influence kind: tiles in the stack},
  infl [[kinds held]], ptiles [[province tile numbers]], btiles [[bonus indexes]],
  hands [[card ids]], played [[card ids]], lock [colour|None], inv [still in the visit],
  acted [played a card this visit], turn, start, deck (top = end), discard, display,
  special {special id: seat|None}, score [int], pending (the withdrawing player's
  decisions still open) or None, over, final.

Why a ``pending`` record: every decision after a withdrawal (cities, crown, display picks)
belongs to the withdrawing player and must be a move of his; the record says what is still
owed so ``to_act`` can return him until it is settled.
"""

from __future__ import annotations

from bisect import insort
from functools import cache, lru_cache
from typing import Any

from pydantic import BaseModel, ConfigDict

from rules.base import Event, Game, IllegalMove, Move, Outcome, State, Step, View, rank_by
from rules.rng import Rng
from rules.taj_mahal.components import INFLUENCE, SYMBOL_LETTERS, Card, Components, components
from rules.taj_mahal.notation import canonical_key
from rules.taj_mahal.scoring import (
    goods_owned,
    goods_score,
    hand_score,
    majority_wins,
    palace_score,
    symbol_counts,
)
from rules.taj_mahal.words import listed
from rules.words import Join, Msg, Seat

#: What winning a court prize gives, in words ("the vizier tile", "the crown").
PRIZE_WORDS = {
    p: Msg(f"taj_mahal.prize.{p}")
    for p in ("vizier", "general", "monk", "princess", "mogul", "elephant")
}


class Options(BaseModel):
    """Match options (rule decisions the reference asks to keep configurable)."""

    model_config = ConfigDict(extra="forbid")

    #: [R] the last player left in a visit may keep playing cards before withdrawing.
    last_player_may_play: bool = True
    #: [L] one palace per influence tile won (False: one palace per withdrawal in total).
    palace_per_influence_tile: bool = True
    #: Seat of the first starting player ("chosen by agreement").
    first_player: int = 0


_WITHDRAW = Move(
    "withdraw",
    Msg("taj_mahal.label.withdraw"),
    (Step("withdraw", Msg("taj_mahal.step.withdraw")),),
    0.5,
)


@cache
def _play_move(cid: int, eid: int | None, rank: float) -> Move:
    """The move playing card ``cid`` (+ ``eid``); cached since the same few hundred recur."""
    comp = components()
    card = comp.cards[cid]
    colour = Msg(f"taj_mahal.colour.{card.colour}") if card.colour else ""
    colour_step = Step(card.code.split("-")[0], colour)
    card_step = Step(card.code, card.name)
    if eid is None:
        steps = (colour_step, card_step, Step("alone", Msg("taj_mahal.step.alone")))
        return Move(card.code, Msg("taj_mahal.label.play", card=card.name), steps, rank)
    extra = comp.cards[eid]
    steps = (colour_step, card_step, Step(extra.code, extra.name))
    label = Msg("taj_mahal.label.play_with", card=card.name, extra=extra.name)
    return Move(f"{card.code}+{extra.code}", label, steps, rank)


def _visit_words(state: State, prov: str, comp: Components) -> Msg:
    """The event opening a visit: province, its tile's goods, who starts, the display."""
    number = state["visit"] + 1
    return Msg(
        "taj_mahal.ev.visit",
        visit=number,
        province=comp.province_label[prov],
        goods=Join("words.comma", [Msg(f"taj_mahal.good.{g}") for g in comp.tile_goods[number]]),
        who=Seat(state["start"]),
        display=Join("words.comma", [comp.cards[c].name for c in state["display"]]),
    )


def _in_court(symbols: tuple[str, ...], court: tuple[str, ...]) -> int:
    """How many of a card's symbols have their prize still in the court."""
    n = 0
    for x in symbols:
        if x in court:
            n += 1
    return n


def _hand_plays(hand: tuple[int, ...] | list[int]) -> tuple[list[Card], list[Card]]:
    """What a turn's plays are made of: the hand's distinct coloured cards and its distinct
    extra cards (white and special), the first copy of each in id order: what the list of
    a turn's moves is built from. The random draw (:func:`_random_turn_move`) reads the hand
    the same way inline, and the legality check (:func:`_turn_play_ids`) finds the one or
    two cards it is asked about; tests compare both with ``legal_moves``."""
    cards = components().cards
    coloured: list[Card] = []
    extras: list[Card] = []
    seen: set[str] = set()
    for cid in hand:  # sorted ids: colours in data order
        card = cards[cid]
        if card.code in seen:
            continue
        seen.add(card.code)
        if card.kind == "colour":
            coloured.append(card)
        else:
            extras.append(card)
    return coloured, extras


@lru_cache(maxsize=1 << 14)
def _turn_moves_of(
    withdraw_only: bool, lock: str | None, hand: tuple[int, ...], court: tuple[str, ...]
) -> tuple[Move, ...]:
    """A turn's moves from what they depend on: the hand, the colour lock, the court and
    whether only withdrawing is left: withdraw, then per coloured card (unless another
    colour is locked) the card alone and with each extra card; a card of another colour
    only with the colour-change card. Cached because the search lists the moves of the
    same situations again and again (its tree and its rollouts)."""
    if withdraw_only:
        return (_WITHDRAW,)
    coloured, extras = _hand_plays(hand)
    bonus = [_in_court(e.symbols, court) for e in extras]
    has_change = any(e.special == "colour" for e in extras)
    moves = [_WITHDRAW]
    for card in coloured:
        off_colour = lock is not None and card.colour != lock
        if off_colour and not has_change:
            continue
        cid = card.id
        base = _in_court(card.symbols, court)
        if not off_colour:
            moves.append(_play_move(cid, None, base))
        for extra, more in zip(extras, bonus, strict=True):
            if off_colour and extra.special != "colour":
                continue
            moves.append(_play_move(cid, extra.id, base + more - 0.5))
    return tuple(moves)


def _random_turn_move(
    withdraw_only: bool, lock: str | None, hand: list[int], court: list[str], rng: Rng
) -> Move:
    """``rng.choice`` of :func:`_turn_moves_of`'s moves, building only the one drawn.

    Why: a random playout makes ninety-odd turns, each in a situation it rarely meets
    again, so building (and caching) every move of the turn to use one was most of a
    turn's cost. The count of moves per coloured card follows from the same rule as the
    list (alone and with every extra card; off colour only with the colour change), so
    the index drawn and the move built are the ones the list would give
    (``tests/test_engine_equivalence.py`` compares them with ``rng.choice(legal_moves)``).
    The hand is read as :func:`_hand_plays` reads it, inline and noting the colour change
    on the way (this runs at every turn of a random game: a call and two comprehensions
    were a fifth of it)."""
    if withdraw_only:
        rng.below(1)  # one move: the stream still takes the step rng.choice takes
        return _WITHDRAW
    cards = components().cards
    coloured: list[Card] = []
    extras: list[Card] = []
    changes: list[Card] = []
    seen: set[str] = set()
    for cid in hand:  # sorted ids: colours in data order
        card = cards[cid]
        code = card.code
        if code in seen:
            continue
        seen.add(code)
        if card.kind == "colour":
            coloured.append(card)
        else:
            extras.append(card)
            if card.special == "colour":
                changes.append(card)
    on_count = 1 + len(extras)  # moves of a card of the locked colour (or of any, unlocked)
    if lock is None:
        i = rng.below(1 + len(coloured) * on_count)
        if i == 0:
            return _WITHDRAW
        card = coloured[(i - 1) // on_count]
        i = (i - 1) % on_count
    else:
        off_count = len(changes)  # moves of a card of another colour
        total = 1
        for card in coloured:
            total += on_count if card.colour == lock else off_count
        i = rng.below(total)
        if i == 0:
            return _WITHDRAW
        i -= 1
        for card in coloured:
            count = on_count if card.colour == lock else off_count
            if i < count:
                break
            i -= count
        if card.colour != lock:
            extra = changes[i]
            base = _in_court(card.symbols, court) + _in_court(extra.symbols, court) - 0.5
            return _play_move(card.id, extra.id, base)
    base = _in_court(card.symbols, court)
    if i == 0:
        return _play_move(card.id, None, base)
    extra = extras[i - 1]
    return _play_move(card.id, extra.id, base + _in_court(extra.symbols, court) - 0.5)


def _turn_play_ids(lock: str | None, hand: list[int], note: str) -> tuple[int, int | None] | None:
    """The cards ``note`` plays (a card code, or two joined by ``+``): the ids of the first
    copies in the hand, as (card, extra card or None), or None when ``note`` is not one of
    the plays :func:`_turn_moves_of` lists for this hand and colour lock. The first card
    must be a coloured card in the hand (of the locked colour, unless the second is the
    colour change), the second an extra card (white or special) in the hand.

    Why one function for "is it legal" and "which cards": ``apply`` asks both at every
    played card, and finding the one or two codes in the (sorted) hand once is a fraction
    of building the hand's plays, or of finding them twice
    (``tests/test_taj_mahal_rules.py`` compares this with ``legal_moves``)."""
    first, plus, second = note.partition("+")
    if "+" in second:
        return None
    card_codes = _card_codes()
    for cid in hand:
        if card_codes[cid] == first:
            break
    else:
        return None
    cards = components().cards
    card = cards[cid]
    if card.kind != "colour":
        return None
    on_colour = lock is None or card.colour == lock
    if not plus:
        return (cid, None) if on_colour else None
    for eid in hand:
        if card_codes[eid] == second:
            extra = cards[eid]
            if extra.kind != "colour" and (on_colour or extra.special == "colour"):
                return cid, eid
            return None
    return None


@cache
def _palace_move(city: str, bonus: int | None) -> Move:
    comp = components()
    label = Msg("taj_mahal.label.palace", city=comp.city_label(city))
    rank = 1.0
    if bonus is not None:
        tile = comp.bonus_tiles[bonus].name
        label = Msg("taj_mahal.label.palace_bonus", city=comp.city_label(city), tile=tile)
        rank = 2.0
    note = "palace-" + comp.city_code(city)
    return Move(note, label, (Step(note, label),), rank)


@cache
def _crown_move(city: str) -> Move:
    comp = components()
    label = Msg("taj_mahal.label.crown", city=comp.city_label(city))
    note = "crown-" + comp.city_code(city)
    return Move(note, label, (Step(note, label),), 1.0)


@cache
def _take_move(cid: int) -> Move:
    card = components().cards[cid]
    note = "take-" + card.code
    label = Msg("taj_mahal.label.take", card=card.name)
    return Move(note, label, (Step(note, label),), len(card.symbols))


@cache
def _card_codes() -> tuple[str, ...]:
    """Each card's notation by card id (a hot lookup in ``apply``)."""
    return tuple(card.code for card in components().cards)


@cache
def _city_by_code() -> dict[str, str]:
    comp = components()
    return {comp.city_code(c): c for c in comp.cities}


def _withdraw_only(state: State) -> bool:
    """Whether the turn's only move is to withdraw: the last player left in the visit may
    not play cards under the option [R] ``last_player_may_play=False`` (asked first: it is
    rarely set, and then nobody needs to count who is left)."""
    return not state["opts"]["last_player_may_play"] and sum(state["inv"]) == 1


def _free_cities(state: State, prov: str) -> list[str]:
    """Cities of province ``prov`` without a regular palace (a crowned palace alone does
    not block): where a palace may go when ``prov`` is visited."""
    palace = state["palace"]
    return [c for c in components().province_cities[prov] if c not in palace]


def _crown_cities(state: State, seat: int, prov: str) -> list[str]:
    """Cities of province ``prov`` where ``seat`` may crown a palace: any city except one
    already holding his own palace [R]."""
    palace, crowned = state["palace"], state["crowned"]
    return [
        c
        for c in components().province_cities[prov]
        if palace.get(c) != seat and crowned.get(c) != seat
    ]


def _display_choices(display: list[int]) -> list[int]:
    """The display cards a pick chooses among: the first card of each code, in display
    order (identical cards are one choice)."""
    codes = _card_codes()
    out: list[int] = []
    seen: set[str] = set()
    for cid in display:
        code = codes[cid]
        if code not in seen:
            seen.add(code)
            out.append(cid)
    return out


def _display_card(display: list[int], code: str) -> int | None:
    """The first display card with notation ``code``, or None if none is shown."""
    codes = _card_codes()
    for cid in display:
        if codes[cid] == code:
            return cid
    return None


#: Each symbol's place in the court (the data order of the symbols), for sorting it.
_SYMBOL_ORDER = {symbol: i for i, symbol in enumerate(SYMBOL_LETTERS)}

#: Per-seat lists: the acting seat's own list is copied up front, the others on demand.
_NESTED = ("hands", "played", "infl", "ptiles", "btiles")


def _clone(s: State, seat: int) -> State:
    """A new state sharing with ``s`` everything ``apply`` rarely changes.

    Why not a full copy: copying all 30-odd lists and dicts was a fifth of a random
    playout's time, yet a typical move (play a card, take a display card) changes only the
    acting seat's hand and played cards and one or two small lists. So ``apply`` copies
    the hand and played cards here, and every other change is preceded by a copy of what
    it changes: :func:`_own` on the rarer parts (the draw pile, the map's palaces, the
    influence tiles, other seats' hands...), a plain ``s[key] = s[key].copy()`` beside the
    change of a small list (lock, inv, acted, left, score, display, court: copying all
    seven up front was most of the cost of a clone). That keeps ``apply`` pure: the state
    passed in is never changed (``tests/test_taj_mahal_rules.py`` checks it over whole
    games). Copies are made with ``.copy()``, which is cheaper than ``[:]`` or ``dict()``
    on this interpreter (a slice first builds a slice object)."""
    t = s.copy()
    outer = s["hands"].copy()
    outer[seat] = outer[seat].copy()
    t["hands"] = outer
    outer = s["played"].copy()
    outer[seat] = outer[seat].copy()
    t["played"] = outer
    if s["pending"] is not None:
        p = s["pending"].copy()
        p["placed"] = list(p["placed"])
        t["pending"] = p
    return t


def _own(s: State, key: str, seat: int | None = None) -> None:
    """Give ``s`` its own copy of ``s[key]`` before changing it in place (for per-seat
    lists: of ``seat``'s list, or of every seat's when ``seat`` is None). Copying a part
    that is already the state's own is harmless, only slower, so the rare paths that call
    this need not know what was copied before."""
    value = s[key]
    if isinstance(value, dict):
        s[key] = value.copy()
    elif key in _NESTED:
        if seat is None:
            s[key] = [inner.copy() for inner in value]
        else:
            outer = value.copy()
            outer[seat] = outer[seat].copy()
            s[key] = outer
    else:
        s[key] = value.copy()


def _palace_event(
    seat: int, city: str, b: int | None, points: int, drawn: list[int], comp: Components
) -> Event:
    """The event of a palace placed in ``city``, with what its bonus tile ``b`` (if any)
    gave: ``points`` scored or the cards ``drawn`` (told only to the placing seat)."""
    where = {"who": Seat(seat), "city": comp.city_label(city)}
    data: dict[str, Any] = {"seat": seat, "city": city}
    if b is None:
        return Event("palace", Msg("taj_mahal.ev.palace", **where), data)
    tile = comp.bonus_tiles[b]
    data["bonus"] = b
    if tile.kind == "points":
        text = Msg("taj_mahal.ev.palace_points", **where, tile=tile.name, points=points)
        return Event("palace", text, data)
    if tile.kind == "good":
        good = Msg(f"taj_mahal.good.{tile.good}")
        text = Msg("taj_mahal.ev.palace_good", **where, good=good, points=points)
        return Event("palace", text, data)
    text = Msg("taj_mahal.ev.palace_card", **where, tile=tile.name, n=len(drawn))
    cards = listed([comp.cards[c].name for c in drawn]) or Msg("taj_mahal.nothing")
    private = {seat: Msg("taj_mahal.ev.you_drew", cards=cards)}
    return Event("palace", text, data, {"drawn": drawn}, private, reveals=True)


class TajMahal(Game):
    id = "taj-mahal"
    name = "Taj Mahal"
    min_players = 3
    max_players = 5
    Options = Options
    has_hidden_information = True
    summary = Msg("taj_mahal.summary")
    notation_help = Msg("taj_mahal.notation_help")

    # ----- setup ---------------------------------------------------------------------
    def setup(
        self, player_count: int, seed: int, options: BaseModel | dict[str, Any] | None = None
    ) -> State:
        self.check_player_count(player_count)
        opts = self.parse_options(options)
        assert isinstance(opts, Options)
        if not 0 <= opts.first_player < player_count:
            raise IllegalMove(Msg("taj_mahal.no.first_player", last=player_count - 1))
        comp = components()
        rng = Rng.from_seed(seed, "taj-mahal")
        n = player_count
        others = [p for p in comp.province_keys if p != comp.agra]
        numbers = list(range(1, comp.setup.visits))
        rng.shuffle(numbers)
        tiles = dict(zip(others, numbers, strict=True))
        tiles[comp.agra] = comp.setup.visits
        forts = [c for c in comp.cities if c in comp.fortresses and c != comp.taj_city]
        bonus_idx = list(range(1, len(comp.bonus_tiles)))
        rng.shuffle(bonus_idx)
        bonus = dict(zip(forts, bonus_idx, strict=True))
        bonus[comp.taj_city] = 0
        deck = list(comp.deck)
        rng.shuffle(deck)
        hands = []
        for _ in range(n):
            hands.append(sorted(deck[-comp.setup.starting_hand :]))
            del deck[-comp.setup.starting_hand :]
        state: State = {
            "n": n,
            "opts": opts.model_dump(),
            "rng": rng.state,  # the first display's draw (below) goes on from here
            "visit": 0,
            "tiles": tiles,
            "bonus": bonus,
            "palace": {},
            "crowned": {},
            "left": [comp.setup.palaces_per_player] * n,
            "court": list(comp.setup.court_prizes),
            "stock": {k: comp.setup.influence_tiles_per_kind - 1 for k in INFLUENCE},
            "infl": [[] for _ in range(n)],
            "ptiles": [[] for _ in range(n)],
            "btiles": [[] for _ in range(n)],
            "hands": hands,
            "played": [[] for _ in range(n)],
            "lock": [None] * n,
            "inv": [True] * n,
            "acted": [False] * n,
            "turn": opts.first_player,
            "start": opts.first_player,
            "deck": deck,
            "discard": [],
            "display": [],
            "special": {sid: None for sid in comp.specials},
            "score": [0] * n,
            "pending": None,
            "over": False,
            "final": None,
        }
        state["display"] = self._draw(state, comp.display_size(n), [])
        return state

    def setup_events(self, state: State) -> list[Event]:
        """The chance outcomes of ``setup`` for a game record: the province order and the
        bonus tiles on the fortresses, the cards dealt into each hand (secret) and the
        first display, so a record can be checked without our random-number generator."""
        comp = components()
        order = sorted(state["tiles"], key=state["tiles"].__getitem__)
        provinces = Join(
            "words.comma",
            [
                Msg(
                    "taj_mahal.ev.numbered",
                    number=state["tiles"][p],
                    province=comp.province_label[p],
                )
                for p in order
            ],
        )
        sizes = [len(h) for h in state["hands"]]
        prov = self.province(state)
        return [
            Event(
                "setup",
                Msg("taj_mahal.ev.setup", provinces=provinces),
                {"tiles": dict(state["tiles"]), "bonus": dict(state["bonus"])},
                reveals=True,
            ),
            Event(
                "deal",
                Msg("taj_mahal.ev.deal", n=sizes[0]),
                {"hand_sizes": sizes},
                {"hands": [list(h) for h in state["hands"]]},
                reveals=True,
            ),
            Event(
                "visit",
                _visit_words(state, prov, comp),
                {"visit": 1, "province": prov, "display": list(state["display"])},
                reveals=True,
            ),
        ]

    # ----- helpers -------------------------------------------------------------------
    @staticmethod
    def province(state: State) -> str:
        """Key of the province visited now."""
        number = state["visit"] + 1
        for prov, t in state["tiles"].items():
            if t == number:
                return prov
        raise AssertionError("no province for this visit")

    @staticmethod
    def _draw(state: State, k: int, events: list[Event] | None) -> list[int]:
        """Take up to ``k`` cards from the top of the draw pile, reshuffling the discard
        pile into a new draw pile when it runs out ([L] rule 9).

        The generator is read from ``state["rng"]`` and written back here, the only place a
        move draws at random: most moves draw nothing, and building an ``Rng`` for every
        move only to store its unchanged state back was a visible part of a random game."""
        rng = Rng(state["rng"])
        out: list[int] = []
        _own(state, "deck")
        for _ in range(k):
            if not state["deck"]:
                if not state["discard"]:
                    break
                pile = list(state["discard"])
                rng.shuffle(pile)
                state["deck"] = pile
                state["discard"] = []
                if events is not None:
                    events.append(
                        Event(
                            "reshuffle",
                            Msg("taj_mahal.ev.reshuffle", n=len(pile)),
                            {"cards": len(pile)},
                        )
                    )
            out.append(state["deck"].pop())
        state["rng"] = rng.state
        return out

    def _next_in(self, state: State, seat: int) -> int | None:
        n = state["n"]
        for i in range(1, n + 1):
            s = (seat + i) % n
            if state["inv"][s]:
                return s
        return None

    # ----- whose decision --------------------------------------------------------------
    def to_act(self, state: State) -> list[int]:
        if state["over"]:
            return []
        if state["pending"] is not None:
            return [state["pending"]["seat"]]
        return [state["turn"]]

    def _phase(self, state: State) -> str:
        p = state["pending"]
        if p is None:
            return "turn"
        if p["palaces"] > 0:
            return "palace"
        if p["crown"]:
            return "crown"
        return "pick"

    # ----- legal moves ---------------------------------------------------------------
    def palace_cities(self, state: State) -> list[str]:
        """Cities of the current province without a regular palace (a crowned palace alone
        does not block)."""
        return _free_cities(state, self.province(state))

    def crown_cities(self, state: State, seat: int) -> list[str]:
        """Any city of the current province except one already holding his own palace [R]."""
        return _crown_cities(state, seat, self.province(state))

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        phase = self._phase(state)
        if phase == "turn":
            return self._turn_moves(state, seat, components())
        return self._pending_moves(state, seat, phase)

    def _pending_moves(self, state: State, seat: int, phase: str) -> list[Move]:
        """The moves of the withdrawing ``seat``'s open decision (``phase`` is not "turn")."""
        if phase == "palace":
            bonus = state["bonus"]
            return [_palace_move(c, bonus.get(c)) for c in self.palace_cities(state)]
        if phase == "crown":
            return [_crown_move(c) for c in self.crown_cities(state, seat)]
        return [_take_move(cid) for cid in _display_choices(state["display"])]

    def random_move(self, state: State, seat: int, rng: Rng) -> Move:
        """``rng.choice(legal_moves)``, building only the move drawn: on a turn without
        listing the turn's moves (random playouts call this at every decision, see
        :func:`_random_turn_move`), and for the withdrawing seat's open decisions from the
        cities or cards they are about, without asking again whose decision it is."""
        pending = state["pending"]
        if not state["over"]:
            if pending is None:
                if seat == state["turn"]:
                    hand, lock = state["hands"][seat], state["lock"][seat]
                    court = state["court"]
                    return _random_turn_move(_withdraw_only(state), lock, hand, court, rng)
            elif seat == pending["seat"]:
                # the same list, in the same order, as _pending_moves builds its moves from
                if pending["palaces"] > 0:
                    cities = _free_cities(state, self.province(state))
                    city = cities[rng.below(len(cities))]
                    return _palace_move(city, state["bonus"].get(city))
                if pending["crown"]:
                    cities = _crown_cities(state, seat, self.province(state))
                    return _crown_move(cities[rng.below(len(cities))])
                cids = _display_choices(state["display"])
                return _take_move(cids[rng.below(len(cids))])
        return rng.choice(self.legal_moves(state, seat))

    def _turn_moves(self, state: State, seat: int, comp: Components) -> list[Move]:
        return list(self._turn_move_tuple(state, seat))

    @staticmethod
    def _turn_move_tuple(state: State, seat: int) -> tuple[Move, ...]:
        return _turn_moves_of(
            _withdraw_only(state),
            state["lock"][seat],
            tuple(state["hands"][seat]),
            tuple(state["court"]),
        )

    # ----- apply -----------------------------------------------------------------------
    def apply(self, state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
        events: list[Event] = []
        return self._apply(state, seat, move, events), events

    def next_state(self, state: State, seat: int, move: Move) -> State:
        """``apply`` building no events (see ``Game.next_state``): random playouts and the
        search call this. The helpers below take ``events=None`` to mean "nobody reads the
        words": they change the state exactly as before and skip only building events."""
        return self._apply(state, seat, move, None)

    def _apply(self, state: State, seat: int, move: Move, events: list[Event] | None) -> State:
        """Check the move, then make it on a copy-on-write clone (see :func:`_clone`).

        Each phase finds what the move is about (the cards played, the city, the display
        card) while checking it, and hands that on, so nothing is looked up twice; the
        province of a palace or crown decision likewise goes on to :meth:`_continue`.
        :meth:`_is_legal` gives the same yes/no (``tests/test_taj_mahal_rules.py``)."""
        pending = state["pending"]
        # ``seat not in self.to_act(state)``, without building the list
        if state["over"] or seat != (state["turn"] if pending is None else pending["seat"]):
            raise IllegalMove(Msg("game.not_your_turn"))
        note = move.notation
        comp = components()
        if pending is None:
            if note == "withdraw":
                s = _clone(state, seat)
                self._withdraw(s, seat, comp, events)
                self._continue(s, comp, events)
                return s
            play = None
            if not _withdraw_only(state):
                play = _turn_play_ids(state["lock"][seat], state["hands"][seat], note)
            if play is None:
                raise IllegalMove(self.explain_illegal(state, seat, note))
            s = _clone(state, seat)
            self._play(s, seat, play[0], play[1], comp, events)
            return s  # a play opens no decision: nothing for _continue to settle
        prov = None
        if pending["palaces"] > 0:
            prov = self.province(state)
            city = _city_by_code().get(note[7:]) if note.startswith("palace-") else None
            if city is None or city not in _free_cities(state, prov):
                raise IllegalMove(self.explain_illegal(state, seat, note))
            s = _clone(state, seat)
            self._place_palace(s, seat, city, comp, events)
        elif pending["crown"]:
            prov = self.province(state)
            city = _city_by_code().get(note[6:]) if note.startswith("crown-") else None
            if city is None or city not in _crown_cities(state, seat, prov):
                raise IllegalMove(self.explain_illegal(state, seat, note))
            s = _clone(state, seat)
            self._place_crown(s, seat, city, comp, events)
        else:
            cid = _display_card(state["display"], note[5:]) if note.startswith("take-") else None
            if cid is None:
                raise IllegalMove(self.explain_illegal(state, seat, note))
            s = _clone(state, seat)
            self._take(s, seat, cid, comp, events)
        self._continue(s, comp, events, prov)
        return s

    def _is_legal(self, state: State, seat: int, note: str, phase: str | None = None) -> bool:
        """Cheap check that ``note`` is one of ``legal_moves`` (same rules, no Move lists),
        the same checks ``_apply`` makes. ``phase``: ``self._phase(state)`` when the caller
        has it already."""
        if phase is None:
            phase = self._phase(state)
        if phase == "palace":
            city = _city_by_code().get(note[7:]) if note.startswith("palace-") else None
            return city is not None and city in self.palace_cities(state)
        if phase == "crown":
            city = _city_by_code().get(note[6:]) if note.startswith("crown-") else None
            return city is not None and city in self.crown_cities(state, seat)
        if phase == "pick":
            if not note.startswith("take-"):
                return False
            return _display_card(state["display"], note[5:]) is not None
        if note == "withdraw":
            return True
        if _withdraw_only(state):
            return False
        return _turn_play_ids(state["lock"][seat], state["hands"][seat], note) is not None

    @staticmethod
    def _city_from_code(code: str) -> str:
        return _city_by_code()[code]

    def _play(
        self,
        s: State,
        seat: int,
        cid: int,
        eid: int | None,
        comp: Components,
        events: list[Event] | None,
    ) -> None:
        """Play card ``cid`` (with extra card ``eid``), as :func:`_turn_play_ids` found them."""
        hand = s["hands"][seat]
        played = s["played"][seat]
        hand.remove(cid)
        played.append(cid)
        main = comp.cards[cid]
        extra = None
        if eid is not None:
            hand.remove(eid)
            played.append(eid)
            extra = comp.cards[eid]
        if s["lock"][seat] is None:
            s["lock"] = s["lock"].copy()  # copy before changing (see _clone), likewise below
            s["lock"][seat] = main.colour
        if not s["acted"][seat]:
            s["acted"] = s["acted"].copy()
            s["acted"][seat] = True
        if extra is not None and extra.points:
            s["score"] = s["score"].copy()
            s["score"][seat] += extra.points
        if events is not None:
            if extra is None:
                text = Msg("taj_mahal.ev.play", who=Seat(seat), card=main.name)
            elif extra.points:
                text = Msg(
                    "taj_mahal.ev.play_scored",
                    who=Seat(seat),
                    card=main.name,
                    extra=extra.name,
                    points=extra.points,
                )
            else:
                text = Msg(
                    "taj_mahal.ev.play_with", who=Seat(seat), card=main.name, extra=extra.name
                )
            cards = [cid] if eid is None else [cid, eid]
            events.append(Event("play", text, {"seat": seat, "cards": cards}))
        nxt = self._next_in(s, seat)
        assert nxt is not None
        s["turn"] = nxt

    def _withdraw(self, s: State, seat: int, comp: Components, events: list[Event] | None) -> None:
        played, inv = s["played"], s["inv"]
        mine = symbol_counts(played[seat], comp)
        others = []
        for o in range(s["n"]):
            if o != seat and inv[o]:
                others.append(symbol_counts(played[o], comp))
        won = majority_wins(mine, others, s["court"])
        s["inv"] = inv = inv.copy()  # copy before changing (see _clone), likewise the court
        inv[seat] = False
        s["court"] = s["court"].copy()
        palaces = 0
        for prize in won:
            s["court"].remove(prize)
            if prize in INFLUENCE:
                if not palaces:  # the first influence tile won: copy before changing
                    _own(s, "infl", seat)
                s["infl"][seat].append(prize)
                palaces += 1
        if not s["opts"]["palace_per_influence_tile"]:
            palaces = min(palaces, 1)
        palaces = min(palaces, s["left"][seat])
        crown = "mogul" in won and s["left"][seat] > palaces
        ptile = s["visit"] + 1 if "elephant" in won else None
        if events is not None:
            prizes = listed([PRIZE_WORDS[p] for p in won]) if won else Msg("taj_mahal.nothing")
            key = "taj_mahal.ev.withdraw" if s["acted"][seat] else "taj_mahal.ev.withdraw_idle"
            text = Msg(key, who=Seat(seat), prizes=prizes)
            events.append(Event("withdraw", text, {"seat": seat, "won": won}))
        s["pending"] = {
            "seat": seat,
            "palaces": palaces,
            "crown": crown,
            "placed": [],
            "ptile": ptile,
            "scored": False,
            "picks": 2,
            "blind": not s["acted"][seat],
        }

    def _place_palace(
        self,
        s: State,
        seat: int,
        city: str,
        comp: Components,
        events: list[Event] | None,
    ) -> None:
        p = s["pending"]
        _own(s, "palace")
        s["palace"][city] = seat
        s["left"] = s["left"].copy()  # copy before changing (see _clone), likewise the score
        s["left"][seat] -= 1
        p["palaces"] -= 1
        p["placed"].append(city)
        b = s["bonus"].get(city)
        if b is not None:  # the city's bonus tile leaves the map: copy before changing
            _own(s, "bonus")
            del s["bonus"][city]
        points = 0  # what the bonus tile scored
        drawn: list[int] = []  # what it drew
        if b is not None:
            tile = comp.bonus_tiles[b]
            if tile.kind == "points":
                points = tile.value
            elif tile.kind == "good":
                before = goods_owned(s["ptiles"][seat], s["btiles"][seat], comp)
                points = goods_score([tile.good or ""], before)[0]
            else:
                drawn = self._draw(s, tile.value, events)
                s["hands"][seat].extend(drawn)
                s["hands"][seat].sort()
            if points:
                s["score"] = s["score"].copy()
                s["score"][seat] += points
            _own(s, "btiles", seat)
            s["btiles"][seat].append(b)
        if events is not None:
            events.append(_palace_event(seat, city, b, points, drawn, comp))

    def _place_crown(
        self, s: State, seat: int, city: str, comp: Components, events: list[Event] | None
    ) -> None:
        p = s["pending"]
        _own(s, "crowned")
        s["crowned"][city] = seat
        s["left"] = s["left"].copy()  # copy before changing (see _clone)
        s["left"][seat] -= 1
        p["crown"] = False
        p["placed"].append(city)
        if events is None:
            return
        owner = s["palace"].get(city)
        where = {"who": Seat(seat), "city": comp.city_label(city)}
        if owner is not None:
            text = Msg("taj_mahal.ev.crown_beside", **where, owner=Seat(owner))
        else:
            text = Msg("taj_mahal.ev.crown", **where)
        events.append(
            Event(
                "crown",
                text,
                {"seat": seat, "city": city},
            )
        )

    def _take(
        self, s: State, seat: int, cid: int, comp: Components, events: list[Event] | None
    ) -> None:
        """Take display card ``cid`` (as :func:`_display_card` found it) into the hand."""
        s["display"] = s["display"].copy()  # copy before changing (see _clone)
        s["display"].remove(cid)
        insort(s["hands"][seat], cid)  # hands stay sorted
        s["pending"]["picks"] -= 1
        if events is None:
            return
        name = comp.cards[cid].name
        events.append(
            Event(
                "take",
                Msg("taj_mahal.ev.take", who=Seat(seat), card=name),
                {"seat": seat, "card": cid},
                {"card": cid},
                {seat: Msg("taj_mahal.ev.you_took", card=name)},
            )
        )

    # ----- automatic progress ------------------------------------------------------------
    def _continue(
        self, s: State, comp: Components, events: list[Event] | None, prov: str | None = None
    ) -> None:
        """Settle everything that needs no decision, stopping at the next one. ``prov``:
        the province visited, when the caller has looked it up already."""
        p = s["pending"]
        if p is None:
            return
        seat = p["seat"]
        if p["palaces"] > 0:
            if prov is None:
                prov = self.province(s)
            if _free_cities(s, prov):
                return
            p["palaces"] = 0
        if p["crown"]:
            if _crown_cities(s, seat, prov or self.province(s)):
                return
            p["crown"] = False
            if events is not None:
                events.append(Event("crown", Msg("taj_mahal.ev.no_crown", who=Seat(seat))))
        if not p["scored"]:
            p["scored"] = True
            self._score_withdrawal(s, seat, comp, events)
        if p["picks"] > 0 and s["display"]:
            return
        if p["blind"]:
            p["blind"] = False
            drawn = self._draw(s, 1, events)
            s["hands"][seat].extend(drawn)
            s["hands"][seat].sort()
            if drawn and events is not None:
                name = comp.cards[drawn[0]].name
                events.append(
                    Event(
                        "draw",
                        Msg("taj_mahal.ev.draw", who=Seat(seat)),
                        {"seat": seat},
                        {"card": drawn[0]},
                        {seat: Msg("taj_mahal.ev.you_drew_deck", card=name)},
                        reveals=True,
                    )
                )
        s["pending"] = None
        nxt = self._next_in(s, seat)
        if nxt is not None:
            s["turn"] = nxt
        else:
            self._end_visit(s, comp, events)

    def _score_withdrawal(
        self, s: State, seat: int, comp: Components, events: list[Event] | None
    ) -> None:
        p = s["pending"]
        parts: list[Msg] = []  # the words of each part, only when someone reads them
        total = 0
        if p["ptile"] is not None:
            goods = comp.tile_goods[p["ptile"]]
            before = goods_owned(s["ptiles"][seat], s["btiles"][seat], comp)
            pts = goods_score(goods, before)
            _own(s, "ptiles", seat)
            s["ptiles"][seat].append(p["ptile"])
            total += sum(pts)
            if events is not None:
                each = [
                    Msg("taj_mahal.ev.score_good", good=Msg(f"taj_mahal.good.{g}"), points=v)
                    for g, v in zip(goods, pts, strict=True)
                ]
                goods_words = Join("taj_mahal.plus", each)
                parts.append(Msg("taj_mahal.ev.score_goods", goods=goods_words))
        if p["placed"]:
            mine = {c for c, o in s["palace"].items() if o == seat}
            mine |= {c for c, o in s["crowned"].items() if o == seat}
            pts_p, provinces = palace_score(mine, p["placed"], comp)
            total += pts_p
            if events is not None:
                names = Join("words.comma", [comp.province_label[x] for x in provinces])
                parts.append(Msg("taj_mahal.ev.score_palaces", points=pts_p, provinces=names))
        if total:
            s["score"] = s["score"].copy()  # copy before changing (see _clone)
            s["score"][seat] += total
        if total and events is not None:
            events.append(
                Event(
                    "score",
                    Msg(
                        "taj_mahal.ev.score",
                        who=Seat(seat),
                        points=total,
                        parts=Join("words.semicolon", parts),
                    ),
                    {"seat": seat, "points": total},
                )
            )
        _own(s, "discard")
        for cid in s["played"][seat]:
            if comp.cards[cid].kind == "special":
                s["hands"][seat].append(cid)
            else:
                s["discard"].append(cid)
        s["hands"][seat].sort()
        s["played"][seat] = []

    def _end_visit(self, s: State, comp: Components, events: list[Event] | None) -> None:
        # 1. pairs of influence tiles claim special cards (after visit 12 too [R]). Most
        # visits end without a pair, and then the claims and their copies are skipped.
        for infl in s["infl"]:
            if len(set(infl)) < len(infl):
                self._claim_specials(s, comp, events)
                break
        s["discard"] = s["discard"] + s["display"]  # a new list: see _clone
        s["display"] = []
        if s["visit"] + 1 >= comp.setup.visits:
            self._finish(s, comp, events)
            return
        s["visit"] += 1
        s["start"] = (s["start"] + 1) % s["n"]
        s["turn"] = s["start"]
        s["inv"] = [True] * s["n"]
        s["acted"] = [False] * s["n"]
        s["lock"] = [None] * s["n"]
        s["court"] = s["court"].copy()  # copy before changing (see _clone), likewise the stock
        s["stock"] = s["stock"].copy()
        for kind in INFLUENCE:
            if kind not in s["court"] and s["stock"][kind] > 0:
                s["stock"][kind] -= 1
                s["court"].append(kind)
        for prize in ("mogul", "elephant"):
            if prize not in s["court"]:
                s["court"].append(prize)
        s["court"].sort(key=_SYMBOL_ORDER.__getitem__)
        s["display"] = self._draw(s, comp.display_size(s["n"]), events)
        if events is None:
            return
        prov = self.province(s)
        events.append(
            Event(
                "visit",
                _visit_words(s, prov, comp),
                {"visit": s["visit"] + 1, "province": prov, "display": list(s["display"])},
                reveals=True,
            )
        )

    def _claim_specials(self, s: State, comp: Components, events: list[Event] | None) -> None:
        """Every pair of identical influence tiles a seat holds goes back to the stock and
        claims that kind's special card, seat by seat (``_end_visit``, when a pair exists)."""
        for key in ("infl", "hands", "stock", "special"):
            _own(s, key)
        for seat in range(s["n"]):
            for kind in INFLUENCE:
                if s["infl"][seat].count(kind) >= 2:
                    s["infl"][seat].remove(kind)
                    s["infl"][seat].remove(kind)
                    s["stock"][kind] += 2
                    sid = comp.special_for_kind[kind]
                    cid = comp.specials[sid]
                    holder = s["special"][sid]
                    if holder is not None:
                        s["hands"][holder].remove(cid)
                    s["hands"][seat].append(cid)
                    s["hands"][seat].sort()
                    s["special"][sid] = seat
                    if events is None:
                        continue
                    said = {
                        "who": Seat(seat),
                        "kind": Msg(f"taj_mahal.symbol.{kind}"),
                        "card": comp.cards[cid].name,
                    }
                    if holder == seat:
                        told = Msg("taj_mahal.ev.keeps", **said)
                    elif holder is not None:
                        told = Msg("taj_mahal.ev.claim_from", **said, holder=Seat(holder))
                    else:
                        told = Msg("taj_mahal.ev.claim", **said)
                    events.append(
                        Event(
                            "claim",
                            told,
                            {"seat": seat, "special": sid, "from": holder},
                        )
                    )

    def _finish(self, s: State, comp: Components, events: list[Event] | None) -> None:
        final = []
        s["score"] = s["score"].copy()  # copy before changing (see _clone)
        for seat in range(s["n"]):
            h = hand_score(s["hands"][seat], comp)
            s["score"][seat] += int(h["points"])  # type: ignore[call-overload]
            final.append(h)
            if events is None:
                continue
            events.append(
                Event(
                    "hand",
                    Msg(
                        "taj_mahal.ev.hand",
                        who=Seat(seat),
                        points=h["points"],
                        specials=h["specials"],
                        white=h["white"],
                        n=h["colour_cards"],
                        colour=Msg(f"taj_mahal.colour.{h['colour']}")
                        if h["colour"]
                        else Msg("taj_mahal.coloured"),
                    ),
                    {"seat": seat, **h, "hand": list(s["hands"][seat])},
                    reveals=True,
                )
            )
        s["final"] = final
        s["over"] = True
        s["pending"] = None
        if events is None:
            return
        out = self.outcome(s)
        assert out is not None
        events.append(
            Event("end", Msg("taj_mahal.ev.end", reason=out.reason), {"scores": list(s["score"])})
        )

    # ----- results and views ------------------------------------------------------------
    def outcome(self, state: State) -> Outcome | None:
        if not state["over"]:
            return None
        scores = list(state["score"])
        ranks = rank_by([(x,) for x in scores])
        winners = [i for i, r in enumerate(ranks) if r == 1]
        if len(winners) > 1:
            who = listed([Seat(w) for w in winners])
            reason = Msg("taj_mahal.result.shared", who=who, points=scores[winners[0]])
        else:
            reason = Msg("taj_mahal.result.wins", who=Seat(winners[0]), points=scores[winners[0]])
        details = [dict(h) for h in state["final"] or []]
        return Outcome(scores, ranks, reason, details)

    def scores(self, state: State) -> list[int]:
        return list(state["score"])

    def status(self, state: State) -> str:
        comp = components()
        if state["over"]:
            out = self.outcome(state)
            return Msg("taj_mahal.status.over", reason=out.reason if out else "")
        said = {
            "visit": state["visit"] + 1,
            "visits": comp.setup.visits,
            "province": comp.province_label[self.province(state)],
            "who": Seat(self.to_act(state)[0]),
        }
        phase = self._phase(state)
        if phase == "turn":
            return Msg("taj_mahal.status.turn", **said)
        p = state["pending"]
        if phase == "palace":
            return Msg("taj_mahal.status.palace", **said, n=p["palaces"])
        if phase == "crown":
            return Msg("taj_mahal.status.crown", **said)
        k = min(p["picks"], len(state["display"]))
        return Msg("taj_mahal.status.pick", **said, n=k)

    def view(self, state: State, seat: int | None) -> View:
        comp = components()

        def card(cid: int) -> dict[str, Any]:
            c = comp.cards[cid]
            return {
                "id": cid,
                "code": c.code,
                "name": c.name,
                "kind": c.kind,
                "colour": c.colour,
                "symbols": list(c.symbols),
            }

        prov = self.province(state)
        players = []
        for s in range(state["n"]):
            players.append(
                {
                    "score": state["score"][s],
                    "hand_size": len(state["hands"][s]),
                    "played": [card(c) for c in state["played"][s]],
                    "colour": state["lock"][s],
                    "in_visit": state["inv"][s],
                    "played_this_visit": state["acted"][s],
                    "influence": list(state["infl"][s]),
                    "province_tiles": list(state["ptiles"][s]),
                    "bonus_tiles": [comp.bonus_tiles[b].code for b in state["btiles"][s]],
                    # "+1 card" tiles are set aside once used (rules 9.1): draw them as used
                    "bonus_tiles_used": [
                        comp.bonus_tiles[b].code
                        for b in state["btiles"][s]
                        if comp.bonus_tiles[b].kind == "card"
                    ],
                    "goods": goods_owned(state["ptiles"][s], state["btiles"][s], comp),
                    "palaces_left": state["left"][s],
                    "specials": [sid for sid, o in state["special"].items() if o == s],
                }
            )
        p = state["pending"]
        out: View = {
            "players": state["n"],
            # Match options are public settings; a computer player's determinizer needs them
            # to rebuild a state whose moves follow the same rules.
            "options": dict(state["opts"]),
            "visit": state["visit"] + 1,
            "visits": comp.setup.visits,
            "province": prov,
            "province_tiles": dict(state["tiles"]),
            "tile_goods": {str(k): list(v) for k, v in comp.tile_goods.items()},
            "bonus": {
                c: {
                    "code": comp.bonus_tiles[b].code,
                    "kind": comp.bonus_tiles[b].kind,
                    "name": comp.bonus_tiles[b].name,
                }
                for c, b in state["bonus"].items()
            },
            "palaces": dict(state["palace"]),
            "crowned": dict(state["crowned"]),
            "court": list(state["court"]),
            "court_tile": state["visit"] + 1 if "elephant" in state["court"] else None,
            "influence_stock": dict(state["stock"]),
            "specials": dict(state["special"]),
            "display": [card(c) for c in state["display"]],
            "deck_size": len(state["deck"]),
            "discard_size": len(state["discard"]),
            "turn": state["turn"],
            "start": state["start"],
            "to_act": self.to_act(state),
            "phase": "over" if state["over"] else self._phase(state),
            "pending": None
            if p is None
            else {
                "seat": p["seat"],
                "palaces": p["palaces"],
                "crown": p["crown"],
                "picks": p["picks"] if p["scored"] else 2,
            },
            "player_info": players,
            "over": state["over"],
            "final": state["final"],
            "status": self.status(state),
        }
        if seat is not None and 0 <= seat < state["n"]:
            out["seat"] = seat
            out["hand"] = [card(c) for c in state["hands"][seat]]
        return out

    # ----- typed moves, clocks and errors ----------------------------------------------
    def find_notation(self, state: State, seat: int, key: str) -> Move | None:
        """Card symbols in any order (``G-CP`` = ``G-PC``) and ``pass`` for ``withdraw``."""
        return super().find_notation(state, seat, canonical_key(key))

    def is_commitment(self, state: State, seat: int, move: Move) -> bool:
        """Every move of a turn commits: a withdrawal settles the majorities in front of
        everyone (and the decisions it opens follow from it), and a played card came out of
        a hidden hand. The withdrawing player's own follow-up decisions (palace, crown,
        display picks) are not commitments; a "+1 card" draw reveals and is never undone."""
        return seat in self.to_act(state) and self._phase(state) == "turn"

    def default_move(self, state: State, seat: int) -> Move | None:
        """Clock ran out: withdraw on a turn (the rules' pass). A pending decision (palace,
        bonus tile, special card) has no pass: ``None``, and the bot makes the computer
        player's easy move for the seat instead of an arbitrary first choice."""
        moves = self.legal_moves(state, seat)
        if not moves or self._phase(state) != "turn":
            return None
        return next(m for m in moves if m.notation == "withdraw")

    def explain_illegal(self, state: State, seat: int, text: str) -> str:
        from rules.taj_mahal.explain import explain

        return explain(self, state, seat, text)
