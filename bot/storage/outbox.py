"""The outbox: every post the bot owes, stored in the same transaction as the change it
tells of, claimed by one process at a time, and marked sent once delivered (the ``outbox``
table).

Why a table and not a send after each commit: a post must survive a crash between the
commit and the send, and several bot processes sharing one database must send each post
once, and a match's posts in order.
"""

from __future__ import annotations

from collections.abc import Sequence

import aiosqlite

from bot.storage.backend import Backend
from bot.storage.clock import current_time
from bot.storage.codec import _dumps, _loads
from bot.storage.rows import Notification, OutboxRow, Remembered, ShardSlice

#: An outbox row ``o`` that is the oldest undelivered one of its match (a match's posts go
#: out in order; rows of no match are each their own). Written as "its id is the smallest
#: pending id of its match" — one probe of the partial index ``outbox_match_pending`` per
#: row — and not as ``NOT EXISTS`` (an older pending row of the same match): PostgreSQL
#: planned that as a nested loop over *all* pending rows for each pending row, so a claim
#: grew with the square of the backlog (measured: half a second at a thousand waiting
#: posts, half a minute at six thousand), and the posts, once behind, fell further behind.
_FIRST_OF_ITS_MATCH = (
    "(o.match_id IS NULL OR o.id = (SELECT MIN(p.id) FROM outbox p "
    "WHERE p.sent_at IS NULL AND p.match_id = o.match_id))"
)
#: The same condition for a claim of some shards' rows, written on the joined match
#: (``COALESCE(m.id, o.match_id)`` is ``o.match_id`` whether or not the match row is
#: there): a condition on both tables is checked where they are joined, together with the
#: shard filter, and PostgreSQL checks a node's conditions cheapest first — so the probe
#: runs only for rows of this process's shards. Written on ``o`` alone it was checked while
#: scanning the waiting rows, for every process's rows: with three processes, a claim cost
#: PostgreSQL about 10,000 buffer reads, some 480 per row claimed (``pg_stat_statements``
#: under ``python -m bot load --processes 3``).
_FIRST_OF_ITS_MATCH_JOINED = (
    "(o.match_id IS NULL OR o.id = (SELECT MIN(p.id) FROM outbox p "
    "WHERE p.sent_at IS NULL AND p.match_id = COALESCE(m.id, o.match_id)))"
)


async def queue_notifications(
    conn: aiosqlite.Connection,
    match_id: int | None,
    notifications: Sequence[Notification],
    now: float,
) -> None:
    """Queue ``notifications`` of ``match_id`` on ``conn``, inside the caller's transaction
    (a move and its posts are stored together or not at all). A notification with a
    ``key`` (what it announces: a turn alert DM names the turn post's row and the person)
    is queued once: queueing it again — the turn post re-sent after a crash or an outage
    queues its alerts again — finds the row already there and adds nothing, so the alert
    keeps its row, its nonce and its delivery state (issue 44: the DM went out twice)."""
    if notifications:
        await conn.executemany(
            "INSERT INTO outbox (match_id, kind, payload, created_at, due_at, dedup_key) "
            "VALUES (?,?,?,?,?,?) ON CONFLICT (dedup_key) DO NOTHING",
            [
                (match_id, n.kind, _dumps(n.payload), now, n.due_at or now, n.key)
                for n in notifications
            ],
        )


