"""Which store a database location names, and opening it.

Why a module of its own: the opener must know both backends, while the PostgreSQL backend
builds on the SQLite store; with the opener apart, neither backend imports the other's
user, and PostgreSQL's module (``asyncpg`` is optional) is imported only when a
``postgresql://`` URL is opened.
"""

from __future__ import annotations

from pathlib import Path

from bot.storage.limits import DatabaseLimits
from bot.storage.sqlite import Store


def is_postgres_url(location: Path | str) -> bool:
    return str(location).startswith(("postgresql://", "postgres://"))


async def open_store(
    location: Path | str, *, synchronous: str = "NORMAL", limits: DatabaseLimits | None = None
) -> Store:
    """The store for a database location: a ``postgresql://`` URL opens PostgreSQL (several
    bot processes may share it), anything else is an SQLite file path. PostgreSQL's
    connections follow ``limits`` (default: the ``TESSERA_DB_*`` settings)."""
    if is_postgres_url(location):
        try:
            from bot.storage.postgres import PostgresStore
        except ImportError as exc:  # asyncpg is the optional extra "postgres"
            raise RuntimeError(
                "a postgresql:// database needs asyncpg: pip install -e '.[postgres]'"
            ) from exc

        return await PostgresStore.open(
            str(location), limits=limits or DatabaseLimits.from_settings()
        )
    return await Store.open(location, synchronous=synchronous)
