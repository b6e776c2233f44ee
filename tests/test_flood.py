"""One member cannot spoil it for everyone (issue 44): the flood limits of
bot/discord/flood.py.

- the windows: an action over a member's or a server's allowance is refused with when to
  try again, counted nowhere, and allowed again once the window has moved on; typing
  (autocomplete) has its own, larger allowance;
- a flood through the real command tree and buttons (in-process bot, a fake clock): one
  member sends commands and clicks as fast as they can for a minute; after the allowance
  every one is refused privately with a Discord timestamp, nothing else is sent to
  Discord for them (no post, no thread: nothing that draws on the bot's global rate
  limit), and another member's moves go through as before;
- open lobbies per member and per server, running matches a member opened, and replays
  being made, each refused in words naming the limit.
"""

from __future__ import annotations

import re

import pytest

from bot.discord.common import UserError
from bot.discord.flood import Flood, Limits
from bot.matches.reports import User
from render.words.catalogue import t
from tests.conftest import ALICE, BOB, MALLORY
from tests.discord_harness import running
from tests.test_discord_commands import mover, only, started


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_a_member_over_the_window_waits_and_is_counted_nowhere() -> None:
    clock = Clock()
    flood = Flood(Limits(window_seconds=60, per_member=3, per_server=5), clock)
    for _ in range(3):
        flood.act("1", "g")
        clock.now += 1
    with pytest.raises(UserError) as caught:
        flood.act("1", "g")
    # the oldest of the three leaves the window at 1_000_060: try again just after
    assert caught.value.key == "flood.member"
    assert caught.value.values == {"n": 3, "when": "<t:1000061:R>"}
    # the server's window did not count the refusal: two others fit, the third does not
    flood.act("2", "g")
    flood.act("2", "g")
    with pytest.raises(UserError) as caught:
        flood.act("3", "g")
    assert caught.value.key == "flood.server"
    flood.act("3", "other server")  # another server has its own allowance
    flood.act("3", None)  # a DM counts only the member
    clock.now = 1_000_061
    flood.act("1", "other server")  # the first action left the window


def test_typing_has_its_own_larger_allowance() -> None:
    flood = Flood(Limits(per_member=2, per_server=0), Clock())
    for _ in range(10):
        flood.act("1", "g", typing=True)
    with pytest.raises(UserError):
        flood.act("1", "g", typing=True)
    flood.act("1", "g")  # commands are counted apart from typing
    flood.act("1", "g")


def test_a_limit_of_zero_is_no_limit() -> None:
    flood = Flood(Limits(per_member=0, per_server=0), Clock())
    for _ in range(1000):
        flood.act("1", "g")


async def test_replays_being_made_are_limited_per_member_and_server() -> None:
    flood = Flood(Limits(replays_per_member=1, replays_per_server=2), Clock())
    async with flood.replay_slot("1", "g"):
        with pytest.raises(UserError) as caught:
            async with flood.replay_slot("1", "g"):
                pass
        assert caught.value.key == "flood.replays_member"
        async with flood.replay_slot("2", "g"):
            with pytest.raises(UserError) as caught:
                async with flood.replay_slot("3", "g"):
                    pass
            assert caught.value.key == "flood.replays_server"
    async with flood.replay_slot("1", "g"):  # the slots came back
        pass


async def test_a_flood_of_commands_and_clicks_for_a_minute(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch, flood_per_member=20, flood_per_server=500) as h:
        match_id, thread = await started(h)
        served = refused = 0
        sent_to_discord = []
        start = h.clock.now
        while h.clock.now < start + 60:
            for calls in (
                await h.slash(MALLORY, "game list"),
                await h.click(MALLORY, f"tl:join:{match_id}", channel=thread),
            ):
                answer = only(calls).content
                sent_to_discord += [c for c in calls if c.via == "rest"]
                if answer.startswith("You are acting faster than the bot allows"):
                    refused += 1
                    assert re.search(r"try again <t:\d+:R>\.$", answer), answer
                else:
                    served += 1
            # another member plays on meanwhile, answered as usual
            if h.clock.now - start in (10.0, 40.0):
                on, _ = await mover(h, match_id)
                played = only(await h.slash(on, "play", move="take1", channel=thread))
                assert played.content.startswith("You played"), played.content
            h.clock.advance(0.5)
        assert served == 20  # the allowance of the minute, not one more
        assert refused == 2 * 120 - 20
        assert sent_to_discord == []  # refusals are replies: no post, no thread, no DM


async def test_lobbies_and_running_matches_are_limited(tmp_path, monkeypatch) -> None:
    limits = {
        "flood_lobbies_per_member": 2,
        "flood_lobbies_per_server": 3,
        "flood_running_per_member": 1,
    }
    async with running(tmp_path, monkeypatch, **limits) as h:
        for _ in range(2):
            await h.slash(BOB, "game new", game="test-pile", players=2)
        calls = await h.slash(BOB, "game new", game="test-pile", players=2)
        assert only(calls).content == t("flood.lobbies_member", "en", max=2)
        assert [c for c in calls if c.via == "rest"] == []  # no thread was opened
        await h.slash(ALICE, "game new", game="test-pile", players=2)  # the server's third
        calls = await h.slash(User("1004", "Dan"), "game new", game="test-pile")
        assert only(calls).content == t("flood.lobbies_server", "en", max=3)
        # Alice starts hers: a running match she opened; then one more is over her limit
        alice_lobby = max(m.id for m in await h.service.list_matches(guild_id="100"))
        info = await h.service.info(alice_lobby)
        await h.click(BOB, f"tl:join:{alice_lobby}", channel=int(info.thread_id or 0))
        await h.click(ALICE, f"tl:start:{alice_lobby}", channel=int(info.thread_id or 0))
        calls = await h.slash(ALICE, "game new", game="test-pile")
        assert only(calls).content == t("flood.running_member", "en", max=1)


def test_limits_come_from_the_settings() -> None:
    from bot.settings import Settings

    settings = Settings(flood_per_member=7, flood_lobbies_per_server=0, _env_file=None)  # type: ignore[call-arg]
    limits = Limits.of(settings)
    assert (limits.per_member, limits.lobbies_per_server, limits.window_seconds) == (7, 0, 60)
    with pytest.raises(ValueError, match="flood_per_member"):
        Settings(flood_per_member=-1, _env_file=None)  # type: ignore[call-arg]
