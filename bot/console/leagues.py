"""``/league …`` in the console: new, join, leave, start, standings, list, cancel — the twins
of Discord's ``/league`` commands and of the sign-up post's **Join** button — and what the
league core's posts look like here (a round's tables, the final standings).

The console has no server and no server managers (as for ``/game abort``): whoever types
may open a league; starting and cancelling it is for the one who opened it. A league is
named by its number (``3``, ``#3`` or ``league=3``), else it is the newest one still
going. The rounds move on after every line (:func:`advance`), as the Discord scheduler
moves them every tick.
"""

from __future__ import annotations

from typing import Any

from bot.community.leagues import Leagues
from bot.console.session import Session, no_game
from bot.matches import option_table
from bot.matches.errors import ServiceError
from render.league import (
    league_ids,
    league_title,
    list_lines,
    standings_table,
    standings_text,
)
from render.words.catalogue import t
from render.words.posts import listing, say_line
from render.words.stamps import discord_time
from rules.registry import game_ids

#: The options of ``/league new`` as typed (Discord's option names).
NEW_OPTIONS = (
    "format",
    "players_per_table",
    "rounds",
    "days_per_move",
    "signup_days",
    "rated",
    "fill",
)
#: Outbox kinds of the league core, said here by :func:`console_post`.
KINDS = ("league", "league_thread")


def leagues_of(s: Session) -> Leagues:
    """The league core of the console's service (the session's own, else made once)."""
    found: Leagues | None = getattr(s, "leagues", None) or getattr(s, "_leagues", None)
    if found is None:
        found = Leagues(s.service)
        s._leagues = found  # type: ignore[attr-defined]  # one per console session
    return found


async def league(s: Session, args: list[str]) -> list[str]:
    sub = args[0].lower() if args else ""
    handler = {
        "new": new,
        "join": join,
        "leave": leave,
        "start": start,
        "standings": standings,
        "list": list_leagues,
        "cancel": cancel,
    }.get(sub)
    if handler is None:
        raise ServiceError.said("console.league_usage")
    return await handler(s, args[1:])


async def league_names(s: Session, matches: list[Any]) -> dict[int, str]:
    """The names of the leagues ``matches`` belong to, by number (for ``/game list``)."""
    out: dict[int, str] = {}
    for league_id in league_ids(matches):
        try:
            out[league_id] = league_title(await leagues_of(s).info(league_id), s.lang)
        except ServiceError:  # a league gone: the match says its number
            continue
    return out


async def advance(s: Session) -> None:
    """Move every league on that is due (after each line typed)."""
    await leagues_of(s).advance()  # the store's clock


def _number(word: str) -> int:
    token = word.removeprefix("league=").lstrip("#")
    if not token.isdigit():
        raise ServiceError.said("console.not_a_number", text=word)
    return int(token)


async def _named(s: Session, command: str, words: list[str]) -> Any:
    """The league ``words`` name, else the newest one still going (then the newest)."""
    s.no_more(command, words, 1)
    leagues = leagues_of(s)
    if words:
        return await leagues.info(_number(words[0]))
    found = await leagues.list(None)
    if not found:
        raise ServiceError.said("leagues.none_here")
    going = [x for x in found if x.status in ("signup", "running")]
    return max(going or found, key=lambda x: x.id)


def _read(name: str, raw: str) -> Any:
    """One option's value as typed: a format or fill as a word (the core refuses a wrong
    one, naming the choices), rated as yes/no, the rest as numbers (the core checks their
    ranges); a word that is no number is refused here."""
    low = raw.lower()
    if name in ("format", "fill"):
        return low
    if name == "rated":
        if low in option_table.TRUE_WORDS:
            return True
        if low in option_table.FALSE_WORDS:
            return False
        raise ServiceError.said("options.bad_value", name=name, value=raw, allowed="on, off")
    try:
        value = float(raw.replace(",", "."))
    except ValueError:
        raise ServiceError.said("console.not_a_number", text=f"{name}={raw}") from None
    if name in ("players_per_table", "rounds") and value.is_integer():
        return int(value)
    return value


