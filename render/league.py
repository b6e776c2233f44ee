"""A league's standings as a picture and as text: rank, name, points, tie-breaks, games.

Why a picture of its own and not the score chart: standings are read as a table — "where
am I, how far behind the leader" — down a column of ranks, across a row of figures. It is
drawn from plain figures (:class:`Standings`, :class:`Standing`), said already in the
league's language, so it knows nothing of how points or tie-breaks are counted (that is
``bot/community/leagues/``); the front ends map the league's standings onto it.

Clear on a phone: Discord shows a picture about 400 px wide before it is tapped
(``render.header.PHONE_WIDTH``); the table is :data:`WIDTH` px wide and its smallest text
:data:`SMALL` px, so every text is at least 9 px tall at phone width. A long name is cut
with "…" to its column (the text version carries it whole); the leader's row is marked in
the highlight colour and with its rank in bold, never by colour alone. Up to
:data:`MOST_ROWS` players are drawn; a longer league says how many more there are.

The text version (:func:`standings_text`) is the same table in lines: the console prints
it, Discord posts it beside the picture, and the picture's alt text is it
(:class:`render.alt_text.Described`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

from render.alt_text import Described, fitted
from render.common import BACKGROUND, HIGHLIGHT, INK, MUTED, encode_png, fit_text, font
from render.header import BAND_FILL, BAND_INK, BAND_MUTED
from render.words.catalogue import number, t, tn

#: The picture's width; its height follows the rows.
WIDTH = 800
PAD = 20
#: Text sizes (px): the title, the band's second line and the table's (the smallest:
#: 20 px at 800 px wide is 10 px on a phone).
TITLE = 30
SMALL = 20
ROW = 40
#: Rows drawn at most (a league of more players says how many are not shown).
MOST_ROWS = 60
STRIPE = "#EAE2D4"
RULE = "#CFC3B0"


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line: their rank (shared ranks repeat), name, points, tie-break
    figures (in the order of :attr:`Standings.tiebreaks`) and games played."""

    rank: int
    name: str
    points: float
    tiebreaks: tuple[float, ...] = ()
    played: int = 0
    #: no longer in the league (left it, or the server): shown, greyed
    left: bool = False


@dataclass(frozen=True, slots=True)
class Standings:
    """What the picture and the text show, every word already in the reader's language."""

    league: str
    game: str
    #: where the league stands ("Round 2 of 3", "Final standings")
    stage: str
    #: the tie-breaks' names, in the order they break ties
    tiebreaks: tuple[str, ...] = ()
    lines: tuple[Standing, ...] = field(default_factory=tuple)
    #: the tie-breaks' column heads in the picture ("BH" for Buchholz), said in full in
    #: a legend under the table; none: the names are the heads
    short: tuple[str, ...] = ()

    def heads(self) -> tuple[str, ...]:
        """The tie-break columns' heads: the short ones where there are."""
        return self.short if len(self.short) == len(self.tiebreaks) else self.tiebreaks

    def legend(self, lang: str) -> str:
        """ "BH: Buchholz · Score: game score …" for the heads that are not the names."""
        pairs = [
            t("leagues.pic.legend_item", lang, short=head, name=name)
            for head, name in zip(self.heads(), self.tiebreaks, strict=True)
            if head != name
        ]
        return " · ".join(pairs)


def figure(value: float, lang: str) -> str:
    """A figure as the language writes it: whole numbers without decimals, a split point
    (2.5) with at most two (a decimal comma in hu, de, pl)."""
    if float(value).is_integer():
        return number(int(value), lang)
    return number(round(float(value), 2), lang)


def standings_text(table: Standings, lang: str) -> list[str]:
    """The table in lines: a head, then one line per player (every word in ``lang``)."""
    head = t("leagues.pic.head", lang, league=table.league, game=table.game, stage=table.stage)
    lines = [head]
    if not table.lines:
        return [head, t("leagues.pic.nobody", lang)]
    for row in table.lines:
        breaks = [
            t("leagues.text.tiebreak", lang, name=name, value=figure(value, lang))
            for name, value in zip(table.tiebreaks, row.tiebreaks, strict=False)
        ]
        line = tn(
            "leagues.text.line",
            row.played,
            lang,
            rank=row.rank,
            name=row.name,
            points=figure(row.points, lang),
        )
        if breaks:
            line += " · " + " · ".join(breaks)
        if row.left:
            line += " " + t("leagues.text.left", lang)
        lines.append(line)
    return lines


