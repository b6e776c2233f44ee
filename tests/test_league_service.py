"""Whole leagues through the league service (bot/community/leagues/service.py): a 9-player
Swiss of Taj Mahal at tables of three, an 8-player round robin of Azul with a restart in the
middle of a round, a league where one player leaves and one match is decided by its clock;
each checked against a recount from the matches themselves. Matches are finished fast:
random legal moves for a few, resignations and clock forfeits (genuine results, through the
same service) for the rest."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.community import ratings
from bot.community.leagues import Leagues, RoundInfo, Standings
from bot.matches.errors import ServiceError
from bot.matches.reports import User
from bot.matches.service import MatchService
from bot.storage.leagues import LeagueClaimLost, LeagueTables
from rules import get_game

MANAGER = User("900", "Mona")


def people(n: int) -> list[User]:
    return [User(str(3000 + i), f"P{i}") for i in range(n)]


async def play_out(svc: MatchService, match_id: int, rng: random.Random) -> None:
    """Random legal moves, for people and computers alike, until the match ends."""
    while True:
        match = await svc.store.get_match(match_id)
        assert match is not None
        if match.status != "running" or match.state is None:
            return
        game = get_game(match.game_id)
        seat = game.to_act(match.state)[0]
        move = rng.choice(game.legal_moves(match.state, seat))
        holder = match.seats[seat]
        await svc.play(match_id, User(holder.user_id, holder.name), move.notation)


async def give_up(svc: MatchService, match_id: int, rng: random.Random) -> None:
    """End a match fast with a genuine result: its people resign in a random order (at a
    table of three a computer plays each seat on; the last resignation ends it)."""
    info = await svc.info(match_id)
    order = [s for s in info.seats if not s.user_id.startswith("ai:")]
    rng.shuffle(order)
    for seat in order:
        if (await svc.info(match_id)).status != "running":
            return
        await svc.resign(match_id, User(seat.user_id, seat.name))


async def time_out(svc: MatchService, match_id: int) -> None:
    """The seat the match waits for runs out of time and forfeits (what the scheduler does
    when ``clock_days`` pass)."""
    info = await svc.info(match_id)
    await svc.expire_turn(match_id, info.version, "forfeit")


async def recount(svc: MatchService, league_id: int, k: int) -> dict[str, tuple[float, int]]:
    """Each player's (points, played), counted here from the matches' stored results:
    ``k - place``, a shared place the mean of the places it covers; a bye as documented."""
    found: dict[str, list[float]] = {}
    for row in await svc.store.league_matches(league_id):
        info = await svc.info(row.match_id)
        if info.status != "finished" or not info.result:
            continue
        ranks = info.result["ranks"]
        for seat, uid in enumerate(info.settings["league"]["entrants"]):
            tied = ranks.count(ranks[seat])
            points = (k - ranks[seat]) - (tied - 1) / 2
            found.setdefault(uid or "computers", []).append(points)
    byes = await svc.store.league_byes(league_id)
    for uids in byes.values():
        for uid in uids:
            found.setdefault(uid, []).append(1.0 if k == 2 else (k - 1) / 2)
    played = Counter(uid for uids in byes.values() for uid in uids)
    return {uid: (sum(p), len(p) - played[uid]) for uid, p in found.items()}


async def recount_people(svc: MatchService, league_id: int, k: int) -> dict[str, tuple[float, int]]:
    counted = await recount(svc, league_id, k)
    counted.pop("computers", None)
    return counted


def as_counted(table: Standings) -> dict[str, tuple[float, int]]:
    return {r.user_id: (r.points, r.played) for r in table.rows if r.points or r.played}


async def meetings(svc: MatchService, league_id: int) -> Counter[frozenset[str]]:
    met: Counter[frozenset[str]] = Counter()
    for row in await svc.store.league_matches(league_id):
        here = [u for u in row.entrants if u is not None]
        met.update(frozenset(p) for p in itertools.combinations(here, 2))
    return met


async def outbox(svc: MatchService) -> list[tuple[int, int | None, str, dict[str, Any]]]:
    cur = await svc.store._reader.execute(
        "SELECT id, match_id, kind, payload FROM outbox ORDER BY id"
    )
    return [(r[0], r[1], r[2], json.loads(r[3])) for r in await cur.fetchall()]


async def check_posts(svc: MatchService, league_id: int) -> list[str]:
    """Every league match's first outbox row is its thread row, before its first turn
    post; returns the league's announcements (event:round) in order."""
    rows = await outbox(svc)
    for lm in await svc.store.league_matches(league_id):
        mine = [r for r in rows if r[1] == lm.match_id]
        assert [r[2] for r in mine[:2]] == ["league_thread", "turn"], mine[:2]
        thread = mine[0][3]
        assert (thread["match_id"], thread["round"], thread["table"]) == (
            lm.match_id,
            lm.round,
            lm.table,
        )
    return [
        f"{p['event']}:{p['round']}" for _, _, kind, p in rows if kind == "league"
        if p["league_id"] == league_id
    ]  # fmt: skip


