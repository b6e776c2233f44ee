"""The local Discord refuses what Discord refuses (one test per enforced rule).

Requests go straight over HTTP/websocket to the fake, as any client would send them, so
these tests show that a bad request is refused with Discord's status, code and body, and
that the matching good request passes.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.limits import command_size

BIG = 10 * 1024 * 1024


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(routes={"POST /channels/{channel_id}/messages": (5, 60.0)}) as f:
        yield f


def post(fake: FakeDiscord, channel: int | None = None) -> str:
    return f"/channels/{channel or fake.CHANNEL_ID}/messages"


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def button(custom_id: str | None = "b", label: str = "Go", **extra: Any) -> dict[str, Any]:
    out = {"type": 2, "style": 1, "label": label, **extra}
    if custom_id is not None:
        out["custom_id"] = custom_id
    return out


def select(n: int, custom_id: str = "s") -> dict[str, Any]:
    options = [{"label": f"o{i}", "value": str(i)} for i in range(n)]
    return {"type": 3, "custom_id": custom_id, "options": options}


def refused(result: tuple[int, Any, Any], code: int, field: str | None = None) -> bool:
    status, body, _ = result
    ok = status in (400, 413) and body["code"] == code
    if field is not None:
        ok = ok and field in json.dumps(body.get("errors", {}))
    return ok


# ----- messages ------------------------------------------------------------------------
async def test_content_up_to_2000_characters(fake: FakeDiscord, http: Any) -> None:
    assert refused(await http("POST", post(fake), {"content": "x" * 2001}), 50035, "content")
    assert (await http("POST", post(fake), {"content": "x" * 2000}))[0] == 200


async def test_an_empty_message_is_refused(fake: FakeDiscord, http: Any) -> None:
    assert refused(await http("POST", post(fake), {"content": ""}), 50006)


async def test_at_most_five_action_rows(fake: FakeDiscord, http: Any) -> None:
    rows = [row(button(f"b{i}")) for i in range(6)]
    assert refused(await http("POST", post(fake), {"components": rows}), 50035, "components")
    assert (await http("POST", post(fake), {"components": rows[:5]}))[0] == 200


async def test_five_buttons_per_row_and_no_mixing(fake: FakeDiscord, http: Any) -> None:
    six = row(*[button(f"b{i}") for i in range(6)])
    assert refused(await http("POST", post(fake), {"components": [six]}), 50035)
    mixed = row(button("b"), select(2))
    assert refused(await http("POST", post(fake), {"components": [mixed]}), 50035)
    two_selects = row(select(2, "s1"), select(2, "s2"))
    assert refused(await http("POST", post(fake), {"components": [two_selects]}), 50035)


async def test_custom_id_1_to_100_and_unique(fake: FakeDiscord, http: Any) -> None:
    for cid in ("", "x" * 101):
        bad = {"components": [row(button(cid))]}
        assert refused(await http("POST", post(fake), bad), 50035, "custom_id")
    missing = {"components": [row(button(None))]}
    assert refused(await http("POST", post(fake), missing), 50035, "custom_id")
    twice = {"components": [row(button("same"), button("same"))]}
    assert refused(await http("POST", post(fake), twice), 50035, "DUPLICATED")
    ok = {"components": [row(button("x" * 100))]}
    assert (await http("POST", post(fake), ok))[0] == 200


async def test_button_rules(fake: FakeDiscord, http: Any) -> None:
    assert refused(
        await http("POST", post(fake), {"components": [row(button(label="L" * 81))]}),
        50035,
        "label",
    )
    link_with_id = button("b", style=5, url="https://example.org")
    assert refused(await http("POST", post(fake), {"components": [row(link_with_id)]}), 50035)
    url_on_normal = button("b", url="https://example.org")
    assert refused(await http("POST", post(fake), {"components": [row(url_on_normal)]}), 50035)


async def test_select_options_1_to_25(fake: FakeDiscord, http: Any) -> None:
    assert refused(
        await http("POST", post(fake), {"components": [row(select(26))]}), 50035, "options"
    )
    long_label = select(1)
    long_label["options"][0]["label"] = "l" * 101
    assert refused(await http("POST", post(fake), {"components": [row(long_label)]}), 50035)
    assert (await http("POST", post(fake), {"components": [row(select(25))]}))[0] == 200


async def test_at_most_10_files_of_10_mib(fake: FakeDiscord, http: Any) -> None:
    eleven = [(f"f{i}.png", b"x") for i in range(11)]
    assert refused(await http("POST", post(fake), {}, eleven), 50035, "files")
    too_big = await http("POST", post(fake), {}, [("big.png", b"x" * (BIG + 1))])
    assert too_big[0] == 413 and too_big[1]["code"] == 40005
    assert (await http("POST", post(fake), {}, [("ok.png", b"x" * 100)]))[0] == 200


async def test_attachment_descriptions_are_checked_stored_and_returned(
    fake: FakeDiscord, http: Any
) -> None:
    """``resources/message.mdx`` "Attachment Object": a file's description (alt text) is at
    most 1,024 characters; it is kept with the file, returned in the message's
    attachments, and an edit may change a kept file's description."""
    too_long = {"attachments": [{"id": 0, "description": "d" * 1025}]}
    assert refused(await http("POST", post(fake), too_long, [("a.png", b"x")]), 50035)
    said = {"attachments": [{"id": 0, "description": "A board, round 3."}]}
    status, created, _ = await http("POST", post(fake), said, [("a.png", b"x")])
    assert status == 200 and created["attachments"][0]["description"] == "A board, round 3."
    (upload,) = fake.messages[int(created["id"])].files
    assert getattr(upload, "description", None) == "A board, round 3."  # kept with the file
    bare = await http("POST", post(fake), {}, [("b.png", b"x")])
    assert "description" not in bare[1]["attachments"][0]
    path = f"{post(fake)}/{created['id']}"
    kept = created["attachments"][0]["id"]
    edited = await http("PATCH", path, {"attachments": [{"id": kept, "description": "Round 4."}]})
    assert edited[0] == 200 and edited[1]["attachments"][0]["description"] == "Round 4."


