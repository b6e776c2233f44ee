"""``python -m bot copy-db FROM TO``: move a whole database to another backend.

Why this shape: a bot that outgrows SQLite must reach PostgreSQL without losing a move. The
copy reads the source inside one transaction (SQLite: the write lock, so no move can land
mid-copy; PostgreSQL: a repeatable-read snapshot) and writes the target inside one
transaction, so a copy that fails half-way leaves the target empty rather than half full.
Every row keeps its id (buttons, threads and outbox nonces name them). The target must be
empty. Afterwards the row counts are compared and every match is audited on the target
(replayed from seed + moves and compared with its snapshot).

Stop the bot before copying; start it on the target afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.storage.opening import is_postgres_url, open_store
from bot.storage.sqlite import Store

#: Every table with its columns (schema version 4) and its key, parents before children.
TABLES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "matches": (
        (
            "id", "game_id", "options", "seed", "status", "creator_id", "guild_id",
            "channel_id", "thread_id", "max_players", "version", "state", "result",
            "end_reason", "settings", "created_at", "updated_at", "guild_key",
        ),
        ("id",),
    ),
    "seats": (("match_id", "seat", "user_id", "name", "joined_at"), ("match_id", "seat")),
    "moves": (
        (
            "match_id", "ply", "kind", "seat", "user_id", "notation", "label", "events",
            "created_at",
        ),
        ("match_id", "ply"),
    ),
    "outbox": (
        (
            "id", "match_id", "kind", "payload", "created_at", "due_at", "attempts",
            "last_error", "sent_at", "claimed_by", "claimed_until", "dedup_key", "claims",
            "tried_at",
        ),
        ("id",),
    ),
    "users": (("user_id", "name", "locale", "notify", "settings"), ("user_id",)),
    "schedule": (("match_id", "data", "due_at"), ("match_id",)),
    "ratings": (
        ("guild_id", "game_id", "user_id", "name", "mu", "sigma", "games", "updated_at"),
        ("guild_id", "game_id", "user_id"),
    ),
    "rating_changes": (
        (
            "match_id", "user_id", "guild_id", "game_id", "finished_at", "mu_before",
            "sigma_before", "mu_after", "sigma_after",
        ),
        ("match_id", "user_id"),
    ),
    # the computer driver's index (bot/storage/computer_turns.py), copied as it stands
    "computer_turns": (("match_id", "guild_key", "version", "since", "due"), ("match_id",)),
    # the cache of post-game reviews (bot/storage/reviews.py)
    "reviews": (("match_id", "plies", "engine", "analysis", "created_at"), ("match_id",)),
    # leagues (bot/storage/leagues.py), after the matches their rounds name
    "leagues": (
        (
            "id", "guild_id", "channel_id", "creator_id", "name", "game_id", "format",
            "table_size", "rounds", "days_per_move", "signup_until", "rated", "language",
            "fill", "status", "round", "seed", "version", "settings", "created_at",
            "updated_at",
        ),
        ("id",),
    ),
    "league_players": (
        ("league_id", "user_id", "name", "joined_at", "left_at"), ("league_id", "user_id"),
    ),
    "league_matches": (
        ("league_id", "round", "table_no", "match_id"), ("league_id", "round", "table_no"),
    ),
    "league_byes": (("league_id", "round", "user_id"), ("league_id", "round", "user_id")),
}  # fmt: skip

#: Columns that hold a real number (SQLite may hand back an int where a float was stored).
FLOATS = {
    "created_at", "updated_at", "joined_at", "due_at", "sent_at", "claimed_until", "tried_at",
    "mu", "sigma",
    "finished_at", "mu_before", "sigma_before", "mu_after", "sigma_after", "since",
    "days_per_move", "signup_until", "left_at",
}  # fmt: skip

BATCH = 1000


@dataclass
class CopyReport:
    counts: dict[str, int]
    audit_problems: list[str]


async def _rows(conn: Any, table: str, after: tuple[Any, ...] | None) -> list[Any]:
    columns, key = TABLES[table]
    where = ""
    params: list[Any] = []
    if after is not None:
        where = f" WHERE ({', '.join(key)}) > ({', '.join('?' * len(key))})"
        params = list(after)
    cur = await conn.execute(
        f"SELECT {', '.join(columns)} FROM {table}{where} ORDER BY {', '.join(key)} LIMIT ?",
        (*params, BATCH),
    )
    return list(await cur.fetchall())


def _clean(table: str, row: Any) -> tuple[Any, ...]:
    columns, _ = TABLES[table]
    return tuple(
        float(v) if c in FLOATS and v is not None else v for c, v in zip(columns, row, strict=True)
    )


async def copy_database(source: Path | str, target: Path | str) -> CopyReport:
    """Copy everything from ``source`` to the empty ``target``; returns the row counts and
    the target's audit problems (none expected)."""
    from bot.matches.service import MatchService

    src = await open_store(source)
    dst = await open_store(target)
    counts: dict[str, int] = {}
    try:
        for table in TABLES:
            if await _count(dst, table):
                raise RuntimeError(
                    f"the target already holds data ({table}): copy into an empty one"
                )

        async def read_all(conn: Any) -> None:
            if is_postgres_url(source):
                await conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")

            async def write_all(out: Any) -> None:
                for table, (columns, key) in TABLES.items():
                    counts[table] = 0
                    after: tuple[Any, ...] | None = None
                    insert = (
                        f"INSERT INTO {table} ({', '.join(columns)}) "
                        f"VALUES ({', '.join('?' * len(columns))})"
                    )
                    while rows := await _rows(conn, table, after):
                        await out.executemany(insert, [_clean(table, r) for r in rows])
                        counts[table] += len(rows)
                        last = rows[-1]
                        after = tuple(last[columns.index(k)] for k in key)
                await dst._after_copy(out)

            await dst._transaction(write_all)

        await src._transaction(read_all)
        for table in TABLES:
            n = await _count(dst, table)
            if n != counts[table]:
                raise RuntimeError(f"{table}: copied {counts[table]} rows, target holds {n}")
    finally:
        await src.close()
        await dst.close()
    service = await MatchService.open(target, render=False)
    try:
        problems = [f"match #{p.match_id}: {p.problem}" for p in await service.audit()]
    finally:
        await service.close()
    return CopyReport(counts, problems)


async def _count(store: Store, table: str) -> int:
    """The rows ``table`` holds in ``store``."""
    cur = await store._reader.execute(f"SELECT COUNT(*) FROM {table}")
    row = await cur.fetchone()
    assert row is not None  # COUNT(*) always gives one row
    return int(row[0])


async def migrate_only(location: Path | str) -> int:
    """Open (which applies the missing migrations) and report the schema version."""
    store: Store = await open_store(location)
    try:
        return await store.schema_version()
    finally:
        await store.close()
