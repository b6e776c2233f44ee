"""A strict local Discord: REST API v10 and the gateway, on 127.0.0.1, for tests.

The real bot (``python -m bot`` with ``TESSERA_DISCORD_API`` pointing here) logs in,
connects to the gateway and syncs its commands exactly as against Discord. Tests then act
as members: :meth:`FakeDiscord.slash`, :meth:`~FakeDiscord.autocomplete` and
:meth:`~FakeDiscord.click` send ``INTERACTION_CREATE`` over the gateway, and every REST
call the bot makes is checked against Discord's documented limits (:mod:`.limits`,
:mod:`.ratelimit`) and recorded. Anything Discord would refuse is refused here with
Discord's status, error code and body, so the bot cannot pass a test that Discord would
fail.

Documentation sections (``discord/discord-api-docs``, ``developers/``) are cited where
each behaviour is implemented.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .limits import (
    EPHEMERAL,
    ApiError,
    FormErrors,
    check_choices,
    check_commands,
    check_message,
)
from .ratelimit import Limited, RateLimits

API = "/api/v10"
TS = "2026-01-01T00:00:00+00:00"
LOADING = 1 << 7  # message flag: "LOADING" (deferred interaction response)
#: ``resources/channel.mdx``: a thread's auto_archive_duration is one of these minutes.
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
#: ``interactions/receiving-and-responding.mdx`` "Interaction Callback": 3 s for the
#: initial response, 15 minutes for the token.
ACK_SECONDS = 3.0
TOKEN_SECONDS = 15 * 60.0


@dataclass
class Fault:
    """An injected failure for the next ``times`` matching requests."""

    method: str
    route: str  # a route template, e.g. "/channels/{channel_id}/messages"
    status: int  # 500, 429 … or 0 for "stall": act, then never answer
    times: int
    retry_after: float = 0.5
    is_global: bool = False


class Upload(tuple[str, int]):
    """An uploaded file as ``(filename, size)``, remembering its ``files[n]`` slot: an
    edit's ``attachments`` names new files by that ``n`` (``reference.mdx`` "Uploading
    Files"); and its ``description`` (the alt text, ``resources/message.mdx`` "Attachment
    Object"), as the request's ``attachments`` entry of the same id gave it — stored, and
    returned in the message's attachments like Discord does."""

    slot: int
    description: str | None

    def __new__(cls, filename: str, size: int, slot: int) -> Upload:
        upload = super().__new__(cls, (filename, size))
        upload.slot = slot
        upload.description = None
        return upload


def describe_uploads(body: dict[str, Any], files: list[tuple[str, int]]) -> None:
    """The request's ``attachments`` entries give new files (``id`` = their ``files[n]``
    index) their descriptions (checked by :func:`.limits.check_attachments` before)."""
    by_slot = {str(getattr(f, "slot", i)): f for i, f in enumerate(files)}
    for entry in body.get("attachments") or []:
        upload = by_slot.get(str(entry.get("id")))
        if isinstance(upload, Upload) and "description" in entry:
            upload.description = entry["description"]


#: ``topics/opcodes-and-status-codes.mdx`` "JSON Error Codes".
UNKNOWN_MESSAGE = 10008
OLD_MESSAGE_EDITS = 30046
NOT_THE_AUTHOR = 50005
#: Edits of messages older than this are limited (30046; the number allowed is not
#: documented, so this fake refuses every one: the bot must never need them).
OLD_MESSAGE_SECONDS = 3600.0


@dataclass
class Record:
    """One REST request as it reached Discord, and how it was answered."""

    method: str
    route: str
    path: str
    body: Any
    files: list[tuple[str, int]]
    status: int = 0
    error_code: int | None = None
    at: float = 0.0


@dataclass
class Message:
    id: int
    channel_id: int
    content: str
    flags: int
    components: list[dict[str, Any]]
    files: list[tuple[str, int]]
    author_id: int
    nonce: str | None = None
    interaction_id: int | None = None
    visible_to: int | None = None  # ephemeral: only this user sees it
    edits: int = 0
    created: float = 0.0  # Discord's clock when it was posted (edits of old messages)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for row in self.components for c in row.get("components", [])]

    def labels(self) -> dict[str, str]:
        out = {}
        for row in self.components:
            for c in row.get("components", []):
                out[c.get("custom_id", "")] = c.get("label") or c.get("placeholder") or ""
        return out


@dataclass
class Interaction:
    id: int
    token: str
    type: int
    user: dict[str, Any]
    channel_id: int
    data: dict[str, Any]
    created: float
    message_id: int | None = None  # the component's message
    callback: int | None = None  # the initial response type
    original_id: int | None = None
    followups_seen: int = 0
    choices: list[dict[str, Any]] | None = None
    replies: list[Message] = field(default_factory=list)

    def texts(self) -> list[str]:
        return [m.content for m in self.replies]


