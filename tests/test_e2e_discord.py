"""End to end: the real bot (``python -m bot`` in its own process, with a token) against
the strict local Discord, driven as members would drive it.

Members act through the local Discord's gateway (``INTERACTION_CREATE``); everything the
bot sends is checked against Discord's limits there, so an answer Discord would refuse
fails these tests. Whole matches: Azul and Maharani with two players (typed ``/play`` from
autocomplete and the guided button panel, alternating). Taj Mahal (three players, its
minimum) and Pastiche: twelve moves each the same two ways (their whole matches run to
about 190 and 240 moves, too long for the suite), plus ``/hand`` where hands are hidden.

The four games' matches are played in German, the longest localisation of every game's
words and of all words together (tests/test_cards.py measures it, and checks each card's
limits in all four languages): every post of the thread is a layout message (a card) within
Discord's limits, each picture with its description. A "your turn" DM is a card too, and
a move is made from it.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest

from render.words.catalogue import t, tn
from rules import get_game
from tests.fakediscord import FakeDiscord, Interaction, Message
from tests.fakediscord.botproc import BotProcess
from tests.fakediscord.buckets import routes as bucket_routes
from tests.fakediscord.components import walk

#: The language the whole matches are played in: the longest localisation (German, measured
#: by tests/test_cards.py::test_german_is_the_longest_localisation).
LONGEST = "de"

#: Every route's bucket (tests/fakediscord/buckets.py); channel messages: Discord's shape
#: (per channel), a short window.
ROUTES = bucket_routes({"POST /channels/{channel_id}/messages": (5, 1.0)})
FAST = {
    "outbox_poll_seconds": 0.5,
    # a killed bot's claimed posts are taken over once their lease expires (default 60 s)
    "lease_seconds": 5,
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
        self.lang = "en"  # the match's public language (its posts)

    async def open(self, game: str, lang: str = "en") -> None:
        """Open the lobby, join by its button, set the match's language, start."""
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
        if lang != self.lang:
            chosen = await self.fake.slash(
                creator, "game settings", channel_id=self.thread, language=lang
            )
            await self.done(chosen)
            self.lang = lang
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
        return self.post_named(f"match-{self.match}-{ply}.png")

    def post_named(self, name: str) -> Message | None:
        """The latest post of the thread carrying the file ``name``."""
        found = [m for m in self.fake.posts(self.thread) if any(f == name for f, _ in m.files)]
        return found[-1] if found else None

    async def turn(self) -> tuple[Message, list[dict[str, Any]]]:
        """The turn post showing the current ply (a new post, or the run's post edited to
        show it) and who is to act, named in its "Your move:" line: mentioned when they
        newly must act, by name when they already were (in the match's language)."""
        post = await self.fake.until(lambda: self.post(self.ply), 90)
        head = t("post.to_act", self.lang, mentions="")
        line = next((x for x in post.content.splitlines() if x.startswith(head)), "")
        by_name = {m["global_name"]: m for m in self.members.values()}
        acting = []
        joins = "|".join(map(re.escape, (t("words.comma", self.lang), t("words.and", self.lang))))
        for item in re.split(joins, line.removeprefix(head)):
            mention = re.fullmatch(r"<@(\d+)>", item)
            member = self.members.get(int(mention.group(1))) if mention else by_name.get(item)
            if member is not None:
                acting.append(member)
        return post, acting

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
        assert described(reply.files[0]).startswith("Your hand in ")  # for its owner only

    def pictures_described(self, game: str) -> None:
        """Every picture in the thread carries its description (alt text) as Discord
        stores it: in the match's language, at most 1,024 characters — the boards
        "<game> board, …", the score chart "Score chart of match …" — and a card shows
        it with the picture (its gallery item's description is the attachment's)."""
        board = t("alt.board", self.lang, game=game, stage="\0").split("\0")[0]
        chart = tn("alt.chart", 2, self.lang, match="\0", game=game, scores="").split("\0")[0]
        files = [(m, f) for m in self.fake.posts(self.thread) for f in m.files]
        assert files
        for m, f in files:
            alt = described(f)
            assert alt.startswith((board, chart)), (f, alt)
            assert m.alt_texts()[f[0]] == alt and f[0] in [x.filename for x in m.media()]

    def posts_are_cards(self) -> int:
        """Every post of the bot in the thread (not the answers to clicks and commands)
        is a layout message within Discord's limits: 40 components counted through
        nesting, 4,000 characters of text displays (the strict local Discord refused any
        other, this says so again on what it kept). Returns how many there are."""
        posts = [m for m in self.fake.posts(self.thread) if m.interaction_id is None]
        for m in posts:
            assert m.layout and not m.raw_content, m
            assert sum(1 for _ in walk(m.components)) <= 40, m
            assert sum(len(x) for x in m.text_displays()) <= 4000, m
        return len(posts)