async def test_nine_player_swiss_of_taj_mahal_at_tables_of_three(tmp_path: Path) -> None:
    svc = await MatchService.open(tmp_path / "l.db", render=False)
    leagues = Leagues(svc)
    rng = random.Random(46)
    try:
        league = await leagues.create(
            server_id="77", channel_id="88", creator=MANAGER, game_id="taj-mahal",
            format="swiss", players_per_table=3, seed=46,
        )  # fmt: skip
        players = people(9)
        for p in players:
            await leagues.join(league.id, p)
        rnd: RoundInfo = await leagues.start(league.id, MANAGER, manager=False)  # the creator
        assert (rnd.event, rnd.round, rnd.league.rounds, rnd.byes) == ("round", 1, 3, [])
        leaver = None
        while rnd.event == "round":
            assert len(rnd.tables) == 3
            for table in rnd.tables:
                info = await svc.info(table.match_id)
                assert info.status == "running" and info.settings["hints"] is False
                assert info.to_act == [table.seats[0].user_id]  # the seating's first player
                assert info.settings["clock_days"] == 3.0 and info.settings["rated"] is True
                assert info.settings["league"] == {
                    "id": league.id, "round": rnd.round, "table": table.table,
                    "entrants": [s.user_id if not s.user_id.startswith("ai:") else None
                                 for s in table.seats],
                }  # fmt: skip
                assert leaver is None or all(s.user_id != leaver.id for s in table.seats)
            if rnd.round == 2:  # one leaves mid-round: a computer takes their seat
                table = rnd.tables[1]
                leaver = User(table.seats[0].user_id, table.seats[0].name)
                await leagues.leave(league.id, leaver)
                info = await svc.info(table.match_id)
                assert info.status == "running" and info.seats[0].user_id.startswith("ai:")
            for number, table in enumerate(rnd.tables):
                if rnd.round == 1 and number == 0:
                    await play_out(svc, table.match_id, rng)
                else:
                    await give_up(svc, table.match_id, rng)
                    await play_out(svc, table.match_id, rng)  # computers play it out
            (rnd,) = await leagues.advance()  # the round ended: the next, or the end
        assert rnd.event == "final" and rnd.league.status == "finished"
        assert max((await meetings(svc, league.id)).values()) == 1
        board = await leagues.standings(league.id)
        assert board.status == "finished" and board.round == 3 and board.open_matches == 0
        assert as_counted(board) == await recount_people(svc, league.id, 3)
        computers = (await recount(svc, league.id, 3)).get("computers", (0.0, 0))[0]
        # 3 rounds of 3 tables of 2+1+0 points (one computer at a table in round 3)
        assert sum(r.points for r in board.rows) + computers == 3 * 3 * 3
        assert [r.active for r in board.rows].count(False) == 1
        assert await check_posts(svc, league.id) == [
            "signup:0", "round:1", "round:2", "round:3", "final:3",
        ]  # fmt: skip
        # rated as any rated match: the match played out changed its people's ratings
        first = (await svc.store.league_matches(league.id))[0]
        assert len(await ratings.match_changes(svc.store._reader, first.match_id)) == 3
    finally:
        await svc.close()


