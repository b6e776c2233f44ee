"""``/game …`` in the console: new, join, leave, start, list, bot, unbot, abort, settings,
options (``/game sub`` is in ``subs.py``), with the options of Discord's ``/game`` commands.

A match is named as Discord's ``match`` option names it — ``/game start 9``, ``#9`` or
``match=9`` — else it is the match looked at (``/use``); a number that names no match the
command can act on is refused by the service in words, and nothing falls back to another
match (``/game start 9`` started the match looked at, issue 41).
"""

from __future__ import annotations

from typing import Any

from bot.community import preferences, ratings
from bot.computers.players import DEFAULT_LEVEL, is_computer, level_refusal
from bot.console.leagues import league_names
from bot.console.session import Session
from bot.console.subs import game_sub
from bot.matches import option_table
from bot.matches.errors import ServiceError
from render.league import league_note
from render.words.catalogue import t
from render.words.posts import listing
from rules import get_game
from rules.registry import game_ids

#: Discord's /game list takes pages 1–1000; the console's list is one page.
LAST_PAGE = 1000


async def game(s: Session, args: list[str]) -> list[str]:
    sub = args[0].lower() if args else ""
    handler = {
        "new": new,
        "join": join,
        "leave": leave,
        "start": start,
        "settings": settings,
        "options": game_options,
        "sub": game_sub,
        "list": list_matches,
        "bot": add_computer,
        "unbot": remove_computer,
        "abort": abort,
    }.get(sub)
    if handler is None:
        raise ServiceError.said("console.game_usage")
    return await handler(s, args[1:])


async def new(s: Session, rest: list[str]) -> list[str]:
    if not rest:
        raise ServiceError.said("console.which_game", games=", ".join(game_ids()))
    # match settings read by the one table (bot/matches/option_table.py); the
    # game's own options by its Options model; a bad value is refused, naming it
    words: dict[str, str] = {}
    for item in rest[1:]:
        if "=" not in item:
            raise ServiceError.said("console.option_form", word=item)
        key, value = item.split("=", 1)
        # options="grey_wall=on, …" as Discord's options field, or each by itself
        pairs = option_table.split_options(value).items() if key == "options" else [(key, value)]
        for name, raw in pairs:
            if name in words:
                raise ServiceError.said("err.option_twice", name=name)
            words[name] = raw
    table = option_table.for_command(option_table.NEW)
    given = {k: option_table.read_word(table[k], v, s.lang) for k, v in words.items() if k in table}
    game_id = rest[0].lower()
    if game_id in game_ids():
        own = {k: v for k, v in words.items() if k not in table}
        options = option_table.read_game_options(game_id, own, s.lang)
    else:
        options = {}
    players: int | None = given.pop("players", None)
    bots: int = given.pop("bots", 0)
    level: str = given.get("level", DEFAULT_LEVEL)  # also a resigner's stand-in's
    match_settings: dict[str, Any] = {"language": s.lang, **given}
    chosen = get_game(game_id) if game_id in game_ids() else None
    refusal = level_refusal(chosen, level)
    if refusal is not None:
        key, values = refusal
        raise ServiceError.said(key, **values)
    seats = min(players or chosen.max_players, chosen.max_players) if chosen else 0
    if chosen and bots > seats - 1:
        raise ServiceError.said("ai.too_many", game=chosen.name, max=seats, room=seats - 1)
    info = await s.service.create_match(
        game_id, s.me, options, max_players=players, settings=match_settings
    )
    s.current = info.id
    for _ in range(bots):
        info = await s.service.add_computer(info.id, s.me, level)
    return [t("console.opened", s.lang, match=info.id, game=info.game_name)]


async def join(s: Session, rest: list[str]) -> list[str]:
    match_id = s.match_named("game join", rest)
    info = await s.service.join(match_id, s.me)
    s.current = match_id
    return [
        t(
            "lobby.joined",
            s.lang,
            user=s.me.name,
            match=match_id,
            count=len(info.seats),
            max=info.max_players,
            players=listing(info.names, s.lang),
        )
    ]


async def leave(s: Session, rest: list[str]) -> list[str]:
    info = await s.service.leave(s.match_named("game leave", rest), s.me)
    return [t("lobby.left", s.lang, user=s.me.name, match=info.id)]


async def start(s: Session, rest: list[str]) -> list[str]:
    match_id = s.match_named("game start", rest)
    report = await s.service.start(match_id, s.me)
    s.current = match_id  # the match just started is the one to play
    return [t("console.started", s.lang, match=report.match.id), *s.who_acts(report.match)]


async def list_matches(s: Session, rest: list[str]) -> list[str]:
    """``/game list [page]``: Discord's pages; the console's list is one screen, so
    any page but the first is refused (a page past the end was shown as the last)."""
    given, words = s.named(rest, ("page",), positional=1)
    raw = given.get("page", words[0] if words else "1")
    if not raw.isdigit() or not 1 <= int(raw) <= LAST_PAGE:
        raise ServiceError.said("err.bad_number", name="page", low=1, high=LAST_PAGE)
    if int(raw) > 1:
        raise ServiceError.said("list.no_page", n=1, page=int(raw))
    matches = await s.service.list_matches(lang=s.lang)
    if not matches:
        return [t("console.list_empty", s.lang)]
    leagues = await league_names(s, matches)
    return [
        t(
            "console.list_line",
            s.lang,
            match=m.id,
            game=m.game_name,
            status=t(f"console.status.{m.status}", s.lang),
            players=listing(m.names, s.lang),
            text=m.status_text.splitlines()[0] + league_note(m.settings, s.lang, leagues),
        )
        for m in matches
    ]


