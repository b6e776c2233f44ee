"""Durable storage of matches: SQLite through aiosqlite, WAL, versioned migrations.

Why two connections: the writer runs every change as one ``BEGIN IMMEDIATE`` transaction
behind an asyncio lock (SQLite has one writer anyway); the reader only ever sees committed
data thanks to WAL, so a move being written can never be half-visible to another request.

Why an optimistic version: a move is computed from a state read earlier; the commit only
succeeds if the match is still at the version that state had. Two racing clicks (or two bot
processes sharing the file) therefore can never both apply — the loser gets
:class:`VersionConflict` and is told the board changed.

The store knows nothing of games, Discord or pictures: it keeps rows. A server database
(PostgreSQL) can replace it behind the same methods.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite
import orjson

MIGRATIONS: list[str] = [
    # 1: matches, seats, the append-only move log, the outbox, per-user preferences
    """
    CREATE TABLE matches (
        id          INTEGER PRIMARY KEY,
        game_id     TEXT    NOT NULL,
        options     TEXT    NOT NULL,
        seed        INTEGER NOT NULL,
        status      TEXT    NOT NULL CHECK (status IN ('lobby','running','finished','aborted')),
        creator_id  TEXT    NOT NULL,
        guild_id    TEXT,
        channel_id  TEXT,
        thread_id   TEXT,
        max_players INTEGER NOT NULL,
        version     INTEGER NOT NULL DEFAULT 0,
        state       TEXT,
        result      TEXT,
        end_reason  TEXT,
        settings    TEXT    NOT NULL DEFAULT '{}',
        created_at  REAL    NOT NULL,
        updated_at  REAL    NOT NULL
    );
    CREATE INDEX matches_guild ON matches (guild_id, status);
    CREATE INDEX matches_thread ON matches (thread_id);
    CREATE TABLE seats (
        match_id  INTEGER NOT NULL REFERENCES matches (id),
        seat      INTEGER NOT NULL,
        user_id   TEXT    NOT NULL,
        name      TEXT    NOT NULL,
        joined_at REAL    NOT NULL,
        PRIMARY KEY (match_id, seat),
        UNIQUE (match_id, user_id)
    );
    CREATE TABLE moves (
        match_id   INTEGER NOT NULL REFERENCES matches (id),
        ply        INTEGER NOT NULL,
        kind       TEXT    NOT NULL,
        seat       INTEGER NOT NULL,
        user_id    TEXT    NOT NULL,
        notation   TEXT    NOT NULL,
        label      TEXT    NOT NULL,
        events     TEXT    NOT NULL,
        created_at REAL    NOT NULL,
        PRIMARY KEY (match_id, ply)
    );
    CREATE TABLE outbox (
        id         INTEGER PRIMARY KEY,
        match_id   INTEGER,
        kind       TEXT    NOT NULL,
        payload    TEXT    NOT NULL,
        created_at REAL    NOT NULL,
        due_at     REAL    NOT NULL,
        attempts   INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        sent_at    REAL
    );
    CREATE INDEX outbox_pending ON outbox (sent_at, due_at);
    CREATE TABLE users (
        user_id  TEXT PRIMARY KEY,
        name     TEXT NOT NULL DEFAULT '',
        locale   TEXT NOT NULL DEFAULT 'en',
        notify   TEXT NOT NULL DEFAULT 'mention',
        settings TEXT NOT NULL DEFAULT '{}'
    );
    """,
    # 2: per-match scheduling memory of the Discord front end (reminders sent, when the
    # current turn began, thread keep-alive), so reminders and clocks survive restarts.
    """
    CREATE TABLE schedule (
        match_id INTEGER PRIMARY KEY REFERENCES matches (id),
        data     TEXT    NOT NULL DEFAULT '{}'
    );
    """,
    # 3: work shared by several bot processes. Outbox items are claimed with a lease
    # (claimed_by / claimed_until) so one process sends each; the scheduler finds work by
    # an indexed "next due" time per match instead of reading every running match; the
    # numeric server id (guild_key) lets a process take only the servers of its shards.
    """
    ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
    ALTER TABLE outbox ADD COLUMN claimed_until REAL;
    CREATE INDEX outbox_match_pending ON outbox (match_id, id) WHERE sent_at IS NULL;
    ALTER TABLE schedule ADD COLUMN due_at REAL;
    CREATE INDEX schedule_due ON schedule (due_at);
    ALTER TABLE matches ADD COLUMN guild_key INTEGER;
    UPDATE matches SET guild_key = CAST(guild_id AS INTEGER)
        WHERE guild_id <> '' AND guild_id NOT GLOB '*[^0-9]*' AND length(guild_id) <= 19;
    CREATE INDEX seats_user ON seats (user_id);
    INSERT INTO schedule (match_id, data, due_at)
        SELECT id, '{}', 0 FROM matches WHERE status = 'running' AND true
        ON CONFLICT (match_id) DO UPDATE SET due_at = 0;
    """,
    # 4: per server and game, OpenSkill ratings of people (a cache: bot/ratings.py rebuilds
    # it from the finished matches) and each rated match's change per person.
    """
    CREATE TABLE ratings (
        guild_id   TEXT    NOT NULL,
        game_id    TEXT    NOT NULL,
        user_id    TEXT    NOT NULL,
        name       TEXT    NOT NULL,
        mu         REAL    NOT NULL,
        sigma      REAL    NOT NULL,
        games      INTEGER NOT NULL,
        updated_at REAL    NOT NULL,
        PRIMARY KEY (guild_id, game_id, user_id)
    );
    CREATE TABLE rating_changes (
        match_id     INTEGER NOT NULL REFERENCES matches (id),
        user_id      TEXT    NOT NULL,
        guild_id     TEXT    NOT NULL,
        game_id      TEXT    NOT NULL,
        finished_at  REAL    NOT NULL,
        mu_before    REAL    NOT NULL,
        sigma_before REAL    NOT NULL,
        mu_after     REAL    NOT NULL,
        sigma_after  REAL    NOT NULL,
        PRIMARY KEY (match_id, user_id)
    );
    CREATE INDEX rating_changes_board ON rating_changes (guild_id, game_id);
    """,
    # 5: the outbox's claim walks the pending posts in id order and stops at its limit:
    # an index of the pending ids alone (partial: a sent post leaves it). The index on
    # (sent_at, due_at) it replaces held every post ever sent and gave no id order, so
    # each claim visited the whole backlog and sorted it (measured on PostgreSQL: 12 ms
    # per claim at 2,000 waiting posts, 2 ms with this index).
    """
    DROP INDEX outbox_pending;
    CREATE INDEX outbox_waiting ON outbox (id) WHERE sent_at IS NULL;
    """,
]


class VersionConflict(Exception):
    """The match moved on since the state this change was computed from."""


@dataclass(slots=True)
class SeatRow:
    seat: int
    user_id: str
    name: str


class Seated:
    """Names and seat look-up for anything that carries a match's ``seats``."""

    __slots__ = ()
    seats: list[SeatRow]

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def seat_of(self, user_id: str) -> int | None:
        """The seat ``user_id`` holds, or None for a stranger."""
        return next((s.seat for s in self.seats if s.user_id == user_id), None)


