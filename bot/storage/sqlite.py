"""Durable storage of matches: SQLite through aiosqlite, WAL, versioned migrations.

Why two connections: the writer runs every change as one ``BEGIN IMMEDIATE`` transaction
behind an asyncio lock (SQLite has one writer anyway); the reader only ever sees committed
data thanks to WAL, so a move being written can never be half-visible to another request.

Why an optimistic version: a move is computed from a state read earlier; the commit only
succeeds if the match is still at the version that state had. Two racing clicks (or two bot
processes sharing the file) therefore can never both apply — the loser gets
:class:`VersionConflict` and is told the board changed.

The store knows nothing of games, Discord or pictures: it keeps rows. A server database
(PostgreSQL) can replace it behind the same methods.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.faults import ConnectionLost, MoveKey
from bot.storage.leagues import LeagueTables
from bot.storage.match_tables import MatchTables
from bot.storage.migrations import migrate
from bot.storage.outbox import OutboxTable
from bot.storage.reader import SettledReader
from bot.storage.schedule import ScheduleTable
from bot.storage.users import UserTable


class Store(MatchTables, OutboxTable, UserTable, ScheduleTable, LeagueTables):
    """The store on SQLite. Open with :meth:`open`, close with :meth:`close`.

    Its methods come from the table classes it is made of (:class:`MatchTables`,
    :class:`OutboxTable`, :class:`UserTable`, :class:`ScheduleTable`,
    :class:`LeagueTables`), whose SQL is written once for both backends (``?``
    placeholders, standard SQL); here is only SQLite's connection handling.
    :class:`bot.storage.postgres.PostgresStore` runs the same methods
    on PostgreSQL and replaces the connection handling and the row-locking suffixes
    (:class:`bot.storage.backend.Backend`).
    """

    def __init__(
        self,
        path: Path | str,
        writer: aiosqlite.Connection,
        reader: aiosqlite.Connection | SettledReader,
    ):
        self.path = str(path)
        self._writer = writer
        self._reader = reader
        self._write_lock = asyncio.Lock()

    # ----- lifecycle ---------------------------------------------------------------------
    @classmethod
    async def open(cls, path: Path | str, *, synchronous: str = "NORMAL") -> Store:
        """Open (creating and migrating if needed). ``synchronous=NORMAL`` in WAL mode keeps
        every committed transaction across a process crash; only a power loss can lose the
        last ones, and ``FULL`` closes that gap at about twice the commit cost."""
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        writer = await aiosqlite.connect(str(path), isolation_level=None)
        try:
            await writer.execute("PRAGMA journal_mode=WAL")
            await writer.execute(f"PRAGMA synchronous={synchronous}")
            await writer.execute("PRAGMA busy_timeout=10000")
            await writer.execute("PRAGMA foreign_keys=ON")
            store_path = str(path)
            await migrate(writer)
        except BaseException:
            # a file that is no database: close the connection's thread, or the process
            # could never exit (aiosqlite's thread is not a daemon)
            await writer.close()
            raise
        reader: aiosqlite.Connection | SettledReader = writer  # ":memory:": one connection
        if store_path != ":memory:":
            conn = await aiosqlite.connect(store_path, isolation_level=None)
            await conn.execute("PRAGMA busy_timeout=10000")
            await conn.execute("PRAGMA query_only=ON")
            reader = SettledReader(conn)
        return cls(path, writer, reader)

    async def schema_version(self) -> int:
        cur = await self._reader.execute("PRAGMA user_version")
        (version,) = await cur.fetchone()  # type: ignore[misc]
        return int(version)

    async def move_stored(self, key: MoveKey, lost: ConnectionLost | None = None) -> bool | None:
        """Whether the move ``key`` names is in the log (None: the database cannot tell now).
        Why: a commit whose answer was lost (PostgreSQL: the connection broke under it)
        must be read back before the player is told anything; SQLite is a local file with
        no connection to lose, so here it is a plain read."""
        cur = await self._reader.execute(
            "SELECT user_id, notation FROM moves WHERE match_id = ? AND ply = ?",
            (key.match_id, key.ply),
        )
        row = await cur.fetchone()
        return row is not None and (row[0], row[1]) == (key.user_id, key.notation)

    async def close(self) -> None:
        if self._reader is not self._writer:
            await self._reader.close()
        await self._writer.close()

    # ----- transactions ------------------------------------------------------------------
    async def _transaction(self, work: Any) -> Any:
        """Run ``await work(conn)`` inside BEGIN IMMEDIATE .. COMMIT, rolling back on error."""
        async with self._write_lock:
            await self._writer.execute("BEGIN IMMEDIATE")
            try:
                result = await work(self._writer)
            except BaseException:
                await self._writer.execute("ROLLBACK")
                raise
            await self._writer.execute("COMMIT")
            return result

    async def _write_one(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """One statement that writes, as a transaction of its own; returns its rows (a
        ``RETURNING``). Here through the writer like every transaction; PostgreSQL runs it
        without ``BEGIN`` and ``COMMIT`` (a lone statement is a transaction there), which
        would be two more round trips to the server for each such write."""

        async def work(conn: aiosqlite.Connection) -> list[Any]:
            cur = await conn.execute(sql, tuple(params))
            return list(await cur.fetchall())

        return list(await self._transaction(work))

    async def _after_copy(self, conn: aiosqlite.Connection) -> None:
        """After ``copy-db`` wrote rows with their ids: nothing to do on SQLite (a new row
        takes the largest id + 1)."""
