"""``copy-db``: SQLite → PostgreSQL → SQLite keeps every row, and every match audits equal
(its snapshot is the replay of seed + moves) on each copy."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.community.leagues import Leagues
from bot.matches.service import MatchService
from bot.storage import MIGRATIONS, Notification, open_store
from bot.storage.copydb import TABLES
from bot.storage.reviews import ReviewTable
from tests.conftest import new_postgres_database
from tests.pg_server import PgServer
from tests.ratings_helpers import play_result
from tests.reliability_helpers import PLAYERS, REAL_GAMES, on_turn, start_match


async def _fill(db: Path) -> None:
    svc = await MatchService.open(db, render=False)
    try:
        for i, game_id in enumerate(REAL_GAMES):
            match_id = await start_match(svc, game_id, seed=i + 3, guild_id=str(i << 22))
            await svc.set_thread(match_id, str(7000 + i))
            for _ in range(6 + i):
                user = await on_turn(svc, match_id)
                legal = await svc.legal_moves(match_id, user)
                await svc.play(match_id, user, legal[0].notation)
        await play_result(svc, {"2001": 3, "2002": 1})  # a rated match: the rating tables
        # a running match with a computer seat: the computer-turn index (computer_turns)
        lobby = await svc.create_match("azul", PLAYERS[0], seed=11, guild_id=str(9 << 22))
        await svc.add_computer(lobby.id, PLAYERS[0], "easy")
        await svc.start(lobby.id, PLAYERS[0])
        # a review's cache row (bot/storage/reviews.py)
        await ReviewTable(svc.store).put(1, 6, "review/1", {"decisions": [], "budget_s": 0.5})
        # a league (bot/storage/leagues.py): its players (one left), a round's match, a bye
        leagues = Leagues(svc)
        league = await leagues.create(
            server_id=str(9 << 22), channel_id="5", creator=PLAYERS[0], game_id="azul",
            format="swiss", fill="bye", seed=5,
        )  # fmt: skip
        for player in PLAYERS[:3]:
            await leagues.join(league.id, player)
        await leagues.start(league.id, PLAYERS[0], manager=True)
        await leagues.leave(league.id, PLAYERS[2])
        await svc.store.set_user("2001", locale="de", notify="dm", settings={"quiet": [22, 7]})
        await svc.store.enqueue(None, [Notification("dm", {"user_id": "2001", "text": "é"})])
        await svc.store.set_schedule(1, {"version": 3, "sent": {"2001": 1}}, due_at=12.5)
        due = await svc.store.due_notifications()
        await svc.store.mark_sent(due[0].id)
    finally:
        await svc.close()


async def _tables(location: Path | str) -> dict[str, list[tuple[Any, ...]]]:
    store = await open_store(location)
    try:
        result = {}
        for table, (columns, key) in TABLES.items():
            cur = await store._reader.execute(
                f"SELECT {', '.join(columns)} FROM {table} ORDER BY {', '.join(key)}"
            )
            result[table] = [tuple(r) for r in await cur.fetchall()]
        return result
    finally:
        await store.close()


def test_copy_db_round_trip_keeps_every_row_and_audits_equal(
    tmp_path: Path, postgres: PgServer, capsys: pytest.CaptureFixture[str]
) -> None:
    first, back = tmp_path / "first.db", tmp_path / "back.db"
    asyncio.run(_fill(first))
    url = asyncio.run(new_postgres_database(postgres))
    assert main(["copy-db", str(first), url]) == 0
    out = capsys.readouterr().out
    assert "audit of the copy: 0 problem(s)" in out and "moves: " in out
    assert main(["copy-db", url, str(back)]) == 0
    assert "audit of the copy: 0 problem(s)" in capsys.readouterr().out
    original = asyncio.run(_tables(first))
    assert all(original[t] for t in TABLES), "every table holds rows to copy"
    assert asyncio.run(_tables(url)) == original
    assert asyncio.run(_tables(back)) == original

    # the copy is a working database: new rows continue after the copied ids
    async def new_match_id() -> int:
        svc = await MatchService.open(url, render=False)
        try:
            return await start_match(svc, "azul", seed=99)
        finally:
            await svc.close()

    # + the rated Pile match, the match with a computer seat and the league's match
    assert asyncio.run(new_match_id()) == len(REAL_GAMES) + 4


def test_copy_db_refuses_a_target_that_holds_data(tmp_path: Path, postgres: PgServer) -> None:
    first = tmp_path / "first.db"
    asyncio.run(_fill(first))
    url = asyncio.run(new_postgres_database(postgres))
    assert main(["copy-db", str(first), url]) == 0
    with pytest.raises(RuntimeError, match="copy into an empty one"):
        main(["copy-db", str(first), url])


def test_migrate_command_reports_the_schema_version(
    tmp_path: Path, postgres: PgServer, capsys: pytest.CaptureFixture[str]
) -> None:
    url = asyncio.run(new_postgres_database(postgres))
    for where in (str(tmp_path / "m.db"), url):
        assert main(["--db", where, "migrate"]) == 0
        assert capsys.readouterr().out.strip() == f"schema version {len(MIGRATIONS)}"
