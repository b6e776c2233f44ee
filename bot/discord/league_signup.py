"""A league's sign-up post and its **Join** / **Leave** buttons.

Why the post is edited in place (unlike a lobby, whose joins are new messages in its
thread): the sign-up post sits in the server's channel, not in a thread of its own, and a
message per join would flood the channel; the post is the sign-up sheet, read for who is
in. A click answers by updating the very message it was pressed on (interaction callback
type 7, UPDATE_MESSAGE: ``interactions/receiving-and-responding.mdx`` "Interaction Callback
Type"), which costs nothing of the bot's rate limits, then tells the presser privately. A
``/league leave`` typed elsewhere edits the post by its stored id, best effort.

Custom ids: ``lg:<join|leave>:<league>`` — dynamic items (``bot/discord/items.py``), so the
buttons keep working for the days of a sign-up and across restarts.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.discord.cards import Card, _button, _card, fit
from bot.discord.common import bot_of, loc, user_of
from bot.discord.panel import Guarded
from render.league import league_title
from render.words.catalogue import number, t, tn
from render.words.posts import listing
from render.words.stamps import discord_time

log = logging.getLogger(__name__)


def format_words(info: Any, lang: str) -> str:
    """What kind of league it is and until when to sign up, in a sentence or two."""
    rounds = (
        tn("leagues.rounds", int(info.rounds), lang)
        if info.rounds
        else t("leagues.rounds.all", lang)
    )
    days = float(info.days_per_move)
    if days.is_integer():
        clock = tn("leagues.clock", int(days), lang)
    else:  # a fraction of days: the form of "more than one", the figure as written
        clock = t("leagues.clock.other", lang, n=number(days, lang))
    what = t(
        "leagues.signup.body",
        lang,
        user=f"<@{info.creator_id}>" if str(info.creator_id).isdigit() else info.creator_id,
        format=t(f"leagues.format.{info.format}", lang),
        tables=tn("leagues.tables", int(info.players_per_table), lang),
        rounds=rounds,
        clock=clock,
        rated=t("leagues.rated.yes" if info.rated else "leagues.rated.no", lang),
        fill=t(f"leagues.fill.{info.fill}", lang),
    )
    if info.signup_until is None:
        return what + "\n" + t("leagues.signup.until_start", lang)
    until = t(
        "leagues.signup.until",
        lang,
        deadline=discord_time(info.signup_until, "F"),
        left=discord_time(info.signup_until, "R"),
    )
    return what + "\n" + until


def signup_card(info: Any, lang: str) -> Card:
    """The sign-up post as it stands: what the league is, who signed up, the buttons
    (while the sign-up is open; the post of a started or cancelled league keeps its words
    and says so instead)."""
    title = "### " + t(
        "leagues.signup.title", lang, league=league_title(info, lang), game=info.game_name
    )
    names = [p.name for p in info.players if p.left_at is None]
    who = (
        tn("leagues.signup.players", len(names), lang, names=listing(names, lang))
        if names
        else t("leagues.signup.nobody", lang)
    )
    body = [format_words(info, lang), who]
    rows: list[list[discord.ui.Item[Any]]] = []
    if info.status == "signup":
        join = t("btn.league_join", lang)
        leave = t("btn.league_leave", lang)
        rows.append(
            [
                _button(LeagueButton, f"lg:join:{info.id}", join, discord.ButtonStyle.primary),
                _button(LeagueButton, f"lg:leave:{info.id}", leave, discord.ButtonStyle.secondary),
            ]
        )
    else:
        status = t(f"leagues.status.{info.status}", lang)
        body.append(t("leagues.signup.closed", lang, status=status))
    top, text = fit([title], body)
    return _card(top, None, text, rows)


#: Where a league's settings keep its sign-up post (``Leagues.remember``).
POST_KEY = "signup_post"


async def refresh_signup(bot: Any, info: Any, lang: str) -> None:
    """Edit the league's sign-up post to how it stands (best effort: a deleted post, a
    post too old for Discord to edit, a channel the bot may no longer write in leave it
    as it was — its buttons then answer with the league's state in words)."""
    post = info.settings.get(POST_KEY)
    if not isinstance(post, dict) or not post.get("channel") or not post.get("message"):
        return
    card = signup_card(info, lang)
    channel = bot.get_partial_messageable(int(post["channel"]))
    message = channel.get_partial_message(int(post["message"]))
    try:
        await message.edit(view=card.view)
    except (discord.HTTPException, discord.RateLimited):
        log.info("could not update the sign-up post of league %s", info.id, exc_info=True)


class LeagueButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"lg:(?P<a>join|leave):(?P<l>\d+)",
):
    """Join or leave a league from its sign-up post."""

    def parse(self, parts: dict[str, str]) -> None:
        self.action = parts["a"]
        self.league_id = int(parts["l"])

    async def run(self, interaction: discord.Interaction) -> None:
        from bot.discord.cogs.league import same_server_league
        from bot.discord.league_posts import league_language, leagues_of_bot

        bot = bot_of(interaction)
        leagues = leagues_of_bot(bot)
        await same_server_league(interaction, self.league_id)
        user = user_of(interaction)
        if self.action == "join":
            info = await leagues.join(self.league_id, user)
            key = "leagues.joined"
        else:
            info = await leagues.leave(self.league_id, user)
            key = "leagues.left"
        card = signup_card(info, league_language(info, interaction.guild_locale))
        await interaction.response.edit_message(view=card.view)
        name = league_title(info, loc(interaction))
        await interaction.followup.send(t(key, loc(interaction), league=name), ephemeral=True)


__all__ = ["POST_KEY", "LeagueButton", "refresh_signup", "signup_card"]
