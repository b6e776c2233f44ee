"""Discord failing, beyond tests/test_discord_delivery.py: a long outage of mixed errors
over several matches (everything delivered once Discord answers again, in order per
match, no duplicates, one failing thread never holding up another), discord.py's own
RateLimited, a reply to the player that fails after the move was committed, and the
order of responses: every interaction is acknowledged before its slow work."""

from __future__ import annotations

import asyncio
import json
import random

import discord

from bot.discord.delivery import backoff
from tests.conftest import ALICE, BOB
from tests.discord_harness import Harness, http_error, running
from tests.test_discord_commands import mover, open_lobby, started


def created_in(h: Harness, thread: int) -> list[str]:
    return [c.content for c in h.fake.created if f"/channels/{thread}/messages" in c.url]


async def turn_texts(h: Harness, match_id: int) -> list[str]:
    cur = await h.service.store._reader.execute(
        "SELECT payload FROM outbox WHERE match_id = ? AND kind = 'turn' ORDER BY id", (match_id,)
    )
    return [json.loads(r[0])["text"] for r in await cur.fetchall()]


async def test_outage_of_mixed_errors_over_many_matches(tmp_path, database, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch, database=database) as h:
        games = [await started(h) for _ in range(3)]
        rng = random.Random(7)
        errors = [
            lambda: http_error(500),
            lambda: http_error(502),
            lambda: http_error(503),
            lambda: TimeoutError(),
            lambda: http_error(429, retry_after=2.0),
        ]
        for _ in range(4):
            for match_id, thread in games:
                on, _ = await mover(h, match_id)
                await h.slash(on, "play", move="take1", channel=thread)
            # Discord is down for a while: every post attempt fails (some after arriving)
            for _ in range(rng.randint(1, 4)):
                h.fake.fail(
                    "POST", "/messages", errors[rng.randrange(5)](), after=rng.random() < 0.3
                )
            for _ in range(3):
                await h.deliver()
                h.clock.advance(backoff(2))
        h.fake.failures.clear()
        for _ in range(20):  # Discord answers again
            if not await h.service.store.pending_count():
                break
            await h.deliver()
            h.clock.advance(backoff(5))
        assert await h.service.store.pending_count() == 0
        for match_id, thread in games:
            expected = [t.split("\n")[0] for t in await turn_texts(h, match_id)]
            # each post's first move line (a card's header comes before its lines)
            turn_posts = [
                next(e for e in expected if e in lines)
                for lines in (p.split("\n") for p in created_in(h, thread))
                if any(e in lines for e in expected)
            ]
            # every turn post once, in the order of the moves
            assert turn_posts == expected
            assert len(turn_posts) == len(expected) == 5


async def test_one_broken_thread_does_not_hold_up_the_others(
    tmp_path, database, monkeypatch
) -> None:
    async with running(tmp_path, monkeypatch, database=database) as h:
        (a, ta), (b, tb) = await started(h), await started(h)
        on, _ = await mover(h, a)
        await h.slash(on, "play", move="take1", channel=ta)
        on, _ = await mover(h, b)
        await h.slash(on, "play", move="take2", channel=tb)
        h.fake.fail("POST", f"/channels/{ta}/messages", http_error(503), times=5)
        assert await h.deliver() == 1  # b's post went out; a's waits for its retry
        assert any("take 2" in x for x in created_in(h, tb))
        assert not any("take 1" in x for x in created_in(h, ta))
        for attempt in range(6):
            h.clock.advance(backoff(attempt))
            await h.deliver()
        assert sum("take 1 counter" in x for x in created_in(h, ta)) == 1