async def looks(table: Table) -> None:
    """The turn post's Board and History buttons answer the presser only: the board now
    as a card (its picture described), the latest moves in words; the thread stays as
    it was."""
    post, acting = await table.turn()
    member = acting[0]
    before = len(table.fake.posts(table.thread))
    board = await table.done(await table.fake.click(member, post, f"tv:{table.match}"))
    assert board.ephemeral and board.layout and board.visible_to == int(member["id"])
    (shown,) = board.media()
    assert shown.filename == f"match-{table.match}.png" and shown.description
    history = await table.done(await table.fake.click(member, post, f"ty:{table.match}"))
    assert history.ephemeral and f"Latest moves of match #{table.match}:" in history.content
    assert len(table.fake.posts(table.thread)) == before


async def reviewed(table: Table) -> None:
    """``/review`` in the finished match's thread: public, in the match's language, the
    figures then a message per player, within Discord's limits, the moments' pictures
    attached and described."""
    member = next(iter(table.members.values()))
    inter = await table.fake.slash(member, "review", table.thread)
    seats = len(table.members)
    await table.fake.until(
        lambda: len(inter.replies) > seats and not any(m.loading for m in inter.replies), 240
    )
    head, *players = inter.replies
    title = t("review.head.other", table.lang, match=table.match, game="Azul", n=0)
    assert title.split("(")[0] in head.content  # "**Analyse der Partie #N** "
    assert not head.ephemeral and all(not m.ephemeral for m in players)
    files = [f for m in players for f in m.files]
    assert files, "a whole match has moments to show"
    for m in players:
        assert len(m.content) <= 2000 and len(m.files) <= 10
        for f in m.files:
            assert f[0].startswith(f"match-{table.match}-review-seat") and described(f)


def described(upload: tuple[str, int]) -> str:
    """An uploaded file's description, checked against Discord's limit."""
    alt = getattr(upload, "description", None)
    assert alt and len(alt) <= 1024, upload
    return str(alt)


def in_order(table: Table) -> list[int]:
    """Plies of the match's turn posts in the order they appeared in the thread (a post
    that plies were folded into shows the board of its latest one)."""
    out = []
    for m in table.fake.posts(table.thread):
        for name, _ in m.files:
            found = re.fullmatch(rf"match-{table.match}-(\d+)\.png", name)
            if found:
                out.append(int(found.group(1)))
    return out


def all_in_order(table: Table, played: int) -> bool:
    """The posts show their plies in order, the last one ``played``: a post per ply where
    the seats to act change each time, a run's plies folded into its post (the start post
    too, when the first player moves several times) by edits that show its newest board."""
    plies = in_order(table)
    return bool(plies) and plies[-1] == played and plies == sorted(set(plies))


# ----- the tests -------------------------------------------------------------------------------
async def test_bad_token_is_one_clear_line_and_exit_2(fake: FakeDiscord, tmp_path: Path) -> None:
    bot = await BotProcess(
        fake.api, tmp_path / "bot.db", token="not-the-token", capture_stderr=True
    ).start()
    err, code = await bot.stderr_and_exit()
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2
    assert len(lines) == 1 and "refused the bot token" in lines[0], err
    assert "DISCORD_TOKEN" in lines[0] and "voice" not in err


async def test_azul_whole_match_with_a_gateway_drop(fake: FakeDiscord, tmp_path: Path) -> None:
    """Sync, lobby in a new thread, join by button, start, a whole two-player Azul match
    typed and by buttons; the gateway drops once mid-match and the bot RESUMEs. Then the
    match's ``/review`` (the real engine, a small budget per decision)."""
    bot = await start_bot(fake, tmp_path / "bot.db", sync=True, review_seconds=0.05)
    try:
        names = fake.visible_commands()
        assert "game" in names and "play" in names and "sync" not in names
        # what discord.py asks for: zlib-stream, or zstd-stream when zstandard is installed
        wanted = discord.utils._ActiveDecompressionContext.COMPRESSION_TYPE
        assert fake.gateway_query.get("compress") == wanted
        table = Table(fake, [fake.member("Ann"), fake.member("Ben: the 2nd")])
        await table.open("azul", LONGEST)
        assert len(fake.threads()) == 1
        await table.play(6)
        await looks(table)
        await fake.drop_gateway()
        played = 6 + await table.play(None)
        assert played >= 25  # at least five rounds: a whole match
        assert fake.resumes >= 1 and fake.identifies == 1
        assert all_in_order(table, played)
        final = table.post(played)
        assert final is not None and not final.custom_ids and re.search(r"\d+", final.content)
        await fake.until(lambda: table.post_named(f"match-{table.match}-scores.png"), 60)
        assert table.posts_are_cards() >= played // 2
        table.pictures_described("Azul")
        hand = await fake.slash(next(iter(table.members.values())), "hand", table.thread)
        assert "no hidden hands" in (await table.done(hand)).content
        await reviewed(table)
        refused = [r for r in fake.records if r.status >= 400 and r.status != 429]
        assert not refused, [(r.method, r.route, r.status, r.error_code) for r in refused]
    finally:
        await bot.stop()


