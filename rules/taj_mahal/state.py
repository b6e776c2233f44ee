"""The Taj Mahal state: its layout, the deal, and what the rules read from it.

State (plain JSON):
  n, opts, rng, visit (0-based), tiles {province: tile number}, bonus {city: bonus index},
  palace {city: seat} (regular), crowned {city: seat}, left [palaces in supply],
  court [symbols whose prize is still there], stock {influence kind: tiles in the stack},
  infl [[kinds held]], ptiles [[province tile numbers]], btiles [[bonus indexes]],
  hands [[card ids]], played [[card ids]], lock [colour|None], inv [still in the visit],
  acted [played a card this visit], turn, start, deck (top = end), discard, display,
  special {special id: seat|None}, score [int], pending (the withdrawing player's
  decisions still open) or None, over, final; and what the table shows face up besides:
  sources [{source: points}] (each seat's score by the rulebook's sources, see
  ``scoring.SOURCES``), known [[card ids]] (cards each seat took from the face-up display
  and has not played since), last (the latest turn: its seat, the cards played, or the
  prizes won, palaces placed, crown and display cards taken of a withdrawal) or None.

Why ``sources``, ``known`` and ``last`` are kept, though the rules never read them: the
pictures show what the table shows (whose cards came from the display, what the last turn
changed, where every point came from), and none of it can be told from the rest of the
state afterwards. Each changes only with public facts, so the view may show it. A state
stored before they existed lacks them: everything here reads them with ``get``.

Why a ``pending`` record: every decision after a withdrawal (cities, crown, display picks)
belongs to the withdrawing player and must be a move of his; the record says what is still
owed so ``to_act`` can return him until it is settled.

Rule decisions held here (the package docstring lists them all):

* [R] The bonus tiles shuffled onto the fortresses; the Taj Mahal (+4) always on Agra's
  centre city (the map, the tile mix and the cards are data: ``components.py``).
* Palaces go to cities of the visited province without a regular palace (a lone crowned
  palace does not block); [R] a crown to any city of the province without his own palace.
* [L] An empty draw pile is refilled by shuffling the discard pile.
* Seat ``first_player`` (option, default 0) starts visit 1; play goes in seat order over
  players still in the visit.

Everything here is plain functions of the state, so the engine (``game.py``), the moves
(``moves.py``) and the explanation of an illegal move (``explain.py``) read the state the
same way, and none of them needs the engine (which imports them: no import cycle). The
copy-on-write helpers (:func:`clone`, :func:`own`) are here too: every module that changes
a state copies what it changes through them.
"""

from __future__ import annotations

from functools import cache

from pydantic import BaseModel, ConfigDict, Field

from rules.base import Event, State
from rules.rng import Rng
from rules.taj_mahal.components import INFLUENCE, SYMBOL_LETTERS, components
from rules.taj_mahal.scoring import SOURCES
from rules.words import Msg


class Options(BaseModel):
    """Match options (rule decisions the reference asks to keep configurable)."""

    model_config = ConfigDict(extra="forbid")

    #: [R] the last player left in a visit may keep playing cards before withdrawing.
    last_player_may_play: bool = True
    #: [L] one palace per influence tile won (False: one palace per withdrawal in total).
    palace_per_influence_tile: bool = True
    #: Seat of the first starting player ("chosen by agreement"); the seat must exist
    #: once the match starts (checked at the start, in the game's words, when the player
    #: count is known).
    first_player: int = Field(default=0, ge=0)


# ----- the deal --------------------------------------------------------------------
def deal(n: int, seed: int, opts: Options) -> State:
    """The state before visit 1 (``TajMahal.setup`` has checked the player count and the
    options): province tiles numbered at random, bonus tiles on the fortresses, the
    shuffled deck dealt into hands, and the first display drawn."""
    comp = components()
    rng = Rng.from_seed(seed, "taj-mahal")
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
        "sources": [dict.fromkeys(SOURCES, 0) for _ in range(n)],
        "known": [[] for _ in range(n)],
        "last": None,
    }
    state["display"] = draw(state, comp.display_size(n), [])
    return state


def draw(state: State, k: int, events: list[Event] | None) -> list[int]:
    """Take up to ``k`` cards from the top of the draw pile, reshuffling the discard
    pile into a new draw pile when it runs out ([L] rule 9).

    The generator is read from ``state["rng"]`` and written back here, the only place a
    move draws at random: most moves draw nothing, and building an ``Rng`` for every
    move only to store its unchanged state back was a visible part of a random game."""
    rng = Rng(state["rng"])
    out: list[int] = []
    own(state, "deck")
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


