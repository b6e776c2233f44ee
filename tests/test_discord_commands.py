"""Every command and button driven through the real discord.py dispatch with recorded
stand-in interactions, including the refusals: not your turn, not your match, illegal
move, unknown match, racing double click, stale button, expired lobby — and a button made
before a restart handled after it."""

from __future__ import annotations

import asyncio
import time

from bot.discord.panel import build_panel, choices_at, decode_path, encode_move, encode_path
from bot.matches.lobby import LOBBY_TTL_SECONDS
from bot.matches.reports import User
from rules import Move
from rules.base import Step
from tests.conftest import ALICE, BOB, CAROL, MALLORY
from tests.discord_harness import CHANNEL_ID, GUILD_ID, Call, Harness, http_error, running

MANAGER = User("7777", "Manager")  # the harness gives this user Manage Server


def only(calls: list[Call]) -> Call:
    replies = [c for c in calls if c.via == "hook"]
    assert replies, calls
    return replies[-1]


async def open_lobby(h: Harness, game: str = "test-pile", **options) -> tuple[int, int]:
    calls = await h.slash(ALICE, "game new", game=game, **options)
    lobby = next(c for c in calls if "tl:join:" in " ".join(c.custom_ids))
    match_id = int(lobby.custom_ids[0].split(":")[2])
    return match_id, int((await h.service.info(match_id)).thread_id or 0)


async def started(h: Harness, game: str = "test-pile") -> tuple[int, int]:
    match_id, thread = await open_lobby(h, game, players=2)
    await h.click(BOB, f"tl:join:{match_id}", channel=thread)
    await h.click(ALICE, f"tl:start:{match_id}", channel=thread)
    await h.deliver()
    return match_id, thread


async def mover(h: Harness, match_id: int) -> tuple[User, User]:
    info = await h.service.info(match_id)
    on = ALICE if info.to_act == [ALICE.id] else BOB
    return on, (BOB if on is ALICE else ALICE)


