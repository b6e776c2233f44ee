"""End to end: the real bot (``python -m bot`` in its own process, with a token) against
the strict local Discord, driven as members would drive it.

Members act through the local Discord's gateway (``INTERACTION_CREATE``); everything the
bot sends is checked against Discord's limits there, so an answer Discord would refuse
fails these tests. Whole match: Azul with two players (typed ``/play`` from autocomplete
and the guided button panel, alternating). Taj Mahal (three players, its minimum),
Maharani and Pastiche: a stretch of moves each the same two ways, plus ``/hand`` where
hands are hidden.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.fakediscord import FakeDiscord, Interaction, Message
from tests.fakediscord.botproc import BotProcess

#: Channel-message bucket for these tests: Discord's shape (per channel), a short window.
ROUTES = {"POST /channels/{channel_id}/messages": (5, 1.0)}
FAST = {
    "outbox_poll_seconds": 0.5,
    "scheduler_seconds": 60,
    "reminder_hours": 0,
}


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(routes=dict(ROUTES)) as f:
        yield f


async def start_bot(fake: FakeDiscord, db: Path, *, sync: bool = False, **env: Any) -> BotProcess:
    bot = await BotProcess(fake.api, db, token=fake.token, sync=sync, **{**FAST, **env}).start()
    before = fake.identifies + fake.resumes
    await fake.until(lambda: fake.identifies + fake.resumes > before, 90)
    if sync:
        await fake.until(lambda: fake.commands.get(None), 60)
    return bot


class Table:
    """A match played by members in its thread."""

    def __init__(self, fake: FakeDiscord, members: list[dict[str, Any]]) -> None:
        self.fake = fake
        self.members = {int(m["id"]): m for m in members}
        self.match = 0
        self.thread = 0
        self.ply = 0

    async def open(self, game: str) -> None:
        creator, *others = self.members.values()
        inter = await self.fake.slash(creator, "game new", game=game, players=len(self.members))
        await self.done(inter)
        (opened,) = [m for m in inter.replies if "opened a lobby" in m.content]
        assert not opened.ephemeral
        self.thread = int(re.findall(r"<#(\d+)>", opened.content)[0])
        lobby = self.fake.posts(self.thread)[0]
        self.match = int(lobby.custom_ids[0].split(":")[2])
        for member in others:  # join with the lobby's button
            joined = await self.fake.click(member, lobby, f"tl:join:{self.match}")
            assert "joined" in (await self.done(joined)).content
        start = await self.fake.slash(creator, "game start", channel_id=self.thread)
        assert "started" in (await self.done(start)).content

    async def done(self, inter: Interaction, timeout: float = 60) -> Message:
        """The last reply once the bot has finished answering (no "thinking…" left)."""

        def finished() -> Message | None:
            if inter.callback is None or not inter.replies:
                return None
            if any(m.loading for m in inter.replies):
                return None
            return inter.replies[-1]

        return await self.fake.until(finished, timeout)

    def post(self, ply: int) -> Message | None:
        name = f"match-{self.match}-{ply}.png"
        found = [m for m in self.fake.posts(self.thread) if any(f == name for f, _ in m.files)]
        return found[-1] if found else None

    async def turn(self) -> tuple[Message, list[dict[str, Any]]]:
        """The turn post for the current ply and who it pings."""
        post = await self.fake.until(lambda: self.post(self.ply), 90)
        mentioned = [int(u) for u in re.findall(r"<@(\d+)>", post.content)]
        return post, [self.members[u] for u in mentioned if u in self.members]

    async def typed(self, member: dict[str, Any]) -> str:
        """Autocomplete with nothing typed, then /play the first suggestion."""
        choices = await self.fake.autocomplete(member, "play", "move", "", self.thread)
        assert choices, "it is this member's turn, so there are legal moves"
        inter = await self.fake.slash(member, "play", self.thread, move=choices[0]["value"])
        reply = await self.done(inter)
        assert reply.ephemeral and reply.content.startswith("You played: "), reply.content
        self.ply += 1
        return reply.content

    async def buttons(self, member: dict[str, Any], post: Message) -> str:
        """Make a move → step buttons (or a select) → Play."""
        opener = next(c for c in post.custom_ids if c.startswith("tp:"))
        panel = await self.done(await self.fake.click(member, post, opener))
        assert panel.ephemeral and panel.visible_to == int(member["id"])
        for _ in range(12):
            ids = panel.custom_ids
            confirm = [c for c in ids if c.startswith("tm:")]
            if confirm:
                inter = await self.fake.click(member, panel, confirm[0])
                await self.fake.until(lambda i=inter: any("You played" in t for t in i.texts()))
                self.ply += 1
                return next(t for t in inter.texts() if "You played" in t)
            labels = panel.labels()
            steps = [c for c in ids if c.startswith("ts:") and labels.get(c) != "Back"]
            if steps:
                inter = await self.fake.click(member, panel, steps[0])
            else:
                select = next(c for c in ids if c.startswith("tq:"))
                option = panel.components[0]["components"][0]["options"][0]["value"]
                inter = await self.fake.click(member, panel, select, [option])
            await self.fake.until(lambda i=inter: i.callback == 7)
        raise AssertionError("the panel never offered a move to play")

    async def play(self, moves: int | None, *, check_hand: bool = False) -> int:
        """Play ``moves`` moves (None: to the end), typed and buttons alternating."""
        played = 0
        while moves is None or played < moves:
            post, acting = await self.turn()
            if not any(c.startswith("tp:") for c in post.custom_ids):
                assert moves is None, "the match ended early"
                return played
            member = acting[0]
            if check_hand and played == 0:
                await self.hand(member)
            if played % 2 == 0:
                await self.typed(member)
            else:
                await self.buttons(member, post)
            played += 1
        return played

    async def hand(self, member: dict[str, Any]) -> None:
        inter = await self.fake.slash(member, "hand", self.thread)
        reply = await self.done(inter)
        assert reply.ephemeral and reply.visible_to == int(member["id"])
        assert reply.files and reply.files[0][0] == f"hand-{self.match}.png"
        assert "only you can see" in reply.content


def in_order(table: Table) -> list[int]:
    """Plies of the match's turn posts in the order they appeared in the thread."""
    out = []
    for m in table.fake.posts(table.thread):
        for name, _ in m.files:
            found = re.fullmatch(rf"match-{table.match}-(\d+)\.png", name)
            if found:
                out.append(int(found.group(1)))
    return out


