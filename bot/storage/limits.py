"""The limits a process's database connections are opened with, from the settings.

Why apart from the pool (:mod:`bot.storage.pg_pool`): the opener reads them from the
settings without importing asyncpg (an optional dependency), and tests build them directly.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, replace

#: Seconds the client waits beyond the server's statement timeout (see ``answer_timeout``).
ANSWER_MARGIN_SECONDS = 1.0
#: Seconds a statement of a command-line tool may take (see :func:`for_tools`).
TOOL_STATEMENT_SECONDS = 600.0
_for_tools = False


@contextlib.contextmanager
def for_tools() -> Iterator[None]:
    """Within: this process runs a command-line tool (``audit``, ``copy-db``, ``migrate``,
    ``ratings``, ``export``, ``replay``), whose statements may take up to
    :data:`TOOL_STATEMENT_SECONDS`. Why: a tool reads or writes whole tables (one long
    statement is its normal work, not a stall) and no player waits on it; the bot's own
    statements keep ``TESSERA_DB_STATEMENT_TIMEOUT``."""
    global _for_tools
    before, _for_tools = _for_tools, True
    try:
        yield
    finally:
        _for_tools = before


@dataclass(frozen=True)
class DatabaseLimits:
    """The connection settings of one process (``TESSERA_DB_*``, see ``bot/settings.py``).

    The default pool of 5: PostgreSQL's default ``max_connections`` is 100, of which 3 are
    kept for superusers; 97 // 5 = 19 bot processes fit, with a connection or two left for
    ``migrate``, ``copy-db`` or a person's ``psql``. A statement holds its connection only
    while it runs, so a process that needs a sixth at one moment waits for one to come
    back (at most the statement timeout) instead of failing. Measured (``python -m bot load
    --processes 3 --matches 3000 --seconds 20 --no-pictures``, 8 players a process, on a
    machine other work kept at load 9): 168-216 moves/s with 5, 204-257 with 10, posts
    0.3-0.5 s after their commit (p50) either way; a bot's real concurrency is far lower
    than 8 moves at once a process. Raise it when few processes share the server."""

    pool_size: int = 5
    statement_timeout: float = 5.0
    connect_timeout: float = 5.0
    keepalive_seconds: int = 30

    @property
    def answer_timeout(self) -> float:
        """How long the client waits for any answer: the statement timeout and a second.
        Why longer than the server's: a slow statement is then cancelled by the server (a
        clean "rolled back, nothing written") before the client gives up; only a server
        that does not answer at all leaves a statement's outcome unknown."""
        return self.statement_timeout + ANSWER_MARGIN_SECONDS

    @property
    def keepalive_interval(self) -> int:
        return max(1, self.keepalive_seconds // 3)

    #: probes unanswered before a connection counts as dead
    keepalive_count = 3

    @classmethod
    def from_settings(cls, *, tool: bool = False) -> DatabaseLimits:
        """The ``TESSERA_DB_*`` settings (checked by ``bot/settings.py``: a wrong value is
        refused there, in words naming what is allowed); ``tool`` (or :func:`for_tools`
        called): statements may take :data:`TOOL_STATEMENT_SECONDS`."""
        from bot.settings import Settings

        settings = Settings()
        limits = cls(
            pool_size=settings.db_pool_size,
            statement_timeout=settings.db_statement_timeout,
            connect_timeout=settings.db_connect_timeout,
            keepalive_seconds=settings.db_keepalive_seconds,
        )
        if tool or _for_tools:
            wait = max(limits.statement_timeout, TOOL_STATEMENT_SECONDS)
            return replace(limits, statement_timeout=wait)
        return limits
