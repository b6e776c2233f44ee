"""Helpers of the review tests: finished matches of the real games, a counting judge."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.matches.service import MatchService
from rules import get_game
from rules.rng import Rng
from tests import review_fakes
from tests.reliability_helpers import on_turn, start_match


async def finished_match(service: MatchService, game_id: str, seed: int = 5) -> int:
    """A match of ``game_id`` played to its end with random legal moves."""
    match_id = await start_match(service, game_id, seed=seed)
    await play_out(service, match_id, seed)
    return match_id


async def play_out(service: MatchService, match_id: int, seed: int = 5) -> None:
    """Random legal moves until the match is over."""
    rng = Rng.from_seed(seed, "review-test")
    while (await service.info(match_id)).status == "running":
        user = await on_turn(service, match_id)
        legal = await service.legal_moves(match_id, user)
        await service.play(match_id, user, rng.choice(legal).notation)


class CountingJudge:
    """Judges in this process with the fast fake judge, counting the calls (and what
    each was given); ``gate`` holds every call until set."""

    def __init__(self, workers: int = 2) -> None:
        self.workers = workers
        self.calls: list[tuple[str, int, str, int]] = []
        self.views: list[Any] = []
        self.gate = asyncio.Event()
        self.gate.set()

    async def review(
        self, game_id: str, view: Any, seat: int, played: str, *, seed: int, budget_s: float
    ) -> dict[str, Any]:
        await self.gate.wait()
        self.calls.append((game_id, seat, played, seed))
        self.views.append(view)
        judged = review_fakes.judge(get_game(game_id), view, seat, played, seed=seed, budget_s=0)
        return dict(judged.to_json())
