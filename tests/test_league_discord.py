"""``/league …`` through the real discord.py dispatch (recorded stand-in interactions, no
network): who may open a league, the sign-up post and its buttons, the round's threads made
once, the round's post naming them, ``/game list`` naming the league, standings, cancel."""

from __future__ import annotations

import re
from typing import Any

from bot.discord import league_posts
from bot.matches.reports import User
from bot.storage.rows import OutboxRow
from tests.conftest import ALICE, BOB, CAROL
from tests.discord_harness import CHANNEL_ID, Call, Harness, running

MANAGER = User("7777", "Manager")  # the harness gives this user Manage Server
DAVE = User("1004", "Dave")


def reply(calls: list[Call]) -> Call:
    replies = [c for c in calls if c.via == "hook"]
    assert replies, calls
    return replies[-1]


def posts(h: Harness, channel: int) -> list[Call]:
    return [c for c in h.fake.created if c.path.endswith("/messages") and str(channel) in c.url]


async def open_league(h: Harness, **options: Any) -> int:
    """A manager opens an Azul league in the channel; its sign-up post is delivered."""
    answer = reply(
        await h.slash(MANAGER, "league new", game="azul", format="round-robin", **options)
    )
    assert "opened league" in answer.content and not answer.ephemeral, answer.content
    await h.deliver()
    (signup,) = [c for c in posts(h, CHANNEL_ID) if any(i.startswith("lg:") for i in c.custom_ids)]
    return int(signup.custom_ids[0].split(":")[2])


