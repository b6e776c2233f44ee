"""Matches with a chosen result, played through the service on the test Pile game.

Each seat's target score is 1–3 and the pile holds their sum, so every seat takes its
target on its one turn and the match ends after the last one: the finishing order is
exactly the targets' order (equal targets tie), whoever the game lets start.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.matches.reports import User
from bot.matches.service import MatchService
from tests.fakegame import GAME as PILE
from tests.reliability_helpers import PLAYERS


async def play_result(
    service: MatchService,
    targets: dict[str, int],
    *,
    guild_id: str = "100",
    computers: int = 0,
    computer_targets: tuple[int, ...] = (),
    settings: dict[str, Any] | None = None,
    seed: int | None = None,
    before_move: Callable[[], None] | None = None,
) -> int:
    """A finished Pile match whose people (by user id, of tests' PLAYERS) and computers
    scored ``targets`` / ``computer_targets``; returns its id. Without ``seed``, one where
    the first seat starts (people in the order given, then computers, move in turn).
    ``before_move`` runs before each move (tests advance a clock there)."""
    seats = len(targets) + computers
    if seed is None:
        seed = next(s for s in range(100) if PILE.setup(seats, s)["turn"] == 0)
    people = [next(p for p in PLAYERS if p.id == uid) for uid in targets]
    info = await service.create_match(
        "test-pile",
        people[0],
        {"size": sum(targets.values()) + sum(computer_targets)},
        max_players=seats,
        seed=seed,
        guild_id=guild_id,
        channel_id="500",
        settings=settings,
    )
    for p in people[1:]:
        await service.join(info.id, p)
    for _ in range(computers):
        info = await service.add_computer(info.id, people[0], "easy")
    await service.start(info.id, people[0])
    info = await service.info(info.id)
    wanted = dict(targets)
    robots = [s for s in info.seats if s.user_id.startswith("ai:")]
    for seat, score in zip(robots, computer_targets, strict=True):
        wanted[seat.user_id] = score
    names = {s.user_id: s.name for s in info.seats}
    while info.status == "running":
        uid = info.to_act[0]
        if before_move is not None:
            before_move()
        report = await service.play(info.id, User(uid, names[uid]), f"take{wanted[uid]}")
        info = report.match
    assert info.status == "finished", info.status_text
    return info.id
