"""The header band on top of every public picture: what a player needs at a glance on a phone.

Why: Discord shows a picture about 400 px wide on a phone until it is tapped, and our
boards are 1,280–1,480 px wide, so their ordinary labels shrink to 4–5 px there. The band
repeats the few facts a player scrolls the thread for — game, round or visit, who must act
(name and colour chip), the last move, the scores — in letters big enough to read at that
width: its smallest text is :func:`band_font_size` (≥ 9 px once the picture is scaled to
:data:`PHONE_WIDTH`), and tests measure every text drawn in it.

The band is drawn as its own image and stacked above the board (:func:`with_band`), so it
never overlaps the board and its texts can be checked against the band's own box. Once a
match has finished, each score carries the seat's place in the match's final ranking
(``Band.places``, from the view's ``ranking``): every game's final picture says the
ranking the result text says, in one place and one way.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from babel import UnknownLocaleError
from babel.dates import format_date
from PIL import Image, ImageDraw

from render.common import fit_text, font, wrap_text
from render.seats import chip_width, draw_seat_chip
from render.words.catalogue import language_of, t

#: How wide a phone shows a picture in a Discord thread before it is tapped.
PHONE_WIDTH = 400
#: Smallest text height (px) in the band at :data:`PHONE_WIDTH`.
PHONE_MIN_PX = 9
BAND_FILL = "#2F2824"
BAND_INK = "#FFFFFF"
BAND_MUTED = "#E6DCCB"
ACTING_RING = "#FFD400"


@dataclass(frozen=True, slots=True)
class Band:
    """What the band says; every string already in the reader's language with names filled."""

    game: str
    stage: str
    acting: list[int]
    action: str
    #: (seat, score as text) in seat order
    scores: list[tuple[int, str]] = field(default_factory=list)
    #: the last move in words ("Bob took 2 red from factory 3 to line 4."), if known:
    #: shown whole, on a second row (and more) when it is long
    last: str | None = None
    #: who is away and until when ("Bob away until 12 Dec"), shown after who must act
    away: str | None = None
    #: seat -> place in the match's final ranking (``render.common.final_places``), shown
    #: before each score ("#1 46") once a match has finished; empty before
    places: dict[int, int] = field(default_factory=dict)

    def score_text(self, seat: int, score: str, lang: str) -> str:
        """A seat's score as the band shows it: with its final place once there is one."""
        if seat in self.places:
            return t("pic.band.place", lang, place=self.places[seat], score=score)
        return score


def away_date(when: float, lang: str) -> str:
    """A day in a few letters ("12 Dec", "12 dez."), in UTC: an away period ends on a
    day, and a picture cannot follow each reader's time zone."""
    day = datetime.fromtimestamp(when, UTC).date()
    try:
        return format_date(day, "d MMM", locale=language_of(lang))
    except (ValueError, UnknownLocaleError):  # a locale Babel does not know
        return format_date(day, "d MMM", locale="en")


def away_words(view: dict[str, Any], names: list[str], lang: str) -> str | None:
    """The band's words for the seats whose players are away: the match service puts
    ``away`` — ``{"seat": until}`` — into the public view of a running match."""
    away = view.get("away") or {}
    parts = [
        t("away.band", lang, name=names[int(s)], date=away_date(float(until), lang))
        for s, until in sorted(away.items(), key=lambda kv: int(kv[0]))
        if int(s) < len(names)
    ]
    return " · ".join(parts) or None


def action_words(status: str) -> str:
    """A status line without its "Round 3: " / "Visit 6/12 (Malwa): " head, which the band
    already shows as the stage."""
    head, sep, rest = status.partition(": ")
    return rest if sep and len(head) < 40 and rest else status


def band_font_size(width: int) -> int:
    """The smallest font size that is still ≥ :data:`PHONE_MIN_PX` at phone width."""
    return math.ceil(PHONE_MIN_PX * width / PHONE_WIDTH)


def _chip(
    d: ImageDraw.ImageDraw, x: float, cy: float, seat: int, letter: str, size: int, ring: bool
) -> float:
    """The seat's chip (:func:`render.seats.draw_seat_chip`: its unique letters, a robot's
    head for a computer), ringed when the seat must act; returns the x after it."""
    return draw_seat_chip(
        d, x, cy, seat, letter, size, edge=BAND_INK, ring=ACTING_RING if ring else None
    )


