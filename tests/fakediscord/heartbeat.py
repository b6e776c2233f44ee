"""Heartbeat enforcement and privileged intents: how the gateway ends a session.

Heartbeats — ``events/gateway.mdx`` "Sending Heartbeats": after HELLO a client must send a
heartbeat (op 1) every ``heartbeat_interval`` milliseconds (the first one after
``interval * jitter``); "If your app fails to send a heartbeat event in time, your
connection will be closed". The close code is 4009 "Session timed out … Reconnect and
start a new one" (``topics/opcodes-and-status-codes.mdx`` "Gateway Close Event Codes"), so
the session is invalidated too: a RESUME afterwards gets op 9 and the client identifies
anew. A client whose event loop is blocked longer than the interval (plus
:data:`GRACE` of it, the "tolerance in the heartbeat_interval that will cover network
latency") is therefore disconnected, as by Discord.

Privileged intents — ``events/gateway.mdx`` "Privileged Intents": GUILD_MEMBERS
(``1 << 1``), GUILD_PRESENCES (``1 << 8``) and MESSAGE_CONTENT (``1 << 15``) must be
enabled for the app in the Developer Portal; an IDENTIFY asking for one that is not is
closed with 4014 "Disallowed intent(s)".
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

#: The tolerance past the interval before the connection is closed, as a share of it.
GRACE = 0.5
SESSION_TIMED_OUT = 4009
DISALLOWED_INTENTS = 4014
GUILD_MEMBERS = 1 << 1
GUILD_PRESENCES = 1 << 8
MESSAGE_CONTENT = 1 << 15
PRIVILEGED = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT


def disallowed(intents: int, enabled: int) -> int:
    """The privileged intents asked for that the app does not have enabled."""
    return intents & PRIVILEGED & ~enabled


class Heartbeats:
    """When the connection last heard a heartbeat (HELLO counts as the start)."""

    def __init__(self, interval_ms: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.interval = interval_ms / 1000
        self.clock = clock
        self.last = clock()

    def beat(self) -> None:
        self.last = self.clock()

    def late(self) -> bool:
        return self.clock() - self.last > self.interval * (1 + GRACE)

    async def watch(self, close: Callable[[], Awaitable[None]]) -> None:
        """Call ``close`` once no heartbeat came in time (run as a task; cancelled when
        the connection ends)."""
        while not self.late():
            await asyncio.sleep(max(0.01, self.interval / 8))
        await close()
