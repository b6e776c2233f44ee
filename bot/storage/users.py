"""Each person's row: their name, language, how they want to be told of their turn, and
their preferences (away periods, …): the ``users`` table.

Why apart: the front ends read and write these on every command, the match tables only
read them beside the seats (:meth:`UserTable.seat_preferences`).
"""

from __future__ import annotations

from typing import Any

import aiosqlite

from bot.storage.backend import Backend
from bot.storage.codec import _dumps, _loads


class UserTable(Backend):
    """The ``users`` table (and, when preferences change, the ``schedule`` of the person's
    matches: their reminders depend on them)."""

    async def get_user(self, user_id: str) -> dict[str, Any]:
        cur = await self._reader.execute(
            "SELECT name, locale, notify, settings FROM users WHERE user_id = ?", (user_id,)
        )
        row = await cur.fetchone()
        if row is None:
            return {
                "user_id": user_id,
                "name": "",
                "locale": "en",
                "notify": "mention",
                "settings": {},
            }
        return {
            "user_id": user_id,
            "name": row[0],
            "locale": row[1],
            "notify": row[2],
            "settings": _loads(row[3]),
        }

    async def remember_locale(self, user_id: str, name: str, locale: str) -> None:
        """Only the user's language (their Discord client's), in one statement: it runs
        beside the command being handled, which may be saving the user's other
        preferences (/notify) at the same moment — a read-modify-write here could undo
        them."""
        await self._write_one(
            "INSERT INTO users (user_id, name, locale, notify, settings) VALUES (?,?,?,?,?) "
            "ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale",
            (user_id, name, locale, "mention", _dumps({})),
        )

    async def set_user(self, user_id: str, **fields: Any) -> None:
        allowed = {"name", "locale", "notify", "settings"}
        if not set(fields) <= allowed:
            raise ValueError(f"cannot set {set(fields) - allowed}")
        current = await self.get_user(user_id)
        current.update(fields)

        async def work(conn: aiosqlite.Connection) -> None:
            await conn.execute(
                "INSERT INTO users (user_id, name, locale, notify, settings) VALUES (?,?,?,?,?) "
                "ON CONFLICT (user_id) DO UPDATE SET name = excluded.name, "
                "locale = excluded.locale, notify = excluded.notify, settings = excluded.settings",
                (
                    user_id,
                    current["name"],
                    current["locale"],
                    current["notify"],
                    _dumps(current["settings"]),
                ),
            )
            # reminders depend on the player's preferences: look at their matches again
            await conn.execute(
                "UPDATE schedule SET due_at = 0 WHERE due_at IS NOT NULL AND match_id IN "
                "(SELECT match_id FROM seats WHERE user_id = ?)",
                (user_id,),
            )

        await self._transaction(work)

    async def seat_preferences(self, match_id: int) -> dict[int, dict[str, Any]]:
        """The preferences (``users.settings``) of the people seated in a match, by seat,
        in one query (seats whose holder never set any are left out): pictures and status
        lines show who is away without a read per seat."""
        cur = await self._reader.execute(
            "SELECT s.seat, u.settings FROM seats s JOIN users u ON u.user_id = s.user_id "
            "WHERE s.match_id = ? ORDER BY s.seat",
            (match_id,),
        )
        return {int(r[0]): _loads(r[1]) for r in await cur.fetchall()}
