"""The limits a process's database connections are opened with, from the settings.

Why apart from the pool (:mod:`bot.storage.pg_pool`): the opener reads them from the
settings without importing asyncpg (an optional dependency), and tests build them directly.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DatabaseLimits:
    """The connection settings of one process (``TESSERA_DB_*``, see ``bot/settings.py``).

    The default pool of 5: PostgreSQL's default ``max_connections`` is 100, of which 3 are
    kept for superusers; 97 // 5 = 19 bot processes fit, with a connection or two left for
    ``migrate``, ``copy-db`` or a person's ``psql``. A statement holds its connection only
    while it runs, so a process that needs a sixth at one moment waits for one to come
    back (at most the statement timeout) instead of failing."""

    pool_size: int = 5
    statement_timeout: float = 5.0
    connect_timeout: float = 5.0
    keepalive_seconds: int = 30

    @property
    def keepalive_interval(self) -> int:
        return max(1, self.keepalive_seconds // 3)

    #: probes unanswered before a connection counts as dead
    keepalive_count = 3

    @classmethod
    def from_settings(cls) -> DatabaseLimits:
        """The ``TESSERA_DB_*`` settings (checked by ``bot/settings.py``: a wrong value is
        refused there, in words naming what is allowed)."""
        from bot.settings import Settings

        settings = Settings()
        return cls(
            pool_size=settings.db_pool_size,
            statement_timeout=settings.db_statement_timeout,
            connect_timeout=settings.db_connect_timeout,
            keepalive_seconds=settings.db_keepalive_seconds,
        )
