"""Channel permissions checked against the bot's role, as Discord checks them.

``topics/permissions.mdx``:

- "Bitwise Permission Flags": the bits below;
- "Permission Overwrites": the bot's permissions in a channel are the guild's ``@everyone``
  role, ORed with the bot's own role, then the channel's ``@everyone`` overwrite, then the
  role overwrites, then the member's overwrite (deny before allow at each step);
  ``ADMINISTRATOR`` (or owning the guild) allows everything;
- "Implicit Permissions": without ``VIEW_CHANNEL`` nothing else in the channel counts;
  without ``SEND_MESSAGES`` neither do ``ATTACH_FILES`` nor ``EMBED_LINKS``;
- "Inherited Permissions (Threads)": a thread has its parent's permissions, except that
  posting in it takes ``SEND_MESSAGES_IN_THREADS`` (not ``SEND_MESSAGES``).

What each endpoint needs: ``resources/message.mdx`` "Create Message" ("Limitations":
``SEND_MESSAGES``; ``READ_MESSAGE_HISTORY`` for a reply), the flag table (``ATTACH_FILES``
"Allows for uploading images and files", ``EMBED_LINKS``); ``resources/channel.mdx``
"Start Thread without Message" (``CREATE_PUBLIC_THREADS`` / ``CREATE_PRIVATE_THREADS``,
the flags' table) and "Modify Channel" for a thread ("When setting ``archived`` to
``false``, when ``locked`` is also ``false``, only the ``SEND_MESSAGES`` permission is
required. Otherwise, requires the ``MANAGE_THREADS`` permission" — the thread's creator may
rename it and set its archive duration, as Discord's client lets a thread owner do).

The answers (``topics/opcodes-and-status-codes.mdx`` "JSON Error Codes"): a channel the bot
cannot see is 403 with 50001 "Missing Access"; a missing permission in a channel it sees is
403 with 50013 "Missing Permissions". DMs and the interaction endpoints (webhooks, bound to
the interaction's token) are not permission-checked.

Tests change permissions mid-match with :meth:`ChannelPermissions.revoke` /
:meth:`~ChannelPermissions.restore` (an overwrite on a channel for the bot's role, as a
server manager would set in the channel's settings) or :meth:`~ChannelPermissions.set_role`
(the bot's role in the guild); the bot hears of it as Discord tells it: ``CHANNEL_UPDATE``
or ``GUILD_ROLE_UPDATE`` (``events/gateway-events.mdx``).
"""

from __future__ import annotations

from typing import Any

from .core import Core
from .errors import ApiError

ADMINISTRATOR = 1 << 3
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL = (1 << 51) - 1

#: The flags by the names the table gives them (what the tests name).
FLAGS = {
    "ADMINISTRATOR": ADMINISTRATOR,
    "VIEW_CHANNEL": VIEW_CHANNEL,
    "SEND_MESSAGES": SEND_MESSAGES,
    "EMBED_LINKS": EMBED_LINKS,
    "ATTACH_FILES": ATTACH_FILES,
    "READ_MESSAGE_HISTORY": READ_MESSAGE_HISTORY,
    "MANAGE_THREADS": MANAGE_THREADS,
    "CREATE_PUBLIC_THREADS": CREATE_PUBLIC_THREADS,
    "CREATE_PRIVATE_THREADS": CREATE_PRIVATE_THREADS,
    "SEND_MESSAGES_IN_THREADS": SEND_MESSAGES_IN_THREADS,
}

#: ``@everyone`` in the local Discord's servers: view, send (also in threads), create
#: public threads — a usual community server.
EVERYONE = VIEW_CHANNEL | SEND_MESSAGES | SEND_MESSAGES_IN_THREADS | CREATE_PUBLIC_THREADS
#: The bot's role as its invite link asks for it (``bot/discord/client.py`` PERMISSIONS).
BOT_ROLE = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | SEND_MESSAGES_IN_THREADS
    | CREATE_PUBLIC_THREADS
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
)

MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013


