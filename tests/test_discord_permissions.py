"""The real bot when a server manager takes a permission from it mid-match
(``bot/discord/permissions.py``), against the strict local Discord, which refuses what the
bot's role may not do with Discord's 403 / 50013 (``tests/fakediscord/permissions.py``).

- Attach Files taken: the turn posts go on without their boards, each saying why; the
  server's owner gets one DM naming the permission; once it is back, boards come back.
- Send Messages in Threads taken: the post cannot go out; it is parked (not dropped, not
  retried in a loop), the owner is told once, and it goes out when the permission is back.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.fakediscord import FakeDiscord, Message
from tests.test_e2e_discord import ROUTES, Table, start_bot

ROUTE = "/channels/{channel_id}/messages"


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(routes=dict(ROUTES)) as f:
        yield f


def new_posts(fake: FakeDiscord, table: Table, before: int) -> list[Message]:
    return [m for m in fake.posts(table.thread)[before:] if m.interaction_id is None]


def last_errors(db: Path) -> list[str]:
    """The reasons kept on the outbox rows still waiting (the bot's database)."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT last_error FROM outbox WHERE sent_at IS NULL").fetchall()
    return [str(r[0]) for r in rows if r[0]]


def all_errors(db: Path) -> list[tuple[str, bool]]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT last_error, sent_at FROM outbox").fetchall()
    return [(str(r[0]), r[1] is not None) for r in rows if r[0]]


def mentioned(table: Table, post: Message) -> dict[str, Any]:
    """Who the post asks to move (2-player Azul: each ply hands the turn over, pinged)."""
    ids = re.findall(r"<@(\d+)>", post.content)
    return table.members[int(ids[-1])]


async def test_a_channel_that_loses_attach_files_mid_match(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    bot = await start_bot(fake, tmp_path / "bot.db", sync=True)
    owner = fake.server_owner()
    try:
        table = Table(fake, [fake.member("Ann"), fake.member("Ben")])
        await table.open("azul")
        await table.play(2)
        _post, acting = await table.turn()
        await fake.revoke("ATTACH_FILES")
        member = acting[0]
        for _ in range(2):  # two plies without boards
            before = len(fake.posts(table.thread))
            await table.typed(member)
            (blind,) = await fake.until(
                lambda b=before: [
                    m for m in new_posts(fake, table, b) if "Attach Files" in m.content
                ]
            )
            assert not blind.files and not blind.media()
            assert "board cannot be shown" in blind.content and blind.custom_ids  # playable
            member = mentioned(table, blind)
        told = await fake.until(lambda: [m for m in fake.dms(owner) if "Attach Files" in m.content])
        assert len(told) == 1 and f"<#{fake.CHANNEL_ID}>" in told[0].content
        await fake.restore("ATTACH_FILES")
        await table.typed(member)
        post, _ = await table.turn()  # the board is back
        assert post.files
        assert len([m for m in fake.dms(owner) if "Attach Files" in m.content]) == 1
        refused = [r for r in fake.records if r.status == 403]
        assert not refused, [(r.route, r.error_code) for r in refused]  # checked before posting
    finally:
        await bot.stop()


async def test_a_post_that_cannot_go_out_is_parked_and_sent_when_allowed_again(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Parked for a minute at first (bot/discord/permissions.py), the post goes out within
    the test's wait only because the CHANNEL_UPDATE giving the permission back retries it."""
    db = tmp_path / "bot.db"
    bot = await start_bot(fake, db, sync=True)
    owner = fake.server_owner()
    try:
        table = Table(fake, [fake.member("Ann"), fake.member("Ben")])
        await table.open("azul")
        await table.play(1)
        _post, acting = await table.turn()
        await fake.revoke("SEND_MESSAGES_IN_THREADS")
        await table.typed(acting[0])  # the answer to the click is the interaction's: allowed
        told = await fake.until(
            lambda: [m for m in fake.dms(owner) if "Send Messages in Threads" in m.content]
        )
        assert len(told) == 1
        refused = [r for r in fake.records if r.route == ROUTE and r.status == 403]
        assert [r.error_code for r in refused] == [50013]  # parked, not retried in a loop
        assert table.post(table.ply) is None
        (reason,) = last_errors(db)
        assert reason == "parked: missing permission Send Messages in Threads (50013)"
        await fake.restore("SEND_MESSAGES_IN_THREADS")
        post, _ = await table.turn()  # the parked post went out once it was allowed
        # retried because the permission came back (not after its minute), then sent
        await fake.until(lambda: ("permission back: retry", True) in all_errors(db), 30)
        assert [m.nonce for m in fake.posts(table.thread)].count(post.nonce) == 1
        assert len([m for m in fake.dms(owner) if "Send Messages" in m.content]) == 1
    finally:
        await bot.stop()
