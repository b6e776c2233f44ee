"""How a match ends early, through the real discord.py dispatch: resigning in a three-player
match (a computer plays the seat on and the resigner ranks last), aborting by a vote of
the players or by a server manager with a reason, and the posts that say what happened."""

from __future__ import annotations

from bot.computers.players import is_computer
from bot.matches.reports import User
from tests.conftest import ALICE, BOB, CAROL, MALLORY
from tests.discord_harness import Call, Harness, running

MANAGER = User("7777", "Manager")  # the harness gives this user Manage Server


def reply(calls: list[Call]) -> Call:
    replies = [c for c in calls if c.via == "hook"]
    assert replies, calls
    return replies[-1]


def posts(h: Harness) -> list[Call]:
    return [c for c in h.fake.created if c.path == "/channels/{channel_id}/messages"]


async def three_players(h: Harness, **options) -> tuple[int, int]:
    calls = await h.slash(ALICE, "game new", game="test-pile", options="size=9", **options)
    lobby = next(c for c in calls if any(i.startswith("tl:join:") for i in c.custom_ids))
    match_id = int(lobby.custom_ids[0].split(":")[2])
    await h.service.update_settings(match_id, think_seconds=0.05)
    thread = int((await h.service.info(match_id)).thread_id or 0)
    await h.click(BOB, f"tl:join:{match_id}", channel=thread)
    await h.click(CAROL, f"tl:join:{match_id}", channel=thread)
    await h.click(ALICE, f"tl:start:{match_id}", channel=thread)
    await h.deliver()
    return match_id, thread


async def test_resign_with_three_players_hands_the_seat_to_a_computer(
    tmp_path, monkeypatch
) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread = await three_players(h, level="easy")
        confirm = reply(await h.slash(BOB, "resign", channel=thread))
        assert confirm.ephemeral and "a computer player plays your seat" in confirm.content
        done = reply(await h.click(BOB, confirm.custom_ids[0], channel=thread))
        assert done.ephemeral and "plays your seat to the end" in done.content
        info = await h.service.info(match_id)
        assert info.status == "running" and info.seats[1].user_id.startswith("ai:easy:")
        await h.deliver()
        said = [p.content for p in posts(h) if "Bob resigned" in p.content]
        assert said and info.seats[1].name in said[0] and "ranked last" in said[0]
        # Bob's buttons and commands no longer act for the seat
        again = reply(await h.slash(BOB, "resign", channel=thread))
        assert again.ephemeral and "not your match" in again.content
        people = {ALICE.id: ALICE, CAROL.id: CAROL}
        for _ in range(60):
            await h.bot.computers.settle()
            await h.deliver()
            info = await h.service.info(match_id)
            if info.status != "running":
                break
            who = people[next(u for u in info.to_act if not is_computer(u))]
            moves = await h.service.legal_moves(match_id, who)
            await h.slash(who, "play", channel=thread, move=moves[0].notation)
        info = await h.service.info(match_id)
        assert info.status == "finished" and info.result is not None
        assert info.result["ranks"][1] == 3
        await h.deliver()
        final, chart = posts(h)[-2:]  # the final result, then its score chart
        assert "for Bob, who resigned" in final.content
        assert chart.files == [f"match-{match_id}-scores.png"]


async def test_abort_is_a_vote_of_the_players_or_a_managers_reason(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread = await three_players(h)
        r = reply(await h.slash(ALICE, "game abort", channel=thread))
        assert r.ephemeral and "counts (1 of the 2 needed)" in r.content
        assert (await h.service.info(match_id)).status == "running"
        await h.deliver()
        vote = posts(h)[-1]
        assert "Alice votes to abort" in vote.content and "The match goes on" in vote.content
        mentioned = {str(u) for u in vote.payload.get("allowed_mentions", {}).get("users", [])}
        assert mentioned == {BOB.id, CAROL.id}
        r = reply(await h.slash(ALICE, "game abort", channel=thread))
        assert r.ephemeral and "already voted" in r.content
        r = reply(await h.slash(MALLORY, "game abort", channel=thread))
        assert r.ephemeral and "Only the players" in r.content
        r = reply(await h.slash(CAROL, "game abort", channel=thread))
        assert f"Match #{match_id} was aborted" in r.content
        await h.deliver()
        final = posts(h)[-1]
        assert "Aborted by a vote of the players (Alice and Carol)" in final.content
        assert final.files and not final.custom_ids  # the final picture, no buttons

        # a server manager ends a running match at once with a reason, which is posted
        other, thread2 = await three_players(h)
        r = reply(await h.slash(MANAGER, "game abort", channel=thread2))
        assert r.ephemeral and "give a reason" in r.content
        r = reply(await h.slash(MANAGER, "game abort", reason="abusive names", channel=thread2))
        assert f"Match #{other} was aborted" in r.content
        await h.deliver()
        final = posts(h)[-1]
        assert "Aborted by a server manager (Manager): abusive names" in final.content