async def test_eight_player_round_robin_of_azul_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "rr.db"
    svc = await MatchService.open(path, render=False)
    leagues = Leagues(svc)
    rng = random.Random(8)
    players = people(8)
    try:
        league = await leagues.create(
            server_id="77", channel_id="88", creator=MANAGER, game_id="azul",
            format="round-robin", rated=False, language="de", seed=8,
        )  # fmt: skip
        for p in players:
            await leagues.join(league.id, p)
        rnd = await leagues.start(league.id, User("5", "Someone"), manager=True)
        assert rnd.league.rounds == 7 and rnd.league.players_per_table == 2
        while rnd.event == "round":
            assert len(rnd.tables) == 4 and not rnd.byes
            for number, table in enumerate(rnd.tables):
                info = await svc.info(table.match_id)
                assert info.settings["language"] == "de" and info.settings["rated"] is False
                if info.version == 1:  # not played yet: the seating's first player begins
                    assert info.to_act == [table.seats[0].user_id]
                if rnd.round == 4 and number == 2:  # a restart in the middle of round 4
                    before = await leagues.standings(league.id)
                    await svc.close()
                    svc = await MatchService.open(path, render=False)
                    leagues = Leagues(svc)
                    assert await leagues.advance() == []  # two matches still running
                    after = await leagues.standings(league.id)
                    assert (after.rows, after.round, after.open_matches) == (
                        before.rows,
                        4,
                        2,
                    )
                if (rnd.round, number) in ((1, 0), (5, 1)):
                    await play_out(svc, table.match_id, rng)
                elif number % 2:
                    await time_out(svc, table.match_id)
                else:
                    await give_up(svc, table.match_id, rng)
            (rnd,) = await leagues.advance()
        assert rnd.event == "final"
        met = await meetings(svc, league.id)
        assert len(met) == 28 and set(met.values()) == {1}  # everyone met everyone once
        firsts: Counter[str | None] = Counter()
        for row in await svc.store.league_matches(league.id):
            firsts[row.entrants[0]] += 1
        assert all(3 <= firsts[p.id] <= 4 for p in players)  # first in 3 or 4 of 7
        board = await leagues.standings(league.id)
        assert as_counted(board) == await recount_people(svc, league.id, 2)
        assert sum(r.points for r in board.rows) == 28
        assert board.rows[0].rank == 1 and all(r.played == 7 for r in board.rows)
        assert await ratings.table_rows(svc.store) == []  # rated=False: nobody rated
    finally:
        await svc.close()


async def test_a_player_who_leaves_and_a_match_decided_by_its_clock(tmp_path: Path) -> None:
    svc = await MatchService.open(tmp_path / "leave.db", render=False)
    leagues = Leagues(svc)
    rng = random.Random(5)
    players = people(5)
    try:
        league = await leagues.create(
            server_id="77", channel_id="88", creator=MANAGER, game_id="azul", format="swiss",
            fill="bye", rounds=4, seed=5,
        )  # fmt: skip
        for p in players:
            await leagues.join(league.id, p)
        rnd = await leagues.start(league.id, MANAGER, manager=True)
        leaver: User | None = None
        timed: int | None = None
        byes: list[list[str]] = []
        while rnd.event == "round":
            byes.append([p.user_id for p in rnd.byes])
            active = [p.user_id for p in rnd.league.players if p.active]
            seated = [s.user_id for t in rnd.tables for s in t.seats]
            assert sorted(seated + byes[-1]) == sorted(active)
            if rnd.round == 2:
                table = rnd.tables[0]
                leaver = User(table.seats[1].user_id, table.seats[1].name)
                left = await leagues.leave(league.id, leaver)
                assert [p.user_id for p in left.players if not p.active] == [leaver.id]
                info = await svc.info(table.match_id)  # two players: the leaver resigned
                assert info.status == "finished" and info.result is not None
                assert info.result["ranks"][1] == 2
                timed = rnd.tables[1].match_id
                await time_out(svc, timed)
                assert (await svc.info(timed)).status == "finished"
            for table in rnd.tables:
                if (await svc.info(table.match_id)).status == "running":
                    await give_up(svc, table.match_id, rng)
            (rnd,) = await leagues.advance()
        assert leaver is not None and timed is not None
        assert rnd.event == "final" and rnd.round == 4
        # byes fair: one each for the first four rounds' odd player, none twice; after the
        # leaver left, four were left: no bye
        assert [len(b) for b in byes] == [1, 1, 0, 0]
        assert len(set(sum(byes, []))) == 2
        assert max((await meetings(svc, league.id)).values()) == 1
        board = await leagues.standings(league.id)
        assert as_counted(board) == await recount_people(svc, league.id, 2)
        gone = next(r for r in board.rows if r.user_id == leaver.id)
        assert not gone.active and gone.played == 2 - (leaver.id in byes[0])
        assert all(r.byes == (r.user_id in sum(byes, [])) for r in board.rows)
    finally:
        await svc.close()


