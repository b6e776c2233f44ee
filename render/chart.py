"""The score chart posted with a match's final result: each player's score after every
turn, in player colours, the largest swing of play and the end of the game marked.

Why our own few lines of Pillow and not a plotting library: the chart is lines, a grid, a
band and labels, in the pictures' own palette and fonts (DejaVu, so every name draws);
matplotlib would add a large dependency and a second look for one picture per match.

The chart draws plain numbers (:class:`ScoreChart`); ``bot/matches/score_chart.py`` gets them by
replaying the match's log, so the chart can never disagree with the game, and the places
from the match's stored result, so its ranking is the result text's (a seat given up is
last whatever its line says). Lines are drawn at
twice the size and reduced (smooth edges, TECH_NOTES "Pictures"). Colour is never the only
cue: each seat's points have their own shape (circle, square, diamond, triangles), and each
line ends in the seat's chip (its unique letters, a robot's head for a computer:
render/seats.py) and name in ink.

Why two marks: the last point of a chart is the game's last turn, and in every game that is
where the end-of-game scoring lands (Azul's row, column and colour bonuses, Taj Mahal's
chains and goods, Pastiche's final commissions), so "the largest swing" was almost always
the final scoring. The chart marks the largest swing of the turns before it
(:attr:`ScoreChart.swing`) and, apart and labelled, what the end changed
(:attr:`ScoreChart.end`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.common import (
    BACKGROUND,
    HIGHLIGHT,
    HIGHLIGHT_EDGE,
    INK,
    MUTED,
    encode_png,
    fit_text,
    font,
    player_colour,
    shrink_to_fit,
)
from render.seats import chip_width, draw_seat_chip, seat_letters
from render.words.catalogue import t

WIDTH, HEIGHT = 1000, 560
SCALE = 2
LEFT, RIGHT, TOP, BOTTOM = 64, 240, 84, 56
#: At most about this many points of a line carry its seat's shape.
MARKS = 24
GRID = "#DDD3C3"
#: The largest swing: a yellow band edged in ink (the highlight's two tones).
SWING_FILL = HIGHLIGHT
SWING_EDGE = HIGHLIGHT_EDGE
#: The end of the game: a band hatched in grey.
END_FILL = "#E9E1D3"
END_EDGE = MUTED


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
        """The largest swing of play: of every turn but the last, whose change holds the
        end-of-game scoring (see the module's docstring)."""
        return largest_swing(self.scores[:-1]) if len(self.scores) > 2 else None

    @property
    def end(self) -> Swing | None:
        """The largest change of the last turn, the end of the game (its scoring)."""
        last = largest_swing(self.scores[-2:]) if len(self.scores) > 1 else None
        return Swing(len(self.scores) - 1, last.seat, last.change) if last else None


def largest_swing(scores: list[list[int]]) -> Swing | None:
    """The turn where one player's score changed most (gain or loss; the earliest of
    equals); None when no score ever changed. ``index`` counts from the first point of
    ``scores``."""
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


def _marker(d: ImageDraw.ImageDraw, seat: int, x: float, y: float, r: float, fill: str) -> None:
    """A point of ``seat``'s line in the seat's own shape: circle, square, diamond, triangle
    up, triangle down (then round again), edged in ink (it sits on its own line's colour)."""
    shape = seat % 5
    if shape == 0:
        d.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=INK, width=SCALE)
    elif shape == 1:
        q = r * 0.9
        d.rectangle((x - q, y - q, x + q, y + q), fill=fill, outline=INK, width=SCALE)
    else:
        k = r * 1.3
        points = {
            2: [(x, y - k), (x + k, y), (x, y + k), (x - k, y)],
            3: [(x, y - k), (x + k, y + k * 0.8), (x - k, y + k * 0.8)],
            4: [(x, y + k), (x + k, y - k * 0.8), (x - k, y - k * 0.8)],
        }[shape]
        d.polygon(points, fill=fill, outline=INK, width=SCALE)


