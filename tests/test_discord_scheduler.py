"""Reminders, clocks, heads-up and thread keep-alive fired by the reconcile loop with an
injected clock (no real sleeping), surviving a restart because they live in the database."""

from __future__ import annotations

from bot.discord.scheduler import in_quiet_hours
from tests.conftest import ALICE, BOB, CAROL, MALLORY
from tests.discord_harness import Harness, running
from tests.test_discord_commands import mover, only, open_lobby, started

HOUR = 3600.0
DAY = 24 * HOUR


def reminders(h: Harness, thread: int) -> list:
    return [
        c for c in h.fake.created if f"/channels/{thread}/" in c.url and "Reminder" in c.content
    ]


async def test_reminders_interval_limit_and_mute(tmp_path, database, monkeypatch) -> None:
    async with running(
        tmp_path,
        monkeypatch,
        database=database,
        reminder_hours=24.0,
        reminder_max=2,
        deadline_days=30.0,  # a clock far beyond the test's days, for the reminder's words
    ) as h:
        match_id, thread = await started(h)
        began = int(h.clock.now)
        on, _ = await mover(h, match_id)
        assert (await h.bot.scheduler.tick())["reminders"] == 0
        h.clock.advance(23 * HOUR)
        assert (await h.bot.scheduler.tick())["reminders"] == 0
        h.clock.advance(2 * HOUR)
        assert (await h.bot.scheduler.tick())["reminders"] == 1
        assert (await h.bot.scheduler.tick())["reminders"] == 0  # not twice
        await h.deliver()
        post = reminders(h, thread)[-1]
        assert f"<@{on.id}>" in post.content
        # its times are Discord timestamps: when the turn began and when its clock runs out
        # (each reader sees them in their own time zone)
        assert f"Your turn began <t:{began}:R>." in post.content
        deadline = began + int(h.bot.settings.deadline_days * DAY)
        assert f"Time to move runs out <t:{deadline}:R>." in post.content
        v = (await h.service.info(match_id)).version
        assert post.custom_ids == [f"tz:{match_id}:{v}"]
        h.clock.advance(DAY)
        assert (await h.bot.scheduler.tick())["reminders"] == 1
        h.clock.advance(DAY)
        assert (await h.bot.scheduler.tick())["reminders"] == 0  # reminder_max reached

        # a new turn starts the count again; the mute button silences this turn only
        await h.slash(on, "play", move="take1", channel=thread)
        on2, _ = await mover(h, match_id)
        v2 = (await h.service.info(match_id)).version
        reply = only(await h.click(MALLORY, f"tz:{match_id}:{v2}", channel=thread))
        assert "not your match" in reply.content
        reply = only(await h.click(on2, f"tz:{match_id}:{v2}", channel=thread))
        assert "muted" in reply.content
        await h.bot.scheduler.tick()
        h.clock.advance(2 * DAY)
        assert (await h.bot.scheduler.tick())["reminders"] == 0
        await h.slash(on2, "play", move="take1", channel=thread)
        await h.bot.scheduler.tick()
        h.clock.advance(DAY + 1)
        assert (await h.bot.scheduler.tick())["reminders"] == 1


async def test_per_player_overrides_quiet_hours_and_off(tmp_path, database, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch, database=database, reminder_hours=24.0) as h:
        match_id, thread = await started(h)
        on, _ = await mover(h, match_id)
        hour_now = int((h.clock.now / HOUR) % 24)
        await h.slash(
            on,
            "notify",
            reminder_hours=2.0,
            quiet_from=hour_now,
            quiet_to=(hour_now + 3) % 24,
            utc_offset=0.0,
        )
        await h.bot.scheduler.tick()
        h.clock.advance(2 * HOUR + 1)
        assert (await h.bot.scheduler.tick())["reminders"] == 0  # quiet hours
        h.clock.advance(HOUR)
        assert (await h.bot.scheduler.tick())["reminders"] == 1  # own 2 h interval
        await h.slash(on, "notify", mode="off")
        h.clock.advance(5 * HOUR)
        assert (await h.bot.scheduler.tick())["reminders"] == 0


