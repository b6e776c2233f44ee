"""Drive the real discord.py bot in-process, with no token and no network.

How (see shared TECH_NOTES, "Testing the Discord layer without Discord"): the bot is built
but never logs in; its connection state gets a ClientUser and an application id; real
interaction payloads go through ``ConnectionState.parse_interaction_create``, which runs the
command tree, autocomplete and dynamic items exactly as in production; we then await the
tasks it spawned. Every response leaves through one of two seams, both replaced here by
:class:`FakeDiscord`: the webhook adapter's ``request`` (interaction responses, followups)
and the HTTP client's ``request`` (channel posts, threads, DMs, sync). FakeDiscord records
each call, answers with plausible JSON, and can be told to fail the next matching calls
(5xx, 429 with retry-after, timeouts, 404) to test the outbox.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
import types
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
from discord.http import HTTPClient
from discord.webhook.async_ import AsyncWebhookAdapter

import bot.storage.clock
from bot.discord.client import TesseraBot
from bot.matches.reports import User
from bot.matches.service import MatchService
from bot.settings import Settings
from tests.fakediscord.core import text_channel

APP_ID = 424242
BOT_ID = 999
GUILD_ID = 100
CHANNEL_ID = 500
BOT_USER = {
    "id": str(BOT_ID),
    "username": "Tessera",
    "discriminator": "0",
    "avatar": None,
    "bot": True,
}
TS = "2024-01-01T00:00:00+00:00"


@dataclass
class Call:
    """One request that reached 'Discord'."""

    via: str  # "rest" or "hook"
    method: str
    path: str
    url: str
    payload: dict[str, Any]
    files: list[str] = field(default_factory=list)

    @property
    def data(self) -> dict[str, Any]:
        """Message fields: interaction callbacks nest them under "data"."""
        return self.payload.get("data", self.payload) if self.via == "hook" else self.payload

    @property
    def layout(self) -> bool:
        """A layout message (``IS_COMPONENTS_V2``): its text is in text displays."""
        return bool(int((self.data or {}).get("flags") or 0) & (1 << 15))

    @property
    def content(self) -> str:
        """The text a member reads: the ``content`` of a classic message, a layout
        message's text displays in reading order, one per line (as the strict local
        Discord's ``Message.content``)."""
        if not self.layout:
            return (self.data or {}).get("content") or ""
        texts: list[str] = []

        def walk(components: list[dict[str, Any]]) -> None:
            for c in components:
                if c.get("type") == 10:
                    texts.append(str(c.get("content") or ""))
                walk(c.get("components", []))

        walk((self.data or {}).get("components") or [])
        return "\n".join(texts)

    @property
    def ephemeral(self) -> bool:
        return bool(int((self.data or {}).get("flags") or 0) & 64)

    @property
    def custom_ids(self) -> list[str]:
        out: list[str] = []

        def walk(components: list[dict[str, Any]]) -> None:
            for c in components:
                if "custom_id" in c:
                    out.append(c["custom_id"])
                walk(c.get("components", []))

        walk((self.data or {}).get("components") or [])
        return out

    @property
    def callback_type(self) -> int | None:
        return self.payload.get("type") if "/callback" in self.url else None


class FakeResponse:
    """Enough of an aiohttp response for discord.HTTPException."""

    def __init__(self, status: int, headers: dict[str, str] | None = None) -> None:
        self.status = status
        self.reason = {404: "Not Found", 403: "Forbidden", 429: "Too Many Requests"}.get(
            status, "Error"
        )
        self.headers = headers or {}


def http_error(status: int, *, retry_after: float | None = None, code: int = 0) -> Exception:
    headers = {"Retry-After": str(retry_after)} if retry_after is not None else {}
    resp = FakeResponse(status, headers)
    body = {"message": resp.reason, "code": code}
    if status == 404:
        return discord.NotFound(resp, body)  # type: ignore[arg-type]
    if status == 403:
        return discord.Forbidden(resp, body)  # type: ignore[arg-type]
    if status >= 500:
        return discord.DiscordServerError(resp, body)  # type: ignore[arg-type]
    return discord.HTTPException(resp, body)  # type: ignore[arg-type]