class Session:
    def __init__(self, session_id: str, user_token: str) -> None:
        self.id = session_id
        self.token = user_token
        self.seq = 0
        self.events: list[dict[str, Any]] = []
        self.ws: web.WebSocketResponse | None = None
        self.compressor: Any = None


class FakeDiscord:
    """Start with ``async with FakeDiscord(...) as fake``; ``fake.api`` is the base URL to
    give the bot (``TESSERA_DISCORD_API``)."""

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
    ) -> None:
        self.token = token
        self.skew = 0.0  # tests move Discord's clock forward instead of sleeping
        self.ids = itertools.count(8_000_000_000_000_000)
        self.heartbeat_ms = heartbeat_ms
        self.limits = RateLimits(
            routes if routes is not None else {"POST /channels/{channel_id}/messages": (5, 5.0)},
            default_limit,
            clock=self.now,
        )
        self.records: list[Record] = []
        self.faults: list[Fault] = []
        self.stalled: list[Record] = []
        self.members: dict[int, dict[str, Any]] = {}
        self.owner_id = owner_id
        self.channels: dict[int, dict[str, Any]] = {
            self.CHANNEL_ID: {
                "id": str(self.CHANNEL_ID),
                "type": 0,
                "guild_id": str(self.GUILD_ID),
                "name": "games",
                "position": 0,
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": None,
                "rate_limit_per_user": 0,
                "topic": None,
                "last_message_id": None,
            }
        }
        self.dm_by_user: dict[int, int] = {}
        self.closed_dms: set[int] = set()
        self.messages: dict[int, Message] = {}
        self.nonces: dict[tuple[int, str], int] = {}
        self.interactions: dict[int, Interaction] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {None: []}
        self.sessions: dict[str, Session] = {}
        self.identifies = 0
        self.resumes = 0
        self.gateway_query: dict[str, str] = {}
        self._changed = asyncio.Event()
        self._release = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0

    # ----- lifecycle ---------------------------------------------------------------------
    async def __aenter__(self) -> FakeDiscord:
        app = web.Application(client_max_size=30 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", API + "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def __aexit__(self, *exc: Any) -> None:
        self._release.set()
        for session in self.sessions.values():
            if session.ws is not None and not session.ws.closed:
                with contextlib.suppress(Exception):
                    await session.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

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

    def guild(self) -> dict[str, Any]:
        threads = [c for c in self.channels.values() if c["type"] == 11]
        return {
            "id": str(self.GUILD_ID),
            "name": "Board gamers",
            "icon": None,
            "owner_id": str(self.owner_id or self.BOT_ID),
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [
                {
                    "id": str(self.GUILD_ID),
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
            "channels": [c for c in self.channels.values() if c["type"] == 0],
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

    # ----- failures ------------------------------------------------------------------------
    def inject(
        self,
        method: str,
        route: str,
        status: int,
        times: int = 1,
        *,
        retry_after: float = 0.5,
        is_global: bool = False,
    ) -> None:
        """The next ``times`` requests to ``route`` fail with ``status`` (500, 429 …);
        ``status=0`` stalls them: Discord acts, but the answer never comes."""
        self.faults.append(Fault(method, route, status, times, retry_after, is_global))

    def _fault(self, method: str, route: str) -> Fault | None:
        for fault in self.faults:
            if fault.method == method and fault.route == route and fault.times > 0:
                fault.times -= 1
                return fault
        return None

    # ----- REST ----------------------------------------------------------------------------
    ROUTES: tuple[tuple[str, str, str, bool, bool], ...] = (
        # method, template, handler, needs bot auth, interaction endpoint
        ("GET", "/users/@me", "_me", True, False),
        ("GET", "/oauth2/applications/@me", "_app", True, False),
        ("GET", "/gateway/bot", "_gateway_bot", True, False),
        ("PUT", "/applications/{application_id}/commands", "_put_commands", True, False),
        ("GET", "/applications/{application_id}/commands", "_get_commands", True, False),
        (
            "PUT",
            "/applications/{application_id}/guilds/{guild_id}/commands",
            "_put_commands",
            True,
            False,
        ),
        (
            "GET",
            "/applications/{application_id}/guilds/{guild_id}/commands",
            "_get_commands",
            True,
            False,
        ),
        ("POST", "/interactions/{interaction_id}/{token}/callback", "_callback", False, True),
        ("POST", "/webhooks/{application_id}/{token}", "_followup", False, True),
        (
            "PATCH",
            "/webhooks/{application_id}/{token}/messages/{message_id}",
            "_edit_reply",
            False,
            True,
        ),
        (
            "GET",
            "/webhooks/{application_id}/{token}/messages/{message_id}",
            "_get_reply",
            False,
            True,
        ),
        (
            "DELETE",
            "/webhooks/{application_id}/{token}/messages/{message_id}",
            "_delete_reply",
            False,
            True,
        ),
        ("POST", "/channels/{channel_id}/messages", "_create_message", True, False),
        (
            "PATCH",
            "/channels/{channel_id}/messages/{message_id}",
            "_edit_message",
            True,
            False,
        ),
        ("POST", "/channels/{channel_id}/threads", "_create_thread", True, False),
        ("GET", "/channels/{channel_id}", "_get_channel", True, False),
        ("PATCH", "/channels/{channel_id}", "_edit_channel", True, False),
        ("POST", "/users/@me/channels", "_create_dm", True, False),
    )

    def _match(self, method: str, path: str) -> tuple[str, dict[str, str], str, bool, bool]:
        parts = path.strip("/").split("/")
        for m, template, handler, auth, inter in self.ROUTES:
            tparts = template.strip("/").split("/")
            if m != method or len(tparts) != len(parts):
                continue
            params: dict[str, str] = {}
            for t_, p in zip(tparts, parts, strict=True):
                if t_.startswith("{"):
                    params[t_[1:-1]] = p
                elif t_ != p:
                    break
            else:
                return template, params, handler, auth, inter
        raise ApiError(404, 0, "404: Not Found")

    async def _read_body(self, request: web.Request) -> tuple[Any, list[tuple[str, int]]]:
        """JSON, or multipart with ``payload_json`` and ``files[n]`` (``reference.mdx``
        "Uploading Files": each file part named ``files[n]`` with a filename)."""
        if request.content_type == "multipart/form-data":
            body: Any = {}
            files: list[tuple[str, int]] = []
            reader = await request.multipart()
            async for part in reader:
                name = part.name or ""  # type: ignore[union-attr]
                data = await part.read()  # type: ignore[union-attr]
                if name == "payload_json":
                    body = json.loads(data)
                elif name.startswith("files["):
                    filename = part.filename  # type: ignore[union-attr]
                    slot = name[len("files[") : -1]
                    if not filename or not name.endswith("]") or not slot.isdigit():
                        raise ApiError(400, 50035, "Invalid Form Body", {"files": {}})
                    files.append(Upload(filename, len(data), int(slot)))
            return body, files
        raw = await request.read()
        if not raw:
            return None, []
        if request.content_type != "application/json":
            raise ApiError(400, 50035, "Invalid Form Body")  # "invalid Content-Type"
        return json.loads(raw), []

    @staticmethod
    def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
        # discord.py reads JSON only when Content-Type is exactly application/json.
        if status == 204:
            return web.Response(status=204, headers=headers or {})
        return web.Response(
            body=json.dumps(data).encode(),
            status=status,
            headers={**(headers or {}), "Content-Type": "application/json"},
        )

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = request.path[len(API) :]
        record = Record(request.method, "", path, None, [], at=self.now())
        self.records.append(record)
        headers: dict[str, str] = {}
        try:
            template, params, handler, auth, interaction = self._match(request.method, path)
            record.route = template
            if auth and request.headers.get("Authorization") != f"Bot {self.token}":
                # topics/opcodes-and-status-codes.mdx "HTTP Response Codes": 401.
                raise ApiError(401, 0, "401: Unauthorized")
            record.body, record.files = await self._read_body(request)
            major = (
                params.get("channel_id")
                or params.get("guild_id")
                or (params.get("application_id", "") + params.get("token", ""))
                or params.get("interaction_id", "")
            )
            bucket = f"{request.method} {template}"
            try:
                headers = self.limits.check(bucket, major, interaction=interaction)
            except Limited as exc:
                return self._too_many(record, exc.retry_after, exc.headers, exc.is_global)
            fault = self._fault(request.method, template)
            if fault is not None and fault.status == 429:
                return self._too_many(
                    record,
                    fault.retry_after,
                    {**headers, "Retry-After": str(max(1, round(fault.retry_after)))},
                    fault.is_global,
                )
            if fault is not None and fault.status == 403:
                raise ApiError(403, 50013, "Missing Permissions")
            if fault is not None and fault.status >= 500:
                record.status = fault.status
                return self._json(
                    {"message": "500: Internal Server Error", "code": 0}, fault.status
                )
            result = await getattr(self, handler)(params, record.body, record.files)
            record.status = 204 if result is None else 200
            self._touch()
            if fault is not None and fault.status == 0:  # acted, answer lost
                self.stalled.append(record)
                await self._release.wait()  # until the fake shuts down
                raise ApiError(500, 0, "500: Internal Server Error")
            return self._json(result, record.status, headers)
        except ApiError as exc:
            record.status = exc.status
            record.error_code = exc.code
            self._touch()
            return self._json(exc.body(), exc.status, headers)

    def _too_many(
        self, record: Record, retry_after: float, headers: dict[str, str], is_global: bool
    ) -> web.Response:
        """``topics/rate-limits.mdx`` "Exceeding A Rate Limit". ``Via`` is what Discord's
        edge adds; discord.py treats a 429 without it as a Cloudflare ban."""
        record.status = 429
        self._touch()
        return self._json(
            {
                "message": "You are being rate limited.",
                "retry_after": round(retry_after, 3),
                "global": is_global,
            },
            429,
            {**headers, "Via": "1.1 google"},
        )

    # ----- login and commands ------------------------------------------------------------
    async def _me(self, params: dict[str, str], body: Any, files: Any) -> Any:
        return self.bot_user()

    async def _app(self, params: dict[str, str], body: Any, files: Any) -> Any:
        owner = self.members.get(self.owner_id or 0, {}).get("user") or self.bot_user()
        return {
            "id": str(self.APP_ID),
            "name": "Tessera",
            "icon": None,
            "description": "",
            "summary": "",
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": owner,
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "rpc_origins": [],
        }

    async def _gateway_bot(self, params: dict[str, str], body: Any, files: Any) -> Any:
        """``events/gateway.mdx`` "Get Gateway Bot"."""
        return {
            "url": self.gateway_url,
            "shards": 1,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 14400000,
                "max_concurrency": 1,
            },
        }

    def _scope(self, params: dict[str, str]) -> int | None:
        if params.get("application_id") != str(self.APP_ID):
            raise ApiError(403, 50001, "Missing Access")
        guild = params.get("guild_id")
        if guild is None:
            return None
        if guild != str(self.GUILD_ID):
            raise ApiError(403, 50001, "Missing Access")
        return int(guild)

    async def _put_commands(self, params: dict[str, str], body: Any, files: Any) -> Any:
        """Bulk overwrite: the whole list is validated (:func:`.limits.check_commands`)
        and replaces what was there, or nothing changes."""
        scope = self._scope(params)
        if not isinstance(body, list):
            raise ApiError(400, 50035, "Invalid Form Body")
        check_commands(body)
        stored = [
            {
                **c,
                "id": str(next(self.ids)),
                "application_id": str(self.APP_ID),
                "version": str(next(self.ids)),
                **({"guild_id": str(scope)} if scope else {}),
                "type": c.get("type", 1),
            }
            for c in body
        ]
        self.commands[scope] = stored
        return stored

    async def _get_commands(self, params: dict[str, str], body: Any, files: Any) -> Any:
        return self.commands.get(self._scope(params), [])

    def visible_commands(self) -> list[str]:
        """Command names as a member of the guild sees them in the picker: global ones and
        the guild's own, each listed (a name synced both ways shows twice)."""
        return sorted(
            [c["name"] for c in self.commands.get(None, [])]
            + [c["name"] for c in self.commands.get(self.GUILD_ID, [])]
        )

    # ----- channels, threads, DMs --------------------------------------------------------
    def _channel(self, channel_id: str) -> dict[str, Any]:
        try:
            return self.channels[int(channel_id)]
        except (KeyError, ValueError):
            raise ApiError(404, 10003, "Unknown Channel") from None

    async def _get_channel(self, params: dict[str, str], body: Any, files: Any) -> Any:
        return self._channel(params["channel_id"])

    async def _create_thread(self, params: dict[str, str], body: Any, files: Any) -> Any:
        """``resources/channel.mdx`` "Start Thread without Message": name 1–100
        characters, auto_archive_duration one of 60/1440/4320/10080, type 11 public."""
        parent = self._channel(params["channel_id"])
        if parent["type"] != 0:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        errors = FormErrors()
        errors.length(["name"], (body or {}).get("name"), 1, 100)
        duration = (body or {}).get("auto_archive_duration")
        if duration is not None and duration not in ARCHIVE_DURATIONS:
            errors.add(["auto_archive_duration"], "BASE_TYPE_CHOICES", "Value must be one of …")
        if (body or {}).get("type", 12) not in (10, 11, 12):
            errors.add(["type"], "BASE_TYPE_CHOICES", "Value must be one of (10, 11, 12).")
        errors.raise_if_any()
        tid = next(self.ids)
        thread = {
            "id": str(tid),
            "type": int(body.get("type", 12)),
            "guild_id": str(self.GUILD_ID),
            "parent_id": parent["id"],
            "owner_id": str(self.BOT_ID),
            "name": body["name"],
            "last_message_id": None,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": int(duration or 4320),
                "archive_timestamp": TS,
                "locked": False,
            },
            "message_count": 0,
            "member_count": 1,
            "rate_limit_per_user": 0,
            "flags": 0,
            "total_message_sent": 0,
        }
        self.channels[tid] = thread
        await self.dispatch("THREAD_CREATE", {**thread, "newly_created": True})
        return thread

    async def _edit_channel(self, params: dict[str, str], body: Any, files: Any) -> Any:
        """Modify a thread (``resources/channel.mdx`` "Modify Channel", thread fields)."""
        channel = self._channel(params["channel_id"])
        body = body or {}
        if channel["type"] != 11:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        errors = FormErrors()
        if "name" in body:
            errors.length(["name"], body["name"], 1, 100)
        duration = body.get("auto_archive_duration")
        if duration is not None and duration not in ARCHIVE_DURATIONS:
            errors.add(["auto_archive_duration"], "BASE_TYPE_CHOICES", "Value must be one of …")
        errors.raise_if_any()
        meta = channel["thread_metadata"]
        if "archived" in body:
            meta["archived"] = bool(body["archived"])
        if duration is not None:
            meta["auto_archive_duration"] = duration
        if "name" in body:
            channel["name"] = body["name"]
        await self.dispatch("THREAD_UPDATE", channel)
        return channel

    async def _create_dm(self, params: dict[str, str], body: Any, files: Any) -> Any:
        uid = int((body or {}).get("recipient_id", 0))
        if uid not in self.members:
            raise ApiError(400, 50033, "Invalid Recipient(s)")
        if uid not in self.dm_by_user:
            cid = next(self.ids)
            self.channels[cid] = {
                "id": str(cid),
                "type": 1,
                "last_message_id": None,
                "recipients": [self.members[uid]["user"]],
            }
            self.dm_by_user[uid] = cid
        return self.channels[self.dm_by_user[uid]]

    # ----- messages ------------------------------------------------------------------------
    def _message_json(self, m: Message) -> dict[str, Any]:
        author = (
            self.bot_user() if m.author_id == self.BOT_ID else self.members[m.author_id]["user"]
        )
        channel = self.channels.get(m.channel_id, {})
        return {
            "id": str(m.id),
            "channel_id": str(m.channel_id),
            **({"guild_id": str(self.GUILD_ID)} if "guild_id" in channel else {}),
            "author": author,
            "content": m.content,
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
        m = Message(
            id=next(self.ids),
            channel_id=channel_id,
            content=body.get("content") or "",
            flags=flags,
            components=body.get("components") or [],
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

    def _edit(self, m: Message, body: dict[str, Any], files: list[tuple[str, int]]) -> None:
        if "content" in body:
            m.content = body["content"] or ""
        if "components" in body:
            m.components = body["components"] or []
        if files or "attachments" in body:
            describe_uploads(body, files)
            kept = {str(a.get("id")) for a in body.get("attachments") or []}
            m.files = [f for i, f in enumerate(m.files) if str(self.BOT_ID + i) in kept]
            m.files += files
        m.flags &= ~LOADING
        m.edits += 1

    async def _create_message(
        self, params: dict[str, str], body: Any, files: list[tuple[str, int]]
    ) -> Any:
        """``resources/message.mdx`` "Create Message": limits in
        :func:`.limits.check_message`; ``enforce_nonce`` ("If another message was created
        by the same author with the same nonce, that message will be returned and no new
        message will be created"); posting in an archived thread unarchives it."""
        channel = self._channel(params["channel_id"])
        body = body or {}
        check_message(body, files)
        if channel["type"] == 1:
            uid = int(channel["recipients"][0]["id"])
            if uid in self.closed_dms:
                raise ApiError(403, 50007, "Cannot send messages to this user")
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce"):
            key = (int(channel["id"]), str(nonce))
            if key in self.nonces:
                return self._message_json(self.messages[self.nonces[key]])
        m = self._new_message(int(channel["id"]), body, files, flags=int(body.get("flags") or 0))
        if nonce is not None:
            self.nonces[(m.channel_id, str(nonce))] = m.id
        if channel["type"] == 11 and channel["thread_metadata"]["archived"]:
            channel["thread_metadata"]["archived"] = False
        payload = self._message_json(m)
        await self.dispatch("MESSAGE_CREATE", payload)
        return payload

    async def _edit_message(
        self, params: dict[str, str], body: Any, files: list[tuple[str, int]]
    ) -> Any:
        """``resources/message.mdx`` "Edit Message": a message of this channel (else 10008
        "Unknown message"); content, components and attachments only by its author (else
        403 with 50005); the same limits as a message (an edit may leave fields out). Files
        (v10): "the ``attachments`` array must contain all attachments that should be
        present after edit, including retained and new attachments" — an existing one is
        kept only when its id is listed, a new ``files[n]`` is attached only when ``n`` is
        listed; an id that is neither is a form error. Messages older than an hour are not
        edited (30046, see :data:`OLD_MESSAGE_SECONDS`). Fires ``MESSAGE_UPDATE``."""
        channel = self._channel(params["channel_id"])
        body = body or {}
        try:
            m = self.messages[int(params["message_id"])]
        except (KeyError, ValueError):
            raise ApiError(404, UNKNOWN_MESSAGE, "Unknown Message") from None
        if m.channel_id != int(channel["id"]) or m.ephemeral:
            raise ApiError(404, UNKNOWN_MESSAGE, "Unknown Message")
        if m.author_id != self.BOT_ID:
            raise ApiError(403, NOT_THE_AUTHOR, "Cannot edit a message authored by another user")
        check_message(body, files, edit=True)
        if self.now() - m.created > OLD_MESSAGE_SECONDS:
            raise ApiError(
                400,
                OLD_MESSAGE_EDITS,
                "Maximum number of edits to messages older than 1 hour reached. Try again later",
            )
        kept = m.files
        if "attachments" in body or files:
            listed = [str(a.get("id")) for a in body.get("attachments") or []]
            existing = {str(self.BOT_ID + i): f for i, f in enumerate(m.files)}
            new = {str(getattr(f, "slot", i)): f for i, f in enumerate(files)}
            unknown = [i for i, a in enumerate(listed) if a not in existing and a not in new]
            if unknown:
                raise ApiError(
                    400,
                    50035,
                    "Invalid Form Body",
                    {"attachments": {str(unknown[0]): {"id": {"_errors": []}}}},
                )
            describe_uploads(body, files)
            for entry in body.get("attachments") or []:  # a kept file's new description
                old = existing.get(str(entry.get("id")))
                if isinstance(old, Upload) and "description" in entry:
                    old.description = entry["description"]
            kept = [existing[a] for a in listed if a in existing]
            kept += [new[a] for a in listed if a in new]
        if "content" in body:
            m.content = body["content"] or ""
        if "components" in body:
            m.components = body["components"] or []
        m.files = list(kept)
        m.edits += 1
        payload = self._message_json(m)
        await self.dispatch("MESSAGE_UPDATE", payload)
        return payload

    # ----- interactions ---------------------------------------------------------------------
    def _interaction(self, interaction_id: str, token: str) -> Interaction:
        try:
            inter = self.interactions[int(interaction_id)]
        except (KeyError, ValueError):
            raise ApiError(404, 10062, "Unknown interaction") from None
        if inter.token != token:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        return inter

    def _by_token(self, application_id: str, token: str) -> Interaction:
        """Follow-ups and edits use the interaction token for 15 minutes
        ("Followup Messages": "Interaction tokens are valid for 15 minutes")."""
        if application_id != str(self.APP_ID):
            raise ApiError(404, 10015, "Unknown Webhook")
        for inter in self.interactions.values():
            if inter.token == token:
                if self.now() > inter.created + TOKEN_SECONDS:
                    raise ApiError(401, 50027, "Invalid Webhook Token")
                if inter.callback is None:
                    raise ApiError(404, 10015, "Unknown Webhook")
                return inter
        raise ApiError(404, 10015, "Unknown Webhook")

    async def _callback(
        self, params: dict[str, str], body: Any, files: list[tuple[str, int]]
    ) -> Any:
        """Create Interaction Response (``interactions/receiving-and-responding.mdx``
        "Interaction Callback"): within 3 s of the event, else 10062 "Unknown interaction";
        once only, else 40060 "Interaction has already been acknowledged"; a callback type
        allowed for the interaction type ("Interaction Callback Type": 6 and 7 only for
        components, 8 only answering autocomplete); a deferred response may only carry the
        EPHEMERAL flag."""
        inter = self._interaction(params["interaction_id"], params["token"])
        if self.now() > inter.created + ACK_SECONDS:
            raise ApiError(404, 10062, "Unknown interaction")
        if inter.callback is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        body = body or {}
        rtype = body.get("type")
        data = body.get("data") or {}
        allowed = {2: (4, 5, 9), 3: (4, 5, 6, 7, 9), 4: (8,), 5: (4, 5, 6, 7)}[inter.type]
        if rtype not in allowed:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                {
                    "type": {
                        "_errors": [
                            {
                                "code": "INTERACTION_RESPONSE_TYPE_INVALID",
                                "message": "Invalid interaction response type",
                            }
                        ]
                    }
                },
            )
        flags = int(data.get("flags") or 0)
        resource: dict[str, Any] | None = None
        if rtype == 8:
            check_choices(data.get("choices"))
            inter.choices = data.get("choices") or []
        elif rtype == 4:
            check_message(data, files, callback=True)
            m = self._new_message(inter.channel_id, data, files, flags=flags, interaction=inter)
            inter.original_id = m.id
            resource = {"type": 4, "message": self._message_json(m)}
        elif rtype == 5:
            if flags & ~EPHEMERAL:
                raise ApiError(400, 50035, "Invalid Form Body", {"data": {"flags": {}}})
            m = self._new_message(
                inter.channel_id, {}, [], flags=(flags & EPHEMERAL) | LOADING, interaction=inter
            )
            inter.original_id = m.id
        elif rtype == 7:
            check_message(data, files, callback=True, edit=True)
            target = self.messages[inter.message_id or 0]
            self._edit(target, data, files)
            inter.original_id = target.id
            resource = {"type": 7, "message": self._message_json(target)}
        elif rtype == 6:
            inter.original_id = inter.message_id
        inter.callback = rtype
        original = self.messages.get(inter.original_id or 0)
        out: dict[str, Any] = {
            "interaction": {
                "id": str(inter.id),
                "type": inter.type,
                **({"response_message_id": str(original.id)} if original else {}),
                "response_message_loading": bool(original and original.loading),
                "response_message_ephemeral": bool(original and original.ephemeral),
            }
        }
        if resource:
            out["resource"] = resource
        return out

    async def _followup(
        self, params: dict[str, str], body: Any, files: list[tuple[str, int]]
    ) -> Any:
        """Create Followup Message. "When using this endpoint directly after responding to
        an interaction with DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, this endpoint will function
        as Edit Original Interaction Response … The ephemeral flag will be ignored, and the
        value you provided in the initial defer response will be preserved"."""
        inter = self._by_token(params["application_id"], params["token"])
        body = body or {}
        check_message(body, files, callback=True)
        original = self.messages.get(inter.original_id or 0)
        inter.followups_seen += 1
        if inter.callback == 5 and original is not None and original.loading:
            self._edit(original, body, files)
            if original not in inter.replies:
                inter.replies.append(original)
            return self._message_json(original)
        flags = int(body.get("flags") or 0)
        m = self._new_message(inter.channel_id, body, files, flags=flags, interaction=inter)
        return self._message_json(m)

    def _reply(self, params: dict[str, str]) -> tuple[Interaction, Message]:
        inter = self._by_token(params["application_id"], params["token"])
        mid = params["message_id"]
        target = inter.original_id if mid == "@original" else int(mid)
        m = self.messages.get(target or 0)
        if m is None or (mid != "@original" and m.interaction_id != inter.id):
            raise ApiError(404, 10008, "Unknown Message")
        return inter, m

    async def _edit_reply(
        self, params: dict[str, str], body: Any, files: list[tuple[str, int]]
    ) -> Any:
        """Edit Original Interaction Response / Edit Followup Message (same limits as a
        message; an edit keeps the message's visibility)."""
        inter, m = self._reply(params)
        body = body or {}
        check_message(body, files, callback=True, edit=True)
        self._edit(m, body, files)
        if m not in inter.replies:
            inter.replies.append(m)
        return self._message_json(m)

    async def _get_reply(self, params: dict[str, str], body: Any, files: Any) -> Any:
        return self._message_json(self._reply(params)[1])

    async def _delete_reply(self, params: dict[str, str], body: Any, files: Any) -> Any:
        inter, m = self._reply(params)
        del self.messages[m.id]
        if m in inter.replies:
            inter.replies.remove(m)
        return None

    # ----- members acting ------------------------------------------------------------------
    def _interaction_payload(
        self, user: dict[str, Any], itype: int, channel_id: int, data: dict[str, Any]
    ) -> tuple[Interaction, dict[str, Any]]:
        iid = next(self.ids)
        token = f"itok-{iid}"
        inter = Interaction(iid, token, itype, user, channel_id, data, self.now())
        self.interactions[iid] = inter
        manager = self.members[int(user["id"])]["manager"]
        perms = (1 << 11) | (1 << 38) | (1 << 10) | ((1 << 5) if manager else 0)
        channel = self.channels[channel_id]
        payload = {
            "id": str(iid),
            "application_id": str(self.APP_ID),
            "type": itype,
            "data": data,
            "guild_id": str(self.GUILD_ID),
            "channel_id": str(channel_id),
            "channel": channel,
            "member": {
                "user": user,
                "roles": [],
                "joined_at": TS,
                "deaf": False,
                "mute": False,
                "flags": 0,
                "permissions": str(perms),
            },
            "token": token,
            "version": 1,
            "app_permissions": str((1 << 41) - 1),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.GUILD_ID)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        return inter, payload

    def _command_data(self, path: str, options: dict[str, Any]) -> dict[str, Any]:
        """Build ``data`` for a slash command from the *synced* definition: a member can
        only use what the bot published (guild commands first, as the client shows them)."""
        parts = path.split()
        found = None
        for scope in (self.GUILD_ID, None):
            for command in self.commands.get(scope, []):
                if command["name"] == parts[0]:
                    found = command
                    break
            if found:
                break
        if found is None:
            raise AssertionError(f"/{parts[0]} was never synced: {self.visible_commands()}")
        data: dict[str, Any] = {"id": found["id"], "name": found["name"], "type": 1}
        if "guild_id" in found:
            data["guild_id"] = found["guild_id"]
        holder, defs = data, found.get("options") or []
        for sub in parts[1:]:
            spec = next((o for o in defs if o["name"] == sub and o["type"] in (1, 2)), None)
            if spec is None:
                raise AssertionError(f"/{path}: no sub-command {sub}")
            inner: dict[str, Any] = {"name": sub, "type": spec["type"], "options": []}
            holder.setdefault("options", []).append(inner)
            holder, defs = inner, spec.get("options") or []
        opts = holder.setdefault("options", [])
        for name, value in options.items():
            spec = next((o for o in defs if o["name"] == name), None)
            if spec is None:
                raise AssertionError(f"/{path}: no option {name}")
            if spec.get("choices") and not any(c["value"] == value for c in spec["choices"]):
                raise AssertionError(f"/{path} {name}: {value!r} is not one of the choices")
            entry = {"name": name, "type": spec["type"], "value": value}
            if isinstance(value, _Focused):
                entry["value"] = value.text
                entry["focused"] = True
            opts.append(entry)
        return data

    async def slash(
        self, user: dict[str, Any], path: str, channel_id: int | None = None, **options: Any
    ) -> Interaction:
        data = self._command_data(path, {k: v for k, v in options.items() if v is not None})
        inter, payload = self._interaction_payload(user, 2, channel_id or self.CHANNEL_ID, data)
        await self.dispatch("INTERACTION_CREATE", payload)
        return inter

    async def slash_raw(self, user: dict[str, Any], name: str = "cmd") -> Interaction:
        """An interaction with no command behind it (for testing the endpoints alone)."""
        data = {"id": "1", "name": name, "type": 1}
        inter, payload = self._interaction_payload(user, 2, self.CHANNEL_ID, data)
        await self.dispatch("INTERACTION_CREATE", payload)
        return inter

    async def autocomplete(
        self,
        user: dict[str, Any],
        path: str,
        option: str,
        typed: str,
        channel_id: int | None = None,
    ) -> list[dict[str, Any]]:
        data = self._command_data(path, {option: _Focused(typed)})
        inter, payload = self._interaction_payload(user, 4, channel_id or self.CHANNEL_ID, data)
        await self.dispatch("INTERACTION_CREATE", payload)
        await self.until(lambda: inter.choices is not None)
        return inter.choices or []

    async def click(
        self,
        user: dict[str, Any],
        message: Message,
        custom_id: str,
        values: list[str] | None = None,
    ) -> Interaction:
        """Press a button (or pick in a select) that is really on the message and that
        this member can see."""
        if message.id not in self.messages:
            raise AssertionError("that message is gone")
        if message.visible_to is not None and message.visible_to != int(user["id"]):
            raise AssertionError("an ephemeral message is only visible to its recipient")
        comp = next(
            (
                c
                for row in message.components
                for c in row.get("components", [])
                if c.get("custom_id") == custom_id
            ),
            None,
        )
        if comp is None:
            raise AssertionError(f"no component {custom_id!r} on the message")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": comp["type"]}
        if comp["type"] == 3:
            allowed = {o["value"] for o in comp["options"]}
            if not values or not set(values) <= allowed:
                raise AssertionError(f"{values} not among the select's options")
            data["values"] = values
        inter, payload = self._interaction_payload(user, 3, message.channel_id, data)
        inter.message_id = message.id
        payload["message"] = self._message_json(message)
        await self.dispatch("INTERACTION_CREATE", payload)
        return inter

    # ----- the gateway ------------------------------------------------------------------------
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
        invalid intents."""
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
                self.identifies += 1
                session = Session(f"sess-{next(self.ids)}", d["token"])
                self.sessions = {session.id: session}  # one bot, one session
                session.ws = ws
                await self.dispatch(
                    "READY",
                    {
                        "v": 10,
                        "user": self.bot_user(),
                        "guilds": [{"id": str(self.GUILD_ID), "unavailable": True}],
                        "session_id": session.id,
                        "resume_gateway_url": self.gateway_url,
                        "application": {"id": str(self.APP_ID), "flags": 0},
                        "private_channels": [],
                        "relationships": [],
                    },
                )
                await self.dispatch("GUILD_CREATE", self.guild())
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


class _Focused:
    """Marks the option being typed in an autocomplete interaction."""

    def __init__(self, text: str) -> None:
        self.text = text
