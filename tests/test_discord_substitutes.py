"""``/game sub`` through the real discord.py dispatch: handing your seat on (strangers'
clicks refused privately, the named person takes it, /hand follows the seat), a vote on a
resigned seat, a vote of a computer into the seat of a player who left the server (learnt
from Discord's "Unknown Member" answer, or from the member-remove event), with a double
click racing the decision."""

from __future__ import annotations

import asyncio

from bot.computers.players import is_computer
from bot.matches.reports import User
from tests.conftest import ALICE, BOB, CAROL, MALLORY
from tests.discord_harness import GUILD_ID, Call, Harness, http_error, running, user_payload

EVE = User("1005", "Eve")


def reply(calls: list[Call]) -> Call:
    replies = [c for c in calls if c.via == "hook"]
    assert replies, calls
    return replies[-1]


def posts(h: Harness) -> list[str]:
    return [c.content for c in h.fake.created if c.path == "/channels/{channel_id}/messages"]


async def three_players(h: Harness) -> tuple[int, int]:
    calls = await h.slash(ALICE, "game new", game="test-pile", options="size=9")
    lobby = next(c for c in calls if any(i.startswith("tl:join:") for i in c.custom_ids))
    match_id = int(lobby.custom_ids[0].split(":")[2])
    thread = int((await h.service.info(match_id)).thread_id or 0)
    await h.click(BOB, f"tl:join:{match_id}", channel=thread)
    await h.click(CAROL, f"tl:join:{match_id}", channel=thread)
    await h.click(ALICE, f"tl:start:{match_id}", channel=thread)
    await h.deliver()
    return match_id, thread


def button(call: Call, action: str) -> str:
    return next(i for i in call.custom_ids if i.startswith(f"tu:{action}:"))


