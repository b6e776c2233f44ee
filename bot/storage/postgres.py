"""The PostgreSQL backend of the store, for bots that run as several processes.

Why a subclass and not a second store: every query of :class:`bot.storage.sqlite.Store` is
written once, in SQL both databases accept, and runs here unchanged through a small adapter
that gives an asyncpg connection the cursor interface of aiosqlite (``?`` placeholders
become ``$1…``). Only what truly differs lives here: the connection pool, transactions, the
row-locking suffixes, and the schema with its migration lock
(:mod:`bot.storage.postgres_migrations`: PostgreSQL types for the same tables). So nothing
a player sees can depend on the backend.

- Transactions run at READ COMMITTED. The optimistic version check (``UPDATE … WHERE
  version = ?``) holds there: a racing update waits for the row lock, re-reads the row and
  matches nothing. Read-modify-write methods lock the row first (``FOR UPDATE``).
- Claims (outbox, scheduler) select with ``FOR UPDATE SKIP LOCKED`` and write a lease, so
  processes never wait on each other's claims and never take the same row.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import Any

import asyncpg

from bot.storage.codec import _dumps, _loads
from bot.storage.faults import ConnectionLost, DatabaseUnavailable, MoveKey
from bot.storage.pg_pool import DatabaseLimits, Pool
from bot.storage.postgres_migrations import current_version, migrate
from bot.storage.rows import NewMove, Notification, Remembered, SeatRow
from bot.storage.sqlite import Store


@lru_cache(maxsize=1024)
def to_dollar(sql: str) -> str:
    """``?`` placeholders (SQLite) to ``$1, $2 …`` (PostgreSQL). Our SQL never holds a
    literal question mark, so a plain count is exact."""
    count = 0

    def number(_: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return f"${count}"

    return re.sub(r"\?", number, sql)


_ROWS = re.compile(r"^\s*(SELECT|WITH)\b|\bRETURNING\b", re.IGNORECASE)


class Cursor:
    """The part of aiosqlite's cursor the store uses: rows already fetched, a row count."""

    def __init__(self, rows: Sequence[Any], rowcount: int) -> None:
        self._rows = rows
        self.rowcount = rowcount

    async def fetchone(self) -> Any:
        return self._rows[0] if self._rows else None

    async def fetchall(self) -> list[Any]:
        return list(self._rows)


class Connection:
    """An asyncpg connection (or pool: one statement per pooled connection) with the
    aiosqlite methods the store calls: ``execute`` returning a cursor, ``executemany``."""

    def __init__(self, target: asyncpg.Connection | Pool) -> None:
        self._target = target

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> Cursor:
        query = to_dollar(sql)
        args = tuple(params)
        if _ROWS.search(sql):
            rows = await self._target.fetch(query, *args)
            return Cursor(rows, len(rows))
        status = await self._target.execute(query, *args)
        last = status.rsplit(" ", 1)[-1]
        return Cursor((), int(last) if last.isdigit() else -1)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        batch = [tuple(r) for r in rows]
        if batch:
            await self._target.executemany(to_dollar(sql), batch)