def test_quiet_hours_wrap_midnight() -> None:
    prefs = {"quiet": [22, 7], "utc_offset": 1}
    assert in_quiet_hours(21 * HOUR, prefs)  # 22:00 local
    assert in_quiet_hours(5 * HOUR, prefs)
    assert not in_quiet_hours(7 * HOUR, prefs)  # 08:00 local
    assert not in_quiet_hours(0, {})


async def test_reminder_state_survives_restart(tmp_path, database, monkeypatch) -> None:
    async with running(
        tmp_path, monkeypatch, database=database, reminder_hours=24.0, reminder_max=1
    ) as h:
        match_id, thread = await started(h)
        await h.bot.scheduler.tick()
        h.clock.advance(DAY + 1)
        assert (await h.bot.scheduler.tick())["reminders"] == 1
        await h.restart()
        h.clock.advance(DAY + 1)
        assert (await h.bot.scheduler.tick())["reminders"] == 0  # the count was stored
        assert await h.deliver() >= 1  # queued before the restart, delivered after


async def test_clock_runs_out_skip_then_forfeit(tmp_path, database, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch, database=database, reminder_hours=0.0) as h:
        match_id, thread = await open_lobby(h, players=2, clock_days=1.0)
        await h.click(BOB, f"tl:join:{match_id}", channel=thread)
        await h.click(ALICE, f"tl:start:{match_id}", channel=thread)
        await h.deliver()
        post = [c for c in h.fake.created if f"/channels/{thread}/" in c.url][-1]
        assert "<t:" in post.content and ":R>" in post.content
        on, _ = await mover(h, match_id)
        await h.bot.scheduler.tick()
        h.clock.advance(DAY - 60)
        assert (await h.bot.scheduler.tick())["expired"] == 0
        h.clock.advance(120)
        assert (await h.bot.scheduler.tick())["expired"] == 1
        rows = await h.service.store.moves(match_id)
        assert rows[-1].label.startswith("(out of time)") and rows[-1].user_id == on.id
        await h.deliver()
        await h.slash(ALICE, "game settings", clock_action="forfeit", channel=thread)
        await h.bot.scheduler.tick()
        h.clock.advance(DAY + 1)
        assert (await h.bot.scheduler.tick())["expired"] == 1
        info = await h.service.info(match_id)
        assert info.status == "finished" and "ran out of time" in (info.end_reason or "")
        await h.deliver()
        posts = [c for c in h.fake.created if f"/channels/{thread}/" in c.url]
        assert posts[-1].files == [f"match-{match_id}-scores.png"]  # the chart follows
        last = posts[-2]
        assert "forfeits" in last.content and not last.custom_ids  # no buttons when over


async def test_heads_up_and_keepalive(tmp_path, database, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch, database=database, keepalive_days=2.0) as h:
        match_id, thread = await open_lobby(h)
        await h.click(BOB, f"tl:join:{match_id}", channel=thread)
        await h.click(CAROL, f"tl:join:{match_id}", channel=thread)
        for user in (ALICE, BOB, CAROL):
            await h.slash(user, "notify", heads_up=True)
        await h.click(ALICE, f"tl:start:{match_id}", channel=thread)
        await h.deliver()
        info = await h.service.info(match_id)
        acting = info.seat_of(info.to_act[0])
        assert acting is not None
        nxt = info.seats[(acting + 1) % 3].user_id
        assert (await h.bot.scheduler.tick())["headsup"] == 1
        assert (await h.bot.scheduler.tick())["headsup"] == 0
        await h.deliver()
        dm_open = [c for c in h.fake.calls if c.path == "/users/@me/channels"]
        assert str(dm_open[-1].payload["recipient_id"]) == nxt
        assert any("Heads-up" in c.content for c in h.fake.created)

        h.clock.advance(2 * DAY)
        assert (await h.bot.scheduler.tick())["keepalive"] == 1
        await h.deliver()
        patch = [c for c in h.fake.calls if c.method == "PATCH"][-1]
        assert patch.url.endswith(f"/channels/{thread}")
        assert patch.payload["archived"] is False
        assert patch.payload["auto_archive_duration"] in (4320, 10080)
