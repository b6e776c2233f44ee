"""The local Discord's threads archive when idle and can be locked, its nonces are
remembered for a few minutes only, and a channel's history can be read back — each rule
refused with Discord's status and code (``tests/fakediscord/threads.py``,
``tests/fakediscord/history.py`` cite the documentation)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.fakediscord import FakeDiscord, NotOffered
from tests.fakediscord.snowflake import DISCORD_EPOCH_MS


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as f:
        yield f


async def thread(fake: FakeDiscord, http: Any, minutes: int = 60) -> str:
    path = f"/channels/{fake.CHANNEL_ID}/threads"
    status, made, _ = await http(
        "POST", path, {"name": "m", "type": 11, "auto_archive_duration": minutes}
    )
    assert status == 200
    return str(made["id"])


def archived(fake: FakeDiscord, tid: str) -> bool:
    return bool(fake.channels[int(tid)]["thread_metadata"]["archived"])


async def test_a_thread_archives_after_its_duration_and_a_post_unarchives_it(
    fake: FakeDiscord, http: Any
) -> None:
    tid = await thread(fake, http, 60)
    first = await http("POST", f"/channels/{tid}/messages", {"content": "board"})
    fake.skew += 59 * 60
    assert (await http("GET", f"/channels/{tid}"))[1]["thread_metadata"]["archived"] is False
    fake.skew += 61  # an hour after the last message
    assert (await http("GET", f"/channels/{tid}"))[1]["thread_metadata"]["archived"] is True
    edit = await http("PATCH", f"/channels/{tid}/messages/{first[1]['id']}", {"content": "x"})
    assert (edit[0], edit[1]["code"]) == (400, 50083)
    nxt = await http("POST", f"/channels/{tid}/messages", {"content": "next"})
    assert nxt[0] == 200 and not archived(fake, tid)  # a post unarchives (and is activity)
    # archiving needs Manage Threads, which the bot lacks: a moderator archives it
    refused = await http("PATCH", f"/channels/{tid}", {"archived": True})
    assert (refused[0], refused[1]["code"]) == (403, 50013)
    await fake.archive_thread(int(tid))
    path = f"/channels/{tid}/messages/{nxt[1]['id']}"
    assert (await http("PATCH", path, {"content": "y"}))[1]["code"] == 50083
    assert (await http("PATCH", f"/channels/{tid}", {"archived": False}))[0] == 200
    assert (await http("PATCH", path, {"content": "y"}))[0] == 200


async def test_a_locked_thread_refuses_posts_edits_and_unarchiving(
    fake: FakeDiscord, http: Any
) -> None:
    tid = await thread(fake, http)
    made = await http("POST", f"/channels/{tid}/messages", {"content": "board"})
    await fake.lock_thread(int(tid))
    post = await http("POST", f"/channels/{tid}/messages", {"content": "x"})
    edit = await http("PATCH", f"/channels/{tid}/messages/{made[1]['id']}", {"content": "x"})
    assert (post[0], post[1]["code"]) == (edit[0], edit[1]["code"]) == (403, 160005)
    await fake.archive_thread(int(tid))
    unarchive = await http("PATCH", f"/channels/{tid}", {"archived": False})
    assert (unarchive[0], unarchive[1]["code"]) == (403, 160005)
    unlock = await http("PATCH", f"/channels/{tid}", {"locked": False})
    assert (unlock[0], unlock[1]["code"]) == (403, 50013)
    fake.bot_manages_threads = True  # a role with Manage Threads may
    assert (await http("POST", f"/channels/{tid}/messages", {"content": "x"}))[0] == 200
    assert [m.content for m in fake.posts(int(tid))] == ["board", "x"]


async def test_no_command_in_an_archived_thread(fake: FakeDiscord, http: Any) -> None:
    tid = await thread(fake, http)
    member = fake.member("Ann")
    await fake.archive_thread(int(tid))
    with pytest.raises(NotOffered, match="archived"):
        await fake.slash_raw(member, channel_id=int(tid))
    assert (await http("POST", f"/channels/{tid}/messages", {"content": "x"}))[0] == 200
    await fake.slash_raw(member, channel_id=int(tid))  # active again


async def test_a_nonce_is_forgotten_after_a_few_minutes(fake: FakeDiscord, http: Any) -> None:
    body = {"content": "once", "nonce": "tx1", "enforce_nonce": True}
    path = f"/channels/{fake.CHANNEL_ID}/messages"
    first = await http("POST", path, body)
    fake.skew += fake.nonce_window - 1
    assert (await http("POST", path, body))[1]["id"] == first[1]["id"]
    fake.skew += 2  # past the window: a second message
    assert (await http("POST", path, body))[1]["id"] != first[1]["id"]
    assert [m.content for m in fake.posts(fake.CHANNEL_ID)] == ["once", "once"]


async def test_history_newest_first_with_limit_and_after(fake: FakeDiscord, http: Any) -> None:
    path = f"/channels/{fake.CHANNEL_ID}/messages"
    made = [(await http("POST", path, {"content": f"m{i}", "nonce": f"n{i}"}))[1] for i in range(5)]
    assert all("nonce" in m for m in made)  # the create's answer carries it
    status, listed, _ = await http("GET", path)
    assert status == 200 and [m["content"] for m in listed] == ["m4", "m3", "m2", "m1", "m0"]
    assert all("nonce" not in m for m in listed)  # the history does not
    after = await http("GET", f"{path}?after={made[1]['id']}&limit=2")
    assert [m["content"] for m in after[1]] == ["m3", "m2"]
    before = await http("GET", f"{path}?before={made[3]['id']}&limit=2")
    assert [m["content"] for m in before[1]] == ["m2", "m1"]
    both = await http("GET", f"{path}?before=1&after=1")
    assert (both[0], both[1]["code"]) == (400, 50035)
    assert (await http("GET", f"{path}?limit=101"))[0] == 400
    # ids are snowflakes of Discord's clock ("Snowflakes": milliseconds since 2015)
    made_at = ((int(made[0]["id"]) >> 22) + DISCORD_EPOCH_MS) / 1000
    assert made_at > 1.7e9
    fake.bot_reads_history = False  # no Read Message History: no messages
    assert (await http("GET", path))[1] == []
