"""What a league posts on Discord, out of the outbox: its sign-up post, a thread for each new
league match, the round announcements and the final post with the champion and standings.

Why through the outbox (``bot/discord/delivery.py`` hands the league core's kinds to
:func:`deliver`): the core queues each post in the transaction that makes it true — the
league's creation, a round seated, the last round ended (``bot/community/leagues/``) — so
a crash or an outage delays a post but never loses it, and several processes post it once
(the outbox's claim). Payloads are the core's (its package docstring).

- ``league`` ``signup``: the sign-up post in the league's channel, with its **Join** and
  **Leave** buttons (``bot/discord/league_signup.py``); where it is is remembered in the
  league (``Leagues.remember``), so later changes edit it.
- ``league_thread``: a public thread in the league's channel for one match, named like a
  match thread plus the league and round, set on the match (``service.set_thread``), and a
  first line mentioning its players (which adds them to the thread). The item belongs to
  the match and was queued before the match's first turn post, so that post waits for the
  thread and then goes out as any match's first post does (``OutboxWorker._turn``).
  **Never two threads for one match**: a match that has its thread gets none; an item
  claimed before (``row.tried_at``: a crash may have fallen between the thread's creation
  and ``set_thread``) first looks for its thread among the server's active threads
  (``GET /guilds/{guild.id}/threads/active``, ``resources/guild.mdx`` "List Active Guild
  Threads") by its name, which holds the match number, under the league's channel.
- ``league`` ``round``: round N with each table, its players and its thread. The post is
  queued with the round's threads but belongs to no match, so it may be claimed before
  they exist: it then waits (:class:`ThreadsPending`, retried with the worker's backoff)
  up to :data:`THREAD_WAITS` attempts, then names a missing thread by its match number.
- ``league`` ``final``: the champion (or those who share first place), the whole table in
  words and the standings picture (``render/league.py``). ``cancelled``: the core's words.

Every post is a card with the row's mark, so a re-send finds it (``bot/discord/resend.py``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, Final

import discord

from bot.community.leagues import Leagues
from bot.discord.cards import Card, _card, fit, picture_file
from bot.discord.common import clip
from bot.discord.league_signup import POST_KEY, refresh_signup, signup_card
from bot.matches.errors import ServiceError
from bot.storage.rows import OutboxRow
from render.league import draw_standings, league_ids, league_title, standings_table, standings_text
from render.words.catalogue import match_language, t
from render.words.posts import listing, say_line

if TYPE_CHECKING:
    from bot.discord.client import TesseraBot

log = logging.getLogger(__name__)

#: Outbox kinds delivered here (the league core queues them).
KINDS = ("league", "league_thread")
#: Threads archive after this many minutes of silence (as a match thread's, 7 days).
ARCHIVE_MINUTES: Final = 10080
#: Attempts a round's post waits for its threads before it names a missing one by number.
THREAD_WAITS = 4


class Gone(Exception):
    """The item names a league or match that no longer exists: it is dropped."""


class ThreadsPending(TimeoutError):
    """A round's threads are not made yet: the worker tries the post again after its
    backoff (a timeout is what it retries)."""


def leagues_of_bot(bot: Any) -> Leagues:
    """The league core on the bot's match service (the bot's own, else made once)."""
    found: Leagues | None = getattr(bot, "leagues", None) or getattr(bot, "_leagues", None)
    if found is None:
        found = Leagues(bot.service)
        bot._leagues = found
    return found


def league_language(info: Any, server_locale: Any = None) -> str:
    """The language of a league's public words: its own (the server's when it opened)."""
    return match_language({"language": getattr(info, "language", None)}, server_locale)


async def advance_leagues(bot: Any, now: float) -> int:
    """The scheduler's tick: every league whose sign-up closed or whose round ended moves
    on (the core claims each league's step once, whichever process ticks); returns how
    many did. A failure (the database down) is the tick's: its outage log says it once a
    minute, and the next tick tries again."""
    return len(await leagues_of_bot(bot).advance(now))


async def league_names(bot: Any, matches: list[Any], lang: Any) -> dict[int, str]:
    """The names of the leagues ``matches`` belong to, by number (for ``/game list``)."""
    out: dict[int, str] = {}
    for league_id in league_ids(matches):
        try:
            out[league_id] = league_title(await leagues_of_bot(bot).info(league_id), lang)
        except ServiceError:  # a league gone: the match says its number
            continue
    return out


async def deliver(worker: Any, row: OutboxRow, drop: type[Exception]) -> None:
    """Deliver one league item; one that can never be delivered raises ``drop`` (the
    worker's ``Drop``: given up, the reason kept)."""
    try:
        await _deliver(worker, row)
    except Gone as exc:
        raise drop(str(exc)) from None


async def _deliver(worker: Any, row: OutboxRow) -> None:
    bot: TesseraBot = worker.bot
    p = row.payload
    try:
        info = await leagues_of_bot(bot).info(int(p["league_id"]))
    except ServiceError as exc:  # the core's refusal: no such league (a database
        # failure is no refusal: it propagates, and the worker tries the item again)
        raise Gone(f"league {p.get('league_id')}: {exc}") from None
    if not info.channel_id:
        raise Gone(f"league {info.id} has no channel")
    lang = league_language(info, worker._guild_locale(info.server_id))
    if row.kind == "league_thread":
        await _open_thread(worker, row, info, lang)
        return
    event = str(p.get("event", ""))
    if event == "signup":
        await _signup(worker, row, info, lang)
    elif event == "round":
        await _round(worker, row, info, lang)
    elif event == "final":
        await _final(worker, row, info, lang)
    elif event == "cancelled":
        card = _text_card([say_line(p.get("text_words") or p.get("text", ""), lang, [])])
        await worker._post(int(info.channel_id), None, row=row, card=card, mentions=[])
        await refresh_signup(bot, info, lang)
    else:
        raise Gone(f"unknown league event {event!r}")


async def _signup(worker: Any, row: OutboxRow, info: Any, lang: str) -> None:
    """The sign-up post; where it went is kept in the league for its later edits."""
    card = signup_card(info, lang)
    channel = int(info.channel_id)
    message = await worker._post(channel, None, row=row, card=card, mentions=[])
    post = {"channel": str(channel), "message": str(message.id)}
    await leagues_of_bot(worker.bot).remember(info.id, **{POST_KEY: post})


def thread_name(match_id: int, game: str, league: str, round_no: Any, lang: str) -> str:
    """A league match's thread: a match thread's name plus the league and the round."""
    name = t("leagues.thread.name", lang, match=match_id, game=game, league=league, round=round_no)
    return clip(name, 100)


async def _open_thread(worker: Any, row: OutboxRow, league: Any, lang: str) -> None:
    bot: TesseraBot = worker.bot
    match_id = int(row.payload["match_id"])
    try:
        info = await bot.service.info(match_id)
    except ServiceError as exc:
        raise Gone(f"match {match_id}: {exc}") from None
    channel_id = int(league.channel_id)
    round_no = row.payload.get("round", league.round)
    name = thread_name(match_id, info.game_name, league_title(league, lang), round_no, lang)
    found = int(info.thread_id) if info.thread_id else None  # made before: never a second
    if found is None and row.tried_at is not None:  # claimed before: made, but not set?
        found = await _find_thread(bot, league.server_id, channel_id, name)
    if found is None:
        data = await bot.http.start_thread_without_message(
            channel_id,
            name=name,
            auto_archive_duration=ARCHIVE_MINUTES,
            type=discord.ChannelType.public_thread.value,
        )
        found = int(data["id"])
    if not info.thread_id:
        await bot.service.set_thread(match_id, str(found))
    people = [s.user_id for s in info.seats if str(s.user_id).isdigit()]
    intro = t(
        "leagues.post.match_intro",
        lang,
        league=league_title(league, lang),
        round=round_no,
        players=listing([f"<@{u}>" for u in people] or info.names, lang),
    )
    await worker._post(found, None, row=row, card=_text_card([intro]), mentions=people)


async def _find_thread(bot: Any, guild_id: Any, channel_id: int, name: str) -> int | None:
    """The server's active thread named ``name`` under ``channel_id``, or None."""
    if not str(guild_id or "").isdigit():
        return None
    try:
        data = await bot.http.get_active_threads(int(guild_id))
    except (discord.HTTPException, discord.RateLimited):
        log.warning("could not list the active threads of %s", guild_id, exc_info=True)
        return None
    for thread in data.get("threads", []):
        if str(thread.get("parent_id")) == str(channel_id) and thread.get("name") == name:
            return int(thread["id"])
    return None


def _mention(user_id: str, name: str) -> str:
    return f"<@{user_id}>" if str(user_id).isdigit() else name


async def _round(worker: Any, row: OutboxRow, league: Any, lang: str) -> None:
    """Round N: the core's words, then each table with its players and thread."""
    bot: TesseraBot = worker.bot
    p = row.payload
    said = [say_line(w, lang, []) for w in p.get("lines_words") or [p.get("text_words")]]
    tables: list[str] = []
    for k, match_id in enumerate(p.get("matches") or [], start=1):
        try:
            info = await bot.service.info(int(match_id))
        except ServiceError:  # a match gone meanwhile: named by its number
            tables.append(
                t("leagues.post.table", lang, table=k, players="?", thread=f"#{match_id}")
            )
            continue
        if not info.thread_id and row.attempts < THREAD_WAITS:
            raise ThreadsPending(f"match {match_id} of league {league.id} has no thread yet")
        where = f"<#{info.thread_id}>" if info.thread_id else f"#{match_id}"
        names = listing([_mention(s.user_id, s.name) for s in info.seats], lang)
        tables.append(t("leagues.post.table", lang, table=k, players=names, thread=where))
    card = _text_card(said[:1], tables + said[1:])
    await worker._post(int(league.channel_id), None, row=row, card=card, mentions=[])
    if int(p.get("round", 0)) == 1:  # the sign-up is over: its post says so
        await refresh_signup(bot, league, lang)


async def _final(worker: Any, row: OutboxRow, league: Any, lang: str) -> None:
    """The champion, the whole table in words and the standings picture."""
    bot: TesseraBot = worker.bot
    now = await leagues_of_bot(bot).standings(league.id)
    table = standings_table(now.league, now, lang)
    picture = None
    channel = int(league.channel_id)
    if bot.service.render_enabled and await worker.permits.attachable(channel):
        png = await asyncio.to_thread(draw_standings, table, lang)
        picture = picture_file(png, f"league-{league.id}-standings.png")
    head = say_line(row.payload.get("text_words") or row.payload.get("text", ""), lang, [])
    text = standings_text(table, lang)
    card = _text_card([head, "**" + text[0] + "**"], text[1:], picture)
    await worker._post(channel, None, row=row, card=card, mentions=[])


def _text_card(head: list[str], body: list[str] | None = None, picture: Any = None) -> Card:
    top, text = fit(head, body or [])
    return _card(top, picture, text)


__all__ = [
    "KINDS",
    "Gone",
    "ThreadsPending",
    "advance_leagues",
    "deliver",
    "league_language",
    "leagues_of_bot",
    "thread_name",
]
