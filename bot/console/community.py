"""The console's commands beside play: /leaderboard, /stats, /rules, /notify, /lang, /use,
/export, /audit and /help.

Why each checks its words: a word that names no game fell back to the game of the match
looked at (``/leaderboard azull`` showed Pile's table), a word that names nobody became a
player's name (``/stats azull``), and ``/notify`` with nothing answered "Saved." (issue 41).
A game is one of the games, a person someone this console knows, and a command that
changes nothing says so, with what is set now and how to change it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.community import preferences, ratings, stats
from bot.console.session import Session, help_text, no_game
from bot.matches import option_table
from bot.matches.errors import ServiceError
from bot.matches.reports import User
from render.words.catalogue import LANGUAGES, language_name, supported_language, t
from render.words.posts import listing
from render.words.say import say
from render.words.stamps import discord_time
from rules import get_game
from rules.registry import game_ids

#: /notify's preferences as the console types them (Discord's options, as name=value).
NOTIFY_FORM = "/notify mode=… reminder_hours=… quiet_from=… quiet_to=… utc_offset=… heads_up=…"


async def game_named(s: Session, command: str, args: list[str]) -> str | None:
    """The one game ``args`` name, else the game of the match looked at (None without
    one); a word that is no game is refused, naming the games."""
    s.no_more(command, args, 1)
    if args:
        if args[0].lower() not in game_ids():
            raise no_game(args[0])
        return args[0].lower()
    if s.current is None:
        return None
    return (await s.service.info(s.current)).game_id


async def leaderboard(s: Session, args: list[str]) -> list[str]:
    game_id = await game_named(s, "leaderboard", args)
    if game_id is None:
        raise ServiceError.said("console.leaderboard_usage", games=", ".join(game_ids()))
    board = await ratings.leaderboard(s.service.store, None, game_id)
    return ratings.leaderboard_lines(board, get_game(game_id).name, s.lang)


async def rules(s: Session, args: list[str]) -> list[str]:
    game_id = await game_named(s, "rules", args)
    if game_id is None:
        raise ServiceError.said("console.rules_usage", games=", ".join(game_ids()))
    game = get_game(game_id)
    return [
        t("console.rules_head", s.lang, game=game.name, min=game.min_players, max=game.max_players),
        say(game.summary, s.lang),
        say(game.notation_help, s.lang),
    ]


async def player_stats(s: Session, args: list[str]) -> list[str]:
    """``/stats [name] [game]`` and ``/stats server [game]``: a word is a game, or (for a
    player's stats) a person this console knows; any other word is refused."""
    words = [w.lower() for w in args]
    server = bool(words) and words[0] == "server"
    if server:
        words, args = words[1:], args[1:]
    games = [w for w in words if w in game_ids()]
    others = [a for a, w in zip(args, words, strict=True) if w not in game_ids()]
    if server and others:  # the server's stats take a game only
        raise no_game(others[0])
    if len(games) > 1 or len(others) > 1:
        raise s.stray("stats", [*games[1:], *others[1:]])
    game_id = games[0] if games else None
    if server:
        return await stats.server_report(s.service.store, None, game_id, s.lang)
    user = await _person(s, others[0]) if others else s.me
    return await stats.player_report(s.service.store, None, user.id, user.name, game_id, s.lang)


async def _person(s: Session, word: str) -> User:
    """The known person ``word`` names; a word that is neither a game nor a person is
    refused naming both."""
    try:
        return await s.player(word)
    except ServiceError:
        names = listing(await s.known_names(), s.lang)
        raise ServiceError.said(
            "console.stats_word", word=word, games=", ".join(game_ids()), names=names
        ) from None


async def notify(s: Session, args: list[str]) -> list[str]:
    """``/notify away <days>`` / ``/notify back`` pause and resume the clocks;
    ``/notify name=value …`` sets the alert preferences; ``/notify`` alone shows them."""
    if args and args[0].lower() in ("away", "back"):
        return await _away(s, args)
    if not args:  # nothing given, nothing saved: what is set, and how to change it
        user = await s.service.store.get_user(s.me.id)
        summary = preferences.notify_summary(user, s.lang)
        return [t("notify.unchanged", s.lang, summary=summary, form=NOTIFY_FORM)]
    given, _ = s.named(
        args, ("mode", "reminder_hours", "quiet_from", "quiet_to", "utc_offset", "heads_up")
    )
    kinds: dict[str, Any] = {
        "mode": str.lower,
        "reminder_hours": float,
        "quiet_from": int,
        "quiet_to": int,
        "utc_offset": float,
        "heads_up": _flag,
    }
    opts: dict[str, Any] = {}
    for key, raw in given.items():
        try:
            opts[key] = kinds[key](raw)
        except ValueError:
            word = f"{key}={raw}"
            raise ServiceError.said("console.options", word=word, names=", ".join(kinds)) from None
    user = await preferences.update_notify(s.service.store, s.me.id, s.me.name, s.lang, **opts)
    return [t("notify.saved", s.lang, summary=preferences.notify_summary(user, s.lang))]


def _flag(text: str) -> bool:
    """on/off, yes/no, true/false (anything else is refused): the yes/no words of every
    option (bot/matches/option_table.py)."""
    low = text.lower()
    if low in option_table.TRUE_WORDS:
        return True
    if low in option_table.FALSE_WORDS:
        return False
    raise ValueError(text)


async def _away(s: Session, args: list[str]) -> list[str]:
    """``/notify away <days>`` and ``/notify back`` (as Discord's ``/notify away:`` and
    ``back:``)."""
    sub = args[0].lower()
    if sub == "away" and len(args) == 2 and args[1].isdigit() and 1 <= int(args[1]) <= 14:
        until = await s.service.go_away(s.me.id, int(args[1]))
        return [t("away.set", s.lang, date=discord_time(until, "D"))]
    if sub == "back" and len(args) == 1:
        await s.service.come_back(s.me.id)
        return [t("away.back", s.lang)]
    raise ServiceError.said("console.away_usage")


async def lang(s: Session, args: list[str]) -> list[str]:
    """``/lang hu``: this console's language, remembered as the typing user's (their
    DMs and reminders) like a Discord client's language; alone, the language now."""
    s.no_more("lang", args, 1)
    languages = ", ".join(LANGUAGES)
    if not args:
        name = language_name(s.lang)
        return [t("console.lang_current", s.lang, language=name, code=s.lang, languages=languages)]
    wanted = args[0].lower()
    if supported_language(wanted) != wanted.split("-")[0]:
        raise ServiceError.said("console.lang_usage", languages=languages)
    s.lang = supported_language(wanted)
    s.languages[s.me.id] = s.lang
    await s.service.store.remember_locale(s.me.id, s.me.name, s.lang)
    return [t("console.lang_set", s.lang, language=s.lang)]


async def use(s: Session, args: list[str]) -> list[str]:
    match_id = s.match_named("use", args)
    info = await s.service.info(match_id, s.lang)
    s.current = match_id
    return [
        t("console.looking", s.lang, match=match_id, game=info.game_name, status=info.status_text)
    ]


async def export(s: Session, args: list[str]) -> list[str]:
    """``/export [match] [file]``: a first word that is a match number (``5``, ``#5``,
    ``match=5``) names the match, as ``python -m bot export 5`` does; any other first
    word is the file, for the current match (a file named only by digits is ``./5``)."""
    if args and args[0].removeprefix("match=").lstrip("#").isdigit():
        match_id, args = s.match_number(args[0]), args[1:]
    else:
        match_id = s.need_match()
    s.no_more("export", args, 1)
    record = await s.service.export_record(match_id)
    path = Path(args[0]) if args else s.picture_dir / f"match-{match_id}-record.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1, ensure_ascii=False), encoding="utf-8")
    return [t("console.exported", s.lang, path=path)]


async def audit(s: Session, args: list[str]) -> list[str]:
    problems = await s.service.audit()
    if not problems:
        return [t("console.audit_ok", s.lang)]
    return [
        t("console.audit_problem", s.lang, match=p.match_id, problem=p.problem) for p in problems
    ]


async def show_help(s: Session, args: list[str]) -> list[str]:
    return [help_text(s.lang)]