async def add_computer(s: Session, rest: list[str]) -> list[str]:
    """``/game bot [level]``: a computer player in the lobby looked at (Discord's lobby
    buttons)."""
    s.no_more("game bot", rest, 1, on_match=True)
    match_id = s.need_match()
    level = rest[0].lower() if rest else DEFAULT_LEVEL
    info = await s.service.add_computer(match_id, s.me, level)
    return [
        t(
            "lobby.computer_added",
            s.lang,
            name=info.names[-1],
            match=match_id,
            count=len(info.seats),
            max=info.max_players,
            players=listing(info.names, s.lang),
        )
    ]


async def remove_computer(s: Session, rest: list[str]) -> list[str]:
    s.no_more("game unbot", rest, on_match=True)
    match_id = s.need_match()
    _info, name = await s.service.remove_computer(match_id, s.me)
    return [t("lobby.computer_removed", s.lang, name=name, match=match_id)]


async def abort(s: Session, rest: list[str]) -> list[str]:
    """``/game abort [match] [reason=…]``: Discord's options. The console has no server
    managers: a lobby's creator closes it, a running match's players vote; the reason is
    shown with the vote or the closing, as on Discord."""
    given, words = s.named(rest, ("match", "reason"), positional=1)
    if words and "match" in given:
        raise ServiceError.said("err.option_twice", name="match")
    named = words[0] if words else given.get("match")
    match_id = s.match_number(named) if named is not None else s.need_match()
    info = await s.service.abort(match_id, s.me, reason=given.get("reason"))
    if info.status == "aborted":
        return [t("match.aborted", s.lang, match=info.id)]
    people = [u.user_id for u in info.seats if not is_computer(u.user_id)]
    votes = [u for u in info.settings.get("abort_votes", []) if u in people]
    return [
        t(
            "abort.voted",
            s.lang,
            match=info.id,
            votes=len(votes),
            needed=len(people) // 2 + 1,
        )
    ]


async def settings(s: Session, args: list[str]) -> list[str]:
    """``/game settings [match=N] [name=value …]``: the match's creator changes them
    (the console has no server managers); without options it shows them. The names and
    what each allows are the one table's (bot/matches/option_table.py), as on Discord."""
    table = option_table.for_command(option_table.SETTINGS)
    words, _ = s.named(args, (*table, "match"))
    # match=N names the match (as Discord's match option); without it, the current one
    match_id = s.match_number(words.pop("match")) if "match" in words else s.need_match()
    info = await s.service.info(match_id)
    changes = {k: option_table.read_word(table[k], v, s.lang) for k, v in words.items()}
    if changes and info.creator_id != s.me.id:
        raise ServiceError.said("err.not_creator")
    rated = changes.pop("rated", None)
    if rated is not None and (
        info.status in ("finished", "aborted")
        or not await ratings.set_rated(s.service.store, match_id, rated)
    ):
        raise ServiceError.said("err.rated_over", match=match_id)
    if changes:
        info = await s.service.update_settings(match_id, **changes)
    elif rated is not None:
        info = await s.service.info(match_id)
    summary = preferences.settings_summary(
        s.settings, info.settings, s.lang, game_id=info.game_id, options=info.options
    )
    key = "settings.saved" if changes or rated is not None else "settings.none"
    return [t(key, s.lang, match=match_id, summary=summary)]


async def game_options(s: Session, args: list[str]) -> list[str]:
    """``/game options [match=N] [name=value …]``: the twin of the lobby's **Game options**
    form on Discord. Without values it says the game's options now; with them the
    lobby's creator changes them before the start (the service checks who and when)."""
    words = list(args)
    named = bool(words) and words[0].startswith("match=")
    match_id = s.match_number(words.pop(0).split("=", 1)[1]) if named else s.need_match()
    values: dict[str, str] = {}
    for item in words:
        name, sep, raw = item.partition("=")
        if not sep:
            raise ServiceError.said("console.option_form", word=item)
        if name in values:
            raise ServiceError.said("err.option_twice", name=name)
        values[name] = raw
    if not values:
        info = await s.service.info(match_id)
        phrases = preferences.game_option_phrases(info.game_id, info.options, s.lang)
        return [t("words.comma", s.lang).join(phrases) or t("options.none", s.lang)]
    info = await s.service.set_game_options(match_id, s.me, values, s.lang)
    phrases = preferences.game_option_phrases(info.game_id, info.options, s.lang)
    options = t("words.comma", s.lang).join(phrases)
    return [t("options.form.changed", s.lang, user=s.me.name, match=match_id, options=options)]