def band_height(width: int, last: bool, action_rows: int = 1, last_rows: int = 1) -> int:
    """The band's height for a picture ``width`` wide (with or without the last move; a
    who-must-act sentence too long for one row takes ``action_rows``, a last move too
    long for one row ``last_rows``)."""
    s = band_font_size(width)
    return (s // 2) * 2 + int(s * 1.5) * (1 + (last_rows if last else 0) + action_rows)


def last_move_lines(band: Band, width: int, lang: str) -> list[str]:
    """The band's "Last move: …" broken at spaces into as many rows as it needs, at the
    band's smallest size: a move's public sentence is read whole, never cut with "…"
    (a long Maharani placement, a translation 40 % longer than the English)."""
    if not band.last:
        return []
    s = band_font_size(width)
    return wrap_text(t("pic.band.last", lang, move=band.last), font(s), width - 2 * (s // 2))


def header_band(width: int, band: Band, letters: list[str], lang: str) -> Image.Image:
    """The band as an image ``width`` wide: game and stage with the scores on the right,
    who must act (chip + words), and the last move when known (wrapped, never cut)."""
    s = band_font_size(width)
    pad = s // 2
    row = int(s * 1.5)
    big = font(s + 4, True)
    normal = font(s)
    bold = font(s, True)
    # who must act: already at the band's smallest size, so a long sentence (a long
    # translation, three winners' names) takes more rows instead of being cut
    x: float = pad
    for seat in band.acting[:3]:
        x += 3 + chip_width(letters[seat], s) + s * 0.4
    action = wrap_text(band.action, bold, int(width - pad - x)) or [""]
    last = last_move_lines(band, width, lang)
    height = band_height(width, bool(last), len(action), len(last))
    img = Image.new("RGB", (width, height), BAND_FILL)
    d = ImageDraw.Draw(img)
    # row 1: scores on the right (chips + numbers), game · stage in the room left
    cy = pad + row / 2
    x = width - pad
    score_parts = [(seat, band.score_text(seat, score, lang)) for seat, score in band.scores]
    score_parts.reverse()
    for seat, score in score_parts:
        x -= bold.getlength(score)
        d.text((x, cy), score, font=bold, fill=BAND_INK, anchor="lm")
        x -= chip_width(letters[seat], s) + 6
        _chip(d, x, cy, seat, letters[seat], s, seat in band.acting)
        x -= s * 0.7
    title = band.game
    d.text((pad, cy), title, font=big, fill=BAND_INK, anchor="lm")
    tx = pad + big.getlength(title) + s * 0.6
    stage = fit_text(band.stage, normal, max(0, int(x - tx - s * 0.4)))
    if stage != "…":
        d.text((tx, cy), stage, font=normal, fill=BAND_MUTED, anchor="lm")
    # row 2: who must act
    cy += row
    x = pad
    for seat in band.acting[:3]:
        x = _chip(d, x + 3, cy, seat, letters[seat], s, True) + s * 0.4
    for i, line in enumerate(action):
        d.text((x, cy + i * row), line, font=bold, fill=BAND_INK, anchor="lm")
    cy += (len(action) - 1) * row
    if band.away:  # the away note in the room left on the last row, when it fits whole
        nx = x + bold.getlength(action[-1]) + s * 0.6
        if normal.getlength(band.away) <= width - pad - nx:
            d.text((nx, cy), band.away, font=normal, fill=BAND_MUTED, anchor="lm")
    # row 3 on: the last move, whole, on as many rows as it takes
    for line in last:
        cy += row
        d.text((pad, cy), line, font=normal, fill=BAND_MUTED, anchor="lm")
    return img


def with_band(band: Image.Image, body: Image.Image) -> Image.Image:
    """The band stacked above ``body`` (same width)."""
    # one allocation and copy: a crop reaching above the body makes room for the band
    out = body.crop((0, -band.height, body.width, body.height))
    out.paste(band, (0, 0))
    return out