async def test_discord_py_rate_limited_pauses_the_worker(tmp_path, database, monkeypatch) -> None:
    """discord.py raises RateLimited itself when Discord asks for a wait longer than
    max_ratelimit_timeout: the worker must pause that long, then deliver."""
    async with running(tmp_path, monkeypatch, database=database) as h:
        match_id, thread = await started(h)
        on, _ = await mover(h, match_id)
        await h.slash(on, "play", move="take1", channel=thread)
        h.fake.fail("POST", "/messages", discord.RateLimited(45.0))
        assert await h.deliver() == 0
        assert h.bot.delivery.paused_until == h.clock.now + 45.0
        h.clock.advance(44)
        assert await h.deliver() == 0
        h.clock.advance(1)
        assert await h.deliver() == 1
        assert sum("take 1 counter" in x for x in created_in(h, thread)) == 1


async def test_reply_fails_after_the_move_was_committed(tmp_path, database, monkeypatch) -> None:
    """The move landed but Discord refused the private confirmation (5xx): the move stands,
    its turn post is delivered, it is not reported as a bug, and nobody is told that
    'nothing was changed'."""
    async with running(tmp_path, monkeypatch, database=database) as h:
        match_id, thread = await started(h)
        on, _ = await mover(h, match_id)
        h.fake.fail("POST", "/webhooks/", http_error(503))  # the followup after the defer
        calls = await h.slash(on, "play", move="take2", channel=thread)
        assert [m.notation for m in await h.service.store.moves(match_id)] == ["take2"]
        texts = [c.content for c in calls if c.via == "hook"]
        assert not any("nothing was changed" in x for x in texts), texts
        assert "may have gone through" in texts[-1]
        assert await h.deliver() == 1
        assert any("take 2 counters" in x for x in created_in(h, thread))


async def test_every_interaction_is_acknowledged_before_slow_work(
    tmp_path, database, monkeypatch
) -> None:
    """Rendering is made slow (0.3 s); for every command that renders or posts, the first
    response (defer or update) is recorded before the picture is started and before
    any REST call of that interaction."""
    async with running(tmp_path, monkeypatch, database=database) as h:
        order: list[str] = []
        real_render = h.service._pics._render

        async def slow_render(*args, **kwargs):
            order.append("render")
            await asyncio.sleep(0.3)
            return await real_render(*args, **kwargs)

        monkeypatch.setattr(h.service._pics, "_render", slow_render)
        real_hook, real_rest = h.fake.hook, h.fake.rest

        async def hook(route, session=None, **kw):
            order.append("ack" if route.url.endswith("/callback") else "followup")
            return await real_hook(route, session, **kw)

        async def rest(route, **kw):
            order.append("rest")
            return await real_rest(route, **kw)

        monkeypatch.setattr(h.fake, "hook", hook)
        monkeypatch.setattr(h.fake, "rest", rest)

        async def check(label: str, action) -> None:
            order.clear()
            await action
            assert order and order[0] == "ack", (label, order)
            assert order.count("ack") == 1, (label, order)

        await check("game new", h.slash(ALICE, "game new", game="test-pile", players=2))
        match_id = (await h.service.list_matches())[-1].id
        thread = int((await h.service.info(match_id)).thread_id or 0)
        await check("join", h.click(BOB, f"tl:join:{match_id}", channel=thread))
        await check("start", h.click(ALICE, f"tl:start:{match_id}", channel=thread))
        on, off = await mover(h, match_id)
        await check("play typed", h.slash(on, "play", move="draw", channel=thread))
        await check("board", h.slash(off, "board", channel=thread))
        await check("hand", h.slash(on, "hand", channel=thread))
        await check("hand button", h.click(on, f"th:{match_id}", channel=thread))
        on, off = await mover(h, match_id)
        v = (await h.service.info(match_id)).version
        await h.click(on, f"ts:{match_id}:{v}:take/1", channel=thread)
        await check("confirm", h.click(on, f"tm:{match_id}:{v}:take1", channel=thread))
        await check("undo", h.slash(on, "undo", channel=thread))
        on, off = await mover(h, match_id)
        calls = await h.slash(off, "resign", channel=thread)
        cid = next(c for c in calls if c.custom_ids).custom_ids[0]
        await check("resign button", h.click(off, cid, channel=thread))
        assert (await h.service.info(match_id)).status == "finished"
        second, _ = await open_lobby(h)
        assert second != match_id
