"""Tiles as pasted: a tile already laid on the colour under it, composed from cached parts.

Why: a picture shows up to ~60 tiles, and each turn brings new ones (a tile takes its
space's pillar marks, a rondel tile its own turned ones), so a tile drawn from scratch
(:func:`render.maharani.pieces.tile_sprite`: shapes at 2x, a box-filter reduce, its letter)
costs ~0.3 ms, several times a picture; and pasting a transparent sprite costs ~10x more
than pasting an opaque one.

How the pixels stay the same: the reduce averages each 2x2 block, so a 1x pixel depends only
on its block. Each part (the centre pillar, a half pillar on one side, the arrow to one side)
is drawn alone on the tile's body at 2x and reduced once per colour and size, with a mask of
the 1x pixels whose block it touches. The parts of one tile never share a block (the arrows
would, but a tile has one arrow; tests/test_maharani_tiles.py checks every combination), so
pasting each part's pixels through its mask onto the reduced body gives exactly the reduced
drawing of the whole tile. The body is laid on the background first (its rounded corners are
the only pixels that are not opaque: no part reaches them) with its letter, drawn as
:func:`tile_sprite` draws it after the reduce: on opaque pixels, where drawing on the sprite
and then pasting it is the same as drawing on the laid tile, and on none a part covers.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from render.maharani.pieces import PILLAR, _arrow, _pillars, draw_letter, tile_body

Part = tuple[str, str]  # ("pillar", "C" or a side) or ("arrow", a side)
PARTS: tuple[Part, ...] = (
    ("pillar", "C"),
    *(("pillar", s) for s in ("N", "E", "S", "W")),
    *(("arrow", s) for s in ("N", "E", "S", "W")),
)


@dataclass(frozen=True)
class _Piece:
    """One part's reduced pixels (RGB) and its mask, cropped to where the mask is set."""

    pixels: Image.Image
    mask: Image.Image
    at: tuple[int, int]


def _draw_part(draw: ImageDraw.ImageDraw, big: int, part: Part) -> None:
    kind, where = part
    if kind == "arrow":
        _arrow(draw, big, where)
    elif where == "C":
        _pillars(draw, big, (), True, PILLAR)
    else:
        _pillars(draw, big, (where,), False, PILLAR)


def part_masks(size: int) -> dict[Part, Image.Image]:
    """Each part's 1x mask: 255 where the part touches the pixel's 2x2 block (the tile's
    colour does not change where a part is drawn, only what it covers does)."""
    big = size * 2
    out = {}
    for part in PARTS:
        cover = Image.new("RGBA", (big, big), (0, 0, 0, 0))
        _draw_part(ImageDraw.Draw(cover), big, part)
        out[part] = cover.getchannel("A").reduce(2).point(lambda v: 255 if v else 0)
    return out


@lru_cache(maxsize=4)
def _masks(size: int) -> dict[Part, Image.Image]:
    return part_masks(size)


@lru_cache(maxsize=32)  # colours x sizes x backgrounds in use: ~14 x 0.3 MB
def _parts(fill: str, letter: str, size: int, bg: str) -> tuple[Image.Image, dict[Part, _Piece]]:
    """The tile's body laid on ``bg`` with its letter, and each part's pixels, for one
    colour and size."""
    body = tile_body(fill, size)
    laid = Image.new("RGB", (size, size), bg)
    small = body.reduce(2)
    laid.paste(small, (0, 0), small)
    draw_letter(ImageDraw.Draw(laid), fill, letter, size)
    pieces = {}
    for part, mask in _masks(size).items():
        drawn = body.copy()
        _draw_part(ImageDraw.Draw(drawn), size * 2, part)
        box = mask.getbbox()
        assert box is not None  # every part draws something
        # reducing the 2x crop of the part's blocks = cropping the reduced tile, cheaper
        left, top, right, bottom = box
        pixels = drawn.crop((2 * left, 2 * top, 2 * right, 2 * bottom)).reduce(2).convert("RGB")
        pieces[part] = _Piece(pixels, mask.crop(box), (box[0], box[1]))
    return laid, pieces


@lru_cache(maxsize=512)  # ~35 KB each: every tile of a few games in play
def tile_patch(
    bg: str, fill: str, letter: str, arrow: str, sides: tuple[str, ...], centre: bool, size: int
) -> Image.Image:
    """The tile of :func:`tile_sprite` pasted on a plain ``bg`` square (same pixels): an
    opaque patch, pasted without a mask where the picture under it is ``bg``."""
    laid, pieces = _parts(fill, letter, size, bg)
    img = laid.copy()
    parts: list[Part] = [("arrow", arrow), *(("pillar", s) for s in sides)]
    if centre:
        parts.append(("pillar", "C"))
    for part in parts:
        piece = pieces[part]
        img.paste(piece.pixels, piece.at, piece.mask)
    return img
