"""The local Discord's permissions, per-route buckets, heartbeats, embeds, request size and
intents: each refused as Discord refuses it (the rules' sources are cited in
``tests/fakediscord/permissions.py``, ``buckets.py``, ``heartbeat.py``, ``embeds.py`` and
``gateway.py``). Requests go straight over HTTP or the websocket, as in
``tests/test_fakediscord.py``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.buckets import ROUTES, tight
from tests.fakediscord.rest import Rest

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 64


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(routes={}) as f:  # no per-route limits but where a test sets them
        yield f


def code(answer: tuple[int, Any, Any]) -> tuple[int, int | None]:
    status, body, _ = answer
    return status, (body or {}).get("code") if status >= 400 else None


async def thread(fake: FakeDiscord, http: Any) -> int:
    status, body, _ = await http(
        "POST", f"/channels/{fake.CHANNEL_ID}/threads", {"name": "match", "type": 11}
    )
    assert status == 200, body
    return int(body["id"])


# ----- permissions -------------------------------------------------------------------------
async def test_guild_create_carries_the_bots_role_and_member(fake: FakeDiscord) -> None:
    guild = fake.guild()
    role = str(fake.bot_role_id(fake.GUILD_ID))
    assert role in [r["id"] for r in guild["roles"]]
    (me,) = guild["members"]
    assert me["user"]["id"] == str(fake.BOT_ID) and me["roles"] == [role]
    assert guild["owner_id"] != str(fake.BOT_ID)  # else every permission would be allowed


async def test_missing_attach_files_is_50013_in_the_channel_and_its_threads(
    fake: FakeDiscord, http: Any
) -> None:
    tid = await thread(fake, http)
    await fake.revoke("ATTACH_FILES")
    for channel in (fake.CHANNEL_ID, tid):
        path = f"/channels/{channel}/messages"
        assert code(await http("POST", path, {"content": "board"}, [("b.png", PNG)])) == (
            403,
            50013,
        )
        assert code(await http("POST", path, {"content": "no board"})) == (200, None)
    await fake.restore("ATTACH_FILES")
    answer = await http("POST", f"/channels/{tid}/messages", {"content": "b"}, [("b.png", PNG)])
    assert code(answer) == (200, None)


async def test_posting_in_a_thread_takes_send_messages_in_threads(
    fake: FakeDiscord, http: Any
) -> None:
    tid = await thread(fake, http)
    await fake.revoke("SEND_MESSAGES_IN_THREADS")
    assert code(await http("POST", f"/channels/{tid}/messages", {"content": "x"})) == (403, 50013)
    assert (
        code(await http("POST", f"/channels/{fake.CHANNEL_ID}/messages", {"content": "x"}))[0]
        == 200
    )
    await fake.revoke("SEND_MESSAGES")  # the parent's send does not reach threads either way
    assert code(await http("POST", f"/channels/{fake.CHANNEL_ID}/messages", {"content": "x"})) == (
        403,
        50013,
    )


async def test_a_channel_out_of_sight_is_50001(fake: FakeDiscord, http: Any) -> None:
    tid = await thread(fake, http)
    await fake.revoke("VIEW_CHANNEL")
    for method, path in (
        ("POST", f"/channels/{tid}/messages"),
        ("GET", f"/channels/{tid}"),
        ("POST", f"/channels/{fake.CHANNEL_ID}/threads"),
    ):
        assert code(await http(method, path, {"content": "x", "name": "t"})) == (403, 50001)


async def test_threads_need_create_public_threads_and_locking_manage_threads(
    fake: FakeDiscord, http: Any
) -> None:
    tid = await thread(fake, http)
    unarchive = {"archived": False, "auto_archive_duration": 10080}  # the bot's keep-alive
    assert code(await http("PATCH", f"/channels/{tid}", unarchive)) == (200, None)
    assert code(await http("PATCH", f"/channels/{tid}", {"locked": True})) == (403, 50013)
    await fake.revoke("CREATE_PUBLIC_THREADS")
    assert code(await http("POST", f"/channels/{fake.CHANNEL_ID}/threads", {"name": "t"})) == (
        403,
        50013,
    )


async def test_embeds_need_embed_links_and_dms_are_not_checked(
    fake: FakeDiscord, http: Any
) -> None:
    await fake.revoke("EMBED_LINKS")
    embed = {"content": "x", "embeds": [{"title": "t"}]}
    path = f"/channels/{fake.CHANNEL_ID}/messages"
    assert code(await http("POST", path, embed)) == (403, 50013)
    await fake.set_role(0)  # the bot's role grants nothing: @everyone's permissions remain
    assert code(await http("POST", path, {"content": "x"})) == (200, None)
    assert code(await http("POST", path, {"content": "x"}, [("b.png", PNG)])) == (403, 50013)
    dm = fake.dm_channel(fake.member("Ann"))
    answer = await http("POST", f"/channels/{dm}/messages", embed, [("b.png", PNG)])
    assert code(answer) == (200, None)


async def test_interactions_carry_the_computed_app_permissions(fake: FakeDiscord) -> None:
    everything = fake.app_permissions_in(fake.CHANNEL_ID)
    await fake.revoke("ATTACH_FILES")
    assert fake.app_permissions_in(fake.CHANNEL_ID) == everything & ~(1 << 15)


# ----- the gateway: heartbeats and privileged intents ----------------------------------------
async def _identify(ws: Any, fake: FakeDiscord, intents: int = 1) -> dict[str, Any]:
    hello = await ws.receive_json(timeout=5)
    await ws.send_json({"op": 2, "d": {"token": fake.token, "intents": intents}})
    return dict(hello)


async def test_a_client_that_stops_heartbeating_is_closed_with_4009() -> None:
    """A client whose loop is blocked past the interval (it sends no heartbeat) is closed
    and its session ends; one that heartbeats on time stays connected."""
    async with FakeDiscord(heartbeat_ms=200) as fake, aiohttp.ClientSession() as s:
        async with s.ws_connect(fake.gateway_url + "?v=10") as ws:
            await _identify(ws, fake)
            for _ in range(6):  # 1.2 s of heartbeats every 150 ms: kept
                await asyncio.sleep(0.15)
                await ws.send_json({"op": 1, "d": None})
            assert not ws.closed and fake.heartbeat_timeouts == 0
            session = next(iter(fake.sessions))
            await asyncio.sleep(0.4)  # blocked: more than the interval and its tolerance
            frames = []
            while (msg := await ws.receive(timeout=5)).type == aiohttp.WSMsgType.TEXT:
                frames.append(msg.json())  # the acks and events before the close
            assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 4009
            assert fake.heartbeat_timeouts == 1 and session not in fake.sessions
        async with s.ws_connect(fake.gateway_url + "?v=10") as ws:
            await ws.receive_json(timeout=5)
            await ws.send_json(
                {"op": 6, "d": {"token": fake.token, "session_id": session, "seq": 1}}
            )
            assert (await ws.receive_json(timeout=5)) == {"op": 9, "d": False}


@pytest.mark.parametrize("intent", [1 << 1, 1 << 8, 1 << 15])
async def test_privileged_intents_not_enabled_are_closed_with_4014(
    fake: FakeDiscord, intent: int
) -> None:
    async with aiohttp.ClientSession() as s, s.ws_connect(fake.gateway_url + "?v=10") as ws:
        await _identify(ws, fake, 1 | intent)
        msg = await ws.receive(timeout=5)
        assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 4014
    fake.privileged_enabled = intent  # turned on in the Developer Portal: accepted
    async with aiohttp.ClientSession() as s, s.ws_connect(fake.gateway_url + "?v=10") as ws:
        await _identify(ws, fake, 1 | intent)
        assert (await ws.receive_json(timeout=5))["t"] == "READY"


# ----- per-route buckets -----------------------------------------------------------------------
async def test_every_route_the_bot_uses_has_its_bucket() -> None:
    """A second request within the window on each route is 429'd with Discord's body and
    headers; the bucket is per top-level resource (another channel is not limited)."""
    async with FakeDiscord(routes=tight(60.0)) as fake, Rest(fake) as http:
        ann = fake.member("Ann")
        _, other = await fake.add_guild("Elsewhere")
        first = await http("POST", f"/channels/{fake.CHANNEL_ID}/messages", {"content": "x"})
        message = first[1]["id"]
        calls: list[tuple[str, str, Any]] = [
            ("PATCH", f"/channels/{fake.CHANNEL_ID}/messages/{message}", {"content": "y"}),
            ("POST", f"/channels/{fake.CHANNEL_ID}/threads", {"name": "t", "type": 11}),
            ("POST", "/users/@me/channels", {"recipient_id": ann["id"]}),
        ]
        for method, path, body in calls:
            assert (await http(method, path, body))[0] == 200
        calls.insert(0, ("POST", f"/channels/{fake.CHANNEL_ID}/messages", {"content": "x"}))
        for method, path, body in calls:
            status, answer, headers = await http(method, path, body)
            assert status == 429, (method, path, status)
            assert answer["global"] is False and 0 < answer["retry_after"] <= 60
            assert (
                headers["X-RateLimit-Remaining"] == "0" and headers["X-RateLimit-Scope"] == "user"
            )
            assert int(headers["Retry-After"]) >= 1 and headers["X-RateLimit-Bucket"]
        assert (await http("POST", f"/channels/{other}/messages", {"content": "x"}))[0] == 200
        thread = next(c for c in fake.channels.values() if c["type"] == 11)
        status, _, headers = await http("PATCH", f"/channels/{thread['id']}", {"archived": False})
        assert status == 200 and headers["X-RateLimit-Limit"] == "1"
        assert set(ROUTES) >= {f"{m} {t}" for m, t, *_ in _bot_routes(fake)}


def _bot_routes(fake: FakeDiscord) -> list[tuple[str, str]]:
    """The local Discord's routes the bot calls for matches, posts and answers (not the
    start-up calls, which come once)."""
    skip = {"/users/@me", "/oauth2/applications/@me", "/gateway/bot"}
    return [
        (method, template)
        for method, template, _h, _a, interaction in fake.ROUTES
        if template not in skip and "/callback" not in template and "commands" not in template
    ]


# ----- embeds and the request size -------------------------------------------------------------
async def test_embed_limits(fake: FakeDiscord, http: Any) -> None:
    path = f"/channels/{fake.CHANNEL_ID}/messages"

    async def field_refused(embeds: list[dict[str, Any]], *where: str | int) -> None:
        status, body, _ = await http("POST", path, {"embeds": embeds})
        assert status == 400 and body["code"] == 50035, body
        node = body["errors"]
        for part in where:
            node = node[str(part)]
        assert node["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"

    await field_refused([{"title": "t" * 257}], "embeds", 0, "title")
    await field_refused([{"description": "d" * 4097}], "embeds", 0, "description")
    field = {"name": "n", "value": "v"}
    await field_refused([{"fields": [field] * 26}], "embeds", 0, "fields")
    await field_refused(
        [{"fields": [{"name": "n", "value": "v" * 1025}]}], "embeds", 0, "fields", 0, "value"
    )
    await field_refused([{"footer": {"text": "f" * 2049}}], "embeds", 0, "footer", "text")
    await field_refused([{"title": "t"}] * 11, "embeds")
    await field_refused([{"description": "d" * 4000}, {"description": "d" * 2001}], "embeds")
    padded = [{"description": " " + "d" * 4000 + " "}, {"description": "d" * 2000}]
    assert (await http("POST", path, {"embeds": padded}))[0] == 200  # whitespace not counted


async def test_a_request_over_25_mib_is_413(fake: FakeDiscord, http: Any) -> None:
    path = f"/channels/{fake.CHANNEL_ID}/messages"
    nine = b"\0" * (9 * 1024 * 1024)
    status, body, _ = await http(
        "POST", path, {"content": "x"}, [(f"{i}.bin", nine) for i in range(3)]
    )
    assert (status, body["code"]) == (413, 40005)
    assert (await http("POST", path, {"content": "x"}, [("a.bin", nine), ("b.bin", nine)]))[
        0
    ] == 200
