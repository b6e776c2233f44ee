"""``/game …``: open a lobby in a new thread, join, leave, start, list, abort, settings, sub.

Lobby words (joined, left, started) are posted as new messages in the thread rather than
edits of the lobby post: old messages are never edited (Discord rate-limits edits of old
messages hard), and the thread then reads as a log of what happened.
"""

from __future__ import annotations

import logging
from typing import Any, Final

import discord
from discord import app_commands
from discord.ext import commands

from bot.community import preferences, ratings
from bot.computers.players import DEFAULT_LEVEL, is_computer, level_refusal
from bot.discord.cards import lobby_card
from bot.discord.common import (
    DM_CONTEXTS,
    IN_DMS,
    UserError,
    answer,
    bot_of,
    clip,
    defer,
    in_dm,
    is_manager,
    loc,
    match_here,
    same_server,
    user_of,
)
from bot.discord.i18n import L, language_choices
from bot.discord.listing import list_sections, pages_of
from bot.discord.options_form import has_options
from bot.discord.subs import member_left, substitute_command
from bot.matches import option_table
from bot.matches.errors import NotAllowed, ServiceError
from bot.matches.reports import MatchInfo
from render.words.catalogue import match_language, supported_language, t, tn
from render.words.posts import listing
from rules.ai import LEVELS, levels_for
from rules.base import OptionSpec
from rules.registry import game_ids, get_game

log = logging.getLogger(__name__)

#: Threads archive after this many minutes of silence; 10080 (7 days) is Discord's maximum.
THREAD_ARCHIVE_MINUTES: Final = 10080


def game_choices() -> list[app_commands.Choice[str]]:
    """Every registered game that loads, generically (a fifth game needs no change here).
    A game whose module is not installed is left out rather than breaking start-up."""
    choices = []
    for gid in game_ids():
        try:
            game = get_game(gid)
        except Exception:  # an unmerged or broken game must not take the bot down
            log.info("game %s could not be loaded; not offered", gid)
            continue
        label = f"{game.name} ({game.min_players}–{game.max_players})"
        choices.append(app_commands.Choice(name=clip(label, 100), value=gid[:100]))
    return choices[:25]


def parse_options(text: str | None) -> dict[str, str]:
    """``size=5, variant=grey`` -> {"size": "5", "variant": "grey"}: the words as typed,
    read by the one table of options (bot/matches/option_table.py) by each option's kind."""
    try:
        return option_table.split_options(text)
    except ServiceError as exc:  # the bot layer's refusal, said in the asker's language
        raise UserError(exc.key or "err.bad_options", **exc.values) from None


async def text_channel(interaction: discord.Interaction, channel_id: int) -> discord.TextChannel:
    """The text channel a match thread is opened in: from the interaction or the cache,
    else fetched. Anything else (a forum, a voice channel) cannot hold our threads."""
    channel: Any = interaction.channel
    if getattr(channel, "id", None) != channel_id:
        channel = interaction.client.get_channel(channel_id)
    if channel is None:
        channel = await interaction.client.fetch_channel(channel_id)
    if not isinstance(channel, discord.TextChannel):
        raise UserError("err.cannot_thread")
    return channel


def table_new() -> dict[str, OptionSpec]:
    """The match settings /game new takes (the one table)."""
    return option_table.for_command(option_table.NEW)


def check_bots(game_id: str, players: int | None, bots: int) -> None:
    """Room for ``bots`` computer players beside the creator (refused before anything is
    created, so a bad request changes nothing)."""
    if not bots:
        return
    try:
        game = get_game(game_id)
    except KeyError:
        return  # the service names the unknown game
    seats = min(players or game.max_players, game.max_players)
    if bots > seats - 1:
        raise UserError("ai.too_many", game=game.name, max=seats, room=max(seats - 1, 0))


def check_level(game_id: str, level: str | None) -> None:
    """A known level, and one the game offers (strong only where it was measured stronger:
    ``rules.ai.levels_for``), refused before anything is created."""
    if level is None:
        return
    try:
        game = get_game(game_id)
    except KeyError:
        game = None  # the service names the unknown game
    refusal = level_refusal(game, level)
    if refusal is not None:
        key, values = refusal
        raise UserError(key, **values)


