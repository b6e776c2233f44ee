"""Limits that keep one member (or one server) from spoiling the bot for everyone.

Why here, before any command or button runs: every post, thread and picture the bot makes
draws on Discord's *global* rate limit of the bot (50 requests a second for all servers
together, ``topics/rate-limits.mdx`` "Global Rate Limit"), and on its two worker pools.
One member clicking as fast as the client allows, or a script opening lobbies, would spend
them for every other table. Answers to interactions are not bound by that global limit
("Interaction endpoints are not bound to the bot's Global Rate Limit"), so refusing in a
private reply costs the other servers nothing.

What is limited (defaults no honest group meets; settings ``TESSERA_FLOOD_*``, 0 turns a
limit off):

- commands, button clicks and form submits **per member** and **per server** within a
  sliding window (a minute by default); autocomplete, which the client sends while a
  member types, has its own, five times larger allowance and is answered with no
  suggestions when over it;
- **open lobbies** per member and per server, and **running matches a member created**
  in a server (each opens a thread and posts);
- **replays and reviews being made** per member and per server (each is minutes of a
  worker's time; a review's slots are counted apart from the replays', same limits).

Every refusal says what the limit is and when to try again (a Discord timestamp). The
counts of the windows live in this process: with several shards, a member active in
servers of two processes has each process's allowance (a server is always in one).
"""

from __future__ import annotations

import contextlib
from collections import defaultdict, deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from bot.discord.common import UserError
from bot.settings import Settings
from bot.storage import Store
from render.words.stamps import discord_time


@dataclass(frozen=True, slots=True)
class Limits:
    """The limits (0: no limit of that kind); :meth:`of` reads them from the settings."""

    window_seconds: float = 60.0
    per_member: int = 60
    per_server: int = 600
    lobbies_per_member: int = 3
    lobbies_per_server: int = 25
    running_per_member: int = 30
    replays_per_member: int = 1
    replays_per_server: int = 3

    @classmethod
    def of(cls, settings: Settings) -> Limits:
        return cls(
            window_seconds=settings.flood_window_seconds,
            per_member=settings.flood_per_member,
            per_server=settings.flood_per_server,
            lobbies_per_member=settings.flood_lobbies_per_member,
            lobbies_per_server=settings.flood_lobbies_per_server,
            running_per_member=settings.flood_running_per_member,
            replays_per_member=settings.flood_replays_per_member,
            replays_per_server=settings.flood_replays_per_server,
        )


class _Window:
    """Times of the actions counted within the last ``seconds``."""

    __slots__ = ("times",)

    def __init__(self) -> None:
        self.times: deque[float] = deque()

    def retry_at(self, now: float, seconds: float, limit: int) -> float | None:
        """When one more action would fit (None: it fits now, and is counted)."""
        while self.times and self.times[0] <= now - seconds:
            self.times.popleft()
        if len(self.times) >= limit:
            return self.times[len(self.times) - limit] + seconds
        self.times.append(now)
        return None


class Flood:
    """The limits of one bot process (see the module docstring)."""

    #: Windows not touched for this long are dropped (a bound on memory, not a policy).
    IDLE_SECONDS = 3600.0

    def __init__(self, limits: Limits, clock: Callable[[], float]) -> None:
        self.limits = limits
        self.clock = clock
        self._windows: dict[tuple[str, str], _Window] = defaultdict(_Window)
        self._replays: dict[tuple[str, str, str], int] = defaultdict(int)
        self._last_sweep = 0.0

    def act(self, user_id: str, guild_id: str | None, *, typing: bool = False) -> None:
        """Count one command, click or submit (``typing``: an autocomplete) of
        ``user_id`` in ``guild_id``; refuse it with :class:`UserError` when a window is
        full (nothing is counted then)."""
        lim, now = self.limits, self.clock()
        self._sweep(now)
        scale = 5 if typing else 1
        kind = "type" if typing else "act"
        checks = [(("member-" + kind, user_id), lim.per_member * scale, "flood.member")]
        if guild_id is not None:
            checks.append((("server-" + kind, guild_id), lim.per_server * scale, "flood.server"))
        counted: list[_Window] = []
        for key, limit, words in checks:
            if limit <= 0:
                continue
            window = self._windows[key]
            retry = window.retry_at(now, lim.window_seconds, limit)
            if retry is not None:
                for earlier in counted:  # refused: counted nowhere
                    earlier.times.pop()
                raise UserError(words, n=limit, when=discord_time(retry + 1, "R"))
            counted.append(window)

    def _sweep(self, now: float) -> None:
        if now - self._last_sweep < self.IDLE_SECONDS:
            return
        self._last_sweep = now
        idle = [k for k, w in self._windows.items() if not w.times or w.times[-1] < now - 3600]
        for key in idle:
            del self._windows[key]

    async def check_new_lobby(self, store: Store, user_id: str, guild_id: str) -> None:
        """Before ``/game new``: the member's and the server's open lobbies, and the
        running matches the member created in the server, are within their limits."""
        lim = self.limits
        mine = await store.count_matches(guild_id=guild_id, status="lobby", creator_id=user_id)
        if lim.lobbies_per_member and mine >= lim.lobbies_per_member:
            raise UserError("flood.lobbies_member", n=mine, max=lim.lobbies_per_member)
        lobbies = await store.count_matches(guild_id=guild_id, status="lobby")
        if lim.lobbies_per_server and lobbies >= lim.lobbies_per_server:
            raise UserError("flood.lobbies_server", n=lobbies, max=lim.lobbies_per_server)
        if lim.running_per_member:
            created = await store.count_matches(
                guild_id=guild_id, status="running", creator_id=user_id
            )
            if created >= lim.running_per_member:
                raise UserError("flood.running_member", n=created, max=lim.running_per_member)

    @contextlib.asynccontextmanager
    async def replay_slot(
        self, user_id: str, guild_id: str | None, kind: str = "replays"
    ) -> AsyncIterator[None]:
        """Hold one of the member's (and the server's) replay slots while a replay is
        made; refused when they are all taken. ``kind="reviews"``: a post-game review's
        slot (``/review``: up to a minute of the thinking workers), counted apart from the
        replays but within the same limits."""
        lim = self.limits
        member, server = (kind, "member", user_id), (kind, "server", guild_id or "")
        if lim.replays_per_member and self._replays[member] >= lim.replays_per_member:
            raise UserError(f"flood.{kind}_member", max=lim.replays_per_member)
        if lim.replays_per_server and self._replays[server] >= lim.replays_per_server:
            raise UserError(f"flood.{kind}_server", max=lim.replays_per_server)
        self._replays[member] += 1
        self._replays[server] += 1
        try:
            yield
        finally:
            for key in (member, server):
                self._replays[key] -= 1
                if not self._replays[key]:  # nobody's replay: no entry kept
                    del self._replays[key]
