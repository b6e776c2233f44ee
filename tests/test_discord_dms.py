"""Playing from a DM with the bot, end to end: the real bot (``python -m bot``) against the
strict local Discord, which sends DM interactions as Discord does (no ``guild_id``, no
``member``, ``user`` set, context BOT_DM) and offers a command in a DM only where its
contexts allow it.

- ``/game list`` in a DM lists the matches of two servers that wait for you, with jump
  links and the clock; in a server, yours from everywhere come first;
- every synced command, typed in a DM, either works or is answered with a sentence saying
  where it works — also a guild-only one a client still offers from an old registration;
- a move made by clicking turn controls in a DM goes through like any other and the
  thread's post follows; your hand in a DM stays yours (``/hand``, **My hand**);
- (in-process) the commands marked to work in a DM are the ones offered there, and the
  guild sync mode keeps them global (Discord offers only global commands in DMs).
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.discord.common import offered_in_dms, works_in_dms
from render.words.catalogue import t
from rules import get_game
from tests.discord_harness import GUILD_ID, running
from tests.fakediscord import FakeDiscord, Interaction, Message, NotOffered
from tests.fakediscord.botproc import BotProcess
from tests.fakediscord.rest import Rest

ROUTES = {"POST /channels/{channel_id}/messages": (5, 1.0)}
FAST = {"outbox_poll_seconds": 0.5, "scheduler_seconds": 60, "reminder_hours": 0}
#: Typed in a DM, these work; every other command answers where it is used.
WORK_IN_DMS = {"game list", "hand", "notify", "rules", "stats player"}
ELSEWHERE = "is used in a server"


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(routes=dict(ROUTES)) as f:
        yield f


async def start_bot(fake: FakeDiscord, db: Path) -> BotProcess:
    bot = await BotProcess(fake.api, db, token=fake.token, sync=True, **FAST).start()
    await fake.until(lambda: fake.identifies and fake.commands.get(None), 90)
    return bot


async def done(fake: FakeDiscord, inter: Interaction, timeout: float = 60) -> Message:
    """The last reply once the bot has finished answering (no "thinking…" left)."""

    def finished() -> Message | None:
        if inter.callback is None or not inter.replies or any(m.loading for m in inter.replies):
            return None
        return inter.replies[-1]

    return await fake.until(finished, timeout)


async def open_match(
    fake: FakeDiscord, channel: int, game: str, *members: dict[str, Any], **options: Any
) -> tuple[int, int]:
    """A started match of ``members`` opened in ``channel``: (match id, thread id)."""
    creator, *others = members
    inter = await fake.slash(
        creator, "game new", channel, game=game, players=len(members), **options
    )
    await done(fake, inter)
    (opened,) = [m for m in inter.replies if "opened a lobby" in m.content]
    thread = int(re.findall(r"<#(\d+)>", opened.content)[0])
    lobby = fake.posts(thread)[0]
    match = int(lobby.custom_ids[0].split(":")[2])
    for member in others:
        await done(fake, await fake.click(member, lobby, f"tl:join:{match}"))
    started = await done(fake, await fake.slash(creator, "game start", thread))
    assert "started" in started.content
    return match, thread


def acting(db: Path, match: int) -> list[str]:
    """Whom the match waits for now, read from the bot's database as the rules say it
    (a Pastiche player may open the panel off turn to offer a trade: offering moves alone
    do not say whose turn it is)."""
    with sqlite3.connect(db) as conn:
        game, state = conn.execute(
            "SELECT game_id, state FROM matches WHERE id = ?", (match,)
        ).fetchone()
        seats = dict(conn.execute("SELECT seat, user_id FROM seats WHERE match_id = ?", (match,)))
    return [seats[s] for s in get_game(game).waits_for(json.loads(state))]


async def until_waiting_for(
    fake: FakeDiscord, db: Path, match: int, thread: int, member: dict[str, Any]
) -> None:
    """Let the others move (typed: ending the turn where they may, else /play's first
    suggestion) until the match waits for ``member``."""
    for _ in range(12):
        waiting = acting(db, match)
        if member["id"] in waiting:
            return
        other = fake.members[int(waiting[0])]["user"]
        ending = await fake.autocomplete(other, "play", "move", "end", thread)
        choices = ending or await fake.autocomplete(other, "play", "move", "", thread)
        played = await fake.slash(other, "play", thread, move=choices[0]["value"])
        assert (await done(fake, played)).content.startswith("You played")
    raise AssertionError("the match never waited for " + member["global_name"])


def link(guild: int, thread: int) -> str:
    return f"https://discord.com/channels/{guild}/{thread}"


# ----- /game list ----------------------------------------------------------------------------
async def test_game_list_in_a_dm_shows_what_waits_in_both_servers(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    other_guild, other_channel = await fake.add_guild("Second table")
    db = tmp_path / "bot.db"
    bot = await start_bot(fake, db)
    try:
        ann, ben, cid = fake.member("Ann"), fake.member("Ben"), fake.member("Cid")
        here, here_thread = await open_match(fake, fake.CHANNEL_ID, "azul", ann, ben, clock_days=3)
        there, there_thread = await open_match(fake, other_channel, "azul", ben, ann)
        await until_waiting_for(fake, db, here, here_thread, ann)
        await until_waiting_for(fake, db, there, there_thread, ann)

        reply = await done(fake, await fake.dm_slash(ann, "game list"))
        assert reply in fake.dms(ann) and reply.ephemeral
        lines = reply.content.splitlines()
        assert lines[0] == "**Waiting for you:**"
        # the match with a clock first (its time runs out soonest), each with its server
        assert lines[1].startswith(f"#{here} **Azul** · Board gamers — ")
        assert link(fake.GUILD_ID, here_thread) in lines[1]
        assert re.search(r"your time to move runs out <t:\d+:R>$", lines[1]), lines[1]
        assert lines[2] == f"#{there} **Azul** · Second table — {link(other_guild, there_thread)}"
        assert "Your other matches" not in reply.content

        reply = await done(fake, await fake.dm_slash(ben, "game list"))
        assert reply.content.splitlines()[:3] == [
            "**Waiting for you:**",
            "Nothing is waiting for you right now.",
            "**Your other matches:**",
        ]
        assert link(fake.GUILD_ID, here_thread) in reply.content
        assert link(other_guild, there_thread) in reply.content

        reply = await done(fake, await fake.dm_slash(cid, "game list"))
        assert reply.content.startswith("You are not in any open or running match.")

        # in a server: yours from everywhere first (no server name for this one), then
        # this server's list as it always read
        reply = await done(fake, await fake.slash(ann, "game list"))
        lines = reply.content.splitlines()
        assert lines[0] == "**Waiting for you:**" and lines[1].startswith(f"#{here} **Azul** — ")
        assert lines[2].startswith(f"#{there} **Azul** · Second table — ")
        assert lines[3] == "Matches on this server:" and lines[4].startswith(f"#{here} **Azul**")
        assert f"<#{here_thread}>" in lines[4] and len(lines) == 5
        reply = await done(fake, await fake.slash(cid, "game list", other_channel))
        assert reply.content.splitlines()[0] == "Matches on this server:"
        refused = [r for r in fake.records if r.status >= 400 and r.status != 429]
        assert not refused, [(r.method, r.route, r.status, r.error_code) for r in refused]
    finally:
        await bot.stop()


# ----- every command in a DM -----------------------------------------------------------------
def paths(command: dict[str, Any]) -> list[tuple[str, list[dict[str, Any]]]]:
    """A synced command's invocable paths ("game new", "hand") with their options."""
    subs = [o for o in command.get("options") or [] if o["type"] == 1]
    if not subs:
        return [(command["name"], command.get("options") or [])]
    return [(f"{command['name']} {s['name']}", s.get("options") or []) for s in subs]


