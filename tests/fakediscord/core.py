"""The local Discord's state and what every part of it shares.

:class:`Core` holds the guilds, their channels, members, messages, interactions and
commands, Discord's clock, and the message store every endpoint writes through (a message
as Discord returns it, a new message, an edit). The endpoints and the members' actions
are parts built on it — :mod:`.server` (REST routing, channels and messages),
:mod:`.responses` (interaction endpoints), :mod:`.acting` (members acting, in the server
or in a DM with the bot), :mod:`.gateway` — and :class:`.server.FakeDiscord` joins them.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import Callable
from typing import Any

from .buckets import routes as bucket_routes
from .commands import GUILD_INSTALL
from .components import IS_COMPONENTS_V2, number_components
from .limits import EPHEMERAL
from .models import (
    LOADING,
    Fault,
    Interaction,
    Message,
    Record,
    Session,
    describe_uploads,
)
from .ratelimit import RateLimits
from .snowflake import message_snowflake

API = "/api/v10"
TS = "2026-01-01T00:00:00+00:00"


class Core:
    """State and the shared message store; see the module docstring for the parts."""

    APP_ID = 7_000_000_000_000_001
    BOT_ID = 7_000_000_000_000_002
    GUILD_ID = 7_000_000_000_000_003
    CHANNEL_ID = 7_000_000_000_000_004

    def __init__(
        self,
        *,
        token: str = "fake-token",
        routes: dict[str, tuple[int, float]] | None = None,
        default_limit: tuple[int, float] = (50, 1.0),
        heartbeat_ms: int = 41250,
        owner_id: int | None = None,
        installs: tuple[int, ...] = (GUILD_INSTALL,),
    ) -> None:
        """``installs``: the installation contexts the app supports (the Developer
        Portal's setting; ``resources/application.mdx`` "Application Integration
        Types"): a guild install by default, ``(0, 1)`` to let members install it too."""
        self.token = token
        self.skew = 0.0  # tests move Discord's clock forward instead of sleeping
        self.ids = itertools.count(8_000_000_000_000_000)
        self.heartbeat_ms = heartbeat_ms
        self.limits = RateLimits(
            # every route the bot uses (:mod:`.buckets`) unless a test names its own
            routes if routes is not None else bucket_routes(),
            default_limit,
            clock=self.now,
        )
        self.records: list[Record] = []
        self.faults: list[Fault] = []
        self.stalled: list[Record] = []
        self.members: dict[int, dict[str, Any]] = {}
        self.owner_id = owner_id
        self.installs = installs
        self.user_installs: set[int] = set()  # members who installed the app themselves
        #: The servers the bot is in: id → name (the first one, ``GUILD_ID``, always).
        self.guilds: dict[int, str] = {self.GUILD_ID: "Board gamers"}
        self.channels: dict[int, dict[str, Any]] = {
            self.CHANNEL_ID: text_channel(self.CHANNEL_ID, self.GUILD_ID)
        }
        self.dm_by_user: dict[int, int] = {}
        self.closed_dms: set[int] = set()
        self.messages: dict[int, Message] = {}
        self.nonces: dict[tuple[int, str], int] = {}
        self.last_message_id = 0  # message ids are snowflakes of Discord's clock
        #: Discord's clock when each thread was last active (auto-archive: :mod:`.threads`).
        self.thread_activity: dict[int, float] = {}
        self.interactions: dict[int, Interaction] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {None: []}
        self.sessions: dict[str, Session] = {}
        self.identifies = 0
        self.resumes = 0
        self.gateway_query: dict[str, str] = {}
        self._changed = asyncio.Event()
        self._release = asyncio.Event()
        self.port = 0

    @property
    def api(self) -> str:
        return f"http://127.0.0.1:{self.port}{API}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def now(self) -> float:
        return time.monotonic() + self.skew

    def _touch(self) -> None:
        event, self._changed = self._changed, asyncio.Event()
        event.set()

    async def until(self, predicate: Callable[[], Any], timeout: float = 60.0) -> Any:
        """Wait until ``predicate()`` is truthy (re-checked on every change) and return it."""
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the fake Discord waited in vain")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(left, 0.5))

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a gateway event to the bot (:class:`.gateway.Gateway`)."""
        raise NotImplementedError

    # ----- people and places -------------------------------------------------------------
    def member(self, name: str, *, manager: bool = False) -> dict[str, Any]:
        uid = next(self.ids)
        user = {
            "id": str(uid),
            "username": name.lower().replace(" ", "_")[:32] or "user",
            "discriminator": "0",
            "avatar": None,
            "global_name": name,
        }
        self.members[uid] = {"user": user, "manager": manager}
        return user

    def bot_user(self) -> dict[str, Any]:
        return {
            "id": str(self.BOT_ID),
            "username": "Tessera",
            "discriminator": "0",
            "avatar": None,
            "global_name": None,
            "bot": True,
        }

    async def add_guild(self, name: str) -> tuple[int, int]:
        """Another server the bot is in, with a games channel of its own: (guild id,
        channel id). Its members are the same people (any member may act in any server).
        A connected bot gets its GUILD_CREATE, as when it joins a server
        (``events/gateway-events.mdx`` "Guild Create")."""
        gid, cid = next(self.ids), next(self.ids)
        self.guilds[gid] = name
        self.channels[cid] = text_channel(cid, gid)
        if self.sessions:
            await self.dispatch("GUILD_CREATE", self.guild(gid))
        return gid, cid

    def guild_of(self, channel_id: int) -> int | None:
        """The server a channel or thread belongs to (None: a DM)."""
        guild = self.channels.get(channel_id, {}).get("guild_id")
        return int(guild) if guild is not None else None

    def guild(self, guild_id: int | None = None) -> dict[str, Any]:
        gid = guild_id or self.GUILD_ID
        threads = [  # "all active threads" (topics/threads.mdx "Gateway Events")
            c
            for c in self.channels.values()
            if c["type"] == 11
            and c["guild_id"] == str(gid)
            and not c["thread_metadata"]["archived"]
        ]
        return {
            "id": str(gid),
            "name": self.guilds[gid],
            "icon": None,
            "owner_id": str(self.owner_id or self.BOT_ID),
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [
                {
                    "id": str(gid),
                    "name": "@everyone",
                    "permissions": str((1 << 11) | (1 << 10) | (1 << 38) | (1 << 35)),
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "preferred_locale": "en-US",
            "member_count": len(self.members) + 1,
            "members": [],
            "channels": [
                c for c in self.channels.values() if c["type"] == 0 and c["guild_id"] == str(gid)
            ],
            "threads": threads,
            "large": False,
            "premium_tier": 0,
            "nsfw_level": 0,
            "unavailable": False,
            "joined_at": TS,
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
        }

    def posts(self, channel_id: int) -> list[Message]:
        """What everybody sees in a channel, in order (ephemeral messages left out)."""
        return [m for m in self.messages.values() if m.channel_id == channel_id and not m.ephemeral]

    def threads(self) -> list[dict[str, Any]]:
        return [c for c in self.channels.values() if c["type"] == 11]

    def dm_channel(self, user: dict[str, Any]) -> int:
        """The DM channel between the bot and ``user`` (``resources/channel.mdx`` "Channel
        Types": DM = 1, its ``recipients`` the other user), opened on first use — by the bot
        ("Create DM") or by the member writing to the bot."""
        uid = int(user["id"])
        if uid not in self.dm_by_user:
            cid = next(self.ids)
            self.channels[cid] = {
                "id": str(cid),
                "type": 1,
                "last_message_id": None,
                "flags": 0,
                "recipients": [self.members[uid]["user"]],
            }
            self.dm_by_user[uid] = cid
        return self.dm_by_user[uid]

    def dms(self, user: dict[str, Any]) -> list[Message]:
        """Every message in ``user``'s DM with the bot that the user sees, in order (the
        bot's posts and the replies to their DM interactions, ephemeral ones included)."""
        channel = self.dm_by_user.get(int(user["id"]))
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel and m.visible_to in (None, int(user["id"]))
        ]

    def app_permissions_in(self, channel_id: int) -> int:
        """An interaction's ``app_permissions`` there (every one here; the permission part,
        :mod:`.permissions`, computes them)."""
        return (1 << 41) - 1

    # ----- messages ------------------------------------------------------------------------
    def _message_json(self, m: Message) -> dict[str, Any]:
        author = (
            self.bot_user() if m.author_id == self.BOT_ID else self.members[m.author_id]["user"]
        )
        channel = self.channels.get(m.channel_id, {})
        return {
            "id": str(m.id),
            "channel_id": str(m.channel_id),
            **({"guild_id": channel["guild_id"]} if "guild_id" in channel else {}),
            "author": author,
            "content": m.raw_content,
            "timestamp": TS,
            "edited_timestamp": TS if m.edits else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [self._attachment_json(m, i, f) for i, f in enumerate(m.files)],
            "embeds": [],
            "pinned": False,
            "type": 0,
            "flags": m.flags,
            "components": m.components,
            **({"nonce": m.nonce} if m.nonce is not None else {}),
        }

    def _attachment_json(self, m: Message, i: int, upload: tuple[str, int]) -> dict[str, Any]:
        """``resources/message.mdx`` "Attachment Object", with the description it was
        given (absent when none was)."""
        name, size = upload
        url = f"http://127.0.0.1:{self.port}/attachments/{m.id}/{name}"
        out: dict[str, Any] = {
            "id": str(self.BOT_ID + i),
            "filename": name,
            "size": size,
            "url": url,
            "proxy_url": url,
        }
        description = getattr(upload, "description", None)
        if description is not None:
            out["description"] = description
        return out

    def _new_message(
        self,
        channel_id: int,
        body: dict[str, Any],
        files: list[tuple[str, int]],
        *,
        flags: int = 0,
        interaction: Interaction | None = None,
    ) -> Message:
        describe_uploads(body, files)
        self.last_message_id = message_snowflake(time.time() + self.skew, self.last_message_id)
        m = Message(
            id=self.last_message_id,
            channel_id=channel_id,
            raw_content=body.get("content") or "",
            flags=flags,
            components=_stored(flags, body.get("components") or []),
            files=list(files),
            author_id=self.BOT_ID,
            nonce=None if body.get("nonce") is None else str(body["nonce"]),
            interaction_id=interaction.id if interaction else None,
            visible_to=int(interaction.user["id"]) if interaction and flags & EPHEMERAL else None,
            created=self.now(),
        )
        self.messages[m.id] = m
        if interaction is not None:
            interaction.replies.append(m)
        return m

    def _files_after(
        self, m: Message, body: dict[str, Any], files: list[tuple[str, int]]
    ) -> list[tuple[str, int]]:
        """The files an interaction's edit leaves on ``m``: with ``attachments`` (or new
        files), the kept ones listed by id, then the new ones."""
        if not files and "attachments" not in body:
            return list(m.files)
        kept = {str(a.get("id")) for a in body.get("attachments") or []}
        return [f for i, f in enumerate(m.files) if str(self.BOT_ID + i) in kept] + list(files)

    def _edit(self, m: Message, body: dict[str, Any], files: list[tuple[str, int]]) -> None:
        """An interaction's edit of ``m`` (checked before): content, components, files;
        the IS_COMPONENTS_V2 flag is set when the edit sets it and never removed; the
        loading state ends."""
        self._apply(m, body, files, self._files_after(m, body, files))
        m.flags &= ~LOADING

    def _apply(
        self,
        m: Message,
        body: dict[str, Any],
        files: list[tuple[str, int]],
        kept: list[tuple[str, int]],
    ) -> None:
        if int(body.get("flags") or 0) & IS_COMPONENTS_V2:
            m.flags |= IS_COMPONENTS_V2
        if "content" in body:
            m.raw_content = body["content"] or ""
        if "components" in body:
            m.components = _stored(m.flags, body["components"] or [])
        if files or "attachments" in body:
            describe_uploads(body, files)
        m.files = list(kept)
        m.edits += 1


def text_channel(channel_id: int, guild_id: int) -> dict[str, Any]:
    """A server's text channel where matches are opened (``resources/channel.mdx``)."""
    return {
        "id": str(channel_id),
        "type": 0,
        "guild_id": str(guild_id),
        "name": "games",
        "position": 0,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": None,
        "rate_limit_per_user": 0,
        "topic": None,
        "last_message_id": None,
    }


def _stored(flags: int, components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Components as Discord stores them: a layout message's get their ``id`` numbered
    (``components/reference.mdx`` "Anatomy of a Component": "generated sequentially if
    left empty"); a classic message's are kept as sent."""
    return number_components(components) if flags & IS_COMPONENTS_V2 else components