async def test_allowed_mentions_shape(fake: FakeDiscord, http: Any) -> None:
    both = {"content": "hi", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}
    assert refused(await http("POST", post(fake), both), 50035, "allowed_mentions")
    bad_kind = {"content": "hi", "allowed_mentions": {"parse": ["people"]}}
    assert refused(await http("POST", post(fake), bad_kind), 50035, "parse")
    many = {"content": "hi", "allowed_mentions": {"users": [str(i) for i in range(101)]}}
    assert refused(await http("POST", post(fake), many), 50035, "users")
    fine = {"content": "hi", "allowed_mentions": {"parse": [], "users": ["1"]}}
    assert (await http("POST", post(fake), fine))[0] == 200


async def test_ephemeral_is_not_a_channel_message_flag(fake: FakeDiscord, http: Any) -> None:
    assert refused(await http("POST", post(fake), {"content": "x", "flags": 64}), 50035, "flags")


async def test_nonce_length_and_enforced_nonce(fake: FakeDiscord, http: Any) -> None:
    assert refused(await http("POST", post(fake), {"content": "x", "nonce": "n" * 26}), 50035)
    body = {"content": "once", "nonce": "tx1", "enforce_nonce": True}
    first = await http("POST", post(fake), body)
    second = await http("POST", post(fake), body)
    assert first[1]["id"] == second[1]["id"]
    assert [m.content for m in fake.posts(fake.CHANNEL_ID)] == ["once"]
    unenforced = {"content": "twice", "nonce": "tx2"}
    await http("POST", post(fake), unenforced)
    await http("POST", post(fake), unenforced)
    assert [m.content for m in fake.posts(fake.CHANNEL_ID)].count("twice") == 2


async def test_edit_message_attachments_author_and_age(fake: FakeDiscord, http: Any) -> None:
    """Edit Message (v10): ``attachments`` lists every file the message keeps — an old one
    by its id, a new ``files[n]`` by ``n``; an unlisted one goes (or is never attached);
    an id that is neither is a form error. Unknown messages, other authors' messages and
    messages older than an hour are refused with Discord's codes."""
    status, created, _ = await http("POST", post(fake), {"content": "board"}, [("a.png", b"x")])
    assert status == 200
    path = f"{post(fake)}/{created['id']}"
    old_id = created["attachments"][0]["id"]
    replaced = await http(
        "PATCH", path, {"content": "new", "attachments": [{"id": 0}]}, [("b.png", b"yy")]
    )
    assert replaced[0] == 200 and [a["filename"] for a in replaced[1]["attachments"]] == ["b.png"]
    assert replaced[1]["content"] == "new" and replaced[1]["edited_timestamp"]
    kept_id = replaced[1]["attachments"][0]["id"]
    both = await http(
        "PATCH", path, {"attachments": [{"id": kept_id}, {"id": 0}]}, [("c.png", b"z")]
    )
    assert [a["filename"] for a in both[1]["attachments"]] == ["b.png", "c.png"]
    unlisted = await http("PATCH", path, {"attachments": []}, [("d.png", b"z")])
    assert unlisted[0] == 200 and unlisted[1]["attachments"] == []
    assert refused(await http("PATCH", path, {"attachments": [{"id": old_id}]}), 50035)
    assert refused(await http("PATCH", path, {"content": "x" * 2001}), 50035, "content")
    missing = await http("PATCH", f"{post(fake)}/123", {"content": "x"})
    assert (missing[0], missing[1]["code"]) == (404, 10008)
    member = fake.member("Someone")
    fake.messages[int(created["id"])].author_id = int(member["id"])
    theirs = await http("PATCH", path, {"content": "x"})
    assert (theirs[0], theirs[1]["code"]) == (403, 50005)
    fake.messages[int(created["id"])].author_id = fake.BOT_ID
    fake.skew += 3601  # an hour later
    late = await http("PATCH", path, {"content": "x"})
    assert (late[0], late[1]["code"]) == (400, 30046)
    assert fake.messages[int(created["id"])].content == "new"