class PostgresStore(Store):
    """The store on PostgreSQL; open with :meth:`open` (a ``postgresql://`` URL)."""

    _FOR_UPDATE = " FOR UPDATE"
    _SKIP_LOCKED = " FOR UPDATE OF {table} SKIP LOCKED"
    _RATINGS_LOCK = "SELECT pg_advisory_xact_lock(?)"
    # in either order no deadlock: a rebuild takes only the first key
    _RATINGS_BOARD_LOCK = "SELECT pg_advisory_xact_lock_shared(?), pg_advisory_xact_lock(?)"
    _SEATS_JSON = (
        "(SELECT json_agg(json_build_array(s.seat, s.user_id, s.name, u.settings::json, "
        "u.name, u.locale, u.notify) ORDER BY s.seat)::text FROM seats s "
        "LEFT JOIN users u ON u.user_id = s.user_id WHERE s.match_id = matches.id)"
    )

    def __init__(self, url: str, pool: Pool) -> None:
        reader = Connection(pool)
        super().__init__(url, reader, reader)  # type: ignore[arg-type]
        self._pool = pool

    @classmethod
    async def open(  # type: ignore[override]
        cls, url: str, *, synchronous: str = "NORMAL", limits: DatabaseLimits | None = None
    ) -> PostgresStore:
        """Connect and migrate (on a connection of its own without a statement timeout: a
        step may rewrite a large table). ``synchronous`` is SQLite's and ignored here:
        PostgreSQL commits durably by default (``synchronous_commit = on``). A server that
        cannot be reached is :class:`DatabaseUnavailable`, a schema newer than this code
        :class:`bot.storage.faults.SchemaTooNew`: both one line for the operator."""
        pool = Pool(url, limits=limits)
        try:
            conn = await pool.connect(unlimited=True)
            try:
                await migrate(conn)
            finally:
                conn.terminate()
        except BaseException:
            await pool.close()
            raise
        return cls(url, pool)

    @property
    def limits(self) -> DatabaseLimits:
        return self._pool.limits

    async def move_stored(self, key: MoveKey, lost: ConnectionLost | None = None) -> bool | None:
        """Whether the move ``key`` names is in the log, read on a connection of its own
        (the pooled ones may be as broken as the one lost); None when the database cannot
        tell now (it still cannot be reached, or does not answer).

        Why the lost statement's server process is ended first: a connection that broke
        under a commit leaves its server process running the statement (waiting for a row
        lock, say) and it may still commit after a first look. Once it is gone its
        transaction is final, either way (PostgreSQL ends a process only outside a
        commit's critical section), so what is read then is the truth."""
        try:
            conn = await self._pool.connect()
        except DatabaseUnavailable:
            return None
        try:
            pid = lost.backend_pid if lost is not None else None
            if pid is not None:
                wait_ms = int(self.limits.statement_timeout * 1000 / 2)
                ended = await conn.fetch(
                    "SELECT pg_terminate_backend(pid, $2) FROM pg_stat_activity "
                    "WHERE pid = $1 AND datname = current_database() AND usename = current_user",
                    pid,
                    wait_ms,
                )
                if ended and not ended[0][0]:
                    return None  # still running after the wait: its outcome is not final
            row = await conn.fetchrow(
                "SELECT user_id, notation FROM moves WHERE match_id = $1 AND ply = $2",
                key.match_id,
                key.ply,
            )
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError):
            return None
        finally:
            conn.terminate()
        return row is not None and (row[0], row[1]) == (key.user_id, key.notation)

    async def schema_version(self) -> int:
        async with self._pool.acquire() as conn:
            return await current_version(conn)

    async def close(self) -> None:
        await self._pool.close()

    async def _after_copy(self, conn: Any) -> None:
        """Rows copied with their ids: new rows must continue after the largest."""
        await _reset_identities(conn)

    async def _transaction(self, work: Any) -> Any:
        """Run ``await work(conn)`` in one transaction on a pooled connection. No process
        lock: PostgreSQL's row locks and the version check keep concurrent writers apart."""
        async with self._pool.acquire() as conn, conn.transaction():
            return await work(Connection(conn))

    async def _write_one(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """A lone statement is its own transaction: no ``BEGIN``/``COMMIT`` round trips."""
        return list(await self._pool.fetch(to_dollar(sql), *params))

    async def update_settings(
        self, match_id: int, mutate: Any, *, wake: bool = True
    ) -> dict[str, Any]:
        """``wake=False`` (the outbox remembering its turn post, after every post): read,
        then write only if neither the settings nor the version changed meanwhile — two
        round trips instead of the transaction's four (BEGIN, the locked read, the write,
        COMMIT); the same outcome as the locked read-modify-write, since a write that
        finds the row changed is not made and the change is computed again. After a few
        such misses (a busy match), or with ``wake``: the transaction."""
        if not wake:
            for _ in range(3):
                row = await self._pool.fetchrow(
                    "SELECT settings, version FROM matches WHERE id = $1", match_id
                )
                if row is None:
                    raise LookupError(match_id)
                settings: dict[str, Any] = mutate(_loads(row[0]), int(row[1]))
                status = await self._pool.execute(
                    "UPDATE matches SET settings = $1 WHERE id = $2 AND version = $3 "
                    "AND settings = $4",
                    _dumps(settings),
                    match_id,
                    row[1],
                    row[0],
                )
                if status.endswith(" 1"):
                    return settings
        return await super().update_settings(match_id, mutate, wake=wake)

    async def settle_sent(
        self, sent: Sequence[int], remembered: Sequence[Remembered] = ()
    ) -> set[int]:
        """:meth:`Store.settle_sent` as one statement (:data:`_SETTLE`): a batch of posts
        costs one round trip to settle instead of a mark and a read and a write each."""
        if len({r.match_id for r in remembered}) != len(remembered):
            raise ValueError("at most one remembered item per match")
        if not sent and not remembered:
            return set()
        rows = await self._pool.fetch(
            _SETTLE,
            self.now(),
            list(sent),
            [r.match_id for r in remembered],
            [r.seen for r in remembered],
            [_dumps(r.settings) for r in remembered],
            [r.outbox_id for r in remembered],
        )
        return {int(r[0]) for r in rows}

    async def commit(
        self,
        match_id: int,
        *,
        expected_version: int,
        status: str,
        state: dict[str, Any] | None,
        moves: Sequence[NewMove] = (),
        result: dict[str, Any] | None = None,
        end_reason: str | None = None,
        notifications: Sequence[Notification] = (),
        seats: Sequence[SeatRow] = (),
        settings_update: Callable[[dict[str, Any], float], dict[str, Any]] | None = None,
        settings_seen: str | None = None,
    ) -> int:
        """A move of a running match in one statement (:data:`_COMMIT_ONE`) instead of a
        transaction of seven round trips (BEGIN, two updates, three inserts, COMMIT):
        each round trip costs both processes CPU. The same rows as :meth:`Store.commit`.
        Whatever that statement cannot do — a finish (ratings run in the transaction), seats
        changing hands, leaving the schedule, a clock update without the settings it was
        computed from — and whenever it wrote nothing (the version moved on, or only the
        settings did: a post remembered) goes through the transaction, which raises the
        conflict or re-reads the settings under the row lock.

        When only the settings moved on (the outbox wrote which message is the turn post,
        while the move was being computed), the statement says so and gives the settings
        as stored: the clock update is computed again from those and the statement sent
        again — one more round trip instead of the transaction's seven. A few such misses
        in a row (a busy match), and the transaction decides."""
        one = (
            status == "running"
            and not seats
            and (settings_update is None or settings_seen is not None)
        )
        attempts = 3 if one else 0
        while attempts:
            attempts -= 1
            now = self.now()  # the store's clock (tests replace it)
            new_settings = None
            if settings_update is not None:
                assert settings_seen is not None
                new_settings = _dumps(settings_update(_loads(settings_seen), now))
            written, stored_version, stored_settings = await self._pool.fetchrow(
                _COMMIT_ONE,
                status,
                _dumps(state) if state is not None else None,
                expected_version + max(1, len(moves)),
                _dumps(result) if result is not None else None,
                end_reason,
                now,
                new_settings,
                match_id,
                expected_version,
                settings_seen,
                [m.kind for m in moves],
                [m.seat for m in moves],
                [m.user_id for m in moves],
                [m.notation for m in moves],
                [m.label for m in moves],
                [_dumps(m.events) for m in moves],
                [n.kind for n in notifications],
                [_dumps(n.payload) for n in notifications],
                [n.due_at or now for n in notifications],
            )
            if written:
                return expected_version + max(1, len(moves))
            if stored_version != expected_version or settings_update is None:
                break  # the match moved on (or is gone): the transaction raises the conflict
            settings_seen = stored_settings  # only the settings changed: compute again
        return await super().commit(
            match_id,
            expected_version=expected_version,
            status=status,
            state=state,
            moves=moves,
            result=result,
            end_reason=end_reason,
            notifications=notifications,
            seats=seats,
            settings_update=settings_update,
        )


#: A move's whole commit as one statement (one round trip, one implicit transaction): the
#: version-checked snapshot update — which also checks that the settings are still those
#: the clock update was computed from —, the move rows after the log's last ply, the
#: outbox rows in order, and the schedule's "look again". Every insert reads from the
#: update's ``RETURNING``, so a failed check writes nothing. All parts see one snapshot;
#: a move row can only be added together with a version bump, so the last ply read here
#: belongs to the version checked (READ COMMITTED re-checks the WHERE on the newest row
#: version after waiting for a racing writer, as the transaction's UPDATE does). Returns
#: whether it wrote, and — when it did not — the version and settings it found (as of the
#: statement's snapshot), so a commit that missed only because the settings changed can
#: be computed again from them.
_COMMIT_ONE = """
WITH u AS (
    UPDATE matches SET status = $1, state = $2, version = $3, result = $4, end_reason = $5,
        updated_at = $6, settings = COALESCE($7, settings)
    WHERE id = $8 AND version = $9 AND ($7::text IS NULL OR settings = $10)
    RETURNING id
), last AS (
    SELECT COALESCE(MAX(ply), 0) AS ply FROM moves WHERE match_id = $8
), m AS (
    INSERT INTO moves (match_id, ply, kind, seat, user_id, notation, label, events, created_at)
    SELECT $8, last.ply + n.i, n.kind, n.seat, n.user_id, n.notation, n.label, n.events, $6
    FROM u, last,
        unnest($11::text[], $12::bigint[], $13::text[], $14::text[], $15::text[], $16::text[])
        WITH ORDINALITY AS n(kind, seat, user_id, notation, label, events, i)
), o AS (
    INSERT INTO outbox (match_id, kind, payload, created_at, due_at)
    SELECT $8, n.kind, n.payload, $6, n.due_at
    FROM u, unnest($17::text[], $18::text[], $19::float8[]) WITH ORDINALITY
        AS n(kind, payload, due_at, i)
    ORDER BY n.i
), s AS (
    INSERT INTO schedule (match_id, data, due_at) SELECT $8, '{}', 0 FROM u
    ON CONFLICT (match_id) DO UPDATE SET due_at = 0
)
SELECT w.n, x.version, x.settings
FROM (SELECT count(*) AS n FROM u) w
LEFT JOIN matches x ON w.n = 0 AND x.id = $8
"""


#: Settle a batch of delivered posts in one statement: write each remembered match's
#: settings where they are still the text they were computed from, then mark sent the
#: plain items and the remembered ones whose settings were written (the others stay
#: claimed, for the caller to redo from what is stored). One implicit transaction. The ids
#: to mark are one array (``id = ANY``: probes of the primary key); an ``OR`` of two
#: conditions there made PostgreSQL scan the whole outbox (30 ms at 100,000 posts).
_SETTLE = """
WITH r AS (
    UPDATE matches m SET settings = v.new
    FROM unnest($3::bigint[], $4::text[], $5::text[]) AS v(id, old, new)
    WHERE m.id = v.id AND m.settings = v.old
    RETURNING m.id
)
UPDATE outbox SET sent_at = $1, attempts = attempts + 1, claimed_until = NULL
WHERE id = ANY(ARRAY(
    SELECT unnest($2::bigint[])
    UNION ALL
    SELECT w.oid FROM unnest($3::bigint[], $6::bigint[]) AS w(mid, oid) JOIN r ON r.id = w.mid
))
RETURNING id
"""


async def _reset_identities(conn: Connection) -> None:
    for table in ("matches", "outbox", "leagues"):
        await conn.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
            f"(SELECT COALESCE(MAX(id), 0) + 1 FROM {table}), false)"
        )
