"""Labels that repeat from turn to turn (a seat's name and workers left), pasted as cached
opaque patches instead of drawn.

Why: drawing a label blends its glyph mask into the picture pixel by pixel (~90 machine
instructions a pixel, the largest cost of the panel); a label on a plain colour is the same
pixels every time, and pasting them is a copy. A patch is the label drawn on that plain colour
at the same fraction of a pixel, cropped to the pixels the label changes: pasted where the
picture under those pixels is that colour, it gives the pixels of ``ImageDraw.text``.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from render.common import font

PAD = 4  # room around the label's box for the rasteriser's rounding


@lru_cache(maxsize=256)  # a few KB each: the panel's and plates' labels of a few games
def _patch(
    text: str, size: int, bold: bool, fill: str, bg: str, anchor: str | None, fx: float, fy: float
) -> tuple[Image.Image, int, int] | None:
    """The label on ``bg`` cropped to the pixels it changes, and where that crop starts from
    the integer part of the label's position (None: the label changes no pixel)."""
    fnt = font(size, bold)
    left, top, right, bottom = fnt.getbbox(text, anchor=anchor)
    ox, oy = PAD - math.floor(left), PAD - math.floor(top)
    size_xy = (math.ceil(right) + ox + PAD, math.ceil(bottom) + oy + PAD)
    img = Image.new("RGB", size_xy, bg)
    ImageDraw.Draw(img).text((ox + fx, oy + fy), text, font=fnt, fill=fill, anchor=anchor)
    box = ImageChops.difference(img, Image.new("RGB", size_xy, bg)).getbbox()
    if box is None:
        return None
    return img.crop(box), box[0] - ox, box[1] - oy


def label(
    img: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: str,
    bg: str,
    within: tuple[int, int, int, int],
    *,
    bold: bool = False,
    anchor: str | None = None,
) -> None:
    """Draw ``text`` at ``xy`` as ``ImageDraw.text`` would with ``font(size, bold)``, where
    the picture is plain ``bg`` inside the box ``within`` (left, top, right, bottom, exclusive).
    A label that would reach out of that box (a name too long for the language's layout) is
    drawn by ``ImageDraw.text`` over whatever lies there, as before."""
    x, y = xy
    ix, iy = int(x), int(y)
    hit = _patch(text, size, bold, fill, bg, anchor, x - ix, y - iy)
    if hit is None:
        return
    patch, dx, dy = hit
    left, top = ix + dx, iy + dy
    if (
        left >= within[0]
        and top >= within[1]
        and left + patch.width <= within[2]
        and top + patch.height <= within[3]
    ):
        img.paste(patch, (left, top))
    else:
        fnt = font(size, bold)
        ImageDraw.Draw(img).text(xy, text, font=fnt, fill=fill, anchor=anchor)
