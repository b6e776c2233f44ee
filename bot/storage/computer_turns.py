"""The index of computer turns: which running matches may wait for a computer seat now, so
the computer driver (``bot/computers/driver.py``) never reads every running match.

Why a table kept by triggers, and why two kinds of rows. Whether a match waits for a
computer is a question of the game's rules (``Game.waits_for`` over the state), which the
store cannot answer; but the store sees every change that can make the answer yes: a move,
an undo, a start, a clock running out, a seat handed to a computer or back to a person
(``matches.version`` or ``status`` changes, ``seats.user_id`` changes). Triggers on those
columns — not calls in each code path, so no path can forget, the one-statement PostgreSQL
commit included — mark such a match **unjudged** (``due`` NULL) at its new version, and
remove it when it stops running. The driver then judges each unjudged row with the rules:
a match that waits for a person leaves the index (only if it is still at the version
judged), one that waits for a computer becomes **due** (``due`` = 1) until its next change.
So after the driver's look the index holds exactly the matches that wait for a computer,
and a change made meanwhile is never lost (it marks the row again at a newer version).

Each row carries its server's ``guild_key``, so a process reads only its own shards' rows;
a match of no server (direct messages, the console) belongs to shard 0, as Discord sends
direct messages on shard 0 — never to every process, or each would decide its turns.
Rows come oldest change first (``since``: the match's ``updated_at`` when marked), so a
backlog is worked off in order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.backend import Backend
from bot.storage.rows import ShardSlice

#: Marks every running match with a computer seat (both backends): the migration step's
#: last statement, so matches running before the index existed are judged once.
FILL = """
INSERT INTO computer_turns (match_id, guild_key, version, since, due)
SELECT id, guild_key, version, updated_at, NULL FROM matches m
WHERE status = 'running'
    AND EXISTS (SELECT 1 FROM seats s WHERE s.match_id = m.id AND s.user_id LIKE 'ai:%')
ON CONFLICT (match_id) DO NOTHING
"""

#: The migration step on SQLite (``bot/storage/migrations.py``). Re-runnable.
COMPUTER_TURNS_SQLITE = (
    """
CREATE TABLE IF NOT EXISTS computer_turns (
    match_id  INTEGER PRIMARY KEY,
    guild_key INTEGER,
    version   INTEGER NOT NULL,
    since     REAL    NOT NULL,
    due       INTEGER
);
CREATE INDEX IF NOT EXISTS computer_turns_order ON computer_turns (due, since, match_id);
CREATE TRIGGER IF NOT EXISTS computer_turns_mark AFTER UPDATE OF version, status ON matches
WHEN NEW.status = 'running'
    AND EXISTS (SELECT 1 FROM seats WHERE match_id = NEW.id AND user_id LIKE 'ai:%')
BEGIN
    INSERT INTO computer_turns (match_id, guild_key, version, since, due)
    VALUES (NEW.id, NEW.guild_key, NEW.version, NEW.updated_at, NULL)
    ON CONFLICT (match_id) DO UPDATE SET version = excluded.version, since = excluded.since,
        due = NULL;
END;
CREATE TRIGGER IF NOT EXISTS computer_turns_end AFTER UPDATE OF status ON matches
WHEN NEW.status <> 'running'
BEGIN
    DELETE FROM computer_turns WHERE match_id = NEW.id;
END;
CREATE TRIGGER IF NOT EXISTS computer_turns_seat AFTER UPDATE OF user_id ON seats
WHEN NEW.user_id LIKE 'ai:%'
BEGIN
    INSERT INTO computer_turns (match_id, guild_key, version, since, due)
    SELECT id, guild_key, version, updated_at, NULL FROM matches
    WHERE id = NEW.match_id AND status = 'running'
    ON CONFLICT (match_id) DO UPDATE SET version = excluded.version, since = excluded.since,
        due = NULL;
END;
"""
    + FILL
)

#: The same step on PostgreSQL (``bot/storage/postgres_migrations.py``). Re-runnable.
COMPUTER_TURNS_POSTGRES = (
    """
CREATE TABLE IF NOT EXISTS computer_turns (
    match_id  BIGINT PRIMARY KEY,
    guild_key BIGINT,
    version   BIGINT NOT NULL,
    since     DOUBLE PRECISION NOT NULL,
    due       BIGINT
);
CREATE INDEX IF NOT EXISTS computer_turns_order ON computer_turns (due, since, match_id);
CREATE OR REPLACE FUNCTION computer_turns_mark() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status <> 'running' THEN
        DELETE FROM computer_turns WHERE match_id = NEW.id;
    ELSIF EXISTS (SELECT 1 FROM seats WHERE match_id = NEW.id AND user_id LIKE 'ai:%') THEN
        INSERT INTO computer_turns (match_id, guild_key, version, since, due)
        VALUES (NEW.id, NEW.guild_key, NEW.version, NEW.updated_at, NULL)
        ON CONFLICT (match_id) DO UPDATE SET version = EXCLUDED.version,
            since = EXCLUDED.since, due = NULL;
    END IF;
    RETURN NULL;
END
$$;
CREATE OR REPLACE FUNCTION computer_turns_mark_seat() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO computer_turns (match_id, guild_key, version, since, due)
    SELECT id, guild_key, version, updated_at, NULL FROM matches
    WHERE id = NEW.match_id AND status = 'running'
    ON CONFLICT (match_id) DO UPDATE SET version = EXCLUDED.version,
        since = EXCLUDED.since, due = NULL;
    RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS computer_turns_mark ON matches;