async def test_unknown_channel_and_bad_token(fake: FakeDiscord, http: Any) -> None:
    status, body, _ = await http("POST", post(fake, 123), {"content": "x"})
    assert (status, body["code"]) == (404, 10003)
    async with (
        aiohttp.ClientSession(headers={"Authorization": "Bot wrong"}) as s,
        s.get(fake.api + "/users/@me") as r,
    ):
        assert r.status == 401


async def test_thread_name_and_archive_duration(fake: FakeDiscord, http: Any) -> None:
    path = f"/channels/{fake.CHANNEL_ID}/threads"
    assert refused(await http("POST", path, {"name": "", "type": 11}), 50035, "name")
    bad = {"name": "m", "type": 11, "auto_archive_duration": 5}
    assert refused(await http("POST", path, bad), 50035, "auto_archive_duration")
    status, thread, _ = await http("POST", path, {"name": "m", "type": 11})
    assert status == 200
    edit = await http("PATCH", f"/channels/{thread['id']}", {"auto_archive_duration": 7})
    assert refused(edit, 50035)


# ----- rate limits ---------------------------------------------------------------------
async def test_route_bucket_429_with_headers_per_channel(fake: FakeDiscord, http: Any) -> None:
    for i in range(5):
        status, _, headers = await http("POST", post(fake), {"content": str(i)})
        assert status == 200 and headers["X-RateLimit-Remaining"] == str(4 - i)
        assert headers["X-RateLimit-Limit"] == "5" and "X-RateLimit-Bucket" in headers
    status, body, headers = await http("POST", post(fake), {"content": "6"})
    assert status == 429 and body["global"] is False and body["retry_after"] > 0
    assert headers["X-RateLimit-Scope"] == "user" and int(headers["Retry-After"]) >= 1
    assert "6" not in [m.content for m in fake.posts(fake.CHANNEL_ID)]
    # a different top-level resource (another channel) has its own bucket
    status, thread, _ = await http(
        "POST", f"/channels/{fake.CHANNEL_ID}/threads", {"name": "t", "type": 11}
    )
    assert (await http("POST", post(fake, int(thread["id"])), {"content": "x"}))[0] == 200


async def test_global_limit_spares_interaction_endpoints(fake: FakeDiscord, http: Any) -> None:
    fake.limits.global_window.limit = 3
    for _ in range(3):
        assert (await http("GET", "/users/@me"))[0] == 200
    status, body, headers = await http("GET", "/users/@me")
    assert status == 429 and body["global"] is True and headers["X-RateLimit-Global"] == "true"
    user = fake.member("Ann")
    inter = await fake.slash_raw(user)
    answer = {"type": 4, "data": {"content": "still answered"}}
    assert (await http("POST", f"/interactions/{inter.id}/{inter.token}/callback", answer))[
        0
    ] == 200


# ----- interactions ------------------------------------------------------------------------
async def test_one_initial_response_per_interaction(fake: FakeDiscord, http: Any) -> None:
    inter = await fake.slash_raw(fake.member("Ann"))
    path = f"/interactions/{inter.id}/{inter.token}/callback"
    assert (await http("POST", path, {"type": 4, "data": {"content": "a"}}))[0] == 200
    assert refused(await http("POST", path, {"type": 4, "data": {"content": "b"}}), 40060)


async def test_three_second_deadline(fake: FakeDiscord, http: Any) -> None:
    inter = await fake.slash_raw(fake.member("Ann"))
    fake.skew += 3.01
    status, body, _ = await http(
        "POST", f"/interactions/{inter.id}/{inter.token}/callback", {"type": 5}
    )
    assert (status, body["code"]) == (404, 10062)


