"""Pastiche's random-move policy for random playouts and search rollouts.

Why not uniform over ``legal_moves``: one placement offers hundreds of moves (hex × spot ×
rotation × what to take) and a trading step many more, so listing them all for every random
decision cost a random game about half a second; and a uniformly random trader keeps trading and
almost never completes a commission.

This policy samples a few placements one part at a time (hex, spot, rotation) and builds only
those moves through the same generators ``legal_moves`` uses (with their filters), so every move
it returns is a legal move, equal to one in ``legal_moves``. Its choices are plain and sane: the
best-ranked of the sampled placements, complete a commission when one can be paid, make a bank
trade that gets a card a commission lacks, rarely make an offer or swap a commission, otherwise
end the turn (returning the least useful cards when over the hand limit); an offer made to it is
accepted or declined at even odds (the first one waiting). Trading stays bounded: every bank
trade gives more cards than it gets, and offers are capped per turn.
"""

from __future__ import annotations

from collections import Counter

from rules.base import Move
from rules.pastiche import moves as mv
from rules.pastiche import trade as tr
from rules.pastiche.data import load
from rules.rng import Rng

State = mv.State

#: Out of 32 draws in a trading step with nothing to complete or trade usefully: offer, swap.
OFFER_DRAWS = 4
SWAP_DRAWS = 1
#: A bank trade's rank is 1 + 3 if it gets a card a hand commission lacks, minus 1 per given
#: card a hand commission wants: at least 3 gets a needed card for at most one needed card.
USEFUL_TRADE = 3.0
#: Placements sampled per placement decision; the best-ranked of them is played.
PLACEMENT_SAMPLES = 3


def random_move(state: State, seat: int, rng: Rng) -> Move | None:
    """A legal move for ``seat`` drawn by the policy above, or ``None`` where the policy
    has nothing to say (the caller then draws uniformly from ``legal_moves``)."""
    if state["over"]:
        return None
    waiting = tr.to_answer(state, seat)
    if waiting:
        d = waiting[0]
        if tr.accept_problem(state, seat, d) is None and rng.below(2) == 0:
            return tr.accept_move(d)
        return tr.decline_move(d)
    if seat != state["cur"]:
        return None
    phase = state["phase"]
    if phase == "place":
        return _placement(state, seat, rng)
    if phase == "discard":
        return mv.return_moves(state, seat)[-1]  # return the least useful cards
    completions = mv.complete_moves(state, seat)
    if completions:
        return rng.choice(completions)
    if phase == "trade":
        need = mv.needs(state, seat)
        useful = useful_trades(state, seat, need)
        if useful:  # the draw rng.choice would make from the useful bank moves
            return mv.bank_move(*rng.choice(useful), need)
        roll = rng.below(32)
        if roll < OFFER_DRAWS:
            made = _offer(state, seat, rng)
            if made is not None:
                return made
        elif roll < OFFER_DRAWS + SWAP_DRAWS:
            swaps = mv.swap_moves(state, seat)
            if swaps:
                return rng.choice(swaps)
    return mv.end_moves(state, seat)[-1]  # "end", or "end auto" over the hand limit


def useful_trades(state: State, seat: int, need: Counter[str]) -> list[tuple[tuple[str, ...], str]]:
    """The (cards given, card received) of the bank moves ranked at least
    ``USEFUL_TRADE``, in ``bank_moves``' order, without building their moves."""
    return [
        (give, target)
        for give, target in mv.bank_trades(state["players"][seat]["cards"], state["bank"])
        if mv.bank_rank(*mv.bank_terms(give, target, need)) >= USEFUL_TRADE
    ]


def _placement(state: State, seat: int, rng: Rng) -> Move | None:
    """The best-ranked (most valuable and needed cards) of a few random placements: random
    hex, spot and rotation, each with its (one to three) ways to take cards."""
    hexes = state["players"][seat]["hexes"]
    slots = [i for i, h in enumerate(hexes) if h is not None]
    if not slots or not state["spots"]:
        return None
    need = mv.needs(state, seat)
    best: tuple[float, int, tuple[int, int], int, str] | None = None
    for _ in range(PLACEMENT_SAMPLES):
        slot = rng.choice(slots)
        q, r = rng.choice(state["spots"])
        rotations = mv.distinct_rotations(load().hexes[hexes[slot]].corners)
        rot = rng.choice(rotations)[0]
        # ranked without moves (the order place_moves lists them in); only the best is built
        for rank, take in mv.placement_takes(state, seat, slot, (q, r), rot, need):
            if best is None or rank > best[0]:
                best = (rank, slot, (q, r), rot, take)
    assert best is not None  # every sample has its mix placement
    _rank, slot, cell, rot, take = best
    moves = mv.place_moves(state, seat, slot, cell, rot)
    return next(m for m in moves if m.notation.rsplit(" ", 1)[1] == take)


def _offer(state: State, seat: int, rng: Rng) -> Move | None:
    """One of the representative offers ``legal_moves`` lists, if any may be made."""
    offers = tr.suggested_offers(state, seat)
    return rng.choice(offers) if offers else None
