"""What every table class of the store stands on: its read connection, its transactions,
its clock, and the few pieces of SQL in which the two backends differ.

Why a class of its own: the store's methods are grouped by the tables they own
(:mod:`bot.storage.match_tables`, :mod:`bot.storage.outbox`, :mod:`bot.storage.users`,
:mod:`bot.storage.schedule`) and the SQLite :class:`bot.storage.sqlite.Store` is those groups
together. Each group is written against this class alone, so no group imports another's
class, and :class:`bot.storage.postgres.PostgresStore` needs to replace only what is
declared here (and, for speed, a few methods of the groups).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import aiosqlite

from bot.storage.clock import current_time
from bot.storage.reader import SettledReader


class Backend:
    """The connection handling the table classes call; :class:`bot.storage.sqlite.Store`
    implements it on SQLite, :class:`bot.storage.postgres.PostgresStore` on PostgreSQL.

    The SQL of the table classes is written once for both backends (``?`` placeholders,
    standard SQL); the suffixes below are where they differ.
    """

    #: Row lock for read-modify-write transactions. SQLite's ``BEGIN IMMEDIATE`` already
    #: takes the whole database; PostgreSQL locks the rows read.
    _FOR_UPDATE = ""
    #: Claim suffix: skip rows another process is claiming right now (PostgreSQL).
    _SKIP_LOCKED = ""
    #: Statement that serialises rating updates inside a transaction (SQLite: the write
    #: lock already does; PostgreSQL: an advisory lock), parameter: a fixed key. A rebuild
    #: of every rating takes it alone.
    _RATINGS_LOCK = ""
    #: The same for one board's update (a finish): parameters the fixed key, shared with
    #: other finishes (so a rebuild waits for them and they for it), and the board's key,
    #: held alone (``bot/community/ratings.py: board_lock_key``).
    _RATINGS_BOARD_LOCK = ""
    #: Called inside :meth:`commit`'s transaction when a match finishes, with the store,
    #: the connection, the match id and the notifications; returns the notifications to
    #: queue (bot/community/ratings.py adds each person's rating change to the final post).
    on_finish: Any = None

    #: Where the database is (a file path or a URL).
    path: str
    #: The connection reads go through: they only ever see committed data.
    _reader: aiosqlite.Connection | SettledReader

    async def _transaction(self, work: Any) -> Any:
        """Run ``await work(conn)`` in one transaction, rolling back on error."""
        raise NotImplementedError

    async def _write_one(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """One statement that writes, as a transaction of its own; returns its rows."""
        raise NotImplementedError

    @staticmethod
    def now() -> float:
        """The time the store stamps rows with (tests replace :mod:`bot.storage.clock`'s
        clock), for callers that compare with those stamps (clocks, away periods)."""
        return current_time()
