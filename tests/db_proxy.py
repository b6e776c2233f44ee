"""A TCP proxy between the bot and a real PostgreSQL that breaks a connection on cue.

Why a proxy: the failures of issue 44 are a connection lost after the server committed
(the answer never arrives), lost before the statement arrived, and a server that stops
answering. The proxy forwards bytes unchanged until it is armed with a marker (bytes that
only the statement under test sends, e.g. a player's id among a commit's parameters); the
client's chunk holding the marker is then

- ``"lose_reply"``: forwarded; the server's answer is swallowed up to and including its
  ReadyForQuery (``Z``, sent after the implicit transaction committed), then both sides
  are closed — the client never learns that the commit succeeded;
- ``"lose_request"``: dropped, and both sides closed — the server never sees it;
- ``"freeze"``: held, and from then on nothing is forwarded and new connections are
  accepted but never answered (a frozen server or a partition, as the client sees it).

After a ``lose_*`` cut the proxy forwards normally again (the read-back gets through).
"""

from __future__ import annotations

import asyncio
import contextlib
import struct
from dataclasses import dataclass, field


@dataclass
class PgProxy:
    target_host: str
    target_port: int
    port: int = 0
    mode: str = "pass"
    marker: bytes = b""
    cuts: int = 0
    frozen: bool = False
    _server: asyncio.Server | None = None
    _writers: list[asyncio.StreamWriter] = field(default_factory=list)
    _closing: asyncio.Event = field(default_factory=asyncio.Event)

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    def url(self, user: str, database: str) -> str:
        return f"postgresql://{user}@127.0.0.1:{self.port}/{database}"

    def arm(self, mode: str, marker: bytes) -> None:
        self.mode, self.marker = mode, marker

    async def close(self) -> None:
        self._closing.set()
        if self._server is not None:
            self._server.close()
        for writer in self._writers:
            writer.transport.abort()

    async def _serve(self, c_reader: asyncio.StreamReader, c_writer: asyncio.StreamWriter) -> None:
        self._writers.append(c_writer)
        if self.frozen:
            await self._closing.wait()  # accepted, never answered
            return
        s_reader, s_writer = await asyncio.open_connection(self.target_host, self.target_port)
        self._writers.append(s_writer)
        cut = asyncio.Event()
        swallow = asyncio.Event()  # set: the server's next answer is to be lost

        def close_both() -> None:
            c_writer.transport.abort()
            s_writer.transport.abort()
            cut.set()

        async def upstream() -> None:
            while data := await c_reader.read(65536):
                if self.frozen:
                    return
                if self.marker and self.marker in data and self.mode != "pass":
                    mode, self.mode, self.marker = self.mode, "pass", b""
                    if mode == "freeze":
                        self.frozen = True
                        return
                    self.cuts += 1
                    if mode == "lose_request":
                        close_both()
                        return
                    swallow.set()  # "lose_reply": forward, lose what comes back
                s_writer.write(data)
                await s_writer.drain()

        async def downstream() -> None:
            pending = b""
            while data := await s_reader.read(65536):
                if self.frozen:
                    return
                if not swallow.is_set():
                    c_writer.write(data)
                    await c_writer.drain()
                    continue
                pending += data
                if _ready_for_query(pending):
                    close_both()  # the server committed and said so: the client never hears
                    return

        tasks = [asyncio.ensure_future(upstream()), asyncio.ensure_future(downstream())]
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        if self.frozen:
            await self._closing.wait()  # hold both sides open, silent, until closed
        for task in tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            close_both()


def _ready_for_query(data: bytes) -> bool:
    """Whether ``data`` (server messages from a message boundary on) holds a whole
    ReadyForQuery message."""
    at = 0
    while at + 5 <= len(data):
        kind = data[at : at + 1]
        (length,) = struct.unpack("!I", data[at + 1 : at + 5])
        if at + 1 + length > len(data):
            return False
        if kind == b"Z":
            return True
        at += 1 + length
    return False
