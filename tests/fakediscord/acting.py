"""Members acting: slash commands, autocomplete and clicks, in the server or in a DM.

A test acts as a member: :meth:`MembersActing.slash`, :meth:`~MembersActing.autocomplete`
and :meth:`~MembersActing.click` send ``INTERACTION_CREATE`` as Discord would, from the
server's channels or from the member's DM with the bot (the channel decides:
:meth:`~.core.Core.dm_channel`; :meth:`~MembersActing.dm_slash` and
:meth:`~MembersActing.dm_click` are the DM's shortcuts). A member can only use what the
client offers: a command the bot synced, offered in that context
(:func:`.commands.offered`), a component really on a message they see; anything else
raises :class:`NotOffered` and nothing is dispatched.
"""

from __future__ import annotations

from typing import Any

from .commands import BOT_DM, GUILD, offered
from .core import TS
from .modals import submit_data
from .models import Interaction, Message
from .threads import ThreadRules

#: ``receiving-and-responding.mdx`` "Interaction Object", footnote \\*\\*\\*:
#: ``app_permissions`` "includes ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE … and
#: additionally includes USE_EXTERNAL_EMOJIS for DMs with the app's bot user"; with what a
#: DM always allows (view, send, read history, add reactions).
DM_APP_PERMISSIONS = (
    (1 << 6) | (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 17) | (1 << 18)
)


class NotOffered(AssertionError):
    """What a member tried is not something Discord's client would let them do (a
    command not offered there, a button not on the message): nothing was dispatched."""


