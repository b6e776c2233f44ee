"""``/review [match]``: where a finished match was won and lost (bot/matches/review.py).

**Where it is posted.** In the match's own thread it is posted *publicly*, in the match's
language: the match is over and its record public, and the table reads it together.
Asked anywhere else (``match:N`` from another channel) it is answered *only to the asker*,
in their own language: a review is several messages with pictures, and a channel that is
not the match's should not fill with them for one person's curiosity. A refusal (a running
match, no such match) is always private.

**How.** Tessera answers at once ("thinking…"), then edits that answer with the progress
(decisions judged of all, at most every :data:`PROGRESS_EVERY` seconds, within Discord's
edit limits), then replaces it with the match's figures and follows up with one message per
player: their three biggest moments in words, with each moment's picture attached (the
position as that player saw it then). One message per player keeps each within Discord's
limits (2,000 characters, 10 attachments: three pictures). A review already made is served
from the store at once. Like a replay it holds a slot of the flood limits while it is made
(bot/discord/flood.py).
"""

from __future__ import annotations

import io
import logging
import time

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.common import UserError, bot_of, clip, defer, loc, match_here, server_of
from bot.discord.i18n import L
from bot.matches.errors import ServiceError
from bot.matches.review import Review, SeatReview
from bot.matches.review_words import head_lines, picture_name, picture_words, seat_lines
from render.alt_text import Described
from render.words.catalogue import match_language, supported_language, t

log = logging.getLogger(__name__)

#: Seconds between two edits of the progress message.
PROGRESS_EVERY = 2.0
#: Discord's limit of a message's content (discord-api-docs ``resources/message.mdx``);
#: an attachment's description: 1,024.
CONTENT_LIMIT = 2000


def seat_files(
    review: Review,
    seat: SeatReview,
    pictures: dict[tuple[int, int], list[tuple[str, Described]]],
    lang: str,
) -> list[discord.File]:
    """A player's moments' pictures (at most two a moment: six files), each described:
    which move and whose view, then the picture's own words."""
    files = []
    for moment in seat.moments:
        for kind, png in pictures.get((seat.seat, moment.ply), []):
            words = picture_words(review, seat, moment.ply, lang)
            files.append(
                discord.File(
                    io.BytesIO(png),
                    filename=picture_name(review, seat.seat, moment.ply, kind),
                    description=clip(f"{words}. {png.alt}" if png.alt else words, 1024),
                )
            )
    return files


class ReviewCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="review", description=L("cmd.review"))
    @app_commands.describe(match=L("opt.match"))
    @app_commands.guild_only()
    async def review(self, interaction: discord.Interaction, match: int | None = None) -> None:
        """Anyone in the server may ask, for any of its matches that is over."""
        bot = bot_of(interaction)
        match_id = await match_here(interaction, match)
        await bot.service.reviewable(match_id)  # refused privately, before anything is made
        info = await bot.service.info(match_id)
        public = info.thread_id is not None and info.thread_id == str(interaction.channel_id)
        lang = match_language(info.settings, interaction.guild_locale) if public else None
        async with bot.flood.replay_slot(
            str(interaction.user.id), server_of(interaction), "reviews"
        ):
            await self._make(
                interaction, match_id, public, lang or supported_language(loc(interaction))
            )

    async def _make(
        self, interaction: discord.Interaction, match_id: int, public: bool, lang: str
    ) -> None:
        bot = bot_of(interaction)
        await defer(interaction, ephemeral=not public)
        shown = [0.0]

        async def progress(done: int, total: int) -> None:
            now = time.monotonic()
            if done < total and now - shown[0] < PROGRESS_EVERY:
                return
            shown[0] = now
            words = t("review.progress", lang, match=match_id, done=done, total=total)
            try:
                await interaction.edit_original_response(content=words)
            except discord.HTTPException:  # a progress line lost is no failure
                log.info("review progress of match %s not shown", match_id, exc_info=True)

        try:
            made = await bot.service.review(
                match_id,
                bot.computers.pool,
                progress=progress,
                budget_s=bot.settings.review_seconds or None,
            )
            pictures = await bot.service.review_pictures(made, lang)
        except ServiceError:
            raise  # a refusal, said in the asker's language
        except (discord.HTTPException, discord.RateLimited):
            raise
        except Exception:  # a worker that died, a broken pool: a failure, not a bug report
            log.warning("the review of match %s failed", match_id, exc_info=True)
            raise UserError("review.failed", match=match_id) from None
        head = clip("\n".join(head_lines(made, lang)), CONTENT_LIMIT)
        await interaction.edit_original_response(content=head)
        for seat in made.seats:
            await interaction.followup.send(
                clip("\n".join(seat_lines(made, seat, lang)), CONTENT_LIMIT),
                files=seat_files(made, seat, pictures, lang),
                ephemeral=not public,
            )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ReviewCog(bot))
