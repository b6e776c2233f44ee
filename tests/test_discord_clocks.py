"""Clocks and away through the Discord front end (harness, fake clock): `/notify away`
pausing a clock across its deadline, the 14-in-30 limit, `/notify back`, "away until" in
`/game list`, and a forfeit at a table of three handing the seat to a computer player."""

from __future__ import annotations

from bot.computers.players import is_computer
from tests.conftest import ALICE, BOB, CAROL
from tests.discord_harness import Harness, running
from tests.test_discord_commands import mover, only, open_lobby

DAY = 86400.0


def thread_posts(h: Harness, thread: int) -> list:
    return [c for c in h.fake.created if f"/channels/{thread}/" in c.url]


async def test_away_spans_a_clock_deadline(tmp_path, database, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch, database=database, reminder_hours=0.0) as h:
        match_id, thread = await open_lobby(h, players=2, clock_days=1.0)
        await h.click(BOB, f"tl:join:{match_id}", channel=thread)
        await h.click(ALICE, f"tl:start:{match_id}", channel=thread)
        await h.deliver()
        on, other = await mover(h, match_id)
        await h.bot.scheduler.tick()
        h.clock.advance(DAY / 2)

        reply = only(await h.slash(on, "notify", away=2))
        assert "You are away until <t:" in reply.content and reply.ephemeral
        listing = only(await h.slash(other, "game list", channel=thread))
        assert f"{on.name} is away until" in listing.content

        h.clock.advance(DAY)  # the clock's deadline passes while away
        assert (await h.bot.scheduler.tick())["expired"] == 0
        h.clock.advance(DAY)  # back now (two days): half a day left
        assert (await h.bot.scheduler.tick())["expired"] == 0
        h.clock.advance(DAY / 2 - 60)
        assert (await h.bot.scheduler.tick())["expired"] == 0
        h.clock.advance(120)
        assert (await h.bot.scheduler.tick())["expired"] == 1
        row = (await h.service.store.moves(match_id))[-1]
        assert row.user_id == on.id and row.label.startswith("(out of time)")

        # 2 of the 14 days in 30 are used: 13 more are refused, saying how many remain
        reply = only(await h.slash(on, "notify", away=13, mode="off"))
        assert "at most 14 days in any 30 days; you have 12 days left" in reply.content
        user = await h.service.store.get_user(on.id)
        assert user["notify"] != "off"  # a refusal changes nothing
        reply = only(await h.slash(on, "notify", back=True))
        assert "not away" in reply.content
        reply = only(await h.slash(on, "notify", away=12))
        assert "away until" in reply.content
        reply = only(await h.slash(on, "notify", back=True))
        assert "Welcome back" in reply.content
        listing = only(await h.slash(other, "game list", channel=thread))
        assert "away until" not in listing.content


async def test_forfeit_at_a_table_of_three_hands_the_seat_over(
    tmp_path, database, monkeypatch
) -> None:
    async with running(tmp_path, monkeypatch, database=database, reminder_hours=0.0) as h:
        match_id, thread = await open_lobby(h, players=3, clock_days=1.0)
        await h.click(BOB, f"tl:join:{match_id}", channel=thread)
        await h.click(CAROL, f"tl:join:{match_id}", channel=thread)
        await h.click(ALICE, f"tl:start:{match_id}", channel=thread)
        await h.slash(ALICE, "game settings", clock_action="forfeit", channel=thread)
        await h.deliver()
        info = await h.service.info(match_id)
        late = info.seats[info.seat_of(info.to_act[0]) or 0]
        await h.bot.scheduler.tick()
        h.clock.advance(DAY + 1)
        assert (await h.bot.scheduler.tick())["expired"] == 1
        await h.deliver()
        info = await h.service.info(match_id)
        seat = next(s for s in info.seats if s.seat == late.seat)
        assert info.status == "running" and is_computer(seat.user_id)
        post = thread_posts(h, thread)[-1]
        assert f"{late.name} ran out of time. {seat.name} takes over the seat" in post.content
        assert f"<@{late.user_id}>" not in post.content
