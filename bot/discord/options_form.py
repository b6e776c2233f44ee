"""The lobby's game options as a form: a Discord modal with one select per option.

Why a form here, and not for all of ``/game new``: the match settings of ``/game new``
(players, computers, clock, hints …) are slash options the client already offers with
their ranges and choices, filled in one step with the defaults most groups keep; a modal
holds at most five components and must be the first answer to a click, so moving them
there would cost every group a second step and still not fit. A game's *own* options
were the weak spot: they were typed as ``options:grey_wall=on`` with names nobody knows.
The lobby's **Game options** button opens a form for its creator with each option as a
select in words of their language, the current value chosen, so nothing is typed and
nothing can be misspelt. It is the same change as the typed options: the service reads
each value by its spec and the whole set by the game (:meth:`Lobby.set_game_options`).

Submits are handled from ``on_interaction`` by the form's custom id (``tf:<match>``), not
by discord.py's modal store: a form stays open on the player's screen across a restart of
the bot, or may be submitted to another process, and its answer must still be understood.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.community.preferences import game_option_phrases, has_key
from bot.discord.common import (
    UserError,
    answer,
    bot_of,
    clip,
    count_action,
    loc,
    payload,
    same_server,
    user_of,
)
from bot.discord.panel import Guarded
from bot.matches import option_table
from bot.matches.reports import MatchInfo
from render.words.catalogue import match_language, number, t
from rules.base import OptionSpec

#: ``components/reference.mdx`` "Label Structure": label text ≤ 45, description ≤ 100;
#: "Interaction Response Object" "Modal": title ≤ 45, 1–5 components; "String Select":
#: 25 options at most.
TITLE_MAX = 45
LABEL_MAX = 45
FIELDS_MAX = 5
OPTIONS_MAX = 25
FORM_ID = re.compile(r"tf:(?P<m>\d+)")


def has_options(game_id: str) -> bool:
    """Whether the game has options of its own (the lobby shows the button only then)."""
    return bool(option_table.game_options(game_id))


def _key(info: MatchInfo, spec: OptionSpec) -> str:
    return f"{info.game_id.replace('-', '_')}.{spec.name}"


def _choices(info: MatchInfo, spec: OptionSpec, lang: Any) -> list[tuple[str, str]]:
    """(value as the option is typed, label) for each value a select offers: yes/no, a
    choice in words, a whole number in its range, or a seat (a whole number without a
    top: the game's first player) for each seat the lobby may fill."""
    if spec.kind == "bool":
        return [("on", t("yes", lang)), ("off", t("no", lang))]
    if spec.kind == "choice":
        key = f"settings.option.{_key(info, spec)}"
        return [(c, t(f"{key}.{c}", lang) if has_key(f"{key}.{c}") else c) for c in spec.choices]
    low = int(spec.low or 0)
    if spec.high is None:  # a 0-based seat number
        names = info.names
        return [
            (
                str(seat),
                t("options.form.seat_named", lang, n=seat + 1, name=names[seat])
                if seat < len(names)
                else t("options.form.seat", lang, n=seat + 1),
            )
            for seat in range(low, info.max_players)
        ]
    return [(str(v), number(v, lang)) for v in range(low, int(spec.high) + 1)]


def _chosen(spec: OptionSpec, value: Any) -> str:
    if spec.kind == "bool":
        return "on" if value else "off"
    return str(value)


def options_form(info: MatchInfo, lang: Any) -> discord.ui.Modal:
    """The form for ``info``'s game options in ``lang``, each select showing the
    option's value now. It is stopped before it is sent, so discord.py does not keep it
    (the submit is read by :func:`submitted`)."""
    form = discord.ui.Modal(
        title=clip(t("options.form.title", lang, game=info.game_name), TITLE_MAX),
        custom_id=f"tf:{info.id}",
    )
    specs = list(option_table.game_options(info.game_id).values())[:FIELDS_MAX]
    for spec in specs:
        now = _chosen(spec, info.options.get(spec.name, spec.default))
        choices = _choices(info, spec, lang)[:OPTIONS_MAX]
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=spec.name,
            options=[
                discord.SelectOption(label=clip(label, 100), value=value, default=value == now)
                for value, label in choices
            ],
        )
        text = t(f"options.form.{_key(info, spec)}", lang)
        form.add_item(discord.ui.Label(text=clip(text, LABEL_MAX), component=select))
    form.stop()
    return form


class GameOptionsButton(
    Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"tg:(?P<m>\d+)"
):
    """The lobby's **Game options** button: the form, for the lobby's creator only (a
    refusal says why before anyone fills anything in)."""

    async def run(self, interaction: discord.Interaction) -> None:
        await same_server(interaction, self.match_id)
        service = bot_of(interaction).service
        info = await service.options_form_for(self.match_id, user_of(interaction))
        await interaction.response.send_modal(options_form(info, loc(interaction)))


def options_button(match_id: int, lang: Any) -> discord.ui.Item[Any]:
    button: discord.ui.Button[Any] = discord.ui.Button(
        label=t("btn.game_options", lang),
        style=discord.ButtonStyle.secondary,
        custom_id=f"tg:{match_id}",
    )
    item: discord.ui.Item[Any] = GameOptionsButton(button)
    return item


def _values(data: Any) -> dict[str, str]:
    """What a form sent: custom id -> the value chosen, from Discord's modal submit data
    (each field a Label whose ``component`` carries ``values`` or a text ``value``)."""
    found: dict[str, str] = {}
    for row in data.get("components") or []:
        inner = [row.get("component")] if row.get("component") else row.get("components") or []
        for field in inner:
            if not isinstance(field, dict) or not field.get("custom_id"):
                continue
            values = field.get("values")
            if isinstance(values, list) and values:
                found[str(field["custom_id"])] = str(values[0])
            elif isinstance(field.get("value"), str):
                found[str(field["custom_id"])] = field["value"]
    return found


async def submitted(interaction: discord.Interaction) -> None:
    """A submitted form: the options set as chosen, said publicly in the lobby's thread
    in the match's language (the table sees what changed), or a refusal in the
    submitter's words (the lobby started meanwhile, or they are not its creator)."""
    bot = bot_of(interaction)
    data = payload(interaction)
    found = FORM_ID.fullmatch(str(data.get("custom_id", "")))
    try:
        if found is None:
            raise UserError("err.unknown_form")
        match_id = int(found["m"])
        count_action(interaction)
        await same_server(interaction, match_id)
        user = user_of(interaction)
        info = await bot.service.set_game_options(match_id, user, _values(data), loc(interaction))
        public = match_language(info.settings, interaction.guild_locale)
        phrases = game_option_phrases(info.game_id, info.options, public)
        text = t(
            "options.form.changed",
            public,
            user=user.name,
            match=match_id,
            options=t("words.comma", public).join(phrases),
        )
        await answer(interaction, text, ephemeral=False)
    except Exception as exc:
        await bot.report_error(interaction, exc)
