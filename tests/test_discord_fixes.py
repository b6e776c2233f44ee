"""Bugs the strict local Discord brought to light (issue 13), each shown fixed through the
real discord.py dispatch (the in-process harness) and checked against Discord's rules as the
local Discord enforces them (:mod:`tests.fakediscord.limits`)."""

from __future__ import annotations

import discord

import bot.discord.i18n
from bot.matches.reports import User
from tests.conftest import ALICE, BOB, MALLORY
from tests.discord_harness import CHANNEL_ID, GUILD_ID, Call, running
from tests.fakediscord.limits import check_commands
from tests.test_discord_commands import mover, only, started


def hook_calls(calls: list[Call]) -> list[Call]:
    return [c for c in calls if c.via == "hook"]


async def test_history_keeps_the_newest_moves(tmp_path, monkeypatch) -> None:
    """Bug 1: /history count:50 clipped the end of the text, i.e. the newest moves."""
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread = await started(h)
        lines = [
            f"{i}. Alice: a long move description number {i:03d} " + "x" * 40 for i in range(50)
        ]

        async def history(match: int, last: int, lang: object = None) -> list[str]:
            return lines[-last:]

        monkeypatch.setattr(h.service, "history", history)
        reply = only(await h.slash(BOB, "history moves", count=50, channel=thread))
        assert len(reply.content) <= 2000
        assert lines[-1] in reply.content and lines[-2] in reply.content
        assert lines[0] not in reply.content and "…" in reply.content


async def test_a_name_with_colon_space_is_not_garbled(tmp_path, monkeypatch) -> None:
    """'You played: …' split the report at the first ': ', which can be in a name."""
    dr = User("3001", "Dr: Who")
    mx = User("3002", "Mx: Y")
    async with running(tmp_path, monkeypatch) as h:
        calls = await h.slash(dr, "game new", game="test-pile", players=2)
        lobby = next(c for c in calls if c.custom_ids)
        match_id = int(lobby.custom_ids[0].split(":")[2])
        thread = int((await h.service.info(match_id)).thread_id or 0)
        await h.click(mx, f"tl:join:{match_id}", channel=thread)
        await h.click(dr, f"tl:start:{match_id}", channel=thread)
        info = await h.service.info(match_id)
        on = dr if info.to_act == [dr.id] else mx
        reply = only(await h.slash(on, "play", move="draw", channel=thread))
        assert reply.content.splitlines()[0] == "You played: draw a secret card"


async def test_translated_sync_payload_is_accepted_by_discord(tmp_path, monkeypatch) -> None:
    """Bug 4: translations were never length-checked; one long description (or an invalid
    localised name) makes Discord refuse the whole sync."""

    def long_lookup(key: str, locale: object = None) -> str:
        return "Hosszú leírás " * 20 if not key.startswith("choice") else "Név " * 40

    monkeypatch.setattr(bot.discord.i18n, "lookup", long_lookup)
    async with running(tmp_path, monkeypatch) as h:
        await h.bot.sync_commands("global")
        put = next(c for c in h.fake.calls if c.method == "PUT" and c.path.endswith("/commands"))
        payload = put.payload if isinstance(put.payload, list) else []
        assert payload and any(c.get("description_localizations") for c in payload)
        check_commands(payload)  # raises ApiError (50035) as Discord would
        game = next(c for c in payload if c["name"] == "game")
        assert len(game["description_localizations"]["hu"]) == 100


