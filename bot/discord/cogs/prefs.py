"""Per-user preferences (/notify) and the owner-only command sync (/sync).

Preferences live in the store's users table (``notify`` column and ``settings`` JSON), so
the delivery worker and the scheduler read them from the database like everything else.
Their checks and words are shared with the console (:mod:`bot.community.preferences`).
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.community.preferences import (
    Refusal,
    check_notify,
    check_range,
    notify_summary,
    update_notify,
)
from bot.discord.common import DM_CONTEXTS, IN_DMS, UserError, answer, bot_of, loc
from bot.discord.i18n import L
from render.words.catalogue import t, tn
from render.words.stamps import discord_time

#: How /notify's alert preferences are set, as Discord shows its options.
NOTIFY_FORM = "/notify mode: reminder_hours: quiet_from: quiet_to: utc_offset: heads_up:"


class PrefsCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="notify", description=L("cmd.notify"), extras=IN_DMS)
    @app_commands.allowed_contexts(**DM_CONTEXTS)
    @app_commands.describe(
        mode=L("opt.mode"),
        reminder_hours=L("opt.reminder_hours"),
        quiet_from=L("opt.quiet_from"),
        quiet_to=L("opt.quiet_to"),
        utc_offset=L("opt.utc_offset"),
        heads_up=L("opt.heads_up"),
        away=L("opt.away"),
        back=L("opt.back"),
    )
    @app_commands.choices(
        mode=[
            app_commands.Choice(name=L("choice.mode.mention"), value="mention"),
            app_commands.Choice(name=L("choice.mode.dm"), value="dm"),
            app_commands.Choice(name=L("choice.mode.off"), value="off"),
        ]
    )
    async def notify(
        self,
        interaction: discord.Interaction,
        mode: str | None = None,
        reminder_hours: app_commands.Range[float, 0, 336] | None = None,
        quiet_from: app_commands.Range[int, 0, 23] | None = None,
        quiet_to: app_commands.Range[int, 0, 23] | None = None,
        utc_offset: app_commands.Range[float, -12, 14] | None = None,
        heads_up: bool | None = None,
        away: app_commands.Range[int, 1, 14] | None = None,
        back: bool | None = None,
    ) -> None:
        """With no options it shows the current preferences (checks shared with the
        console: bot/community/preferences.py). ``away`` / ``back``: a holiday from all your
        matches (``MatchService.go_away``, ``bot/matches/away.py``)."""
        store = bot_of(interaction).service.store
        locale = loc(interaction)
        uid = str(interaction.user.id)
        service = bot_of(interaction).service
        words = []
        # no alert preference given: nothing is saved, and the answer says so (with what
        # is set and how to change it) instead of "Saved."
        unchanged = all(
            p is None for p in (mode, reminder_hours, quiet_from, quiet_to, utc_offset, heads_up)
        )
        try:
            # every check first: a refusal leaves every preference (and the clocks) as it was
            check_notify(mode, reminder_hours, quiet_from, quiet_to, utc_offset)
            check_range("away", away, 1, 14)
            if away is not None and back:
                raise Refusal("away.both")
            if away is not None:
                until = await service.go_away(uid, away, now=bot_of(interaction).clock())
                words.append(t("away.set", locale, date=discord_time(until, "D")))
            elif back:
                await service.come_back(uid, now=bot_of(interaction).clock())
                words.append(t("away.back", locale))
            if unchanged:
                user = await store.get_user(uid)
            else:
                user = await update_notify(
                    store,
                    uid,
                    interaction.user.display_name,
                    locale,
                    mode=mode,
                    reminder_hours=reminder_hours,
                    quiet_from=quiet_from,
                    quiet_to=quiet_to,
                    utc_offset=utc_offset,
                    heads_up=heads_up,
                )
        except Refusal as exc:
            raise UserError(exc.key, **exc.values) from None
        state = notify_summary(user, locale)
        if not unchanged:
            words.append(t("notify.saved", locale, summary=state))
        elif not words:  # nothing given at all: what is set, and how to change it
            words.append(t("notify.unchanged", locale, summary=state, form=NOTIFY_FORM))
        await answer(interaction, "\n".join(words))

    @app_commands.command(name="sync", description=L("cmd.sync"))
    @app_commands.describe(scope=L("opt.scope"))
    @app_commands.choices(
        scope=[
            app_commands.Choice(name=L("choice.scope.global"), value="global"),
            app_commands.Choice(name=L("choice.scope.guild"), value="guild"),
        ]
    )
    @app_commands.default_permissions(administrator=True)
    async def sync(self, interaction: discord.Interaction, scope: str | None = None) -> None:
        """Explicit command sync (never on every start); the bot's owner only."""
        bot = bot_of(interaction)
        if not await bot.is_owner(interaction.user):
            raise UserError("err.not_owner")
        await interaction.response.defer(ephemeral=True, thinking=True)
        chosen: Literal["global", "guild"] = "guild" if scope == "guild" else "global"
        if scope is None:
            chosen = bot.settings.sync_mode
        count = await bot.sync_commands(chosen, guild_id=interaction.guild_id)
        await answer(interaction, tn("sync.done", count, loc(interaction), scope=chosen))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(PrefsCog(bot))