#: The league core's tie-breaks, in the order they break ties (``StandingRow`` fields of
#: ``bot/community/leagues/``), each a column of the table.
TIEBREAKS = ("buchholz", "game_score", "head_to_head")


def stage_words(league: Any, lang: str) -> str:
    """Where a league stands, in words ("round 2 of 3", "final standings")."""
    if league.status == "finished":
        return t("leagues.stage.final", lang)
    if league.status == "cancelled":
        return t("leagues.stage.cancelled", lang)
    if league.status == "signup":
        return t("leagues.stage.signup", lang)
    if league.rounds:
        return t("leagues.stage.round", lang, round=league.round, rounds=league.rounds)
    return t("leagues.stage.round_open", lang, round=league.round)


def standings_table(league: Any, standings: Any, lang: str) -> Standings:
    """The league core's standings (its ``LeagueInfo`` and ``Standings``, read by their
    fields) as the picture's plain figures, said in ``lang``."""
    heads = tuple(t(f"leagues.tiebreak.{name}", lang) for name in TIEBREAKS)
    short = tuple(t(f"leagues.tiebreak_short.{name}", lang) for name in TIEBREAKS)
    lines = tuple(
        Standing(
            rank=int(row.rank),
            name=str(row.name),
            points=float(row.points),
            tiebreaks=tuple(float(getattr(row, name)) for name in TIEBREAKS),
            played=int(row.played),
            left=not bool(getattr(row, "active", True)),
        )
        for row in standings.rows
    )
    title = league_title(league, lang)
    stage = stage_words(league, lang)
    return Standings(title, str(league.game_name), stage, heads, lines, short)


def league_title(league: Any, lang: Any) -> str:
    """A league's name as players read it: its own, else "<Game> league #N" (the core's
    default name, ``league.default_name``)."""
    if league.name:
        return str(league.name)
    return t("league.default_name", lang, game=league.game_name, league=league.id)


def list_lines(leagues: list[Any], lang: Any) -> list[str]:
    """A line per league: number, name, game, format, status (its round), players — the same
    lines for Discord's ``/league list`` and the console's."""
    lines = [t("leagues.list.head", lang)]
    for x in sorted(leagues, key=lambda x: -x.id):
        status = t(f"leagues.status.{x.status}", lang)
        if x.status == "running" and x.round:
            status = t("leagues.list.round", lang, round=x.round, rounds=x.rounds or "?")
        count = len(x.active_players)
        lines.append(
            t(
                "leagues.list.line",
                lang,
                id=x.id,
                league=league_title(x, lang),
                game=x.game_name,
                format=t(f"leagues.format.{x.format}", lang),
                status=status,
                count=tn("leagues.list.players", count, lang),
            )
        )
    return lines


def league_ids(matches: list[Any]) -> set[int]:
    """The leagues the matches (their ``settings``) belong to."""
    found = (m.settings.get("league") for m in matches)
    return {int(x["id"]) for x in found if isinstance(x, dict) and isinstance(x.get("id"), int)}


def league_note(settings: dict[str, Any], lang: Any, names: dict[int, str]) -> str:
    """ " · league Autumn, round 2" after a league match's line in a list: its settings
    name its league and round (``bot/community/leagues/``), ``names`` the leagues' names
    by number; nothing for any other match."""
    league = settings.get("league")
    if not isinstance(league, dict) or not isinstance(league.get("id"), int):
        return ""
    name = names.get(league["id"]) or f"#{league['id']}"
    return " · " + t("leagues.in_game_list", lang, league=name, round=league.get("round", "?"))


def _columns(table: Standings, lang: str, shown: list[Standing]) -> list[tuple[str, int]]:
    """The figure columns (head, width in px), right of the name: points, each tie-break,
    games. A column is as wide as its widest figure or its head (a head longer than
    160 px is cut to that)."""
    body, bold = font(SMALL), font(SMALL, True)
    heads = [t("leagues.pic.points", lang), *table.heads(), t("leagues.pic.played", lang)]
    columns = []
    for k, head in enumerate(heads):
        if k == 0:
            values = [figure(r.points, lang) for r in shown]
        elif k == len(heads) - 1:
            values = [number(r.played, lang) for r in shown]
        else:
            values = [figure(r.tiebreaks[k - 1], lang) for r in shown if len(r.tiebreaks) >= k]
        widest = max((bold.getlength(v) for v in values), default=0.0)
        width = max(widest, min(body.getlength(head), 120.0), 36.0) + 22
        columns.append((head, int(width)))
    return columns


