"""Every post leaves once (issue 44): a turn alert DM queued again by its post's re-send is
the same row; each post is marked sent as soon as it is sent; a re-send after a kill -9
and an outage longer than Discord's nonce memory finds the post already there; settled
rows are pruned; a thread archived between two plies of a run is unarchived and the ply
edited in; a locked thread is said once in the match's channel, not dropped silently.

The outbox worker runs in-process against the Discord harness (a fake clock), except the
kill -9 test: the real bot process against the strict local Discord."""

from __future__ import annotations

import asyncio
import types
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import bot.storage.clock
from bot.discord.delivery import OutboxWorker
from bot.storage import open_store
from bot.storage.rows import Notification
from tests.discord_harness import CHANNEL_ID, Harness, http_error, running
from tests.fakediscord import FakeDiscord
from tests.test_calm_posts import THREAD, edits, open_match, play_until_run, posts, taj_ply
from tests.test_discord_commands import mover, started
from tests.test_e2e_discord import ROUTES, Table, all_in_order, start_bot


async def outbox(h: Harness) -> list[tuple[Any, ...]]:
    cur = await h.service.store._reader.execute(
        "SELECT id, kind, match_id, sent_at IS NOT NULL, last_error FROM outbox ORDER BY id"
    )
    return [tuple(r) for r in await cur.fetchall()]


def turn_dms(h: Harness, thread: int) -> list[Any]:
    """Messages Discord created outside the thread and the games channel: the DMs."""
    return [
        c
        for c in h.fake.created
        if "/channels/" in c.url and f"/{thread}/" not in c.url and f"/{CHANNEL_ID}/" not in c.url
    ]


async def test_a_re_sent_turn_post_queues_its_alert_dm_once(tmp_path, monkeypatch) -> None:
    """The turn post goes out and queues Bob's "your turn" DM, then the database is down
    at the mark: the post is claimed again after its lease and re-sent (its nonce keeps it
    single), and its DM, queued again, is the same row — one DM, not two."""
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread = await started(h)
        on, off = await mover(h, match_id)
        await h.slash(off, "notify", mode="dm")
        await h.slash(on, "play", move="take1", channel=thread)
        store = h.service.store
        settle, mark = store.settle_sent, store.mark_sent

        async def down(*args: Any, **kwargs: Any) -> Any:
            raise ConnectionError("the database is down at the mark")

        monkeypatch.setattr(store, "settle_sent", down)
        monkeypatch.setattr(store, "mark_sent", down)
        with pytest.raises(ConnectionError):
            await h.deliver()
        monkeypatch.setattr(store, "settle_sent", settle)
        monkeypatch.setattr(store, "mark_sent", mark)
        h.clock.advance(h.bot.settings.lease_seconds + 1)
        for _ in range(3):
            await h.deliver()
        rows = await outbox(h)
        assert [r[1] for r in rows].count("dm") == 1, rows
        assert all(r[3] for r in rows) and await store.pending_count() == 0
        assert len(turn_dms(h, thread)) == 1


async def test_each_post_is_marked_sent_as_soon_as_it_is_sent(tmp_path, monkeypatch) -> None:
    """Two matches' posts in one claimed batch; the second waits for its picture. The
    first is marked sent while the second still waits (it used to wait for the batch's
    slowest post: a crash in between re-sent it)."""
    async with running(tmp_path, monkeypatch) as h:
        first, t1 = await started(h)
        second, t2 = await started(h)
        for match_id, thread in ((first, t1), (second, t2)):
            on, _ = await mover(h, match_id)
            await h.slash(on, "play", move="take1", channel=thread)
        gate = asyncio.Event()
        real = OutboxWorker._turn_png

        async def slow(self: OutboxWorker, info: Any, p: Any, public: str) -> Any:
            if info.id == second:
                await gate.wait()
            return await real(self, info, p, public)

        monkeypatch.setattr(OutboxWorker, "_turn_png", slow)
        task = asyncio.create_task(h.deliver())
        try:
            for _ in range(500):
                if any(f"/channels/{t1}/messages" in c.url for c in h.fake.created[-3:]):
                    break
                await asyncio.sleep(0.01)
            for _ in range(100):  # the mark's own round trip
                rows = await outbox(h)
                if all(r[3] for r in rows if r[2] == first):
                    break
                await asyncio.sleep(0.01)
            assert all(r[3] for r in rows if r[2] == first), rows
            assert not all(r[3] for r in rows if r[2] == second)
        finally:
            gate.set()
            await task
        assert await h.service.store.pending_count() == 0