class OutboxTable(Backend):
    """The ``outbox`` table (and, when a post is settled, the match settings that remember
    it: :class:`bot.storage.rows.Remembered`)."""

    async def enqueue(self, match_id: int | None, notifications: Sequence[Notification]) -> None:
        async def work(conn: aiosqlite.Connection) -> None:
            await queue_notifications(conn, match_id, notifications, current_time())

        await self._transaction(work)

    async def due_notifications(self, now: float | None = None, limit: int = 20) -> list[OutboxRow]:
        """Undelivered items that are due, oldest first, and never one whose match still
        has an older undelivered item (so a match's posts arrive in order). A look only,
        claimed or not: the delivery worker takes items with :meth:`claim_notifications`."""
        now = current_time() if now is None else now
        cur = await self._reader.execute(
            "SELECT id, match_id, kind, payload, attempts, created_at, due_at FROM outbox o "
            f"WHERE sent_at IS NULL AND due_at <= ? AND {_FIRST_OF_ITS_MATCH} ORDER BY id LIMIT ?",
            (now, limit),
        )
        return [
            OutboxRow(int(r[0]), r[1], r[2], _loads(r[3]), int(r[4]), r[5], r[6])
            for r in await cur.fetchall()
        ]

    async def claim_notifications(
        self,
        owner: str,
        *,
        now: float | None = None,
        limit: int = 20,
        lease: float = 60.0,
        shards: ShardSlice | None = None,
    ) -> list[OutboxRow]:
        """Claim what :meth:`due_notifications` would hand out, for ``owner`` alone until
        ``now + lease``: several bot processes on one database then never send one item
        twice, and the items of a process that died are claimed again once its lease ran
        out (the delivery nonce keeps such a retried post from showing twice). With
        ``shards``, only items of servers on those shards (and items of no server).

        Each claim is counted (``claims``) and the first one's time kept (``tried_at``): a
        row claimed before may have reached Discord (a process killed between the send and
        the mark, a reply lost, a database down at the mark), possibly longer ago than
        Discord remembers its nonce, so the row comes back with :attr:`OutboxRow.tried_at`
        set and the worker looks for the message before sending it again."""
        now = current_time() if now is None else now
        shard_sql, shard_params = shards.clause("m.guild_key") if shards else ("", [])
        first = _FIRST_OF_ITS_MATCH_JOINED if shards else _FIRST_OF_ITS_MATCH
        # one statement: the rows are chosen (and, on PostgreSQL, locked, skipping those
        # another process is claiming) and leased in one go — a worker polls this several
        # times a second, so it is one round trip, not a transaction of four
        found = await self._write_one(
            "UPDATE outbox SET claimed_by = ?, claimed_until = ?, claims = claims + 1, "
            "tried_at = COALESCE(tried_at, ?) WHERE id IN ("
            "SELECT o.id FROM outbox o LEFT JOIN matches m ON m.id = o.match_id "
            "WHERE o.sent_at IS NULL AND o.due_at <= ? "
            "AND (o.claimed_until IS NULL OR o.claimed_until <= ?) "
            f"AND {first}{shard_sql} ORDER BY o.id LIMIT ?"
            f"{self._SKIP_LOCKED.format(table='o')}) "
            "RETURNING id, match_id, kind, payload, attempts, created_at, due_at, claims, "
            "tried_at",
            (owner, now + lease, now, now, now, *shard_params, limit),
        )
        rows = [
            OutboxRow(
                int(r[0]),
                r[1],
                r[2],
                _loads(r[3]),
                int(r[4]),
                r[5],
                r[6],
                float(r[8]) if int(r[7]) > 1 and r[8] is not None else None,
            )
            for r in found
        ]
        return sorted(rows, key=lambda r: r.id)

    async def release_notifications(self, outbox_ids: Sequence[int]) -> None:
        """Hand claimed items back unsent (e.g. the worker must pause for a rate limit):
        any process may claim them again at once. This claim sent nothing, so it is not
        counted (an item never tried is not looked for when it is sent)."""
        if not outbox_ids:
            return
        await self._write_one(
            "UPDATE outbox SET claimed_until = NULL, "
            "tried_at = CASE WHEN claims <= 1 THEN NULL ELSE tried_at END, "
            "claims = CASE WHEN claims > 0 THEN claims - 1 ELSE 0 END "
            f"WHERE id IN ({','.join('?' * len(outbox_ids))})",
            tuple(outbox_ids),
        )

    async def mark_sent(self, outbox_id: int) -> None:
        await self._write_one(
            "UPDATE outbox SET sent_at = ?, attempts = attempts + 1, claimed_until = NULL "
            "WHERE id = ?",
            (current_time(), outbox_id),
        )

    async def settle_sent(
        self, sent: Sequence[int], remembered: Sequence[Remembered] = ()
    ) -> set[int]:
        """Mark a batch of delivered items sent at once, each with its match's bookkeeping
        (:class:`Remembered`, at most one per match): one transaction here, one statement on
        PostgreSQL, instead of a mark (and a read and a write of the settings) per item.
        An item of ``remembered`` whose match's settings changed since they were read is
        left unmarked, its settings unwritten — the caller computes them again from what is
        stored and marks it then (:meth:`update_settings`, :meth:`mark_sent`), so the next
        post of that match, which may only be claimed once this one is marked, always
        finds this one's bookkeeping. Returns the ids marked."""
        if len({r.match_id for r in remembered}) != len(remembered):
            raise ValueError("at most one remembered item per match")
        now = current_time()

        async def work(conn: aiosqlite.Connection) -> set[int]:
            marked = list(sent)
            for r in remembered:
                cur = await conn.execute(
                    "UPDATE matches SET settings = ? WHERE id = ? AND settings = ?",
                    (_dumps(r.settings), r.match_id, r.seen),
                )
                if cur.rowcount == 1:
                    marked.append(r.outbox_id)
            if marked:
                await conn.execute(
                    "UPDATE outbox SET sent_at = ?, attempts = attempts + 1, "
                    f"claimed_until = NULL WHERE id IN ({','.join('?' * len(marked))})",
                    (now, *marked),
                )
            return set(marked)

        if not sent and not remembered:
            return set()
        return set(await self._transaction(work))

    async def mark_failed(self, outbox_id: int, error: str, retry_at: float) -> None:
        await self._write_one(
            "UPDATE outbox SET attempts = attempts + 1, last_error = ?, due_at = ?, "
            "claimed_until = NULL WHERE id = ?",
            (error[:500], retry_at, outbox_id),
        )

    async def drop_notification(self, outbox_id: int, error: str) -> None:
        """Give up on an item that can never be delivered (e.g. its thread was deleted):
        it is marked sent with the error kept for the record, so it no longer blocks its
        match's later posts."""
        await self._write_one(
            "UPDATE outbox SET sent_at = ?, last_error = ?, attempts = attempts + 1, "
            "claimed_until = NULL WHERE id = ?",
            (current_time(), ("dropped: " + error)[:500], outbox_id),
        )

    async def pending_count(self) -> int:
        cur = await self._reader.execute("SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL")
        (n,) = await cur.fetchone()  # type: ignore[misc]
        return int(n)

    async def prune_sent(self, before: float, limit: int = 5000) -> int:
        """Delete up to ``limit`` items settled (sent or dropped) before ``before``; returns
        how many. Why: the outbox kept every post ever sent, so it grew for ever (issue
        44). A settled row is never read again once its match's later posts went out; it
        is kept a while (``outbox_retention_days``) to tell what happened. In slices of
        ``limit`` (the caller repeats while a slice was full), so no statement holds the
        table long; the partial index ``outbox_sent`` finds them."""
        found = await self._write_one(
            "DELETE FROM outbox WHERE id IN (SELECT id FROM outbox "
            "WHERE sent_at IS NOT NULL AND sent_at < ? ORDER BY sent_at LIMIT ?) RETURNING id",
            (before, limit),
        )
        return len(found)
