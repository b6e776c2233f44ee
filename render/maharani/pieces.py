"""Maharani's pieces as drawn: the layout's sizes, the tile colours and letters, tiles and
workers as cached sprites, the static board layer, and the names and initials of seats."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    BACKGROUND,
    MUTED,
    font,
)
from render.words.catalogue import t, word

CELL = 100
STRIP = 56  # seat strip around the board
COORD = 28  # coordinate band between strip and board
MARGIN = 16
GX0 = MARGIN + STRIP + COORD  # left of the grid
GY0 = MARGIN + STRIP + COORD
GRID = 8 * CELL
BOARD_END = GX0 + GRID + COORD + STRIP  # right edge of the board block
PANEL_X = BOARD_END + 24
WIDTH = PANEL_X + 470
HEIGHT = BOARD_END + MARGIN

#: Tile colours chosen to stay apart (CAM02-UCS ΔE ≥ 18) under simulated deuteranopia,
#: protanopia and tritanopia as well as normal vision (tests/test_picture_colours.py);
#: every tile also carries its colour's letter.
TILE_FILL: dict[str, str] = {
    "blue": "#3D49EB",
    "orange": "#EEAC13",
    "red": "#A62214",
    "green": "#58975E",
    "purple": "#9B6693",
    "turquoise": "#00C8C1",
}
SPARE_FILLS = ["#8C6D46", "#5B6770", "#B03A7A", "#6E7F1F"]
BOARD_EDGE = "#D9CBA8"  # the board's rim and corner cells, around the floor
FLOOR = "#EFE7D4"
FLOOR_LINE = "#CBBF9F"
QUARTER_LINE = "#5A4A32"
RONDEL_FILL = "#4B3B2A"
PILLAR = "#141414"
EMPTY_PILLAR = "#8F8471"
DELTA = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
ROTATE = {"N": 0, "E": 1, "S": 2, "W": 3}
SIDES = ("N", "E", "S", "W")


def tile_fill(colour: str, colours: tuple[str, ...] = ()) -> str:
    if colour in TILE_FILL:
        return TILE_FILL[colour]
    i = colours.index(colour) if colour in colours else len(colour)
    return SPARE_FILLS[i % len(SPARE_FILLS)]


def tile_letter(colour: str) -> str:
    return colour[:1].upper()


def _text_on(fill: str) -> str:
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#FFFFFF"


def _pillars(
    draw: ImageDraw.ImageDraw, size: int, sides: tuple[str, ...], centre: bool, ink: str
) -> None:
    """Pillar marks on a square of ``size`` at the origin: half discs on edges, centre disc."""
    rad = size * 0.13
    mid = size / 2
    if centre:
        draw.ellipse((mid - rad, mid - rad, mid + rad, mid + rad), fill=ink)
    for side in sides:
        dx, dy = DELTA[side]
        cx, cy = mid + dx * mid, mid + dy * mid
        draw.ellipse((cx - rad, cy - rad, cx + rad, cy + rad), fill=ink)


def _arrow(draw: ImageDraw.ImageDraw, size: int, d: str, outline: str = "#1A1A1A") -> None:
    """A white wedge pointing to ``d``, between the centre pillar and the edge pillar."""
    mid = size / 2
    dx, dy = DELTA[d]
    px, py = -dy, dx  # perpendicular
    tip, base, half = size * 0.34, size * 0.15, size * 0.15
    pts = [
        (mid + dx * tip, mid + dy * tip),
        (mid + dx * base + px * half, mid + dy * base + py * half),
        (mid + dx * base - px * half, mid + dy * base - py * half),
    ]
    draw.polygon(pts, fill="#FFFFFF", outline=outline, width=max(2, size // 40))


def tile_body(fill: str, size: int) -> Image.Image:
    """A tile's body at 2x (transparent outside its rounded corners), before its marks."""
    big = size * 2
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, big - 1, big - 1), radius=big // 14, fill=fill, outline="#2B2B2B")
    return img


def tile_sprite(
    fill: str, letter: str, arrow: str, sides: tuple[str, ...], centre: bool, size: int
) -> Image.Image:
    """A tile as placed: colour, pillar marks (board frame), arrow, colour letter. The
    picture pastes the same pixels, composed faster: :func:`render.maharani.tiles.tile_patch`."""
    big = size * 2
    img = tile_body(fill, size)
    d = ImageDraw.Draw(img)
    _pillars(d, big, sides, centre, PILLAR)
    _arrow(d, big, arrow)
    img = img.reduce(2)  # box filter at 2x: ~3x cheaper than LANCZOS, as smooth
    draw_letter(ImageDraw.Draw(img), fill, letter, size)
    return img


