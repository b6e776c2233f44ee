"""``/league …``: a server's leagues as its members see them — open one with a sign-up post,
start it, its standings, the list, leave, cancel.

The rules of a league (seating, points, tie-breaks, when a round ends) are the league
core's (``bot/community/leagues/``); this cog reads the options, checks who may do what
(opening, starting and cancelling a league is for server managers: Manage Server, as
``/game abort reason:`` is) and says the answers. A league's sign-up post, its rounds'
threads and posts and its final post are made by the outbox (``bot/discord/league_posts.py``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.cards import picture_file
from bot.discord.cogs.game import game_choices, text_channel
from bot.discord.common import (
    UserError,
    answer,
    bot_of,
    clip,
    game_named,
    is_manager,
    loc,
    user_of,
)
from bot.discord.i18n import L
from bot.discord.league_posts import league_language, leagues_of_bot
from bot.discord.league_signup import refresh_signup
from bot.matches.errors import ServiceError
from bot.matches.reports import User
from render.league import (
    draw_standings,
    league_title,
    list_lines,
    standings_table,
    standings_text,
)
from render.words.catalogue import supported_language, t

log = logging.getLogger(__name__)

#: The formats and fills Discord offers (the core's, ``bot/community/leagues/reports.py``).
FORMATS = ("round-robin", "swiss")
FILLS = ("computer", "bye")


async def same_server_league(interaction: discord.Interaction, league_id: int) -> Any:
    """The league numbered ``league_id``, refused when it is another server's."""
    info = await leagues_of_bot(bot_of(interaction)).info(league_id)
    if str(info.server_id) != str(interaction.guild_id):
        raise UserError("leagues.not_here", league=league_id)
    return info


async def league_here(interaction: discord.Interaction, league: int | None) -> Any:
    """The league named, else this server's newest one still going (else its newest)."""
    if league is not None:
        return await same_server_league(interaction, league)
    found = await leagues_of_bot(bot_of(interaction)).list(str(interaction.guild_id))
    if not found:
        raise UserError("leagues.none_here")
    going = [x for x in found if x.status in ("signup", "running")]
    return max(going or found, key=lambda x: x.id)


def need_manager(interaction: discord.Interaction, what: str) -> None:
    """Opening, starting and cancelling a league is for server managers (Manage Server)."""
    if not is_manager(interaction):
        raise UserError("leagues.not_manager", what=t(f"leagues.what.{what}", loc(interaction)))


async def autocomplete_league(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[int]]:
    """This server's leagues, newest first, those whose name or number holds the text."""
    if interaction.guild_id is None:
        return []
    try:
        found = await leagues_of_bot(bot_of(interaction)).list(str(interaction.guild_id))
    except ServiceError:
        return []
    lang = loc(interaction)
    typed = current.strip().lower().lstrip("#")
    out = []
    for x in sorted(found, key=lambda x: -x.id):
        label = f"#{x.id} {league_title(x, lang)} ({t(f'leagues.status.{x.status}', lang)})"
        if typed and typed not in label.lower():
            continue
        out.append(app_commands.Choice(name=clip(label, 100), value=x.id))
    return out[:25]