def _cells(row: Standing, lang: str, columns: int) -> list[str]:
    tiebreaks = [figure(v, lang) for v in row.tiebreaks][: columns - 2]
    tiebreaks += [""] * (columns - 2 - len(tiebreaks))
    return [figure(row.points, lang), *tiebreaks, number(row.played, lang)]


def draw_standings(table: Standings, lang: str = "en") -> Described:
    """The standings as a PNG (with the text version as its description)."""
    shown = list(table.lines[:MOST_ROWS])
    more = len(table.lines) - len(shown)
    columns = _columns(table, lang, shown)
    band = PAD + TITLE + 10 + SMALL + PAD
    legend = table.legend(lang)
    height = band + ROW + max(len(shown), 1) * ROW + (ROW if more else 0) + PAD
    height += ROW if legend else 0
    img = Image.new("RGB", (WIDTH, height), BACKGROUND)
    d = ImageDraw.Draw(img)
    title, body, bold = font(TITLE, True), font(SMALL), font(SMALL, True)
    # the band: league name, then game · stage
    d.rectangle((0, 0, WIDTH, band), fill=BAND_FILL)
    d.text((PAD, PAD), fit_text(table.league, title, WIDTH - 2 * PAD), font=title, fill=BAND_INK)
    under = t("leagues.pic.under", lang, game=table.game, stage=table.stage)
    d.text(
        (PAD, PAD + TITLE + 10), fit_text(under, body, WIDTH - 2 * PAD), font=body, fill=BAND_MUTED
    )
    # the column heads
    rank_w = max(bold.getlength(str(len(table.lines) or 1)), bold.getlength("#")) + 24
    right = WIDTH - PAD
    name_x = PAD + rank_w
    figures_x = right - sum(w for _, w in columns)
    y = band + ROW / 2
    d.text((PAD + rank_w - 14, y), "#", font=bold, fill=MUTED, anchor="rm")
    name_head = t("leagues.pic.player", lang)
    d.text((name_x, y), fit_text(name_head, bold, int(figures_x - name_x)), font=bold,
           fill=MUTED, anchor="lm")  # fmt: skip
    x = figures_x
    for head, width in columns:
        x += width
        d.text((x - 8, y), fit_text(head, body, width - 12), font=body, fill=MUTED, anchor="rm")
    d.line((PAD, band + ROW - 2, right, band + ROW - 2), fill=RULE, width=2)
    # the rows
    top = band + ROW
    if not shown:
        d.text((name_x, top + ROW / 2), t("leagues.pic.nobody", lang), font=body, fill=MUTED,
               anchor="lm")  # fmt: skip
    for i, row in enumerate(shown):
        y0 = top + i * ROW
        leader = row.rank == 1
        if leader:
            d.rectangle((PAD - 8, y0 + 2, right + 8, y0 + ROW - 2), fill=HIGHLIGHT)
        elif i % 2:
            d.rectangle((PAD - 8, y0 + 2, right + 8, y0 + ROW - 2), fill=STRIPE)
        ink = MUTED if row.left else INK
        cy = y0 + ROW / 2
        d.text((PAD + rank_w - 14, cy), str(row.rank), font=bold, fill=ink, anchor="rm")
        name = row.name + (" " + t("leagues.text.left", lang) if row.left else "")
        shown_name = fit_text(name, bold if leader else body, int(figures_x - name_x - 10))
        d.text((name_x, cy), shown_name, font=bold if leader else body, fill=ink, anchor="lm")
        x = figures_x
        for k, ((_head, width), cell) in enumerate(
            zip(columns, _cells(row, lang, len(columns)), strict=True)
        ):
            x += width
            d.text((x - 8, cy), cell, font=bold if k == 0 else body, fill=ink, anchor="rm")
    if more:
        y0 = top + len(shown) * ROW
        words = tn("leagues.pic.more", more, lang)
        d.text((name_x, y0 + ROW / 2), words, font=body, fill=MUTED, anchor="lm")
    if legend:  # what the short heads stand for
        y0 = top + max(len(shown), 1) * ROW + (ROW if more else 0)
        shown_legend = fit_text(legend, body, WIDTH - 2 * PAD)
        d.text((PAD, y0 + ROW / 2 + 6), shown_legend, font=body, fill=MUTED, anchor="lm")
    return Described(encode_png(img), fitted(standings_text(table, lang)))


__all__ = [
    "TIEBREAKS",
    "Standing",
    "Standings",
    "draw_standings",
    "figure",
    "league_ids",
    "league_note",
    "league_title",
    "standings_table",
    "standings_text",
]