class FakeDiscord:
    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.ids = itertools.count(10_000)
        self.failures: list[tuple[str, str, BaseException, bool]] = []
        #: Messages Discord really created (a repeated enforced nonce creates none).
        self.created: list[Call] = []
        self.threads: dict[int, dict[str, Any]] = {}
        self.nonces: set[str] = set()

    def fail(
        self,
        method: str,
        path_part: str,
        exc: BaseException,
        times: int = 1,
        *,
        after: bool = False,
    ) -> None:
        """The next ``times`` calls whose method and URL match raise ``exc`` — before
        Discord acted, or with ``after=True`` once it did (the reply was lost)."""
        for _ in range(times):
            self.failures.append((method, path_part, exc, after))

    def _maybe_fail(self, method: str, url: str, after: bool = False) -> None:
        for i, (m, part, exc, when) in enumerate(self.failures):
            if m == method and part in url and when == after:
                del self.failures[i]
                raise exc

    def message(self, channel_id: Any, data: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": str(next(self.ids)),
            "channel_id": str(channel_id),
            "author": BOT_USER,
            "content": data.get("content") or "",
            "timestamp": TS,
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": False,
            "type": 0,
            "flags": int(data.get("flags") or 0),
            "components": [],
        }

    def thread(self, thread_id: int, name: str = "match", archived: bool = False) -> dict[str, Any]:
        return {
            "id": str(thread_id),
            "type": 11,
            "guild_id": str(GUILD_ID),
            "parent_id": str(CHANNEL_ID),
            "owner_id": str(BOT_ID),
            "name": name,
            "thread_metadata": {
                "archived": archived,
                "auto_archive_duration": 10080,
                "archive_timestamp": TS,
                "locked": False,
            },
            "message_count": 0,
            "member_count": 0,
            "rate_limit_per_user": 0,
            "flags": 0,
        }

    # ----- the two seams ---------------------------------------------------------------
    async def rest(self, route: Any, *, files: Any = None, form: Any = None, **kw: Any) -> Any:
        payload: dict[str, Any] = kw.get("json") or {}
        for part in form or []:
            if part.get("name") == "payload_json":
                payload = json.loads(part["value"])
        names = [f.filename for f in files or []]
        call = Call("rest", route.method, route.path, route.url, payload, names)
        self.calls.append(call)
        await asyncio.sleep(0)
        self._maybe_fail(route.method, route.url)
        path, method = route.path, route.method
        if path == "/channels/{channel_id}/messages" and method == "POST":
            nonce = payload.get("nonce")
            if not (payload.get("enforce_nonce") and nonce in self.nonces):
                self.created.append(call)  # this request's, also when others overlap it
            if nonce:
                self.nonces.add(str(nonce))
            self._maybe_fail(route.method, route.url, after=True)
            return self.message(route.channel_id, payload)
        if path == "/channels/{channel_id}/messages" and method == "GET":
            return []  # a channel's history: this fake keeps none (tests/fakediscord does)
        if path == "/channels/{channel_id}/messages/{message_id}" and method == "PATCH":
            self._maybe_fail(route.method, route.url, after=True)
            message = self.message(route.channel_id, payload)
            message["id"] = route.url.rstrip("/").rsplit("/", 1)[-1]
            message["edited_timestamp"] = TS
            return message
        if path == "/channels/{channel_id}/threads" and method == "POST":
            tid = next(self.ids)
            self.threads[tid] = self.thread(tid, payload.get("name", "match"))
            return self.threads[tid]
        if path == "/channels/{channel_id}" and method in ("GET", "PATCH"):
            return self.thread(int(route.channel_id))
        if path == "/users/@me/channels":
            return {
                "id": str(next(self.ids)),
                "type": 1,
                "recipients": [
                    {
                        "id": str(payload["recipient_id"]),
                        "username": "u",
                        "discriminator": "0",
                        "avatar": None,
                    }
                ],
                "last_message_id": None,
            }
        if "/commands" in path and method == "PUT":
            return [
                {**c, "id": str(next(self.ids)), "application_id": str(APP_ID), "version": "1"}
                for c in payload
            ]  # type: ignore[union-attr]
        if method == "PUT" and isinstance(kw.get("json"), list):
            return kw["json"]
        return {}

    async def hook(self, route: Any, session: Any = None, **kw: Any) -> Any:
        payload: dict[str, Any] = kw.get("payload") or {}
        for part in kw.get("multipart") or []:
            if part.get("name") == "payload_json":
                payload = json.loads(part["value"])
        names = [f.filename for f in kw.get("files") or []]
        self.calls.append(Call("hook", route.method, route.path, route.url, payload, names))
        await asyncio.sleep(0)
        self._maybe_fail(route.method, route.url)
        if route.url.endswith("/callback"):
            rtype = payload.get("type")
            data = payload.get("data") or {}
            result: dict[str, Any] = {
                "interaction": {
                    "id": str(route.webhook_id),
                    "type": 2,
                    "response_message_id": str(next(self.ids)),
                    "response_message_loading": rtype == 5,
                    "response_message_ephemeral": bool(int(data.get("flags") or 0) & 64),
                }
            }
            if rtype in (4, 5, 7):
                result["resource"] = {"type": rtype, "message": self.message(CHANNEL_ID, data)}
            return result
        return self.message(CHANNEL_ID, payload)


