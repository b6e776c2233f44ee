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
from typing import Any

from rules.base import Game, Move, State, View
from rules.registry import get_game
from rules.rng import Rng
from tests.fakegame import PileGame


class OpenPileGame(PileGame):
    """Pile without secret cards: a game with no hidden information and no AI hooks, to
    prove that a fifth game gets a computer player from its rules alone. Its view is the
    state without the (unused) random-number state."""

    id = "test-open-pile"
    name = "Open pile"
    has_hidden_information = False

    def legal_moves(self, state: dict[str, Any], seat: int) -> list[Move]:
        return [m for m in super().legal_moves(state, seat) if m.notation != "draw"]

    def view(self, state: dict[str, Any], seat: int | None) -> View:
        return {k: copy.deepcopy(v) for k, v in state.items() if k != "rng"}


#: Not registered: the registry is process-wide and other tests (crash safety) walk every
#: registered game in child processes that would not know it.
OPEN_PILE = OpenPileGame()


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


VARIANTS: dict[str, Callable[[State, int, Rng], State]] = {
    "azul": azul_variant,
    "maharani": maharani_variant,
    "test-open-pile": open_pile_variant,
}


def hidden_variant(game_id: str, state: State, seat: int, rng: Rng) -> State:
    return VARIANTS[game_id](state, seat, rng)
