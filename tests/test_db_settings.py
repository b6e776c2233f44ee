"""The database's settings and its failures seen by an operator (issue 44).

- Pool size, statement and connect timeouts and TCP keep-alive are settings; a wrong value
  is refused in one line naming what is allowed; the pool holds at most its size.
- A database that is down at start is one line and a non-zero exit (it was a 74-line
  traceback); down while running, one log line a minute, not a traceback per tick.
- A database upgraded by a newer Tessera is refused at start, in one line.
- ``migrate`` takes ``--db`` after the command too, for PostgreSQL as for SQLite.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import asyncpg
import pytest

from bot.__main__ import main
from bot.discord.scheduler import Scheduler
from bot.matches.lost_commits import database_answer
from bot.storage import open_store
from bot.storage.faults import ConnectionLost, DatabaseUnavailable, OutageLog, SchemaTooNew
from bot.storage.limits import TOOL_STATEMENT_SECONDS, DatabaseLimits, for_tools
from bot.storage.migrations import MIGRATIONS
from bot.storage.pg_pool import Pool
from tests import pg_server
from tests.conftest import new_postgres_database


@pytest.fixture(autouse=True)
def _no_operator_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Each test sets what it needs; none reads a developer's .env."""
    monkeypatch.chdir(tmp_path)
    for name in (
        "TESSERA_DATABASE_URL",
        "TESSERA_DB_POOL_SIZE",
        "TESSERA_DB_STATEMENT_TIMEOUT",
        "TESSERA_DB_CONNECT_TIMEOUT",
        "TESSERA_DB_KEEPALIVE_SECONDS",
        "DISCORD_TOKEN",
    ):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize(
    ("name", "value", "words"),
    [
        ("TESSERA_DB_POOL_SIZE", "0", "greater than or equal to 1"),
        ("TESSERA_DB_POOL_SIZE", "500", "less than or equal to 100"),
        ("TESSERA_DB_POOL_SIZE", "many", "valid integer"),
        ("TESSERA_DB_STATEMENT_TIMEOUT", "0", "greater than 0"),
        ("TESSERA_DB_CONNECT_TIMEOUT", "-1", "greater than 0"),
        ("TESSERA_DB_KEEPALIVE_SECONDS", "0", "greater than or equal to 1"),
    ],
)
def test_a_wrong_database_setting_is_refused_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
    value: str,
    words: str,
) -> None:
    monkeypatch.setenv(name, value)
    assert main(["migrate", "--db", "x.db"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and f"{name}={value}" in err and words in err, err
    assert not Path("x.db").exists()


def test_the_limits_come_from_the_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    assert DatabaseLimits.from_settings() == DatabaseLimits()  # the defaults agree
    monkeypatch.setenv("TESSERA_DB_POOL_SIZE", "7")
    monkeypatch.setenv("TESSERA_DB_STATEMENT_TIMEOUT", "2.5")
    monkeypatch.setenv("TESSERA_DB_CONNECT_TIMEOUT", "3")
    monkeypatch.setenv("TESSERA_DB_KEEPALIVE_SECONDS", "12")
    assert DatabaseLimits.from_settings() == DatabaseLimits(7, 2.5, 3.0, 12)


async def test_the_pool_opens_connections_with_the_limits(postgres: pg_server.PgServer) -> None:
    url = await new_postgres_database(postgres)
    pool = Pool(url, limits=DatabaseLimits(pool_size=2, statement_timeout=0.5))
    try:
        rows = await asyncio.gather(
            *(pool.fetchrow("SELECT pg_backend_pid(), pg_sleep(0.01)") for _ in range(8))
        )
        assert len({r[0] for r in rows}) <= 2  # the pool's size, from the limits
        shown = await pool.fetchrow("SHOW statement_timeout")
        assert shown[0] == "500ms"
        with pytest.raises(DatabaseUnavailable, match="within 0.5 s"):
            await pool.fetchrow("SELECT pg_sleep(3)")  # cancelled by the server: nothing done
    finally:
        await pool.close()


async def test_waiting_for_a_free_connection_is_bounded(postgres: pg_server.PgServer) -> None:
    """Every connection lent (a stuck statement each): the next waits the statement timeout
    for one, then fails, saying why — it does not queue for ever."""
    url = await new_postgres_database(postgres)
    pool = Pool(url, limits=DatabaseLimits(pool_size=1, statement_timeout=0.3))
    try:
        async with pool.acquire():
            with pytest.raises(DatabaseUnavailable, match="no free database connection"):
                await pool.fetchrow("SELECT 1")
        assert (await pool.fetchrow("SELECT 41 + 1"))[0] == 42  # lent again once back
    finally:
        await pool.close()


def test_a_database_down_at_start_is_one_line_and_a_failure(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The Discord bot's start (a token set, nothing reached: the database is opened
    before Discord is called)."""
    monkeypatch.setenv("DISCORD_TOKEN", "x" * 60)
    monkeypatch.setenv("TESSERA_DB_CONNECT_TIMEOUT", "1")
    port = pg_server.free_port()  # nothing listens there
    monkeypatch.setenv("TESSERA_DATABASE_URL", f"postgresql://tessera:secret@127.0.0.1:{port}/t")
    assert main([]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0, err
    assert err.startswith("Cannot start: cannot connect to PostgreSQL at 127.0.0.1:")
    assert "TESSERA_DATABASE_URL" in err and "secret" not in err


def test_a_newer_sqlite_schema_is_refused_at_start(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["migrate", "--db", "new.db"]) == 0
    with sqlite3.connect("new.db") as conn:
        conn.execute(f"PRAGMA user_version={len(MIGRATIONS) + 1}")
    capsys.readouterr()
    assert main(["--db", "new.db", "--console"]) == 1
    err = capsys.readouterr().err.strip()
    assert err == (
        f"Cannot start: this database was upgraded by a newer Tessera (schema "
        f"{len(MIGRATIONS) + 1}); this code knows up to {len(MIGRATIONS)}; upgrade the code."
    )
    assert main(["migrate", "--db", "new.db"]) == 2  # and migrate does not touch it
    assert "upgrade the code" in capsys.readouterr().err


async def test_a_newer_postgresql_schema_is_refused(postgres: pg_server.PgServer) -> None:
    url = await new_postgres_database(postgres)
    store = await open_store(url)
    await store.close()
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("INSERT INTO schema_version VALUES ($1)", len(MIGRATIONS) + 1)
    finally:
        await conn.close()
    with pytest.raises(SchemaTooNew) as refused:
        await open_store(url)
    assert (refused.value.found, refused.value.known) == (len(MIGRATIONS) + 1, len(MIGRATIONS))


def test_migrate_takes_db_after_the_command_for_postgresql(
    postgres: pg_server.PgServer, capsys: pytest.CaptureFixture[str]
) -> None:
    url = asyncio.run(new_postgres_database(postgres))
    assert main(["migrate", "--db", url]) == 0
    assert capsys.readouterr().out.strip() == f"schema version {len(MIGRATIONS)}"
    assert main(["--db", url, "migrate"]) == 0


def test_an_outage_is_one_line_a_minute() -> None:
    now = [0.0]
    records: list[logging.LogRecord] = []
    logger = logging.getLogger("tests.outage")

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    logger.addHandler(keep := Keep())
    try:
        outage = OutageLog(logger, "tick", clock=lambda: now[0])
        for _ in range(30):  # a tick every 2 s for a minute
            outage.failed(DatabaseUnavailable("cannot connect to PostgreSQL at db:5432"))
            now[0] += 2
        assert len(records) == 1  # the start of the outage, not one per tick
        outage.failed(DatabaseUnavailable("cannot connect"))
        assert len(records) == 2 and "30 more failures" in records[1].getMessage()
        outage.ok()
        assert "answers again after 60 s" in records[2].getMessage()
        assert all(r.levelno == logging.WARNING and r.exc_info is None for r in records)
        outage.failed(ValueError("a bug"))  # not an outage: its traceback, every time
        assert records[3].levelno == logging.ERROR and records[3].exc_info is not None
    finally:
        logger.removeHandler(keep)


async def test_the_scheduler_logs_a_down_database_once_not_per_tick(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The scheduler's loop (the outbox's and the computer driver's use the same
    :class:`OutageLog`): twenty failing ticks, one log line, no traceback."""
    ticks = 0

    async def down(**_: Any) -> list[int]:
        nonlocal ticks
        ticks += 1
        raise DatabaseUnavailable("cannot connect to PostgreSQL at db:5432: refused")

    store = SimpleNamespace(claim_due_matches=down)
    bot = SimpleNamespace(
        service=SimpleNamespace(store=store),
        settings=SimpleNamespace(scheduler_seconds=0.001, lease_seconds=60),
        shard_slice=None,
    )
    scheduler = Scheduler(bot, clock=lambda: 0.0)  # type: ignore[arg-type]
    with caplog.at_level(logging.INFO, logger="bot.discord.scheduler"):
        task = asyncio.ensure_future(scheduler.run_forever())
        while ticks < 20:
            await asyncio.sleep(0.005)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    lines = [r for r in caplog.records if r.name == "bot.discord.scheduler"]
    assert len(lines) == 1, [r.getMessage() for r in lines]
    assert lines[0].exc_info is None and "unreachable or too slow" in lines[0].getMessage()


def test_the_tools_allow_long_statements_the_bot_does_not(monkeypatch: pytest.MonkeyPatch) -> None:
    """``audit``, ``copy-db``, ``migrate``… read or write whole tables: their statements may
    take 600 s; the bot's keep the setting (and go back to it after a tool ran)."""
    monkeypatch.setenv("TESSERA_DB_STATEMENT_TIMEOUT", "2")
    with for_tools():
        assert DatabaseLimits.from_settings().statement_timeout == TOOL_STATEMENT_SECONDS
    assert DatabaseLimits.from_settings().statement_timeout == 2.0
    assert DatabaseLimits.from_settings(tool=True).statement_timeout == TOOL_STATEMENT_SECONDS


def test_a_database_failure_under_any_request_is_said_truthfully() -> None:
    """What the Discord front end answers (``report_error``) when the database failed under
    a request that is not a move: never "nothing was changed" when that is not known."""
    down = database_answer(DatabaseUnavailable("cannot connect"))
    lost = database_answer(ConnectionLost("lost", backend_pid=7))
    assert down is not None and down.key == "err.db_down"
    assert "nothing was changed" in down.text("en")
    assert lost is not None and lost.key == "err.db_unknown"
    assert "cannot tell" in lost.text("en") and "nothing was changed" not in lost.text("en")
    assert database_answer(ValueError("a bug")) is None
