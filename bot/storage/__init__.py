"""Where matches are kept: the store interface, its SQLite and PostgreSQL backends, the schema
migrations and ``copy-db``. Nothing here knows a game's rules or a front end.

The names below are the package's interface; the rest of the bot imports them from here, so
the modules behind them can be rearranged without touching their users. The PostgreSQL
backend (``bot.storage.postgres``) is imported only when a ``postgres://`` URL is opened:
``asyncpg`` is an optional dependency.
"""

from bot.storage.migrations import MIGRATIONS
from bot.storage.opening import is_postgres_url, open_store
from bot.storage.rows import (
    MatchRow,
    MoveRow,
    NewMove,
    Notification,
    Remembered,
    Seated,
    SeatRow,
    ShardSlice,
    VersionConflict,
)
from bot.storage.sqlite import Store

__all__ = [
    "MIGRATIONS",
    "MatchRow",
    "MoveRow",
    "NewMove",
    "Notification",
    "Remembered",
    "SeatRow",
    "Seated",
    "ShardSlice",
    "Store",
    "VersionConflict",
    "is_postgres_url",
    "open_store",
]