async def test_fifteen_minute_token(fake: FakeDiscord, http: Any) -> None:
    inter = await fake.slash_raw(fake.member("Ann"))
    await http("POST", f"/interactions/{inter.id}/{inter.token}/callback", {"type": 5})
    hook = f"/webhooks/{fake.APP_ID}/{inter.token}"
    fake.skew += 14 * 60
    assert (await http("POST", hook, {"content": "in time"}))[0] == 200
    fake.skew += 61
    status, body, _ = await http("POST", hook, {"content": "too late"})
    assert (status, body["code"]) == (401, 50027)


async def test_no_follow_up_before_the_initial_response(fake: FakeDiscord, http: Any) -> None:
    inter = await fake.slash_raw(fake.member("Ann"))
    status, body, _ = await http("POST", f"/webhooks/{fake.APP_ID}/{inter.token}", {"content": "x"})
    assert (status, body["code"]) == (404, 10015)


async def test_follow_up_after_public_defer_stays_public(fake: FakeDiscord, http: Any) -> None:
    inter = await fake.slash_raw(fake.member("Ann"))
    await http("POST", f"/interactions/{inter.id}/{inter.token}/callback", {"type": 5})
    hook = f"/webhooks/{fake.APP_ID}/{inter.token}"
    _, first, _ = await http("POST", hook, {"content": "secret", "flags": 64})
    assert first["id"] == str(inter.original_id) and not first["flags"] & 64
    _, second, _ = await http("POST", hook, {"content": "secret", "flags": 64})
    assert second["id"] != first["id"] and second["flags"] & 64


async def test_callback_types_match_the_interaction(fake: FakeDiscord, http: Any) -> None:
    inter = await fake.slash_raw(fake.member("Ann"))
    path = f"/interactions/{inter.id}/{inter.token}/callback"
    assert refused(await http("POST", path, {"type": 7, "data": {"content": "x"}}), 50035)
    assert refused(await http("POST", path, {"type": 5, "data": {"flags": 4}}), 50035)
    assert (await http("POST", path, {"type": 5, "data": {"flags": 64}}))[0] == 200


async def test_autocomplete_at_most_25_choices(fake: FakeDiscord, http: Any) -> None:
    await http("PUT", f"/applications/{fake.APP_ID}/commands", [_command(auto=True)])
    choices = [{"name": f"c{i}", "value": str(i)} for i in range(26)]
    for data, ok in ((choices, False), (choices[:25], True)):
        user = fake.member("Ann")
        inter, payload = fake._interaction_payload(user, 4, fake.CHANNEL_ID, {"name": "cmd"})
        path = f"/interactions/{inter.id}/{inter.token}/callback"
        result = await http("POST", path, {"type": 8, "data": {"choices": data}})
        assert (result[0] == 200) is ok


# ----- application commands ------------------------------------------------------------------
def _command(auto: bool = False, **extra: Any) -> dict[str, Any]:
    option: dict[str, Any] = {"type": 3, "name": "move", "description": "What to play"}
    if auto:
        option["autocomplete"] = True
    return {"name": "cmd", "description": "A command", "type": 1, "options": [option], **extra}


async def test_command_fields_and_localisations(fake: FakeDiscord, http: Any) -> None:
    path = f"/applications/{fake.APP_ID}/commands"
    assert (await http("PUT", path, [_command()]))[0] == 200
    cases = [
        _command(description="d" * 101),
        _command(name="Cmd"),
        _command(description_localizations={"hu": "h" * 101}),
        _command(description_localizations={"xx": "valid text"}),
        _command(name_localizations={"de": "Großes Kommando"}),
    ]
    for bad in cases:
        assert refused(await http("PUT", path, [bad]), 50035), bad
    assert [c["name"] for c in fake.commands[None]] == ["cmd"]  # nothing replaced


async def test_options_rules(fake: FakeDiscord, http: Any) -> None:
    path = f"/applications/{fake.APP_ID}/commands"
    choices = [{"name": "a", "value": "a"}]
    both = _command(auto=True)
    both["options"][0]["choices"] = choices
    order = _command()
    order["options"] = [
        {"type": 3, "name": "a", "description": "x"},
        {"type": 3, "name": "b", "description": "x", "required": True},
    ]
    many = _command()
    many["options"] = [{"type": 3, "name": f"o{i}", "description": "x"} for i in range(26)]
    many_choices = _command()
    many_choices["options"][0]["choices"] = [{"name": f"c{i}", "value": str(i)} for i in range(26)]
    for bad in (both, order, many, many_choices):
        assert refused(await http("PUT", path, [bad]), 50035)


