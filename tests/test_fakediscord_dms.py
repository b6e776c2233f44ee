"""Interactions from a DM with the bot arrive as Discord sends them, commands register
their contexts as Discord checks them, and a member can only run a command where the
client offers it (one test per rule)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from tests.fakediscord import FakeDiscord, NotOffered
from tests.fakediscord.commands import check_commands
from tests.fakediscord.rest import Rest, form_error

COMMANDS = "/applications/{}/commands"


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(routes={}) as f:
        yield f


def recording(fake: FakeDiscord) -> list[dict[str, Any]]:
    """The interactions the fake dispatches from now on (no bot is connected here)."""
    out: list[dict[str, Any]] = []

    async def record(event: str, data: dict[str, Any]) -> None:
        if event == "INTERACTION_CREATE":
            out.append(data)

    fake.dispatch = record  # type: ignore[method-assign]  # the gateway, as a recorder
    return out


@pytest.fixture
def sent(fake: FakeDiscord) -> list[dict[str, Any]]:
    return recording(fake)


def command(name: str = "list", **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": "Your matches", "type": 1, **extra}


async def sync(
    fake: FakeDiscord, http: Rest, *commands: dict[str, Any], guild: bool = False
) -> None:
    scope = f"/guilds/{fake.GUILD_ID}" if guild else ""
    answer = await http("PUT", f"/applications/{fake.APP_ID}{scope}/commands", list(commands))
    assert answer[0] == 200, answer[1]


# ----- registering contexts ------------------------------------------------------------------
@pytest.mark.parametrize("field, value", [("contexts", [0, 3]), ("integration_types", [0, 2])])
async def test_contexts_and_integration_types_are_known_values(
    fake: FakeDiscord, http: Rest, field: str, value: list[int]
) -> None:
    answer = await http("PUT", COMMANDS.format(fake.APP_ID), [{**command(), field: value}])
    assert form_error(answer, 0, field, 1) == "ENUM_TYPE_COERCE"
    assert f'Value "{value[1]}" is not a valid enum value.' in str(answer[1])


async def test_a_user_install_needs_the_app_to_support_it(fake: FakeDiscord, http: Rest) -> None:
    """The app here is installed to servers only (the portal's setting), so a command
    cannot ask for USER_INSTALL; an app that supports both may."""
    answer = await http("PUT", COMMANDS.format(fake.APP_ID), [command(integration_types=[0, 1])])
    assert form_error(answer, 0, "integration_types", 1)
    async with FakeDiscord(installs=(0, 1)) as both, Rest(both) as call:
        ok = await call("PUT", COMMANDS.format(both.APP_ID), [command(integration_types=[0, 1])])
        assert ok[0] == 200


def test_what_discord_py_sends_is_accepted() -> None:
    """discord.py 2.7 serialises ``allowed_contexts`` as ``contexts`` and
    ``allowed_installs`` as ``integration_types`` (``None`` when unset, with
    ``dm_permission``); the fake accepts exactly that."""
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))

    @app_commands.command(description="Your matches")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    @app_commands.allowed_installs(guilds=True, users=False)
    async def mine(interaction: discord.Interaction) -> None: ...

    @app_commands.command(description="Play")
    @app_commands.guild_only()
    async def play(interaction: discord.Interaction) -> None: ...

    payloads = [mine.to_dict(tree), play.to_dict(tree)]
    assert [(p["contexts"], p["integration_types"]) for p in payloads] == [
        ([0, 1], [0]),
        ([0], None),
    ]
    check_commands(payloads)


# ----- where a command is offered ------------------------------------------------------------
async def test_dm_slash_arrives_as_discord_sends_it(
    fake: FakeDiscord, http: Rest, sent: list[dict[str, Any]]
) -> None:
    """No ``guild_id``, no ``member``: ``user``, the DM channel, context 1 (BOT_DM), a
    guild install's owner ``"0"``; discord.py reads it as a DM interaction."""
    await sync(fake, http, command(contexts=[0, 1]))
    ann = fake.member("Ann")
    inter = await fake.dm_slash(ann, "list")
    (payload,) = sent
    assert "guild_id" not in payload and "member" not in payload and "guild_locale" not in payload
    assert payload["user"] == ann and payload["context"] == 1 and inter.context == 1
    assert payload["channel"]["type"] == 1 and payload["channel_id"] == str(fake.dm_channel(ann))
    assert payload["authorizing_integration_owners"] == {"0": "0"}
    assert payload["entitlements"] == [] and int(payload["app_permissions"]) & (1 << 18)
    state = discord.Client(intents=discord.Intents.none())._connection
    parsed = discord.Interaction(data=payload, state=state)  # type: ignore[arg-type]
    assert parsed.guild is None and isinstance(parsed.channel, discord.DMChannel)
    assert parsed.context.dm_channel and parsed.user.id == int(ann["id"])
    callback = f"/interactions/{inter.id}/{inter.token}/callback"
    assert (await http("POST", callback, {"type": 4, "data": {"content": "2 matches"}}))[0] == 200
    assert [m.content for m in fake.dms(ann)] == ["2 matches"]


@pytest.mark.parametrize(
    "synced",
    [
        {"contexts": [0]},  # what discord.py's guild_only sends
        {"contexts": None, "dm_permission": False},  # the deprecated switch
        {"guild": True},  # guild commands never show in DMs
    ],
)
async def test_a_command_not_offered_in_dms_cannot_be_run_there(
    fake: FakeDiscord, http: Rest, sent: list[dict[str, Any]], synced: dict[str, Any]
) -> None:
    guild = synced.pop("guild", False)
    await sync(fake, http, command(**synced), guild=guild)
    ann = fake.member("Ann")
    with pytest.raises(NotOffered):
        await fake.dm_slash(ann, "list")
    assert sent == []
    await fake.slash(ann, "list")  # in the server it is offered
    assert sent[0]["context"] == 0 and sent[0]["member"]["user"] == ann


async def test_a_dm_only_command_is_not_offered_in_the_server(
    fake: FakeDiscord, http: Rest, sent: list[dict[str, Any]]
) -> None:
    await sync(fake, http, command(contexts=[1]))
    with pytest.raises(NotOffered):
        await fake.slash(fake.member("Ann"), "list")
    assert sent == []


async def test_user_installed_commands_need_the_members_install() -> None:
    """A USER_INSTALL-only command shows for a member who installed the app, with the
    member as its authorizing owner."""
    async with FakeDiscord(installs=(0, 1)) as both, Rest(both) as call:
        await sync(both, call, command(contexts=[0, 1, 2], integration_types=[1]))
        sent = recording(both)
        ann = both.member("Ann")
        with pytest.raises(NotOffered):
            await both.dm_slash(ann, "list")
        both.install_for_user(ann)
        await both.dm_slash(ann, "list")
        assert sent[0]["authorizing_integration_owners"] == {"1": ann["id"]}


# ----- clicking in a DM ----------------------------------------------------------------------
async def test_a_button_in_a_dm_is_clicked_by_its_member_only(
    fake: FakeDiscord, http: Rest, sent: list[dict[str, Any]]
) -> None:
    ann, bob = fake.member("Ann"), fake.member("Bob")
    _, dm, _ = await http("POST", "/users/@me/channels", {"recipient_id": ann["id"]})
    section = {
        "type": 9,
        "components": [{"type": 10, "content": "Your turn in match 4"}],
        "accessory": {"type": 2, "style": 1, "label": "Move…", "custom_id": "tp:4"},
    }
    body = {"flags": 1 << 15, "components": [{"type": 17, "components": [section]}]}
    assert (await http("POST", f"/channels/{dm['id']}/messages", body))[0] == 200
    inter = await fake.dm_click(ann, "tp:4")
    (payload,) = sent
    assert payload["context"] == 1 and "member" not in payload and payload["user"] == ann
    assert payload["message"]["flags"] & (1 << 15) and inter.message_id is not None
    assert fake.dms(ann)[-1].content == "Your turn in match 4"
    with pytest.raises(NotOffered):
        await fake.click(bob, fake.dms(ann)[-1], "tp:4")


# ----- a second server -----------------------------------------------------------------------
async def test_a_second_server_has_its_own_channel_threads_and_commands(
    fake: FakeDiscord, http: Rest, sent: list[dict[str, Any]]
) -> None:
    """A member acting in the second server's channel sends its ``guild_id``; a thread
    opened there belongs to it; its guild commands show there only; the gateway announces
    both servers (READY's unavailable guilds, then a GUILD_CREATE each)."""
    gid, channel = await fake.add_guild("Second table")
    assert fake.guild_of(channel) == gid and fake.guild_of(fake.CHANNEL_ID) == fake.GUILD_ID
    assert fake.guild(gid)["name"] == "Second table"
    assert [c["id"] for c in fake.guild(gid)["channels"]] == [str(channel)]
    await sync(fake, http, command(contexts=[0, 1]))
    answer = await http("PUT", f"/applications/{fake.APP_ID}/guilds/{gid}/commands", [command("x")])
    assert answer[0] == 200
    ann = fake.member("Ann")
    await fake.slash(ann, "list", channel)
    await fake.slash(ann, "x", channel)
    with pytest.raises(NotOffered):
        await fake.slash(ann, "x")  # the first server has no /x
    assert [p["guild_id"] for p in sent] == [str(gid), str(gid)]
    assert sent[0]["authorizing_integration_owners"] == {"0": str(gid)}
    body = {"name": "t", "type": 11}
    status, thread, _ = await http("POST", f"/channels/{channel}/threads", body)
    assert status == 200 and thread["guild_id"] == str(gid) and fake.guild_of(int(thread["id"]))
    assert fake.visible_commands(gid) == ["list", "x"] and fake.visible_commands() == ["list"]
    outside = await http("PUT", f"/applications/{fake.APP_ID}/guilds/123/commands", [])
    assert outside[0] == 403


async def test_the_gateway_announces_every_server(fake: FakeDiscord) -> None:
    gid, _ = await fake.add_guild("Second table")
    async with aiohttp.ClientSession() as s, s.ws_connect(fake.gateway_url + "?v=10") as ws:
        await ws.receive_json(timeout=5)  # HELLO
        await ws.send_json({"op": 2, "d": {"token": fake.token, "intents": 1}})
        ready, first, second = [await ws.receive_json(timeout=5) for _ in range(3)]
        assert [g["id"] for g in ready["d"]["guilds"]] == [str(fake.GUILD_ID), str(gid)]
        assert [(f["t"], f["d"]["id"]) for f in (first, second)] == [
            ("GUILD_CREATE", str(fake.GUILD_ID)),
            ("GUILD_CREATE", str(gid)),
        ]
        third, _ = await fake.add_guild("Third table")  # joined while connected
        joined = await ws.receive_json(timeout=5)
        assert (joined["t"], joined["d"]["id"], joined["d"]["name"]) == (
            "GUILD_CREATE",
            str(third),
            "Third table",
        )