class FakeClock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def user_payload(user: User) -> dict[str, Any]:
    return {
        "id": user.id,
        "username": user.name,
        "discriminator": "0",
        "avatar": None,
        "global_name": user.name,
    }


OPTION_TYPES = {str: 3, int: 4, bool: 5, float: 10}


class Harness:
    """One bot instance on one database file; :meth:`restart` makes a new one on it."""

    def __init__(
        self, db: Path | str, fake: FakeDiscord, clock: FakeClock, **settings: Any
    ) -> None:
        self.db = db
        self.fake = fake
        self.clock = clock
        where = {"database_url": db} if isinstance(db, str) else {"database_path": db}
        self.settings = Settings(**where, _env_file=None, **settings)  # type: ignore[call-arg]
        self.errors: list[BaseException] = []
        self.ids = itertools.count(1_000_000)
        self.guild_locale = "en-US"  # the server's preferred locale in every interaction
        self.bot: TesseraBot
        self.service: MatchService

    async def start(self) -> Harness:
        self.service = await MatchService.open(self.db, render_workers=1)
        bot = TesseraBot(self.settings, self.service, clock=self.clock, background=False)
        state = bot._connection
        await bot._async_setup_hook()
        state.user = discord.ClientUser(state=state, data=BOT_USER)  # type: ignore[arg-type]
        state.application_id = APP_ID
        bot.owner_id = 1001  # Alice owns the bot in tests
        await bot.setup_hook()
        original = bot.tree.on_error

        async def on_error(interaction: discord.Interaction, error: Any) -> None:
            # Refusals are answered by the bot's handler; anything else fails the test.
            await original(interaction, error)

        bot.tree.on_error = on_error  # type: ignore[method-assign]
        bot.on_unexpected_error = lambda i, e: self.errors.append(e)
        self.bot = bot
        return self

    async def stop(self) -> None:
        await self.bot.close()
        await self.service.close()

    async def restart(self) -> Harness:
        """A new bot process on the same database file (nothing kept in memory)."""
        await self.stop()
        return await self.start()

    # ----- feeding interactions --------------------------------------------------------
    def _base(self, user: User, channel: int, itype: int, locale: str) -> dict[str, Any]:
        if channel == CHANNEL_ID:
            chan = text_channel(CHANNEL_ID, GUILD_ID)
        else:
            chan = self.fake.thread(channel)
        perms = discord.Permissions(manage_guild=user.id == "7777", send_messages=True)
        return {
            "id": str(next(self.ids)),
            "application_id": str(APP_ID),
            "type": itype,
            "token": "tok",
            "version": 1,
            "guild_id": str(GUILD_ID),
            "channel_id": str(channel),
            "channel": chan,
            "member": {
                "user": user_payload(user),
                "roles": [],
                "joined_at": TS,
                "deaf": False,
                "mute": False,
                "permissions": str(perms.value),
                "flags": 0,
            },
            "locale": locale,
            "guild_locale": self.guild_locale,
            "app_permissions": str(discord.Permissions.all().value),
            "entitlements": [],
            "authorizing_integration_owners": {},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }

    async def _feed(self, data: dict[str, Any]) -> list[Call]:
        before = len(self.fake.calls)
        self.bot._connection.parse_interaction_create(data)  # type: ignore[arg-type]
        current = asyncio.current_task()
        for _ in range(20):
            tasks = [
                t
                for t in asyncio.all_tasks()
                if t is not current
                and not t.done()
                # the handlers, and the bot's own on_interaction (it remembers the language)
                and t.get_name().startswith(
                    ("CommandTree", "discord-ui", "discord.py: on_interaction")
                )
            ]
            if not tasks:
                break
            await asyncio.wait_for(asyncio.gather(*tasks), timeout=30)
        if self.errors:
            raise AssertionError(f"unexpected error in a handler: {self.errors[0]!r}") from (
                self.errors[0]
            )
        return self.fake.calls[before:]

    def _options(self, command: Any, values: dict[str, Any]) -> list[dict[str, Any]]:
        out = []
        for name, value in values.items():
            param = command._params[name]
            out.append({"name": name, "type": param.type.value, "value": value})
        return out

    def _command(self, path: str) -> tuple[Any, dict[str, Any], list[dict[str, Any]]]:
        """'game new' -> (command, top-level data, where its options go)."""
        parts = path.split()
        data: dict[str, Any] = {"id": "1", "name": parts[0], "type": 1, "options": []}
        top = self.bot.tree.get_command(parts[0])
        if top is None:  # a command registered in this guild only (the owner's /sync)
            top = self.bot.tree.get_command(parts[0], guild=discord.Object(GUILD_ID))
            data["guild_id"] = str(GUILD_ID)
        assert top is not None, path
        if len(parts) == 2:
            sub = top.get_command(parts[1])  # type: ignore[union-attr]
            assert sub is not None, path
            inner: dict[str, Any] = {"name": parts[1], "type": 1, "options": []}
            data["options"] = [inner]
            return sub, data, inner["options"]
        return top, data, data["options"]

    async def slash(
        self,
        user: User,
        path: str,
        *,
        channel: int = CHANNEL_ID,
        locale: str = "en-US",
        **options: Any,
    ) -> list[Call]:
        """Options with a :class:`User` value are user options: their id is sent, and the
        user in the payload's ``resolved`` part, as Discord does."""
        command, data, opts = self._command(path)
        people = {k: v for k, v in options.items() if isinstance(v, User)}
        values = {k: v.id if k in people else v for k, v in options.items() if v is not None}
        opts.extend(self._options(command, values))
        if people:
            data["resolved"] = {"users": {u.id: user_payload(u) for u in people.values()}}
        payload = self._base(user, channel, 2, locale)
        payload["data"] = data
        return await self._feed(payload)

    async def autocomplete(
        self, user: User, path: str, option: str, typed: str, *, channel: int, locale: str = "en-US"
    ) -> list[dict[str, Any]]:
        command, data, opts = self._command(path)
        param = command._params[option]
        opts.append({"name": option, "type": param.type.value, "value": typed, "focused": True})
        payload = self._base(user, channel, 4, locale)
        payload["data"] = data
        calls = await self._feed(payload)
        assert calls and calls[-1].callback_type == 8, calls
        return calls[-1].payload["data"]["choices"]

    async def click(
        self,
        user: User,
        custom_id: str,
        *,
        channel: int,
        values: list[str] | None = None,
        locale: str = "en-US",
    ) -> list[Call]:
        payload = self._base(user, channel, 3, locale)
        payload["data"] = {"custom_id": custom_id, "component_type": 3 if values else 2}
        if values:
            payload["data"]["values"] = values
        components, flags = self._components_with(custom_id, values)
        payload["message"] = message = self.fake.message(channel, {"content": "", "flags": flags})
        message["components"] = components
        return await self._feed(payload)

    def _components_with(self, custom_id: str, values: list[str] | None) -> tuple[list[Any], int]:
        """The components and flags of the latest message that carried this custom id (as
        Discord sends the message back with a click: a layout message keeps its flag),
        else a one-component row."""
        for call in reversed(self.fake.calls):
            if custom_id in call.custom_ids:
                return call.data["components"], int(call.data.get("flags") or 0) & (1 << 15)
        if values:
            options = [{"label": v, "value": v} for v in values]
            comp = {"type": 3, "custom_id": custom_id, "options": options}
        else:
            comp = {"type": 2, "style": 1, "label": "x", "custom_id": custom_id}
        return [{"type": 1, "components": [comp]}], 0

    async def deliver(self) -> int:
        return await self.bot.delivery.run_once()


@contextlib.asynccontextmanager
async def running(
    tmp_path: Path, monkeypatch: Any, *, database: Path | str | None = None, **settings: Any
) -> AsyncIterator[Harness]:
    """A started harness with both seams replaced; stopped (DB closed) afterwards.
    ``database``: the ``database`` fixture's location (either backend); else a file."""
    fake = FakeDiscord()
    clock = FakeClock(time.time())

    async def rest(http_self: Any, route: Any, **kw: Any) -> Any:
        return await fake.rest(route, **kw)

    async def hook(adapter_self: Any, route: Any, session: Any = None, **kw: Any) -> Any:
        return await fake.hook(route, session, **kw)

    # the store stamps rows (moves, outbox due times) with the same fake clock
    monkeypatch.setattr(bot.storage.clock, "time", types.SimpleNamespace(time=clock))
    monkeypatch.setattr(HTTPClient, "request", rest)
    monkeypatch.setattr(AsyncWebhookAdapter, "request", hook)
    harness = await Harness(database or tmp_path / "bot.db", fake, clock, **settings).start()
    try:
        yield harness
    finally:
        await harness.stop()