def draw_letter(d: ImageDraw.ImageDraw, fill: str, letter: str, size: int) -> None:
    """A tile's colour letter in its top-left corner, outlined to read on any colour."""
    ink = _text_on(fill)
    d.text(
        (size * 0.09, size * 0.05),
        letter,
        font=font(max(16, size // 5), True),
        fill=ink,
        stroke_width=2,
        stroke_fill="#000000" if ink == "#FFFFFF" else "#FFFFFF",
    )


@lru_cache(maxsize=64)
def worker_sprite(fill: str, ink: str, letter: str, square: bool, size: int) -> Image.Image:
    """A worker: a disc, or (the 2-player second worker colour) a rounded square, in the
    seat colour with the player's initial. Shape, not shade, tells the two colours apart."""
    big = size * 2
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    inset = big * 0.07
    if square:
        d.rounded_rectangle((0, 0, big - 1, big - 1), radius=big // 8, fill="#111111")
        d.rounded_rectangle(
            (inset, inset, big - inset, big - inset), radius=big // 10, fill="#FFFFFF"
        )
        inset2 = big * 0.13
        d.rounded_rectangle(
            (inset2, inset2, big - inset2, big - inset2), radius=big // 12, fill=fill
        )
    else:
        d.ellipse((0, 0, big - 1, big - 1), fill="#111111")
        d.ellipse((inset, inset, big - inset, big - inset), fill="#FFFFFF")
        inset2 = big * 0.13
        d.ellipse((inset2, inset2, big - inset2, big - inset2), fill=fill)
    img = img.resize((size, size), Image.Resampling.LANCZOS)
    d = ImageDraw.Draw(img)
    f = font(max(16, int(size * 0.55)), True)
    d.text((size / 2, size / 2 + 1), letter, font=f, fill=ink, anchor="mm")
    return img


def _cell_xy(r: int, c: int) -> tuple[int, int]:
    return GX0 + c * CELL, GY0 + r * CELL


BoardKey = tuple[tuple[Any, ...], ...]


@lru_cache(maxsize=2)  # ~6.7 MB each; only builds the static layers (render.maharani.layer)
def board_layer(spaces: BoardKey, animals: tuple[str, ...]) -> Image.Image:
    """Floor, grid, empty-space pillar marks, quarter borders, coordinates (static)."""
    s2 = 2
    img = Image.new("RGB", (WIDTH * s2, HEIGHT * s2), BACKGROUND)
    d = ImageDraw.Draw(img)
    x0, y0 = (GX0 - 6) * s2, (GY0 - 6) * s2
    d.rounded_rectangle(
        (x0, y0, (GX0 + GRID + 6) * s2, (GY0 + GRID + 6) * s2), radius=18, fill=BOARD_EDGE
    )
    for _name, r, c, _q, kind, sides in spaces:
        x, y = _cell_xy(r, c)
        box = (x * s2, y * s2, (x + CELL) * s2 - 1, (y + CELL) * s2 - 1)
        d.rectangle(box, fill=FLOOR, outline=FLOOR_LINE, width=2)
        sub = Image.new("RGBA", (CELL * s2, CELL * s2), (0, 0, 0, 0))
        _pillars(ImageDraw.Draw(sub), CELL * s2, tuple(sides), kind == "C", EMPTY_PILLAR)
        img.paste(sub, (x * s2, y * s2), sub)
    # quarter borders (the rondel block is drawn over them)
    mid = GX0 + 4 * CELL
    w = 6
    d.line((mid * s2, GY0 * s2, mid * s2, (GY0 + GRID) * s2), fill=QUARTER_LINE, width=w)
    d.line((GX0 * s2, mid * s2, (GX0 + GRID) * s2, mid * s2), fill=QUARTER_LINE, width=w)
    # rondel block
    rx, ry = _cell_xy(3, 3)
    d.rounded_rectangle(
        (rx * s2 - 4, ry * s2 - 4, (rx + 2 * CELL) * s2 + 4, (ry + 2 * CELL) * s2 + 4),
        radius=40,
        fill=RONDEL_FILL,
        outline="#2A1F14",
        width=4,
    )
    img = img.reduce(s2)
    d = ImageDraw.Draw(img)
    f = font(18, True)
    for i in range(8):
        cx = GX0 + i * CELL + CELL // 2
        cy = GY0 + i * CELL + CELL // 2
        letter = "ABCDEFGH"[i]
        d.text((cx, GY0 - COORD // 2 - 2), letter, font=f, fill=MUTED, anchor="mm")
        d.text((cx, GY0 + GRID + COORD // 2 + 2), letter, font=f, fill=MUTED, anchor="mm")
        d.text((GX0 - COORD // 2 - 2, cy), str(i + 1), font=f, fill=MUTED, anchor="mm")
        d.text((GX0 + GRID + COORD // 2 + 2, cy), str(i + 1), font=f, fill=MUTED, anchor="mm")
    return img


def _corner_cells() -> list[tuple[int, int, int]]:
    """The four corner cells (not spaces) that carry the quarter names: (r, c, quarter)."""
    return [(0, 0, 1), (0, 7, 2), (7, 7, 3), (7, 0, 4)]


def _names(names: list[str], n: int, lang: str = "en") -> list[str]:
    return [
        names[i] if i < len(names) and names[i] else t("pic.common.player", lang, n=i + 1)
        for i in range(n)
    ]


def _animal(name: str, lang: str) -> str:
    return word("pic.maharani.animal", name, lang) if name else name


#: The last move's mark: black and white only, told by shape (a double frame and a corner
#: flag), never by hue, so it holds on every tile colour and for every colour vision.
MARK_DARK = "#111111"
MARK_LIGHT = "#FFFFFF"


def recent_mark(d: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """Frame the space at ``(x, y)`` as changed by the last move: a thick black frame with a
    white line inside it (dark against the pale floor, light against dark tiles), and a
    black flag in the bottom-left corner, which no tile letter, worker or pillar mark uses."""
    d.rectangle((x + 1, y + 1, x + CELL - 2, y + CELL - 2), outline=MARK_DARK, width=6)
    d.rectangle((x + 6, y + 6, x + CELL - 7, y + CELL - 7), outline=MARK_LIGHT, width=3)
    flag = 30
    tri = [(x + 1, y + CELL - 2), (x + 1, y + CELL - 2 - flag), (x + 1 + flag, y + CELL - 2)]
    d.polygon(tri, fill=MARK_DARK)
    edge = [(x + 1, y + CELL - 2 - flag - 3), (x + 4 + flag, y + CELL - 2)]
    d.line(edge, fill=MARK_LIGHT, width=3)
