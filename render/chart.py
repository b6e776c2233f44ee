"""The score chart posted with a match's final result: each player's score after every
turn, in player colours, the largest swing marked.

Why our own few lines of Pillow and not a plotting library: the chart is lines, a grid, a
band and labels, in the pictures' own palette and fonts (DejaVu, so every name draws);
matplotlib would add a large dependency and a second look for one picture per match.

The chart draws plain numbers (:class:`ScoreChart`); ``bot/matches/score_chart.py`` gets them by
replaying the match's log, so the chart can never disagree with the game, and the places
from the match's stored result, so its ranking is the result text's (a seat given up is
last whatever its line says). Lines are drawn at
twice the size and reduced (smooth edges, TECH_NOTES "Pictures"); each line also carries its
player's name at its end, so the chart reads without telling colours apart.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.common import BACKGROUND, HIGHLIGHT, INK, MUTED, encode_png, font, player_colour
from render.words.catalogue import t

WIDTH, HEIGHT = 1000, 560
SCALE = 2
LEFT, RIGHT, TOP, BOTTOM = 64, 190, 64, 56
GRID = "#DDD3C3"


@dataclass(frozen=True, slots=True)
class Swing:
    """The largest change of one player's score in one turn: after point ``index``."""

    index: int
    seat: int
    change: int


@dataclass(frozen=True, slots=True)
class ScoreChart:
    title: str
    names: list[str]
    #: scores[i][seat]: the scores at point i (0: the start, then after each turn)
    scores: list[list[int]]
    #: each seat's place in the match's final ranking (its stored result: a seat given up
    #: is last whatever it scored; shared places repeat), written before its name at the
    #: line's end; None draws names and scores only
    ranks: list[int] | None = None

    @property
    def swing(self) -> Swing | None:
        return largest_swing(self.scores)


def largest_swing(scores: list[list[int]]) -> Swing | None:
    """The turn where one player's score changed most (gain or loss; the earliest of
    equals); None when no score ever changed."""
    best: Swing | None = None
    for i in range(1, len(scores)):
        for seat, (now, before) in enumerate(zip(scores[i], scores[i - 1], strict=True)):
            change = now - before
            if change and (best is None or abs(change) > abs(best.change)):
                best = Swing(i, seat, change)
    return best


def nice_step(span: float, ticks: int = 5) -> int:
    """A round step (1, 2, 5 × 10^k) giving about ``ticks`` grid lines over ``span``."""
    raw = max(span, 1) / ticks
    power = 10 ** math.floor(math.log10(raw))
    for mult in (1, 2, 5, 10):
        if mult * power >= raw:
            return max(1, int(mult * power))
    return max(1, int(10 * power))


def line_end(chart: ScoreChart, seat: int, score: int, lang: str = "en") -> str:
    """The words at the end of a seat's line: its place in the final ranking (when the
    chart has one), its name and its last score ("#1 Ann 46")."""
    if chart.ranks is None:
        return f"{chart.names[seat]} {score}"
    return t("chart.line_end", lang, place=chart.ranks[seat], name=chart.names[seat], score=score)


def draw_score_chart(chart: ScoreChart, lang: str = "en") -> bytes:
    """The chart as PNG bytes."""
    s = SCALE
    img = Image.new("RGB", (WIDTH * s, HEIGHT * s), BACKGROUND)
    d = ImageDraw.Draw(img)
    points = max(len(chart.scores), 1)
    low = min(0, *(v for row in chart.scores for v in row)) if chart.scores else 0
    high = max(1, *(v for row in chart.scores for v in row)) if chart.scores else 1
    step = nice_step(high - low)
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step
    x0, x1 = LEFT * s, (WIDTH - RIGHT) * s
    y0, y1 = (HEIGHT - BOTTOM) * s, TOP * s

    def x_at(i: float) -> float:
        return x0 + (x1 - x0) * (i / max(points - 1, 1))

    def y_at(v: float) -> float:
        return y0 - (y0 - y1) * ((v - low) / max(high - low, 1))

    small, label, title = font(13 * s), font(15 * s, bold=True), font(20 * s, bold=True)
    swing = chart.swing
    if swing is not None:  # the decisive moment: a band over that turn, then its words
        d.rectangle((x_at(swing.index - 1), y1, x_at(swing.index), y0), fill=HIGHLIGHT)
    for v in range(int(low), int(high) + 1, step):
        d.line((x0, y_at(v), x1, y_at(v)), fill=GRID, width=s)
        d.text((x0 - 8 * s, y_at(v)), str(v), font=small, fill=MUTED, anchor="rm")
    xstep = nice_step(points - 1, 8)
    for i in range(0, points, xstep):
        d.line((x_at(i), y0, x_at(i), y0 + 6 * s), fill=MUTED, width=s)
        d.text((x_at(i), y0 + 9 * s), str(i), font=small, fill=MUTED, anchor="mt")
    d.line((x0, y0, x1, y0), fill=INK, width=2 * s)
    d.line((x0, y0, x0, y1), fill=INK, width=2 * s)
    d.text((WIDTH * s // 2, 18 * s), chart.title, font=title, fill=INK, anchor="mt")
    d.text(
        ((x0 + x1) // 2, (HEIGHT - 22) * s), t("chart.x_axis", lang), font=small, fill=MUTED,
        anchor="mm",
    )  # fmt: skip
    seats = len(chart.names)
    for seat in range(seats):
        xy = [(x_at(i), y_at(row[seat])) for i, row in enumerate(chart.scores)]
        colour = player_colour(seat)
        if len(xy) > 1:  # earlier seats wider: lines on top of each other show as stripes
            d.line(xy, fill=colour, width=(3 + 3 * (seats - 1 - seat)) * s, joint="curve")
        if len(xy) <= 40:
            for x, y in xy:
                r = 4 * s
                d.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=BACKGROUND, width=s)
    # names at the line ends, pushed apart so none overlaps another
    final = chart.scores[-1] if chart.scores else [0] * seats
    ends = sorted(range(seats), key=lambda k: -final[k])
    placed: list[float] = []
    for seat in ends:
        y = y_at(final[seat])
        if placed and y < placed[-1] + 20 * s:
            y = placed[-1] + 20 * s
        placed.append(y)
        d.text(
            (x1 + 10 * s, y), line_end(chart, seat, final[seat], lang), font=label,
            fill=player_colour(seat), anchor="lm",
        )  # fmt: skip
    if swing is not None:
        words = t(
            "chart.swing",
            lang,
            change=f"{swing.change:+d}",
            name=chart.names[swing.seat],
            turn=swing.index,
        )
        x = min(max(x_at(swing.index), x0 + 120 * s), x1 - 120 * s)
        d.text((x, y1 - 6 * s), words, font=small, fill=INK, anchor="md")
    return encode_png(img.reduce(s))
