"""Per-user preferences (/notify) and the owner-only command sync (/sync).

Preferences live in the store's users table (``notify`` column and ``settings`` JSON), so
the delivery worker and the scheduler read them from the database like everything else.
"""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.common import UserError, answer, bot_of, loc
from bot.i18n import L, t


def notify_summary(user: dict[str, Any], locale: Any) -> str:
    s = user["settings"]
    quiet = s.get("quiet")
    quiet_text = (
        t(
            "notify.quiet",
            locale,
            start=quiet[0],
            end=quiet[1],
            offset=float(s.get("utc_offset", 0)),
        )
        if quiet
        else t("notify.quiet_none", locale)
    )
    hours = s.get("reminder_hours")
    return t(
        "notify.summary",
        locale,
        mode=t(f"mode.{user['notify']}", locale),
        hours=f"{hours:g}" if hours is not None else t("notify.default", locale),
        quiet=quiet_text,
        heads_up=t("yes" if s.get("heads_up") else "no", locale),
    )


class PrefsCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="notify", description=L("cmd.notify"))
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
        """With no options it shows the current preferences. ``away`` / ``back``: a
        holiday from all your matches (``MatchService.go_away``, ``bot/away.py``)."""
        store = bot_of(interaction).service.store
        locale = loc(interaction)
        uid = str(interaction.user.id)
        for hour in (quiet_from, quiet_to):
            if hour is not None and not 0 <= hour <= 23:
                raise UserError("err.bad_hour")
        if reminder_hours is not None and not 0 <= reminder_hours <= 336:
            raise UserError("err.bad_number", name="reminder_hours", low=0, high=336)
        if utc_offset is not None and not -12 <= utc_offset <= 14:
            raise UserError("err.bad_number", name="utc_offset", low=-12, high=14)
        if away is not None and not 1 <= away <= 14:
            raise UserError("err.bad_number", name="away", low=1, high=14)
        if away is not None and back:
            raise UserError("away.both")
        if mode is not None and mode not in ("mention", "dm", "off"):
            raise UserError("err.bad_options", text=mode)
        service = bot_of(interaction).service
        words = []
        if away is not None:  # first: a refusal leaves every preference as it was
            until = await service.go_away(uid, away, now=bot_of(interaction).clock())
            words.append(t("away.set", locale, date=f"<t:{int(until)}:D>"))
        elif back:
            await service.come_back(uid, now=bot_of(interaction).clock())
            words.append(t("away.back", locale))
        user = await store.get_user(uid)
        settings = dict(user["settings"])
        fields: dict[str, Any] = {"name": interaction.user.display_name, "locale": locale}
        if mode is not None:
            fields["notify"] = mode
        if reminder_hours is not None:
            settings["reminder_hours"] = reminder_hours
        if quiet_from is not None or quiet_to is not None:
            old = settings.get("quiet") or [22, 8]
            start = quiet_from if quiet_from is not None else old[0]
            end = quiet_to if quiet_to is not None else old[1]
            settings["quiet"] = None if start == end else [start, end]
        if utc_offset is not None:
            settings["utc_offset"] = utc_offset
        if heads_up is not None:
            settings["heads_up"] = heads_up
        fields["settings"] = settings
        await store.set_user(uid, **fields)
        user = await store.get_user(uid)
        summary = t("notify.saved", locale, summary=notify_summary(user, locale))
        await answer(interaction, "\n".join([*words, summary]))

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
        await answer(interaction, t("sync.done", loc(interaction), count=count, scope=chosen))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(PrefsCog(bot))