def required(options: list[dict[str, Any]]) -> dict[str, Any]:
    """A valid value for every required option (the first choice, else one of its type)."""
    values: dict[str, Any] = {}
    for option in options:
        if option.get("required"):
            choices = option.get("choices") or []
            by_type = {3: "azul", 4: 1, 5: True, 10: 1.0}
            values[option["name"]] = choices[0]["value"] if choices else by_type[option["type"]]
    return values


async def test_every_command_in_a_dm_works_or_says_where_it_works(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    bot = await start_bot(fake, tmp_path / "bot.db")
    try:
        ann = fake.member("Ann")
        generic = t("err.generic", "en")
        seen: set[str] = set()
        for command in fake.commands[None]:
            in_dms = 1 in (command.get("contexts") or [])
            for path, options in paths(command):
                seen.add(path)
                if not in_dms:  # not offered there; a stale client's call still gets words
                    with pytest.raises(NotOffered):
                        await fake.dm_slash(ann, path, **required(options))
                    saved = command["contexts"]
                    command["contexts"] = [0, 1]
                    try:
                        inter = await fake.dm_slash(ann, path, **required(options))
                    finally:
                        command["contexts"] = saved
                else:
                    inter = await fake.dm_slash(ann, path, **required(options))
                text = (await done(fake, inter)).content
                assert text and generic not in text, (path, text)
                if path in WORK_IN_DMS:
                    assert ELSEWHERE not in text, (path, text)
                else:
                    assert f"/{path} {ELSEWHERE}" in text, (path, text)
        assert seen > WORK_IN_DMS and {"game new", "play", "board", "stats server"} < seen
        # what the DM commands say there without a match or a server
        reply = await done(fake, await fake.dm_slash(ann, "rules"))
        assert reply.content.startswith("Which game?")
        reply = await done(fake, await fake.dm_slash(ann, "rules", game="azul"))
        assert reply.content.startswith("**Azul**")
        reply = await done(fake, await fake.dm_slash(ann, "hand"))
        assert reply.content == "You hold no hidden hand in any running match."
        reply = await done(fake, await fake.dm_slash(ann, "stats player"))
        assert reply.content == "Ann has not played a match in any server yet."
        bob = fake.member("Bob")
        ask = await fake.dm_slash(ann, "stats player", user=bob["id"])
        assert (await done(fake, ask)).content.startswith("Here in our direct messages")
    finally:
        await bot.stop()


# ----- acting from a DM ----------------------------------------------------------------------
async def walk_panel(fake: FakeDiscord, member: dict[str, Any], panel: Message) -> str:
    """Step buttons (or a select) down to **Play: …**, pressed in the DM; the reply."""
    for _ in range(12):
        ids = panel.custom_ids
        confirm = [c for c in ids if c.startswith("tm:")]
        if confirm:
            inter = await fake.click(member, panel, confirm[0])
            await fake.until(lambda i=inter: any("You played" in x for x in i.texts()))
            return next(x for x in inter.texts() if "You played" in x)
        labels = panel.labels()
        steps = [c for c in ids if c.startswith("ts:") and labels.get(c) != "Back"]
        if steps:
            inter = await fake.click(member, panel, steps[0])
        else:
            select = next(c for c in ids if c.startswith("tq:"))
            inter = await fake.click(member, panel, select, panel.options(select)[:1])
        await fake.until(lambda i=inter: i.callback == 7)
    raise AssertionError("the panel never offered a move to play")


def versions(fake: FakeDiscord, thread: int, match: int) -> set[int]:
    """The board versions the thread's **Make a move** buttons are for."""
    return {
        int(c.split(":")[2])
        for m in fake.posts(thread)
        for c in m.custom_ids
        if c.startswith(f"tp:{match}:")
    }


async def test_a_move_and_a_hand_from_the_dm(fake: FakeDiscord, tmp_path: Path) -> None:
    """Turn controls in the player's DM (posted here as the bot would post them: the
    **Make a move** and **My hand** buttons of the turn post): the hand shows only to
    them, the panel walks to a move, the move is made and the thread's post follows; the
    old board's button then says the board changed. ``/hand`` in the DM with two hands
    offers a button for each."""
    _, other_channel = await fake.add_guild("Second table")
    db = tmp_path / "bot.db"
    bot = await start_bot(fake, db)
    try:
        ann, ben = fake.member("Ann"), fake.member("Ben")
        match, thread = await open_match(fake, fake.CHANNEL_ID, "pastiche", ann, ben)
        await until_waiting_for(fake, db, match, thread, ann)
        with sqlite3.connect(db) as conn:
            (version,) = conn.execute(
                "SELECT version FROM matches WHERE id = ?", (match,)
            ).fetchone()
        await fake.until(lambda: version in versions(fake, thread, match), 90)  # its post
        controls = [f"tp:{match}:{version}", f"th:{match}"]
        row = {
            "type": 1,
            "components": [
                {"type": 2, "style": 1, "label": "Make a move", "custom_id": controls[0]},
                {"type": 2, "style": 2, "label": "My hand", "custom_id": controls[1]},
            ],
        }
        body = {"content": f"Your turn in match #{match}", "components": [row]}
        async with Rest(fake) as http:
            posted = await http("POST", f"/channels/{fake.dm_channel(ann)}/messages", body)
            assert posted[0] == 200

        hand = await done(fake, await fake.dm_click(ann, controls[1]))
        assert hand.ephemeral and hand.visible_to == int(ann["id"]) and hand in fake.dms(ann)
        assert [f for f, _ in hand.files] == [f"hand-{match}.png"]
        panel = await done(fake, await fake.dm_click(ann, controls[0]))
        assert panel.ephemeral and panel.visible_to == int(ann["id"]) and panel in fake.dms(ann)
        played = await walk_panel(fake, ann, panel)
        assert played.startswith("You played: ")
        # the move went to the match: the thread's post (new, or the turn's post edited)
        # carries the controls of the next board
        await fake.until(lambda: max(versions(fake, thread, match)) > version, 60)
        stale = await done(fake, await fake.dm_click(ann, controls[0]))
        assert "board has changed" in stale.content and stale.ephemeral

        # two hidden hands: /hand in the DM offers both, a button picks one
        second, _ = await open_match(fake, other_channel, "pastiche", ben, ann)
        which = await done(fake, await fake.dm_slash(ann, "hand"))
        assert which.content.startswith("You hold a hand in several matches")
        assert sorted(which.custom_ids) == sorted([f"th:{match}", f"th:{second}"])
        picked = await done(fake, await fake.click(ann, which, f"th:{second}"))
        assert [f for f, _ in picked.files] == [f"hand-{second}.png"] and picked.ephemeral
        named = await done(fake, await fake.dm_slash(ann, "hand", match=match))
        assert [f for f, _ in named.files] == [f"hand-{match}.png"] and named.ephemeral
        assert not any(m.files for m in fake.dms(ben))  # Ann's hands went to Ann only
        refused = [r for r in fake.records if r.status >= 400 and r.status != 429]
        assert not refused, [(r.method, r.route, r.status, r.error_code) for r in refused]
    finally:
        await bot.stop()


# ----- where the commands are offered, and how they are synced --------------------------------
async def test_the_dm_commands_are_offered_there_and_synced_globally(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The commands marked to work in a DM are exactly the ones whose top-level command
    Discord offers there (guild + bot DM; the rest guild only). Discord applies contexts
    to global commands only, so the guild sync mode keeps the DM commands global and
    puts the others in the development server — each listed once."""
    async with running(tmp_path, monkeypatch, dev_guild_id=GUILD_ID) as h:
        tree = h.bot.tree
        marked = set()
        for command in tree.walk_commands():
            if works_in_dms(command):
                marked.add(command.qualified_name)
                assert offered_in_dms(command.root_parent or command), command.qualified_name
        assert marked == WORK_IN_DMS
        payload = {c["name"]: c for c in (c.to_dict(tree) for c in tree.get_commands())}
        dms = {name for name, c in payload.items() if c["contexts"] == [0, 1]}
        assert dms == {"game", "hand", "notify", "rules", "stats"}
        assert all(c["contexts"] == [0] for name, c in payload.items() if name not in dms)

        def last(scope: str) -> list[str]:
            puts = [c for c in h.fake.calls if c.method == "PUT" and c.url.endswith(scope)]
            return sorted(c["name"] for c in puts[-1].payload)  # type: ignore[union-attr]

        await h.bot.sync_commands("guild")
        assert last(f"{h.bot.application_id}/commands") == sorted(dms)
        guild = last(f"/guilds/{GUILD_ID}/commands")
        assert "sync" in guild and "play" in guild and not set(guild) & dms
        assert {c.name for c in tree.get_commands()} == set(payload)  # the tree is whole again
        await h.bot.sync_commands("global")
        assert last(f"{h.bot.application_id}/commands") == sorted(payload)