async def test_new_lobby_join_leave_start(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        calls = await h.slash(ALICE, "game new", game="test-pile", options="size=5")
        assert calls[0].callback_type == 5  # deferred before the slow work
        assert any(c.path == "/channels/{channel_id}/threads" for c in calls)
        lobby = next(c for c in calls if c.custom_ids)
        assert lobby.custom_ids[:3] == ["tl:join:1", "tl:leave:1", "tl:start:1"]
        assert "<@1001>" in lobby.content and not lobby.ephemeral
        info = await h.service.info(1)
        thread = int(info.thread_id or 0)
        assert info.options == {"size": 5}
        reply = only(await h.click(CAROL, "tl:join:1", channel=thread))
        assert "Carol joined match #1" in reply.content and not reply.ephemeral
        reply = only(await h.click(CAROL, "tl:join:1", channel=thread))
        assert reply.ephemeral and "already joined" in reply.content
        reply = only(await h.click(CAROL, "tl:leave:1", channel=thread))
        assert "Carol left" in reply.content
        reply = only(await h.click(ALICE, "tl:start:1", channel=thread))
        assert reply.ephemeral and "needs at least 2" in reply.content
        reply = only(await h.slash(BOB, "game join", channel=thread))
        assert "Bob joined" in reply.content
        reply = only(await h.slash(MALLORY, "game start", channel=thread))
        assert reply.ephemeral and "not playing" in reply.content
        reply = only(await h.slash(BOB, "game start", channel=thread))
        assert reply.ephemeral and "started match #1" in reply.content
        assert (await h.service.info(1)).status == "running"
        assert await h.deliver() == 1
        post = h.fake.calls[-1]
        assert post.path == "/channels/{channel_id}/messages" and f"/{thread}/" in post.url
        assert post.files == ["match-1-0.png"]
        assert post.payload["enforce_nonce"] is True
        on = (await h.service.info(1)).to_act[0]
        assert f"<@{on}>" in post.content
        assert post.payload["allowed_mentions"]["users"] == [int(on)]
        # a card: Make a move, Hint (hints are on), My hand (hidden hands), Board and History
        version = (await h.service.info(1)).version
        want = [f"tp:1:{version}", "tw:1", "th:1", "tv:1", "ty:1"]
        assert post.layout and post.custom_ids == want


async def test_new_refusals_stay_private(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        reply = only(await h.slash(ALICE, "game new", game="test-pile", options="size=1000"))
        assert reply.ephemeral and "size" in reply.content
        reply = only(await h.slash(ALICE, "game new", game="test-pile", options="nonsense"))
        assert reply.ephemeral and "key=value" in reply.content
        reply = only(await h.slash(ALICE, "game new", game="test-pile", players=9))
        assert reply.ephemeral and "players: 2–3" in reply.content
        reply = only(await h.slash(ALICE, "game new", game="test-pile", options="size=5,size=6"))
        assert reply.ephemeral and reply.content == "size is given twice; give each option once."
        reply = only(
            await h.slash(ALICE, "game new", game="test-pile", players=2, options="players=3")
        )
        assert reply.ephemeral and "players is given twice" in reply.content
        h.fake.fail("POST", "/threads", http_error(403))
        calls = await h.slash(ALICE, "game new", game="test-pile")
        assert "could not open a thread" in only(calls).content
        assert (await h.service.info(1)).status == "aborted"
        match_id, _ = await open_lobby(h, options="players=2, size=5")  # once: accepted
        info = await h.service.info(match_id)
        assert info.max_players == 2 and info.options == {"size": 5}


async def test_expired_lobby_and_unknown_match(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread = await open_lobby(h)
        reply = only(await h.slash(BOB, "game join", match=4242))
        assert reply.ephemeral and "no match #4242" in reply.content
        reply = only(await h.click(BOB, "tl:join:4242", channel=thread))
        assert reply.ephemeral and "no match #4242" in reply.content
        reply = only(await h.slash(BOB, "board", channel=CHANNEL_ID))
        assert reply.ephemeral and "no match in this channel" in reply.content
        monkeypatch.setattr(time, "time", lambda real=time.time: real() + LOBBY_TTL_SECONDS + 5)
        reply = only(await h.click(BOB, f"tl:join:{match_id}", channel=thread))
        assert reply.ephemeral and "expired" in reply.content


async def test_play_typed_with_autocomplete_and_errors(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread = await started(h)
        on, off = await mover(h, match_id)
        choices = await h.autocomplete(on, "play", "move", "", channel=thread)
        values = [c["value"] for c in choices]
        assert values[:4] == ["take3", "take2", "take1", "draw"]  # by rank
        assert values[4].startswith("poke") and len(values) == 5
        poke = next(c for c in choices if c["value"] == values[4])
        assert poke["name"] == f"poke {off.name}"  # names, never {pN} placeholders
        choices = await h.autocomplete(on, "play", "move", "take 2", channel=thread)
        assert choices[0] == {"name": "take 2 counters", "value": "take2"}
        choices = await h.autocomplete(on, "play", "move", "secret", channel=thread)
        assert [c["value"] for c in choices] == ["draw"]
        assert await h.autocomplete(off, "play", "move", "", channel=thread) == []
        assert await h.autocomplete(MALLORY, "play", "move", "", channel=thread) == []

        reply = only(await h.slash(off, "play", move="take1", channel=thread))
        assert reply.ephemeral and "not your turn" in reply.content
        reply = only(await h.slash(MALLORY, "play", move="take1", channel=thread))
        assert reply.ephemeral and "not playing in match" in reply.content
        reply = only(await h.slash(on, "play", move="take7", channel=thread))
        assert reply.ephemeral and "take 1 to 3 counters, not 7" in reply.content
        calls = await h.slash(on, "play", move="draw", channel=thread)
        assert calls[0].callback_type == 5 and calls[0].ephemeral  # private defer
        reply = only(calls)
        assert reply.ephemeral and "You played: draw a secret card" in reply.content
        assert "Only for you: You drew a" in reply.content
        await h.deliver()
        posts = [c for c in h.fake.calls if c.path == "/channels/{channel_id}/messages"]
        assert "drew a secret card" in posts[-2].content or "drew a secret card" in (
            posts[-1].content
        )
        assert not any("You drew a" in p.content for p in posts if f"/{thread}/" in p.url)


async def test_guided_panel_walks_steps_and_plays(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread = await started(h)
        on, off = await mover(h, match_id)
        v = (await h.service.info(match_id)).version
        panel = only(await h.click(on, f"tp:{match_id}:{v}", channel=thread))
        assert panel.ephemeral and panel.custom_ids == [
            f"ts:{match_id}:{v}:take",
            f"ts:{match_id}:{v}:draw",
            f"ts:{match_id}:{v}:poke",
        ]
        step = only(await h.click(on, f"ts:{match_id}:{v}:take", channel=thread))
        assert step.callback_type == 7  # the panel message is updated in place
        assert f"ts:{match_id}:{v}:take/2" in step.custom_ids
        assert f"ts:{match_id}:{v}:" in step.custom_ids  # Back
        step = only(await h.click(on, f"ts:{match_id}:{v}:take/2", channel=thread))
        assert step.custom_ids == [f"tm:{match_id}:{v}:take2", f"ts:{match_id}:{v}:take"]
        calls = await h.click(on, f"tm:{match_id}:{v}:take2", channel=thread)
        assert calls[0].callback_type == 7  # acknowledged before playing
        assert "You played: take 2 counters" in only(calls).content
        assert (await h.service.store.moves(match_id))[-1].notation == "take2"

        # the same button again: the board has changed
        reply = only(await h.click(on, f"tm:{match_id}:{v}:take2", channel=thread))
        assert reply.ephemeral and "board has changed" in reply.content
        # a spectator pressing a player's button
        v2 = (await h.service.info(match_id)).version
        reply = only(await h.click(MALLORY, f"tp:{match_id}:{v2}", channel=thread))
        assert reply.ephemeral and "not your match" in reply.content
        # the player not on turn
        reply = only(await h.click(on, f"tp:{match_id}:{v2}", channel=thread))
        assert reply.ephemeral and "not your turn" in reply.content
        # /play with no move opens the panel
        reply = only(await h.slash(off, "play", channel=thread))
        assert reply.ephemeral and reply.custom_ids[0].startswith(f"ts:{match_id}:{v2}:")


async def test_racing_double_click_applies_once(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread = await started(h)
        on, _ = await mover(h, match_id)
        v = (await h.service.info(match_id)).version
        cid = f"tm:{match_id}:{v}:take1"
        await h.click(on, f"ts:{match_id}:{v}:take/1", channel=thread)  # makes the button
        before = len(h.fake.calls)
        await asyncio.gather(h.click(on, cid, channel=thread), h.click(on, cid, channel=thread))
        texts = [c.content for c in h.fake.calls[before:] if c.via == "hook" and c.content]
        assert sum("You played" in x for x in texts) == 1
        assert sum("board" in x and "changed" in x for x in texts) == 1
        assert len(await h.service.store.moves(match_id)) == 1


async def test_button_made_before_restart_works_after(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread = await started(h)
        on, _ = await mover(h, match_id)
        v = (await h.service.info(match_id)).version
        panel = only(await h.click(on, f"tp:{match_id}:{v}", channel=thread))
        old_bot = h.bot
        await h.restart()
        assert h.bot is not old_bot
        step = only(await h.click(on, panel.custom_ids[0], channel=thread))
        assert step.callback_type == 7
        reply = only(await h.click(on, f"tm:{match_id}:{v}:take3", channel=thread))
        assert "You played: take 3 counters" in reply.content
        assert await h.deliver() == 1


async def test_board_hand_history_rules_list(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread = await started(h)
        on, off = await mover(h, match_id)
        await h.slash(on, "play", move="draw", channel=thread)
        calls = await h.slash(off, "board", channel=thread)
        assert calls[0].callback_type == 5 and not calls[0].ephemeral
        assert only(calls).files == [f"match-{match_id}.png"] and not only(calls).ephemeral
        calls = await h.slash(on, "hand", channel=thread)
        hand = only(calls)
        assert hand.ephemeral and hand.files == [f"hand-{match_id}.png"]
        assert only(await h.click(on, f"th:{match_id}", channel=thread)).ephemeral
        reply = only(await h.click(MALLORY, f"th:{match_id}", channel=thread))
        assert "not your match" in reply.content and not reply.files
        reply = only(await h.slash(MALLORY, "hand", channel=thread))
        assert "not your match" in reply.content and not reply.files
        reply = only(await h.slash(off, "history moves", channel=thread))
        assert reply.ephemeral and "draw a secret card" in reply.content
        reply = only(await h.slash(off, "rules", channel=thread))
        assert "Take 1–3 counters" in reply.content and "rules/test_pile.md" in reply.content
        reply = only(await h.slash(off, "rules", game="test-pile", channel=CHANNEL_ID))
        assert "Pile" in reply.content
        reply = only(await h.slash(MALLORY, "game list", channel=CHANNEL_ID))
        assert f"#{match_id} **Pile**" in reply.content and f"<#{thread}>" in reply.content


async def test_resign_abort_and_settings(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread = await started(h)
        on, off = await mover(h, match_id)
        reply = only(await h.slash(MALLORY, "game settings", clock_days=2.0, channel=thread))
        assert reply.ephemeral and "creator or a server manager" in reply.content
        reply = only(
            await h.slash(
                ALICE, "game settings", clock_days=2.0, reminder_hours=6.0, channel=thread
            )
        )
        assert "2 days per move" in reply.content and "every 6 h" in reply.content
        reply = only(await h.slash(MALLORY, "game abort", channel=thread))
        assert reply.ephemeral and "Only the players of a running match" in reply.content
        reply = only(await h.slash(MALLORY, "resign", channel=thread))
        assert "not your match" in reply.content
        reply = only(await h.slash(off, "resign", channel=thread))
        assert reply.custom_ids and reply.custom_ids[0].startswith(f"tr:{match_id}:")
        reply = only(await h.click(off, reply.custom_ids[0], channel=thread))
        assert f"You resigned match #{match_id}" in reply.content
        assert (await h.service.info(match_id)).status == "finished"
        second, thread2 = await open_lobby(h)
        reply = only(await h.slash(MANAGER, "game abort", channel=thread2))
        assert f"Match #{second} was aborted" in reply.content


async def test_undo_own_and_with_consent(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread = await started(h)
        on, off = await mover(h, match_id)
        await h.slash(on, "play", move="take1", channel=thread)
        reply = only(await h.slash(MALLORY, "undo", channel=thread))
        assert "not playing" in reply.content
        reply = only(await h.slash(on, "undo", channel=thread))
        assert "Asked the other players" in reply.content
        reply = only(await h.slash(off, "undo", refuse=True, channel=thread))
        assert "You refused" in reply.content
        reply = only(await h.slash(on, "undo", channel=thread))
        reply = only(await h.slash(off, "undo", channel=thread))
        assert "taken back" in reply.content
        assert (await h.service.info(match_id)).to_act == [on.id]


async def test_notify_preferences_and_sync_owner_only(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch, dev_guild_id=GUILD_ID) as h:
        reply = only(
            await h.slash(
                BOB,
                "notify",
                mode="dm",
                quiet_from=22,
                quiet_to=7,
                utc_offset=1.0,
                reminder_hours=12.0,
                heads_up=True,
            )
        )
        assert reply.ephemeral and "mention and direct message" in reply.content
        assert "22:00–7:00 (UTC+1)" in reply.content
        user = await h.service.store.get_user(BOB.id)
        assert user["notify"] == "dm" and user["settings"]["quiet"] == [22, 7]
        reply = only(await h.slash(BOB, "notify", quiet_from=25))
        assert "0 to 23" in reply.content
        reply = only(await h.slash(BOB, "sync"))
        assert reply.ephemeral and "owner" in reply.content
        reply = only(await h.slash(ALICE, "sync", scope="global"))
        assert "Published" in reply.content


async def test_locale_is_used_for_replies(tmp_path, monkeypatch) -> None:
    from render.words.catalogue import MESSAGES

    MESSAGES["de"] = {"err.no_match_here": "Hier läuft keine Partie."}
    try:
        async with running(tmp_path, monkeypatch) as h:
            reply = only(await h.slash(BOB, "board", locale="de"))
            assert reply.content == "Hier läuft keine Partie."
            reply = only(await h.slash(BOB, "history moves", locale="pt-BR"))
            assert "There is no match" in reply.content  # falls back to English
    finally:
        del MESSAGES["de"]


def test_path_encoding_falls_back_to_indices() -> None:
    long = "x" * 60
    moves = [
        Move("a1", "a one", (Step("a", "A"), Step("1", "one"))),
        Move("slash", "slash", (Step("s/t", "S/T"),)),
        Move("long", "long", (Step(long, "L1"), Step(long + "y", "L2"))),
        Move("z" * 120, "very long notation", (Step("z", "Z"),)),
    ]
    head = "ts:12345:678:"
    assert encode_path(moves, ["a", "1"], head) == head + "a/1"
    assert encode_path(moves, ["s/t"], head) == head + "#1"
    cid = encode_path(moves, [long, long + "y"], head)
    assert cid == head + "#2.0" and len(cid) <= 100
    assert decode_path(moves, "#2.0") == [long, long + "y"]
    assert decode_path(moves, "a/1") == ["a", "1"]
    assert encode_move(moves, moves[3], "tm:1:2:") == "tm:1:2:#3"
    complete, options = choices_at(moves, [])
    assert [o.step.key for o in options] == ["a", "s/t", long, "z"] and complete == []
    _, view = build_panel(12345, 678, moves, [long], "en-US")
    assert all(len(i.custom_id) <= 100 for i in view.children)  # type: ignore[attr-defined]
    many = [Move(f"m{i}", f"move {i}", (Step(f"k{i}", f"K{i}"),), rank=i) for i in range(40)]
    text, view = build_panel(1, 1, many, [], "en-US")
    assert "25 of 40" in text and len(view.children) == 1


async def test_select_when_a_step_has_many_choices(tmp_path, monkeypatch) -> None:
    """More than 20 choices at a step: a select (best-ranked 25) instead of buttons."""
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread = await started(h)
        on, _ = await mover(h, match_id)
        many = [
            Move(
                f"put{i}",
                f"put on space {i}",
                (Step("put", "put"), Step(str(i), f"space {i}")),
                rank=i % 7,
            )
            for i in range(30)
        ]

        real_turn_for = h.service.turn_for

        async def turn_for(mid, user):
            info, _ = await real_turn_for(mid, user)
            return info, many if user.id == on.id else []

        monkeypatch.setattr(h.service, "turn_for", turn_for)
        v = (await h.service.info(match_id)).version
        step = only(await h.click(on, f"ts:{match_id}:{v}:put", channel=thread))
        select = next(
            c for row in step.data["components"] for c in row["components"] if c["type"] == 3
        )
        assert select["custom_id"] == f"tq:{match_id}:{v}:put" and len(select["options"]) == 25
        assert "25 of 30" in step.content
        chosen = select["options"][3]["value"]
        step = only(await h.click(on, select["custom_id"], channel=thread, values=[chosen]))
        assert step.callback_type == 7
        assert step.custom_ids[0] == f"tm:{match_id}:{v}:put{chosen}"
        reply = only(await h.click(on, select["custom_id"], channel=thread, values=["99"]))
        assert reply.ephemeral and "board has changed" in reply.content