@dataclass(slots=True)
class MatchRow(Seated):
    id: int
    game_id: str
    options: dict[str, Any]
    seed: int
    status: str
    creator_id: str
    guild_id: str | None
    channel_id: str | None
    thread_id: str | None
    max_players: int
    version: int
    state: dict[str, Any] | None
    result: dict[str, Any] | None
    end_reason: str | None
    settings: dict[str, Any]
    created_at: float
    updated_at: float
    #: Rows in the move log when ``state`` was read (the ply the snapshot stands at).
    last_ply: int = 0
    seats: list[SeatRow] = field(default_factory=list)
    #: ``settings`` as the stored text it was read from: a commit may check that the
    #: settings are still these (:meth:`Store.commit`'s ``settings_seen``).
    settings_text: str = "{}"
    #: The seat holders' preferences (``users.settings``) by seat, read with the seats
    #: (:meth:`Store.seat_preferences` as of the same snapshot); None where not read.
    preferences: dict[int, dict[str, Any]] | None = None
    #: The seat holders' user rows by user id, as :meth:`Store.get_user` gives them (its
    #: defaults for someone who never set anything), read with the seats: a turn post
    #: knows how each person it names wants to be told without a read per person.
    users: dict[str, dict[str, Any]] | None = None


@dataclass(slots=True)
class MoveRow:
    ply: int
    kind: str
    seat: int
    user_id: str
    notation: str
    label: str
    events: list[dict[str, Any]]
    created_at: float


@dataclass(slots=True)
class OutboxRow:
    id: int
    match_id: int | None
    kind: str
    payload: dict[str, Any]
    attempts: int
    created_at: float
    due_at: float


