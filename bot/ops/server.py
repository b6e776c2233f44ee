"""The operations endpoint: ``GET /metrics`` (Prometheus text format) and ``GET /healthz``
(200 when this process serves: its event loop answers, its database answers and Discord is
ready; 503 with the line that is not), served from the bot's own event loop.

Why a tiny server on ``asyncio.start_server`` and not a web framework: two read-only paths,
one short answer each, ``Connection: close``; aiohttp's server would do too, but this needs
nothing the standard library lacks and is read in one sitting. Why on the bot's loop: an
answer proves the loop turns (a blocked loop answers late, which the health check's
timeout reports), and the scrape-time reads use the bot's own database pool.

Off unless ``TESSERA_METRICS_PORT`` is set; it listens on ``TESSERA_METRICS_HOST``
(127.0.0.1 by default: nothing outside the machine can read it unless the operator says so).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from bot.ops import metrics
from bot.ops.probes import READ_TIMEOUT, LoopLag, refresh_outbox
from render.words.catalogue import t

if TYPE_CHECKING:
    from bot.settings import Settings
    from bot.storage import Store

log = logging.getLogger(__name__)

#: Seconds a client has to send its request (a scraper sends it at once).
REQUEST_TIMEOUT = 5.0
#: The paths served: the metrics, and the health check (both spellings are common).
METRICS_PATH = "/metrics"
HEALTH_PATHS = ("/healthz", "/health")


class OpsServer:
    """The endpoint and the loop-lag ticker of one bot process."""

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        #: The port asked for (0: any free one; :attr:`port` is the one bound).
        self.asked_port = port
        self.port = port
        self._server: asyncio.Server | None = None
        self._lag = LoopLag()
        self._store: Store | None = None
        self._ready: Callable[[], bool] | None = None

    @classmethod
    def from_settings(cls, settings: Settings) -> OpsServer | None:
        """The endpoint the settings ask for, or None when ``TESSERA_METRICS_PORT`` is 0."""
        if not settings.metrics_port:
            return None
        return cls(settings.metrics_host, settings.metrics_port)

    async def start(self) -> str | None:
        """Listen, and start the ticker. Returns None, or one line saying why the port
        cannot be used (taken, not allowed): the bot then stops before connecting, like
        any setting that cannot work."""
        try:
            self._server = await asyncio.start_server(self._answer, self.host, self.asked_port)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            return t(
                "cli.bad_arguments",
                None,
                prog="python -m bot",
                message=f"setting TESSERA_METRICS_PORT={self.asked_port}: cannot listen on "
                f"{self.host}:{self.asked_port}: {reason}",
            )
        self.port = int(self._server.sockets[0].getsockname()[1])
        self._lag.start()
        log.info("metrics on http://%s:%d%s", self.host, self.port, METRICS_PATH)
        return None

    def watch(
        self,
        store: Store,
        *,
        ready: Callable[[], bool] | None = None,
        computer_turns: Callable[[], int] | None = None,
    ) -> None:
        """What the scrape reads: the database (outbox gauges, health), whether Discord is
        ready (health) and the computer turns pending."""
        self._store = store
        self._ready = ready
        metrics.COMPUTER_TURNS_PENDING.set_function(computer_turns)

    async def close(self) -> None:
        await self._lag.close()
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
            self._server = None
        metrics.COMPUTER_TURNS_PENDING.set_function(None)

    async def metrics_text(self) -> str:
        if self._store is not None:
            await refresh_outbox(self._store)
        return metrics.REGISTRY.exposition()

    async def health(self) -> tuple[int, str]:
        """(HTTP status, body): 200 and ``ok`` when the database answered within
        :data:`READ_TIMEOUT` and Discord is ready; else 503 and what is wrong."""
        problems = []
        if self._store is not None and not await refresh_outbox(self._store):
            problems.append(f"database: no answer within {READ_TIMEOUT:g} s")
        if self._ready is not None and not self._ready():
            problems.append("discord: not connected")
        if problems:
            return 503, "\n".join(problems) + "\n"
        return 200, "ok\n"

    async def _answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), REQUEST_TIMEOUT)
            status, body, kind = await self._route(head.split(b"\r\n", 1)[0])
            reason = {200: "OK", 404: "Not Found", 405: "Method Not Allowed", 400: "Bad Request"}
            data = body.encode("utf-8")
            writer.write(
                (
                    f"HTTP/1.1 {status} {reason.get(status, 'Service Unavailable')}\r\n"
                    f"Content-Type: {kind}\r\nContent-Length: {len(data)}\r\n"
                    "Connection: close\r\n\r\n"
                ).encode("ascii")
                + (b"" if head.startswith(b"HEAD ") else data)
            )
            await writer.drain()
        except (TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass  # a client that sent no request in time, or an oversized one
        except ConnectionError:
            pass
        except Exception:
            log.exception("metrics endpoint failed to answer")
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def _route(self, request_line: bytes) -> tuple[int, str, str]:
        parts = request_line.decode("latin-1").split()
        if len(parts) != 3:
            return 400, "bad request\n", "text/plain; charset=utf-8"
        method, target = parts[0], parts[1].split("?", 1)[0]
        if method not in ("GET", "HEAD"):
            return 405, "GET or HEAD only\n", "text/plain; charset=utf-8"
        if target == METRICS_PATH:
            return 200, await self.metrics_text(), metrics.CONTENT_TYPE
        if target in HEALTH_PATHS:
            status, body = await self.health()
            return status, body, "text/plain; charset=utf-8"
        return 404, f"not found; try {METRICS_PATH} or {HEALTH_PATHS[0]}\n", "text/plain"
