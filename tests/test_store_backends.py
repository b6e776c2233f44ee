"""The store on both backends: the same schema, migrations safe for processes starting at
once, and the claims (outbox and scheduler) that let several processes share the work."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot import store_postgres
from bot.copydb import TABLES
from bot.service import MatchService
from bot.store import (
    MIGRATIONS,
    NewMove,
    Notification,
    SeatRow,
    ShardSlice,
    Store,
    VersionConflict,
    open_store,
)
from tests.conftest import ALICE, BOB, new_postgres_database
from tests.pg_server import PgServer


async def _match(store: Store, guild_id: str | None = "100") -> int:
    return await store.create_match(
        game_id="test-pile",
        options={},
        seed=1,
        creator=SeatRow(0, "1001", "Alice"),
        max_players=2,
        guild_id=guild_id,
        channel_id="500",
    )


async def _columns_sqlite(store: Store) -> dict[str, list[str]]:
    cur = await store._reader.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
    )
    tables = [r[0] for r in await cur.fetchall()]
    result = {}
    for table in tables:
        cur = await store._reader.execute(f"PRAGMA table_info({table})")
        result[table] = [r[1] for r in await cur.fetchall()]
    return result


async def _columns_postgres(store: Store) -> dict[str, list[str]]:
    cur = await store._reader.execute(
        "SELECT table_name, column_name FROM information_schema.columns "
        "WHERE table_schema = 'public' AND table_name <> 'schema_version' "
        "ORDER BY table_name, ordinal_position"
    )
    result: dict[str, list[str]] = {}
    for table, column in await cur.fetchall():
        result.setdefault(table, []).append(column)
    return result


async def test_both_backends_have_the_same_tables_and_columns(
    tmp_path: Path, postgres: PgServer
) -> None:
    assert len(store_postgres.MIGRATIONS) == len(MIGRATIONS)
    lite = await open_store(tmp_path / "a.db")
    pg = await open_store(await new_postgres_database(postgres))
    try:
        assert await lite.schema_version() == await pg.schema_version() == len(MIGRATIONS)
        columns = await _columns_sqlite(lite)
        assert columns == await _columns_postgres(pg)
        # copy-db copies every column of every table
        assert {t: sorted(c) for t, (c, _) in TABLES.items()} == {
            t: sorted(c) for t, c in columns.items()
        }
    finally:
        await lite.close()
        await pg.close()


async def test_processes_starting_at_once_migrate_once(postgres: PgServer) -> None:
    url = await new_postgres_database(postgres)
    stores = await asyncio.gather(*(open_store(url) for _ in range(4)))
    try:
        assert [await s.schema_version() for s in stores] == [len(MIGRATIONS)] * 4
        cur = await stores[0]._reader.execute("SELECT version FROM schema_version ORDER BY 1")
        assert [r[0] for r in await cur.fetchall()] == list(range(1, len(MIGRATIONS) + 1))
    finally:
        for s in stores:
            await s.close()


async def test_claims_are_exclusive_until_the_lease_runs_out(database: str | Path) -> None:
    a, b = await open_store(database), await open_store(database)
    try:
        m1, m2 = await _match(a), await _match(a)
        await a.enqueue(m1, [Notification("turn", {"n": 1}), Notification("turn", {"n": 2})])
        await a.enqueue(m2, [Notification("turn", {"n": 3})])
        await a.enqueue(None, [Notification("dm", {"n": 4})])
        now = 1e10
        got_a = await a.claim_notifications("a", now=now, lease=60)
        # one item per match at a time (order), the DM too; b finds nothing left to take
        assert [r.payload["n"] for r in got_a] == [1, 3, 4]
        assert await b.claim_notifications("b", now=now + 1, lease=60) == []
        await a.mark_sent(got_a[0].id)
        assert [r.payload["n"] for r in await b.claim_notifications("b", now=now + 2)] == [2]
        # a dies without settling 3 and 4: after the lease another process takes them over
        assert await b.claim_notifications("b", now=now + 59) == []
        retaken = await b.claim_notifications("b", now=now + 61)
        assert [r.payload["n"] for r in retaken] == [3, 4]
        assert await b.pending_count() == 3
    finally:
        await a.close()
        await b.close()


async def test_a_process_claims_only_the_servers_of_its_shards(database: str | Path) -> None:
    store = await open_store(database)
    try:
        # a server id's shard is (id >> 22) % count: these land on shards 0, 1, 2, 3 of 4
        guilds = [str((shard + 4 * 1000) << 22) for shard in range(4)]
        for g in guilds:
            await store.enqueue(await _match(store, g), [Notification("turn", {"g": g})])
        await store.enqueue(None, [Notification("dm", {"g": None})])
        low = ShardSlice((0, 1), 4)
        got = await store.claim_notifications("p0", now=1e10, shards=low)
        assert [r.payload["g"] for r in got] == [guilds[0], guilds[1], None]
        assert all(low.owns(r.payload["g"]) for r in got)
        high = await store.claim_notifications("p1", now=1e10, shards=ShardSlice((2, 3), 4))
        assert [r.payload["g"] for r in high] == guilds[2:]
    finally:
        await store.close()


async def test_a_commit_checks_the_version_and_keeps_a_racing_settings_change(
    database: str | Path,
) -> None:
    """A move commits with the clock update computed from the settings read with the
    match (``settings_seen``; PostgreSQL then writes it all in one statement). When the
    settings changed in between (the outbox remembered a post) the move still lands and
    keeps that change; a stale version writes nothing at all."""
    store = await open_store(database)
    try:
        match_id = await _match(store)
        await store.set_match_fields(match_id, settings={"lang": "en"})
        read = await store.get_match(match_id)
        assert read is not None and read.last_ply == 0

        def clock(settings: dict[str, Any], now: float) -> dict[str, Any]:
            return {**settings, "clock": settings.get("clock", 0) + 1}

        def commit(match: Any, ply: int, **kw: Any) -> Any:
            return store.commit(
                match_id,
                expected_version=match.version,
                status="running",
                state={"ply": ply},
                moves=[NewMove("move", 0, "1001", f"m{ply}", f"move {ply}", [])],
                notifications=[Notification("turn", {"ply": ply}), Notification("dm", {})],
                settings_update=clock,
                settings_seen=match.settings_text,
                **kw,
            )

        assert await commit(read, 1) == read.version + 1  # nothing raced: as read
        again = await store.get_match(match_id)
        assert again is not None
        await store.update_settings(match_id, lambda s, v: {**s, "post": v}, wake=False)
        assert await commit(again, 2) == again.version + 1  # a post was remembered meanwhile
        with pytest.raises(VersionConflict):  # an older board: nothing is written
            await commit(again, 3)
        final = await store.get_match(match_id)
        assert final is not None
        assert final.settings == {"lang": "en", "clock": 2, "post": again.version}
        assert final.state == {"ply": 2} and final.version == again.version + 1
        assert [(m.ply, m.notation) for m in await store.moves(match_id)] == [(1, "m1"), (2, "m2")]
        pending = await store.due_notifications(now=1e10, limit=10)
        assert [(r.kind, r.payload) for r in pending] == [("turn", {"ply": 1})]
        assert await store.pending_count() == 4
        due = await store.claim_due_matches(now=1e10)
        assert match_id in due  # the schedule was told to look again
    finally:
        await store.close()


async def test_a_match_is_read_with_its_holders_preferences(database: str | Path) -> None:
    """The match read carries what ``seat_preferences`` would read, from the same
    snapshot (the move's turn post says who is away without a read of its own)."""
    store = await open_store(database)
    try:
        match_id = await _match(store)
        read = await store.get_match(match_id)
        assert read is not None and read.preferences == {} == await store.seat_preferences(match_id)
        await store.set_user("1001", settings={"away": [[1.0, 2.0]], "lang": "hu"})
        read = await store.get_match(match_id)
        assert read is not None and [s.name for s in read.seats] == ["Alice"]
        assert read.preferences == {0: {"away": [[1.0, 2.0]], "lang": "hu"}}
        assert read.preferences == await store.seat_preferences(match_id)
    finally:
        await store.close()


async def test_due_matches_come_from_the_index_and_are_claimed(database: str | Path) -> None:
    a, b = await open_store(database), await open_store(database)
    try:
        ids = [await _match(a) for _ in range(3)]
        assert await a.claim_due_matches(now=1e10) == []  # lobbies have no schedule
        for match_id in ids:
            await a.commit(match_id, expected_version=0, status="running", state={"x": 1})
        first = await a.claim_due_matches(now=1e10, lease=30, limit=2)
        assert sorted(first) + await b.claim_due_matches(now=1e10, lease=30) == sorted(first) + [
            i for i in ids if i not in first
        ]
        assert await b.claim_due_matches(now=1e10 + 10) == []
        await a.set_schedule(ids[0], {"k": 1}, due_at=1e10 + 1000)
        # the others' claims ran out: taken again (now for long); ids[0] waits for its time
        assert sorted(await b.claim_due_matches(now=1e10 + 31, lease=10_000)) == ids[1:]
        assert await b.claim_due_matches(now=1e10 + 1001) == [ids[0]]
        # a move marks the match due at once; a finished match leaves the index
        await a.commit(ids[1], expected_version=1, status="running", state={"x": 2})
        await a.commit(ids[2], expected_version=1, status="finished", state={"x": 2})
        assert await a.claim_due_matches(now=1e10 + 1002) == [ids[1]]
        assert await a.get_schedule(ids[0]) == {"k": 1}
    finally:
        await a.close()
        await b.close()


@pytest.mark.parametrize("guild", ["", "abc", "12x", "-5", "99999999999999999999", None])
def test_a_server_id_that_is_no_snowflake_belongs_to_every_shard(guild: str | None) -> None:
    assert ShardSlice((1,), 4).owns(guild)


async def test_a_version_2_database_is_upgraded_with_its_running_matches(
    database: str | Path,
) -> None:
    """Migration 3 on a database made before it: running matches enter the due index and
    numeric server ids get their shard key."""
    rows = [
        (1, "running", "4194304"),  # 1 << 22
        (2, "finished", "8388608"),
        (3, "running", "not-a-snowflake"),
    ]
    insert = (
        "INSERT INTO matches (id, game_id, options, seed, status, creator_id, guild_id, "
        "max_players, created_at, updated_at) VALUES (?, 'test-pile', '{}', 1, ?, 'u', ?, 2, 0, 0)"
    )
    if isinstance(database, Path):
        import sqlite3

        with sqlite3.connect(database) as conn:
            for script in MIGRATIONS[:2]:
                conn.executescript(script)
            conn.execute("PRAGMA user_version=2")
            conn.executemany(insert, rows)
    else:
        import asyncpg

        conn = await asyncpg.connect(database)
        try:
            await conn.execute("CREATE TABLE schema_version (version BIGINT NOT NULL)")
            for script in store_postgres.MIGRATIONS[:2]:
                await conn.execute(script)
            await conn.execute("INSERT INTO schema_version VALUES (1), (2)")
            await conn.executemany(store_postgres.to_dollar(insert), rows)
        finally:
            await conn.close()
    store = await open_store(database)
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        cur = await store._reader.execute("SELECT id, guild_key FROM matches ORDER BY id")
        assert [tuple(r) for r in await cur.fetchall()] == [(1, 1 << 22), (2, 2 << 22), (3, None)]
        assert sorted(await store.claim_due_matches(now=0)) == [1, 3]
        assert await store.get_schedule(1) == {}
    finally:
        await store.close()


async def test_a_read_left_unfinished_does_not_hide_later_commits(tmp_path: Path) -> None:
    """SQLite in WAL mode: a statement whose rows were not all read keeps its connection's
    read transaction open, and reads on that connection would keep seeing the database as it
    was (a match created a moment ago "not found"). The store's reader finishes every
    statement at once, so a half-read result does no harm."""
    store = await Store.open(tmp_path / "s.db")
    try:
        for k in range(3):
            await store.create_match(
                game_id="azul", options={}, seed=k, creator=SeatRow(0, "1", "Ann"), max_players=2,
                guild_id=None, channel_id=None,
            )  # fmt: skip
        half = await store._reader.execute("SELECT id FROM matches ORDER BY id")
        assert (await half.fetchone()) == (1,)  # two rows left unread
        new_id = await store.create_match(
            game_id="azul",
            options={},
            seed=9,
            creator=SeatRow(0, "1", "Ann"),
            max_players=2,
            guild_id=None,
            channel_id=None,
        )
        found = await store.get_match(new_id)
        assert found is not None and found.id == new_id
    finally:
        await store.close()


def _count_statements(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record the first words of every statement either driver sends (asyncpg's
    ``execute`` with arguments goes through ``_execute``: counted once)."""
    import aiosqlite
    from asyncpg import connection as pg

    sent: list[str] = []

    def note(sql: str) -> None:
        words = sql.replace(";", " ").upper().split()
        sent.append("BEGIN" if words[0] == "BEGIN" else " ".join(words[:3]))  # SQLite: IMMEDIATE

    for name in ("execute", "executemany", "execute_fetchall"):
        original = getattr(aiosqlite.Connection, name)

        def wrapped(self: Any, sql: str, *args: Any, _original: Any = original) -> Any:
            note(sql)
            return _original(self, sql, *args)

        monkeypatch.setattr(aiosqlite.Connection, name, wrapped)

    pg_execute, pg_inner, pg_many = (
        pg.Connection.execute,
        pg.Connection._execute,
        pg.Connection.executemany,
    )

    async def execute(self: Any, query: str, *args: Any, **kw: Any) -> Any:
        if not args:
            note(query)
        return await pg_execute(self, query, *args, **kw)

    async def inner(self: Any, query: str, *args: Any, **kw: Any) -> Any:
        note(query)
        return await pg_inner(self, query, *args, **kw)

    async def many(self: Any, query: str, *args: Any, **kw: Any) -> Any:
        note(query)
        return await pg_many(self, query, *args, **kw)

    monkeypatch.setattr(pg.Connection, "execute", execute)
    monkeypatch.setattr(pg.Connection, "_execute", inner)
    monkeypatch.setattr(pg.Connection, "executemany", many)
    return sent


async def test_a_move_sends_few_statements_on_both_backends(
    database: str | Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One ``play`` is one read of the match with its seats and their holders'
    preferences (who is away: the turn post says so) and the commit: on SQLite one
    transaction whose version-checked UPDATE also returns what the
    rest needs; on PostgreSQL, where every statement is a round trip to another process,
    the same writes as one statement (``store_postgres._COMMIT_ONE``). No pool reset
    query after each release (PostgreSQL). Counted, not timed: a statement added to the
    move path shows up here. Without pictures: the picture drawn behind the move reads
    too, at a moment of its own."""
    service = await MatchService.open(database, render=False)
    try:
        sent = await _play_counted(service, monkeypatch)
    finally:
        await service.close()
    commit = (
        ["WITH U AS"]
        if isinstance(database, str)
        else [
            "BEGIN",
            "UPDATE MATCHES SET",
            "UPDATE MATCHES SET",
            "INSERT INTO MOVES",
            "INSERT INTO OUTBOX",
            "INSERT INTO SCHEDULE",
            "COMMIT",
        ]
    )
    assert sent == ["SELECT ID, GAME_ID,", *commit], sent


async def _play_counted(service: MatchService, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    info = await service.create_match("test-pile", ALICE, None, seed=3, guild_id="g1")
    await service.join(info.id, BOB)
    await service.start(info.id, ALICE)
    now = await service.info(info.id)
    user = ALICE if now.to_act[0] == ALICE.id else BOB
    notation = (await service.legal_moves(info.id, user))[0].notation
    sent = _count_statements(monkeypatch)
    await service.play(info.id, user, notation)
    return sent


async def test_the_outbox_claims_and_settles_in_few_statements(
    database: str | Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the outbox worker writes per post, counted: the claim is one statement (chosen,
    locked and leased at once), marking it sent is one, remembering the turn post a read
    and a checked write; on SQLite each inside its BEGIN … COMMIT (in-process, no round
    trips), on PostgreSQL without (a lone statement is a transaction there)."""
    store = await open_store(database)
    try:
        match_id = await _match(store)
        await store.enqueue(match_id, [Notification("turn", {"n": 1})])
        sent = _count_statements(monkeypatch)
        (row,) = await store.claim_notifications("a", now=1e10)
        await store.mark_sent(row.id)
        await store.update_settings(match_id, lambda s, v: {**s, "post": v}, wake=False)
        assert await store.claim_notifications("a", now=1e10) == []
    finally:
        await store.close()
    claim, sent_mark = ["UPDATE OUTBOX SET"], ["UPDATE OUTBOX SET"]
    remember = ["SELECT SETTINGS, VERSION", "UPDATE MATCHES SET"]
    if isinstance(database, str):
        assert sent == [*claim, *sent_mark, *remember, *claim], sent
    else:  # the locked read also reads the status (a wake marks the schedule)
        remember = ["SELECT SETTINGS, VERSION,", "UPDATE MATCHES SET"]
        assert sent == [
            *["BEGIN", *claim, "COMMIT"],
            *["BEGIN", *sent_mark, "COMMIT"],
            *["BEGIN", *remember, "COMMIT"],
            *["BEGIN", *claim, "COMMIT"],
        ], sent