def flag(name: str) -> int:
    try:
        return FLAGS[name]
    except KeyError:
        raise ValueError(f"unknown permission {name!r}; known: {', '.join(FLAGS)}") from None


class ChannelPermissions(Core):
    """The permission part of :class:`.server.FakeDiscord`."""

    def server_owner(self) -> dict[str, Any]:
        """Who owns the servers: the app's owner when the test named one, else a member
        "Server Owner" made on first use — never the bot, which Discord's "Permission
        Overwrites" would give every permission (``compute_base_permissions``)."""
        if self.owner_id is not None:
            return dict(self.members[self.owner_id]["user"])
        owner: dict[str, Any] | None = self.__dict__.get("_server_owner")
        if owner is None:
            owner = self.member("Server Owner", manager=True)
            self.__dict__["_server_owner"] = owner
        return owner

    def bot_role_id(self, guild_id: int) -> int:
        """The bot's managed role in a server (created when it joined): one id per guild."""
        roles: dict[int, int] = self.__dict__.setdefault("_bot_roles", {})
        if guild_id not in roles:
            roles[guild_id] = next(self.ids)
        return roles[guild_id]

    def role_permissions(self, guild_id: int) -> int:
        grants: dict[int, int] = self.__dict__.setdefault("_role_grants", {})
        return grants.get(guild_id, BOT_ROLE)

    def guild(self, guild_id: int | None = None) -> dict[str, Any]:
        """GUILD_CREATE with the bot's role and the bot as a member holding it (Discord
        always sends the current user's member object), so a client can work out its
        permissions in each channel as Discord does."""
        owner = self.server_owner()
        data = super().guild(guild_id)
        gid = int(data["id"])
        role = self.bot_role_id(gid)
        data["owner_id"] = owner["id"]
        data["roles"][0]["permissions"] = str(EVERYONE)
        data["roles"].append(self._role_json(gid))
        data["members"] = [
            {
                "user": self.bot_user(),
                "roles": [str(role)],
                "joined_at": data["joined_at"],
                "deaf": False,
                "mute": False,
                "flags": 0,
            }
        ]
        return data

    def _role_json(self, guild_id: int) -> dict[str, Any]:
        return {
            "id": str(self.bot_role_id(guild_id)),
            "name": "Tessera",
            "permissions": str(self.role_permissions(guild_id)),
            "position": 1,
            "color": 0,
            "hoist": False,
            "managed": True,
            "mentionable": False,
            "flags": 0,
            "tags": {"bot_id": str(self.BOT_ID)},
        }

    # ----- what a manager does ---------------------------------------------------------------
    async def set_role(self, permissions: int, guild_id: int | None = None) -> None:
        """The bot's role in a server now grants ``permissions`` (``GUILD_ROLE_UPDATE``)."""
        gid = guild_id or self.GUILD_ID
        self.__dict__.setdefault("_role_grants", {})[gid] = permissions
        await self.dispatch(
            "GUILD_ROLE_UPDATE", {"guild_id": str(gid), "role": self._role_json(gid)}
        )

    async def revoke(self, name: str, channel_id: int | None = None) -> None:
        """Deny the bot's role ``name`` (e.g. ``"ATTACH_FILES"``) in a text channel (and so
        in its threads) by a channel overwrite, as a manager would: ``CHANNEL_UPDATE``."""
        await self._overwrite(channel_id or self.CHANNEL_ID, deny=flag(name))

    async def restore(self, name: str, channel_id: int | None = None) -> None:
        """Take ``name`` out of the bot role's overwrite in the channel (``CHANNEL_UPDATE``)."""
        await self._overwrite(channel_id or self.CHANNEL_ID, undeny=flag(name))

    async def _overwrite(self, channel_id: int, *, deny: int = 0, undeny: int = 0) -> None:
        channel = self.channels[channel_id]
        if channel["type"] != 0:
            raise ValueError("overwrites are set on a text channel; its threads inherit them")
        role = str(self.bot_role_id(int(channel["guild_id"])))
        overwrites = channel.setdefault("permission_overwrites", [])
        entry = next((o for o in overwrites if o["id"] == role), None)
        if entry is None:
            entry = {"id": role, "type": 0, "allow": "0", "deny": "0"}
            overwrites.append(entry)
        entry["deny"] = str((int(entry["deny"]) | deny) & ~undeny)
        await self.dispatch("CHANNEL_UPDATE", channel)

    # ----- the computation -------------------------------------------------------------------
    def permissions_in(self, channel_id: int) -> int:
        """The bot's permissions in a guild channel or thread ("Permission Overwrites",
        "Inherited Permissions (Threads)"); everything in a DM."""
        channel = self.channels.get(channel_id)
        if channel is None or "guild_id" not in channel:
            return ALL
        if channel["type"] in (10, 11, 12) and channel.get("parent_id"):
            channel = self.channels.get(int(channel["parent_id"]), channel)
        gid = int(channel["guild_id"])
        base = EVERYONE | self.role_permissions(gid)
        if base & ADMINISTRATOR:
            return ALL
        overwrites = {o["id"]: o for o in channel.get("permission_overwrites") or []}
        for key in (str(gid), str(self.bot_role_id(gid)), str(self.BOT_ID)):
            entry = overwrites.get(key)
            if entry is not None:
                base = (base & ~int(entry["deny"])) | int(entry["allow"])
        if not base & VIEW_CHANNEL:  # "Implicit Permissions"
            return 0
        if not base & SEND_MESSAGES:
            base &= ~(ATTACH_FILES | EMBED_LINKS)
        return base

    def app_permissions_in(self, channel_id: int) -> int:
        """An interaction's ``app_permissions``: the bot's permissions where it happens."""
        return self.permissions_in(channel_id)

    def check_permissions(
        self, method: str, template: str, params: dict[str, str], body: Any, files: list[Any]
    ) -> None:
        """Refuse a request the bot's permissions do not allow: 50001 where it cannot see
        the channel, 50013 where it sees it but lacks what the request needs."""
        if "channel_id" not in params or template.startswith("/webhooks"):
            return
        try:
            channel = self.channels[int(params["channel_id"])]
        except (KeyError, ValueError):
            return  # the handler answers 10003 Unknown Channel
        if "guild_id" not in channel:
            return  # a DM
        have = self.permissions_in(int(channel["id"]))
        if not have & VIEW_CHANNEL:
            raise ApiError(403, MISSING_ACCESS, "Missing Access")
        need = _needs(method, template, channel, body or {}, files, self.BOT_ID)
        if need & ~have:
            raise ApiError(403, MISSING_PERMISSIONS, "Missing Permissions")


