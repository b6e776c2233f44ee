"""A post that goes out while the batch's settle is still running is marked when the batch
ends. Before, the marking loop stopped as soon as the batch was done, so such a post stayed
unmarked, its claim lapsed and it was sent again (seen with three processes on a busy
machine: the same post twice from one process, tests/test_multi_process.py)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from bot.discord import delivery
from bot.discord.delivery import OutboxWorker
from bot.matches.service import MatchService
from bot.settings import Settings
from bot.tools.loadtest import _NullChannel, _NullDiscord
from tests.conftest import ALICE, BOB


async def test_a_post_sent_during_the_last_settle_is_marked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = await MatchService.open(tmp_path / "t.db", render=False)
    try:
        threads = []
        for k in range(2):
            info = await service.create_match("test-pile", ALICE, None, seed=k, guild_id="77")
            await service.join(info.id, BOB)
            await service.set_thread(info.id, str(900 + k))
            await service.start(info.id, ALICE)
            threads.append(900 + k)
        bot = _NullDiscord(Settings(_env_file=None), service, None)  # type: ignore[call-arg]
        worker = OutboxWorker(bot, time.time)  # type: ignore[arg-type]
        slow_thread = threads[1]
        real_send, real_settle = _NullChannel.send, delivery.settle

        async def send(channel: _NullChannel, content: str, **kw: Any) -> Any:
            if channel.id == slow_thread:  # done after the first mark began, before it ends
                await asyncio.sleep(delivery.SETTLE_EVERY * 1.5)
            return await real_send(channel, content, **kw)

        async def slow_settle(store: Any, sent: Any, waiting: Any) -> None:
            if sent or waiting:
                await asyncio.sleep(delivery.SETTLE_EVERY * 3)
            await real_settle(store, sent, waiting)

        monkeypatch.setattr(_NullChannel, "send", send)
        monkeypatch.setattr(delivery, "settle", slow_settle)
        assert await worker.run_once() == 2
        assert bot.posted.count(slow_thread) == 1
        assert await service.store.pending_count() == 0  # both marked: nothing to send again
    finally:
        await service.close()