async def test_sync_shows_every_command_once_and_sync_only_in_dev_guild(
    tmp_path, monkeypatch
) -> None:
    """/sync was global (every server's admins saw it), and a dev-guild sync copied the
    global commands into the guild while leaving the global ones: each shown twice."""
    async with running(tmp_path, monkeypatch, dev_guild_id=GUILD_ID) as h:
        assert "sync" not in [c.name for c in h.bot.tree.get_commands()]

        def last(scope: str) -> list[str]:
            puts = [c for c in h.fake.calls if c.method == "PUT" and c.url.endswith(scope)]
            return [c["name"] for c in puts[-1].payload] if puts else []  # type: ignore[union-attr]

        guild_scope = f"/guilds/{GUILD_ID}/commands"
        for mode in ("guild", "global", "guild"):
            await h.bot.sync_commands(mode)  # type: ignore[arg-type]
            shown = last(f"{h.bot.application_id}/commands") + last(guild_scope)
            assert sorted(shown) == sorted(set(shown)), (mode, shown)
            assert "sync" in last(guild_scope) and "sync" not in last(
                f"{h.bot.application_id}/commands"
            )
            assert {"game", "play", "notify"} <= set(shown)
        reply = only(await h.slash(ALICE, "sync", scope="global"))
        assert "Published" in reply.content


async def test_sync_is_not_registered_without_a_dev_guild(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        await h.bot.sync_commands("global")
        (put,) = [c for c in h.fake.calls if c.method == "PUT"]
        assert "sync" not in [c["name"] for c in put.payload]  # type: ignore[union-attr]


async def test_game_list_pages_show_every_match(tmp_path, monkeypatch) -> None:
    """/game list cut off after about nine matches (one clip at 2,000 characters)."""
    async with running(tmp_path, monkeypatch) as h:
        ids = []
        for i in range(30):
            user = User(str(5000 + i), f"Player with a rather long display name {i}")
            info = await h.service.create_match(
                "test-pile", user, {}, guild_id=str(GUILD_ID), channel_id=str(CHANNEL_ID)
            )
            await h.service.set_thread(info.id, str(900_000 + i))
            ids.append(info.id)
        seen = ""
        page, pages = 1, None
        while True:
            reply = only(await h.slash(MALLORY, "game list", page=page))
            assert len(reply.content) <= 2000
            seen += reply.content
            if pages is None:
                pages = int(reply.content.rsplit("of ", 1)[1].split()[0])
            if page == pages:
                break
            page += 1
        assert pages and pages > 1
        for match_id in ids:
            assert f"#{match_id} **Pile**" in seen and f"<#{900_000 + match_id - ids[0]}>" in seen


async def test_error_after_public_defer_stays_private(tmp_path, monkeypatch) -> None:
    """Bug 3: after a public defer the first follow-up *edits* the public "thinking"
    message (its visibility cannot change), so an ephemeral error sent as that follow-up
    was shown to everyone."""
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread = await started(h)
        on, off = await mover(h, match_id)

        async def broken(*args: object, **kwargs: object) -> bytes:
            raise discord.HTTPException(type("R", (), {"status": 503, "reason": "x"})(), "x")

        monkeypatch.setattr(h.service, "picture", broken)
        calls = hook_calls(await h.slash(off, "board", channel=thread))
        assert calls[0].callback_type == 5 and not calls[0].ephemeral  # public defer
        first = calls[1]  # Discord makes this one the (public) deferred message
        assert "Discord did not take" not in first.content
        private = [c for c in calls[2:] if "Discord did not take" in c.content]
        assert private and private[0].ephemeral


async def test_thread_rate_limited_closes_lobby_and_says_so_privately(
    tmp_path, monkeypatch
) -> None:
    """Bug 2: discord.RateLimited (not an HTTPException) while opening the thread left a
    lobby without a thread and answered "nothing was changed"."""
    async with running(tmp_path, monkeypatch) as h:
        h.fake.fail("POST", "/threads", discord.RateLimited(60.0))
        calls = hook_calls(await h.slash(ALICE, "game new", game="test-pile"))
        assert (await h.service.info(1)).status == "aborted"
        words = [c for c in calls if "could not open a thread" in c.content]
        assert words and words[-1].ephemeral
        assert not any("nothing was changed" in c.content for c in calls)
        assert "could not open a thread" not in calls[1].content  # not the public edit