def _needs(
    method: str,
    template: str,
    channel: dict[str, Any],
    body: dict[str, Any],
    files: list[Any],
    bot_id: int,
) -> int:
    """The permissions a request needs beyond seeing the channel."""
    thread = channel["type"] in (10, 11, 12)
    need = 0
    if method == "POST" and template == "/channels/{channel_id}/messages":
        need |= SEND_MESSAGES_IN_THREADS if thread else SEND_MESSAGES
        if body.get("message_reference"):
            need |= READ_MESSAGE_HISTORY
    if method in ("POST", "PATCH") and "/messages" in template:
        if files:
            need |= ATTACH_FILES
        if body.get("embeds"):
            need |= EMBED_LINKS
    if method == "POST" and template == "/channels/{channel_id}/threads":
        need |= CREATE_PRIVATE_THREADS if body.get("type") == 12 else CREATE_PUBLIC_THREADS
    if method == "PATCH" and template == "/channels/{channel_id}" and thread:
        owner = channel.get("owner_id") == str(bot_id)
        others = (
            set(body)
            - {"archived", "locked"}
            - ({"name", "auto_archive_duration"} if owner else set())
        )
        # unarchiving a locked thread is refused by the thread's own rule with 160005
        # "Thread is locked" (.threads), the code Discord names for it
        if body.get("locked") or body.get("archived") or others:
            need |= MANAGE_THREADS
        if body.get("archived") is False:
            need |= SEND_MESSAGES
    return need
