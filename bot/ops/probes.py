"""What the metrics read from outside the counters: the outbox in the database (at scrape
time), the event loop's punctuality (a ticker task) and Discord's 429 answers (an aiohttp
trace on discord.py's HTTP session).

Why at scrape time for the outbox: the backlog is the database's, shared by every process,
and a read every scrape (every 15-60 s) costs less than keeping a count in step with every
claim of every process. Why a ticker for the loop: a timer that should fire every
``interval`` and fires late measures exactly what a click waits for before the bot even
looks at it (the issue's 8.5 s sweep blocked every click that long).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from types import SimpleNamespace
from typing import TYPE_CHECKING

import aiohttp

from bot.ops import metrics

if TYPE_CHECKING:
    from bot.storage import Store

#: Seconds between the loop-lag ticker's ticks, and how many ticks the maximum covers.
TICK_SECONDS = 0.25
TICKS_KEPT = 240  # one minute
#: Seconds the scrape waits for the outbox read before calling the database down.
READ_TIMEOUT = 5.0


async def read_outbox(store: Store, now: float | None = None) -> tuple[int, float, int]:
    """(posts due and unsent, seconds the oldest of them has waited since it was due,
    unsent posts whose claim ran out). One statement, on SQLite and PostgreSQL alike;
    the pending rows are few and indexed (``outbox_waiting``), so it stays cheap."""
    now = store.now() if now is None else now
    # a store read like bot/community/stats.py's: the one read connection of the store
    cur = await store._reader.execute(
        "SELECT COUNT(*), MIN(due_at), "
        "COUNT(CASE WHEN claimed_until IS NOT NULL AND claimed_until <= ? THEN 1 END) "
        "FROM outbox WHERE sent_at IS NULL AND due_at <= ?",
        (now, now),
    )
    count, oldest, lapsed = await cur.fetchone()  # type: ignore[misc]
    age = max(0.0, now - float(oldest)) if oldest is not None else 0.0
    return int(count), age, int(lapsed or 0)


async def refresh_outbox(store: Store) -> bool:
    """Set the outbox gauges from the database; False (and the gauges unknown) when it
    did not answer within :data:`READ_TIMEOUT`."""
    try:
        count, age, lapsed = await asyncio.wait_for(read_outbox(store), READ_TIMEOUT)
    except Exception:
        for gauge in (metrics.OUTBOX_BACKLOG, metrics.OUTBOX_OLDEST_AGE, metrics.OUTBOX_LAPSED):
            gauge.set(float("nan"))
        metrics.DATABASE_UP.set(0)
        return False
    metrics.OUTBOX_BACKLOG.set(count)
    metrics.OUTBOX_OLDEST_AGE.set(age)
    metrics.OUTBOX_LAPSED.set(lapsed)
    metrics.DATABASE_UP.set(1)
    return True


class LoopLag:
    """A task that sleeps :data:`TICK_SECONDS` at a time and records how late it woke."""

    def __init__(self, interval: float = TICK_SECONDS, kept: int = TICKS_KEPT) -> None:
        self.interval = interval
        self._lags: deque[float] = deque(maxlen=kept)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="tessera-loop-lag")

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            due = loop.time() + self.interval
            await asyncio.sleep(self.interval)
            self.record(max(0.0, loop.time() - due))

    def record(self, lag: float) -> None:
        self._lags.append(lag)
        metrics.LOOP_LAG.set(lag)
        metrics.LOOP_LAG_MAX.set(max(self._lags))

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None


def discord_trace() -> aiohttp.TraceConfig:
    """An aiohttp trace for discord.py's HTTP session (``discord.Client(http_trace=…)``,
    which interaction responses share) counting every 429 Discord answers, by its
    ``X-RateLimit-Scope`` (discord-api-docs ``topics/rate-limits.mdx``, "Header Format";
    none: Cloudflare's limit, which has no such header). discord.py waits and retries most
    429s by itself and only logs them; this sees each one, retried or raised."""

    async def on_request_end(
        _session: aiohttp.ClientSession,
        _context: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        if params.response.status == 429:
            scope = params.response.headers.get("X-RateLimit-Scope", "none")
            metrics.DISCORD_429.inc(scope.lower())

    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(on_request_end)
    return trace
