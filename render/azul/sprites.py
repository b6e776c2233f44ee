"""Azul's tiles, the first-player marker and the mark of the last move.

Colour is never the only cue: each tile carries its letter AND a shape (blue circle, yellow
triangle, red diamond, black square, white star). The last move is marked by a frame (a dark
outer line and a light inner one), so it shows on the cream board and on every tile colour,
in greyscale too. Sprites are drawn once at 3x, reduced and cached: a picture is mostly
``paste`` calls.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import INK, font

BOARD_BG = "#FBF8F2"
TABLE_BG = "#E9E1D3"
EMPTY_CELL = "#E4DDD0"
EMPTY_EDGE = "#C9BFAE"
DISC_FILL = "#F6F1E7"
DISC_EDGE = "#9C8B70"

LETTERS = "BYRKW"
FILL = {"B": "#2F6DB5", "Y": "#F2C12E", "R": "#C8372D", "K": "#2A2A2A", "W": "#E6F7F7"}
MARK = {"B": "#FFFFFF", "Y": "#222222", "R": "#FFFFFF", "K": "#FFFFFF", "W": "#1E4E5A"}
SHAPES = {"B": "circle", "Y": "triangle", "R": "diamond", "K": "square", "W": "star"}

#: The last move's frame: the dark line reads on the cream board and on light tiles, the
#: light one on dark tiles (and between the dark line and a dark tile).
NEW_DARK = INK
NEW_LIGHT = "#FFD400"  # light by design, whatever the shared highlight colour becomes
NEW_DARK_W = 5
NEW_LIGHT_W = 4


def _shape_points(kind: str, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    if kind == "triangle":
        return [(cx, cy - r), (cx + r * 0.95, cy + r * 0.75), (cx - r * 0.95, cy + r * 0.75)]
    if kind == "diamond":
        return [(cx, cy - r), (cx + r * 0.8, cy), (cx, cy + r), (cx - r * 0.8, cy)]
    if kind == "star":
        pts = []
        for i in range(10):
            a = -math.pi / 2 + i * math.pi / 5
            rr = r if i % 2 == 0 else r * 0.45
            pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
        return pts
    raise ValueError(kind)


def _draw_shape(
    d: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float, **kw: Any
) -> None:
    if kind == "circle":
        d.ellipse((cx - r * 0.85, cy - r * 0.85, cx + r * 0.85, cy + r * 0.85), **kw)
    elif kind == "square":
        s = r * 0.75
        d.rectangle((cx - s, cy - s, cx + s, cy + s), **kw)
    else:
        d.polygon(_shape_points(kind, cx, cy, r), **kw)


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return (int(hex_colour[1:3], 16), int(hex_colour[3:5], 16), int(hex_colour[5:7], 16))


def _blend(hex_a: str, hex_b: str, t: float) -> tuple[int, int, int]:
    """``hex_a`` moved a fraction ``t`` towards ``hex_b``."""
    a, b = _rgb(hex_a), _rgb(hex_b)
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


SHADOW = 3


@cache
def tile_sprite(letter: str, size: int, faint: bool = False) -> Image.Image:
    """A tile: colour, shape mark at the left, letter at the right, and a drop shadow so a
    placed tile stands out. ``faint``: the printed colour of an empty wall space (flat, pale,
    thin outline, no shadow)."""
    ss = 3
    w = size * ss
    extra = 0 if faint else SHADOW * ss
    big = Image.new("RGBA", (w + extra, w + extra), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    fill = FILL[letter]
    mark = MARK[letter]
    if faint:
        fill_rgb = _blend(fill, BOARD_BG, 0.8)
        # the mark of a pale space is a paler version of the tile's most visible colour
        mark_rgb = _blend(MARK["W"] if letter == "W" else fill, BOARD_BG, 0.5)
        edge = _blend(fill if letter != "W" else MARK["W"], BOARD_BG, 0.7)
        d.rounded_rectangle(
            (0, 0, w - 1, w - 1), radius=w // 7, fill=fill_rgb, outline=edge, width=ss
        )
    else:
        fill_rgb = _rgb(fill)
        mark_rgb = _rgb(mark)
        edge = _blend(fill, "#000000", 0.55)
        d.rounded_rectangle(
            (extra, extra, w - 1 + extra, w - 1 + extra), radius=w // 7, fill=(0, 0, 0, 110)
        )
        d.rounded_rectangle(
            (0, 0, w - 1, w - 1), radius=w // 7, fill=fill_rgb, outline=edge, width=2 * ss
        )
    _draw_shape(d, SHAPES[letter], w * 0.30, w * 0.5, w * 0.2, fill=mark_rgb)
    full = (size + extra // ss, size + extra // ss)
    sprite = big.resize(full, Image.Resampling.LANCZOS)
    sd = ImageDraw.Draw(sprite)
    f = font(max(16, size * 2 // 5), True)
    sd.text((size * 0.73, size * 0.5), letter, font=f, fill=mark_rgb, anchor="mm")
    return sprite


@cache
def marker_sprite(size: int) -> Image.Image:
    ss = 3
    w = size * ss
    big = Image.new("RGBA", (w, w), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rounded_rectangle(
        (0, 0, w - 1, w - 1), radius=w // 7, fill="#FFFFFF", outline=INK, width=ss * 2
    )
    sprite = big.resize((size, size), Image.Resampling.LANCZOS)
    sd = ImageDraw.Draw(sprite)
    sd.text((size / 2, size / 2), "1", font=font(max(18, size // 2), True), fill=INK, anchor="mm")
    return sprite


Box = tuple[int, int, int, int]


def frame_new(
    d: ImageDraw.ImageDraw, box: Box, radius: int = 8, tiles: list[Box] | None = None
) -> None:
    """Frame the tiles in ``box`` as the last move's: a dark line just outside the edge of
    ``box`` (one tile, or round a run of them) and a light one just inside each tile's edge
    (``tiles``: the run's tiles; by default ``box`` is the one tile)."""
    x0, y0, x1, y1 = box
    out = NEW_DARK_W - 1
    d.rounded_rectangle(
        (x0 - out, y0 - out, x1 + out - 1, y1 + out - 1),
        radius=radius + out,
        outline=NEW_DARK,
        width=NEW_DARK_W,
    )
    for a0, b0, a1, b1 in tiles or [box]:
        d.rounded_rectangle(
            (a0 + 1, b0 + 1, a1 - 2, b1 - 2), radius=radius, outline=NEW_LIGHT, width=NEW_LIGHT_W
        )


def ring_new(d: ImageDraw.ImageDraw, cx: int, cy: int, r: int) -> None:
    """The last move's frame around a round factory of radius ``r``."""
    d.ellipse(
        (cx - r - NEW_DARK_W, cy - r - NEW_DARK_W, cx + r + NEW_DARK_W, cy + r + NEW_DARK_W),
        outline=NEW_DARK,
        width=NEW_DARK_W,
    )
    d.ellipse(
        (cx - r + 1, cy - r + 1, cx + r - 1, cy + r - 1), outline=NEW_LIGHT, width=NEW_LIGHT_W
    )