CREATE TRIGGER computer_turns_mark AFTER UPDATE OF version, status ON matches FOR EACH ROW
    WHEN (NEW.status = 'running' OR OLD.status = 'running')
    EXECUTE FUNCTION computer_turns_mark();
DROP TRIGGER IF EXISTS computer_turns_seat ON seats;
CREATE TRIGGER computer_turns_seat AFTER UPDATE OF user_id ON seats FOR EACH ROW
    WHEN (NEW.user_id LIKE 'ai:%')
    EXECUTE FUNCTION computer_turns_mark_seat();
"""
    + FILL
)


@dataclass(frozen=True, slots=True)
class Marked:
    """One row of the index: a match, the version it was marked (or judged) at, and
    whether it was judged to wait for a computer (None: not judged since that change)."""

    match_id: int
    version: int
    since: float
    due: bool | None


def shard_sql(shards: ShardSlice | None) -> tuple[str, list[Any]]:
    """SQL that keeps the rows of ``shards`` (both backends), and its parameters. Unlike
    :meth:`ShardSlice.clause`, a match of no server belongs to shard 0 only: its computer
    turns must be decided by one process, not by every one."""
    if shards is None:
        return "", []
    marks = ",".join("?" * len(shards.ids))
    no_server = "guild_key IS NULL OR " if 0 in shards.ids else ""
    return f" AND ({no_server}(guild_key >> 22) % ? IN ({marks}))", [shards.count, *shards.ids]


def owns(shards: ShardSlice | None, guild_key: int | None) -> bool:
    """:func:`shard_sql` in Python."""
    if shards is None:
        return True
    shard = 0 if guild_key is None else (guild_key >> 22) % shards.count
    return shard in shards.ids


class ComputerTurnIndex:
    """Reads and verdicts on the ``computer_turns`` table of one store."""

    _COLUMNS = "match_id, version, since, due"

    def __init__(self, store: Backend, shards: ShardSlice | None = None) -> None:
        self._store = store
        self.shards = shards

    @staticmethod
    def _marked(row: Sequence[Any]) -> Marked:
        return Marked(int(row[0]), int(row[1]), float(row[2]), None if row[3] is None else True)

    async def due(self, limit: int) -> list[Marked]:
        """Matches judged to wait for a computer, oldest change first."""
        shard, params = shard_sql(self.shards)
        cur = await self._store._reader.execute(
            f"SELECT {self._COLUMNS} FROM computer_turns WHERE due = 1{shard} "
            "ORDER BY since, match_id LIMIT ?",
            (*params, limit),
        )
        return [self._marked(r) for r in await cur.fetchall()]

    async def unjudged(self, after: tuple[float, int] | None, limit: int) -> list[Marked]:
        """Matches changed since the driver last judged them, oldest change first, after
        ``after`` (``since``, ``match_id``: pages through them once)."""
        shard, params = shard_sql(self.shards)
        where, start = "", []
        if after is not None:
            # a row value, which both backends read as a range of the index (an OR of
            # the two columns was read from the index's start on PostgreSQL: every page
            # visited the pages before it, 180 s to judge 30,000 matches)
            where, start = " AND (since, match_id) > (?, ?)", [after[0], after[1]]
        cur = await self._store._reader.execute(
            f"SELECT {self._COLUMNS} FROM computer_turns WHERE due IS NULL{where}{shard} "
            "ORDER BY since, match_id LIMIT ?",
            (*start, *params, limit),
        )
        return [self._marked(r) for r in await cur.fetchall()]

    async def judge(self, verdicts: Sequence[tuple[int, int, bool]]) -> None:
        """Store the driver's verdicts ``(match_id, version, waits for a computer)``, each
        only where the row is still at that version or older (a newer change stays
        unjudged): a match that waits for a person leaves the index; one that waits for a
        computer is due. One statement for each kind, whatever the number of verdicts
        (PostgreSQL: one round trip each, no transaction around them: they touch
        different rows, and each is whole on its own)."""
        for due in (False, True):
            pairs = [(m, v) for m, v, is_due in verdicts if is_due == due]
            if not pairs:
                continue
            values = ", ".join(["(CAST(? AS BIGINT), CAST(? AS BIGINT))"] * len(pairs))
            judged = "(SELECT v FROM verdicts WHERE m = computer_turns.match_id)"
            change = (
                f"UPDATE computer_turns SET due = 1, version = {judged}"
                if due
                else ("DELETE FROM computer_turns")
            )
            await self._store._write_one(
                f"WITH verdicts (m, v) AS (VALUES {values}) {change} "
                f"WHERE match_id IN (SELECT m FROM verdicts) AND version <= {judged}",
                [x for pair in pairs for x in pair],
            )

    async def counts(self) -> tuple[int, int]:
        """(due, unjudged) rows of these shards: computer turns pending, for figures."""
        shard, params = shard_sql(self.shards)
        cur = await self._store._reader.execute(
            "SELECT COALESCE(SUM(CASE WHEN due = 1 THEN 1 ELSE 0 END), 0), "
            "COALESCE(SUM(CASE WHEN due IS NULL THEN 1 ELSE 0 END), 0) "
            f"FROM computer_turns WHERE true{shard}",
            params,
        )
        row = await cur.fetchone()
        assert row is not None  # an aggregate always gives one row
        return int(row[0]), int(row[1])


__all__ = [
    "COMPUTER_TURNS_POSTGRES",
    "COMPUTER_TURNS_SQLITE",
    "FILL",
    "ComputerTurnIndex",
    "Marked",
    "owns",
    "shard_sql",
]