async def lobby_action(interaction: discord.Interaction, action: str, match_id: int) -> None:
    """Join / leave / start, shared by the buttons and the commands. Public words are in
    the server's language, private ones in the presser's."""
    bot = bot_of(interaction)
    user = user_of(interaction)
    locale = loc(interaction)
    await same_server(interaction, match_id)
    if action == "join":
        info = await bot.service.join(match_id, user)
        public = match_language(info.settings, interaction.guild_locale)
        text = t(
            "lobby.joined",
            public,
            user=user.name,
            match=match_id,
            count=len(info.seats),
            max=info.max_players,
            players=listing(info.names, public),
        )
        await answer(interaction, text, ephemeral=False)
    elif action == "leave":
        info = await bot.service.leave(match_id, user)
        key = "lobby.left_closed" if info.status == "aborted" else "lobby.left"
        public = match_language(info.settings, interaction.guild_locale)
        await answer(
            interaction,
            t(key, public, user=user.name, match=match_id),
            ephemeral=False,
        )
    else:
        # Starting renders the first picture: acknowledge first.
        await interaction.response.defer(ephemeral=True, thinking=True)
        await bot.service.start(match_id, user)
        bot.computers.watch(match_id)  # a computer seat may have the first move
        bot.kick()
        await interaction.followup.send(
            t("lobby.started", locale, user=user.name, match=match_id), ephemeral=True
        )


