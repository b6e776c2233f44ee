"""The computer player's public entry points.

SKELETON: the search behind these signatures is being built (issue "Computer players and
hints"); today every level picks a random candidate. The signatures are the contract the bot
is written against.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.ai.hooks import ai_for
from rules.base import Game, Move, View
from rules.rng import Rng

#: Levels a computer seat may have, weakest first.
LEVELS: tuple[str, ...] = ("easy", "normal", "strong")


@dataclass(frozen=True, slots=True)
class Suggestion:
    """One hint: a legal move, its estimated value for the seat (0–1, higher is better)
    and a one-line reason in words."""

    move: Move
    value: float
    reason: str


def choose_move(
    game: Game,
    view: View,
    seat: int,
    level: str,
    *,
    seed: int,
    budget_s: float = 2.0,
    history: Sequence[tuple[int, str]] = (),
) -> Move:
    """The move ``seat`` makes now. ``view`` is ``game.view(state, seat)``; ``history`` the
    public (seat, notation) log so far. Deterministic for a given ``seed``."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
    rng = Rng.from_seed(seed, f"ai:{seat}")
    state = ai_for(game).determinize(game, view, seat, rng)
    return rng.choice(ai_for(game).candidates(game, state, seat))


def suggest(
    game: Game,
    view: View,
    seat: int,
    *,
    seed: int,
    budget_s: float = 2.0,
    count: int = 3,
    history: Sequence[tuple[int, str]] = (),
) -> list[Suggestion]:
    """Up to ``count`` best moves for ``seat``, best first, with reasons."""
    rng = Rng.from_seed(seed, f"hint:{seat}")
    hooks = ai_for(game)
    state = hooks.determinize(game, view, seat, rng)
    moves = hooks.candidates(game, state, seat)[:count]
    return [Suggestion(m, 0.5, hooks.explain(game, view, seat, m, 0.5)) for m in moves]