async def new(s: Session, rest: list[str]) -> list[str]:
    """``/league new <game> format=… [name=value …]``: the values are the core's to check
    (each refused in words naming what is allowed)."""
    if not rest:
        raise ServiceError.said("console.league_no_game", games=", ".join(game_ids()))
    game_id = rest[0].lower()
    if game_id not in game_ids():
        raise no_game(rest[0])
    given, _ = s.named(rest[1:], NEW_OPTIONS)
    values = {k: _read(k, v) for k, v in given.items()}
    info = await leagues_of(s).create(
        server_id=None,
        channel_id=None,
        creator=s.me,
        game_id=game_id,
        format=values.pop("format", "round-robin"),
        language=s.lang,
        **values,
    )
    if info.signup_until is None:
        until = t("console.league_open_until_start", s.lang, id=info.id)
    else:
        until = t("console.league_open_until", s.lang, id=info.id,
                  deadline=discord_time(info.signup_until, "f"))  # fmt: skip
    opened = t("console.league_opened", s.lang, id=info.id, league=league_title(info, s.lang),
               game=info.game_name)  # fmt: skip
    return [opened, until]


async def join(s: Session, rest: list[str]) -> list[str]:
    info = await _named(s, "league join", rest)
    info = await leagues_of(s).join(info.id, s.me)
    return [t("leagues.joined", s.lang, league=league_title(info, s.lang))]


async def leave(s: Session, rest: list[str]) -> list[str]:
    info = await _named(s, "league leave", rest)
    info = await leagues_of(s).leave(info.id, s.me)
    key = "leagues.left_running" if info.status == "running" else "leagues.left"
    return [t(key, s.lang, league=league_title(info, s.lang))]


async def start(s: Session, rest: list[str]) -> list[str]:
    """Its creator starts it (the core refuses anyone else: the console has no managers)."""
    info = await _named(s, "league start", rest)
    started = await leagues_of(s).start(info.id, s.me, manager=False)
    return [t("leagues.started", s.lang, league=league_title(started.league, s.lang))]


async def cancel(s: Session, rest: list[str]) -> list[str]:
    info = await _named(s, "league cancel", rest)
    info = await leagues_of(s).cancel(info.id, s.me, manager=False)
    return [t("leagues.cancelled", s.lang, league=league_title(info, s.lang))]


async def standings(s: Session, rest: list[str]) -> list[str]:
    """The table in words, and its picture saved beside the matches' pictures."""
    from render.league import draw_standings

    info = await _named(s, "league standings", rest)
    now = await leagues_of(s).standings(info.id)
    table = standings_table(now.league, now, s.lang)
    out = standings_text(table, s.lang)
    s.picture_dir.mkdir(parents=True, exist_ok=True)
    path = s.picture_dir / f"league-{info.id}-standings.png"
    path.write_bytes(draw_standings(table, s.lang))
    return [*out, t("console.picture", s.lang, path=path)]


async def list_leagues(s: Session, rest: list[str]) -> list[str]:
    s.no_more("league list", rest)
    found = await leagues_of(s).list(None)
    if not found:
        return [t("leagues.none_here", s.lang)]
    return list_lines(found, s.lang)


async def console_post(s: Session, kind: str, p: dict[str, Any]) -> list[str]:
    """A league post as the console prints it, in the console's language: the core's
    words of the announcement, a round's tables (match numbers: the console has no
    threads; each match's first post follows as any match's), the final table. The
    sign-up post's twin is ``/league join``; a league match's thread is Discord's."""
    if kind != "league" or p.get("event") == "signup":
        return []
    lang = s.lang
    said = [say_line(w, lang, []) for w in p.get("lines_words") or [p.get("text_words")] if w]
    if p.get("event") == "round":
        tables = []
        for k, match_id in enumerate(p.get("matches") or [], start=1):
            names = listing((await s.service.info(int(match_id))).names, lang)
            tables.append(
                t("leagues.post.table", lang, table=k, players=names, thread=f"#{match_id}")
            )
        return [*said[:1], *tables, *said[1:]]
    if p.get("event") == "final":
        now = await leagues_of(s).standings(int(p["league_id"]))
        return [*said, *standings_text(standings_table(now.league, now, lang), lang)]
    return said
