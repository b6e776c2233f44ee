"""What a game may tell the search about itself, with generic defaults.

Why hooks and not subclasses of the games: the rules modules stay about the rules; the
knowledge that only a computer player needs (how to sample what a seat cannot see, a sensible
fast rollout, a heuristic evaluation, how to explain a move in a hint) sits beside them in
``rules/<game>/ai.py`` and is found by convention, so ``rules/ai`` never lists the games.
"""

from __future__ import annotations

import importlib
from functools import cache

from rules.base import Game, Move, State, View
from rules.rng import Rng


class GameAI:
    """Game-specific knowledge for the search. Every method has a generic default."""

    def determinize(self, game: Game, view: View, seat: int, rng: Rng) -> State:
        """A full state consistent with ``view`` (what ``seat`` sees): every hidden item the
        seat cannot account for (others' hands, bag, deck order) sampled with ``rng``.

        Must depend only on ``view``, ``seat`` and ``rng``: permuting hidden items the seat
        cannot see must not change the result. The generic default serves games without
        hidden information whose view is their whole state."""
        if game.has_hidden_information:
            raise NotImplementedError(f"{game.id} has hidden information but no determinizer")
        return view

    def candidates(self, game: Game, state: State, seat: int) -> list[Move]:
        """The moves the search considers at the root and in the tree (default: all legal
        moves). Games with hundreds of near-equivalent moves prune here."""
        return game.legal_moves(state, seat)

    def rollout_move(self, game: Game, state: State, seat: int, rng: Rng) -> Move:
        """A fast, sensible move for playouts (default: uniformly random)."""
        return game.random_move(state, seat, rng)

    def evaluate(self, game: Game, state: State) -> list[float] | None:
        """A heuristic standing per seat (higher is better, any scale) for cutting a rollout
        short and for the easy level; ``None``: play rollouts to the end."""
        return None

    def explain(self, game: Game, view: View, seat: int, move: Move, value: float) -> str:
        """A one-line reason for a hint (default: the estimated chance of winning)."""
        return f"wins about {round(100 * value)}% of simulated games"


#: The hooks used by games that define none.
GENERIC = GameAI()


@cache
def ai_for(game: Game) -> GameAI:
    """The game's own hooks (``<its package>.ai:AI``) or the generic defaults."""
    package = type(game).__module__.rsplit(".", 1)[0]
    try:
        module = importlib.import_module(f"{package}.ai")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.ai":
            raise
        return GENERIC
    hooks = getattr(module, "AI", None)
    return hooks if isinstance(hooks, GameAI) else GENERIC
