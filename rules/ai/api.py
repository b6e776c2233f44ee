"""The computer player's public entry points: levels, moves and hints.

Levels:

- **easy**: one ply, greedy on the game's evaluation (projected score) over one sampled
  state, with a little noise so it is not a mirror of the rank order; games without an
  evaluation get a short search (an eighth of the normal iterations) instead.
- **normal**: information-set MCTS (``rules/ai/search.py``) with the iteration count the
  game's calibration gives for ``budget_s``.
- **strong**: the same search with three times the iterations (it takes about three times
  the budget). Offered only in the games where ``python -m bot arena`` measured it beating
  normal (``GameAI.offers_strong``, :func:`levels_for`).

Every answer is a pure function of (game, view, seat, level, seed, budget): the budget is
turned into an iteration count, never read off the clock (see ``search.py`` for the
wall-clock safety net and its trade-off).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.ai.hooks import GameAI, ai_for
from rules.ai.search import RootStat, search
from rules.base import Game, Move, View
from rules.rng import Rng

#: Levels a computer seat may have, weakest first.
LEVELS: tuple[str, ...] = ("easy", "normal", "strong")
#: Levels the arena accepts: the player-facing ones plus a uniformly random baseline.
ARENA_LEVELS: tuple[str, ...] = ("random", *LEVELS)
#: Iterations of the strong level relative to normal.
STRONG_FACTOR = 3
#: Wall-clock safety net: the search stops after this many budgets (at least the budget
#: plus a small margin, for tiny budgets), however many iterations remain. 1.2 is the
#: issue's limit for the 95th percentile of the time per move.
CAP_FACTOR = 1.2
CAP_MARGIN_S = 0.25


@dataclass(frozen=True, slots=True)
class Suggestion:
    """One hint: a legal move, its estimated value for the seat (0–1, higher is better)
    and a one-line reason in words."""

    move: Move
    value: float
    reason: str


def levels_for(game: Game) -> tuple[str, ...]:
    """The levels a new computer seat may have in ``game`` (strong only where
    ``GameAI.offers_strong``). A seat that already has another level keeps playing it."""
    if ai_for(game).offers_strong:
        return LEVELS
    return tuple(level for level in LEVELS if level != "strong")


def iterations_for(game: Game, hooks: GameAI, view: View, budget_s: float) -> int:
    """The normal level's iteration count for a time budget (the per-game calibration)."""
    return max(16, round(hooks.iteration_rate(game, view) * budget_s))


def cap_for(budget_s: float, factor: float = 1.0) -> float:
    return max(CAP_FACTOR * budget_s * factor, budget_s * factor + CAP_MARGIN_S)


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
    public (seat, notation) log so far (our games' views already hold all a seat knows, so
    the search does not need it). Deterministic for a given ``seed``."""
    if level not in ARENA_LEVELS:
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
    hooks = ai_for(game)
    rng = Rng.from_seed(seed, f"ai:{seat}:{level}")
    if level == "random":
        state = hooks.determinize(game, view, seat, rng)
        return game.random_move(state, seat, rng)
    if level == "easy":
        return _easy(game, hooks, view, seat, rng, budget_s)
    factor = STRONG_FACTOR if level == "strong" else 1
    stats = search(
        game,
        hooks,
        view,
        seat,
        rng,
        iterations=iterations_for(game, hooks, view, budget_s) * factor,
        cap_s=cap_for(budget_s, factor),
    )
    return _unavoided(game, hooks, view, seat, [s.move for s in stats])


def _unavoided(game: Game, hooks: GameAI, view: View, seat: int, ranked: list[Move]) -> Move:
    """The best-ranked move the game's computer player does not avoid (``GameAI.avoids``),
    or the best if it avoids them all."""
    return next((m for m in ranked if not hooks.avoids(game, view, seat, m)), ranked[0])


def _easy(game: Game, hooks: GameAI, view: View, seat: int, rng: Rng, budget_s: float) -> Move:
    """Greedy one ply on the evaluation: the move after which the seat's projected score
    leads the best opponent's by most. Ties (and near-ties within half a point of noise)
    are broken at random, so easy play varies like a casual player's."""
    state = hooks.determinize(game, view, seat, rng)
    moves = hooks.candidates(game, state, seat)
    if not moves:
        raise ValueError(f"seat {seat} has no move to make now")
    if len(moves) == 1:
        return moves[0]
    if hooks.evaluate(game, state) is None:
        iterations = max(16, iterations_for(game, hooks, view, budget_s) // 8)
        stats = search(game, hooks, view, seat, rng, iterations=iterations, cap_s=cap_for(budget_s))
        return _unavoided(game, hooks, view, seat, [s.move for s in stats])
    valued: list[tuple[float, int, Move]] = []
    for i, move in enumerate(moves):
        after = game.next_state(state, seat, move)
        values = hooks.evaluate(game, after)
        assert values is not None
        others = max((v for s, v in enumerate(values) if s != seat), default=0.0)
        value = values[seat] - others + 0.5 * rng.below(1000) / 1000
        valued.append((-value, i, move))  # best first; ties: the earlier move, as before
    return _unavoided(game, hooks, view, seat, [m for _, _, m in sorted(valued)])


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
    """Up to ``count`` best moves for ``seat`` by the normal search, best first, each with
    its mean reward (0–1) and a reason from the game's ``explain``. Empty when the seat has
    nothing to decide now."""
    hooks = ai_for(game)
    rng = Rng.from_seed(seed, f"hint:{seat}")
    state = hooks.determinize(game, view, seat, Rng.from_seed(seed, f"hint-probe:{seat}"))
    if not hooks.candidates(game, state, seat):
        return []
    stats: list[RootStat] = search(
        game,
        hooks,
        view,
        seat,
        rng,
        iterations=iterations_for(game, hooks, view, budget_s),
        cap_s=cap_for(budget_s),
    )
    out = []
    for stat in stats[:count]:
        value = min(1.0, max(0.0, stat.value))
        out.append(Suggestion(stat.move, value, hooks.explain(game, view, seat, stat.move, value)))
    return out