async def test_each_step_is_claimed_once_by_two_processes(
    database: str | Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two services on one database (two bot processes) tick at the same moment: the start
    at the deadline, each round and the end happen once; a manager's start racing the
    tick is refused or wins, never doubles."""
    lost: list[int] = []
    claim = LeagueTables.open_round

    async def counted(self: LeagueTables, league_id: int, **kw: Any) -> list[int]:
        try:
            return await claim(self, league_id, **kw)
        except LeagueClaimLost:
            lost.append(league_id)  # the race really happened: the loser wrote nothing
            raise

    monkeypatch.setattr(LeagueTables, "open_round", counted)
    a = await MatchService.open(database, render=False)
    b = await MatchService.open(database, render=False)
    one, two = Leagues(a), Leagues(b)
    rng = random.Random(3)
    try:
        league = await one.create(
            server_id="77", channel_id="88", creator=MANAGER, game_id="azul", format="swiss",
            rounds=2, signup_days=1, seed=3,
        )  # fmt: skip
        for p in people(5):
            await two.join(league.id, p)
        later = a.store.now() + 2 * 86400
        assert await one.advance(a.store.now()) == []  # before the deadline: nothing due
        opened: list[RoundInfo] = []
        for _ in range(3):  # round 1 at the deadline, round 2, the end
            both = await asyncio.gather(one.advance(later), two.advance(later))
            assert [len(x) for x in both] in ([1, 0], [0, 1])
            (rnd,) = both[0] + both[1]
            opened.append(rnd)
            with_computer = [
                t.match_id for t in rnd.tables if any(s.user_id[:3] == "ai:" for s in t.seats)
            ]
            if rnd.event == "round":  # the computer driver's index knows the computer seat
                cur = await a.store._reader.execute("SELECT match_id FROM computer_turns")
                assert set(with_computer) <= {r[0] for r in await cur.fetchall()}
                assert len(with_computer) == 1
            for table in rnd.tables:
                await give_up(a, table.match_id, rng)
        assert [(r.event, r.round) for r in opened] == [("round", 1), ("round", 2), ("final", 2)]
        assert lost, "the two ticks never raced for a claim"
        rows = await a.store.league_matches(league.id)
        # five players: two pairs and one against a computer, each round
        assert [(r.round, r.table) for r in rows] == [(n, t) for n in (1, 2) for t in (1, 2, 3)]
        assert await check_posts(a, league.id) == ["signup:0", "round:1", "round:2", "final:2"]
        # a start racing the deadline's tick: one of them opens round 1, once
        second = await one.create(
            server_id="77", channel_id="88", creator=MANAGER, game_id="azul", format="swiss",
            signup_days=1, seed=4,
        )  # fmt: skip
        for p in people(4):
            await one.join(second.id, p)
        results = await asyncio.gather(
            two.start(second.id, MANAGER, manager=True), one.advance(later),
            return_exceptions=True,
        )  # fmt: skip
        started = [r for r in results if isinstance(r, RoundInfo)]
        ticked = [r for r in results if isinstance(r, list)]
        refused = [r for r in results if isinstance(r, ServiceError)]
        assert len(started) + sum(len(t) for t in ticked) == 1, results
        assert len(started) + len(refused) == 1
        assert len(await a.store.league_matches(second.id)) == 2
    finally:
        await a.close()
        await b.close()
