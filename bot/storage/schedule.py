"""The scheduler's memory of each match (reminders sent, when the current turn began,
thread keep-alive) and the index of when each running match next needs a look: the
``schedule`` table.

Why apart from the matches: the scheduler reads and claims these rows on its own clock; the
match tables only say, through :func:`mark_due`, that a change may need a look.
"""

from __future__ import annotations

from typing import Any

import aiosqlite

from bot.storage.backend import Backend
from bot.storage.clock import current_time
from bot.storage.codec import _dumps, _loads
from bot.storage.rows import ShardSlice


async def mark_due(conn: aiosqlite.Connection, match_id: int, status: str) -> None:
    """A change to a match may change what its schedule needs (a new turn, settings, a
    thread): a running match is looked at on the scheduler's next tick; a match that no
    longer runs leaves the due index."""
    if status == "running":
        await conn.execute(
            "INSERT INTO schedule (match_id, data, due_at) VALUES (?, '{}', 0) "
            "ON CONFLICT (match_id) DO UPDATE SET due_at = 0",
            (match_id,),
        )
    else:
        await conn.execute("UPDATE schedule SET due_at = NULL WHERE match_id = ?", (match_id,))


class ScheduleTable(Backend):
    """The ``schedule`` table: what the scheduler remembers, and which match is due."""

    async def get_schedule(self, match_id: int) -> dict[str, Any]:
        """What the scheduler remembers about a match ({} when nothing yet)."""
        cur = await self._reader.execute(
            "SELECT data FROM schedule WHERE match_id = ?", (match_id,)
        )
        row = await cur.fetchone()
        return _loads(row[0]) if row else {}

    async def set_schedule(
        self, match_id: int, data: dict[str, Any], *, due_at: float | None = None
    ) -> None:
        """Store what the scheduler remembers; ``due_at`` (when given) is the next time the
        match needs its attention, else that time is left as it was."""

        async def work(conn: aiosqlite.Connection) -> None:
            if due_at is None:
                await conn.execute(
                    "INSERT INTO schedule (match_id, data, due_at) VALUES (?, ?, 0) "
                    "ON CONFLICT (match_id) DO UPDATE SET data = excluded.data",
                    (match_id, _dumps(data)),
                )
            else:
                await conn.execute(
                    "INSERT INTO schedule (match_id, data, due_at) VALUES (?, ?, ?) "
                    "ON CONFLICT (match_id) DO UPDATE SET data = excluded.data, "
                    "due_at = excluded.due_at",
                    (match_id, _dumps(data), due_at),
                )

        await self._transaction(work)

    async def claim_due_matches(
        self,
        *,
        now: float | None = None,
        lease: float = 60.0,
        limit: int = 500,
        shards: ShardSlice | None = None,
    ) -> list[int]:
        """Running matches whose next scheduled look is due, earliest first, through the
        ``schedule_due`` index (no sweep over every running match). Each is claimed until
        ``now + lease`` (its due time moves there), so of several processes one takes it;
        the scheduler then stores the real next due time with :meth:`set_schedule`."""
        now = current_time() if now is None else now
        shard_sql, shard_params = shards.clause("m.guild_key") if shards else ("", [])

        async def work(conn: aiosqlite.Connection) -> list[int]:
            cur = await conn.execute(
                "SELECT s.match_id FROM schedule s JOIN matches m ON m.id = s.match_id "
                f"WHERE s.due_at <= ? AND m.status = 'running'{shard_sql} "
                f"ORDER BY s.due_at, s.match_id LIMIT ?{self._SKIP_LOCKED.format(table='s')}",
                (now, *shard_params, limit),
            )
            ids = [int(r[0]) for r in await cur.fetchall()]
            if ids:
                await conn.execute(
                    f"UPDATE schedule SET due_at = ? WHERE match_id IN "
                    f"({','.join('?' * len(ids))})",
                    (now + lease, *ids),
                )
            return ids

        return await self._transaction(work)
