"""The real bot on the strict local Discord's gateway: missed heartbeats and intents.

- A bot process frozen (SIGSTOP: its event loop cannot run, as when it is blocked) past
  the heartbeat interval is disconnected by the gateway (4009, the session ended, as
  ``tests/fakediscord/heartbeat.py`` cites), and once it runs again it connects anew and
  answers commands.
- The bot asks only for the ``guilds`` intent; asked to use the Server Members intent
  that the app does not have enabled, Discord closes with 4014 and the bot says so in
  one line and exits with 2.
"""

from __future__ import annotations

import os
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.botproc import BotProcess
from tests.test_e2e_discord import ROUTES, Table, start_bot


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(routes=dict(ROUTES), heartbeat_ms=1000) as f:
        yield f


async def test_a_frozen_bot_is_disconnected_and_comes_back(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    bot = await start_bot(fake, tmp_path / "bot.db", sync=True)
    try:
        assert fake.identified_intents == discord.Intents(guilds=True).value  # nothing more
        assert bot.proc is not None
        before = fake.heartbeat_timeouts
        identified = fake.identifies
        os.kill(bot.proc.pid, signal.SIGSTOP)
        try:
            await fake.until(lambda: fake.heartbeat_timeouts > before, 30)
            assert not fake.sessions  # the session ended with the connection
        finally:
            os.kill(bot.proc.pid, signal.SIGCONT)
        await fake.until(lambda: fake.identifies > identified, 60)
        ann = fake.member("Ann")
        table = Table(fake, [ann])
        answer = await table.done(await fake.slash(ann, "notify", mode="dm"))
        assert "direct message" in answer.content
    finally:
        await bot.stop()


async def test_a_privileged_intent_the_app_lacks_is_one_line_and_exit_2(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    bot = await BotProcess(
        fake.api,
        tmp_path / "bot.db",
        token=fake.token,
        capture_stderr=True,
        members_intent="true",
    ).start()
    err, code = await bot.stderr_and_exit()
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2 and len(lines) == 1, err
    assert "Server Members intent" in lines[0]
    assert fake.identified_intents is not None and fake.identified_intents & (1 << 1)