async def test_8000_characters_counting_the_longest_localisation(
    fake: FakeDiscord, http: Any
) -> None:
    """Each option's English text is short; a 100-character localisation of each of 25
    options x (description + 25 choice names) pushes the count over 8,000."""
    command = _command()
    command["options"] = [
        {
            "type": 3,
            "name": f"o{i}",
            "description": "x",
            "choices": [{"name": f"c{j}", "value": str(j)} for j in range(3)],
        }
        for i in range(25)
    ]
    plain = json.loads(json.dumps(command))
    for opt in command["options"]:
        opt["description_localizations"] = {"hu": "h" * 100}
        for choice in opt["choices"]:
            choice["name_localizations"] = {"de": "d" * 100}
    assert command_size(plain) < 8000 < command_size(command)
    path = f"/applications/{fake.APP_ID}/commands"
    assert refused(await http("PUT", path, [command]), 50035, "APPLICATION_COMMAND_TOO_LARGE")
    assert (await http("PUT", path, [plain]))[0] == 200


# ----- the gateway ------------------------------------------------------------------------------
async def _frames(ws: Any, inflator: Any, count: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    while len(out) < count:
        msg = await ws.receive(timeout=5)
        assert msg.type == aiohttp.WSMsgType.BINARY, msg
        out.append(json.loads(inflator.decompress(msg.data)))
    return out


async def test_gateway_hello_identify_ready_zlib_stream(fake: FakeDiscord) -> None:
    url = fake.gateway_url + "?v=10&encoding=json&compress=zlib-stream"
    async with aiohttp.ClientSession() as s, s.ws_connect(url) as ws:
        inflator = zlib.decompressobj()  # one context for the whole connection
        (hello,) = await _frames(ws, inflator, 1)
        assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
        await ws.send_json({"op": 2, "d": {"token": fake.token, "intents": 1, "properties": {}}})
        ready, guild = await _frames(ws, inflator, 2)
        assert (ready["t"], ready["s"], guild["t"], guild["s"]) == ("READY", 1, "GUILD_CREATE", 2)
        assert ready["d"]["resume_gateway_url"] == fake.gateway_url
        await ws.send_json({"op": 1, "d": 2})
        (ack,) = await _frames(ws, inflator, 1)
        assert ack["op"] == 11
        await ws.send_json({"op": 2, "d": {"token": fake.token, "intents": 1}})
        assert (await ws.receive(timeout=5)).data == 4005  # already authenticated


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ({"op": 2, "d": {"token": "wrong", "intents": 1}}, 4004),
        ({"op": 8, "d": {}}, 4003),
        ({"op": 99}, 4001),
        ({"op": 2, "d": {"token": "fake-token"}}, 4013),
    ],
)
async def test_gateway_close_codes(fake: FakeDiscord, frame: dict[str, Any], code: int) -> None:
    async with aiohttp.ClientSession() as s, s.ws_connect(fake.gateway_url + "?v=10") as ws:
        await ws.receive_json(timeout=5)  # HELLO (uncompressed: none asked for)
        await ws.send_json(frame)
        msg = await ws.receive(timeout=5)
        assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == code


async def test_gateway_refuses_another_api_version(fake: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as s, s.ws_connect(fake.gateway_url + "?v=6") as ws:
        msg = await ws.receive(timeout=5)
        assert msg.data == 4012


async def test_gateway_resume_replays_missed_events(fake: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as s:
        async with s.ws_connect(fake.gateway_url + "?v=10") as ws:
            await ws.receive_json(timeout=5)
            await ws.send_json({"op": 2, "d": {"token": fake.token, "intents": 1}})
            ready = await ws.receive_json(timeout=5)
            await ws.receive_json(timeout=5)
            await fake.drop_gateway()
        session = ready["d"]["session_id"]
        await fake.dispatch("THREAD_UPDATE", {"id": "1"})  # sent while disconnected
        async with s.ws_connect(ready["d"]["resume_gateway_url"] + "?v=10") as ws:
            await ws.receive_json(timeout=5)
            await ws.send_json(
                {"op": 6, "d": {"token": fake.token, "session_id": session, "seq": 2}}
            )
            missed = await ws.receive_json(timeout=5)
            resumed = await ws.receive_json(timeout=5)
            assert (missed["t"], missed["s"], resumed["t"]) == ("THREAD_UPDATE", 3, "RESUMED")
            bad = {"op": 6, "d": {"token": fake.token, "session_id": "nope", "seq": 1}}
            await ws.send_json(bad)
            assert (await ws.receive_json(timeout=5)) == {"op": 9, "d": False}