# ----- the tests -------------------------------------------------------------------------------
async def test_bad_token_is_one_clear_line_and_exit_1(fake: FakeDiscord, tmp_path: Path) -> None:
    bot = await BotProcess(
        fake.api, tmp_path / "bot.db", token="not-the-token", capture_stderr=True
    ).start()
    err, code = await bot.stderr_and_exit()
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 1
    assert len(lines) == 1 and "refused the bot token" in lines[0], err


async def test_azul_whole_match_with_a_gateway_drop(fake: FakeDiscord, tmp_path: Path) -> None:
    """Sync, lobby in a new thread, join by button, start, a whole two-player Azul match
    typed and by buttons; the gateway drops once mid-match and the bot RESUMEs."""
    bot = await start_bot(fake, tmp_path / "bot.db", sync=True)
    try:
        names = fake.visible_commands()
        assert "game" in names and "play" in names and "sync" not in names
        assert fake.gateway_query.get("compress") == "zlib-stream"
        table = Table(fake, [fake.member("Ann"), fake.member("Ben: the 2nd")])
        await table.open("azul")
        assert len(fake.threads()) == 1
        await table.play(6)
        await fake.drop_gateway()
        played = 6 + await table.play(None)
        assert played >= 25  # at least five rounds: a whole match
        assert fake.resumes >= 1 and fake.identifies == 1
        assert in_order(table) == list(range(played + 1))
        final = table.fake.posts(table.thread)[-1]
        assert not final.components and re.search(r"\d+", final.content)
        hand = await fake.slash(next(iter(table.members.values())), "hand", table.thread)
        assert "no hidden hands" in (await table.done(hand)).content
        refused = [r for r in fake.records if r.status >= 400 and r.status != 429]
        assert not refused, [(r.method, r.route, r.status, r.error_code) for r in refused]
    finally:
        await bot.stop()


async def test_three_more_games_a_stretch_each(fake: FakeDiscord, tmp_path: Path) -> None:
    """Taj Mahal, Maharani and Pastiche: lobby, start, moves typed and by buttons, and
    /hand (ephemeral, the owner's picture) where hands are hidden."""
    bot = await start_bot(fake, tmp_path / "bot.db", sync=True)
    try:
        for game, hidden, seats in (
            ("taj-mahal", True, 3),
            ("maharani", False, 2),
            ("pastiche", True, 2),
        ):
            table = Table(fake, [fake.member(f"{game} {i}") for i in range(seats)])
            await table.open(game)
            played = await table.play(6, check_hand=hidden)
            await table.turn()
            assert in_order(table) == list(range(played + 1))
        refused = [r for r in fake.records if r.status >= 400 and r.status != 429]
        assert not refused, [(r.method, r.route, r.status, r.error_code) for r in refused]
    finally:
        await bot.stop()


