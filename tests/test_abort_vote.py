"""Aborting a running match is a vote of the people seated in it (more than half), the
creator alone only closes a lobby, and racing last votes abort once: one log row, one
final post. On both storage backends, with two service instances sharing the database."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from pathlib import Path

import pytest

from bot.matches.errors import NotAllowed
from bot.matches.service import MatchService
from tests.conftest import ALICE, BOB, MALLORY
from tests.reliability_helpers import PLAYERS, start_match


async def final_posts(service: MatchService, match_id: int) -> list[dict]:
    cur = await service.store._reader.execute(
        "SELECT payload FROM outbox WHERE match_id = ? AND kind = 'turn'", (match_id,)
    )
    return [p for (raw,) in await cur.fetchall() if (p := json.loads(raw))["final"]]


async def test_racing_last_votes_abort_once(database: str | Path) -> None:
    a = await MatchService.open(database, render=False)
    b = await MatchService.open(database, render=False)
    try:
        match_id = await start_match(a, "test-pile", players=3)
        ann, ben, cid = PLAYERS[:3]
        info = await a.abort(match_id, ann)
        assert info.status == "running" and info.settings["abort_votes"] == [ann.id]
        with pytest.raises(NotAllowed, match="already voted"):
            await b.abort(match_id, ann)
        results = await asyncio.gather(
            a.abort(match_id, ben),
            b.abort(match_id, cid),
            b.abort(match_id, ben),
            return_exceptions=True,
        )
        kinds = Counter(type(r).__name__ for r in results)
        assert kinds["MatchInfo"] >= 1 and set(kinds) <= {"MatchInfo", "NotAllowed"}, results
        info = await a.info(match_id)
        assert info.status == "aborted" and info.status_text.startswith("Aborted by a vote")
        assert [r.kind for r in await a.store.moves(match_id)] == ["abort"]
        assert len(await final_posts(a, match_id)) == 1
        with pytest.raises(NotAllowed, match="already over"):
            await a.abort(match_id, cid)
    finally:
        await a.close()
        await b.close()


async def test_majority_of_the_people_seated(database: str | Path) -> None:
    service = await MatchService.open(database, render=False)
    try:
        # four people: two votes are not a majority, the third is
        match_id = await start_match(service, "azul", players=4)
        for voter in PLAYERS[:2]:
            assert (await service.abort(match_id, voter)).status == "running"
        assert (await service.abort(match_id, PLAYERS[2])).status == "aborted"
        # computer seats do not vote: one person with two computers decides alone
        lobby = await service.create_match("test-pile", ALICE, {"size": 9})
        await service.add_computer(lobby.id, ALICE, "easy")
        await service.add_computer(lobby.id, ALICE, "easy")
        await service.start(lobby.id, ALICE)
        assert (await service.abort(lobby.id, ALICE)).status == "aborted"
        # a lobby: the creator closes it alone; another seated player cannot
        lobby = await service.create_match("test-pile", ALICE, {"size": 9})
        await service.join(lobby.id, BOB)
        with pytest.raises(NotAllowed, match="creator"):
            await service.abort(lobby.id, BOB)
        assert (await service.abort(lobby.id, ALICE)).status == "aborted"
        # a server manager ends a running match at once, and the reason is posted
        match_id = await start_match(service, "test-pile", players=2, seed=9)
        info = await service.abort(match_id, MALLORY, is_admin=True, reason="  cheating  ")
        assert info.status == "aborted"
        (post,) = await final_posts(service, match_id)
        assert "Aborted by a server manager (Mallory): cheating" in post["text"]
    finally:
        await service.close()
