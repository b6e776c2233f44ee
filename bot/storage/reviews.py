"""The cache of post-game reviews: one row per finished match, its analysis as JSON.

Why stored and not only kept in memory: a review costs up to a minute of the thinking
workers' CPU (``bot/matches/review.py``), and a finished match never changes, so a second
``/review`` — by anyone, after a restart, in another bot process on the same database —
reads the row instead of searching again. The row is **language-free**: each judged
decision's verdict, moves and reasons as message JSON (``rules.words.to_json``), said in
the reader's language only when read; so one row serves every language.

``plies`` (the match's last ply when analysed) and ``engine`` (the review engine's version,
:data:`bot.matches.review.ENGINE`) say what the row was made from: a row of another ply
count or engine is not used (and is replaced when the review is made again).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.storage.backend import Backend

_TABLE = """
CREATE TABLE IF NOT EXISTS reviews (
    match_id   {int} PRIMARY KEY,
    plies      {int} NOT NULL,
    engine     TEXT NOT NULL,
    analysis   TEXT NOT NULL,
    created_at {real} NOT NULL
);
"""
#: The migration step on SQLite (``bot/storage/migrations.py``). Re-runnable, so its place
#: in the list may move when steps of parallel work are merged.
REVIEWS_SQLITE = _TABLE.format(int="INTEGER", real="REAL")
#: The same step on PostgreSQL (``bot/storage/postgres_migrations.py``).
REVIEWS_POSTGRES = _TABLE.format(int="BIGINT", real="DOUBLE PRECISION")


@dataclass(frozen=True, slots=True)
class StoredReview:
    match_id: int
    plies: int
    engine: str
    analysis: dict[str, Any]
    created_at: float


class ReviewTable:
    """Reads and writes of the ``reviews`` table of one store (either backend)."""

    def __init__(self, store: Backend) -> None:
        self._store = store

    async def get(self, match_id: int) -> StoredReview | None:
        cur = await self._store._reader.execute(
            "SELECT match_id, plies, engine, analysis, created_at FROM reviews WHERE match_id = ?",
            (match_id,),
        )
        row = await cur.fetchone()
        if row is None:
            return None
        return StoredReview(
            int(row[0]), int(row[1]), str(row[2]), json.loads(row[3]), float(row[4])
        )

    async def put(self, match_id: int, plies: int, engine: str, analysis: dict[str, Any]) -> None:
        """Store (or replace) the analysis of ``match_id``."""
        await self._store._write_one(
            "INSERT INTO reviews (match_id, plies, engine, analysis, created_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (match_id) DO UPDATE SET "
            "plies = excluded.plies, engine = excluded.engine, analysis = excluded.analysis, "
            "created_at = excluded.created_at",
            (match_id, plies, engine, json.dumps(analysis, ensure_ascii=False), self._store.now()),
        )
