"""How a finished (or cut-off) game is turned into one reward per seat, each in 0–1.

Why a blend of rank and score margin: a pure win/loss reward is what a player wants in the
end, but it goes flat once a game is decided either way, and a search with a flat signal
plays aimlessly (it stops collecting points when it is far ahead or far behind, which
people find odd and which a hint must never teach). A pure score reward ignores that only
the ranking counts: in a 3+-player game, taking 5 points from the leader can be worth
more than gaining 5. So the reward is mostly the rank share (the fraction of opponents
beaten, ties half) and partly the margin to the best opponent, squashed by ``tanh`` with a
per-game scale so a runaway lead cannot dominate the mean. A small share rewards the
seat's own (projected) score, squashed the same way: with rank and margin alone two
computer players trade denial for building and finish far below human scores (Azul
normal-vs-normal averaged ~36 points in 4 arena games at 0.5 s; ~41 with this share).
The weights are a game's own setting (``GameAI.reward_weights``), as how much building pays
against denial may differ per game; ``benchmarks/reward_shares.py`` plays two settings
against each other. Every game uses these defaults today (Azul's trial of more own score
is in ``rules/azul/ai.py``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: Default weights of the rank share, the squashed margin to the best opponent and the
#: squashed own score (they sum to 1).
WEIGHTS: tuple[float, float, float] = (0.6, 0.2, 0.2)


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
    values: Sequence[float],
    scale: float,
    ranks: Sequence[int] | None = None,
    weights: tuple[float, float, float] = WEIGHTS,
) -> list[float]:
    """One reward in 0–1 per seat from (projected) scores ``values``. ``ranks`` (1 best), when
    given, decide the rank share instead of the scores (a game's own tie-breakers);
    ``weights`` are the rank, margin and own-score shares."""
    rank_weight, margin_weight, own_weight = weights
    n = len(values)
    keys: Sequence[float] = values if ranks is None else [-r for r in ranks]
    out = []
    for seat in range(n):
        best_other = max((values[o] for o in range(n) if o != seat), default=values[seat])
        margin = 0.5 + 0.5 * math.tanh((values[seat] - best_other) / scale)
        own = math.tanh(max(values[seat], 0.0) / (5.0 * scale))
        out.append(rank_weight * rank_share(keys, seat) + margin_weight * margin + own_weight * own)
    return out
