"""``/hint``: the best moves found for you now, privately, each with its reason, as buttons
that play it.

Why the buttons are the guided panel's "play this move" buttons (``tm:<match>:<version>:…``):
a hint clicked minutes later must pass the same gate as any move — a seated player, on
turn, on the board the hint was made for — and go through the same version-checked
``service.play``; reusing that item gives exactly that, across restarts. The reply is
ephemeral and the hint count lives in the match settings, so nobody else learns that a
hint was used until the finished match's record lists it.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.common import UserError, bot_of, clip, loc, match_here, user_of
from bot.discord.i18n import L
from bot.discord.panel import ConfirmMove, encode_move
from render.words.catalogue import t
from render.words.say import say


class HintCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="hint", description=L("cmd.hint"))
    @app_commands.guild_only()
    async def hint(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        locale = loc(interaction)
        user = user_of(interaction)
        match_id = await match_here(interaction)
        info = await bot.service.info(match_id)
        if info.seat_of(user.id) is None:
            raise UserError("err.not_your_match")
        # Refusals (hints off, not your turn) come before the acknowledgement and the
        # search, which may take the match's thinking time.
        await bot.service.hint_turn(match_id, user)
        await interaction.response.defer(ephemeral=True, thinking=True)
        version, hints = await bot.computers.hints(match_id, user)
        _, moves = await bot.service.turn_for(match_id, user)  # for a long notation's index
        view = discord.ui.View(timeout=None)
        lines = [t("hint.head", locale)]
        for n, hint in enumerate(hints, 1):
            label = say(hint.move.label, locale) or hint.move.notation
            lines.append(t("hint.line", locale, n=n, label=label, reason=say(hint.reason, locale)))
            view.add_item(
                ConfirmMove(
                    discord.ui.Button(
                        label=clip(f"{n}. " + t("btn.confirm", locale, label=label), 80),
                        style=discord.ButtonStyle.success,
                        custom_id=encode_move(moves, hint.move, f"tm:{match_id}:{version}:"),
                    )
                )
            )
        await interaction.followup.send(clip("\n".join(lines), 2000), view=view, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(HintCog(bot))
