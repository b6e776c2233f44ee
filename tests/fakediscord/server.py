"""A strict local Discord: REST API v10 and the gateway, on 127.0.0.1, for tests.

The real bot (``python -m bot`` with ``TESSERA_DISCORD_API`` pointing here) logs in,
connects to the gateway and syncs its commands exactly as against Discord. Tests then act
as members (:mod:`.acting`: :meth:`FakeDiscord.slash`, :meth:`~FakeDiscord.autocomplete`,
:meth:`~FakeDiscord.click`, in the server or in a DM with the bot) and read what the bot
posted (:mod:`.models`: :class:`.models.Message` reads classic and layout messages
alike). Every REST call the bot makes is checked against Discord's documented limits
(:mod:`.limits`, :mod:`.components`, :mod:`.commands`, :mod:`.ratelimit`) and recorded.
Anything Discord would refuse is refused here with Discord's status, error code and body,
so the bot cannot pass a test that Discord would fail.

This module routes REST requests and holds the channel, thread, DM and message
endpoints; :mod:`.responses` the interaction endpoints, :mod:`.gateway` the gateway,
:mod:`.core` the state they share. Documentation sections (``discord/discord-api-docs``,
``developers/``) are cited where each behaviour is implemented.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from aiohttp import web

from .acting import MembersActing
from .commands import check_commands
from .core import API, TS
from .errors import ApiError, FormErrors
from .gateway import Gateway
from .guild_threads import GuildThreads
from .history import MessageHistory
from .limits import check_message
from .models import Fault, Message, Record, Upload, describe_uploads
from .ratelimit import Limited
from .responses import InteractionEndpoints
from .sizes import check_request_size
from .threads import ThreadRules

#: ``resources/channel.mdx``: a thread's auto_archive_duration is one of these minutes.
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
#: ``topics/opcodes-and-status-codes.mdx`` "JSON Error Codes".
UNKNOWN_MESSAGE = 10008
OLD_MESSAGE_EDITS = 30046
NOT_THE_AUTHOR = 50005
#: Edits of messages older than this are limited (30046; the number allowed is not
#: documented, so this fake refuses every one: the bot must never need them).
OLD_MESSAGE_SECONDS = 3600.0


class FakeDiscord(
    GuildThreads, Gateway, MembersActing, InteractionEndpoints, MessageHistory, ThreadRules
):
    """Start with ``async with FakeDiscord(...) as fake``; ``fake.api`` is the base URL to
    give the bot (``TESSERA_DISCORD_API``). The constructor's options are
    :class:`.core.Core`'s."""

    _runner: web.AppRunner | None = None

    # ----- lifecycle ---------------------------------------------------------------------
    async def __aenter__(self) -> FakeDiscord:
        # larger than Discord's 25 MiB, so that a bigger request gets Discord's answer
        app = web.Application(client_max_size=64 * 1024 * 1024)
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
        ("GET", "/channels/{channel_id}/messages", "_get_messages", True, False),
        (
            "PATCH",
            "/channels/{channel_id}/messages/{message_id}",
            "_edit_message",
            True,
            False,
        ),
        ("POST", "/channels/{channel_id}/threads", "_create_thread", True, False),
        ("GET", "/channels/{channel_id}", "_get_channel", True, False),
        ("GET", "/guilds/{guild_id}/threads/active", "_active_threads", True, False),
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
            params = {**request.query, **params}  # a route's query string (GET messages)
            self.age_threads()  # idle threads archive on Discord's clock (.threads)
            record.route = template
            if auth and request.headers.get("Authorization") != f"Bot {self.token}":
                # topics/opcodes-and-status-codes.mdx "HTTP Response Codes": 401.
                raise ApiError(401, 0, "401: Unauthorized")
            record.body, record.files = await self._read_body(request)
            check_request_size(record.body, record.files)  # 25 MiB (:mod:`.sizes`)
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
            self.check_permissions(request.method, template, params, record.body, record.files)
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
        if not guild.isdigit() or int(guild) not in self.guilds:
            raise ApiError(403, 50001, "Missing Access")
        return int(guild)

    async def _put_commands(self, params: dict[str, str], body: Any, files: Any) -> Any:
        """Bulk overwrite: the whole list is validated (:func:`.commands.check_commands`,
        against the installation contexts the app supports) and replaces what was there,
        or nothing changes."""
        scope = self._scope(params)
        if not isinstance(body, list):
            raise ApiError(400, 50035, "Invalid Form Body")
        check_commands(body, self.installs)
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
            "guild_id": parent["guild_id"],
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
        self.thread_activity[tid] = self.now()
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
        self.thread_patch(channel, body)  # locked threads, activity (.threads)
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
        """``resources/user.mdx`` "Create DM": the DM channel with the recipient (the same
        one every time), 50033 "Invalid Recipient(s)" for someone Discord does not know."""
        uid = int((body or {}).get("recipient_id", 0))
        if uid not in self.members:
            raise ApiError(400, 50033, "Invalid Recipient(s)")
        return self.channels[self.dm_channel(self.members[uid]["user"])]

    async def _create_message(
        self, params: dict[str, str], body: Any, files: list[tuple[str, int]]
    ) -> Any:
        """``resources/message.mdx`` "Create Message": limits in
        :func:`.limits.check_message`; ``enforce_nonce`` ("If another message was created
        by the same author with the same nonce, that message will be returned and no new
        message will be created", for :attr:`.history.MessageHistory.nonce_window`);
        threads archived or locked: :meth:`.threads.ThreadRules.thread_post`."""
        channel = self._channel(params["channel_id"])
        body = body or {}
        check_message(body, files)
        if channel["type"] == 1:
            uid = int(channel["recipients"][0]["id"])
            if uid in self.closed_dms:
                raise ApiError(403, 50007, "Cannot send messages to this user")
        self.thread_post(channel)  # locked: refused; archived: unarchived (.threads)
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce"):
            first = self.nonce_hit(int(channel["id"]), str(nonce))  # within the window
            if first is not None:
                return self._message_json(first)
        m = self._new_message(int(channel["id"]), body, files, flags=int(body.get("flags") or 0))
        if nonce is not None:
            self.nonces[(m.channel_id, str(nonce))] = m.id
        payload = self._message_json(m)
        await self.dispatch("MESSAGE_CREATE", payload)
        return payload

    async def _edit_message(
        self, params: dict[str, str], body: Any, files: list[tuple[str, int]]
    ) -> Any:
        """``resources/message.mdx`` "Edit Message": a message of this channel (else 10008
        "Unknown message"); content, components and attachments only by its author (else
        403 with 50005); the same limits as a message, a layout message's edit rules
        included (:func:`.limits.check_layout_fields`; an edit may leave fields out). Files
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
        self.thread_edit(channel)  # archived: 50083; locked: 160005 (.threads)
        kept = self._kept(m, body, files)
        names = [name for name, _ in kept]
        check_message(body, files, edit=True, before=m.before(), attached=names)
        if self.now() - m.created > OLD_MESSAGE_SECONDS:
            raise ApiError(
                400,
                OLD_MESSAGE_EDITS,
                "Maximum number of edits to messages older than 1 hour reached. Try again later",
            )
        if "attachments" in body or files:
            describe_uploads(body, files)
            existing = {str(self.BOT_ID + i): f for i, f in enumerate(m.files)}
            for entry in body.get("attachments") or []:  # a kept file's new description
                old = existing.get(str(entry.get("id")))
                if isinstance(old, Upload) and "description" in entry:
                    old.description = entry["description"]
        self._apply(m, body, files, kept)
        payload = self._message_json(m)
        await self.dispatch("MESSAGE_UPDATE", payload)
        return payload

    def _kept(
        self, m: Message, body: dict[str, Any], files: list[tuple[str, int]]
    ) -> list[tuple[str, int]]:
        """The files a channel message keeps after an Edit Message (v10 rules above)."""
        if "attachments" not in body and not files:
            return list(m.files)
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
        return [existing[a] for a in listed if a in existing] + [new[a] for a in listed if a in new]