@dataclass(slots=True)
class NewMove:
    kind: str
    seat: int
    user_id: str
    notation: str
    label: str
    events: list[dict[str, Any]]


@dataclass(slots=True)
class Remembered:
    """A post's bookkeeping in its match's settings (which message is the turn post),
    written with the post's mark as sent (:meth:`Store.settle_sent`): ``settings`` replace
    ``seen``, the stored text they were computed from, only if that text is still stored."""

    outbox_id: int
    match_id: int
    seen: str
    settings: dict[str, Any]


@dataclass(slots=True)
class Notification:
    kind: str
    payload: dict[str, Any]
    due_at: float | None = None


_MATCH_COLUMNS = (
    "id, game_id, options, seed, status, creator_id, guild_id, channel_id, thread_id, "
    "max_players, version, state, result, end_reason, settings, created_at, updated_at, "
    # read in the same statement as the snapshot, so the two always belong together
    "(SELECT COALESCE(MAX(ply), 0) FROM moves WHERE moves.match_id = matches.id)"
)


def guild_key(guild_id: str | None) -> int | None:
    """The server id as a number (Discord snowflake), from which its shard follows; None for
    no server (direct messages, the console) or an id that is not a snowflake."""
    if guild_id and guild_id.isascii() and guild_id.isdigit() and int(guild_id) < 2**63:
        return int(guild_id)
    return None


@dataclass(frozen=True, slots=True)
class ShardSlice:
    """The shards one bot process runs: ``ids`` out of ``count``. Discord puts a server on
    shard ``(server_id >> 22) % count``; work without a server (DMs) belongs to any."""

    ids: tuple[int, ...]
    count: int

    def owns(self, guild_id: str | None) -> bool:
        key = guild_key(guild_id)
        return key is None or (key >> 22) % self.count in self.ids

    def clause(self, column: str) -> tuple[str, list[Any]]:
        """SQL (both backends) that keeps the rows of these shards, and its parameters."""
        marks = ",".join("?" * len(self.ids))
        return (
            f" AND ({column} IS NULL OR ({column} >> 22) % ? IN ({marks}))",
            [self.count, *self.ids],
        )


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


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


#: Digits to ``0``, everything else as it is: a run of 19 digits becomes ``b"0" * 19``,
#: which ``bytes.find`` looks for at C speed.
_DIGITS_TO_ZERO = bytes.maketrans(b"123456789", b"000000000")
_LONG_RUN = b"0" * 19
_DIGIT_RUN = re.compile(rb"[0-9]+")
#: The integers orjson reads exactly (beyond them it makes a float).
_EXACT = range(-(2**63), 2**64)


def _exact_integers(raw: bytes) -> bool:
    """Whether every run of 19 or more digits in ``raw`` (with the ``-`` before it, if
    any; inside strings too: the test only has to be safe) is an integer orjson reads
    exactly. Shorter runs always are (below 10**18 in size). Why not a regular expression
    over the text (``-?\\d{19,}``, as before): it tried a match at every character and cost
    more than orjson's whole parse (37-84 µs for a 0.6-2 KB snapshot, against 7-16 µs);
    the translated copy and ``find`` cost a few µs, and only the rare long runs are
    looked at in Python."""
    zeros = raw.translate(_DIGITS_TO_ZERO)
    start = zeros.find(_LONG_RUN)
    while start >= 0:
        # ``find`` gives the leftmost window of 19 digits, so ``start`` begins a run
        run = _DIGIT_RUN.match(raw, start)
        assert run is not None
        first = start - 1 if start and raw[start - 1] == 45 else start  # 45: "-"
        if int(raw[first : run.end()]) not in _EXACT:
            return False
        start = zeros.find(_LONG_RUN, run.end())
    return True


def _loads(text: str) -> Any:
    """``json.loads``, read by orjson where that gives the very same value. Why: a move
    reads its match (the snapshot, the settings) and its post's payload, and decoding
    them with the standard library was about a tenth of the bot's CPU per move; orjson
    takes a third of that. It reads valid JSON as the standard library does except
    integers outside 64 bits (signed or unsigned: it makes them floats) and what it
    refuses (NaN, Infinity, lone surrogates, numbers out of a float's range): text where
    a run of digits (read as a whole integer, even inside a string: the test only has
    to be safe) falls outside those (:func:`_exact_integers`), text that is not UTF-8
    (a lone surrogate) and text orjson refuses go to ``json.loads``. The snapshots'
    random generators are 64-bit numbers, so a run of 19 digits is common."""
    try:
        raw = text.encode()
    except UnicodeEncodeError:  # a lone surrogate: orjson refuses it
        return json.loads(text)
    if _exact_integers(raw):
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text)


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
    """A match read with :attr:`Store._SEATS_JSON` as its last column."""
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


