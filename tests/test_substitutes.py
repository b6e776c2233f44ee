"""Substitutes through the match service: handing your own seat on (accept, decline,
strangers, withdraw, lapse), votes on a deserted seat (after a resign, after a player left
the server) with racing clicks on both storage backends, the new holder's hand and private
lines, the old holder's refusal, the record's holders and who the ratings count."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.community import ratings
from bot.computers.players import is_computer
from bot.matches.errors import NotAllowed
from bot.matches.holders import handovers
from bot.matches.reports import User
from bot.matches.service import MatchService
from bot.matches.substitutes import SUB_TTL_SECONDS
from tests.reliability_helpers import PLAYERS, start_match

ANN, BEN, CID, DEE = PLAYERS
EVE = User("2005", "Eve")
MALLORY = User("6666", "Mallory")


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[MatchService]:
    # pictures in threads: the Pile hand is a tiny picture, no worker processes needed
    svc = await MatchService.open(tmp_path / "s.db", render_processes=False)
    yield svc
    await svc.close()


async def posts(service: MatchService, match_id: int) -> list[dict]:
    cur = await service.store._reader.execute(
        "SELECT payload FROM outbox WHERE match_id = ? AND kind = 'turn' ORDER BY id",
        (match_id,),
    )
    return [json.loads(raw) for (raw,) in await cur.fetchall()]


async def sub_rows(service: MatchService, match_id: int) -> list:
    return [r for r in await service.store.moves(match_id) if r.kind == "sub"]


async def play_out(service: MatchService, match_id: int) -> None:
    """Whoever is to act takes counters until the Pile game ends (computers included:
    these tests are about seats, not about the computer driver)."""
    for _ in range(60):
        info = await service.info(match_id)
        if info.status != "running":
            return
        seat = info.seat_of(info.to_act[0])
        holder = info.seats[seat]
        await service.play(match_id, User(holder.user_id, holder.name), "take1")
    raise AssertionError("the match did not end")


async def test_own_seat_offer_accept_decline_and_strangers(service: MatchService) -> None:
    match_id = await start_match(service, "test-pile", players=3)
    with pytest.raises(NotAllowed, match="already plays"):
        await service.offer_seat(match_id, ANN, BEN)
    with pytest.raises(NotAllowed, match="already yours"):
        await service.offer_seat(match_id, ANN, ANN)
    with pytest.raises(NotAllowed, match="not playing"):  # only a holder offers a seat
        await service.offer_seat(match_id, MALLORY, EVE)
    state = await service.offer_seat(match_id, ANN, EVE)
    assert state.status == "open" and state.proposal["to"] == EVE.id
    offer = state.proposal["id"]
    # strangers and other players cannot take or withdraw it, nor vote on it
    with pytest.raises(NotAllowed, match="offered to Eve; only they"):
        await service.answer_sub(match_id, MALLORY, 0, offer, True)
    with pytest.raises(NotAllowed, match="offered to Eve; only they"):
        await service.answer_sub(match_id, BEN, 0, offer, True)
    with pytest.raises(NotAllowed, match="Only Ann, who made this offer"):
        await service.withdraw_sub(match_id, BEN, 0, offer)
    with pytest.raises(NotAllowed, match="nothing to vote on"):
        await service.vote_sub(match_id, BEN, 0, offer, True)
    # Eve declines: the offer is gone, the thread is told, Ann still holds the seat
    declined = await service.answer_sub(match_id, EVE, 0, offer, False)
    assert declined.status == "declined"
    assert "Eve declined seat 1" in (await posts(service, match_id))[-1]["text"]
    with pytest.raises(NotAllowed, match="no longer open"):
        await service.answer_sub(match_id, EVE, 0, offer, True)
    assert (await service.info(match_id)).seats[0].user_id == ANN.id

    # a second offer; Eve takes the seat with the seat's hand and turn
    offer = (await service.offer_seat(match_id, ANN, EVE)).proposal["id"]
    done = await service.answer_sub(match_id, EVE, 0, offer, True)
    assert done.status == "done" and done.report is not None
    info = await service.info(match_id)
    assert info.seats[0].user_id == EVE.id and info.seat_of(ANN.id) is None
    post = (await posts(service, match_id))[-1]
    assert "Ann handed their seat to Eve" in post["text"]
    assert (EVE.id in post["mentions"]) == (EVE.id in info.to_act)
    assert await service.open_subs(match_id) == []
    with pytest.raises(NotAllowed, match="no longer open"):  # a double click
        await service.answer_sub(match_id, EVE, 0, offer, True)

    # the old holder lost the seat; the new holder moves, sees the hand, gets private words
    with pytest.raises(NotAllowed):
        await service.hand(match_id, ANN)
    png, view = await service.hand(match_id, EVE)
    assert png.startswith(b"\x89PNG") and view["seat"] == 0
    while (await service.info(match_id)).to_act != [EVE.id]:
        info = await service.info(match_id)
        holder = info.seats[info.seat_of(info.to_act[0])]
        await service.play(match_id, User(holder.user_id, holder.name), "take1")
    with pytest.raises(NotAllowed):
        await service.play(match_id, ANN, "draw")
    report = await service.play(match_id, EVE, "draw")
    assert list(report.private) == [EVE.id]
    _, view = await service.hand(match_id, EVE)
    assert len(view["hand"]) == 1

    # the record lists both holders; the ratings count Eve, not Ann (she handed it on)
    await play_out(service, match_id)
    record = await service.export_record(match_id)
    sub_ply = (await sub_rows(service, match_id))[0].ply
    assert record["players"][0]["holders"] == [
        {"name": "Ann", "from_ply": 0, "how": "start"},
        {"name": "Eve", "from_ply": sub_ply, "how": "sub.own"},
    ]
    assert record["players"][1]["holders"] == [{"name": "Ben", "from_ply": 0, "how": "start"}]
    rated = {c.user_id for c in await ratings.match_changes(service.store._reader, match_id)}
    assert rated == {EVE.id, BEN.id, CID.id}
    assert await service.audit() == []


async def test_offer_withdraw_and_lapse(service: MatchService) -> None:
    match_id = await start_match(service, "test-pile", players=2)
    offer = (await service.offer_seat(match_id, BEN, EVE)).proposal["id"]
    assert (await service.withdraw_sub(match_id, BEN, 1, offer)).status == "withdrawn"
    assert "Ben withdrew the offer of seat 2" in (await posts(service, match_id))[-1]["text"]
    with pytest.raises(NotAllowed, match="no longer open"):
        await service.answer_sub(match_id, EVE, 1, offer, True)
    # an offer three days old has lapsed
    offer = (await service.offer_seat(match_id, BEN, EVE)).proposal["id"]

    def age(settings: dict, _version: int) -> dict:
        settings["subs"]["1"]["at"] -= SUB_TTL_SECONDS + 1
        return settings

    await service.store.update_settings(match_id, age)
    assert await service.open_subs(match_id) == []
    with pytest.raises(NotAllowed, match="no longer open"):
        await service.answer_sub(match_id, EVE, 1, offer, True)
    # an offer whose seat changed hands meanwhile (Ben resigned) cannot be taken
    offer = (await service.offer_seat(match_id, BEN, EVE)).proposal["id"]
    await service.resign(match_id, BEN)
    with pytest.raises(NotAllowed):
        await service.answer_sub(match_id, EVE, 1, offer, True)


async def test_vote_a_substitute_into_a_resigned_seat(service: MatchService) -> None:
    """Cid resigns (a computer plays on); Ann proposes Eve; the seat is not free for the
    taking until a majority of the people still seated agree and Eve accepts."""
    match_id = await start_match(service, "test-pile", players=3)
    with pytest.raises(NotAllowed, match="still plays seat 3"):
        await service.propose_sub(match_id, ANN, 2, EVE)
    await service.resign(match_id, CID)
    with pytest.raises(NotAllowed, match="gave up a seat"):  # no way back for a resigner
        await service.propose_sub(match_id, ANN, 2, CID)
    with pytest.raises(NotAllowed, match="There is no seat 5"):
        await service.propose_sub(match_id, ANN, 4, EVE)
    with pytest.raises(NotAllowed, match="not playing"):
        await service.propose_sub(match_id, MALLORY, 2, EVE)
    state = await service.propose_sub(match_id, ANN, 2, EVE)
    assert (state.status, state.votes, state.needed) == ("open", 1, 2)
    vote = state.proposal["id"]
    with pytest.raises(NotAllowed, match="already open"):
        await service.propose_sub(match_id, BEN, 2, None)
    with pytest.raises(NotAllowed, match="already voted"):
        await service.vote_sub(match_id, ANN, 2, vote, True)
    with pytest.raises(NotAllowed, match="not playing|still seated"):
        await service.vote_sub(match_id, EVE, 2, vote, True)
    # Eve accepts before the vote has passed: she waits
    early = await service.answer_sub(match_id, EVE, 2, vote, True)
    assert early.status == "open" and early.votes == 1
    assert is_computer((await service.info(match_id)).seats[2].user_id)
    done = await service.vote_sub(match_id, BEN, 2, vote, True)
    assert done.status == "done"
    info = await service.info(match_id)
    assert info.seats[2].user_id == EVE.id
    assert (
        "By a vote of the players, Eve takes over seat 3"
        in (await posts(service, match_id))[-1]["text"]
    )

    # the record: Cid, then the computer from the resign, then Eve from the vote
    await play_out(service, match_id)
    holders = (await service.export_record(match_id))["players"][2]["holders"]
    assert [(h["name"], h["how"]) for h in holders] == [
        ("Cid", "start"),
        (holders[1]["name"], "resign"),
        ("Eve", "sub.vote"),
    ]
    assert holders[1]["computer"] and holders[1]["from_ply"] < holders[2]["from_ply"]
    # Eve played the seat on, so it ranks by its score; Cid, who resigned, is rated last
    info = await service.info(match_id)
    assert info.result is not None and "gave_up" not in info.result
    changes = await ratings.match_changes(service.store._reader, match_id)
    assert {c.user_id for c in changes} == {ANN.id, BEN.id, CID.id, EVE.id}
    people = ratings.rated_people(
        [(s.user_id, s.name) for s in info.seats],
        info.result,
        info.settings,
        handovers(await service.store.moves(match_id)),
    )
    ranks = {uid: rank for uid, _, rank in people}
    assert ranks[CID.id] > max(r for u, r in ranks.items() if u != CID.id)


async def test_a_vote_can_fail(service: MatchService) -> None:
    match_id = await start_match(service, "azul", players=4)
    await service.resign(match_id, DEE)
    vote = (await service.propose_sub(match_id, ANN, 3, EVE)).proposal["id"]
    assert (await service.vote_sub(match_id, BEN, 3, vote, False)).status == "open"
    failed = await service.vote_sub(match_id, CID, 3, vote, False)
    assert failed.status == "failed"
    assert "failed" in (await posts(service, match_id))[-1]["text"]
    assert await service.open_subs(match_id) == []
    assert is_computer((await service.info(match_id)).seats[3].user_id)


async def test_racing_votes_put_a_computer_into_a_left_players_seat(
    database: str | Path,
) -> None:
    """Ben left the server; the others vote a computer into his seat. The last two votes
    arrive at the same moment from two bot processes (and one is double-clicked): each
    counts once and the seat changes hands once."""
    a = await MatchService.open(database, render=False)
    b = await MatchService.open(database, render=False)
    try:
        match_id = await start_match(a, "azul", players=4, guild_id="100")
        with pytest.raises(NotAllowed, match="still plays seat 2"):
            await a.propose_sub(match_id, ANN, 1, None)
        assert await a.player_left("100", BEN.id) == [match_id]
        assert await a.player_left("100", BEN.id) == []  # told once
        note = (await posts(a, match_id))[-1]
        assert "Ben left the server" in note["text"] and set(note["mentions"]) == {
            ANN.id,
            CID.id,
            DEE.id,
        }
        state = await a.propose_sub(match_id, ANN, 1, None)
        assert (state.votes, state.needed) == (1, 2)  # Ann, Cid, Dee vote; Ben has left
        vote = state.proposal["id"]
        results = await asyncio.gather(
            a.vote_sub(match_id, CID, 1, vote, True),
            b.vote_sub(match_id, DEE, 1, vote, True),
            b.vote_sub(match_id, CID, 1, vote, True),
            return_exceptions=True,
        )
        kinds = Counter(getattr(r, "status", type(r).__name__) for r in results)
        assert kinds["done"] >= 1 and set(kinds) <= {"done", "NotAllowed"}, results
        assert len(await sub_rows(a, match_id)) == 1
        info = await a.info(match_id)
        assert is_computer(info.seats[1].user_id) and info.seat_of(BEN.id) is None
        holders = (await a.export_record(match_id))["players"][1]["holders"]
        assert [h["how"] for h in holders] == ["start", "sub.vote"]
        # a computer that replaced a person may itself be voted out again for a person
        state = await a.propose_sub(match_id, CID, 1, EVE)
        assert state.proposal["why"] == "computer"
        assert await a.audit() == []
    finally:
        await a.close()
        await b.close()


async def test_racing_accept_and_last_vote_hand_over_once(service: MatchService) -> None:
    match_id = await start_match(service, "test-pile", players=3)
    await service.resign(match_id, CID)
    vote = (await service.propose_sub(match_id, ANN, 2, EVE)).proposal["id"]
    results = await asyncio.gather(
        service.vote_sub(match_id, BEN, 2, vote, True),
        service.answer_sub(match_id, EVE, 2, vote, True),
        service.answer_sub(match_id, EVE, 2, vote, True),
        return_exceptions=True,
    )
    assert "done" in {getattr(r, "status", None) for r in results}, results
    assert len(await sub_rows(service, match_id)) == 1
    assert (await service.info(match_id)).seats[2].user_id == EVE.id
