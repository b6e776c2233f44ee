"""Seats told apart without colour: each seat's chip letters, unique in its match, and the
drawn robot mark of a computer player's chip.

Why: a seat's colour is one cue, and one that fails for many eyes (Anna and Alice were two
teal "A" chips under tritanopia) and on a greyscale screen. So every seat's chip carries
letters no other seat of the match has (:func:`seat_letters`: "A" alone, "An"/"Al" when
two share an initial, the seats' numbers when even two letters do not tell them apart or
a name has no letter the fonts draw), and a computer's chip has another shape
— a robot's square head with an antenna instead of a round chip (:func:`draw_seat_chip`) —
drawn with Pillow's primitives, not an emoji glyph (the bundled fonts have none, and a
colour emoji font would be ~10 MB for one symbol).

A label is a ``str`` that also knows whether its seat is a computer's (:class:`SeatLabel`):
games pass their labels through sprites, caches and the header band as plain strings, and
whoever draws a chip learns from the label alone which shape to draw.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from PIL import ImageDraw

from render.common import INK, font, player_colour, player_text_colour
from render.glyphs import COMPUTER_SIGN, characters_of, drawable


class SeatLabel(str):
    """The letters on a seat's chip ("A", "An", "4"), and :attr:`computer`: whether a
    computer plays the seat (its chip then has the robot's shape). Equal to, and hashed as,
    its letters."""

    computer: bool

    def __new__(cls, letters: str, computer: bool = False) -> SeatLabel:
        label = super().__new__(cls, letters)
        label.computer = computer
        return label

    def __reduce__(self) -> tuple[type[SeatLabel], tuple[str, bool]]:
        return (SeatLabel, (str(self), self.computer))


def is_computer(name: str) -> bool:
    """Whether ``name`` is a computer player's ("🤖 Ada (normal)", catalogue ``ai.name``)."""
    return name.lstrip().startswith(COMPUTER_SIGN)


def _letters(name: str) -> str:
    """The letters and digits of ``name`` the fonts draw, in order (a computer's name
    without its level: "🤖 Ada (normal)" -> "Ada")."""
    if is_computer(name):
        name = name.lstrip()[len(COMPUTER_SIGN) :].split("(")[0]
    shown = drawable(name, characters_of(str(font(12, True).path)))  # chips are bold
    return "".join(c for c in shown if c.isalnum())


def _upper(char: str) -> str:
    up = char.upper()
    return up if len(up) == 1 else char  # "ß".upper() is "SS": keep one letter


def seat_letters(names: Sequence[str], seats: int | None = None) -> list[str]:
    """A label for each of ``seats`` seats (default: one per name), unique among them:
    the initial when no other seat has it; for seats sharing an initial, the first two
    letters when those differ ("An", "Al"), else the seats' numbers ("1", "3": one
    character, as small pieces need); the seat's number for a name without a drawable
    letter (or a seat beyond ``names``). Each is a :class:`SeatLabel` (typed ``str``, as
    the games' drawing code takes it)."""
    count = len(names) if seats is None else seats
    words = [_letters(names[s]) if s < len(names) else "" for s in range(count)]
    labels = [_upper(w[0]) if w else str(s + 1) for s, w in enumerate(words)]
    shared = Counter(labels)
    for initial, n in shared.items():
        if n < 2:
            continue
        group = [s for s in range(count) if labels[s] == initial and words[s]]
        two = {s: _upper(words[s][0]) + words[s][1:2].lower() for s in group}
        if all(len(v) == 2 for v in two.values()) and len(set(two.values())) == len(group):
            for s in group:
                labels[s] = two[s]
        else:  # one character: palaces and workers are small
            for s in group:
                labels[s] = str(s + 1)
    if len(set(labels)) < count:  # a name like "2pac" met a seat number: numbers only
        labels = [str(s + 1) for s in range(count)]
    flags = [s < len(names) and is_computer(names[s]) for s in range(count)]
    return [SeatLabel(label, flag) for label, flag in zip(labels, flags, strict=True)]


def is_computer_label(label: str) -> bool:
    """Whether ``label`` (from :func:`seat_letters`) is a computer seat's."""
    return bool(getattr(label, "computer", False))


def chip_width(label: str, size: int, height: float | None = None) -> float:
    """How wide :func:`draw_seat_chip` draws ``label`` at letter ``size`` (and chip
    ``height``): a round chip for one letter, wider for more (never narrower than its
    height); a computer's with the robot's head before it."""
    tall = size * 1.24 if height is None else height
    chip = max(tall, font(size, True).getlength(label) + size * 0.5)
    return chip + _head(tall) if is_computer_label(label) else chip


def _head(height: float) -> float:
    """The width of a computer's robot head before a chip ``height`` tall, with the gap."""
    return round(height * 1.1)


def draw_robot(
    draw: ImageDraw.ImageDraw, x: float, cy: float, size: int, ink: str, eyes: str
) -> None:
    """A robot's head ``size`` px tall from ``x``, centred on ``cy``, in ``ink`` with
    ``eyes`` (and mouth) of another colour: a rounded square with an antenna and ears,
    drawn with primitives (no font has one to draw)."""
    w = size * 0.8
    top = cy - size * 0.3
    bottom = cy + size * 0.5
    left = x + size * 0.08
    mid = left + w / 2
    stem = max(1, round(size / 10))
    draw.line((mid, top, mid, cy - size * 0.5), fill=ink, width=stem)
    ball = size * 0.1
    draw.ellipse((mid - ball, cy - size * 0.5 - ball, mid + ball, cy - size * 0.5 + ball), fill=ink)
    ear = size * 0.08
    draw.rectangle((left - ear, cy - size * 0.02, left + w + ear, cy + size * 0.22), fill=ink)
    draw.rounded_rectangle((left, top, left + w, bottom), radius=size * 0.14, fill=ink)
    eye = size * 0.1
    for ex in (left + w * 0.3, left + w * 0.7):
        draw.ellipse(
            (ex - eye, cy + size * 0.02 - eye, ex + eye, cy + size * 0.02 + eye), fill=eyes
        )
    draw.rectangle(
        (left + w * 0.28, cy + size * 0.28, left + w * 0.72, cy + size * 0.34), fill=eyes
    )


def draw_seat_chip(
    draw: ImageDraw.ImageDraw,
    x: float,
    cy: float,
    seat: int,
    label: str,
    size: int,
    *,
    edge: str = INK,
    ring: str | None = None,
    edge_width: int = 2,
    height: float | None = None,
) -> float:
    """A seat's chip with its left edge at ``x``, centred on ``cy``: its letters (bold,
    ``size`` px) on the seat's colour, round (a pill for two letters); for a computer
    (``label.computer``, see :class:`SeatLabel`) a robot's head (:func:`draw_robot`, in
    ``edge`` with eyes in the seat's colour) before it. ``ring`` draws a ring of that
    colour around the chip (who must act); ``edge`` is the outline's colour (white on a
    dark band, ink on a light board). The chip is ``height`` tall (default: 1.24 times
    the letters). Returns the x after the chip."""
    width = chip_width(label, size, height)
    half = (size * 1.24 if height is None else height) / 2
    if is_computer_label(label):
        draw_robot(draw, x, cy, round(half * 2), edge, player_colour(seat))
        x += _head(half * 2)
        width -= _head(half * 2)
    x0, y0, x1, y1 = round(x), round(cy - half), round(x + width), round(cy + half)
    radius = min(x1 - x0, y1 - y0) // 2  # whole pixels: Pillow's corners need them
    if ring is not None:
        draw.rounded_rectangle((x0 - 3, y0 - 3, x1 + 3, y1 + 3), radius=radius + 3, fill=ring)
    draw.rounded_rectangle(
        (x0, y0, x1, y1), radius=radius, fill=player_colour(seat), outline=edge, width=edge_width
    )
    draw.text(
        (x + width / 2, cy),
        label,
        font=font(size, True),
        fill=player_text_colour(seat),
        anchor="mm",
    )
    return x + width
