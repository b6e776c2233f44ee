"""The PostgreSQL store's own connection pool (``bot.storage.postgres.Pool``).

It replaced asyncpg's pool for speed, so what asyncpg's pool guaranteed must still hold:
never more than ``size`` connections, a statement that finds them all lent waits for one,
a connection goes back as it is only when it is safe to lend again (a failed statement
the server reported leaves it usable; one left inside a transaction or interrupted by a
cancel is closed, and the next user gets a fresh one), and a closed pool refuses work.
Against a real server (the ``postgres`` fixture); nothing here is timed."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.storage.postgres import Pool
from tests import pg_server
from tests.conftest import new_postgres_database


@pytest.fixture
async def url(postgres: pg_server.PgServer) -> str:
    return await new_postgres_database(postgres)


async def test_many_statements_share_at_most_size_connections(url: str) -> None:
    pool = Pool(url, 3)
    try:
        seen = await asyncio.gather(
            *(pool.fetchrow("SELECT pg_backend_pid(), pg_sleep(0.01)") for _ in range(20))
        )
        assert len({row[0] for row in seen}) <= 3
        assert pool._open <= 3
        # one at a time, the same connection serves them all
        pids = {(await pool.fetchrow("SELECT pg_backend_pid()"))[0] for _ in range(5)}
        assert len(pids) == 1
    finally:
        await pool.close()


async def test_a_statement_waits_when_every_connection_is_lent(url: str) -> None:
    pool = Pool(url, 1)
    try:
        order: list[str] = []

        async def hold() -> None:
            async with pool.acquire() as conn:
                order.append("held")
                await conn.execute("SELECT pg_sleep(0.05)")
                order.append("released")

        async def wait() -> None:
            await asyncio.sleep(0)  # let hold() take the only connection first
            await pool.fetchrow("SELECT 1")
            order.append("ran")

        await asyncio.gather(hold(), wait())
        assert order == ["held", "released", "ran"]
    finally:
        await pool.close()


async def test_a_failed_statement_gives_its_connection_back(url: str) -> None:
    pool = Pool(url, 2)
    try:
        pid = (await pool.fetchrow("SELECT pg_backend_pid()"))[0]
        with pytest.raises(asyncpg.DivisionByZeroError):
            await pool.fetchrow("SELECT 1 / 0")
        with pytest.raises(asyncpg.UniqueViolationError):
            async with pool.acquire() as conn, conn.transaction():
                await conn.execute("CREATE TEMP TABLE t (x int PRIMARY KEY)")
                await conn.execute("INSERT INTO t VALUES (1), (1)")
        async with pool.acquire() as conn:
            assert await conn.fetchval("SELECT pg_backend_pid()") == pid
            assert not conn.is_in_transaction()
    finally:
        await pool.close()


async def test_a_connection_left_in_a_transaction_is_not_lent_again(url: str) -> None:
    pool = Pool(url, 2)
    try:
        async with pool.acquire() as conn:
            left = await conn.fetchval("SELECT pg_backend_pid()")
            await conn.execute("BEGIN")
            await conn.execute("CREATE TEMP TABLE left_open (x int)")
        async with pool.acquire() as conn:
            assert not conn.is_in_transaction()
            assert await conn.fetchval("SELECT pg_backend_pid()") != left
            assert await conn.fetchval("SELECT to_regclass('left_open') IS NULL")
    finally:
        await pool.close()


async def test_a_cancelled_statement_costs_its_connection_not_the_pool(url: str) -> None:
    pool = Pool(url, 1)
    try:
        first = (await pool.fetchrow("SELECT pg_backend_pid()"))[0]
        slow = asyncio.ensure_future(pool.fetchrow("SELECT pg_sleep(30)"))
        await asyncio.sleep(0.2)  # the statement is on the server
        slow.cancel()
        with pytest.raises(asyncio.CancelledError):
            await slow
        row = await pool.fetchrow("SELECT pg_backend_pid(), 41 + 1")
        assert row[1] == 42 and row[0] != first  # a fresh connection, the only one
        assert pool._open == 1
    finally:
        await pool.close()


async def test_a_closed_pool_refuses_work_and_wakes_its_waiters(url: str) -> None:
    pool = Pool(url, 1)
    async with pool.acquire():
        waiting = asyncio.ensure_future(pool.fetchrow("SELECT 1"))
        await asyncio.sleep(0.05)
        assert not waiting.done()
        await pool.close()
        with pytest.raises(asyncpg.InterfaceError):
            await waiting
    with pytest.raises(asyncpg.InterfaceError):
        await pool.fetchrow("SELECT 1")


async def test_a_connection_given_back_goes_to_the_first_waiter(url: str) -> None:
    """A statement that starts just as a connection comes back does not take it from one
    already waiting (which then queued again at the back: under steady load the outbox's
    statements waited seconds behind the players' moves, issue 44)."""
    pool = Pool(url, 1)
    order: list[str] = []

    async def run(name: str) -> None:
        await pool.fetchrow("SELECT 1")
        order.append(name)

    try:
        async with pool.acquire():
            waiting = asyncio.ensure_future(run("waiting"))
            await asyncio.sleep(0.05)  # queued for the only connection
        late = asyncio.ensure_future(run("late"))  # starts as the connection comes back
        await asyncio.gather(waiting, late)
        assert order == ["waiting", "late"]
    finally:
        await pool.close()