class MembersActing(ThreadRules):
    """The members' actions of :class:`.server.FakeDiscord`."""

    def install_for_user(self, user: dict[str, Any]) -> None:
        """The member installs the app to their account (USER_INSTALL), if the app
        supports it (``resources/application.mdx`` "Installation Context")."""
        if 1 not in self.installs:
            raise NotOffered("the app does not support user installs")
        self.user_installs.add(int(user["id"]))

    def thread_rules_for(self, channel: dict[str, Any], itype: int) -> None:
        """Idle threads archive first; a command (or its autocomplete) in a thread the
        client offers none in is :class:`NotOffered` (:mod:`.threads`)."""
        self.age_threads()
        why = self.command_refused_in(channel) if itype in (2, 4) else None
        if why:
            raise NotOffered(why)

    def _interaction_payload(
        self,
        user: dict[str, Any],
        itype: int,
        channel_id: int,
        data: dict[str, Any],
        owners: dict[str, str] | None = None,
    ) -> tuple[Interaction, dict[str, Any]]:
        """An interaction as Discord sends it (``receiving-and-responding.mdx``
        "Interaction Structure"). From the server: ``guild_id``, ``member`` with its
        permissions, ``guild_locale``, context GUILD (0). From the member's DM with the
        bot: no ``guild_id``, no ``member`` — "``member`` is sent when the interaction is
        invoked in a guild, and ``user`` is sent when invoked in a DM" —, the DM channel
        (type 1), context BOT_DM (1), ``authorizing_integration_owners`` keyed by
        installation type ("Authorizing Integration Owners Object": a guild install's
        value is ``"0"`` in a DM with the bot)."""
        channel = self.channels[channel_id]
        self.thread_rules_for(channel, itype)  # archived threads offer no commands
        iid = next(self.ids)
        token = f"itok-{iid}"
        in_dm = channel["type"] == 1
        context = BOT_DM if in_dm else GUILD
        inter = Interaction(iid, token, itype, user, channel_id, data, self.now(), context)
        self.interactions[iid] = inter
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.APP_ID),
            "type": itype,
            "data": data,
            "channel_id": str(channel_id),
            "channel": channel,
            "token": token,
            "version": 1,
            "locale": "en-US",
            "entitlements": [],
            "context": context,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if in_dm:
            payload["user"] = user
            payload["app_permissions"] = str(DM_APP_PERMISSIONS)
            payload["authorizing_integration_owners"] = owners or {"0": "0"}
            return inter, payload
        manager = self.members[int(user["id"])]["manager"]
        perms = (1 << 11) | (1 << 38) | (1 << 10) | ((1 << 5) if manager else 0)
        guild = channel["guild_id"]  # the server of the channel (or thread) acted in
        payload["guild_id"] = guild
        payload["guild_locale"] = "en-US"
        payload["app_permissions"] = str(self.app_permissions_in(int(channel["id"])))
        payload["authorizing_integration_owners"] = owners or {"0": guild}
        payload["member"] = {
            "user": user,
            "roles": [],
            "joined_at": TS,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "permissions": str(perms),
        }
        return inter, payload

    def _command(
        self, user: dict[str, Any], name: str, channel_id: int
    ) -> tuple[dict[str, Any], dict[str, str]]:
        """The synced command a member picks in that channel's picker — the guild's
        first, as the client lists them; only global ones in a DM — and the interaction's
        authorizing owners; :class:`NotOffered` when the client would not offer it."""
        guild = self.guild_of(channel_id)
        context = BOT_DM if guild is None else GUILD
        scopes: tuple[int | None, ...] = (None,) if guild is None else (guild, None)
        synced = False
        for scope in scopes:
            for command in self.commands.get(scope, []):
                if command["name"] != name:
                    continue
                synced = True
                owners = offered(
                    command,
                    context,
                    guild_scoped=scope is not None,
                    guild_id=guild or 0,
                    user_id=int(user["id"]),
                    user_installed=int(user["id"]) in self.user_installs,
                )
                if owners is not None:
                    return command, owners
        if not synced and context == GUILD:
            raise NotOffered(f"/{name} was never synced: {self.visible_commands()}")
        where = "a DM with the bot" if context == BOT_DM else "the server"
        raise NotOffered(f"/{name} is not offered in {where} (contexts, integration types)")

    def visible_commands(self, guild_id: int | None = None) -> list[str]:
        """Command names as a member of a guild (the first by default) sees them in the
        picker: global ones and the guild's own, each listed (a name synced both ways
        shows twice)."""
        return sorted(
            [c["name"] for c in self.commands.get(None, [])]
            + [c["name"] for c in self.commands.get(guild_id or self.GUILD_ID, [])]
        )

    def _command_data(
        self, user: dict[str, Any], path: str, options: dict[str, Any], channel_id: int
    ) -> tuple[dict[str, Any], dict[str, str]]:
        """Build ``data`` for a slash command from the *synced* definition: a member can
        only use what the bot published and the client offers there."""
        parts = path.split()
        found, owners = self._command(user, parts[0], channel_id)
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
        return data, owners

    async def slash(
        self, user: dict[str, Any], path: str, /, channel_id: int | None = None, **options: Any
    ) -> Interaction:
        """``/path`` with its options, typed by ``user`` in ``channel_id`` (the games
        channel by default; a DM channel makes it a DM interaction). ``user`` and
        ``path`` are positional: a command may have an option named ``user``."""
        channel = channel_id or self.CHANNEL_ID
        given = {k: v for k, v in options.items() if v is not None}
        data, owners = self._command_data(user, path, given, channel)
        inter, payload = self._interaction_payload(user, 2, channel, data, owners)
        await self.dispatch("INTERACTION_CREATE", payload)
        return inter

    async def dm_slash(self, user: dict[str, Any], path: str, /, **options: Any) -> Interaction:
        """``/path`` typed by ``user`` in their DM with the bot."""
        return await self.slash(user, path, self.dm_channel(user), **options)

    async def slash_raw(
        self, user: dict[str, Any], name: str = "cmd", *, channel_id: int | None = None
    ) -> Interaction:
        """An interaction with no command behind it (for testing the endpoints alone)."""
        data = {"id": "1", "name": name, "type": 1}
        inter, payload = self._interaction_payload(user, 2, channel_id or self.CHANNEL_ID, data)
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
        channel = channel_id or self.CHANNEL_ID
        data, owners = self._command_data(user, path, {option: _Focused(typed)}, channel)
        inter, payload = self._interaction_payload(user, 4, channel, data, owners)
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
        """Press a button (or pick in a select) that is really on the message — in a row,
        a container or a section's accessory — and that this member can see (an
        ephemeral message only its recipient, a DM only its member)."""
        if message.id not in self.messages:
            raise NotOffered("that message is gone")
        if message.visible_to is not None and message.visible_to != int(user["id"]):
            raise NotOffered("an ephemeral message is only visible to its recipient")
        channel = self.channels[message.channel_id]
        if channel["type"] == 1 and channel["recipients"][0]["id"] != user["id"]:
            raise NotOffered("a DM is only visible to its member")
        comp = message.component(custom_id)
        if comp is None:
            raise NotOffered(f"no component {custom_id!r} on the message")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": comp["type"]}
        if comp["type"] == 3:
            allowed = {o["value"] for o in comp["options"]}
            if not values or not set(values) <= allowed:
                raise NotOffered(f"{values} not among the select's options")
            data["values"] = values
        inter, payload = self._interaction_payload(user, 3, message.channel_id, data)
        inter.message_id = message.id
        payload["message"] = self._message_json(message)
        await self.dispatch("INTERACTION_CREATE", payload)
        return inter

    async def submit(
        self, user: dict[str, Any], opened: Interaction, values: dict[str, str | list[str]]
    ) -> Interaction:
        """Submit the form (modal) that the bot opened in answer to ``opened``, with
        ``values`` (custom id -> chosen values or text; the rest as the form preset them),
        as MODAL_SUBMIT (5) from the same channel — with the component's ``message`` when
        a component opened it. Only the member it was shown to can submit it."""
        if opened.modal is None:
            raise NotOffered("no form was opened by that interaction")
        if opened.user["id"] != user["id"]:
            raise NotOffered("a form is only on the screen of the member it was shown to")
        data = submit_data(opened.modal, values)
        inter, payload = self._interaction_payload(user, 5, opened.channel_id, data)
        if opened.message_id is not None and opened.message_id in self.messages:
            inter.message_id = opened.message_id
            payload["message"] = self._message_json(self.messages[opened.message_id])
        await self.dispatch("INTERACTION_CREATE", payload)
        return inter

    async def dm_click(
        self, user: dict[str, Any], custom_id: str, values: list[str] | None = None
    ) -> Interaction:
        """Press ``custom_id`` on the latest message of ``user``'s DM with the bot that
        carries it."""
        carrying = [m for m in self.dms(user) if custom_id in m.custom_ids]
        if not carrying:
            raise NotOffered(f"no message in the DM carries {custom_id!r}")
        return await self.click(user, carrying[-1], custom_id, values)


class _Focused:
    """Marks the option being typed in an autocomplete interaction."""

    def __init__(self, text: str) -> None:
        self.text = text