@app_commands.allowed_contexts(**DM_CONTEXTS)  # for /game list; the others refuse there
class GameCog(commands.GroupCog, group_name="game", group_description=L("cmd.game")):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="new", description=L("cmd.game.new"))
    @app_commands.describe(
        game=L("opt.game"),
        players=L("opt.players"),
        options=L("opt.options"),
        clock_days=L("opt.clock_days"),
        bots=L("opt.bots"),
        level=L("opt.level"),
        hints=L("opt.hints"),
        think_seconds=L("opt.think_seconds"),
        rated=L("opt.rated"),
    )
    @app_commands.choices(
        game=game_choices(),
        level=[app_commands.Choice(name=L(f"choice.level.{v}"), value=v) for v in LEVELS],
    )
    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        players: app_commands.Range[int, 1, 10] | None = None,
        options: app_commands.Range[str, 1, 200] | None = None,
        clock_days: app_commands.Range[float, 0, 60] | None = None,
        bots: app_commands.Range[int, 0, 9] | None = None,
        level: str | None = None,
        hints: bool | None = None,
        think_seconds: app_commands.Range[float, 0.5, 30.0] | None = None,
        rated: bool | None = None,
    ) -> None:
        bot = bot_of(interaction)
        user = user_of(interaction)
        locale = loc(interaction)
        words = parse_options(options)
        if "players" in words:  # typed among the options: fine once, refused twice
            if players is not None:
                raise UserError("err.option_twice", name="players")
            players = option_table.read_word(table_new()["players"], words.pop("players"), locale)
        option_table.check_settings(
            option_table.NEW,
            {
                "players": players,
                "bots": bots,
                "level": level,
                "clock_days": clock_days,
                "hints": hints,
                "think_seconds": think_seconds,
                "rated": rated,
            },
        )
        opts = option_table.read_game_options(game, words, locale) if game in game_ids() else {}
        check_bots(game, players, bots or 0)
        check_level(game, level)
        if interaction.guild_id is not None:  # a lobby opens a thread and posts: limited
            await bot.flood.check_new_lobby(bot.service.store, user.id, str(interaction.guild_id))
        # the match's public words: the server's language now, changeable in /game settings
        language = supported_language(interaction.guild_locale)
        settings: dict[str, Any] = {"language": language}
        if clock_days:
            settings["clock_days"] = clock_days
        if hints is not None:
            settings["hints"] = hints
        if think_seconds is not None:
            settings["think_seconds"] = think_seconds
        if level is not None:  # also the level of a computer taking over a resigned seat
            settings["level"] = level
        if rated is not None:  # unset: rated when every seat is a person (bot/community/ratings.py)
            settings["rated"] = rated
        parent = getattr(interaction.channel, "parent_id", None) or interaction.channel_id
        # Creating the match first (fast, no picture) lets refusals stay private.
        info = await bot.service.create_match(
            game,
            user,
            opts,
            max_players=players,
            guild_id=str(interaction.guild_id),
            channel_id=str(parent),
            settings=settings,
        )
        for _ in range(bots or 0):  # checked above: there is room for them
            info = await bot.service.add_computer(info.id, user, level or DEFAULT_LEVEL)
            bot.computers.watch(info.id)
        await defer(interaction, ephemeral=False)
        try:
            channel = await text_channel(interaction, int(parent))  # type: ignore[arg-type]
            thread = await channel.create_thread(
                name=clip(f"#{info.id} {info.game_name}", 100),
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                type=discord.ChannelType.public_thread,
            )
            await bot.service.set_thread(info.id, str(thread.id))
            card = lobby_card(
                info.game_name,
                info.id,
                language,
                creator=interaction.user.mention,
                low=info.min_players,
                high=info.max_players,
                levels=levels_for(get_game(info.game_id)),
                options=has_options(info.game_id),
            )
            await thread.send(
                view=card.view,
                # the mention adds the creator to the thread
                allowed_mentions=discord.AllowedMentions(users=[interaction.user]),
            )
        except (discord.HTTPException, discord.RateLimited, TimeoutError, UserError):
            # RateLimited (a wait longer than max_ratelimit_timeout) is no HTTPException.
            # Without a thread and its lobby post nobody could join: close the lobby and
            # say so privately.
            log.warning("opening the thread for match %s failed", info.id, exc_info=True)
            await bot.service.abort(info.id, user, is_admin=True)
            await answer(interaction, t("err.cannot_thread", loc(interaction)))
            return
        if bots:
            try:
                await thread.send(
                    t(
                        "lobby.with_computers",
                        language,
                        match=info.id,
                        names=listing(info.names[1:], language),
                    )
                )
            except (discord.HTTPException, discord.RateLimited):  # a note; the lobby is open
                log.warning("posting the computers of match %s failed", info.id, exc_info=True)
        await answer(
            interaction,
            t(
                "lobby.opened",
                language,
                user=user.name,
                game=info.game_name,
                match=info.id,
                thread=thread.mention,
            ),
            ephemeral=False,
        )

    @app_commands.command(name="join", description=L("cmd.game.join"))
    @app_commands.describe(match=L("opt.match"))
    async def join(self, interaction: discord.Interaction, match: int | None = None) -> None:
        await lobby_action(interaction, "join", await match_here(interaction, match))

    @app_commands.command(name="leave", description=L("cmd.game.leave"))
    @app_commands.describe(match=L("opt.match"))
    async def leave(self, interaction: discord.Interaction, match: int | None = None) -> None:
        await lobby_action(interaction, "leave", await match_here(interaction, match))

    @app_commands.command(name="start", description=L("cmd.game.start"))
    @app_commands.describe(match=L("opt.match"))
    async def start(self, interaction: discord.Interaction, match: int | None = None) -> None:
        await lobby_action(interaction, "start", await match_here(interaction, match))

    @app_commands.command(name="list", description=L("cmd.game.list"), extras=IN_DMS)
    @app_commands.describe(page=L("opt.page"))
    async def list_(
        self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 1000] = 1
    ) -> None:
        """The matches waiting for the caller in every server first (bot/discord/listing.py
        says why), then this server's open and running matches — in a DM with the bot,
        the caller's other matches instead — in pages that fit one message (2,000
        characters), never cut in the middle of a line."""
        locale = loc(interaction)
        here = None if in_dm(interaction) else str(interaction.guild_id)
        sections, count = await list_sections(
            bot_of(interaction), str(interaction.user.id), here, locale
        )
        if not sections:
            await answer(interaction, t("list.empty" if here else "list.none_yours", locale))
            return
        pages = pages_of(sections)
        if page > len(pages):  # the last page instead said nothing of the page asked
            raise ServiceError.said("list.no_page", n=len(pages), page=page)
        number = max(1, page)
        text = "\n".join(pages[number - 1])
        if len(pages) > 1:
            text += "\n" + tn(
                "list.page",
                count,
                locale,
                page=number,
                pages=len(pages),
                next=number % len(pages) + 1,
            )
        await answer(interaction, text)

    @app_commands.command(name="abort", description=L("cmd.game.abort"))
    @app_commands.describe(match=L("opt.match"), reason=L("opt.reason"))
    async def abort(
        self,
        interaction: discord.Interaction,
        match: int | None = None,
        reason: app_commands.Range[str, 1, 300] | None = None,
    ) -> None:
        """A lobby: its creator closes it. A running match: a vote of its players (the
        service counts it), or a server manager's moderation with a reason."""
        bot = bot_of(interaction)
        match_id = await match_here(interaction, match)
        info = await bot.service.abort(
            match_id, user_of(interaction), is_admin=is_manager(interaction), reason=reason
        )
        bot.kick()
        if info.status == "aborted":
            await answer(interaction, t("match.aborted", loc(interaction), match=match_id))
            return
        people = [s.user_id for s in info.seats if not is_computer(s.user_id)]
        votes = [u for u in info.settings.get("abort_votes", []) if u in people]
        await answer(
            interaction,
            t(
                "abort.voted",
                loc(interaction),
                match=match_id,
                votes=len(votes),
                needed=len(people) // 2 + 1,
            ),
        )

    @app_commands.command(name="settings", description=L("cmd.game.settings"))
    @app_commands.describe(
        reminder_hours=L("opt.reminder_hours"),
        reminder_max=L("opt.reminder_max"),
        clock_days=L("opt.clock_days"),
        clock_action=L("opt.clock_action"),
        match=L("opt.match"),
        hints=L("opt.hints"),
        think_seconds=L("opt.think_seconds"),
        language=L("opt.language"),
        rated=L("opt.rated"),
    )
    @app_commands.choices(
        clock_action=[
            app_commands.Choice(name=L("choice.action.skip"), value="skip"),
            app_commands.Choice(name=L("choice.action.forfeit"), value="forfeit"),
        ],
        language=language_choices(),
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        reminder_hours: app_commands.Range[float, 0, 336] | None = None,
        reminder_max: app_commands.Range[int, 0, 50] | None = None,
        clock_days: app_commands.Range[float, 0, 60] | None = None,
        clock_action: str | None = None,
        match: int | None = None,
        hints: bool | None = None,
        think_seconds: app_commands.Range[float, 0.5, 30.0] | None = None,
        language: str | None = None,
        rated: bool | None = None,
    ) -> None:
        """Per-match reminder interval, clock and language of the public posts; players
        override the interval for themselves with /notify. ``rated`` may change until the
        match ends (the finish reads it; bot/community/ratings.py)."""
        bot = bot_of(interaction)
        locale = loc(interaction)
        match_id = await match_here(interaction, match)
        info = await bot.service.info(match_id)
        if info.creator_id != str(interaction.user.id) and not is_manager(interaction):
            raise UserError("err.not_creator")
        given = {
            "reminder_hours": reminder_hours,
            "reminder_max": reminder_max,
            "clock_days": clock_days,
            "clock_action": clock_action,
            "hints": hints,
            "think_seconds": think_seconds,
            "language": language,
            "rated": rated,
        }
        option_table.check_settings(option_table.SETTINGS, given)
        if rated is not None and (
            info.status in ("finished", "aborted")
            or not await ratings.set_rated(bot.service.store, match_id, rated)
        ):
            raise UserError("err.rated_over", match=match_id)
        # rated lives in the ratings tables (set above), the rest in the match settings
        changes = {k: v for k, v in given.items() if v is not None and k != "rated"}
        if changes:
            info = await bot.service.update_settings(match_id, **changes)
        elif rated is not None:
            info = await bot.service.info(match_id)
        summary = settings_summary(bot, info, locale, interaction.guild_locale)
        key = "settings.saved" if changes or rated is not None else "settings.none"
        await answer(interaction, t(key, locale, match=match_id, summary=summary))

    @app_commands.command(name="sub", description=L("cmd.game.sub"))
    @app_commands.describe(
        new=L("opt.sub_new"),
        seat=L("opt.sub_seat"),
        computer=L("opt.sub_computer"),
        match=L("opt.match"),
    )
    async def sub(
        self,
        interaction: discord.Interaction,
        new: discord.User | None = None,
        seat: app_commands.Range[int, 1, 10] | None = None,
        computer: bool | None = None,
        match: int | None = None,
    ) -> None:
        """Hand your own seat to someone (they accept), or open a vote on a deserted
        seat (bot/discord/subs.py). ``new`` is any Discord user: one who is no member of
        this server cannot take a seat here, and is refused before anything is offered."""
        if new is not None and not new.bot:
            await check_member(interaction, new)
        await substitute_command(interaction, new, seat, computer, match)

    @commands.Cog.listener()
    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        """Only delivered with the Server Members intent; see bot/discord/subs.py."""
        await member_left(self.bot, payload.guild_id, payload.user.id)


async def check_member(interaction: discord.Interaction, user: discord.User) -> None:
    """``user`` is a member of the server the command is used in. Discord sends a member
    with a user option when they are one; otherwise it is asked, and "Unknown Member"
    (404) refuses them. Another failure lets the offer go on: the offer itself can only
    be taken by the person it names."""
    if interaction.guild_id is None or isinstance(user, discord.Member):
        return
    try:
        await bot_of(interaction).http.get_member(interaction.guild_id, user.id)
    except discord.NotFound:
        raise UserError("sub.not_member", name=user.display_name) from None
    except (discord.HTTPException, discord.RateLimited):
        log.warning("could not look up member %s", user.id, exc_info=True)


def settings_summary(bot: Any, info: MatchInfo, locale: Any, server_locale: Any = None) -> str:
    """The match's settings and its game's own options, in words of ``locale``."""
    return preferences.settings_summary(
        bot.settings,
        info.settings,
        locale,
        server_locale,
        game_id=info.game_id,
        options=info.options,
    )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(GameCog(bot))


__all__ = ["GameCog", "NotAllowed", "game_choices", "lobby_action", "parse_options"]
