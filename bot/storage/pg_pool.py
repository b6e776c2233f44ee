"""The PostgreSQL store's connection pool and the limits every connection is opened with.

Why limits on every connection (issue 44): without them a frozen server stalled moves for
20 s with nothing logged, a network partition would hang until the kernel gave up, and the
pool was fixed at 10 connections a process (at PostgreSQL's default ``max_connections`` of
100 about nine processes fit). Each connection now has

- a statement timeout, enforced twice: by the server (``statement_timeout``: a slow
  statement is cancelled and rolled back, a clean "nothing was written") and by the client
  (asyncpg's ``command_timeout``, a second longer: a server that does not answer at all —
  frozen, or behind a partition — is given up; what the statement did is then unknown,
  :class:`bot.storage.faults.ConnectionLost`);
- a connect timeout (a server that accepts no connection);
- TCP keep-alive on both ends (the server's ``tcp_keepalives_*`` settings, the client's
  socket options), so a connection across a dead link is found out while idle;
- a bounded wait for a free connection.

Errors are named for the callers (:mod:`bot.storage.faults`): a connection that cannot be
made, a server-side timeout or a pool with no free connection in time is
``DatabaseUnavailable`` (nothing was written); a connection lost under a statement is
``ConnectionLost`` (a commit's outcome must be read back).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections import deque
from collections.abc import AsyncIterator, Iterable, Sequence
from typing import Any
from urllib.parse import urlsplit

import asyncpg

from bot.storage.faults import ConnectionLost, DatabaseUnavailable
from bot.storage.limits import DatabaseLimits


def where(url: str) -> str:
    """The server a URL names, without its password: for messages."""
    parts = urlsplit(url)
    host = parts.hostname or "localhost"
    port = f":{parts.port}" if parts.port else ""
    return f"{host}{port}{parts.path}"


#: Errors that mean the connection under a statement broke or did not answer (the server
#: reported none of them about the statement itself). ``ConnectionDoesNotExistError`` is a
#: PostgresConnectionError; the operator-intervention ones are a terminated backend or a
#: server shutting down.
_LOST: tuple[type[BaseException], ...] = (
    OSError,
    TimeoutError,
    asyncpg.InterfaceError,
    asyncpg.PostgresConnectionError,
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    asyncpg.CannotConnectNowError,
)


class Pool:
    """The store's connections: a statement takes an idle connection (or opens one, up to
    ``size``, or waits for one), runs, and puts it back at once.

    Why not asyncpg's pool: it hands out a proxy object per use and gives a connection
    back through a shielded task (asyncio.shield of its release coroutine, awaiting our
    reset), so every statement cost several more turns of the event loop; a pooled
    ``SELECT`` cost the bot about 140-200 µs of CPU against about 60 µs on a held
    connection (measured on this machine, 3,000 in a row). The store keeps no session
    state (no ``LISTEN``, no session advisory locks, no ``SET``, no cursors outside a
    transaction), so there is nothing to reset: a connection goes back as it is, unless
    it is unsafe to lend again — still inside a transaction (never on purpose), or left
    by an error that did not come from the server (a cancelled statement: its cancel
    request may still be on the way; a lost connection) — which is closed instead; the
    next user opens a new one. An error the server reported (a failed statement) leaves
    the connection in step and outside any transaction the statement opened, so it goes
    back."""

    def __init__(self, url: str, size: int | None = None, limits: DatabaseLimits | None = None):
        self._url = url
        self.limits = limits or DatabaseLimits()
        self._size = size if size is not None else self.limits.pool_size
        self._idle: list[asyncpg.Connection] = []
        self._open = 0  # connections open or being opened, idle or lent
        self._waiters: deque[asyncio.Future[asyncpg.Connection | None]] = deque()
        self._closed = False

    async def connect(self, *, unlimited: bool = False) -> asyncpg.Connection:
        """A new connection with the limits (``unlimited``: no statement timeout, for the
        migrations, which may rewrite a large table). One that cannot be made is
        :class:`DatabaseUnavailable`, in one line naming the server (not its password)."""
        limits = self.limits
        server = {
            "tcp_keepalives_idle": str(limits.keepalive_seconds),
            "tcp_keepalives_interval": str(limits.keepalive_interval),
            "tcp_keepalives_count": str(limits.keepalive_count),
            "statement_timeout": "0" if unlimited else str(int(limits.statement_timeout * 1000)),
        }
        try:
            conn = await asyncpg.connect(
                self._url,
                timeout=limits.connect_timeout,
                command_timeout=None if unlimited else limits.answer_timeout,
                server_settings=server,
            )
        except asyncio.CancelledError:
            raise
        except TimeoutError:
            raise DatabaseUnavailable(
                f"PostgreSQL at {where(self._url)} did not accept a connection within "
                f"{limits.connect_timeout:g} s"
            ) from None
        except Exception as exc:
            raise DatabaseUnavailable(
                f"cannot connect to PostgreSQL at {where(self._url)}: {_one_line(exc)}"
            ) from None
        _keep_alive(conn, limits)
        return conn

    async def _take(self) -> asyncpg.Connection:
        """An idle connection, a new one (below ``size``), or the next one given back.

        Why a connection given back goes straight to the first waiter (and a woken waiter
        that still finds none waits at the front again): if it went to the idle list and
        the waiter were only woken, any statement starting before the waiter ran would
        take it, and the waiter would queue again at the back — under steady load (the
        players' moves) the outbox's statements waited for seconds behind them (measured:
        posts 11 s late with 5 connections a process, 0.4 s with 10)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.limits.statement_timeout
        front = False
        while True:
            if self._closed:
                raise asyncpg.InterfaceError("the store's connection pool is closed")
            while self._idle:
                conn = self._idle.pop()
                if not conn.is_closed():
                    return conn
                self._open -= 1  # the server ended it while it was idle
            if self._open < self._size:
                self._open += 1
                try:
                    return await self.connect()
                except BaseException:
                    self._open -= 1
                    self._wake()
                    raise
            waiter: asyncio.Future[asyncpg.Connection | None] = loop.create_future()
            if front:
                self._waiters.appendleft(waiter)
            else:
                self._waiters.append(waiter)
            try:
                done, _ = await asyncio.wait((waiter,), timeout=max(0.0, deadline - loop.time()))
            except BaseException:
                if waiter.done() and not waiter.cancelled():
                    handed = waiter.result()  # given, then cancelled: pass it on
                    if handed is not None:
                        self._give(handed)
                    else:
                        self._wake()
                else:
                    with contextlib.suppress(ValueError):
                        self._waiters.remove(waiter)
                raise
            if not done:
                with contextlib.suppress(ValueError):
                    self._waiters.remove(waiter)
                raise DatabaseUnavailable(
                    f"no free database connection within {self.limits.statement_timeout:g} s "
                    f"(all {self._size} in use; TESSERA_DB_POOL_SIZE)"
                )
            handed = waiter.result()
            if handed is not None:
                return handed
            front = True  # a slot came free (or the pool closed): look again, first in line

    def _wake(self) -> None:
        """A slot came free (a connection closed): the first waiter may open one."""
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return

    def _give(self, conn: asyncpg.Connection) -> None:
        if self._closed or conn.is_closed() or conn.is_in_transaction():
            self._drop(conn)
            return
        while self._waiters:  # straight to the first in line (see _take)
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(conn)
                return
        self._idle.append(conn)

    def _drop(self, conn: asyncpg.Connection) -> None:
        conn.terminate()
        self._open -= 1
        self._wake()

    def _back(self, conn: asyncpg.Connection, error: BaseException | None) -> None:
        """After a use: lend ``conn`` again when it ended cleanly or with an error the
        server reported (the connection is in step), else close it (see the class)."""
        if error is None or isinstance(error, asyncpg.PostgresError):
            self._give(conn)
        else:
            self._drop(conn)

    def _named(self, conn: asyncpg.Connection, error: Exception) -> Exception:
        """The error a caller should see: a statement timed out on the server is
        :class:`DatabaseUnavailable` (rolled back), a connection lost or silent under a
        statement is :class:`ConnectionLost`; any other error as it is."""
        if isinstance(error, asyncpg.QueryCanceledError):
            return DatabaseUnavailable(
                f"PostgreSQL at {where(self._url)} did not finish a statement within "
                f"{self.limits.statement_timeout:g} s (TESSERA_DB_STATEMENT_TIMEOUT); "
                "it was cancelled"
            )
        if isinstance(error, _LOST) and not isinstance(error, DatabaseUnavailable):
            if isinstance(error, TimeoutError):
                text = f"no answer within {self.limits.answer_timeout:g} s"
            else:
                text = _one_line(error)
            return ConnectionLost(
                f"lost the connection to PostgreSQL at {where(self._url)} during a "
                f"statement: {text}",
                backend_pid=_server_pid(conn),
            )
        return error

    @contextlib.asynccontextmanager
    async def acquire(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection for a transaction (or several statements), given back after."""
        conn = await self._take()
        try:
            yield conn
        except Exception as exc:
            named = self._named(conn, exc)  # first: giving it back may close it
            self._back(conn, exc)
            if named is exc:
                raise
            raise named from exc
        except BaseException as exc:
            self._back(conn, exc)
            raise
        self._back(conn, None)

    async def _lend(self, method: str, query: str, args: tuple[Any, ...]) -> Any:
        """One statement on a lent connection (``method``: asyncpg's ``fetch``,
        ``fetchrow`` or ``execute``), given back as :meth:`acquire` gives it back but
        without a context manager object: a lone statement is the store's commonest call."""
        conn = await self._take()
        try:
            result = await getattr(conn, method)(query, *args)
        except Exception as exc:
            named = self._named(conn, exc)  # first: giving it back may close it
            self._back(conn, exc)
            if named is exc:
                raise
            raise named from exc
        except BaseException as exc:
            self._back(conn, exc)
            raise
        self._back(conn, None)
        return result

    async def fetch(self, query: str, *args: Any) -> list[Any]:
        rows: list[Any] = await self._lend("fetch", query, args)
        return rows

    async def fetchrow(self, query: str, *args: Any) -> Any:
        return await self._lend("fetchrow", query, args)

    async def execute(self, query: str, *args: Any) -> str:
        status: str = await self._lend("execute", query, args)
        return status

    async def executemany(self, query: str, args: Iterable[Sequence[Any]]) -> None:
        async with self.acquire() as conn:
            await conn.executemany(query, args)

    async def close(self) -> None:
        """Close the idle connections; one still lent is closed when it comes back."""
        self._closed = True
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)  # it finds the pool closed
        idle, self._idle = self._idle, []
        for conn in idle:
            self._open -= 1
            with contextlib.suppress(Exception):
                await conn.close(timeout=5)


def _keep_alive(conn: asyncpg.Connection, limits: DatabaseLimits) -> None:
    """TCP keep-alive on the client's end too (asyncpg has no option for it): an idle
    connection across a dead link is found out within about ``keepalive_seconds`` plus
    three probes, and data left unacknowledged that long gives up (``TCP_USER_TIMEOUT``)
    instead of waiting for the kernel's own 15 minutes. A Unix socket has no TCP: nothing
    to set."""
    transport = getattr(conn, "_transport", None)  # asyncpg keeps its transport here
    sock = transport.get_extra_info("socket") if transport is not None else None
    if sock is None or sock.family not in (socket.AF_INET, socket.AF_INET6):
        return
    with contextlib.suppress(OSError, AttributeError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE, limits.keepalive_seconds)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL, limits.keepalive_interval)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT, limits.keepalive_count)
        total = limits.keepalive_seconds + limits.keepalive_interval * limits.keepalive_count
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, total * 1000)


def _server_pid(conn: asyncpg.Connection) -> int | None:
    """The server process of ``conn``, None once asyncpg has let go of it."""
    try:
        return int(conn.get_server_pid())
    except (AttributeError, TypeError):
        return None


def _one_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__