async def test_only_a_manager_opens_starts_or_cancels_a_league(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        refused = reply(await h.slash(ALICE, "league new", game="azul", format="swiss"))
        assert refused.ephemeral and "Manage Server" in refused.content
        assert reply(await h.slash(ALICE, "league list")).content.startswith("This server has")
        league = await open_league(h, signup_days=0)
        for command in ("league start", "league cancel"):
            no = reply(await h.slash(ALICE, command, league=league))
            assert no.ephemeral and "Manage Server" in no.content
        listed = reply(await h.slash(ALICE, "league list")).content
        assert f"#{league} " in listed and "signing up" in listed
        offered = await h.autocomplete(ALICE, "league standings", "league", "", channel=CHANNEL_ID)
        assert [c["value"] for c in offered] == [league]
        assert "(signing up)" in offered[0]["name"]
        none = await h.autocomplete(ALICE, "league standings", "league", "zzz", channel=CHANNEL_ID)
        assert none == []


async def test_signup_buttons_start_threads_once_and_standings(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        league = await open_league(h, signup_days=2)
        signup = posts(h, CHANNEL_ID)[-1]
        assert "<t:" in signup.content and "Sign up with **Join** until" in signup.content
        for who in (ALICE, BOB, CAROL, DAVE):
            calls = await h.click(who, f"lg:join:{league}", channel=CHANNEL_ID)
            update = next(c for c in calls if c.callback_type == 7)  # the post, edited
            assert who.name in update.content
            assert any("You signed up" in c.content for c in calls if c.ephemeral)
        calls = await h.click(DAVE, f"lg:leave:{league}", channel=CHANNEL_ID)
        assert "Dave" not in next(c for c in calls if c.callback_type == 7).content
        await h.click(DAVE, f"lg:join:{league}", channel=CHANNEL_ID)
        twice = await h.click(DAVE, f"lg:join:{league}", channel=CHANNEL_ID)
        assert "already signed up" in reply(twice).content
        started = reply(await h.slash(MANAGER, "league start"))
        assert "has started" in started.content
        await h.deliver()
        threads = dict(h.fake.threads)
        assert len(threads) == 2  # four players of Azul at two: two tables
        names = [t["name"] for t in threads.values()]
        assert all(re.fullmatch(r"#\d+ Azul · Azul league #\d+, round 1", n) for n in names)
        matches = sorted(await h.service.list_matches(guild_id="100"), key=lambda m: m.id)
        assert {m.thread_id for m in matches} == {str(t) for t in threads}
        for m in matches:  # the first turn post went to the match's thread, after it
            assert posts(h, int(m.thread_id or 0)), m.id
        # the round's post names every table's thread (it may wait one pass for them)
        for _ in range(3):
            await h.deliver()
            h.clock.advance(30)
        round_post = [c for c in posts(h, CHANNEL_ID) if "Table 1:" in c.content]
        assert len(round_post) == 1
        assert all(f"<#{m.thread_id}>" in round_post[0].content for m in matches)
        # delivering again opens no thread and posts nothing more
        before = len(h.fake.created)
        await h.deliver()
        assert len(h.fake.threads) == 2 and len(h.fake.created) == before
        listed = reply(await h.slash(ALICE, "game list")).content
        assert "league Azul league #" in listed and "round 1" in listed
        table = reply(await h.slash(BOB, "league standings"))
        assert not table.ephemeral and table.files == [f"league-{league}-standings.png"]
        assert "Azul league" in table.content and "points 0" in table.content
        cancelled = reply(await h.slash(MANAGER, "league cancel", league=league))
        assert "was cancelled" in cancelled.content


async def test_a_resent_thread_item_finds_its_thread(tmp_path, monkeypatch) -> None:
    """A crash between a thread's creation and its bookkeeping: the item, claimed again,
    takes the thread it made (by name, among the server's active threads), not a second."""
    async with running(tmp_path, monkeypatch) as h:
        league = await open_league(h, signup_days=0)
        for who in (ALICE, BOB, CAROL):
            await h.click(who, f"lg:join:{league}", channel=CHANNEL_ID)
        await h.slash(MANAGER, "league start")
        await h.deliver()
        match = next(m for m in await h.service.list_matches(guild_id="100") if m.thread_id)
        made = int(match.thread_id or 0)
        await h.service.store.set_match_fields(match.id, thread_id=None)  # as if never set

        async def active(guild_id: int) -> dict[str, Any]:
            return {"threads": list(h.fake.threads.values()), "members": []}

        monkeypatch.setattr(h.bot.http, "get_active_threads", active)
        payload = {"league_id": league, "match_id": match.id, "round": 1, "table": 1}
        now = h.clock()
        row = OutboxRow(0, match.id, "league_thread", payload, 1, now, now, tried_at=now - 60)
        before = len(h.fake.threads)
        await league_posts.deliver(h.bot.delivery, row, RuntimeError)
        assert len(h.fake.threads) == before
        assert (await h.service.info(match.id)).thread_id == str(made)


async def test_the_deadline_starts_a_league_or_cancels_it(tmp_path, monkeypatch) -> None:
    """The scheduler's tick: at the deadline a league with enough players starts by itself
    (three players of Azul: a computer fills the odd seat), one with too few is cancelled;
    both say so in the channel and their sign-up posts lose their buttons."""
    async with running(tmp_path, monkeypatch) as h:
        full = await open_league(h, signup_days=1)
        for who in (ALICE, BOB, CAROL):
            await h.click(who, f"lg:join:{full}", channel=CHANNEL_ID)
        await h.slash(MANAGER, "league new", game="azul", format="swiss", signup_days=1)
        await h.deliver()
        h.clock.advance(86400 + 1)
        done = await h.bot.scheduler.tick()
        assert done["leagues"] == 2
        for _ in range(3):
            await h.deliver()
            h.clock.advance(30)
        assert len(h.fake.threads) == 2
        assert len([c for c in posts(h, CHANNEL_ID) if "Table 2:" in c.content]) == 1
        cancelled = [c for c in posts(h, CHANNEL_ID) if "was cancelled" in c.content]
        assert len(cancelled) == 1 and "needed 3 players" in cancelled[0].content
        edits = [c for c in h.fake.calls if c.method == "PATCH" and "/messages/" in c.url]
        assert len(edits) == 2 and all(not c.custom_ids for c in edits)
        assert (await h.bot.scheduler.tick())["leagues"] == 0
