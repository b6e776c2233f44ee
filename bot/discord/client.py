"""The Discord client: a ``commands.Bot`` that loads the cogs, registers the dynamic
items, and runs the outbox worker and the scheduler.

Why these intents and permissions: slash commands, buttons and posting need no privileged
intent — only ``guilds`` (channel and thread events). The permission set is the least the
bot needs to open match threads and post pictures in them (see docs/discord.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any, Literal

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot.community.leagues import Leagues
from bot.computers.driver import ComputerDriver
from bot.discord.common import (
    UserError,
    answer,
    count_action,
    dm_refusal,
    loc,
    offered_in_dms,
)
from bot.discord.delivery import OutboxWorker
from bot.discord.flood import Flood, Limits
from bot.discord.i18n import CatalogueTranslator
from bot.discord.items import DYNAMIC_ITEMS
from bot.discord.permissions import Permits
from bot.discord.scheduler import Scheduler
from bot.matches.errors import ServiceError
from bot.matches.lost_commits import database_answer
from bot.matches.service import MatchService
from bot.settings import DISCORD_API, Settings
from bot.storage import ShardSlice
from render.words.catalogue import language_of, t

log = logging.getLogger(__name__)


def intents(members: bool = False) -> discord.Intents:
    """Only the ``guilds`` intent: no privileged intents (no message content, members or
    presences) are needed for slash commands and components. ``members`` (the setting
    ``TESSERA_MEMBERS_INTENT``, off by default) adds the privileged Server Members intent,
    only so that a player leaving the server opens their seat to a vote at once; without
    it the bot learns it when someone proposes a substitute (bot/discord/subs.py)."""
    value = discord.Intents.none()
    value.guilds = True
    value.members = members
    return value


#: View channels, send messages (also in threads), create public threads, embed links,
#: attach files (pictures), read message history (jump links, thread context).
PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
)


def invite_url(application_id: int) -> str:
    return discord.utils.oauth_url(
        application_id,
        permissions=PERMISSIONS,
        scopes=("bot", "applications.commands"),
    )


#: Commands for the bot's owner only: registered in the development guild, never globally.
OWNER_COMMANDS = ("sync",)


def use_api(base: str) -> None:
    """Send every REST call (commands, interaction responses, posts) to ``base``.

    discord.py keeps the REST base in one place, :attr:`discord.http.Route.BASE`, which the
    webhook adapter for interaction responses shares. The gateway URL follows in
    :meth:`TesseraBot.setup_hook`, once logged in (it needs the token).
    """
    discord.http.Route.BASE = base.rstrip("/")


class TesseraTree(app_commands.CommandTree):
    """Routes every command error to the bot's one error reporter, and answers a command
    that does not work in a DM with the bot with words when one arrives from there."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Before any command runs: from a DM, only the commands marked ``IN_DMS``
        (common.py). Autocomplete passes (its handlers answer an empty list where there is
        no match), so nothing is ever left without an answer."""
        typing = interaction.type == discord.InteractionType.autocomplete
        try:  # the flood limits (bot/discord/flood.py): autocomplete has its own allowance
            count_action(interaction, typing=typing)
        except UserError as over:
            if not typing:  # while typing, no suggestions is the answer
                await self.client.report_error(interaction, over)  # type: ignore[attr-defined]
            return False
        if typing:
            return True
        refusal = dm_refusal(interaction)
        if refusal is None:
            return True
        # the tree belongs to TesseraBot, which has report_error; discord.py types it as Client
        await self.client.report_error(interaction, refusal)  # type: ignore[attr-defined]
        return False

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await self.client.report_error(interaction, error)  # type: ignore[attr-defined]


class TesseraBot(commands.Bot):
    def __init__(
        self,
        settings: Settings,
        service: MatchService,
        *,
        clock: Callable[[], float] = time.time,
        background: bool = True,
        sync_on_start: bool = False,
        **options: Any,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(settings.members_intent),
            tree_cls=TesseraTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            max_ratelimit_timeout=30.0,
            **options,
        )
        self.settings = settings
        self.service = service
        sharding = settings.shard_ids()
        #: The servers whose posts and scheduling this process owns (None: all of them).
        self.shard_slice = ShardSlice(*sharding) if sharding else None
        self.clock = clock
        self.flood = Flood(Limits.of(settings), clock)
        self.background = background
        self.sync_on_start = sync_on_start
        self.delivery = OutboxWorker(self, clock)
        #: what the bot may do where; posts parked for a missing permission; managers told
        self.permits: Permits = self.delivery.permits
        self.scheduler = Scheduler(self, clock)
        #: computer players' turns and /hint (worker processes; see bot/computers/driver.py)
        self.computers = ComputerDriver(
            service, workers=settings.ai_workers, shards=self.shard_slice
        )
        self.computers.on_move = lambda report: self.delivery.wake()
        #: the server's leagues (bot/community/leagues/): their rounds are ticked by the
        #: scheduler, their posts delivered from the outbox
        self.leagues = Leagues(service)
        self._tasks: list[asyncio.Task[None]] = []
        self._owner_commands: list[app_commands.Command[Any, ..., Any]] = []
        #: each user's last seen client language, so DMs and reminders sent later are in it
        self._languages: dict[str, str] = {}
        #: Called with (interaction, error) for errors that are bugs, not refusals.
        #: Tests replace it so that such an error fails the test.
        self.on_unexpected_error: Callable[[discord.Interaction, BaseException], None] = (
            lambda i, e: None
        )

    async def _use_gateway_of_api(self) -> None:
        """Behind a proxy or a local Discord, ask the API for the gateway
        (``GET /gateway/bot``, Discord's documented way to find it) instead of discord.py's
        hard-coded ``wss://gateway.discord.gg``. A REST-only proxy forwards the call and
        Discord answers with its own gateway, so the gateway stays right either way."""
        if self.settings.discord_api.rstrip("/") == DISCORD_API:
            return
        _shards, url, _limits = await self.http.get_bot_gateway()
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)

    async def setup_hook(self) -> None:
        from bot.discord.cogs.game import GameCog
        from bot.discord.cogs.hint import HintCog
        from bot.discord.cogs.history import HistoryCog
        from bot.discord.cogs.league import LeagueCog
        from bot.discord.cogs.play import PlayCog
        from bot.discord.cogs.prefs import PrefsCog
        from bot.discord.cogs.review import ReviewCog
        from bot.discord.cogs.stats import LeaderboardCog, StatsCog

        await self._use_gateway_of_api()
        await self.tree.set_translator(CatalogueTranslator())
        await self.add_cog(GameCog(self))
        await self.add_cog(PlayCog(self))
        await self.add_cog(PrefsCog(self))
        await self.add_cog(HintCog(self))
        await self.add_cog(LeaderboardCog(self))
        await self.add_cog(StatsCog(self))
        await self.add_cog(HistoryCog(self))
        await self.add_cog(ReviewCog(self))
        await self.add_cog(LeagueCog(self))
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self._owner_commands = self._move_owner_commands()
        if self.background:
            self._tasks = [
                asyncio.create_task(self.delivery.run_forever(), name="tessera-outbox"),
                asyncio.create_task(self.scheduler.run_forever(), name="tessera-scheduler"),
                asyncio.create_task(
                    self.computers.run_forever(self.settings.ai_sweep_seconds),
                    name="tessera-computers",
                ),
            ]
        if self.sync_on_start:
            await self.sync_commands(self.settings.sync_mode)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Remember the language of the user's Discord client (``interaction.locale``) for
        the words sent to them later, outside any interaction: turn DMs, heads-ups and
        reminders. Written only when it changed (an English user who never changed language
        costs one cached comparison). A submitted form (a modal) is answered here, by its
        custom id: discord.py's modal store forgets forms on a restart."""
        if interaction.type == discord.InteractionType.modal_submit:
            from bot.discord.options_form import submitted

            await submitted(interaction)
        uid, lang = str(interaction.user.id), language_of(interaction.locale)
        if self._languages.get(uid) == lang:
            return
        stored = await self.service.store.get_user(uid)
        if language_of(stored["locale"]) != lang:
            name = interaction.user.display_name
            await self.service.store.remember_locale(uid, name, lang)
        if len(self._languages) > 100_000:  # a bound, not a cache policy: users are few
            self._languages.clear()
        self._languages[uid] = lang

    async def on_guild_channel_update(self, before: Any, after: Any) -> None:
        """A channel's overwrites may have given a permission back: parked posts retry."""
        await self.permits.recheck()

    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        """The bot's role may have got a permission back: parked posts retry."""
        await self.permits.recheck()

    def _move_owner_commands(self) -> list[app_commands.Command[Any, ..., Any]]:
        """The owner's commands (/sync) leave the global set: every server's admins would
        see them. They live in the development guild only, and without one they are not
        registered at all (``python -m bot --sync`` does the job)."""
        moved = []
        for name in OWNER_COMMANDS:
            command = self.tree.remove_command(name)
            if isinstance(command, app_commands.Command):
                moved.append(command)
                if self.settings.dev_guild_id:
                    self.tree.add_command(command, guild=discord.Object(self.settings.dev_guild_id))
        return moved

    def _dev_guild_only_owner_commands(self, guild: discord.abc.Snowflake) -> None:
        self.tree.clear_commands(guild=guild)
        for command in self._owner_commands:
            self.tree.add_command(command, guild=guild)

    async def sync_commands(
        self, mode: Literal["global", "guild"], *, guild_id: int | None = None
    ) -> int:
        """Publish the command tree so that every command shows exactly once.

        - ``guild``: the commands that work only in a server go to the development guild
          (instant); those also offered in a DM with the bot (``/game``, ``/hand``,
          ``/notify``, ``/stats``, ``/rules``) stay global, because Discord shows a guild
          command in that guild only, never in DMs. Each shows once: a global command
          also shows in the guild, so none is in both lists.
        - ``global``: everything but the owner's commands globally; the development guild
          (when set) keeps only the owner's commands.
        """
        dev = self.settings.dev_guild_id
        if mode == "guild":
            target = dev or guild_id
            if target is None:
                raise RuntimeError("sync_mode=guild needs TESSERA_DEV_GUILD_ID")
            guild = discord.Object(target)
            self._dev_guild_only_owner_commands(guild)
            saved = self.tree.get_commands()
            for command in saved:
                if not offered_in_dms(command):
                    self.tree.add_command(command, guild=guild)
            synced = await self.tree.sync(guild=guild)
            self.tree.clear_commands(guild=None)
            for command in saved:
                if offered_in_dms(command):
                    self.tree.add_command(command)
            try:
                synced += await self.tree.sync()
            finally:
                self.tree.clear_commands(guild=None)
                for command in saved:
                    self.tree.add_command(command)
        else:
            synced = await self.tree.sync()
            if dev:
                guild = discord.Object(dev)
                self._dev_guild_only_owner_commands(guild)
                await self.tree.sync(guild=guild)
        log.info("synced %d commands (%s)", len(synced), mode)
        return len(synced)

    def kick(self) -> None:
        """Something was queued: deliver now rather than at the next poll (and let a
        computer seat whose turn it may now be move at once)."""
        self.delivery.wake()
        self.computers.wake()

    async def report_error(self, interaction: discord.Interaction, error: BaseException) -> None:
        """Refusals (service or bot) go back privately in the asker's words; anything else
        is a bug: logged, answered with a generic apology, and reported."""
        original = error
        while (
            isinstance(original, app_commands.CommandInvokeError | app_commands.TransformerError)
            and original.__cause__ is not None
        ):
            original = original.__cause__
        if isinstance(original, app_commands.CommandInvokeError):
            original = original.original
        original = database_answer(original) or original  # a database failure: say which
        if isinstance(original, UserError | ServiceError):  # both speak the asker's language
            text = original.text(loc(interaction))
        elif isinstance(original, app_commands.CheckFailure):
            text = t("err.guild_only", loc(interaction))
        elif isinstance(original, discord.HTTPException | discord.RateLimited | TimeoutError):
            # Discord refused or lost one of our calls (5xx, 429, a timeout, an expired
            # token). That is no bug of ours, and the change may well have been committed
            # before the reply failed, so never claim that nothing was changed.
            log.warning("Discord call failed in an interaction: %s", original)
            text = t("err.discord", loc(interaction))
        else:
            log.error("unexpected error in an interaction", exc_info=original)
            self.on_unexpected_error(interaction, original)
            text = t("err.generic", loc(interaction))
        if interaction.type == discord.InteractionType.autocomplete:
            return
        try:
            await answer(interaction, text)
        except discord.HTTPException:
            log.warning("could not report an error to the user", exc_info=True)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        await self.computers.close()
        await super().close()


class ShardedTesseraBot(TesseraBot, commands.AutoShardedBot):
    """The bot as one of several processes: it connects the shards named by
    ``TESSERA_SHARDS`` (discord.py's sharded client) and delivers and schedules only for
    servers on those shards; the others' processes share the same database."""


def make_bot(settings: Settings, service: MatchService, **options: Any) -> TesseraBot:
    """The unsharded bot, or the sharded one when ``TESSERA_SHARDS`` is set."""
    sharding = settings.shard_ids()
    if sharding is None:
        return TesseraBot(settings, service, **options)
    ids, count = sharding
    return ShardedTesseraBot(settings, service, shard_ids=list(ids), shard_count=count, **options)
