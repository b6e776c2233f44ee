"""How a finished (or cut-off) game is turned into one reward per seat, each in 0–1.

Why a blend of rank and score margin: a pure win/loss reward is what a player wants in the
end, but it goes flat once a game is decided either way, and a search with a flat signal
plays aimlessly (it stops collecting points when it is far ahead or far behind, which
people find odd and which a hint must never teach). A pure score reward ignores that only
the ranking counts: in a 3+-player game, taking 5 points from the leader can be worth
more than gaining 5. So the reward is mostly the rank share (the fraction of opponents
beaten, ties half) and partly the margin to the best opponent, squashed by ``tanh`` with a
per-game scale so a runaway lead cannot dominate the mean.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: Weight of the rank share; the rest goes to the squashed score margin.
RANK_WEIGHT = 0.7


def rank_share(keys: Sequence[float], seat: int) -> float:
    """Fraction of the other seats that ``seat`` beats (ties count half); 1 for a lone
    player."""
    n = len(keys)
    if n < 2:
        return 1.0
    mine = keys[seat]
    won = 0.0
    for other, value in enumerate(keys):
        if other != seat:
            won += 1.0 if mine > value else 0.5 if mine == value else 0.0
    return won / (n - 1)


def rewards(
    values: Sequence[float], scale: float, ranks: Sequence[int] | None = None
) -> list[float]:
    """One reward in 0–1 per seat from (projected) scores ``values``. ``ranks`` (1 best), when
    given, decide the rank share instead of the scores (a game's own tie-breakers)."""
    n = len(values)
    keys: Sequence[float] = values if ranks is None else [-r for r in ranks]
    out = []
    for seat in range(n):
        best_other = max((values[o] for o in range(n) if o != seat), default=values[seat])
        margin = 0.5 + 0.5 * math.tanh((values[seat] - best_other) / scale)
        out.append(RANK_WEIGHT * rank_share(keys, seat) + (1.0 - RANK_WEIGHT) * margin)
    return out
