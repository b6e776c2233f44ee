"""Playing a match from its thread: /play (typed with autocomplete, or the guided panel),
/board, /hand, /resign, /undo, /rules (/history is in ``history.py``).

The public result of a move is never sent from here: the service queued the turn post in
its outbox inside the move's transaction, and the delivery worker posts it. The player
gets a private confirmation, so a failed post can never make a move look undone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.common import (
    DM_CONTEXTS,
    IN_DMS,
    UserError,
    answer,
    bot_of,
    check_running,
    clip,
    game_named,
    in_dm,
    loc,
    match_here,
    user_of,
)
from bot.discord.i18n import L
from bot.discord.looking import show_board
from bot.discord.panel import (
    HandButton,
    build_panel,
    gate,
    play_and_confirm,
    resign_view,
    send_hand,
)
from bot.matches.reports import MatchInfo, TurnReport
from render.words.catalogue import t
from render.words.posts import listing
from render.words.say import say
from rules import Move
from rules.base import normalise_notation
from rules.registry import get_game

from .game import game_choices


def suggest(
    moves: list[Move], typed: str, say_label: Callable[[Any], str], limit: int = 25
) -> list[tuple[Move, str]]:
    """The likeliest moves for what was typed, each with its label as the reader reads it
    (``say_label``: the rules' label in their language, with the players' names): exact or
    prefix matches of the notation or the words first, then words containing it, each group
    by the game's rank (higher first). With nothing typed, only the ``limit`` moves
    returned are said (the rank alone orders them); typed text is matched against every
    label in the reader's language, each said once."""
    key = normalise_notation(typed)
    if not key:
        best = sorted(range(len(moves)), key=lambda i: (-moves[i].rank, i))[:limit]
        return [(moves[i], say_label(moves[i].label)) for i in best]
    scored: list[tuple[int, float, int, Move, str]] = []
    for i, move in enumerate(moves):
        said = say_label(move.label)
        notation = normalise_notation(move.notation)
        label = normalise_notation(said)
        if notation == key or label == key:
            quality = 0
        elif notation.startswith(key) or label.startswith(key):
            quality = 1
        elif key in notation or key in label:
            quality = 2
        else:
            words = typed.lower().split()
            if words and all(w in said.lower() for w in words):
                quality = 3
            else:
                continue
        scored.append((quality, -move.rank, i, move, said))
    scored.sort(key=lambda s: s[:3])
    return [(s[3], s[4]) for s in scored[:limit]]


class PlayCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    # ----- /play -----------------------------------------------------------------------
    @app_commands.command(name="play", description=L("cmd.play"))
    @app_commands.describe(move=L("opt.move"))
    @app_commands.guild_only()
    async def play(
        self, interaction: discord.Interaction, move: app_commands.Range[str, 1, 100] | None = None
    ) -> None:
        bot = bot_of(interaction)
        match_id = await match_here(interaction)
        if not move:
            info = await bot.service.info(match_id)
            user, info, moves = await gate(interaction, match_id, info.version)
            composers = await bot.service.composers(match_id, user)
            content, view = build_panel(
                match_id, info.version, moves, [], loc(interaction), composers, info.names
            )
            await interaction.response.send_message(content, view=view, ephemeral=True)
            return
        # Playing renders a picture: acknowledge first, privately.
        await interaction.response.defer(ephemeral=True, thinking=True)
        await play_and_confirm(interaction, user_of(interaction), match_id, move, None)

    @play.autocomplete("move")
    async def play_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The caller's legal moves in human words; nothing when it is not their turn."""
        bot = bot_of(interaction)
        if interaction.channel_id is None:
            return []
        match_id = await bot.service.match_for_thread(str(interaction.channel_id))
        if match_id is None:
            return []
        info, moves = await bot.service.turn_for(match_id, user_of(interaction))
        locale = loc(interaction)

        def say_label(label: Any) -> str:
            return say(label, locale, info.names)

        return [
            app_commands.Choice(name=clip(label or m.notation, 100), value=m.notation[:100])
            for m, label in suggest(moves, current, say_label)
        ]

    # ----- looking -----------------------------------------------------------------------
    @app_commands.command(name="board", description=L("cmd.board"))
    @app_commands.guild_only()
    async def board(self, interaction: discord.Interaction) -> None:
        await show_board(interaction, await match_here(interaction), public=True)

    @app_commands.command(name="hand", description=L("cmd.hand"), extras=IN_DMS)
    @app_commands.describe(match=L("opt.match"))
    @app_commands.allowed_contexts(**DM_CONTEXTS)
    async def hand(self, interaction: discord.Interaction, match: int | None = None) -> None:
        """In a server: the match named, else the thread's. In a DM with the bot, without
        a number: the one running match where the caller holds a hidden hand, or, when
        there are several, a button for each to choose (the answer stays private)."""
        if match is None and in_dm(interaction):
            found = await hand_to_show(interaction)
            if found is None:
                return
            match = found
        match_id = await match_here(interaction, match)
        info = await bot_of(interaction).service.info(match_id)
        if not get_game(info.game_id).has_hidden_information:
            raise UserError("err.no_hidden", game=info.game_name)
        await send_hand(interaction, match_id)

    # ----- leaving and taking back -------------------------------------------------------
    @app_commands.command(name="resign", description=L("cmd.resign"))
    @app_commands.guild_only()
    async def resign(self, interaction: discord.Interaction) -> None:
        """Asks for a confirmation click (a button that survives restarts)."""
        bot = bot_of(interaction)
        locale = loc(interaction)
        match_id = await match_here(interaction)
        info = await bot.service.info(match_id)
        if info.seat_of(str(interaction.user.id)) is None:
            raise UserError("err.not_your_match")
        check_running(info)
        await answer(
            interaction,
            t("resign.confirm", locale, match=match_id),
            view=resign_view(match_id, info.version, locale),
        )

    @app_commands.command(name="undo", description=L("cmd.undo"))
    @app_commands.describe(refuse=L("opt.refuse"))
    @app_commands.guild_only()
    async def undo(self, interaction: discord.Interaction, refuse: bool = False) -> None:
        """Your own request, or your answer to another player's open request; the policy
        itself (own last move, nothing revealed, consent) is the service's."""
        bot = bot_of(interaction)
        locale = loc(interaction)
        user = user_of(interaction)
        match_id = await match_here(interaction)
        info = await bot.service.info(match_id)
        request = info.settings.get("undo") or {}
        seat = info.seat_of(user.id)
        open_now = bool(request) and request.get("version") == info.version
        if refuse and not open_now:  # a "no" to nothing must not ask for an undo
            raise UserError("svc.no_request")
        await interaction.response.defer(ephemeral=True, thinking=True)
        if open_now and seat is not None and seat != request.get("seat"):
            result = await bot.service.answer_undo(match_id, user, agree=not refuse)
            if isinstance(result, TurnReport):
                bot.kick()
                text = t("undo.done", locale)
            else:
                text = t("undo.refused" if refuse else "undo.agreed", locale)
        else:
            result = await bot.service.undo(match_id, user)
            bot.kick()
            text = t("undo.done" if isinstance(result, TurnReport) else "undo.asked", locale)
        assert isinstance(result, TurnReport | MatchInfo)
        await answer(interaction, text)

    # ----- rules -------------------------------------------------------------------------
    @app_commands.command(name="rules", description=L("cmd.rules"), extras=IN_DMS)
    @app_commands.describe(game=L("opt.game"))
    @app_commands.choices(game=game_choices())
    @app_commands.allowed_contexts(**DM_CONTEXTS)
    async def rules(self, interaction: discord.Interaction, game: str | None = None) -> None:
        bot = bot_of(interaction)
        locale = loc(interaction)
        if game is None:  # the thread's match's game; elsewhere (a DM) the game must be named
            found = None
            if interaction.channel_id is not None:
                found = await bot.service.match_for_thread(str(interaction.channel_id))
            if found is None:
                raise UserError("rules.which")
            game = (await bot.service.info(found)).game_id
        g = game_named(game)
        url = bot.settings.rules_url
        more = (
            t("rules.url", locale, url=url.format(game=g.id))
            if url
            else t("rules.file", locale, game=g.id.replace("-", "_"))
        )
        await answer(
            interaction,
            clip(
                t(
                    "rules.text",
                    locale,
                    game=g.name,
                    min=g.min_players,
                    max=g.max_players,
                    summary=say(g.summary, locale),
                    notation=say(g.notation_help, locale),
                    more=more,
                ),
                2000,
            ),
        )


async def hand_to_show(interaction: discord.Interaction) -> int | None:
    """The match whose hand ``/hand`` shows in a DM when no number was given: the only
    running match of any server where the caller holds a hidden hand. With several, the
    answer is a button per match (``th:<match>``, the **My hand** button of the turn
    posts), and None is returned; with none, a refusal in words."""
    bot = bot_of(interaction)
    locale = loc(interaction)
    mine = await bot.service.list_matches(user_id=str(interaction.user.id), lang=locale)
    hands = [
        m for m in mine if m.status == "running" and get_game(m.game_id).has_hidden_information
    ]
    if not hands:
        raise UserError("hand.none")
    if len(hands) == 1:
        return hands[0].id
    view = discord.ui.View(timeout=None)
    for m in hands[:25]:  # five rows of five buttons; more are named in the text
        view.add_item(
            HandButton(
                discord.ui.Button(
                    label=clip(f"#{m.id} {m.game_name}", 80),
                    style=discord.ButtonStyle.secondary,
                    custom_id=f"th:{m.id}",
                )
            )
        )
    named = listing([f"#{m.id} {m.game_name}" for m in hands], locale)
    await answer(interaction, clip(t("hand.which", locale, matches=named), 2000), view=view)
    return None


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(PlayCog(bot))
