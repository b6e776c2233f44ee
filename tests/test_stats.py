"""Stats on a store seeded with matches of known timestamps (a fake clock under the store)."""

from __future__ import annotations

import time
import types

import pytest

import bot.storage.clock
from bot.community import stats
from bot.matches.reports import User
from bot.matches.service import MatchService
from tests.ratings_helpers import play_result
from tests.reliability_helpers import PLAYERS, start_match

ANN, BEN, CID = "2001", "2002", "2003"


class Clock:
    """The store's ``time`` module: real time at the start, then only what a test adds."""

    def __init__(self) -> None:
        self.now = float(int(time.time()))
        self.step = 0.0
        self.module = types.SimpleNamespace(time=lambda: self.now)

    def then(self, *delays: float) -> object:
        """Before each move, move the clock on by the next delay."""
        pending = list(delays)

        def tick() -> None:
            self.now += pending.pop(0)

        return tick


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    c = Clock()
    monkeypatch.setattr(bot.storage.clock, "time", c.module)
    return c


async def _seed(service: MatchService, clock: Clock) -> int:
    """Four finished matches and one running on server 100, one on server 200. Times to
    move (first move of a match has none): Ben 600, Ann 3600, Ann 60 + Ben 120, Ann 7200."""
    await play_result(service, {ANN: 3, BEN: 1}, before_move=clock.then(10, 600))  # type: ignore[arg-type]
    await play_result(service, {BEN: 3, ANN: 1}, before_move=clock.then(10, 3600))  # type: ignore[arg-type]
    await play_result(service, {CID: 1, ANN: 3, BEN: 2}, before_move=clock.then(10, 60, 120))  # type: ignore[arg-type]
    await play_result(service, {CID: 1, ANN: 3}, before_move=clock.then(10, 7200))  # type: ignore[arg-type]
    running = await service.create_match("test-pile", PLAYERS[0], max_players=2, guild_id="100")
    await service.join(running.id, PLAYERS[1])
    await service.start(running.id, PLAYERS[0])
    await play_result(service, {ANN: 1, BEN: 3}, guild_id="200")
    return running.id


async def test_player_stats_from_known_timestamps(service: MatchService, clock: Clock) -> None:
    start = clock.now
    await _seed(service, clock)
    facts = await stats.load_facts(service.store, guild_id="100", user_id=ANN)
    ann = stats.player_stats(facts, ANN, "Ann")
    assert (ann.total.played, ann.total.finished, ann.total.won) == (5, 4, 3)
    assert sorted(ann.total.move_times) == [60, 3600, 7200]
    assert ann.total.average == pytest.approx(3620)
    assert ann.total.median == 3600
    assert ann.total.longest_streak == 2  # won, lost, won, won
    assert ann.opponents == [("Ben", 4), ("Cid", 2)]  # the running match counts
    assert list(ann.by_game) == ["test-pile"]

    facts = await stats.load_facts(service.store, guild_id="100", user_id=BEN)
    ben = stats.player_stats(facts, BEN, "Ben")
    assert (ben.total.played, ben.total.finished, ben.total.won) == (4, 3, 1)
    assert sorted(ben.total.move_times) == [120, 600]
    assert ben.total.median == 360
    assert ben.total.longest_streak == 1

    lines = await stats.player_report(service.store, "100", ANN, "Ann")
    assert lines[0] == "**Stats of Ann** on this server:"
    assert "played 5 · finished 4 · won 3" in lines[1]
    assert "1 h 0 min on average, 1 h 0 min median · longest win streak 2" in lines[1]
    assert lines[-2] == "Favourite opponents: Ben (4), Cid (2)"
    # dates as Discord timestamps: the first match opened at the clock's start; Ann's own
    # latest move on this server is her last in the fourth match, when the clock stopped
    assert lines[-1] == f"First match <t:{int(start)}:D> · latest move <t:{int(clock.now)}:R>"
    # another game: nothing played
    none = await stats.player_report(service.store, "100", ANN, "Ann", game_id="azul")
    assert none == ["Ann has not played a match on this server yet."]


async def test_server_stats_from_known_timestamps(service: MatchService, clock: Clock) -> None:
    start = clock.now
    await _seed(service, clock)
    server = stats.server_stats(await stats.load_facts(service.store, guild_id="100"))
    f = server.total
    assert (f.played, f.finished, f.running, f.aborted) == (5, 4, 1, 0)
    assert f.players == {ANN, BEN, CID}
    assert f.moves == 9
    assert f.median == 600  # of 60, 120, 600, 3600, 7200
    lines = await stats.server_report(service.store, "100")
    assert "matches: 5 (finished: 4, running: 1, aborted: 0) · players: 3 · moves: 9" in lines[1]
    assert lines[1].endswith("median time to move 10 min 0 s")
    assert lines[-1] == f"First match <t:{int(start)}:D> · latest move <t:{int(clock.now)}:R>"


def test_durations_read_as_people_say_them() -> None:
    assert stats.duration(None) == "–"
    assert stats.duration(0) == "0 s"
    assert stats.duration(59.6) == "1 min 0 s"
    assert stats.duration(3 * 86400 + 4 * 3600 + 59) == "3 d 4 h"


async def test_a_seat_handed_on_counts_as_played_for_both_won_for_the_last(
    service: MatchService,
) -> None:
    """Ann hands her seat to Eve mid-match and Eve wins with it: the match counts as
    played (not won) for Ann, played and won for Eve; both are among the people met."""
    ann, ben, cid = PLAYERS[:3]
    eve = User("2005", "Eve")
    match_id = await start_match(service, "test-pile", players=3)
    first = await service.info(match_id)
    await service.play(match_id, next(p for p in PLAYERS if p.id == first.to_act[0]), "take1")
    offer = (await service.offer_seat(match_id, ann, eve)).proposal["id"]
    await service.answer_sub(match_id, eve, 0, offer, True)
    for _ in range(60):
        info = await service.info(match_id)
        if info.status != "running":
            break
        seat = info.seat_of(info.to_act[0])
        holder = User(info.seats[seat].user_id, info.seats[seat].name)
        legal = [m.notation for m in await service.legal_moves(match_id, holder)]
        await service.play(match_id, holder, legal[-1] if seat == 0 else legal[0])
    assert info.status == "finished" and info.seats[0].user_id == eve.id
    facts = await stats.load_facts(service.store, guild_id="100")
    assert facts[0].winners == {eve.id}  # the seat Ann handed on won

    got = {}
    for who in (ann, eve, ben):
        mine = await stats.load_facts(service.store, guild_id="100", user_id=who.id)
        got[who.id] = stats.player_stats(mine, who.id, who.name)
    assert (got[ann.id].total.played, got[ann.id].total.won) == (1, 0)
    assert (got[eve.id].total.played, got[eve.id].total.won) == (1, 1)
    assert got[eve.id].total.longest_streak == 1 and got[ann.id].total.longest_streak == 0
    assert dict(got[ben.id].opponents) == {"Ann": 1, "Cid": 1, "Eve": 1}
    assert dict(got[ann.id].opponents) == {"Ben": 1, "Cid": 1, "Eve": 1}
    server = stats.server_stats(facts)
    assert server.total.players == {ann.id, ben.id, cid.id, eve.id}
    lines = await stats.player_report(service.store, "100", ann.id, "Ann")
    assert "played 1 · finished 1 · won 0" in lines[1]
