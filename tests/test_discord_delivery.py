"""The outbox worker under simulated Discord failures: 5xx and timeouts retried with
backoff, 429 honouring retry-after, a deleted thread dropping its item, order per match,
no duplicates, and a failed post never undoing a move. Time is a fake clock."""

from __future__ import annotations

from bot.discord.delivery import backoff
from tests.conftest import ALICE, BOB
from tests.discord_harness import Harness, http_error, running
from tests.test_discord_commands import mover, started


async def outbox(h: Harness) -> list[tuple]:
    cur = await h.service.store._reader.execute(
        "SELECT id, kind, attempts, due_at, sent_at IS NOT NULL, last_error FROM outbox ORDER BY id"
    )
    return [tuple(r) for r in await cur.fetchall()]


def thread_posts(h: Harness, thread: int) -> list:
    return [c for c in h.fake.created if f"/channels/{thread}/messages" in c.url]


async def test_server_errors_and_timeouts_retry_with_backoff_in_order(
    tmp_path, monkeypatch
) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread = await started(h)
        on, _ = await mover(h, match_id)
        await h.slash(on, "play", move="take1", channel=thread)
        on, _ = await mover(h, match_id)
        await h.slash(on, "play", move="take2", channel=thread)
        h.fake.fail("POST", f"/channels/{thread}/messages", http_error(503))
        h.fake.fail("POST", f"/channels/{thread}/messages", TimeoutError())
        assert await h.deliver() == 0
        rows = await outbox(h)
        first = rows[1]
        assert first[2] == 1 and first[3] == h.clock.now + backoff(0) and not first[4]
        assert "503" in first[5]
        assert await h.deliver() == 0  # not due yet; the later post waits behind it
        h.clock.advance(backoff(0))
        assert await h.deliver() == 0  # the timeout
        assert (await outbox(h))[1][2] == 2
        h.clock.advance(backoff(1))
        assert await h.deliver() == 2  # both, in order
        posts = thread_posts(h, thread)
        assert "take 1 counter" in posts[-2].content and "take 2 counters" in posts[-1].content
        assert len(await h.service.store.moves(match_id)) == 2  # nothing undone


async def test_rate_limit_honours_retry_after(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread = await started(h)
        on, _ = await mover(h, match_id)
        await h.slash(on, "play", move="take1", channel=thread)
        h.fake.fail("POST", "/messages", http_error(429, retry_after=7.5))
        assert await h.deliver() == 0
        row = (await outbox(h))[1]
        assert row[3] == h.clock.now + 7.5 and "429" in row[5]
        assert h.bot.delivery.paused_until == h.clock.now + 7.5
        h.clock.advance(7)
        assert await h.deliver() == 0
        h.clock.advance(0.5)
        assert await h.deliver() == 1


async def test_lost_reply_is_not_posted_twice(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread = await started(h)
        on, _ = await mover(h, match_id)
        await h.slash(on, "play", move="take1", channel=thread)
        h.fake.fail("POST", "/messages", TimeoutError(), after=True)
        assert await h.deliver() == 0
        h.clock.advance(backoff(0))
        assert await h.deliver() == 1
        sent = [
            c
            for c in h.fake.calls
            if f"/channels/{thread}/messages" in c.url and c.method == "POST"
        ]
        assert sent[-1].payload["nonce"] == sent[-2].payload["nonce"]
        assert sum("take 1 counter" in c.content for c in thread_posts(h, thread)) == 1


async def test_deleted_thread_drops_instead_of_blocking(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread = await started(h)
        on, _ = await mover(h, match_id)
        await h.slash(on, "play", move="take1", channel=thread)
        on, _ = await mover(h, match_id)
        await h.slash(on, "play", move="take1", channel=thread)
        h.fake.fail("POST", "/messages", http_error(404, code=10003))
        assert await h.deliver() == 2  # dropped, then the next one went out
        rows = await outbox(h)
        assert rows[1][4] and rows[1][5].startswith("dropped: gone (404)")
        assert rows[2][4] and rows[2][5] is None
        assert await h.service.store.pending_count() == 0


async def test_gives_up_after_max_attempts(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch, outbox_max_attempts=2) as h:
        match_id, thread = await started(h)
        on, _ = await mover(h, match_id)
        await h.slash(on, "play", move="take1", channel=thread)
        h.fake.fail("POST", "/messages", http_error(500), times=2)
        assert await h.deliver() == 0
        h.clock.advance(3600)
        assert await h.deliver() == 1
        assert "gave up" in (await outbox(h))[1][5]


async def test_dm_preference_and_private_texts(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread = await started(h)
        on, off = await mover(h, match_id)
        await h.slash(off, "notify", mode="dm")
        await h.slash(on, "notify", mode="off")
        await h.slash(on, "play", move="draw", channel=thread)
        await h.deliver()
        turn = thread_posts(h, thread)[-1]
        assert f"<@{off.id}>" in turn.content
        dms = [c for c in h.fake.created if "/channels/" in c.url and f"/{thread}/" not in c.url]
        texts = [c.content for c in dms]
        assert any("It is your turn in match" in x and "discord.com/channels" in x for x in texts)
        # the drawer turned notifications off: the private card text is not DMed
        assert not any("You drew" in x for x in texts)
        await h.slash(on, "notify", mode="mention")
        await h.slash(off, "play", move="draw", channel=thread)
        # DMs closed: Discord refuses the message in the (cached) DM channel
        dm = next(c for c in h.bot.private_channels if c.recipient.id == int(off.id))
        h.fake.fail("POST", f"/channels/{dm.id}/messages", http_error(403))
        await h.deliver()
        assert await h.service.store.pending_count() == 0
        assert "forbidden" in (await outbox(h))[-1][5] or "forbidden" in (await outbox(h))[-2][5]


async def test_no_ping_for_players_who_turned_it_off(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread = await started(h)
        on, off = await mover(h, match_id)
        await h.slash(off, "notify", mode="off")
        await h.slash(on, "play", move="take1", channel=thread)
        await h.deliver()
        turn = thread_posts(h, thread)[-1]
        assert f"<@{off.id}>" not in turn.content and off.name in turn.content
        assert turn.payload["allowed_mentions"]["users"] == []
        assert {ALICE.id, BOB.id} >= {on.id, off.id}
