"""SQLite's read connection: every statement read to its end at once (why: see
:class:`SettledReader`)."""

from __future__ import annotations

from typing import Any

import aiosqlite


class _Rows:
    """The rows of a statement that has already run to its end."""

    def __init__(self, rows: list[Any]) -> None:
        self._rows = rows
        self._next = 0

    async def fetchone(self) -> Any:
        if self._next >= len(self._rows):
            return None
        self._next += 1
        return self._rows[self._next - 1]

    async def fetchall(self) -> list[Any]:
        rows, self._next = self._rows[self._next :], len(self._rows)
        return rows


class SettledReader:
    """The read connection, with every statement run to its end at once.

    Why: in WAL mode a statement that has not finished (a ``fetchone`` that left rows
    behind, a cursor still alive in a coroutine waiting for something else) keeps the
    connection's read transaction open, and every other read on the connection then sees
    the database as it was when that transaction began. With reads interleaved on one
    connection (pictures drawn behind a move, ratings, the outbox), a match created a
    moment ago could be "not found" by the next read. Reading every result at once and
    closing the cursor ends the read transaction with each statement."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Any = ()) -> _Rows:
        # one call on the connection's thread: run *and* read to the end. Two awaits
        # (execute, then fetchall) let another coroutine's statement run in between, while
        # this one's read transaction is still open, and that statement then read the
        # database as it was before (a match created a moment ago: "not found").
        return _Rows(list(await self._conn.execute_fetchall(sql, params)))

    async def close(self) -> None:
        await self._conn.close()
