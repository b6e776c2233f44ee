"""The paints as drawn: the display colours of the 17 paints (presentation only; their names
come from the view), the text colour that reads on each, and the marks inside the primaries'
dabs that tell them apart without colour (tests/test_picture_colours.py checks both)."""

from __future__ import annotations

from PIL import ImageDraw

from render.common import INK

#: Display colours of the 17 paints (presentation only; names come from the view).
PAINT: dict[str, str] = {
    "red": "#D7261E",
    "yellow": "#F7D31A",
    "blue": "#1F5FC4",
    "orange": "#F28A1C",
    "green": "#2E9E3A",
    "purple": "#7A3E9D",
    "brown": "#8A5A2B",
    "amber": "#FFB300",
    "vermilion": "#E8452C",
    "olive": "#7F7F1A",
    "teal": "#0E8C8C",
    "magenta": "#D01C8B",
    "violet": "#9B6FE0",
    "black": "#151515",
    "white": "#FFFFFF",
    "gray": "#8E8E8E",
    "cream": "#F2E3B3",
}
LETTER = {"R": "red", "Y": "yellow", "B": "blue"}


def _paint(name: str) -> str:
    return PAINT.get(name, "#CCCCCC")


def _text_on(name: str) -> str:
    r, g, b = (int(_paint(name)[i : i + 2], 16) for i in (1, 3, 5))
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#FFFFFF"


def _dab_mark(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, letter: str) -> None:
    """A pattern inside a paint dab, so the primaries differ by more than colour (for
    colour-blind players): red plain, yellow a dark dot, blue a white bar."""
    if letter == "Y":
        d = r * 0.32
        draw.ellipse((x - d, y - d, x + d, y + d), fill=INK)
    elif letter == "B":
        draw.rectangle((x - r * 0.62, y - r * 0.16, x + r * 0.62, y + r * 0.16), fill="#FFFFFF")