# ----- whose decision ---------------------------------------------------------------
def to_act(state: State) -> list[int]:
    """The seat the game waits for: the withdrawing player while his decisions after the
    withdrawal are open (``pending``), else the player on turn; nobody once it is over."""
    if state["over"]:
        return []
    if state["pending"] is not None:
        return [state["pending"]["seat"]]
    return [state["turn"]]


def phase(state: State) -> str:
    """What the seat to act decides: ``turn`` (play cards or withdraw), or the withdrawing
    player's open decision: ``palace`` (a city), ``crown`` (a city), ``pick`` (a card)."""
    p = state["pending"]
    if p is None:
        return "turn"
    if p["palaces"] > 0:
        return "palace"
    if p["crown"]:
        return "crown"
    return "pick"


def next_in(state: State, seat: int) -> int | None:
    """The next seat after ``seat`` in seat order still in the visit, or None if none is."""
    n = state["n"]
    for i in range(1, n + 1):
        s = (seat + i) % n
        if state["inv"][s]:
            return s
    return None


def province(state: State) -> str:
    """Key of the province visited now."""
    number = state["visit"] + 1
    for prov, t in state["tiles"].items():
        if t == number:
            return prov
    raise AssertionError("no province for this visit")


# ----- what the moves are about ----------------------------------------------------
@cache
def card_codes() -> tuple[str, ...]:
    """Each card's notation by card id (a hot lookup in ``apply``)."""
    return tuple(card.code for card in components().cards)


@cache
def city_by_code() -> dict[str, str]:
    comp = components()
    return {comp.city_code(c): c for c in comp.cities}


def withdraw_only(state: State) -> bool:
    """Whether the turn's only move is to withdraw: the last player left in the visit may
    not play cards under the option [R] ``last_player_may_play=False`` (asked first: it is
    rarely set, and then nobody needs to count who is left)."""
    return not state["opts"]["last_player_may_play"] and sum(state["inv"]) == 1


def free_cities(state: State, prov: str) -> list[str]:
    """Cities of province ``prov`` without a regular palace (a crowned palace alone does
    not block): where a palace may go when ``prov`` is visited."""
    palace = state["palace"]
    return [c for c in components().province_cities[prov] if c not in palace]


def crown_cities(state: State, seat: int, prov: str) -> list[str]:
    """Cities of province ``prov`` where ``seat`` may crown a palace: any city except one
    already holding his own palace [R]."""
    palace, crowned = state["palace"], state["crowned"]
    return [
        c
        for c in components().province_cities[prov]
        if palace.get(c) != seat and crowned.get(c) != seat
    ]


def display_choices(display: list[int]) -> list[int]:
    """The display cards a pick chooses among: the first card of each code, in display
    order (identical cards are one choice)."""
    codes = card_codes()
    out: list[int] = []
    seen: set[str] = set()
    for cid in display:
        code = codes[cid]
        if code not in seen:
            seen.add(code)
            out.append(cid)
    return out


def display_card(display: list[int], code: str) -> int | None:
    """The first display card with notation ``code``, or None if none is shown."""
    codes = card_codes()
    for cid in display:
        if codes[cid] == code:
            return cid
    return None


# ----- copy on write ---------------------------------------------------------------
#: Each symbol's place in the court (the data order of the symbols), for sorting it.
SYMBOL_ORDER = {symbol: i for i, symbol in enumerate(SYMBOL_LETTERS)}

#: Per-seat lists: the acting seat's own list is copied up front, the others on demand.
_NESTED = ("hands", "played", "infl", "ptiles", "btiles", "known", "sources")


def clone(s: State, seat: int) -> State:
    """A new state sharing with ``s`` everything ``apply`` rarely changes.

    Why not a full copy: copying all 30-odd lists and dicts was a fifth of a random
    playout's time, yet a typical move (play a card, take a display card) changes only the
    acting seat's hand and played cards and one or two small lists. So ``apply`` copies
    the hand and played cards here, and every other change is preceded by a copy of what
    it changes: :func:`own` on the rarer parts (the draw pile, the map's palaces, the
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


def own(s: State, key: str, seat: int | None = None) -> None:
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


def add_points(s: State, seat: int, source: str, points: int) -> None:
    """``seat`` scores ``points`` from ``source`` (one of ``scoring.SOURCES``): the score
    and its breakdown together, copied before changing (see :func:`clone`)."""
    if not points:
        return
    s["score"] = s["score"].copy()
    s["score"][seat] += points
    if "sources" in s:  # a state stored before the breakdown was kept has none
        own(s, "sources", seat)
        mine = s["sources"][seat]
        mine[source] = mine.get(source, 0) + points
