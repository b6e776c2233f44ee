"""Looking at a match: its board now, its latest moves and the best moves for you, for
``/board``, ``/history moves`` and ``/hint`` and for the Board, History and Hint buttons of a
turn post.

Why one place for both: the buttons do what the commands do, so they answer with the same
words and the same picture; the only difference is who reads the answer — ``/board`` posts
the board for the thread (in the match's language), a button answers only the presser (in
their language) and leaves the thread as it was.
"""

from __future__ import annotations

import discord

from bot.discord.cards import picture_card, picture_file
from bot.discord.common import (
    UserError,
    answer,
    bot_of,
    clip,
    defer,
    loc,
    newest_lines,
    user_of,
)
from render.words.catalogue import match_language, t
from render.words.say import say

#: How many moves the History button lists (``/history moves`` takes a count).
HISTORY_COUNT = 15


async def show_board(interaction: discord.Interaction, match_id: int, *, public: bool) -> None:
    """The match's board now as a card (its status line above the picture, the picture's
    description as its alt text): for the thread (``public``), else for the presser only.
    A lobby has no board yet; a finished match's board is shown: it is its result."""
    bot = bot_of(interaction)
    info = await bot.service.info(match_id)
    if info.status == "lobby":
        raise UserError("svc.not_started", match=match_id)
    await defer(interaction, ephemeral=not public)
    lang = match_language(info.settings, interaction.guild_locale) if public else loc(interaction)
    info = await bot.service.info(match_id, lang)  # its status line in that language
    png = await bot.service.picture(match_id, lang=lang)
    card = picture_card(
        info.game_name,
        match_id,
        lang,
        text=info.status_text,
        picture=picture_file(png, f"match-{match_id}.png"),
    )
    await interaction.followup.send(view=card.view, files=card.files, ephemeral=not public)


async def show_moves(interaction: discord.Interaction, match_id: int, count: int) -> None:
    """The latest ``count`` moves in words, privately, newest last."""
    locale = loc(interaction)
    lines = await bot_of(interaction).service.history(match_id, last=count, lang=locale)
    if not lines:
        await answer(interaction, t("history.empty", locale))
        return
    head = t("history.head", locale, match=match_id)
    body = newest_lines(lines, 1800)
    await answer(interaction, clip(f"{head}\n```\n{body}\n```", 2000))


async def show_hints(interaction: discord.Interaction, match_id: int) -> None:
    """The best moves found for the presser now, privately, each with its reason, as buttons
    that play it (``/hint`` and a turn post's Hint button).

    Why the buttons are the guided panel's "play this move" buttons (``tm:<match>:<version>:…``):
    a hint clicked minutes later must pass the same gate as any move — a seated player, on
    turn, on the board the hint was made for — and go through the same version-checked
    ``service.play``. Refusals (hints off, not your turn) come before the acknowledgement and
    the search, which may take the match's thinking time."""
    from bot.discord.panel import ConfirmMove, encode_move

    bot = bot_of(interaction)
    locale = loc(interaction)
    user = user_of(interaction)
    info = await bot.service.info(match_id)
    if info.seat_of(user.id) is None:
        raise UserError("err.not_your_match")
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
