"""``/history moves`` (the latest moves, in words) and ``/history replay`` (the whole match
as an animated picture, bot/matches/replay.py).

Why two subcommands rather than ``/history`` plus an option: Discord cannot invoke a
command that has subcommands, and ``/history replay`` is what players type (the same
reason as ``/stats player`` and ``/stats server``).

The replay is public (it holds only public boards) and its words and pictures are in the
server's language. Building one takes seconds, so the command answers at once with a
public "thinking…" and follows up with the file. The follow-up must come within the
interaction token's 15 minutes (discord-api-docs ``interactions/receiving-and-responding``);
if the build has not finished by :data:`FOLLOWUP_SECONDS` (a queue of replays on a busy
bot), the command says so and the file is posted as an ordinary message in the channel.
"""

from __future__ import annotations

import asyncio
import io
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.common import (
    UserError,
    answer,
    bot_of,
    defer,
    match_here,
    server_of,
)
from bot.discord.i18n import L
from bot.discord.looking import show_moves
from bot.matches.replay import NothingToReplay, Replay, replays_of
from bot.matches.reports import MatchInfo
from render.replay import TooLarge
from render.words.catalogue import t, tn

log = logging.getLogger(__name__)

#: Follow up within the token's 15 minutes, with a margin for the upload itself.
FOLLOWUP_SECONDS = 13 * 60


def _file(replay: Replay) -> discord.File:
    return discord.File(
        io.BytesIO(replay.data), filename=replay.filename, description=replay.alt or None
    )


@app_commands.guild_only()
class HistoryCog(commands.GroupCog, group_name="history", group_description=L("cmd.history.group")):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="moves", description=L("cmd.history"))
    @app_commands.describe(count=L("opt.count"))
    async def moves(
        self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 50] = 15
    ) -> None:
        await show_moves(interaction, await match_here(interaction), max(1, min(50, count)))

    @app_commands.command(name="replay", description=L("cmd.history.replay"))
    @app_commands.describe(match=L("opt.match"))
    async def replay(self, interaction: discord.Interaction, match: int | None = None) -> None:
        """Anyone in the server may ask, for any of its matches: the frames are the public
        pictures, and a running match's replay shows no scores."""
        bot = bot_of(interaction)
        match_id = await match_here(interaction, match)
        info = await bot.service.info(match_id)  # an unknown match is refused privately
        if info.status == "lobby":
            raise UserError("replay.empty", match=match_id)
        public = interaction.guild_locale
        async with bot.flood.replay_slot(str(interaction.user.id), server_of(interaction)):
            await self._make(interaction, match_id, info, str(public))

    async def _make(
        self, interaction: discord.Interaction, match_id: int, info: MatchInfo, public: str
    ) -> None:
        bot = bot_of(interaction)
        await defer(interaction, ephemeral=False)
        building = asyncio.ensure_future(replays_of(bot.service).get(match_id, public))
        late = False
        try:
            try:
                made = await asyncio.wait_for(asyncio.shield(building), FOLLOWUP_SECONDS)
            except TimeoutError:
                late = True
                later = t("replay.later", public, match=match_id)
                await answer(interaction, later, ephemeral=False)
                made = await building
        except NothingToReplay:
            raise UserError("replay.empty", match=match_id) from None
        except TooLarge:
            raise UserError("replay.too_large", match=match_id) from None
        except (discord.HTTPException, discord.RateLimited):
            raise  # Discord's refusals are reported as such
        except Exception:  # a worker that died, a broken pool: a failure, not a bug report
            log.warning("building the replay of match %s failed", match_id, exc_info=True)
            raise UserError("replay.failed", match=match_id) from None
        words = tn("replay.posted", made.turns, public, match=match_id, game=info.game_name)
        if late:  # the interaction's token may have run out: an ordinary message
            await interaction.channel.send(words, file=_file(made))  # type: ignore[union-attr]
        else:
            await answer(interaction, words, ephemeral=False, file=_file(made))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(HistoryCog(bot))
