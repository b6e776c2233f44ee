"""The moves of Taj Mahal, built only as needed: a turn's plays, the withdrawing player's
palace, crown and display decisions.

A move is a :class:`rules.base.Move` with its notation (``R-VE``, ``R-VE+W-C``,
``withdraw``, ``palace-delhi-n``, ``crown-delhi-n``, ``take-G-PC``), its words and its rank
(how many of its symbols still have their prize in the court: the easy player's hint).

Why so many ways to the same list: the search and random playouts ask for moves at every
decision, so the list of a turn is cached by what it depends on (:func:`turn_moves_of`),
a random playout draws one move without building the list (:func:`random_turn_move`), and
``apply`` checks a typed play by finding its one or two cards (:func:`turn_play_ids`).
All three follow one rule, checked against each other by the tests.

Rule decision held here (the package docstring lists them all): [R] the colour-change
card lets the coloured card played with it be of any colour, and the lock does not change.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from rules.base import Move, State, Step
from rules.rng import Rng
from rules.taj_mahal.components import Card, components
from rules.taj_mahal.state import (
    card_codes,
    crown_cities,
    display_choices,
    free_cities,
    province,
    withdraw_only,
)
from rules.words import Msg

WITHDRAW = Move(
    "withdraw",
    Msg("taj_mahal.label.withdraw"),
    (Step("withdraw", Msg("taj_mahal.step.withdraw")),),
    0.5,
)


@cache
def play_move(cid: int, eid: int | None, rank: float) -> Move:
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


def _in_court(symbols: tuple[str, ...], court: Sequence[str]) -> int:
    """How many of a card's symbols have their prize still in the court."""
    n = 0
    for x in symbols:
        if x in court:
            n += 1
    return n


def _hand_plays(hand: tuple[int, ...] | list[int]) -> tuple[list[Card], list[Card]]:
    """What a turn's plays are made of: the hand's distinct coloured cards and its distinct
    extra cards (white and special), the first copy of each in id order: what the list of
    a turn's moves is built from. The random draw (:func:`random_turn_move`) reads the hand
    the same way inline, and the legality check (:func:`turn_play_ids`) finds the one or
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
def turn_moves_of(
    must_withdraw: bool, lock: str | None, hand: tuple[int, ...], court: tuple[str, ...]
) -> tuple[Move, ...]:
    """A turn's moves from what they depend on: the hand, the colour lock, the court and
    whether only withdrawing is left: withdraw, then per coloured card (unless another
    colour is locked) the card alone and with each extra card; a card of another colour
    only with the colour-change card. Cached because the search lists the moves of the
    same situations again and again (its tree and its rollouts)."""
    if must_withdraw:
        return (WITHDRAW,)
    coloured, extras = _hand_plays(hand)
    bonus = [_in_court(e.symbols, court) for e in extras]
    has_change = any(e.special == "colour" for e in extras)
    moves = [WITHDRAW]
    for card in coloured:
        off_colour = lock is not None and card.colour != lock
        if off_colour and not has_change:
            continue
        cid = card.id
        base = _in_court(card.symbols, court)
        if not off_colour:
            moves.append(play_move(cid, None, base))
        for extra, more in zip(extras, bonus, strict=True):
            if off_colour and extra.special != "colour":
                continue
            moves.append(play_move(cid, extra.id, base + more - 0.5))
    return tuple(moves)


def random_turn_move(
    must_withdraw: bool, lock: str | None, hand: list[int], court: list[str], rng: Rng
) -> Move:
    """``rng.choice`` of :func:`turn_moves_of`'s moves, building only the one drawn.

    Why: a random playout makes ninety-odd turns, each in a situation it rarely meets
    again, so building (and caching) every move of the turn to use one was most of a
    turn's cost. The count of moves per coloured card follows from the same rule as the
    list (alone and with every extra card; off colour only with the colour change), so
    the index drawn and the move built are the ones the list would give
    (``tests/test_engine_equivalence.py`` compares them with ``rng.choice(legal_moves)``).
    The hand is read as :func:`_hand_plays` reads it, inline and noting the colour change
    on the way (this runs at every turn of a random game: a call and two comprehensions
    were a fifth of it)."""
    if must_withdraw:
        rng.below(1)  # one move: the stream still takes the step rng.choice takes
        return WITHDRAW
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
            return WITHDRAW
        card = coloured[(i - 1) // on_count]
        i = (i - 1) % on_count
    else:
        off_count = len(changes)  # moves of a card of another colour
        total = 1
        for card in coloured:
            total += on_count if card.colour == lock else off_count
        i = rng.below(total)
        if i == 0:
            return WITHDRAW
        i -= 1
        for card in coloured:
            count = on_count if card.colour == lock else off_count
            if i < count:
                break
            i -= count
        if card.colour != lock:
            extra = changes[i]
            base = _in_court(card.symbols, court) + _in_court(extra.symbols, court) - 0.5
            return play_move(card.id, extra.id, base)
    base = _in_court(card.symbols, court)
    if i == 0:
        return play_move(card.id, None, base)
    extra = extras[i - 1]
    return play_move(card.id, extra.id, base + _in_court(extra.symbols, court) - 0.5)


def turn_play_ids(lock: str | None, hand: list[int], note: str) -> tuple[int, int | None] | None:
    """The cards ``note`` plays (a card code, or two joined by ``+``): the ids of the first
    copies in the hand, as (card, extra card or None), or None when ``note`` is not one of
    the plays :func:`turn_moves_of` lists for this hand and colour lock. The first card
    must be a coloured card in the hand (of the locked colour, unless the second is the
    colour change), the second an extra card (white or special) in the hand.

    Why one function for "is it legal" and "which cards": ``apply`` asks both at every
    played card, and finding the one or two codes in the (sorted) hand once is a fraction
    of building the hand's plays, or of finding them twice
    (``tests/test_taj_mahal_rules.py`` compares this with ``legal_moves``)."""
    first, plus, second = note.partition("+")
    if "+" in second:
        return None
    codes = card_codes()
    for cid in hand:
        if codes[cid] == first:
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
        if codes[eid] == second:
            extra = cards[eid]
            if extra.kind != "colour" and (on_colour or extra.special == "colour"):
                return cid, eid
            return None
    return None


@cache
def palace_move(city: str, bonus: int | None) -> Move:
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
def crown_move(city: str) -> Move:
    comp = components()
    label = Msg("taj_mahal.label.crown", city=comp.city_label(city))
    note = "crown-" + comp.city_code(city)
    return Move(note, label, (Step(note, label),), 1.0)


@cache
def take_move(cid: int) -> Move:
    card = components().cards[cid]
    note = "take-" + card.code
    label = Msg("taj_mahal.label.take", card=card.name)
    return Move(note, label, (Step(note, label),), len(card.symbols))


def turn_moves(state: State, seat: int) -> tuple[Move, ...]:
    """The moves of ``seat``'s turn (see :func:`turn_moves_of`)."""
    return turn_moves_of(
        withdraw_only(state),
        state["lock"][seat],
        tuple(state["hands"][seat]),
        tuple(state["court"]),
    )


def pending_moves(state: State, seat: int, phase: str) -> list[Move]:
    """The moves of the withdrawing ``seat``'s open decision (``phase`` is not "turn")."""
    if phase == "palace":
        bonus = state["bonus"]
        return [palace_move(c, bonus.get(c)) for c in free_cities(state, province(state))]
    if phase == "crown":
        return [crown_move(c) for c in crown_cities(state, seat, province(state))]
    return [take_move(cid) for cid in display_choices(state["display"])]
