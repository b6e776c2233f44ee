"""Start-up and shutdown of the Discord front end without a network: run_discord refuses
to start without a token and, on SIGTERM, closes Discord and the database."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

from bot.discord import run_discord
from bot.discord.client import TesseraBot
from bot.matches.service import MatchService
from bot.settings import Settings


async def test_needs_a_token(tmp_path) -> None:
    settings = Settings(_env_file=None, database_path=tmp_path / "x.db", DISCORD_TOKEN="")
    with pytest.raises(RuntimeError, match="DISCORD_TOKEN"):
        await run_discord(settings, sync=False)


async def test_sigterm_closes_bot_and_database(tmp_path, monkeypatch) -> None:
    events: list[str] = []
    started = asyncio.Event()

    async def fake_start(self: TesseraBot, token: str, *, reconnect: bool = True) -> None:
        assert token == "t0ken"
        await self.setup_hook()  # what login() would run: cogs, dynamic items, workers
        assert self.sync_on_start is True
        started.set()
        while not self.is_closed():  # like connect(): returns once close() ran
            await asyncio.sleep(0.01)

    async def fake_sync(self: TesseraBot, mode: str, *, guild_id: int | None = None) -> int:
        events.append(f"sync {mode}")
        return 0

    real_close = MatchService.close

    async def close(self: MatchService) -> None:
        events.append("db closed")
        await real_close(self)

    monkeypatch.setattr(TesseraBot, "start", fake_start)
    monkeypatch.setattr(TesseraBot, "sync_commands", fake_sync)
    monkeypatch.setattr(MatchService, "close", close)
    settings = Settings(_env_file=None, database_path=tmp_path / "x.db", DISCORD_TOKEN="t0ken")
    task = asyncio.create_task(run_discord(settings, sync=True))
    await asyncio.wait(
        [task, asyncio.ensure_future(started.wait())],
        timeout=10,
        return_when=asyncio.FIRST_COMPLETED,
    )
    if task.done():
        task.result()
    os.kill(os.getpid(), signal.SIGTERM)
    await asyncio.wait_for(task, 10)
    assert events == ["sync global", "db closed"]
