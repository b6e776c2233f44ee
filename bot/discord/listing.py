"""``/game list``'s words: the matches waiting for you in every server first, then this
server's matches (in a server) or your other matches (in a DM with the bot), in pages.

Why yours from every server first, also in a server: the question a player brings to
``/game list`` is "where am I awaited?", and the answer is private (an ephemeral reply, or
the DM), so naming matches of other servers tells nobody else anything. The server's own
list follows unchanged (every open or running match, a waiting one included: it is the
server's overview). Each waiting match carries a jump link to its thread — the thread
mention ``<#id>`` reads "#unknown" where the client has not loaded that server — and, when
the match has a clock, when the player's runs out as a Discord timestamp (every reader
sees it in their own time zone).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.discord.common import clip
from bot.discord.league_posts import league_names
from bot.matches.reports import Awaited, MatchInfo
from render.league import league_note
from render.words.catalogue import t
from render.words.posts import listing

if TYPE_CHECKING:
    from bot.discord.client import TesseraBot

#: One page of the list: Discord's 2,000 characters less room for the page line.
PAGE = 1800


def jump_link(info: MatchInfo) -> str:
    """The URL that opens the match's thread from anywhere (a DM included)."""
    if not info.thread_id or not info.guild_id:
        return ""
    return f"https://discord.com/channels/{info.guild_id}/{info.thread_id}"


def _after(where: str | None) -> str:
    """Where a match line points (a thread mention or a jump link), after a dash."""
    return f" — {where}" if where else ""


def waiting_lines(
    waiting: list[Awaited],
    locale: Any,
    server_names: dict[str, str],
    here: str | None,
    leagues: dict[int, str] | None = None,
) -> list[str]:
    """A line per match waiting for the player: number, game, its server (unless it is
    this one), the jump link and the clock."""
    lines = []
    for item in waiting:
        info = item.match
        name = server_names.get(info.guild_id or "", "")
        server = ""
        if name and info.guild_id != here:
            server = t("list.server", locale, server=clip(name, 100))
        due = ""
        if item.deadline is not None:
            due = t("list.due", locale, when=f"<t:{int(item.deadline)}:R>")
        link = jump_link(info) or f"#{info.id}"
        line = t(
            "list.waiting_line",
            locale,
            match=info.id,
            game=info.game_name + league_note(info.settings, locale, leagues or {}),
            server=server,
            link=link,
            due=due,
        )
        lines.append(clip(line, 600))
    return lines


def match_line(
    info: MatchInfo, locale: Any, where: str, leagues: dict[int, str] | None = None
) -> str:
    """A line of the list as it always read: number, game, status, players and where."""
    status = clip(info.status_text.splitlines()[0] if info.status_text else info.status, 120)
    status += league_note(info.settings, locale, leagues or {})  # a league match: its league
    return clip(
        t(
            "list.line",
            locale,
            match=info.id,
            game=info.game_name,
            status=status,
            players=clip(listing(info.names, locale), 300),
            thread=where,
        ),
        600,
    )


Section = tuple[str, list[str]]


def pages_of(sections: list[Section], limit: int = PAGE) -> list[list[str]]:
    """The sections (a head and its lines) in pages of at most ``limit`` characters, never
    cut inside a line; a page that goes on with a section starts with its head again."""
    pages: list[list[str]] = [[]]
    size = 0
    shown: str | None = None  # the head the current page last showed
    for head, lines in sections:
        for line in lines:
            cost = len(line) + 1 + (len(head) + 1 if shown != head else 0)
            if pages[-1] and size + cost > limit:
                pages.append([])
                size, shown = 0, None
                cost = len(line) + len(head) + 2
            if shown != head:
                pages[-1].append(head)
                shown = head
            pages[-1].append(line)
            size += cost
    return pages


async def list_sections(
    bot: TesseraBot, user_id: str, here: str | None, locale: Any
) -> tuple[list[Section], int]:
    """The list's sections for ``user_id`` asking in the server ``here`` (None: a DM
    with the bot) and how many matches they name; no sections when there is nothing to
    list. First what waits for them in every server (in a DM also when nothing does:
    that is the answer they came for); then this server's matches, or in a DM their
    other open and running matches, each with its jump link."""
    service = bot.service
    waiting = await service.awaiting(
        user_id, default_clock_days=bot.settings.deadline_days, lang=locale
    )
    names: dict[str, str] = {}  # the servers' names, where this process knows them (its shards')
    for gid in {a.match.guild_id for a in waiting if (a.match.guild_id or "").isdigit()}:
        guild = bot.get_guild(int(str(gid)))
        if guild is not None:
            names[str(gid)] = guild.name
    sections: list[Section] = []
    leagues = await league_names(bot, [a.match for a in waiting], locale)
    if waiting or here is None:
        lines = waiting_lines(waiting, locale, names, here, leagues)
        sections.append((t("list.waiting", locale), lines or [t("list.waiting_none", locale)]))
    if here is None:
        awaited = {a.match.id for a in waiting}
        mine = await service.list_matches(user_id=user_id, lang=locale)
        others = [m for m in mine if m.id not in awaited]
        if not others and not waiting:
            return [], 0
        if others:
            leagues |= await league_names(bot, others, locale)
            lines = [match_line(m, locale, _after(jump_link(m)), leagues) for m in others]
            sections.append((t("list.mine", locale), lines))
        return sections, len(waiting) + len(others)
    matches = await service.list_matches(guild_id=here, lang=locale)
    if not matches and not waiting:
        return [], 0
    leagues |= await league_names(bot, matches, locale)
    lines = [
        match_line(m, locale, _after(m.thread_id and f"<#{m.thread_id}>"), leagues) for m in matches
    ]
    sections.append((t("list.head", locale), lines or [t("list.empty", locale)]))
    return sections, len(waiting) + len(matches)
