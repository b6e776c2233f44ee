"""The store on both backends: the same schema, migrations safe for processes starting at
once, and the claims (outbox and scheduler) that let several processes share the work."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from bot.matches.service import MatchService
from bot.storage import (
    MIGRATIONS,
    NewMove,
    Notification,
    Remembered,
    SeatRow,
    ShardSlice,
    Store,
    VersionConflict,
    open_store,
    postgres_migrations,
)
from bot.storage import postgres as store_postgres
from bot.storage.copydb import TABLES
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
    assert len(postgres_migrations.MIGRATIONS) == len(MIGRATIONS)
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


async def test_a_shard_claim_keeps_each_matchs_order_as_a_whole_claim_does(
    database: str | Path,
) -> None:
    """With shards the claim checks "the oldest waiting post of its match" on the joined
    match (after the shard filter, so it probes only its own shards' rows): still one
    post per match at a time, in order, and a post whose match row is missing is still
    its own first, as without shards."""
    store = await open_store(database)
    try:
        mine, other = str((4 * 1000) << 22), str((1 + 4 * 1000) << 22)  # shards 0 and 1
        m1, m2 = await _match(store, mine), await _match(store, other)
        await store.enqueue(m1, [Notification("turn", {"n": 1}), Notification("turn", {"n": 2})])
        await store.enqueue(m2, [Notification("turn", {"n": 3})])
        await store.enqueue(m1 + m2 + 100, [Notification("turn", {"n": 4})])  # no such match
        await store.enqueue(None, [Notification("dm", {"n": 5})])
        shard0 = ShardSlice((0,), 4)
        got = await store.claim_notifications("p0", now=1e10, shards=shard0)
        assert [r.payload["n"] for r in got] == [1, 4, 5]
        assert await store.claim_notifications("p0", now=1e10 + 1, shards=shard0) == []
        await store.mark_sent(got[0].id)
        later = await store.claim_notifications("p0", now=1e10 + 2, shards=shard0)
        assert [r.payload["n"] for r in later] == [2]
        whole = await store.claim_notifications("p1", now=1e10 + 3)
        assert [r.payload["n"] for r in whole] == [3]
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


async def test_a_match_is_read_with_its_holders_user_rows(
    database: str | Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """How each seat holder wants to be told (``users``: as ``get_user`` gives it, its
    defaults for someone with no row) comes with the match, so a turn post reads no user
    of its own; several matches are read in one statement with the same rows."""
    store = await open_store(database)
    try:
        first, second = await _match(store), await _match(store)
        await store.update_lobby(second, lambda m: [*m.seats, SeatRow(1, "1002", "Bob")])
        await store.remember_locale("1002", "Bobby", "de")
        await store.set_user("1001", notify="dm", settings={"lang": "hu"})
        read = await store.get_match(second)
        assert read is not None and read.users is not None
        assert read.users == {uid: await store.get_user(uid) for uid in ("1001", "1002")}
        assert read.users["1002"]["locale"] == "de" and read.users["1001"]["notify"] == "dm"
        await store.set_user("1001", notify="mention", settings={})
        fresh = await store.get_match(first)
        assert fresh is not None and fresh.users == {"1001": await store.get_user("1001")}
        sent = _count_statements(monkeypatch)
        both = await store.get_matches([second, first, 999_999, first])
        assert len(sent) == 1  # one statement for all of them
        assert sorted(both) == [first, second]
        for match_id, match in both.items():
            alone = await store.get_match(match_id)
            assert alone is not None
            assert (match.seats, match.users, match.settings_text, match.last_ply) == (
                alone.seats,
                alone.users,
                alone.settings_text,
                alone.last_ply,
            )
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
            for script in postgres_migrations.MIGRATIONS[:2]:
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


def _transactions(sent: list[str]) -> list[str]:
    """Statements as sent, each ``BEGIN`` … ``COMMIT`` (SQLite's transactions) shown as
    the first statement inside it."""
    out: list[str] = []
    inside = False
    for words in sent:
        if words == "BEGIN":
            inside = True
            out.append("")
        elif words == "COMMIT":
            inside = False
        elif not inside or not out[-1]:
            if inside:
                out[-1] = words
            else:
                out.append(words)
    return out


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


async def test_a_batch_of_posts_settles_at_once(
    database: str | Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``settle_sent`` marks a batch of delivered posts with their turn-post records in
    one statement (PostgreSQL) or one transaction (SQLite). A record computed from
    settings that changed meanwhile is not written and its post stays unmarked (still
    claimed, so the match's next post cannot overtake it) until written from what is
    stored."""
    store = await open_store(database)
    try:
        ids = [await _match(store) for _ in range(3)]
        for match_id in ids:
            await store.enqueue(match_id, [Notification("turn", {"m": match_id})])
        claimed = await store.claim_notifications("a", now=1e10)
        assert [r.match_id for r in claimed] == ids
        reads = await store.get_matches(ids)
        await store.update_settings(ids[2], lambda s, v: {**s, "vote": 1}, wake=False)
        remembered = [
            Remembered(row.id, row.match_id, reads[row.match_id].settings_text, {"post": k})
            for k, row in enumerate(claimed[1:], start=1)
            if row.match_id is not None
        ]
        sent = _count_statements(monkeypatch)
        marked = await store.settle_sent([claimed[0].id], remembered)
        assert marked == {claimed[0].id, claimed[1].id}  # the third's settings had changed
        if isinstance(database, str):
            assert sent == ["WITH R AS"], sent
        else:
            assert sent[0] == "BEGIN" and sent[-1] == "COMMIT" and len(sent) == 5, sent
        now = await store.get_matches(ids)
        assert [now[i].settings for i in ids] == [{}, {"post": 1}, {"vote": 1}]
        assert await store.pending_count() == 1
        assert await store.claim_notifications("b", now=1e10) == []  # still a's
        again = Remembered(claimed[2].id, ids[2], now[ids[2]].settings_text, {"vote": 1, "p": 2})
        assert await store.settle_sent([], [again]) == {claimed[2].id}
        assert (await store.get_matches([ids[2]]))[ids[2]].settings == {"vote": 1, "p": 2}
        assert await store.pending_count() == 0
        with pytest.raises(ValueError):  # one record per match: one settings to write
            await store.settle_sent([], [again, again])
    finally:
        await store.close()


async def test_a_racing_remembered_post_costs_a_move_one_more_statement(
    database: str | Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the outbox wrote the match's settings (its turn-post record) between a move's
    read and its commit, PostgreSQL sends the one-statement commit again with the clock
    update computed from the settings it found (not the transaction of seven); both
    backends keep the outbox's change and the clock's."""
    store = await open_store(database)
    try:
        match_id = await _match(store)
        read = await store.get_match(match_id)
        assert read is not None
        await store.update_settings(match_id, lambda s, v: {**s, "post": 7}, wake=False)

        def clock(settings: dict[str, Any], now: float) -> dict[str, Any]:
            return {**settings, "clock": settings.get("clock", 0) + 1}

        sent = _count_statements(monkeypatch)
        version = await store.commit(
            match_id,
            expected_version=read.version,
            status="running",
            state={"ply": 1},
            moves=[NewMove("move", 0, "1001", "m1", "move 1", [])],
            settings_update=clock,
            settings_seen=read.settings_text,
        )
        if isinstance(database, str):
            assert sent == ["WITH U AS", "WITH U AS"], sent
        else:
            assert sent[0] == "BEGIN" and sent[-1] == "COMMIT", sent
        final = await store.get_match(match_id)
        assert final is not None and final.version == version == read.version + 1
        assert final.settings == {"post": 7, "clock": 1} and final.last_ply == 1
    finally:
        await store.close()


async def test_the_outbox_worker_settles_a_batch_in_a_fixed_number_of_statements(
    database: str | Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker claims a batch, reads its matches (with the people each post pings) in
    one statement, posts, and settles the posts sent within SETTLE_EVERY — marks and
    turn-post records — in one statement (issue 44: the batch used to wait for its
    slowest post to settle all at once; before that, about six statements per post). A
    move that lands between the read and the settle changes the match's settings: that
    post's record is computed again from them, the move's clock kept, and the post
    marked."""
    from bot.discord.delivery import POST_KEY, OutboxWorker
    from bot.settings import Settings
    from bot.tools.loadtest import _NullDiscord

    service = await MatchService.open(database, render=False)
    try:
        ids = []
        for k in range(3):
            info = await service.create_match("test-pile", ALICE, None, seed=k, guild_id="77")
            await service.join(info.id, BOB)
            await service.set_thread(info.id, str(900 + k))
            await service.start(info.id, ALICE)
            ids.append(info.id)
        bot = _NullDiscord(Settings(_env_file=None), service, None)  # type: ignore[call-arg]
        worker = OutboxWorker(bot, time.time)  # type: ignore[arg-type]
        assert await worker.run_once() == 3  # the starts' posts
        for match_id in ids:
            now = await service.info(match_id)
            user = ALICE if now.to_act[0] == ALICE.id else BOB
            await service.play(match_id, user, "take1")
        reads = service.store.get_matches
        sent = _count_statements(monkeypatch)

        async def read_then_move(match_ids: Any) -> Any:
            found = await reads(match_ids)
            if len(match_ids) == 3:  # the batch's read: then a move on the last match lands
                mark = len(sent)
                now = await service.info(ids[2])
                user = ALICE if now.to_act[0] == ALICE.id else BOB
                await service.play(ids[2], user, "take1")
                del sent[mark:]  # the move's own statements are not the worker's
            return found

        monkeypatch.setattr(service.store, "get_matches", read_then_move)
        assert await worker.run_once() == 4  # three posts, then the racing move's
        claim, read = "UPDATE OUTBOX SET", "SELECT ID, GAME_ID,"
        settle = "WITH R AS" if isinstance(database, str) else "UPDATE MATCHES SET"
        # the three posts: a claim, a read, and their settles — the posts sent within
        # SETTLE_EVERY are marked in one statement (bot/discord/settling.py), so one here
        # on a quick machine and never more than one a post; the last one's finds its
        # match's settings changed: a read of that match and a settle again —; the racing
        # move's post alone; then a claim that finds nothing
        got = _transactions(sent)
        assert got[:2] == [claim, read] and got[-4:] == [claim, read, settle, claim], got
        settles = got[2:-4]
        assert settles.count(read) == 1 and 2 <= settles.count(settle) <= 4, got
        assert set(settles) == {read, settle}, got
        for match_id, ply in zip(ids, (1, 1, 2), strict=True):
            match = await service.store.get_match(match_id)
            assert match is not None and match.settings[POST_KEY]["last_ply"] == ply
            assert "clock" in match.settings  # every move's clock kept
        assert len(bot.posted) == 7
    finally:
        await service.close()
