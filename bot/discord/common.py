"""Small helpers shared by the cogs and the dynamic items.

Why here: every handler needs the same four things — who is asking (as a service User),
in which language, which match the channel belongs to, and one way to answer that works
whether or not the interaction was already acknowledged.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.matches.errors import ServiceError
from bot.matches.reports import MatchInfo, User
from render.words.catalogue import t
from rules import Game, get_game
from rules.registry import game_ids

if TYPE_CHECKING:
    from bot.discord.client import TesseraBot


class UserError(Exception):
    """A refusal written by the bot layer: a catalogue key plus values, rendered in the
    asker's language when it is reported."""

    def __init__(self, key: str, **values: Any) -> None:
        super().__init__(key)
        self.key = key
        self.values = values

    def text(self, locale: Any) -> str:
        return t(self.key, locale, **self.values)


#: Where a command that makes sense outside a server is offered: in servers and in a DM
#: with the bot (``allowed_contexts``, guild + BOT_DM). Discord honours it for global
#: commands only: a command synced to one guild never shows in DMs (client.py syncs
#: these globally in every sync mode).
DM_CONTEXTS: dict[str, bool] = {"guilds": True, "dms": True, "private_channels": False}
#: ``extras`` of a command that works in a DM with the bot; its top-level command must be
#: offered there (:data:`DM_CONTEXTS`). Any other command reached from a DM — a
#: subcommand of a group offered there for its siblings (``/game new``), or a guild-only
#: command a client still offers from an older registration — is answered with
#: :func:`dm_refusal`'s sentence before it runs.
IN_DMS: dict[str, Any] = {"dms": True}


def in_dm(interaction: discord.Interaction) -> bool:
    """The interaction comes from a DM with the bot: Discord sends no ``guild_id``, no
    ``member``, only ``user`` (context BOT_DM)."""
    return interaction.guild_id is None


def works_in_dms(command: object) -> bool:
    return bool(getattr(command, "extras", {}).get("dms"))


def offered_in_dms(command: object) -> bool:
    """A top-level command whose contexts include a DM with the bot."""
    contexts = getattr(command, "allowed_contexts", None)
    return isinstance(contexts, app_commands.AppCommandContext) and bool(contexts.dm_channel)


def dm_refusal(interaction: discord.Interaction) -> UserError | None:
    """The refusal of a command that does not work in a DM, naming it and where it works
    (and what does work here); None when the command may run."""
    command = interaction.command
    if not in_dm(interaction) or command is None or works_in_dms(command):
        return None
    name = getattr(command, "qualified_name", None) or command.name
    return UserError("err.dm_elsewhere", command=f"/{name}")


def bot_of(interaction: discord.Interaction) -> TesseraBot:
    return interaction.client  # type: ignore[return-value]


def user_of(interaction: discord.Interaction) -> User:
    return User(str(interaction.user.id), interaction.user.display_name)


def loc(interaction: discord.Interaction) -> str:
    return interaction.locale.value


def server_of(interaction: discord.Interaction) -> str | None:
    """The server an interaction comes from, as the store names it (None: a DM)."""
    return str(interaction.guild_id) if interaction.guild_id else None


def count_action(interaction: discord.Interaction, *, typing: bool = False) -> None:
    """Count a command, click or submit (``typing``: an autocomplete) against the flood
    limits (bot/discord/flood.py): a :class:`UserError` saying when to try again once over
    them."""
    bot_of(interaction).flood.act(str(interaction.user.id), server_of(interaction), typing=typing)


#: ``Interaction.extras`` key: a public "thinking…" reply is waiting for its content.
PUBLIC_LOADING = "tessera_public_loading"


async def defer(interaction: discord.Interaction, *, ephemeral: bool) -> None:
    """Acknowledge now ("thinking…"), remembering whether the loading reply is public:
    :func:`answer` needs to know (see there)."""
    await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    interaction.extras[PUBLIC_LOADING] = not ephemeral


