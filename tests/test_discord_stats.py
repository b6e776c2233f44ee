"""``/leaderboard`` and ``/stats`` through the real discord.py dispatch (recorded stand-in
interactions, no network)."""

from __future__ import annotations

from typing import Any

from tests.discord_harness import GUILD_ID, Call, Harness, running, user_payload
from tests.ratings_helpers import play_result
from tests.reliability_helpers import PLAYERS

ANN, BEN, CID = PLAYERS[:3]


def reply(calls: list[Call]) -> Call:
    replies = [c for c in calls if c.via == "hook"]
    assert replies, calls
    return replies[-1]


async def _finish_some(h: Harness) -> None:
    guild = str(GUILD_ID)
    await play_result(h.service, {ANN.id: 3, BEN.id: 1}, guild_id=guild)
    await play_result(h.service, {ANN.id: 3, CID.id: 1}, guild_id=guild)
    await play_result(h.service, {BEN.id: 3, CID.id: 1}, guild_id=guild)
    await play_result(h.service, {CID.id: 3, BEN.id: 1}, guild_id="555")  # another server


async def test_leaderboard_lists_this_servers_ratings(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        empty = reply(await h.slash(ANN, "leaderboard", game="test-pile"))
        assert empty.content == "Nobody on this server has a rating in Pile yet."
        await _finish_some(h)
        board = reply(await h.slash(BEN, "leaderboard", game="test-pile"))
        lines = board.content.splitlines()
        assert lines[0].startswith("**Pile** leaderboard")
        assert [line.split(" — ")[0] for line in lines[1:]] == ["1. Ann", "2. Ben", "3. Cid"]
        assert lines[1].endswith("· 2 games") and " ± " in lines[1]
        assert not board.ephemeral


async def _stats_for(h: Harness, asker: Any, user: Any) -> Call:
    """``/stats player user:@user``: a user option comes with its resolved user."""
    command, data, options = h._command("stats player")
    options.append({"name": "user", "type": 6, "value": user.id})
    data["resolved"] = {"users": {user.id: user_payload(user)}}
    payload = h._base(asker, 500, 2, "en-US")
    payload["data"] = data
    return reply(await h._feed(payload))


async def test_stats_of_a_player_and_of_the_server(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        await _finish_some(h)
        mine = reply(await h.slash(ANN, "stats player"))
        assert mine.content.startswith("**Stats of Ann** on this server:")
        assert "played 2 · finished 2 · won 2" in mine.content
        assert "longest win streak 2" in mine.content
        assert "Favourite opponents: Ben (1), Cid (1)" in mine.content
        cid = await _stats_for(h, ANN, CID)
        assert "**Stats of Cid**" in cid.content
        assert "played 2 · finished 2 · won 0" in cid.content  # server 555 not counted
        none = reply(await h.slash(ANN, "stats player", game="azul"))
        assert none.content == "Ann has not played a match on this server yet."
        server = reply(await h.slash(ANN, "stats server"))
        assert "matches: 3 (finished: 3, running: 0, aborted: 0) · players: 3 · moves: 6" in (
            server.content
        )


async def test_final_post_shows_rating_changes_then_the_score_chart(tmp_path, monkeypatch) -> None:
    from tests.conftest import ALICE, BOB

    async with running(tmp_path, monkeypatch) as h:
        calls = await h.slash(ALICE, "game new", game="test-pile", options="size=3", players=2)
        match_id = int(next(c for c in calls if c.custom_ids).custom_ids[0].split(":")[2])
        thread = int((await h.service.info(match_id)).thread_id or 0)
        await h.click(BOB, f"tl:join:{match_id}", channel=thread)
        await h.click(ALICE, f"tl:start:{match_id}", channel=thread)
        await h.deliver()
        info = await h.service.info(match_id)
        mover = ALICE if info.to_act == [ALICE.id] else BOB
        await h.slash(mover, "play", channel=thread, move="take3")
        before = len(h.fake.calls)
        await h.deliver()
        posts = [
            c for c in h.fake.calls[before:] if c.via == "rest" and c.method == "POST"
            and c.path == "/channels/{channel_id}/messages"
        ]  # fmt: skip
        assert len(posts) == 2
        final, chart = posts
        assert f"🏆 {mover.name} wins!" in final.content
        assert "Ratings (μ ± σ, change of μ − 3σ):" in final.content
        assert f"{mover.name}: " in final.content.split("Ratings")[1]
        assert chart.layout and chart.content.splitlines() == [
            f"### Pile · match #{match_id}",
            f"📈 How the scores went in match #{match_id}.",
        ]
        assert chart.files == [f"match-{match_id}-scores.png"]
        assert str(thread) in chart.url