async def test_thread_refused_or_rate_limited_closes_the_lobby_privately(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """/game new when Discord refuses the thread (403, no permission) or rate-limits it
    for longer than the bot waits (429, 60 s): the lobby is closed and only its creator is
    told why; the public "thinking…" message says nothing private."""
    bot = await start_bot(fake, tmp_path / "bot.db", sync=True)
    try:
        ann = fake.member("Ann")
        for status in (403, 429):
            fake.inject("POST", "/channels/{channel_id}/threads", status, retry_after=60)
            inter = await fake.slash(ann, "game new", game="azul")
            (reply,) = await fake.until(lambda i=inter: [m for m in i.replies if m.ephemeral])
            assert "could not open a thread" in reply.content and reply.visible_to == int(ann["id"])
            public = [m for m in inter.replies if not m.ephemeral]
            assert public and all("thread" not in m.content for m in public)
        assert not fake.threads()
    finally:
        await bot.stop()


async def test_kill_9_and_restart(fake: FakeDiscord, tmp_path: Path) -> None:
    """kill -9 twice mid-match: once while a turn post is in flight (Discord created it,
    the answer never came), once while a post is still failing with 500s (never created).
    After each restart the first is not doubled (enforced nonce), the second goes out once,
    everything stays in order, and the buttons made before the crash still work."""
    db = tmp_path / "bot.db"
    route = "/channels/{channel_id}/messages"
    table = Table(fake, [fake.member("Ann"), fake.member("Ben")])
    bot = await start_bot(fake, db, sync=True)
    try:
        await table.open("maharani")
        await table.play(2)
        old_post, acting = await table.turn()
        fake.inject("POST", route, 0)  # Discord acts, the answer is lost
        await table.typed(acting[0])
        await fake.until(lambda: fake.stalled, 60)
        stalled_nonce = fake.stalled[0].body["nonce"]
        bot.kill9()
        await bot.wait_dead()

        bot = await start_bot(fake, db)
        post, acting = await table.turn()  # the post in flight at the crash
        await fake.until(
            lambda: sum(
                1
                for r in fake.records
                if r.route == route
                and r.status == 200
                and (r.body or {}).get("nonce") == stalled_nonce
            ),
            60,
        )
        assert [m.nonce for m in fake.posts(table.thread)].count(stalled_nonce) == 1
        # a button made before the crash on a board that moved on: refused in words
        stale = await fake.click(acting[0], old_post, old_post.custom_ids[0])
        assert "board has changed" in (await table.done(stale)).content
        # the current post's button, made by the killed process, still opens the panel
        await table.buttons(acting[0], post)

        post, acting = await table.turn()
        fake.inject("POST", route, 500, 50)  # Discord is down for the thread's posts
        await table.typed(acting[0])
        await fake.until(lambda: [r for r in fake.records if r.status == 500], 60)
        bot.kill9()
        await bot.wait_dead()
        assert table.post(table.ply) is None
        fake.faults.clear()  # Discord is back

        bot = await start_bot(fake, db)
        await table.turn()  # the unsent post went out after the restart
        await table.play(2)
        await table.turn()
        assert in_order(table) == list(range(table.ply + 1))
    finally:
        await bot.stop()


async def test_bursts_of_500s_and_429s_arrive_in_order(fake: FakeDiscord, tmp_path: Path) -> None:
    """Server errors and rate limits (per route and global) on the posts: every turn post
    arrives, once, in order."""
    bot = await start_bot(fake, tmp_path / "bot.db", sync=True)
    try:
        table = Table(fake, [fake.member("Ann"), fake.member("Ben")])
        await table.open("azul")
        route = "/channels/{channel_id}/messages"
        fake.inject("POST", route, 500, 2)
        fake.inject("POST", route, 429, 2, retry_after=0.3)
        fake.inject("POST", route, 429, 1, retry_after=0.2, is_global=True)
        await table.play(4)
        fake.inject("POST", route, 502, 1)
        fake.inject("POST", route, 429, 3, retry_after=0.2)
        await table.play(3)
        await table.turn()
        assert in_order(table) == list(range(table.ply + 1))
        statuses = [r.status for r in fake.records if r.route == route]
        assert statuses.count(500) == 2 and statuses.count(502) == 1
        assert statuses.count(429) >= 6
    finally:
        await bot.stop()


async def test_reminders_with_short_intervals(fake: FakeDiscord, tmp_path: Path) -> None:
    """Reminders every ~2 s, at most two per turn, pinging only the player on turn; the
    mute button on a reminder stops them for this turn."""
    env = {"reminder_hours": 0.0005, "reminder_max": 2, "scheduler_seconds": 0.5}
    bot = await start_bot(fake, tmp_path / "bot.db", sync=True, **env)
    try:
        table = Table(fake, [fake.member("Ann"), fake.member("Ben")])
        await table.open("azul")
        _post, acting = await table.turn()

        def reminders() -> list[Message]:
            return [m for m in fake.posts(table.thread) if "Reminder" in m.content]

        await fake.until(lambda: len(reminders()) >= 2, 60)
        first = reminders()
        assert all(f"<@{acting[0]['id']}>" in m.content for m in first)
        await table.typed(acting[0])
        _post, acting = await table.turn()
        await fake.until(lambda: len(reminders()) >= 3, 60)
        mute = reminders()[-1]
        inter = await fake.click(acting[0], mute, mute.custom_ids[0])
        assert "muted" in (await table.done(inter)).content
        await asyncio.sleep(2.5)  # two more reminder intervals: none may come
        assert len(reminders()) == 3
    finally:
        await bot.stop()