async def answer(
    interaction: discord.Interaction, content: str, *, ephemeral: bool = True, **kwargs: Any
) -> None:
    """Reply whether or not the interaction was already acknowledged (deferred).

    After a *public* defer, Discord turns the first follow-up into an edit of the public
    loading message and ignores the ephemeral flag (discord-api-docs,
    ``interactions/receiving-and-responding.mdx`` "Create Followup Message"). So a private
    answer there first closes the loading message with a neutral public line and then
    goes out as a second, really ephemeral follow-up.
    """
    if not interaction.response.is_done():
        await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)
        return
    if interaction.extras.pop(PUBLIC_LOADING, False) and ephemeral:
        await interaction.edit_original_response(
            content=t(
                "reply.see_private",
                interaction.guild_locale,
                user=interaction.user.display_name,
            )
        )
    await interaction.followup.send(content, ephemeral=ephemeral, **kwargs)


async def match_here(interaction: discord.Interaction, explicit: int | None = None) -> int:
    """The match a command is about: the number given, else the match of this thread.

    A number given wins over the thread it is typed in (``/game start match:B`` in the
    thread of match A starts B): the asker named it, and the service then checks that
    they may act on it. A match of another server is refused as no match here, an
    unknown number by the service ("there is no match #N"); nothing falls back to the
    thread's match."""
    if explicit is not None:
        await same_server(interaction, explicit)
        return explicit
    if interaction.channel_id is not None:
        found = await bot_of(interaction).service.match_for_thread(str(interaction.channel_id))
        if found is not None:
            return found
    raise UserError("err.no_match_here")


async def same_server(interaction: discord.Interaction, match_id: int) -> None:
    """A match number (typed, or carried by a button) only reaches matches of the server
    it is used in: a member, even a manager, of another server cannot join, start, abort
    or reconfigure it. Unknown numbers are left to the service ("there is no match").

    In a DM with the bot there is no server to compare: the turn controls, reminders and
    ``/hand match:N`` there name a match of any server, and what may be done with it is
    decided by who is asking (``interaction.user``: their seat, checked by the service
    and the panel's gate), exactly as in the match's thread."""
    if in_dm(interaction):
        return
    service = bot_of(interaction).service
    try:
        info = await service.info(match_id)
    except ServiceError:
        return
    check_server(interaction, info)


def check_server(interaction: discord.Interaction, info: MatchInfo) -> None:
    """:func:`same_server` for a caller that has just read the match anyway (a DM
    passes: see there)."""
    if in_dm(interaction):
        return
    if info.guild_id is not None and info.guild_id != str(interaction.guild_id):
        raise UserError("err.other_server", match=info.id)


def check_running(info: MatchInfo) -> None:
    """Refuse acting on a match that is not being played, saying why: it has not
    started yet, or it is over (one "is not running" said neither)."""
    if info.status == "lobby":
        raise UserError("svc.not_started", match=info.id)
    if info.status != "running":
        raise UserError("svc.over", match=info.id)


def game_named(game: str) -> Game:
    """The game a ``game`` option names. Discord offers the games as choices, but a
    command registered before a game was renamed or removed still sends the old value:
    refused naming the games, never another game's table or a traceback."""
    if game not in game_ids():
        raise UserError("svc.no_game", game=game, games=", ".join(game_ids()))
    return get_game(game)


def is_manager(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and (perms.manage_guild or perms.administrator))


def payload(interaction: discord.Interaction) -> Mapping[str, object]:
    """What a component sent (custom id, select values), as a plain mapping: discord.py
    types it as a union of payload shapes, which only a mapping lookup fits."""
    return interaction.data or {}


def selected(interaction: discord.Interaction) -> list[str]:
    """The values a select menu sent, as text (none when the payload holds no list)."""
    values = payload(interaction).get("values")
    return [str(v) for v in values] if isinstance(values, list) else []


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def newest_lines(lines: list[str], limit: int) -> str:
    """The last lines that fit in ``limit`` characters (a log is read for its newest
    entries; clipping the end would cut exactly those), "…" first when some were left out."""
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        line = clip(line, limit - 2)
        if size + len(line) + 1 > limit - 2:
            break
        kept.append(line)
        size += len(line) + 1
    if len(kept) < len(lines):
        kept.append("…")
    return "\n".join(reversed(kept))
