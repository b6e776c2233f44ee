"""``/hint``: the best moves found for you now, privately, each with its reason, as buttons
that play it (what a turn post's Hint button does too: :func:`bot.discord.looking.show_hints`).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.common import match_here
from bot.discord.i18n import L
from bot.discord.looking import show_hints


class HintCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="hint", description=L("cmd.hint"))
    @app_commands.guild_only()
    async def hint(self, interaction: discord.Interaction) -> None:
        await show_hints(interaction, await match_here(interaction))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(HintCog(bot))