async def test_maharani_whole_match_and_two_more_games(fake: FakeDiscord, tmp_path: Path) -> None:
    """A whole Maharani match; Taj Mahal (three players) and Pastiche for twelve moves
    each: lobby, start, moves typed and by buttons, and /hand (ephemeral, the owner's
    picture) where hands are hidden."""
    bot = await start_bot(fake, tmp_path / "bot.db", sync=True)
    try:
        for game, hidden, seats, moves in (
            ("maharani", False, 2, None),
            ("taj-mahal", True, 3, 12),
            ("pastiche", True, 2, 12),
        ):
            table = Table(fake, [fake.member(f"{game} {i}") for i in range(seats)])
            await table.open(game, LONGEST)
            played = await table.play(moves, check_hand=hidden)
            await table.turn()
            assert all_in_order(table, played)
            if game != "taj-mahal":  # turns of several plies: folded, not a post each
                assert len(in_order(table)) < played
            if moves is None:  # the whole match: its last post has no buttons
                final = table.post(played)
                assert played >= 40 and final is not None and not final.custom_ids
                await fake.until(lambda t=table: t.post_named(f"match-{t.match}-scores.png"), 60)
            assert table.posts_are_cards() >= 2
            table.pictures_described(get_game(game).name)
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
        await table.open("azul")  # every ply is a new post (no run folds into an edit)
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
        assert all_in_order(table, table.ply)
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
        assert all_in_order(table, table.ply)
        statuses = [r.status for r in fake.records if r.route == route]
        assert statuses.count(500) == 2 and statuses.count(502) == 1
        assert statuses.count(429) >= 6
    finally:
        await bot.stop()


async def test_reminders_dms_and_keepalive_with_short_intervals(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Both players chose direct messages: the turn alert and the reminders (every ~2 s, at
    most two per turn, only to the player on turn) come as DMs; the mute button on a
    reminder stops them for this turn. The thread keep-alive edits the thread (unarchived,
    archive duration flipped between 3 and 7 days)."""
    env = {
        "reminder_hours": 0.0005,
        "reminder_max": 2,
        "scheduler_seconds": 0.5,
        "keepalive_days": 0.00002,
    }
    bot = await start_bot(fake, tmp_path / "bot.db", sync=True, **env)
    try:
        ann, ben = fake.member("Ann"), fake.member("Ben")
        table = Table(fake, [ann, ben])
        for who in (ann, ben):
            notify = await fake.slash(who, "notify", mode="dm")
            assert "direct message" in (await table.done(notify)).content
        await table.open("azul")
        _post, acting = await table.turn()

        def reminders() -> list[Message]:
            return [m for m in fake.posts(table.thread) if "Reminder" in m.content]

        def dms(member: dict[str, Any]) -> list[Message]:
            channel = fake.dm_by_user.get(int(member["id"]))
            return [m for m in fake.messages.values() if m.channel_id == channel]

        def reminded(member: dict[str, Any]) -> list[Message]:
            return [m for m in dms(member) if "Reminder" in m.content]

        await fake.until(lambda: len(reminded(acting[0])) >= 2, 60)
        assert any("your turn in match" in m.content for m in dms(acting[0]))
        await asyncio.sleep(2.0)  # another interval: the third reminder must not come
        assert len(reminded(acting[0])) == 2
        first = acting[0]
        assert not reminded(ben if first is ann else ann)  # only who is on turn
        # the "your turn" DM is a card: the jump link, the board (described), the move
        # controls; the move is made from it through the panel, and the thread follows
        card = next(m for m in dms(first) if "your turn in match" in m.content)
        assert card.layout and "https://discord.com/channels/" in card.content
        assert [c.split(":")[0] for c in card.custom_ids] == ["tp"]  # Azul hides no hand
        (board,) = card.media()
        assert board.description and board.description.startswith("Azul board, ")
        await table.buttons(first, card)
        _post, acting = await table.turn()
        await fake.until(
            lambda: any("Reminder" in m.content or "waiting" in m.content for m in dms(acting[0])),
            60,
        )
        reminder = [m for m in dms(acting[0]) if m.custom_ids][-1]
        inter = await fake.click(acting[0], reminder, reminder.custom_ids[0])
        assert "muted" in (await table.done(inter)).content
        count = len(dms(acting[0]))
        await asyncio.sleep(2.5)  # more than one reminder interval: none may come
        assert len(dms(acting[0])) == count
        edits = await fake.until(
            lambda: [
                r
                for r in fake.records
                if r.method == "PATCH" and r.route == "/channels/{channel_id}" and r.status == 200
            ],
            30,
        )
        assert edits[0].body["archived"] is False
        assert edits[0].body["auto_archive_duration"] in (4320, 10080)
        assert not reminders()  # both chose DMs: nothing reminded in the thread
    finally:
        await bot.stop()
