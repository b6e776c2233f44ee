"""The evening's hints, deterministic whatever the machine's load.

The real suggester searches for the match's think budget and stops at a wall-clock cap, so
on a busy machine it may suggest other moves than on an idle one, and a scripted evening
that plays ``/hint 1`` would take another path. This one runs the same search for a fixed,
small number of iterations without the cap: the same hints, with the game's own reasons,
every time (loaded by the computer pool by name, like ``rules.ai:suggest``).
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.ai import Suggestion, ai_for
from rules.ai.search import search
from rules.base import Game, View
from rules.rng import Rng

#: Search iterations per hint: enough for a sensible order, quick in every game.
ITERATIONS = 24


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
    """``rules.ai.suggest`` with :data:`ITERATIONS` and no clock (``budget_s`` unused)."""
    hooks = ai_for(game)
    state = hooks.determinize(game, view, seat, Rng.from_seed(seed, f"hint-probe:{seat}"))
    if not hooks.candidates(game, state, seat):
        return []
    rng = Rng.from_seed(seed, f"hint:{seat}")
    stats = search(game, hooks, view, seat, rng, iterations=ITERATIONS, cap_s=None)
    return [
        Suggestion(
            s.move, min(1.0, max(0.0, s.value)), hooks.explain(game, view, seat, s.move, s.value)
        )
        for s in stats[:count]
    ]
