"""The server's active threads, as the bot may list them.

``resources/guild.mdx`` "List Active Guild Threads" (``GET /guilds/{guild.id}/threads/
active``): "Returns all active threads in the guild, including public and private threads.
Threads are ordered by their ``id``, in descending order"; the body holds ``threads`` (channel
objects) and ``members`` (a thread member object for each returned thread the current
user has joined). A guild the bot is not in is 404 with 10004 "Unknown Guild"
(``topics/opcodes-and-status-codes.mdx`` "JSON Error Codes"); a thread whose channel the
bot cannot see is not listed (``topics/permissions.mdx``: without ``VIEW_CHANNEL`` a
channel is hidden from the bot).

Why the bot asks: a league match's thread is made by the outbox, and a re-sent item (a
crash between the thread's creation and its bookkeeping) looks for the thread it made
before instead of making a second (``bot/discord/league_posts.py``).
"""

from __future__ import annotations

from typing import Any

from .core import TS
from .errors import ApiError
from .permissions import VIEW_CHANNEL, ChannelPermissions

THREAD_TYPES = (10, 11, 12)
UNKNOWN_GUILD = 10004


class GuildThreads(ChannelPermissions):
    """The endpoint's handler, a part of :class:`.server.FakeDiscord`."""

    async def _active_threads(self, params: dict[str, str], body: Any, files: Any) -> Any:
        guild = params.get("guild_id", "")
        if not guild.isdigit() or int(guild) not in self.guilds:
            raise ApiError(404, UNKNOWN_GUILD, "Unknown Guild")
        self.age_threads()  # type: ignore[attr-defined]  # idle ones archive first (.threads)
        threads = [
            c
            for c in self.channels.values()
            if c.get("type") in THREAD_TYPES
            and c.get("guild_id") == guild
            and not c["thread_metadata"]["archived"]
            and self.permissions_in(int(c["id"])) & VIEW_CHANNEL
        ]
        threads.sort(key=lambda c: -int(c["id"]))
        members = [
            {"id": c["id"], "user_id": str(self.BOT_ID), "join_timestamp": TS, "flags": 0}
            for c in threads
            if c.get("owner_id") == str(self.BOT_ID)
        ]
        return {"threads": threads, "members": members}
