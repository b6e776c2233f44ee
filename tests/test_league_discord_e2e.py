"""End to end: a league with the real bot (``python -m bot``) against the strict local Discord,
as members and a server manager drive it — sign-up by button, start, a round's threads
made once, a move in a league match, the round's post, ``/game list``, standings, and the
final post once the round's matches have ended (two players leave: they resign).

Lean on purpose: four players of Azul at two per table, one round (two matches).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.fakediscord import FakeDiscord, Message
from tests.test_e2e_discord import ROUTES, Table, start_bot


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(routes=dict(ROUTES)) as f:
        yield f


def in_channel(fake: FakeDiscord, words: str) -> list[Message]:
    """The bot's posts in the games channel holding ``words``."""
    return [m for m in fake.posts(fake.CHANNEL_ID) if words in m.content and not m.interaction_id]


async def test_a_league_from_signup_to_its_final_post(fake: FakeDiscord, tmp_path: Path) -> None:
    bot = await start_bot(fake, tmp_path / "bot.db", sync=True, scheduler_seconds=0.5)
    try:
        mia = fake.member("Mia", manager=True)
        members = [fake.member(name) for name in ("Ann", "Ben", "Cid", "Dot")]
        helper = Table(fake, members)
        refused = await fake.slash(members[0], "league new", game="azul", format="swiss")
        assert "Manage Server" in (await helper.done(refused)).content
        opened = await fake.slash(
            mia, "league new", game="azul", format="round-robin", rounds=1, signup_days=0
        )
        assert "opened league" in (await helper.done(opened)).content
        (signup,) = await fake.until(lambda: in_channel(fake, "Sign up with **Join**"), 60)
        league = int(next(c for c in signup.custom_ids if c.startswith("lg:join:")).split(":")[2])
        for member in members:  # sign up with the post's button: the post updates itself
            click = await fake.click(member, fake.messages[signup.id], f"lg:join:{league}")
            assert "You signed up" in (await helper.done(click)).content
        assert all(m["global_name"] in fake.messages[signup.id].content for m in members)

        started = await fake.slash(mia, "league start")
        assert "has started" in (await helper.done(started)).content
        (announced,) = await fake.until(lambda: in_channel(fake, "Table 2:"), 90)
        threads = fake.threads()
        assert len(threads) == 2
        assert all(f"<#{t['id']}>" in announced.content for t in threads)
        assert all(re.search(r", round 1$", t["name"]) for t in threads)
        assert not fake.messages[signup.id].custom_ids  # the sign-up is closed: no buttons

        # a move in a league match, in its thread, as in any match
        thread = int(threads[0]["id"])
        first = await fake.until(lambda: [m for m in fake.posts(thread) if m.files], 90)
        helper.thread = thread
        helper.match = int(re.findall(r"match-(\d+)-0\.png", first[0].files[0][0])[0])
        _post, acting = await helper.turn()
        await helper.typed(acting[0])
        await helper.turn()
        listed = await helper.done(await fake.slash(members[0], "game list"))
        assert "league Azul league #" in listed.content and "round 1" in listed.content

        standings = await helper.done(await fake.slash(members[1], "league standings"))
        assert [f for f, _ in standings.files] == [f"league-{league}-standings.png"]
        assert "points 0" in standings.content

        # one player of each table leaves the league: they resign, the round ends, the
        # league (one round) posts its final table with the picture
        for thread_info in threads:
            seated = [p for p in fake.posts(int(thread_info["id"])) if "<@" in p.content]
            leaver = next(
                m for m in members if f"<@{m['id']}>" in " ".join(p.content for p in seated)
            )
            left = await fake.slash(leaver, "league leave", league=league)
            assert "You left" in (await helper.done(left)).content
        (final,) = await fake.until(lambda: in_channel(fake, "is over"), 90)
        assert [f for f, _ in final.files] == [f"league-{league}-standings.png"]
        assert "points 1" in final.content and "(left)" in final.content
        await asyncio.sleep(1.5)  # a few more ticks and sweeps: nothing is made twice
        assert len(fake.threads()) == 2 and len(in_channel(fake, "Table 2:")) == 1
        refused_calls = [r for r in fake.records if r.status >= 400 and r.status != 429]
        assert not refused_calls, [(r.method, r.route, r.status) for r in refused_calls]
    finally:
        await bot.stop()
