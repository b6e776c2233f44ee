"""``/history replay`` and the ``rated`` setting of ``/game settings`` through the real
discord.py dispatch (recorded stand-in interactions, a render worker process)."""

from __future__ import annotations

from typing import Any

from bot.community import ratings
from bot.matches.service import MatchService
from tests.conftest import ALICE, BOB, MALLORY
from tests.discord_harness import GUILD_ID, Harness, running
from tests.test_discord_commands import mover, only, open_lobby, started


async def finish(h: Harness, match_id: int) -> None:
    """Play the Pile match out, taking as many counters as allowed each turn."""
    while (await h.service.info(match_id)).status == "running":
        on, _ = await mover(h, match_id)
        takes = [m.notation for m in await h.service.legal_moves(match_id, on)]
        await h.service.play(match_id, on, max(n for n in takes if n.startswith("take")))


async def test_replay_answers_at_once_and_follows_up_with_the_file(
    tmp_path: Any, monkeypatch: Any
) -> None:
    async with running(tmp_path, monkeypatch) as h:
        lobby, lobby_thread = await open_lobby(h, players=2)
        reply = only(await h.slash(MALLORY, "history replay", channel=lobby_thread))
        assert reply.ephemeral and "no moves to replay" in reply.content and not reply.files
        await h.service.abort(lobby, ALICE)

        match_id, thread = await started(h)
        on, off = await mover(h, match_id)
        await h.slash(on, "play", move="draw", channel=thread)  # a secret card drawn
        await h.slash(off, "play", move="take1", channel=thread)
        # a spectator asks while the match runs: public frames only, posted publicly
        calls = await h.slash(MALLORY, "history replay", channel=thread)
        assert calls[0].callback_type == 5 and not calls[0].ephemeral  # answered at once
        post = only(calls)
        assert post.files == [f"match-{match_id}-replay.webp"] and not post.ephemeral
        assert f"Replay of match #{match_id} (Pile): 2 turns." in post.content
        await finish(h, match_id)
        # from anywhere in the server, by number, once the match is over
        post = only(await h.slash(MALLORY, "history replay", match=match_id))
        assert post.files == [f"match-{match_id}-replay.webp"]
        reply = only(await h.slash(MALLORY, "history replay", match=999))
        assert reply.ephemeral and "There is no match #999" in reply.content


async def test_rated_setting_before_the_end_only(tmp_path: Any, monkeypatch: Any) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread = await started(h)  # Alice and Bob: rated unless told otherwise
        reply = only(await h.slash(MALLORY, "game settings", rated=False, channel=thread))
        assert reply.ephemeral and "creator or a server manager" in reply.content
        reply = only(await h.slash(ALICE, "game settings", channel=thread))
        assert "rated: when every seat is a person" in reply.content
        reply = only(await h.slash(ALICE, "game settings", rated=False, channel=thread))
        assert "Saved" in reply.content and "rated: off" in reply.content
        await finish(h, match_id)
        assert await ratings.leaderboard(h.service.store, str(GUILD_ID), "test-pile") == []
        reply = only(await h.slash(ALICE, "game settings", rated=True, channel=thread))
        assert reply.ephemeral and "can no longer change" in reply.content
        assert (await h.service.info(match_id)).settings["rated"] is False

        other, thread2 = await started(h)  # the default: rated
        await finish(h, other)
        board = await ratings.leaderboard(h.service.store, str(GUILD_ID), "test-pile")
        assert sorted(s.name for s in board) == ["Alice", "Bob"]
        assert [s.games for s in board] == [1, 1]  # the unrated match did not count
        before = await ratings.table_rows(h.service.store)
        await ratings.rebuild_all(h.service.store)
        assert await ratings.table_rows(h.service.store) == before


async def test_rated_change_racing_the_finish_is_refused(tmp_path: Any) -> None:
    """The finishing move lands between reading the match and writing the setting: the
    version check refuses the write, so the finish's decision stands."""
    service = await MatchService.open(tmp_path / "r.db", render=False)
    try:
        info = await service.create_match("test-pile", ALICE, {"size": 3}, max_players=2)
        await service.join(info.id, BOB)
        await service.start(info.id, ALICE)
        store = service.store
        original = store.update_settings
        users = {ALICE.id: ALICE, BOB.id: BOB}

        async def finish_first(match_id: int, mutate: Any) -> Any:
            store.update_settings = original  # type: ignore[method-assign]
            now = await service.info(match_id)
            await service.play(match_id, users[now.to_act[0]], "take3")
            return await original(match_id, mutate)

        store.update_settings = finish_first  # type: ignore[method-assign]
        assert await ratings.set_rated(store, info.id, False) is False
        after = await service.info(info.id)
        assert after.status == "finished" and "rated" not in after.settings
        assert len(await ratings.leaderboard(store, "", "test-pile")) == 2  # rated as it was
        assert await ratings.set_rated(store, info.id, True) is False
    finally:
        await service.close()