class _Rows:
    """The rows of a statement that has already run to its end."""

    def __init__(self, rows: list[Any]) -> None:
        self._rows = rows
        self._next = 0

    async def fetchone(self) -> Any:
        if self._next >= len(self._rows):
            return None
        self._next += 1
        return self._rows[self._next - 1]

    async def fetchall(self) -> list[Any]:
        rows, self._next = self._rows[self._next :], len(self._rows)
        return rows


class SettledReader:
    """The read connection, with every statement run to its end at once.

    Why: in WAL mode a statement that has not finished (a ``fetchone`` that left rows
    behind, a cursor still alive in a coroutine waiting for something else) keeps the
    connection's read transaction open, and every other read on the connection then sees
    the database as it was when that transaction began. With reads interleaved on one
    connection (pictures drawn behind a move, ratings, the outbox), a match created a
    moment ago could be "not found" by the next read. Reading every result at once and
    closing the cursor ends the read transaction with each statement."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Any = ()) -> _Rows:
        # one call on the connection's thread: run *and* read to the end. Two awaits
        # (execute, then fetchall) let another coroutine's statement run in between, while
        # this one's read transaction is still open, and that statement then read the
        # database as it was before (a match created a moment ago: "not found").
        return _Rows(list(await self._conn.execute_fetchall(sql, params)))

    async def close(self) -> None:
        await self._conn.close()


class Store:
    """All SQL lives here. Open with :meth:`open`, close with :meth:`close`.

    The SQL is written once for both backends (``?`` placeholders, standard SQL);
    :class:`bot.storage.postgres.PostgresStore` runs the same methods on PostgreSQL and only
    replaces the connection handling and the row-locking suffixes below.
    """

    #: Row lock for read-modify-write transactions. SQLite's ``BEGIN IMMEDIATE`` already
    #: takes the whole database; PostgreSQL locks the rows read.
    _FOR_UPDATE = ""
    #: Claim suffix: skip rows another process is claiming right now (PostgreSQL).
    _SKIP_LOCKED = ""
    #: Statement that serialises rating updates inside a transaction (SQLite: the write
    #: lock already does; PostgreSQL: an advisory lock), parameter: a fixed key. A rebuild
    #: of every rating takes it alone.
    _RATINGS_LOCK = ""
    #: The same for one board's update (a finish): parameters the fixed key, shared with
    #: other finishes (so a rebuild waits for them and they for it), and the board's key,
    #: held alone (``bot/ratings.py: board_lock_key``).
    _RATINGS_BOARD_LOCK = ""
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
    #: Called inside :meth:`commit`'s transaction when a match finishes, with the store,
    #: the connection, the match id and the notifications; returns the notifications to
    #: queue (bot/ratings.py adds each person's rating change to the final post).
    on_finish: Any = None

    def __init__(
        self,
        path: Path | str,
        writer: aiosqlite.Connection,
        reader: aiosqlite.Connection | SettledReader,
    ):
        self.path = str(path)
        self._writer = writer
        self._reader = reader
        self._write_lock = asyncio.Lock()

    # ----- lifecycle ---------------------------------------------------------------------
    @classmethod
    async def open(cls, path: Path | str, *, synchronous: str = "NORMAL") -> Store:
        """Open (creating and migrating if needed). ``synchronous=NORMAL`` in WAL mode keeps
        every committed transaction across a process crash; only a power loss can lose the
        last ones, and ``FULL`` closes that gap at about twice the commit cost."""
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        writer = await aiosqlite.connect(str(path), isolation_level=None)
        try:
            await writer.execute("PRAGMA journal_mode=WAL")
            await writer.execute(f"PRAGMA synchronous={synchronous}")
            await writer.execute("PRAGMA busy_timeout=10000")
            await writer.execute("PRAGMA foreign_keys=ON")
            store_path = str(path)
            await cls._migrate(writer)
        except BaseException:
            # a file that is no database: close the connection's thread, or the process
            # could never exit (aiosqlite's thread is not a daemon)
            await writer.close()
            raise
        reader: aiosqlite.Connection | SettledReader = writer  # ":memory:": one connection
        if store_path != ":memory:":
            conn = await aiosqlite.connect(store_path, isolation_level=None)
            await conn.execute("PRAGMA busy_timeout=10000")
            await conn.execute("PRAGMA query_only=ON")
            reader = SettledReader(conn)
        return cls(path, writer, reader)

    @staticmethod
    async def _migrate(conn: aiosqlite.Connection) -> None:
        await conn.execute("BEGIN IMMEDIATE")
        try:
            cur = await conn.execute("PRAGMA user_version")
            (current,) = await cur.fetchone()  # type: ignore[misc]
            for number, script in enumerate(MIGRATIONS, start=1):
                if number <= current:
                    continue
                for statement in script.split(";"):
                    if statement.strip():
                        await conn.execute(statement)
                await conn.execute(f"PRAGMA user_version={number}")
            await conn.execute("COMMIT")
        except BaseException:
            await conn.execute("ROLLBACK")
            raise

    async def schema_version(self) -> int:
        cur = await self._reader.execute("PRAGMA user_version")
        (version,) = await cur.fetchone()  # type: ignore[misc]
        return int(version)

    async def close(self) -> None:
        if self._reader is not self._writer:
            await self._reader.close()
        await self._writer.close()

    # ----- transactions ------------------------------------------------------------------
    async def _transaction(self, work: Any) -> Any:
        """Run ``await work(conn)`` inside BEGIN IMMEDIATE .. COMMIT, rolling back on error."""
        async with self._write_lock:
            await self._writer.execute("BEGIN IMMEDIATE")
            try:
                result = await work(self._writer)
            except BaseException:
                await self._writer.execute("ROLLBACK")
                raise
            await self._writer.execute("COMMIT")
            return result

    async def _write_one(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """One statement that writes, as a transaction of its own; returns its rows (a
        ``RETURNING``). Here through the writer like every transaction; PostgreSQL runs it
        without ``BEGIN`` and ``COMMIT`` (a lone statement is a transaction there), which
        would be two more round trips to the server for each such write."""

        async def work(conn: aiosqlite.Connection) -> list[Any]:
            cur = await conn.execute(sql, tuple(params))
            return list(await cur.fetchall())

        return list(await self._transaction(work))

    async def _after_copy(self, conn: aiosqlite.Connection) -> None:
        """After ``copy-db`` wrote rows with their ids: nothing to do on SQLite (a new row
        takes the largest id + 1)."""

    # ----- matches -----------------------------------------------------------------------
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
        now = time.time()

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

        ``mutate(match)`` returns the new seat list (or raises); running the check inside
        the transaction makes two simultaneous joins for the last seat impossible, and the
        version bump makes a start computed from the old seat list fail its commit.
        """
        now = time.time()

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
            new_seats: list[SeatRow] = mutate(match)
            await conn.execute("DELETE FROM seats WHERE match_id = ?", (match_id,))
            await conn.executemany(
                "INSERT INTO seats (match_id, seat, user_id, name, joined_at) VALUES (?,?,?,?,?)",
                [(match_id, i, s.user_id, s.name, now) for i, s in enumerate(new_seats)],
            )
            await conn.execute(
                "UPDATE matches SET updated_at = ?, version = version + 1 WHERE id = ?",
                (now, match_id),
            )
            await self._mark_due(conn, match_id, match.status)
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
                (*values, time.time(), match_id),
            )
            row = await cur.fetchone()
            if row is not None:
                await self._mark_due(conn, match_id, row[0])

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
                (_dumps(settings), time.time(), match_id),
            )
            await self._mark_due(conn, match_id, row[2])
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
        transaction (the per-seat clocks, ``bot/clocks.py``): a settings change racing this
        commit is neither lost nor overwritten. ``settings_seen``: the stored settings text
        the caller read with the match (``MatchRow.settings_text``); a backend may then
        apply ``settings_update`` to those and write only if they are still stored
        (PostgreSQL: the whole commit in one statement), else it does as without.

        Raises :class:`VersionConflict` if the match is not at ``expected_version``.
        """
        now = time.time()

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
            rows = await cur.fetchall()  # to its end: SQLite finishes the statement
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
            await self._queue(conn, match_id, queued, now)
            await self._mark_due(conn, match_id, status)
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

    # ----- outbox ------------------------------------------------------------------------
    @staticmethod
    async def _queue(
        conn: aiosqlite.Connection,
        match_id: int | None,
        notifications: Sequence[Notification],
        now: float,
    ) -> None:
        if notifications:
            await conn.executemany(
                "INSERT INTO outbox (match_id, kind, payload, created_at, due_at) "
                "VALUES (?,?,?,?,?)",
                [
                    (match_id, n.kind, _dumps(n.payload), now, n.due_at or now)
                    for n in notifications
                ],
            )

    async def enqueue(self, match_id: int | None, notifications: Sequence[Notification]) -> None:
        async def work(conn: aiosqlite.Connection) -> None:
            await self._queue(conn, match_id, notifications, time.time())

        await self._transaction(work)

    async def due_notifications(self, now: float | None = None, limit: int = 20) -> list[OutboxRow]:
        """Undelivered items that are due, oldest first, and never one whose match still
        has an older undelivered item (so a match's posts arrive in order). A look only,
        claimed or not: the delivery worker takes items with :meth:`claim_notifications`."""
        now = time.time() if now is None else now
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
        ``shards``, only items of servers on those shards (and items of no server)."""
        now = time.time() if now is None else now
        shard_sql, shard_params = shards.clause("m.guild_key") if shards else ("", [])
        first = _FIRST_OF_ITS_MATCH_JOINED if shards else _FIRST_OF_ITS_MATCH
        # one statement: the rows are chosen (and, on PostgreSQL, locked, skipping those
        # another process is claiming) and leased in one go — a worker polls this several
        # times a second, so it is one round trip, not a transaction of four
        found = await self._write_one(
            "UPDATE outbox SET claimed_by = ?, claimed_until = ? WHERE id IN ("
            "SELECT o.id FROM outbox o LEFT JOIN matches m ON m.id = o.match_id "
            "WHERE o.sent_at IS NULL AND o.due_at <= ? "
            "AND (o.claimed_until IS NULL OR o.claimed_until <= ?) "
            f"AND {first}{shard_sql} ORDER BY o.id LIMIT ?"
            f"{self._SKIP_LOCKED.format(table='o')}) "
            "RETURNING id, match_id, kind, payload, attempts, created_at, due_at",
            (owner, now + lease, now, now, *shard_params, limit),
        )
        rows = [
            OutboxRow(int(r[0]), r[1], r[2], _loads(r[3]), int(r[4]), r[5], r[6]) for r in found
        ]
        return sorted(rows, key=lambda r: r.id)

    async def release_notifications(self, outbox_ids: Sequence[int]) -> None:
        """Hand claimed items back unsent (e.g. the worker must pause for a rate limit):
        any process may claim them again at once."""
        if not outbox_ids:
            return
        await self._write_one(
            "UPDATE outbox SET claimed_until = NULL "
            f"WHERE id IN ({','.join('?' * len(outbox_ids))})",
            tuple(outbox_ids),
        )

    async def mark_sent(self, outbox_id: int) -> None:
        await self._write_one(
            "UPDATE outbox SET sent_at = ?, attempts = attempts + 1, claimed_until = NULL "
            "WHERE id = ?",
            (time.time(), outbox_id),
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
        now = time.time()

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
            (time.time(), ("dropped: " + error)[:500], outbox_id),
        )

    async def pending_count(self) -> int:
        cur = await self._reader.execute("SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL")
        (n,) = await cur.fetchone()  # type: ignore[misc]
        return int(n)

    # ----- users -------------------------------------------------------------------------
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

    @staticmethod
    def now() -> float:
        """The time the store stamps rows with (tests replace this module's clock), for
        callers that compare with those stamps (clocks, away periods)."""
        return time.time()

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

    # ----- scheduling memory (reminders, clocks, keep-alive) -----------------------------
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
        now = time.time() if now is None else now
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

    @staticmethod
    async def _mark_due(conn: aiosqlite.Connection, match_id: int, status: str) -> None:
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


def is_postgres_url(location: Path | str) -> bool:
    return str(location).startswith(("postgresql://", "postgres://"))


async def open_store(location: Path | str, *, synchronous: str = "NORMAL") -> Store:
    """The store for a database location: a ``postgresql://`` URL opens PostgreSQL (several
    bot processes may share it), anything else is an SQLite file path."""
    if is_postgres_url(location):
        try:
            from bot.storage.postgres import PostgresStore
        except ImportError as exc:  # asyncpg is the optional extra "postgres"
            raise RuntimeError(
                "a postgresql:// database needs asyncpg: pip install -e '.[postgres]'"
            ) from exc

        return await PostgresStore.open(str(location))
    return await Store.open(location, synchronous=synchronous)