def _band(d: ImageDraw.ImageDraw, x0: float, x1: float, y0: float, y1: float, end: bool) -> None:
    """The swing's band (light yellow, edged in ink) or the end's (hatched grey)."""
    s = SCALE
    d.rectangle((x0, y1, x1, y0), fill=END_FILL if end else SWING_FILL)
    if end:  # hatched: lines rising to the right, each cut to the band
        height = y0 - y1
        for k in range(int(x0 - height), int(x1), 12 * s):
            a, b = max(0.0, x0 - k), min(height, x1 - k)
            if a < b:
                d.line((k + a, y0 - a, k + b, y0 - b), fill=GRID, width=2 * s)
    edge = END_EDGE if end else SWING_EDGE
    for x in (x0, x1):
        d.line((x, y1, x, y0), fill=edge, width=2 * s)


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

    small = font(13 * s)
    swing, end = chart.swing, chart.end
    for mark, is_end in ((end, True), (swing, False)):  # the moments: a band over the turn
        if mark is not None:
            _band(d, x_at(mark.index - 1), x_at(mark.index), y0, y1, is_end)
    for v in range(int(low), int(high) + 1, step):
        d.line((x0, y_at(v), x1, y_at(v)), fill=GRID, width=s)
        d.text((x0 - 8 * s, y_at(v)), str(v), font=small, fill=MUTED, anchor="rm")
    xstep = nice_step(points - 1, 8)
    for i in range(0, points, xstep):
        d.line((x_at(i), y0, x_at(i), y0 + 6 * s), fill=MUTED, width=s)
        d.text((x_at(i), y0 + 9 * s), str(i), font=small, fill=MUTED, anchor="mt")
    d.line((x0, y0, x1, y0), fill=INK, width=2 * s)
    d.line((x0, y0, x0, y1), fill=INK, width=2 * s)
    head = shrink_to_fit(chart.title, 20 * s, (WIDTH - 40) * s, smallest=13 * s, bold=True)
    d.text((WIDTH * s // 2, 18 * s), fit_text(chart.title, head, (WIDTH - 40) * s), font=head,
           fill=INK, anchor="mt")  # fmt: skip
    d.text(
        ((x0 + x1) // 2, (HEIGHT - 22) * s), t("chart.x_axis", lang), font=small, fill=MUTED,
        anchor="mm",
    )  # fmt: skip
    seats = len(chart.names)
    for seat in range(seats):
        xy = [(x_at(i), y_at(row[seat])) for i, row in enumerate(chart.scores)]
        colour = player_colour(seat)
        width = 3 + 3 * (seats - 1 - seat)
        if len(xy) > 1:  # earlier seats wider: lines on top of each other show as stripes
            d.line(xy, fill=colour, width=width * s, joint="curve")
        every = math.ceil(len(xy) / MARKS)  # at most about MARKS shapes a line, the last too
        for i, (x, y) in enumerate(xy):
            if i % every == 0 or i == len(xy) - 1:
                _marker(d, seat, x, y, (width / 2 + 3) * s, colour)
    _line_ends(d, chart, x1 + 16 * s, y_at, lang)
    _moment_words(d, chart, x_at, (x0, x1, y1), lang)
    return encode_png(img.reduce(s))


def _line_ends(
    d: ImageDraw.ImageDraw, chart: ScoreChart, x: float, y_at: Callable[[float], float], lang: str
) -> None:
    """Each line's end: the seat's chip and its words ("#1 Ann 46") in ink, pushed apart so
    none overlaps another, set smaller (then cut) only when a name is too long."""
    s = SCALE
    seats = len(chart.names)
    final = chart.scores[-1] if chart.scores else [0] * seats
    letters = seat_letters(chart.names)
    chip = 13 * s
    room = {k: WIDTH * s - x - chip_width(letters[k], chip) - 14 * s for k in range(seats)}
    words = {k: line_end(chart, k, final[k], lang) for k in range(seats)}
    size = min(  # one size for all: the largest in which every seat's words fit
        (shrink_to_fit(words[k], 15 * s, room[k], smallest=12 * s, bold=True).size for k in words),
        default=15 * s,
    )
    fnt = font(int(size), bold=True)
    placed: list[float] = []
    for seat in sorted(range(seats), key=lambda k: -final[k]):
        y = y_at(final[seat])
        if placed and y < placed[-1] + 24 * s:
            y = placed[-1] + 24 * s
        placed.append(y)
        after = draw_seat_chip(d, x, y, seat, letters[seat], chip, edge=INK) + 6 * s
        shown = fit_text(words[seat], fnt, int(room[seat]))
        d.text((after, y), shown, font=fnt, fill=INK, anchor="lm")


def _moment_words(
    d: ImageDraw.ImageDraw,
    chart: ScoreChart,
    x_at: Callable[[float], float],
    plot: tuple[float, float, float],
    lang: str,
) -> None:
    """The words of the two marked moments above the plot, each over its band: the end's
    on the right, the swing's left of it (one row higher when they would touch)."""
    s = SCALE
    x0, x1, top = plot
    small = font(13 * s, bold=True)
    right_edge = x1
    rows = 0
    if chart.end is not None:
        end = chart.end
        words = t("chart.end", lang, change=f"{end.change:+d}", name=chart.names[end.seat])
        d.text((x1, top - 6 * s), words, font=small, fill=INK, anchor="rd")
        right_edge = x1 - small.getlength(words) - 16 * s
        rows = 1
    if chart.swing is not None:
        swing = chart.swing
        words = t(
            "chart.swing",
            lang,
            change=f"{swing.change:+d}",
            name=chart.names[swing.seat],
            turn=swing.index,
        )
        half = small.getlength(words) / 2
        x = min(max(x_at(swing.index - 0.5), x0 + half), x1 - half)
        row = 1 if rows and x + half > right_edge else 0
        d.text((x, top - (6 + 22 * row) * s), words, font=small, fill=INK, anchor="md")
