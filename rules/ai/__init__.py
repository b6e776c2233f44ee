"""Computer players and hints for any game, through the game interface only.

Pure like the rest of ``rules/``: no I/O, no asyncio, no imports from ``bot/`` or ``render/``.
A computer player decides from ``game.view(state, seat)`` (what its seat may see) and the
public history, never from the full state: hidden items are *sampled* by the game's
determinizer. Game-specific knowledge (determinizer, rollout policy, evaluation, hint
reasons) lives in each game's own package as ``rules/<game>/ai.py`` exposing ``AI``, an
instance of :class:`rules.ai.hooks.GameAI`; a game without one gets the generic defaults
(random-rollout search), so a fifth game plays from its rules alone.

Public API (what ``bot/`` calls):

- :func:`choose_move` — the move a computer seat makes now, at a level.
- :func:`suggest` — the best few moves for a seat, each with a one-line reason (``/hint``).
- :func:`levels_for` — the levels a new computer seat may have in a game.
- :func:`judge` — the post-game review of one decision: the better move, the expected points
  the played one lost and how sure that is (``rules/ai/review.py``).

Both are deterministic for a given ``seed``: the bot derives the seed from the match seed,
the ply and the seat, so a computer move is reproducible.
"""

from rules.ai.api import LEVELS, Suggestion, choose_move, levels_for, suggest
from rules.ai.hooks import GameAI, ai_for
from rules.ai.review import Judgement, judge

__all__ = [
    "LEVELS",
    "GameAI",
    "Judgement",
    "Suggestion",
    "ai_for",
    "choose_move",
    "judge",
    "levels_for",
    "suggest",
]
