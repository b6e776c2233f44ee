"""The local Discord's list of a server's active threads (``tests/fakediscord/
guild_threads.py`` cites the documentation): active threads only, newest first, none the
bot cannot see, and an unknown server refused with Discord's status and code."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.fakediscord import FakeDiscord


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as f:
        yield f


async def test_active_threads_newest_first_and_refusals(fake: FakeDiscord, http: Any) -> None:
    made = []
    for name in ("a", "b", "c"):
        body = {"name": name, "type": 11, "auto_archive_duration": 60}
        status, thread, _ = await http("POST", f"/channels/{fake.CHANNEL_ID}/threads", body)
        assert status == 200
        made.append(thread["id"])
    await fake.archive_thread(int(made[0]))
    status, found, _ = await http("GET", f"/guilds/{fake.GUILD_ID}/threads/active")
    assert status == 200
    assert [t["id"] for t in found["threads"]] == [made[2], made[1]]
    assert {m["id"] for m in found["members"]} == {made[1], made[2]}
    await fake.revoke("VIEW_CHANNEL")  # the channel, and so its threads, hidden from the bot
    status, hidden, _ = await http("GET", f"/guilds/{fake.GUILD_ID}/threads/active")
    assert status == 200 and hidden["threads"] == []
    status, body, _ = await http("GET", "/guilds/123/threads/active")
    assert (status, body["code"]) == (404, 10004)
