"""The SQLite schema as numbered steps, and the step that brings a database up to date.

Why numbered steps and never an edited schema: a database made by any earlier version of
the bot must open in this one. Each step runs once, in order, and the database remembers
the last one applied (``PRAGMA user_version``); a step is never changed once released, only
followed by a new one. PostgreSQL has the same steps in its own types
(``bot.storage.postgres_migrations``); ``tests/test_store_backends.py`` holds the two lists
to the same length.
"""

from __future__ import annotations

import sqlite3

import aiosqlite

from bot.storage.computer_turns import COMPUTER_TURNS_SQLITE
from bot.storage.faults import SchemaTooNew
from bot.storage.leagues import LEAGUES_SQLITE
from bot.storage.reviews import REVIEWS_SQLITE

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
    # 4: per server and game, OpenSkill ratings of people (a cache: bot/community/ratings.py
    # rebuilds it from the finished matches) and each rated match's change per person.
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
    # 6 (outbox, issue 44): ``dedup_key`` names what a row announces (a turn alert DM: the
    # turn post's row and the person), so queueing it again finds the row already there
    # (and its nonce); ``claims``/``tried_at`` say whether, and since when, the row may
    # have reached Discord, so a re-send looks first; ``outbox_sent`` lets the sent rows
    # past their retention be pruned without reading the whole table.
    """
    ALTER TABLE outbox ADD COLUMN dedup_key TEXT;
    ALTER TABLE outbox ADD COLUMN claims INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE outbox ADD COLUMN tried_at REAL;
    CREATE UNIQUE INDEX outbox_dedup ON outbox (dedup_key);
    CREATE INDEX outbox_sent ON outbox (sent_at) WHERE sent_at IS NOT NULL;
    """,
    # computer_turns (the computer driver's index, bot/storage/computer_turns.py): one row
    # per running match with a computer seat whose newest version the driver has not yet
    # found to wait for a person. Kept by triggers, so every change that can make a computer
    # seat due (a move, an undo, a start, a clock, a substitution, a seat handed to a
    # computer) marks it, whatever code path writes it; the driver reads this instead of
    # every running match. Written to be re-runnable (IF NOT EXISTS) so its place in the
    # list may move when steps of parallel work are merged.
    COMPUTER_TURNS_SQLITE,
    # Maharani's refresh is a move only with a face-down marker to turn up (the rulebook's
    # reading, rules/maharani): every Maharani match stored before keeps the old reading,
    # a refresh with every marker up as a pass (the option ``refresh_as_pass``), so its
    # record replays as it was played. Re-runnable: setting the key twice changes nothing.
    """
    UPDATE matches SET options = json_set(options, '$.refresh_as_pass', json('true'))
    WHERE game_id = 'maharani' AND json_extract(options, '$.refresh_as_pass') IS NULL;
    """,
    # reviews (bot/storage/reviews.py): the cache of post-game reviews, one row per
    # finished match, language-free. Re-runnable (IF NOT EXISTS).
    REVIEWS_SQLITE,
    # leagues (issue 46, bot/storage/leagues.py): a server's seasons of matches — the
    # league, who signed up (and left), each round's tables (their matches) and byes.
    # Re-runnable (IF NOT EXISTS), so its place in the list may move at a merge.
    LEAGUES_SQLITE,
]


def _statements(script: str) -> list[str]:
    """The statements of a step: split at each ``;`` that ends a whole statement (a
    trigger's body holds ``;`` of its own, which ``sqlite3.complete_statement`` knows)."""
    out, pending = [], ""
    for piece in script.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if pending.strip(" \n;"):
                out.append(pending.strip())
            pending = ""
    return out


async def migrate(conn: aiosqlite.Connection) -> None:
    """Apply the steps ``conn``'s database lacks, all in one ``BEGIN IMMEDIATE``
    transaction: a second process opening the file at the same moment waits, then finds
    nothing left to do. A database a newer Tessera upgraded (more steps than this code
    knows) is refused (:class:`SchemaTooNew`): older code would write rows that schema does
    not expect, silently."""
    await conn.execute("BEGIN IMMEDIATE")
    try:
        cur = await conn.execute("PRAGMA user_version")
        (current,) = await cur.fetchone()  # type: ignore[misc]
        if current > len(MIGRATIONS):
            raise SchemaTooNew(current, len(MIGRATIONS))
        for number, script in enumerate(MIGRATIONS, start=1):
            if number <= current:
                continue
            for statement in _statements(script):
                await conn.execute(statement)
            await conn.execute(f"PRAGMA user_version={number}")
        await conn.execute("COMMIT")
    except BaseException:
        await conn.execute("ROLLBACK")
        raise
