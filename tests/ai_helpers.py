"""Helpers for the computer-player tests: a perfect-information test game and, per game,
a function that changes only what a seat cannot see.

``hidden_variant(game_id, state, seat, rng)`` returns a state that differs from ``state``
only in things hidden from ``seat`` (other hands, bag order, draw records, the
random-number state). The AI tests assert that the seat's view is unchanged and that the
computer player decides exactly the same. To cover a new game, add a function here and
its id to ``AI_GAMES`` in ``tests/test_ai_engine.py``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from rules.base import Game, State
from rules.pastiche.data import load as load_pastiche
from rules.registry import get_game
from rules.rng import Rng
from rules.taj_mahal.components import components as taj_mahal_components
from tests.hookless.games import OPEN_PILE

TM_CARDS = taj_mahal_components().cards
PASTICHE_COLOURS = load_pastiche().names


def game_for(game_id: str) -> Game:
    """The game with this id: the registry's, or the open test game."""
    return OPEN_PILE if game_id == OPEN_PILE.id else get_game(game_id)


def _fresh_rng(state: State, rng: Rng) -> None:
    state["rng"] = rng.next64()


def azul_variant(state: State, seat: int, rng: Rng) -> State:
    """Azul: the random-number state (future factories) and the recorded draw order of
    the current factories are hidden; everything else is on the table."""
    out = copy.deepcopy(state)
    _fresh_rng(out, rng)
    draws = out.get("fac_draw")
    if draws:  # the order in which each factory's tiles came out of the bag
        out["fac_draw"] = ["".join(sorted(d, reverse=True)) for d in draws]
    return out


def maharani_variant(state: State, seat: int, rng: Rng) -> State:
    """Maharani: the bag's order and the random-number state are hidden (its size is
    shown, its contents follow from the table)."""
    out = copy.deepcopy(state)
    _fresh_rng(out, rng)
    rng.shuffle(out["bag"])
    return out


def open_pile_variant(state: State, seat: int, rng: Rng) -> State:
    """Open pile: only the (unused) random-number state is hidden."""
    out = copy.deepcopy(state)
    _fresh_rng(out, rng)
    return out


def taj_mahal_variant(state: State, seat: int, rng: Rng) -> State:
    """The same position as ``seat`` sees it, with everything it cannot see redealt: the
    ordinary cards in the other hands (but those each took from the face-up display), the
    draw pile, and the rng. The discard pile is face up: it stays as it is."""
    s = {**state, "hands": [list(h) for h in state["hands"]]}
    unseen: list[int] = list(state["deck"])
    keep: list[list[int]] = []
    for o, hand in enumerate(s["hands"]):
        known = set(state["known"][o])
        shown = [c for c in hand if TM_CARDS[c].kind == "special" or c in known]
        keep.append(shown)
        if o != seat:
            unseen += [c for c in hand if c not in shown]
    rng.shuffle(unseen)
    for o, hand in enumerate(s["hands"]):
        if o == seat:
            continue
        k = len(hand) - len(keep[o])
        s["hands"][o] = sorted(keep[o] + unseen[:k])
        del unseen[:k]
    s["deck"] = unseen
    s["rng"] = rng.next64()
    return s


def pastiche_variant(state: State, seat: int, rng: Rng) -> State:
    """The same position as ``seat`` sees it, with everything it cannot see redealt: the
    other players' palette cards and commissions, the commission deck, the hex supply and
    the rng."""
    players = [{**p, "cards": dict(p["cards"]), "hand": list(p["hand"])} for p in state["players"]]
    others = [o for o in range(state["n"]) if o != seat]
    loose = [c for o in others for c, k in players[o]["cards"].items() for _ in range(k)]
    comms = list(state["deck"]) + [c for o in others for c in players[o]["hand"]]
    rng.shuffle(loose)
    rng.shuffle(comms)
    for o in others:
        size = sum(players[o]["cards"].values())
        players[o]["cards"] = {c: 0 for c in PASTICHE_COLOURS}
        for c in loose[:size]:
            players[o]["cards"][c] += 1
        del loose[:size]
        k = len(players[o]["hand"])
        players[o]["hand"] = comms[:k]
        del comms[:k]
    supply = list(state["supply"])
    rng.shuffle(supply)
    return {**state, "players": players, "deck": comms, "supply": supply, "rng": rng.next64()}


VARIANTS: dict[str, Callable[[State, int, Rng], State]] = {
    "azul": azul_variant,
    "maharani": maharani_variant,
    "taj-mahal": taj_mahal_variant,
    "pastiche": pastiche_variant,
    "test-open-pile": open_pile_variant,
}


def hidden_variant(game_id: str, state: State, seat: int, rng: Rng) -> State:
    return VARIANTS[game_id](state, seat, rng)
