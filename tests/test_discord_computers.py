"""Computer players and /hint through the real discord.py dispatch: ``/game new bots:N``,
the lobby's add/remove buttons, computers moving (and never pinged), a restart picking up
a computer's turn, and /hint as a private answer whose buttons play the move."""

from __future__ import annotations

import asyncio

from bot.computers.players import is_computer
from tests.conftest import ALICE, BOB, MALLORY
from tests.discord_harness import Call, Harness, running


def reply(calls: list[Call]) -> Call:
    replies = [c for c in calls if c.via == "hook"]
    assert replies, calls
    return replies[-1]


async def new_match(h: Harness, **options) -> tuple[int, int, list[Call]]:
    calls = await h.slash(ALICE, "game new", game="test-pile", **options)
    lobby = next(c for c in calls if any(i.startswith("tl:join:") for i in c.custom_ids))
    match_id = int(lobby.custom_ids[0].split(":")[2])
    if "think_seconds" not in options:  # short thinking: these tests are about the plumbing
        await h.service.update_settings(match_id, think_seconds=0.05)
    return match_id, int((await h.service.info(match_id)).thread_id or 0), calls


async def alice_to_act(h: Harness, match_id: int) -> None:
    """Let the computers move until it is Alice's turn (or the match is over)."""
    await h.bot.computers.settle()
    await h.deliver()


