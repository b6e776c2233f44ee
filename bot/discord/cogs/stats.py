"""``/leaderboard`` and ``/stats``: ratings and statistics of this server, in words.

Why ``/stats player`` and ``/stats server`` rather than ``/stats [@user]`` beside
``/stats server``: Discord cannot invoke a command that has subcommands, so the two forms
are two subcommands of one group. Both answers are public (nothing in them is private: they
are read from finished and running matches everyone in the server could watch) and are
computed from the stored matches (bot/community/stats.py, bot/community/ratings.py).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.community import ratings, stats
from bot.discord.cogs.game import game_choices
from bot.discord.common import (
    DM_CONTEXTS,
    IN_DMS,
    UserError,
    bot_of,
    clip,
    game_named,
    in_dm,
    loc,
)
from bot.discord.i18n import L


class LeaderboardCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard", description=L("cmd.leaderboard"))
    @app_commands.describe(game=L("opt.leaderboard_game"))
    @app_commands.choices(game=game_choices())
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        bot = bot_of(interaction)
        name = game_named(game).name  # an unknown game is refused, naming the games
        board = await ratings.leaderboard(bot.service.store, str(interaction.guild_id), game)
        lines = ratings.leaderboard_lines(board, name, loc(interaction))
        await interaction.response.send_message(clip("\n".join(lines), 2000))


@app_commands.allowed_contexts(**DM_CONTEXTS)  # for /stats player; /stats server refuses there
class StatsCog(commands.GroupCog, group_name="stats", group_description=L("cmd.stats")):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="player", description=L("cmd.stats.player"), extras=IN_DMS)
    @app_commands.describe(user=L("opt.user"), game=L("opt.stats_game"))
    @app_commands.choices(game=game_choices())
    async def player(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,
        game: str | None = None,
    ) -> None:
        """In a server: anyone's matches on it. In a DM with the bot there is no server
        to count: it is your own matches in every server (what a player asking there
        expects: their record), and never another person's — their matches in servers the
        asker is not in are not the asker's to read."""
        if game is not None:
            game_named(game)  # refused when unknown, rather than stats of no game
        everywhere = in_dm(interaction)
        if everywhere and user is not None and user.id != interaction.user.id:
            raise UserError("stats.only_yours")
        who = user or interaction.user
        lines = await stats.player_report(
            bot_of(interaction).service.store,
            str(interaction.guild_id),
            str(who.id),
            who.display_name,
            game,
            loc(interaction),
            everywhere=everywhere,
        )
        await interaction.response.send_message(clip("\n".join(lines), 2000))

    @app_commands.command(name="server", description=L("cmd.stats.server"))
    @app_commands.describe(game=L("opt.stats_game"))
    @app_commands.choices(game=game_choices())
    async def server(self, interaction: discord.Interaction, game: str | None = None) -> None:
        if game is not None:
            game_named(game)
        lines = await stats.server_report(
            bot_of(interaction).service.store, str(interaction.guild_id), game, loc(interaction)
        )
        await interaction.response.send_message(clip("\n".join(lines), 2000))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(LeaderboardCog(bot))
    await bot.add_cog(StatsCog(bot))
