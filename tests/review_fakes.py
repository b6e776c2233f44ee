"""A fast, recording judge for the review's plumbing tests (the search itself is tested
with the engine): put in the computer workers by target (``ComputerPool.reviewer``), as
tests put other thinkers there. It judges from what it is given only: the seat's view."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from rules.ai.hooks import ai_for
from rules.ai.review import Judgement
from rules.rng import Rng
from rules.words import to_json

TARGET = "tests.review_fakes:judge"
#: When this folder exists, each call writes "pid, seat, played" to a file named by its
#: seed there (a folder, not an environment variable: the workers' forkserver may have
#: started before a test set one).
RECORD_DIR = Path(tempfile.gettempdir()) / "tessera-review-calls"


def judge(game: Any, view: dict, seat: int, played: str, *, seed: int, budget_s: float) -> Any:
    """ "The best move" is the alphabetically last legal move of a determinization; a move
    that is not it loses a point per letter of difference in length, at most 4."""
    state = ai_for(game).determinize(game, view, seat, Rng.from_seed(seed, "fake-review"))
    moves = sorted(game.legal_moves(state, seat), key=lambda m: m.notation)
    legal = [m.notation for m in moves]
    best = legal[-1]
    loss = 0.0 if played == best else 1.0 + min(3, abs(len(best) - len(played)))
    if RECORD_DIR.is_dir():
        (RECORD_DIR / str(seed)).write_text(f"{os.getpid()}\t{seat}\t{played}", "utf-8")
    verdict = "forced" if len(legal) == 1 else ("best" if loss == 0 else "mistake")
    reason = to_json(moves[-1].label) if loss else None  # words of the rules
    return Judgement(
        seat=seat,
        played=played,
        best=best,
        loss=loss,
        noise=0.1,
        confidence=0.999 if loss > 2 else 0.995,
        verdict=verdict,
        reason=reason,
        played_reason=None,
        candidates=len(legal),
        forced=len(legal) == 1,
    )