async def test_hand_your_seat_to_someone(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread = await three_players(h)
        refused = reply(await h.slash(ALICE, "game sub", channel=thread))
        assert refused.ephemeral and "Name who should take over" in refused.content
        offer = reply(await h.slash(ALICE, "game sub", channel=thread, new=EVE))
        assert not offer.ephemeral and "Alice offers their seat" in offer.content
        assert f"<@{EVE.id}>" in offer.content
        assert [str(u) for u in offer.data["allowed_mentions"]["users"]] == [EVE.id]
        take = button(offer, "take")
        # a stranger and another player pressing Take are refused privately; nothing moves
        for who in (MALLORY, BOB):
            no = reply(await h.click(who, take, channel=thread))
            assert no.ephemeral and "offered to Eve; only they" in no.content
        no = reply(await h.click(BOB, button(offer, "withdraw"), channel=thread))
        assert no.ephemeral and "Only Alice, who made this offer" in no.content
        assert (await h.service.info(match_id)).seats[0].user_id == ALICE.id
        # Eve takes it: her answer is private, the offer's buttons come off its card
        calls = await h.click(EVE, take, channel=thread)
        assert any(
            c.callback_type == 7 and "Alice offers their seat" in c.content and not c.custom_ids
            for c in calls
        )
        done = reply(calls)
        assert done.ephemeral and "Eve holds seat 1" in done.content
        await h.deliver()
        assert any("Alice handed their seat to Eve" in p for p in posts(h))
        # the hand follows the seat: Eve sees it, Alice no longer does
        hand = reply(await h.slash(EVE, "hand", channel=thread))
        assert hand.ephemeral and hand.files == [f"hand-{match_id}.png"]
        gone = reply(await h.slash(ALICE, "hand", channel=thread))
        assert gone.ephemeral and "not your match" in gone.content
        # a second click on the spent button is answered in words
        late = reply(await h.click(EVE, take, channel=thread))
        assert late.ephemeral and "no longer open" in late.content


async def test_vote_a_substitute_into_a_resigned_seat(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread = await three_players(h)
        confirm = reply(await h.slash(CAROL, "resign", channel=thread))
        await h.click(CAROL, confirm.custom_ids[0], channel=thread)
        vote = reply(await h.slash(ALICE, "game sub", channel=thread, seat=3, new=EVE))
        assert not vote.ephemeral and "Alice proposes Eve for seat 3" in vote.content
        assert "1 of 2 needed" in vote.content
        assert {f"<@{EVE.id}>", f"<@{BOB.id}>"} <= set(vote.content.split()[-2:])
        early = reply(await h.click(EVE, button(vote, "take"), channel=thread))
        assert early.ephemeral and "as soon as the players' vote passes" in early.content
        stranger = reply(await h.click(MALLORY, button(vote, "yes"), channel=thread))
        assert stranger.ephemeral and "Only the players still seated" in stranger.content
        done = reply(await h.click(BOB, button(vote, "yes"), channel=thread))
        assert done.ephemeral and "Eve holds seat 3" in done.content
        assert (await h.service.info(match_id)).seats[2].user_id == EVE.id
        await h.deliver()
        assert any("By a vote of the players, Eve takes over seat 3" in p for p in posts(h))


async def test_a_computer_into_the_seat_of_a_player_who_left(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread = await three_players(h)
        # Bob is still a member (Discord knows him): his seat is not up for a vote
        taken = reply(await h.slash(ALICE, "game sub", channel=thread, seat=2, computer=True))
        assert taken.ephemeral and "Bob still plays seat 2" in taken.content
        # now Discord answers "Unknown Member": Bob left the server
        h.fake.fail("GET", f"/members/{BOB.id}", http_error(404, code=10007))
        vote = reply(await h.slash(ALICE, "game sub", channel=thread, seat=2, computer=True))
        assert not vote.ephemeral and "a computer player for seat 2" in vote.content
        assert "who left the server" in vote.content
        assert "take" not in {i.split(":")[1] for i in vote.custom_ids}  # nobody to accept
        # Carol double-clicks Yes: one vote, one handover
        first, second = await asyncio.gather(
            h.click(CAROL, button(vote, "yes"), channel=thread),
            h.click(CAROL, button(vote, "yes"), channel=thread),
        )
        # (concurrent feeds each see both answers: tell them apart by their words)
        answers = sorted({c.content for c in first + second if c.via == "hook" and c.content})
        assert any("holds seat 2" in a for a in answers), answers
        assert any("already voted" in a or "no longer open" in a for a in answers), answers
        rows = [r for r in await h.service.store.moves(match_id) if r.kind == "sub"]
        assert len(rows) == 1
        info = await h.service.info(match_id)
        assert is_computer(info.seats[1].user_id)
        await h.bot.computers.settle()  # the new computer seat plays when its turn comes


async def test_member_remove_event_invites_a_vote(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread = await three_players(h)
        h.bot._connection.parse_guild_member_remove(  # type: ignore[attr-defined]
            {"guild_id": str(GUILD_ID), "user": user_payload(CAROL)}
        )
        # discord.py runs each listener as its own task (named after the event); wait for
        # them to finish instead of counting turns of the loop: the listener's write goes
        # through aiosqlite's thread, which a busy machine may take many turns to answer
        listeners = [
            task
            for task in asyncio.all_tasks()
            if task.get_name().startswith("discord.py: on_raw_member_remove")
        ]
        assert listeners, "the member-remove event started no listener"
        await asyncio.gather(*listeners)
        assert CAROL.id in (await h.service.info(match_id)).settings.get("left", [])
        await h.deliver()
        assert any("Carol left the server" in p for p in posts(h))
        h.fake.fail("GET", f"/members/{CAROL.id}", http_error(404, code=10007))
        vote = reply(await h.slash(BOB, "game sub", channel=thread, seat=3, new=EVE))
        assert not vote.ephemeral and "who left the server" in vote.content
        await h.click(BOB, button(vote, "withdraw"), channel=thread)
        # Carol came back (Discord knows her again): her seat is hers, no vote opens
        again = reply(await h.slash(BOB, "game sub", channel=thread, seat=3, new=EVE))
        assert again.ephemeral and "Carol still plays seat 3" in again.content
        assert CAROL.id not in (await h.service.info(match_id)).settings["left"]