@app_commands.guild_only()
class LeagueCog(commands.GroupCog, group_name="league", group_description=L("cmd.league")):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="new", description=L("cmd.league.new"))
    @app_commands.describe(
        game=L("opt.league_game"),
        format=L("opt.league_format"),
        players_per_table=L("opt.players_per_table"),
        rounds=L("opt.league_rounds"),
        days_per_move=L("opt.days_per_move"),
        signup_days=L("opt.signup_days"),
        rated=L("opt.league_rated"),
        fill=L("opt.league_fill"),
    )
    @app_commands.choices(
        game=game_choices(),
        format=[app_commands.Choice(name=L(f"choice.format.{f}"), value=f) for f in FORMATS],
        fill=[app_commands.Choice(name=L(f"choice.fill.{f}"), value=f) for f in FILLS],
    )
    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        format: str,
        players_per_table: app_commands.Range[int, 2, 5] | None = None,
        rounds: app_commands.Range[int, 1, 30] | None = None,
        days_per_move: app_commands.Range[float, 0.25, 30.0] | None = None,
        signup_days: app_commands.Range[float, 0.0, 60.0] | None = None,
        rated: bool | None = None,
        fill: str | None = None,
    ) -> None:
        """A server manager opens a league in this channel (a thread's: its channel). The
        core checks every value and refuses in words naming what is allowed; the sign-up
        post, with its Join and Leave buttons, follows from the outbox."""
        need_manager(interaction, "new")
        game_named(game)  # an old command's game that is gone: refused naming the games
        bot = bot_of(interaction)
        parent = getattr(interaction.channel, "parent_id", None) or interaction.channel_id
        channel = await text_channel(interaction, int(parent or 0))
        given: dict[str, Any] = {
            "players_per_table": players_per_table,
            "rounds": rounds,
            "days_per_move": days_per_move,
            "signup_days": signup_days,
            "rated": rated,
            "fill": fill,
        }
        info = await leagues_of_bot(bot).create(
            server_id=str(interaction.guild_id),
            channel_id=str(channel.id),
            creator=user_of(interaction),
            game_id=game,
            format=format,
            language=supported_language(interaction.guild_locale),
            **{k: v for k, v in given.items() if v is not None},
        )
        bot.kick()  # the sign-up post is queued
        lang = loc(interaction)
        await answer(
            interaction,
            t(
                "leagues.opened",
                lang,
                user=interaction.user.display_name,
                league=league_title(info, lang),
                game=info.game_name,
                where=channel.mention,
            ),
            ephemeral=False,
        )

    @app_commands.command(name="start", description=L("cmd.league.start"))
    @app_commands.describe(league=L("opt.league"))
    @app_commands.autocomplete(league=autocomplete_league)
    async def start(self, interaction: discord.Interaction, league: int | None = None) -> None:
        need_manager(interaction, "start")
        bot = bot_of(interaction)
        info = await league_here(interaction, league)
        started = await leagues_of_bot(bot).start(info.id, user_of(interaction), manager=True)
        bot.kick()  # the first round's threads and posts are queued
        await refresh_signup_of(bot, started.league, interaction.guild_locale)
        name = league_title(started.league, loc(interaction))
        await answer(interaction, t("leagues.started", loc(interaction), league=name))

    @app_commands.command(name="standings", description=L("cmd.league.standings"))
    @app_commands.describe(league=L("opt.league"))
    @app_commands.autocomplete(league=autocomplete_league)
    async def standings(self, interaction: discord.Interaction, league: int | None = None) -> None:
        """Public, in the league's language: the table in words and its picture."""
        bot = bot_of(interaction)
        info = await league_here(interaction, league)
        now = await leagues_of_bot(bot).standings(info.id)
        lang = league_language(now.league, interaction.guild_locale)
        await interaction.response.defer(thinking=True)
        table = standings_table(now.league, now, lang)
        lines = standings_text(table, lang)
        text = clip("**" + lines[0] + "**\n" + "\n".join(lines[1:]), 2000)
        png = await asyncio.to_thread(draw_standings, table, lang)
        picture = picture_file(png, f"league-{info.id}-standings.png")
        await interaction.followup.send(text, file=picture)

    @app_commands.command(name="list", description=L("cmd.league.list"))
    async def list_(self, interaction: discord.Interaction) -> None:
        found = await leagues_of_bot(bot_of(interaction)).list(str(interaction.guild_id))
        if not found:
            raise UserError("leagues.none_here")
        await answer(interaction, clip("\n".join(list_lines(found, loc(interaction))), 2000))

    @app_commands.command(name="leave", description=L("cmd.league.leave"))
    @app_commands.describe(league=L("opt.league"))
    @app_commands.autocomplete(league=autocomplete_league)
    async def leave(self, interaction: discord.Interaction, league: int | None = None) -> None:
        bot = bot_of(interaction)
        info = await league_here(interaction, league)
        info = await leagues_of_bot(bot).leave(info.id, user_of(interaction))
        bot.kick()  # a resigned seat's computer may be on turn
        await refresh_signup_of(bot, info, interaction.guild_locale)
        key = "leagues.left_running" if info.status == "running" else "leagues.left"
        name = league_title(info, loc(interaction))
        await answer(interaction, t(key, loc(interaction), league=name))

    @app_commands.command(name="cancel", description=L("cmd.league.cancel"))
    @app_commands.describe(league=L("opt.league"))
    @app_commands.autocomplete(league=autocomplete_league)
    async def cancel(self, interaction: discord.Interaction, league: int | None = None) -> None:
        need_manager(interaction, "cancel")
        bot = bot_of(interaction)
        info = await league_here(interaction, league)
        info = await leagues_of_bot(bot).cancel(info.id, user_of(interaction), manager=True)
        bot.kick()
        await refresh_signup_of(bot, info, interaction.guild_locale)
        name = league_title(info, loc(interaction))
        await answer(interaction, t("leagues.cancelled", loc(interaction), league=name))

    @commands.Cog.listener()
    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        """A member left the server (only delivered with the Server Members intent): they
        leave its leagues as with ``/league leave`` (bot/community/leagues/)."""
        user = User(str(payload.user.id), payload.user.display_name)
        try:
            await leagues_of_bot(self.bot).member_left(str(payload.guild_id), user)
        except ServiceError:
            log.warning("member %s left: their leagues could not be left", user.id, exc_info=True)
        self.bot.kick()  # type: ignore[attr-defined]  # the bot is TesseraBot: queued posts


async def refresh_signup_of(bot: Any, info: Any, server_locale: Any) -> None:
    await refresh_signup(bot, info, league_language(info, server_locale))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(LeagueCog(bot))


__all__ = ["LeagueCog", "league_language", "leagues_of_bot", "same_server_league"]
