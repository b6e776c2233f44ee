"""The local Discord's gateway: connecting, identifying, resuming, dispatching events.

``events/gateway.mdx`` "Connecting", "Resuming", "Transport Compression";
``topics/opcodes-and-status-codes.mdx`` "Gateway Close Event Codes".
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import zlib
from typing import Any

from aiohttp import WSMsgType, web

from .core import Core
from .heartbeat import DISALLOWED_INTENTS, SESSION_TIMED_OUT, Heartbeats, disallowed
from .models import Session


class Gateway(Core):
    """The gateway part of :class:`.server.FakeDiscord`."""

    #: The privileged intents enabled for the app in the Developer Portal (none, as for a
    #: new app; :mod:`.heartbeat`). Tests that need one set it.
    privileged_enabled = 0
    #: The intents of the last IDENTIFY; how many connections missed their heartbeats.
    identified_intents: int | None = None
    heartbeat_timeouts = 0

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a dispatch (op 0) to every session, with its next sequence number; kept for
        replay on RESUME (``events/gateway.mdx`` "Resuming": "the Gateway will send the
        missed events in order")."""
        for session in self.sessions.values():
            session.seq += 1
            frame = {"op": 0, "t": event, "s": session.seq, "d": data}
            session.events.append(frame)
            if session.ws is not None and not session.ws.closed:
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await self._send(session.ws, frame)
        self._touch()

    async def _send(self, ws: web.WebSocketResponse, frame: dict[str, Any]) -> None:
        """``events/gateway.mdx`` "Transport Compression", zlib-stream: one zlib context for
        the whole connection, each message flushed with Z_SYNC_FLUSH (ends in 00 00 ff ff)."""
        raw = json.dumps(frame).encode()
        compressor = getattr(ws, "_tessera_zlib", None)
        if compressor is None:
            await ws.send_str(raw.decode())
            return
        await ws.send_bytes(compressor.compress(raw) + compressor.flush(zlib.Z_SYNC_FLUSH))

    async def drop_gateway(self, code: int = 4000) -> None:
        """Close every gateway connection with a resumable close code (4000 "Unknown
        error … Try reconnecting?", ``topics/opcodes-and-status-codes.mdx``)."""
        for session in self.sessions.values():
            if session.ws is not None and not session.ws.closed:
                await session.ws.close(code=code)
                session.ws = None

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        """``events/gateway.mdx`` "Connecting": query ``v``, ``encoding`` and optional
        ``compress``; then HELLO (op 10), IDENTIFY (op 2) -> READY + GUILD_CREATE, or
        RESUME (op 6) -> replay + RESUMED; HEARTBEAT (op 1) -> HEARTBEAT_ACK (op 11).
        Close codes from ``topics/opcodes-and-status-codes.mdx`` "Gateway Close Event
        Codes": 4001 unknown opcode, 4002 decode error, 4003 not authenticated, 4004
        authentication failed, 4005 already authenticated, 4012 invalid API version, 4013
        invalid intents; 4014 a privileged intent not enabled and 4009 missed heartbeats
        (:mod:`.heartbeat`)."""
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        query = dict(request.query)
        self.gateway_query = query
        if query.get("v") != "10":
            await ws.close(code=4012)
            return ws
        compress = query.get("compress")
        if compress == "zlib-stream":
            ws._tessera_zlib = zlib.compressobj()  # type: ignore[attr-defined]
        elif compress == "zstd-stream":  # discord.py asks for it when zstandard is installed
            ws._tessera_zlib = _ZstdStream()  # type: ignore[attr-defined]
        elif compress is not None:
            await ws.close(code=4000, message=b"unknown transport compression")
            return ws
        await self._send(ws, {"op": 10, "d": {"heartbeat_interval": self.heartbeat_ms}})
        beats = Heartbeats(self.heartbeat_ms)
        watchdog = asyncio.create_task(beats.watch(lambda: self._timed_out(ws)))
        try:
            return await self._serve(ws, beats)
        finally:
            watchdog.cancel()

    async def _timed_out(self, ws: web.WebSocketResponse) -> None:
        """No heartbeat in time (:mod:`.heartbeat`): close with 4009 and end the session
        ("Reconnect and start a new one")."""
        self.heartbeat_timeouts += 1
        for sid, session in list(self.sessions.items()):
            if session.ws is ws:
                del self.sessions[sid]
        self._touch()
        await ws.close(code=SESSION_TIMED_OUT, message=b"Session timed out")

    async def _serve(self, ws: web.WebSocketResponse, beats: Heartbeats) -> web.WebSocketResponse:
        session: Session | None = None
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                if msg.type == WSMsgType.BINARY:
                    await ws.close(code=4002)
                break
            try:
                frame = json.loads(msg.data)
                op = frame["op"]
            except (ValueError, KeyError, TypeError):
                await ws.close(code=4002)
                break
            if op == 1:
                beats.beat()
                await self._send(ws, {"op": 11})
            elif op == 2:
                if session is not None:
                    await ws.close(code=4005)
                    break
                d = frame.get("d") or {}
                if d.get("token") != self.token:
                    await ws.close(code=4004)
                    break
                if not isinstance(d.get("intents"), int):
                    await ws.close(code=4013)
                    break
                self.identified_intents = d["intents"]
                if disallowed(d["intents"], self.privileged_enabled):
                    await ws.close(code=DISALLOWED_INTENTS, message=b"Disallowed intent(s).")
                    break
                self.identifies += 1
                session = Session(f"sess-{next(self.ids)}", d["token"])
                self.sessions = {session.id: session}  # one bot, one session
                session.ws = ws
                await self.dispatch(
                    "READY",
                    {
                        "v": 10,
                        "user": self.bot_user(),
                        "guilds": [{"id": str(g), "unavailable": True} for g in self.guilds],
                        "session_id": session.id,
                        "resume_gateway_url": self.gateway_url,
                        "application": {"id": str(self.APP_ID), "flags": 0},
                        "private_channels": [],
                        "relationships": [],
                    },
                )
                for gid in self.guilds:
                    await self.dispatch("GUILD_CREATE", self.guild(gid))
            elif op == 6:
                d = frame.get("d") or {}
                old = self.sessions.get(str(d.get("session_id")))
                if old is None or d.get("token") != old.token or int(d.get("seq") or 0) > old.seq:
                    await self._send(ws, {"op": 9, "d": False})  # Invalid Session
                    continue
                self.resumes += 1
                session = old
                session.ws = ws
                for event in session.events:
                    if event["s"] > int(d.get("seq") or 0):
                        await self._send(ws, event)
                await self.dispatch("RESUMED", {})
            elif op not in (3, 4, 8, 31):
                await ws.close(code=4001)
                break
            elif session is None:
                await ws.close(code=4003)
                break
            # presence, voice, request members, soundboard: accepted and ignored
        if session is not None and session.ws is ws:
            session.ws = None
        return ws


class _ZstdStream:
    """``events/gateway.mdx`` "zstd-stream": one compression context for the connection;
    each websocket message is one gateway message, flushed but not ending the frame."""

    def __init__(self) -> None:
        import zstandard  # type: ignore[import-not-found]

        self._flush = zstandard.COMPRESSOBJ_FLUSH_BLOCK
        self._obj = zstandard.ZstdCompressor().compressobj()

    def compress(self, data: bytes) -> bytes:
        return bytes(self._obj.compress(data))

    def flush(self, _mode: int) -> bytes:
        return bytes(self._obj.flush(self._flush))
