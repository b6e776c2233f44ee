"""Several bot processes on one database, each running some of the Discord shards: every
computer turn is decided by exactly one of them — the process of the match's server's
shard ((server id >> 22) % shard count, as Discord places servers; a match of no server
belongs to shard 0). Three drivers, each with its own store connection, settle at the same
time on one database (SQLite and PostgreSQL); a recording thinker counts every decision."""

from __future__ import annotations

import asyncio
import collections
from pathlib import Path
from typing import Any

from bot.computers.driver import ComputerDriver
from bot.computers.players import is_computer
from bot.matches.service import MatchService
from bot.storage import ShardSlice
from tests.conftest import ALICE

SHARDS = 3


def _record(driver: ComputerDriver, decisions: list[tuple[int, int]], name: int) -> None:
    """Count each decision the driver asks its pool for, by the decision's seed (unique to
    match, ply and seat) and which driver asked."""
    choose = driver.pool.choose

    async def recording(*args: Any, **kw: Any) -> str:
        decisions.append((kw["seed"], name))
        return await choose(*args, **kw)

    driver.pool.choose = recording  # type: ignore[method-assign]  # a recording pool


async def _alice_moves(service: MatchService, match_id: int) -> bool:
    info = await service.info(match_id)
    if info.status != "running":
        return False
    if ALICE.id in info.to_act:
        moves = await service.legal_moves(match_id, ALICE)
        await service.play(match_id, ALICE, moves[0].notation)
    return True


async def test_each_computer_turn_is_decided_by_one_process(database: str | Path) -> None:
    services = [await MatchService.open(database, render=False) for _ in range(SHARDS)]
    drivers = [
        ComputerDriver(s, workers=1, processes=False, shards=ShardSlice((k,), SHARDS))
        for k, s in enumerate(services)
    ]
    decisions: list[tuple[int, int]] = []
    for k, driver in enumerate(drivers):
        _record(driver, decisions, k)
    service = services[0]
    try:
        # two servers on each shard, and a match of no server (shard 0's)
        guilds: list[str | None] = [
            str((k + SHARDS * j) << 22 | 77) for j in (1, 2) for k in (0, 1, 2)
        ]
        matches = {}
        for n, guild in enumerate([*guilds, None]):
            info = await service.create_match(
                "test-pile",
                ALICE,
                {"size": 12},
                seed=n,
                guild_id=guild,
                settings={"think_seconds": 0.02},
            )
            for _ in range(1 + n % 2):
                await service.add_computer(info.id, ALICE, "easy")
            await service.start(info.id, ALICE)
            matches[info.id] = 0 if guild is None else (int(guild) >> 22) % SHARDS
        live = set(matches)
        for _ in range(40):
            await asyncio.gather(*(d.settle() for d in drivers))
            live = {m for m in live if await _alice_moves(service, m)}
            if not live:
                break
        assert not live  # every match played to its end

        computer_moves = [
            (m, r)
            for m in matches
            for r in await service.store.moves(m)
            if is_computer(r.user_id) and r.kind == "move"
        ]
        seeds = collections.Counter(seed for seed, _ in decisions)
        assert len(computer_moves) > 3 * len(matches)
        assert len(decisions) == len(computer_moves)  # no turn thought twice
        assert set(seeds.values()) == {1}
        assert sum(d.moves_played for d in drivers) == len(computer_moves)
        # and each by the process of its match's shard
        by_driver = collections.Counter(name for _, name in decisions)
        expected = collections.Counter(matches[m] for m, _ in computer_moves)
        assert by_driver == expected and len(expected) == SHARDS
    finally:
        for driver in drivers:
            await driver.close()
        for s in services:
            await s.close()
