"""Matches, their seats and their move logs: the ``matches``, ``seats`` and ``moves``
tables, and the one transaction of a state change (:meth:`MatchTables.commit`).

Why one transaction for all three (and the outbox and the schedule): a move, its snapshot,
the version it bumps and the posts that tell of it are stored together or not at all; the
optimistic version makes two racing moves impossible (the loser gets
:class:`bot.storage.rows.VersionConflict`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import aiosqlite

from bot.storage.backend import Backend
from bot.storage.clock import current_time
from bot.storage.codec import _dumps, _loads
from bot.storage.outbox import queue_notifications
from bot.storage.rows import (
    MatchRow,
    MoveRow,
    NewMove,
    Notification,
    SeatRow,
    VersionConflict,
    guild_key,
)
from bot.storage.schedule import mark_due

_MATCH_COLUMNS = (
    "id, game_id, options, seed, status, creator_id, guild_id, channel_id, thread_id, "
    "max_players, version, state, result, end_reason, settings, created_at, updated_at, "
    # read in the same statement as the snapshot, so the two always belong together
    "(SELECT COALESCE(MAX(ply), 0) FROM moves WHERE moves.match_id = matches.id)"
)


def _match_from_row(row: Sequence[Any]) -> MatchRow:
    return MatchRow(
        id=row[0],
        game_id=row[1],
        options=_loads(row[2]),
        seed=row[3],
        status=row[4],
        creator_id=row[5],
        guild_id=row[6],
        channel_id=row[7],
        thread_id=row[8],
        max_players=row[9],
        version=row[10],
        state=_loads(row[11]) if row[11] is not None else None,
        result=_loads(row[12]) if row[12] is not None else None,
        end_reason=row[13],
        settings=_loads(row[14]),
        created_at=row[15],
        updated_at=row[16],
        last_ply=row[17],
        settings_text=row[14],
    )


def _seated_match(row: Sequence[Any]) -> MatchRow:
    """A match read with :attr:`MatchTables._SEATS_JSON` as its last column."""
    match = _match_from_row(row)
    seats = sorted(_loads(row[18]), key=lambda s: s[0]) if row[18] is not None else []
    match.seats = [SeatRow(int(s[0]), s[1], s[2]) for s in seats]
    match.preferences = {int(s[0]): s[3] for s in seats if s[3] is not None}
    match.users = {
        s[1]: {
            "user_id": s[1],
            "name": s[4] if s[4] is not None else "",
            "locale": s[5] if s[5] is not None else "en",
            "notify": s[6] if s[6] is not None else "mention",
            "settings": s[3] if s[3] is not None else {},
        }
        for s in seats
    }
    return match


class MatchTables(Backend):
    """The ``matches``, ``seats`` and ``moves`` tables (a change to a match also queues its
    posts in the ``outbox`` and marks it due in the ``schedule``)."""

    #: A match's seats as one JSON text of ``[seat, user_id, name, preferences, user name,
    #: locale, notify]`` in seat order (NULL without seats; the last four from the
    #: holder's ``users`` row, null when they have none), a column of :meth:`get_match`'s
    #: one statement: the match, its seats, who of them is away and how each wants to be
    #: told come from one snapshot in one round trip (a move's turn post says who it waits
    #: for is away; the outbox's turn post pings them). The JSON functions differ.
    _SEATS_JSON = (
        "(SELECT json_group_array(json_array(seat, user_id, name, json(settings), uname, "
        "locale, notify)) FROM (SELECT s.seat, s.user_id, s.name, u.settings, "
        "u.name AS uname, u.locale, u.notify FROM seats s "
        "LEFT JOIN users u ON u.user_id = s.user_id WHERE s.match_id = matches.id "
        "ORDER BY s.seat))"
    )

    async def create_match(
        self,
        *,
        game_id: str,
        options: dict[str, Any],
        seed: int,
        creator: SeatRow,
        max_players: int,
        guild_id: str | None,
        channel_id: str | None,
        settings: dict[str, Any] | None = None,
    ) -> int:
        now = current_time()

        async def work(conn: aiosqlite.Connection) -> int:
            cur = await conn.execute(
                "INSERT INTO matches (game_id, options, seed, status, creator_id, guild_id, "
                "guild_key, channel_id, max_players, settings, created_at, updated_at) "
                "VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (
                    game_id,
                    _dumps(options),
                    seed,
                    creator.user_id,
                    guild_id,
                    guild_key(guild_id),
                    channel_id,
                    max_players,
                    _dumps(settings or {}),
                    now,
                    now,
                ),
            )
            (match_id,) = await cur.fetchone()  # type: ignore[misc]
            await conn.execute(
                "INSERT INTO seats (match_id, seat, user_id, name, joined_at) "
                "VALUES (?, 0, ?, ?, ?)",
                (match_id, creator.user_id, creator.name, now),
            )
            return match_id

        return await self._transaction(work)

    async def get_match(self, match_id: int) -> MatchRow | None:
        cur = await self._reader.execute(
            f"SELECT {_MATCH_COLUMNS}, {self._SEATS_JSON} FROM matches WHERE id = ?",
            (match_id,),
        )
        row = await cur.fetchone()
        return None if row is None else _seated_match(row)

    async def get_matches(self, match_ids: Sequence[int]) -> dict[int, MatchRow]:
        """:meth:`get_match` for several matches in one statement (the outbox reads the
        matches of a claimed batch of posts at once); the ids found, by id."""
        ids = sorted(set(match_ids))
        found: dict[int, MatchRow] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            cur = await self._reader.execute(
                f"SELECT {_MATCH_COLUMNS}, {self._SEATS_JSON} FROM matches "
                f"WHERE id IN ({','.join('?' * len(chunk))})",
                chunk,
            )
            for row in await cur.fetchall():
                match = _seated_match(row)
                found[match.id] = match
        return found

    async def match_for_thread(self, thread_id: str) -> int | None:
        cur = await self._reader.execute(
            "SELECT id FROM matches WHERE thread_id = ? ORDER BY id DESC LIMIT 1", (thread_id,)
        )
        row = await cur.fetchone()
        return int(row[0]) if row else None

    async def count_matches(
        self, *, guild_id: str, status: str, creator_id: str | None = None
    ) -> int:
        """How many matches of a server are in ``status`` (opened by ``creator_id`` when
        given): the flood limits' counts, one indexed read with no states loaded."""
        sql = "SELECT COUNT(*) FROM matches WHERE guild_id = ? AND status = ?"
        params: list[Any] = [guild_id, status]
        if creator_id is not None:
            sql += " AND creator_id = ?"
            params.append(creator_id)
        cur = await self._reader.execute(sql, params)
        row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def list_matches(
        self,
        *,
        guild_id: str | None = None,
        statuses: Sequence[str] = ("lobby", "running"),
        user_id: str | None = None,
        limit: int = 50,
    ) -> list[MatchRow]:
        clauses = [f"status IN ({','.join('?' * len(statuses))})"]
        params: list[Any] = list(statuses)
        if guild_id is not None:
            clauses.append("guild_id = ?")
            params.append(guild_id)
        if user_id is not None:
            clauses.append("id IN (SELECT match_id FROM seats WHERE user_id = ?)")
            params.append(user_id)
        params.append(limit)
        cur = await self._reader.execute(
            f"SELECT {_MATCH_COLUMNS} FROM matches WHERE {' AND '.join(clauses)} "
            "ORDER BY updated_at DESC LIMIT ?",
            params,
        )
        matches = [_match_from_row(r) for r in await cur.fetchall()]
        # seats of all listed matches in a few queries, not one per match (the scheduler
        # lists every running match each minute)
        by_id = {m.id: m for m in matches}
        ids = list(by_id)
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            cur = await self._reader.execute(
                "SELECT match_id, seat, user_id, name FROM seats WHERE match_id IN "
                f"({','.join('?' * len(chunk))}) ORDER BY match_id, seat",
                chunk,
            )
            for match_id, seat, user_id, name in await cur.fetchall():
                by_id[match_id].seats.append(SeatRow(int(seat), user_id, name))
        return matches

    async def all_match_ids(self) -> list[int]:
        cur = await self._reader.execute("SELECT id FROM matches ORDER BY id")
        return [int(r[0]) for r in await cur.fetchall()]

    @staticmethod
    async def _seats(conn: aiosqlite.Connection, match_id: int) -> list[SeatRow]:
        cur = await conn.execute(
            "SELECT seat, user_id, name FROM seats WHERE match_id = ? ORDER BY seat", (match_id,)
        )
        return [SeatRow(int(r[0]), r[1], r[2]) for r in await cur.fetchall()]

    async def update_lobby(self, match_id: int, mutate: Any) -> MatchRow:
        """Read-modify-write of a lobby (seats, thread, settings) in one transaction.

        ``mutate(match)`` returns the new seat list (or raises) and may change
        ``match.options`` (the game's options, chosen before the start); running the check inside
        the transaction makes two simultaneous joins for the last seat impossible, and the
        version bump makes a start computed from the old seat list fail its commit.
        """
        now = current_time()

        async def work(conn: aiosqlite.Connection) -> MatchRow:
            cur = await conn.execute(
                f"SELECT {_MATCH_COLUMNS} FROM matches WHERE id = ?{self._FOR_UPDATE}",
                (match_id,),
            )
            row = await cur.fetchone()
            if row is None:
                raise LookupError(match_id)
            match = _match_from_row(row)
            match.seats = await self._seats(conn, match_id)
            options = dict(match.options)
            new_seats: list[SeatRow] = mutate(match)
            if match.options != options:  # the lobby's creator chose the game's options
                await conn.execute(
                    "UPDATE matches SET options = ? WHERE id = ?", (_dumps(match.options), match_id)
                )
            await conn.execute("DELETE FROM seats WHERE match_id = ?", (match_id,))
            await conn.executemany(
                "INSERT INTO seats (match_id, seat, user_id, name, joined_at) VALUES (?,?,?,?,?)",
                [(match_id, i, s.user_id, s.name, now) for i, s in enumerate(new_seats)],
            )
            await conn.execute(
                "UPDATE matches SET updated_at = ?, version = version + 1 WHERE id = ?",
                (now, match_id),
            )
            await mark_due(conn, match_id, match.status)
            match.version += 1
            match.seats = [SeatRow(i, s.user_id, s.name) for i, s in enumerate(new_seats)]
            return match

        return await self._transaction(work)

    async def set_match_fields(self, match_id: int, **fields: Any) -> None:
        """Update plain columns that are not game state (thread id, settings)."""
        allowed = {"thread_id", "channel_id", "settings"}
        if not fields or not set(fields) <= allowed:
            raise ValueError(f"cannot set {set(fields) - allowed}")
        assignments = ", ".join(f"{k} = ?" for k in fields)
        values = [_dumps(v) if k == "settings" else v for k, v in fields.items()]

        async def work(conn: aiosqlite.Connection) -> None:
            cur = await conn.execute(
                f"UPDATE matches SET {assignments}, updated_at = ? WHERE id = ? RETURNING status",
                (*values, current_time(), match_id),
            )
            row = await cur.fetchone()
            if row is not None:
                await mark_due(conn, match_id, row[0])

        await self._transaction(work)

    async def update_settings(
        self, match_id: int, mutate: Any, *, wake: bool = True
    ) -> dict[str, Any]:
        """Read-modify-write of a match's settings in one transaction.

        ``mutate(settings, version)`` gets a copy of the stored settings and the match's
        current version and returns the new settings (or raises: nothing is written).
        Doing the read inside the write transaction means two players changing settings at
        the same moment (two undo consents, two mutes) can never overwrite each other.
        ``wake=False``: bookkeeping the scheduler does not care about (which message is
        the current turn post) leaves the match's schedule and ``updated_at`` alone.
        """

        async def work(conn: aiosqlite.Connection) -> dict[str, Any]:
            cur = await conn.execute(
                f"SELECT settings, version, status FROM matches WHERE id = ?{self._FOR_UPDATE}",
                (match_id,),
            )
            row = await cur.fetchone()
            if row is None:
                raise LookupError(match_id)
            settings: dict[str, Any] = mutate(_loads(row[0]), int(row[1]))
            if not wake:
                await conn.execute(
                    "UPDATE matches SET settings = ? WHERE id = ?", (_dumps(settings), match_id)
                )
                return settings
            await conn.execute(
                "UPDATE matches SET settings = ?, updated_at = ? WHERE id = ?",
                (_dumps(settings), current_time(), match_id),
            )
            await mark_due(conn, match_id, row[2])
            return settings

        return await self._transaction(work)

    async def commit(
        self,
        match_id: int,
        *,
        expected_version: int,
        status: str,
        state: dict[str, Any] | None,
        moves: Sequence[NewMove] = (),
        result: dict[str, Any] | None = None,
        end_reason: str | None = None,
        notifications: Sequence[Notification] = (),
        seats: Sequence[SeatRow] = (),
        settings_update: Callable[[dict[str, Any], float], dict[str, Any]] | None = None,
        settings_seen: str | None = None,
    ) -> int:
        """The one transaction of a state change: append the move(s), store the snapshot,
        bump the version, queue the notifications. Returns the new version.

        ``seats`` hands those seats to new holders (a computer player taking over a
        resigned seat) in the same transaction as the log row that says so.

        ``settings_update(settings, now)`` rewrites the match settings read inside the
        transaction (the per-seat clocks, ``bot/matches/clocks.py``): a settings change racing this
        commit is neither lost nor overwritten. ``settings_seen``: the stored settings text
        the caller read with the match (``MatchRow.settings_text``); a backend may then
        apply ``settings_update`` to those and write only if they are still stored
        (PostgreSQL: the whole commit in one statement), else it does as without.

        Raises :class:`VersionConflict` if the match is not at ``expected_version``.
        """
        now = current_time()

        async def work(conn: aiosqlite.Connection) -> int:
            new_version = expected_version + max(1, len(moves))
            # One statement checks the version, writes the snapshot and reads back what
            # the rest needs (the settings as stored now, the last ply): the row is
            # locked from here on, so neither can change before this transaction ends.
            cur = await conn.execute(
                "UPDATE matches SET status = ?, state = ?, version = ?, result = ?, "
                "end_reason = ?, updated_at = ? WHERE id = ? AND version = ? "
                "RETURNING settings, "
                "(SELECT COALESCE(MAX(ply), 0) FROM moves WHERE match_id = ?)",
                (
                    status,
                    _dumps(state) if state is not None else None,
                    new_version,
                    _dumps(result) if result is not None else None,
                    end_reason,
                    now,
                    match_id,
                    expected_version,
                    match_id,
                ),
            )
            rows = list(await cur.fetchall())  # to its end: SQLite finishes the statement
            if len(rows) != 1:
                raise VersionConflict(match_id)
            stored, last_ply = rows[0]
            if settings_update is not None:
                await conn.execute(
                    "UPDATE matches SET settings = ? WHERE id = ?",
                    (_dumps(settings_update(_loads(stored), now)), match_id),
                )
            await conn.executemany(
                "INSERT INTO moves (match_id, ply, kind, seat, user_id, notation, label, "
                "events, created_at) VALUES (?,?,?,?,?,?,?,?,?)",
                [
                    (
                        match_id,
                        last_ply + i + 1,
                        m.kind,
                        m.seat,
                        m.user_id,
                        m.notation,
                        m.label,
                        _dumps(m.events),
                        now,
                    )
                    for i, m in enumerate(moves)
                ],
            )
            for seat in seats:
                await conn.execute(
                    "UPDATE seats SET user_id = ?, name = ?, joined_at = ? "
                    "WHERE match_id = ? AND seat = ?",
                    (seat.user_id, seat.name, now, match_id, seat.seat),
                )
            queued = list(notifications)
            if status == "finished" and self.on_finish is not None:
                queued = await self.on_finish(self, conn, match_id, queued)
            await queue_notifications(conn, match_id, queued, now)
            await mark_due(conn, match_id, status)
            return new_version

        return await self._transaction(work)

    # ----- move log ----------------------------------------------------------------------
    async def moves(self, match_id: int, *, last: int | None = None) -> list[MoveRow]:
        if last is None:
            cur = await self._reader.execute(
                "SELECT ply, kind, seat, user_id, notation, label, events, created_at "
                "FROM moves WHERE match_id = ? ORDER BY ply",
                (match_id,),
            )
            rows = await cur.fetchall()
        else:
            cur = await self._reader.execute(
                "SELECT ply, kind, seat, user_id, notation, label, events, created_at "
                "FROM moves WHERE match_id = ? ORDER BY ply DESC LIMIT ?",
                (match_id, last),
            )
            rows = list(reversed(list(await cur.fetchall())))
        return [
            MoveRow(int(r[0]), r[1], int(r[2]), r[3], r[4], r[5], _loads(r[6]), r[7]) for r in rows
        ]