async def test_new_with_bots_and_the_lobby_buttons(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread, calls = await new_match(h, bots=1, level="easy", options="size=6")
        info = await h.service.info(match_id)
        assert info.names == ["Alice", "🤖 Ada (easy)"]
        lobby = next(c for c in calls if c.custom_ids)
        assert lobby.custom_ids[3] == f"tg:{match_id}"  # Pile has an option: its form
        assert lobby.custom_ids[4:] == [
            f"tb:add:easy:{match_id}",
            f"tb:add:normal:{match_id}",
            f"tb:add:strong:{match_id}",
            f"tb:remove:-:{match_id}",
        ]
        assert any("🤖 Ada (easy)" in c.content for c in calls if c.via == "rest")
        # add, refused when full, refused to strangers, remove
        r = reply(await h.click(ALICE, f"tb:add:strong:{match_id}", channel=thread))
        assert not r.ephemeral and "🤖 Alan (strong) takes a seat" in r.content
        r = reply(await h.click(ALICE, f"tb:add:normal:{match_id}", channel=thread))
        assert r.ephemeral and "full" in r.content
        r = reply(await h.click(MALLORY, f"tb:remove:-:{match_id}", channel=thread))
        assert r.ephemeral and "not playing" in r.content
        r = reply(await h.click(BOB, f"tb:remove:-:{match_id}", channel=thread))
        assert r.ephemeral
        r = reply(await h.click(ALICE, f"tb:remove:-:{match_id}", channel=thread))
        assert not r.ephemeral and "🤖 Alan (strong) left" in r.content
        assert (await h.service.info(match_id)).names == ["Alice", "🤖 Ada (easy)"]
        # too many computers for the game is refused before anything is made
        r = reply(await h.slash(ALICE, "game new", game="test-pile", bots=3))
        assert r.ephemeral and "computer seats left beside you: 2" in r.content
        assert len(await h.service.list_matches()) == 1


async def test_strong_only_where_the_game_offers_it(tmp_path, monkeypatch) -> None:
    """Taj Mahal offers no strong level (it did not play better than normal there): asking
    for it is refused before anything is made, and its lobby has no strong button."""
    async with running(tmp_path, monkeypatch) as h:
        r = reply(await h.slash(ALICE, "game new", game="taj-mahal", bots=1, level="strong"))
        assert r.ephemeral and "Taj Mahal has no strong computer player" in r.content
        assert "Levels for Taj Mahal: easy, normal." in r.content
        assert await h.service.list_matches() == []
        calls = await h.slash(ALICE, "game new", game="taj-mahal", bots=1, level="normal")
        lobby = next(c for c in calls if any(i.startswith("tl:join:") for i in c.custom_ids))
        match_id = int(lobby.custom_ids[0].split(":")[2])
        adds = [i for i in lobby.custom_ids if i.startswith("tb:add:")]
        assert adds == [f"tb:add:easy:{match_id}", f"tb:add:normal:{match_id}"]
        thread = int((await h.service.info(match_id)).thread_id or 0)
        # a strong button of an older post is refused with the same reason
        r = reply(await h.click(ALICE, f"tb:add:strong:{match_id}", channel=thread))
        assert r.ephemeral and "Taj Mahal has no strong computer player" in r.content
        assert (await h.service.info(match_id)).names == ["Alice", "🤖 Ada (normal)"]


async def test_computers_play_through_the_service_and_are_not_pinged(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread, _ = await new_match(h, bots=2, options="size=5")
        await h.click(ALICE, f"tl:start:{match_id}", channel=thread)
        for _ in range(30):
            await alice_to_act(h, match_id)
            info = await h.service.info(match_id)
            if info.status != "running":
                break
            moves = await h.service.legal_moves(match_id, ALICE)
            await h.slash(ALICE, "play", channel=thread, move=moves[0].notation)
        assert (await h.service.info(match_id)).status == "finished"
        rows = await h.service.store.moves(match_id)
        assert {r.user_id for r in rows if r.seat > 0} <= {"ai:normal:1", "ai:normal:2"}
        assert any(is_computer(r.user_id) for r in rows)
        posts = [c for c in h.fake.created if c.path == "/channels/{channel_id}/messages"]
        assert any("🤖 Ada (normal):" in p.content for p in posts)
        for post in posts:
            assert "<@ai" not in post.content
            assert not any(
                "ai:" in str(u) for u in post.payload.get("allowed_mentions", {}).get("users", [])
            )
        assert not any(
            "/users/@me/channels" in c.path and "ai:" in str(c.payload) for c in h.fake.calls
        )


async def test_restart_picks_up_a_computer_turn(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread, _ = await new_match(h, bots=1, options="size=9")
        await h.click(ALICE, f"tl:start:{match_id}", channel=thread)
        await alice_to_act(h, match_id)
        moves = await h.service.legal_moves(match_id, ALICE)
        await h.slash(ALICE, "play", channel=thread, move=moves[0].notation)
        plies = len(await h.service.store.moves(match_id))
        await h.restart()  # the computer's turn was never played by the old process
        runner = asyncio.create_task(h.bot.computers.run_forever(3600))
        for _ in range(500):
            if len(await h.service.store.moves(match_id)) > plies:
                break
            await asyncio.sleep(0.01)
        runner.cancel()
        rows = await h.service.store.moves(match_id)
        assert len(rows) > plies and rows[plies].user_id == "ai:normal:1"


async def test_hint_is_private_and_its_buttons_play(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread, _ = await new_match(h, bots=1, options="size=9")
        await h.click(ALICE, f"tl:start:{match_id}", channel=thread)
        await alice_to_act(h, match_id)
        version = (await h.service.info(match_id)).version
        calls = await h.slash(ALICE, "hint", channel=thread)
        assert calls[0].callback_type == 5 and calls[0].ephemeral  # deferred, privately
        hint = reply(calls)
        assert hint.ephemeral and hint.content.count("\n") == 3
        ids = hint.custom_ids
        assert len(ids) == 3 and all(i.startswith(f"tm:{match_id}:{version}:") for i in ids)
        legal = {m.notation for m in await h.service.legal_moves(match_id, ALICE)}
        assert {i.split(":", 3)[3] for i in ids} <= legal
        # nothing public was posted about the hint, and the count is only in the settings
        assert not [c for c in calls if c.via == "rest"]
        # a stranger cannot use it; the owner's click plays through the version check
        r = reply(await h.click(MALLORY, ids[1], channel=thread))
        assert r.ephemeral and "not your match" in r.content
        await h.click(ALICE, ids[1], channel=thread)
        rows = await h.service.store.moves(match_id)
        assert rows[-1].user_id == ALICE.id and rows[-1].notation == ids[1].split(":", 3)[3]
        # the same button again: the board changed, nothing is applied twice
        r = reply(await h.click(ALICE, ids[0], channel=thread))
        assert r.ephemeral and "changed" in r.content
        assert len(await h.service.store.moves(match_id)) == len(rows)
        info = await h.service.info(match_id)
        assert info.settings["hints_used"] == {"0": 1}
        # not her turn now (the computer's): a clear refusal, no count
        assert info.to_act == ["ai:normal:1"]
        r = reply(await h.slash(ALICE, "hint", channel=thread))
        assert r.ephemeral and "waiting for 🤖 Ada (normal)" in r.content
        assert (await h.service.info(match_id)).settings["hints_used"] == {"0": 1}


async def test_the_hint_button_does_what_hint_does(tmp_path, monkeypatch) -> None:
    """The turn post's Hint button: the same private hints as /hint, and the same refusal
    off turn. A 30-tile pile, so the match cannot end before Alice's second turn."""
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread, _ = await new_match(h, bots=1, options="size=30")
        await h.click(ALICE, f"tl:start:{match_id}", channel=thread)
        await alice_to_act(h, match_id)
        version = (await h.service.info(match_id)).version
        hint = reply(await h.click(ALICE, f"tw:{match_id}", channel=thread))
        assert hint.ephemeral and hint.content.count("\n") == 3
        ids = hint.custom_ids
        assert len(ids) == 3 and all(i.startswith(f"tm:{match_id}:{version}:") for i in ids)
        await h.click(ALICE, ids[0], channel=thread)
        info = await h.service.info(match_id)
        assert info.to_act == ["ai:normal:1"] and info.settings["hints_used"] == {"0": 1}
        r = reply(await h.click(ALICE, f"tw:{match_id}", channel=thread))
        assert r.ephemeral and "waiting for 🤖 Ada (normal)" in r.content
        assert (await h.service.info(match_id)).settings["hints_used"] == {"0": 1}


async def test_hint_refused_when_hints_are_off(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread, _ = await new_match(h, bots=1, hints=False)
        await h.click(ALICE, f"tl:start:{match_id}", channel=thread)
        await alice_to_act(h, match_id)
        r = reply(await h.slash(ALICE, "hint", channel=thread))
        assert r.ephemeral and f"Hints are turned off in match #{match_id}" in r.content
        r = reply(await h.slash(MALLORY, "hint", channel=thread))
        assert r.ephemeral and "not your match" in r.content
        assert "hints_used" not in (await h.service.info(match_id)).settings
        # no Hint button under a turn of a match without hints (an old one is refused)
        await h.deliver()
        posts = [c for c in h.fake.calls if c.via == "rest" and c.layout and c.custom_ids]
        assert posts and all(f"tw:{match_id}" not in c.custom_ids for c in posts)
        r = reply(await h.click(ALICE, f"tw:{match_id}", channel=thread))
        assert r.ephemeral and f"Hints are turned off in match #{match_id}" in r.content


async def test_settings_turn_hints_off_and_set_thinking_time(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread, _ = await new_match(h, bots=1, think_seconds=1.5)
        info = await h.service.info(match_id)
        assert info.settings == {"think_seconds": 1.5, "language": "en"}  # nothing thinks here
        r = reply(await h.slash(ALICE, "game settings", channel=thread, hints=False))
        assert "hints: off" in r.content and "think 1.5 s per move" in r.content
        r = reply(await h.slash(ALICE, "game settings", channel=thread, think_seconds=99.0))
        assert (
            r.ephemeral
            and "think_seconds=99 is not allowed: think_seconds takes a number from 0.5 to 30"
            in r.content
        )
        r = reply(await h.slash(BOB, "game settings", channel=thread, hints=True))
        assert r.ephemeral and (await h.service.info(match_id)).settings["hints"] is False


async def test_after_a_move_only_matches_with_computers_are_looked_at(
    tmp_path, monkeypatch
) -> None:
    """The cheap look after a wake: the started match with a computer is in the computer-turn
    index and its computer's turn found without reading every match; a match of people is
    never in the index, so never read."""
    async with running(tmp_path, monkeypatch) as h:
        computers = h.bot.computers
        people, people_thread, _ = await new_match(h, players=2)
        await h.click(BOB, f"tl:join:{people}", channel=people_thread)
        await h.click(ALICE, f"tl:start:{people}", channel=people_thread)
        match_id, thread, _ = await new_match(h, bots=1, options="size=9")
        await h.click(ALICE, f"tl:start:{match_id}", channel=thread)
        marked = await computers.index.unjudged(None, 10)
        assert [m.match_id for m in marked] == [match_id]

        async def light() -> int:
            started = await computers.sweep()
            await asyncio.gather(*computers._playing.values())
            return started

        await light()  # the computer's first move, if it has one
        assert (await h.service.info(match_id)).to_act == [ALICE.id]
        moves = await h.service.legal_moves(match_id, ALICE)
        await h.slash(ALICE, "play", channel=thread, move=moves[0].notation)
        plies = len(await h.service.store.moves(match_id))
        judged = computers.judged
        assert await light() == 1
        assert computers.judged == judged + 1  # Alice's move marked that one match only
        rows = await h.service.store.moves(match_id)
        assert len(rows) == plies + 1 and rows[-1].user_id == "ai:normal:1"


async def test_forged_computer_buttons_change_nothing(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread, _ = await new_match(h, bots=1)
        await h.click(ALICE, f"tl:start:{match_id}", channel=thread)
        before = (tmp_path / "bot.db").read_bytes()
        for cid, words in (
            (f"tb:add:strong:{match_id}", "already started"),
            (f"tb:remove:-:{match_id}", "already started"),
            ("tb:add:normal:99999999999999999999999", "no match"),
            (f"tb:add:godlike:{match_id}", "no longer does anything"),
            (f"tb:remove:strong:{match_id}x", "no longer does anything"),
        ):
            r = reply(await h.click(ALICE, cid, channel=thread))
            assert r.ephemeral and words in r.content, (cid, r.content)
        assert (tmp_path / "bot.db").read_bytes() == before