async def test_a_thread_archived_between_two_plies_is_unarchived_and_the_ply_edited_in(
    tmp_path, monkeypatch
) -> None:
    """Taj Mahal: Alice withdrew, her first palace folds into her turn post — but the
    thread archived meanwhile and Discord refuses the edit (400, 50083 "Thread is
    archived"). The worker unarchives the thread and edits again: the palace is in the
    post (it used to be dropped silently)."""
    async with running(tmp_path, monkeypatch) as h:
        match_id = await open_match(h, "taj-mahal", 3)
        await play_until_run(h, match_id)
        assert await h.deliver() == 1  # the withdrawal, folded into Alice's turn post
        before, edited = len(posts(h)), len(edits(h))
        await taj_ply(h, match_id)  # the first palace
        h.fake.fail("PATCH", f"/channels/{THREAD}/messages/", http_error(400, code=50083))
        assert await h.deliver() == 1
        unarchived = [
            c for c in h.fake.calls if c.method == "PATCH" and c.url.endswith(f"/{THREAD}")
        ]
        assert [c.payload for c in unarchived] == [{"archived": False}]
        tries = edits(h)[edited:]
        assert len(tries) == 2 and tries[0].content == tries[1].content
        assert "placed a palace" in tries[1].content and "Alice withdrew" in tries[1].content
        assert len(posts(h)) == before
        assert not any(r[4] for r in await outbox(h))  # nothing dropped or failed


async def test_a_locked_thread_is_said_once_in_the_matchs_channel(tmp_path, monkeypatch) -> None:
    """A moderator locked the match's thread: Discord refuses the posts (160005 "Thread
    is locked"). Each refused post is given up with the reason kept, and the channel the
    match was opened in is told once, in words, that the thread is locked."""
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread = await started(h)
        for move in ("take1", "take2"):
            on, _ = await mover(h, match_id)
            await h.slash(on, "play", move=move, channel=thread)
            h.fake.fail("POST", f"/channels/{thread}/messages", http_error(403, code=160005))
            await h.deliver()
        told = [c for c in h.fake.created if c.url.endswith(f"/channels/{CHANNEL_ID}/messages")]
        assert len(told) == 1 and "is locked" in told[0].content, [c.content for c in told]
        assert f"<#{thread}>" in told[0].content and f"#{match_id}" in told[0].content
        dropped = [r for r in await outbox(h) if "thread locked" in str(r[4])]
        assert len(dropped) == 2 and await h.service.store.pending_count() == 0


async def test_keys_and_pruning_on_both_backends(database: str | Path, monkeypatch) -> None:
    """A keyed notification is queued once however often it is queued; rows settled
    longer ago than the retention are pruned (in slices), the rest kept."""
    now = [1_000_000.0]
    monkeypatch.setattr(bot.storage.clock, "time", types.SimpleNamespace(time=lambda: now[0]))
    store = await open_store(database)
    try:
        alert = Notification("dm", {"user_id": "1", "text": "your turn"}, key="tx7:1")
        await store.enqueue(None, [alert])
        await store.enqueue(None, [alert, Notification("dm", {"user_id": "2", "text": "x"})])
        rows = await store.claim_notifications("me", now=now[0])
        assert len(rows) == 2 and all(r.tried_at is None for r in rows)
        await store.mark_sent(rows[0].id)
        await store.drop_notification(rows[1].id, "refused")
        now[0] += 8 * 86400
        for text in ("recent", "pending"):
            await store.enqueue(None, [Notification("dm", {"user_id": "3", "text": text})])
        recent, pending = await store.claim_notifications("me", now=now[0])
        await store.mark_sent(recent.id)
        assert await store.prune_sent(now[0] - 7 * 86400, limit=1) == 1  # a slice
        assert await store.prune_sent(now[0] - 7 * 86400) == 1
        cur = await store._reader.execute("SELECT id FROM outbox ORDER BY id")
        assert [r[0] for r in await cur.fetchall()] == [recent.id, pending.id]
        # the pending row, claimed again after its lease: it may have been sent
        again = await store.claim_notifications("me", now=now[0] + 3600)
        assert [(r.id, r.tried_at) for r in again] == [(pending.id, now[0])]
        await store.release_notifications([pending.id])  # handed back: this claim sent nothing
        third = await store.claim_notifications("me", now=now[0] + 3600)
        assert [(r.id, r.tried_at) for r in third] == [(pending.id, now[0])]
    finally:
        await store.close()


