"""Every component the bot answers, in one tuple for ``add_dynamic_items``.

Why a module of its own: discord.py runs *every* dynamic item whose template matches a
custom id, so the catch-all :class:`UnknownItem` must know all the others to stay silent
when one of them handles the id; the others live in several modules (the move panel,
the options form), and only a module importing all of them can list them.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.discord.common import UserError, count_action, payload
from bot.discord.league_signup import LeagueButton
from bot.discord.options_form import GameOptionsButton
from bot.discord.panel import (
    BoardButton,
    ComposeButton,
    ComposeSelect,
    ComputerButton,
    ConfirmMove,
    Guarded,
    HandButton,
    HintButton,
    HistoryButton,
    LobbyButton,
    MuteButton,
    PanelOpen,
    ResignButton,
    StepButton,
    StepSelect,
    SubButton,
)

KNOWN_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    PanelOpen,
    StepButton,
    StepSelect,
    ConfirmMove,
    ComposeButton,
    ComposeSelect,
    HandButton,
    BoardButton,
    HistoryButton,
    HintButton,
    LobbyButton,
    ComputerButton,
    GameOptionsButton,
    MuteButton,
    ResignButton,
    SubButton,
    LeagueButton,  # a league's sign-up post (bot/discord/league_signup.py)
)


class UnknownItem(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"(?s).*"):
    """Any component whose custom id no other item understands (a malformed id, or one
    from an older version of the bot): answered in words instead of leaving the user
    with Discord's "This interaction failed". discord.py runs every item whose template
    matches, so this one stays silent when a known item handles the id."""

    counted = False  # only what it refuses: a known item counts its own clicks

    async def run(self, interaction: discord.Interaction) -> None:
        custom_id = str(payload(interaction).get("custom_id", ""))
        if any(k.__discord_ui_compiled_template__.fullmatch(custom_id) for k in KNOWN_ITEMS):
            return
        count_action(interaction)
        raise UserError("err.unknown_button")


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (*KNOWN_ITEMS, UnknownItem)