async def test_the_worker_prunes_by_its_setting(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch, outbox_retention_days=1) as h:
        match_id, thread = await started(h)
        assert await h.service.store.pending_count() == 0
        settled = len(await outbox(h))
        assert await h.bot.delivery.prune() == 0  # all younger than a day
        h.clock.advance(86400 + 1)
        assert await h.bot.delivery.prune() == settled and not await outbox(h)
        assert h.bot.delivery.pruned_at == h.clock.now


# ----- the real bot against the strict local Discord -----------------------------------
@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(routes=dict(ROUTES)) as f:
        yield f


async def test_kill_9_between_send_and_mark_then_an_outage_past_the_nonce_window(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """A turn post reaches Discord, its answer never comes, the bot is killed (kill -9:
    between the send and the mark) and stays down longer than Discord remembers the
    nonce. The restarted bot takes the post over after its lease, finds it in the thread
    and does not post it again: every post appears once."""
    db = tmp_path / "bot.db"
    route = "/channels/{channel_id}/messages"
    table = Table(fake, [fake.member("Ann"), fake.member("Ben")])
    bot = await start_bot(fake, db, sync=True)
    try:
        await table.open("azul")  # every ply is a new post (no run folds into an edit)
        await table.play(1)
        _, acting = await table.turn()
        fake.inject("POST", route, 0)  # Discord acts, the answer is lost
        await table.typed(acting[0])
        await fake.until(lambda: fake.stalled, 60)
        stalled = fake.stalled[0].body["nonce"]
        bot.kill9()
        await bot.wait_dead()
        fake.skew += fake.nonce_window + 60  # the outage outlasts the nonce's memory
        bot = await start_bot(fake, db)
        await table.play(1)  # the next move's post comes only once the stalled one settled
        await table.turn()
        sent = [m.nonce for m in fake.posts(table.thread) if (m.nonce or "").startswith("tx")]
        assert sent.count(stalled) == 1 and len(sent) == len(set(sent)), sent
        names = [f for m in fake.posts(table.thread) for f, _ in m.files]
        for ply in range(1, table.ply + 1):
            assert names.count(f"match-{table.match}-{ply}.png") == 1, (ply, names)
        assert [r for r in fake.records if r.method == "GET" and r.route == route]  # looked
    finally:
        await bot.stop()


async def test_a_thread_archived_before_each_ply_loses_no_ply(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Pastiche (painting a hex folds into the turn post by an edit): a moderator archives
    the thread before every move, made by buttons (the client offers no commands in an
    archived thread). A new post unarchives it (Discord does); a folded ply's edit is
    refused (400, 50083): the bot unarchives the thread and edits again, so every ply's
    text and board appear, in order (the fold used to be dropped silently)."""
    table = Table(fake, [fake.member("Ann"), fake.member("Ben")])
    bot = await start_bot(fake, tmp_path / "bot.db", sync=True)
    try:
        await table.open("pastiche")

        def refused() -> int:
            return sum(1 for r in fake.records if r.error_code == 50083)

        while not refused() and table.ply < 16:
            post, acting = await table.turn()
            await fake.archive_thread(table.thread)
            await table.buttons(acting[0], post)
        assert refused(), "no ply of a run met an archived thread"
        post, _ = await table.turn()  # the refused ply's board, edited in after all
        assert all_in_order(table, table.ply)
        assert post.edits and not fake.channels[table.thread]["thread_metadata"]["archived"]
    finally:
        await bot.stop()
