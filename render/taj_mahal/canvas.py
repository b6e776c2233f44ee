"""Where the public picture is drawn: the final image, header band included, with the
board's origin below the band (:class:`Canvas`); and how a cached sprite lands on exactly
the pixels the shape drawn in place would cover (:func:`split`).

Why one canvas for band and board: the board used to be drawn on its own image and the
band stacked above it afterwards, a second full-size copy (~1 ms of a ~6 ms picture).
Drawn at an offset, the board's code keeps its own coordinates (``y`` 0 is the board's
top) and the picture is copied once.

Why sprites: a rounded rectangle costs ~25 µs, a chip (circle and letter) ~15 µs, and a
picture drew some thirty of them, mostly the same ones every turn; pasting a cached
sprite costs a few µs. Pillow's shapes are not anti-aliased and a sprite's shapes are
drawn whole (opaque pixels, or fully transparent ones), so the pasted pixels are those
the shape drawn in place would set.

Why a sprite is cut (:class:`Sprite`): Pillow blends a paste through a mask pixel by
pixel (~30x slower than copying the same pixels), and a sprite is mostly opaque; the
opaque runs are copied without a mask, only the edges (rounded corners, smoothed edges)
go through one.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from PIL import Image, ImageDraw, ImageFont

if TYPE_CHECKING:
    from PIL._imaging import ImagingCore


class Pen(Protocol):
    """What the shared drawing helpers need: :class:`PIL.ImageDraw.ImageDraw` (a sprite's)
    or a :class:`Canvas` (the picture's, at its offset)."""

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        fill: str | None = None,
        font: ImageFont.FreeTypeFont | None = None,
        anchor: str | None = None,
    ) -> None: ...

    def rounded_rectangle(
        self,
        xy: Sequence[float],
        radius: float = 0,
        fill: str | None = None,
        outline: str | None = None,
        width: int = 1,
    ) -> None: ...

    def ellipse(
        self,
        xy: Sequence[float],
        fill: str | None = None,
        outline: str | None = None,
        width: int = 1,
    ) -> None: ...

    def rectangle(
        self,
        xy: Sequence[float],
        fill: str | None = None,
        outline: str | None = None,
        width: int = 1,
    ) -> None: ...

    def polygon(
        self,
        xy: Sequence[tuple[float, float]],
        fill: str | None = None,
        outline: str | None = None,
        width: int = 1,
    ) -> None: ...

    def line(self, xy: Sequence[float], fill: str | None = None, width: int = 1) -> None: ...


class Canvas:
    """``image`` drawn on with its origin ``dy`` px down: the board's coordinates, with the
    header band above them (``dy`` is the band's height). Shapes and texts go through
    Pillow's :class:`~PIL.ImageDraw.ImageDraw` (the picture probe of the tests sees every
    text); :meth:`paste` puts a sprite with its own transparency."""

    def __init__(self, image: Image.Image, dy: int = 0) -> None:
        self.image = image
        self.dy = dy
        self._draw = ImageDraw.Draw(image)

    @property
    def height(self) -> int:
        """The board's height (below the origin)."""
        return self.image.height - self.dy

    @property
    def draw(self) -> ImageDraw.ImageDraw:
        """The image's own pen, for a helper that takes one: with boxes from :meth:`box`."""
        return self._draw

    def box(self, xy: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        """A board box (x0, y0, x1, y1) in the image's coordinates."""
        return xy[0], xy[1] + self.dy, xy[2], xy[3] + self.dy

    def _box(self, xy: Sequence[float]) -> list[float]:
        dy = self.dy
        return [v + dy if i % 2 else v for i, v in enumerate(xy)]

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        fill: str | None = None,
        font: ImageFont.FreeTypeFont | None = None,
        anchor: str | None = None,
    ) -> None:
        self._draw.text((xy[0], xy[1] + self.dy), text, fill=fill, font=font, anchor=anchor)

    def rounded_rectangle(
        self,
        xy: Sequence[float],
        radius: float = 0,
        fill: str | None = None,
        outline: str | None = None,
        width: int = 1,
    ) -> None:
        self._draw.rounded_rectangle(self._box(xy), radius, fill=fill, outline=outline, width=width)

    def ellipse(
        self,
        xy: Sequence[float],
        fill: str | None = None,
        outline: str | None = None,
        width: int = 1,
    ) -> None:
        self._draw.ellipse(self._box(xy), fill=fill, outline=outline, width=width)

    def rectangle(
        self,
        xy: Sequence[float],
        fill: str | None = None,
        outline: str | None = None,
        width: int = 1,
    ) -> None:
        self._draw.rectangle(self._box(xy), fill=fill, outline=outline, width=width)

    def polygon(
        self,
        xy: Sequence[tuple[float, float]],
        fill: str | None = None,
        outline: str | None = None,
        width: int = 1,
    ) -> None:
        dy = self.dy
        points = [(x, y + dy) for x, y in xy]
        self._draw.polygon(points, fill=fill, outline=outline, width=width)

    def line(self, xy: Sequence[float], fill: str | None = None, width: int = 1) -> None:
        self._draw.line(self._box(xy), fill=fill, width=width)

    def paste(self, sprite: Sprite, xy: tuple[int, int]) -> None:
        """``sprite`` with its top left corner at board point ``xy``: its parts straight
        into the image's core (what ``Image.paste`` ends in, without its checks: the
        canvas is a fresh image of our own, the parts are loaded)."""
        core = self.image.im
        x, y = xy[0], xy[1] + self.dy
        for part, x0, y0, x1, y1, masked in sprite.parts:
            box = (x + x0, y + y0, x + x1, y + y1)
            if masked:
                core.paste(part, box, part)
            else:
                core.paste(part, box)


#: What a paste costs beyond its pixels, in masked pixels (~0.4 µs against ~8 ns a
#: masked pixel; a pixel copied without a mask is nearly free): :func:`cut` weighs it.
PASTE_COST = 64


@dataclass(frozen=True, slots=True)
class Sprite:
    """An RGBA picture cut for pasting: ``parts`` are (core image, x0, y0, x1, y1, masked)
    within ``width`` x ``height``, opaque runs as RGB copied as they are, the rest RGBA
    pasted through its own transparency (:func:`cut`). Never drawn on once made."""

    width: int
    height: int
    parts: tuple[tuple[ImagingCore, int, int, int, int, bool], ...]


def cut(img: Image.Image) -> Sprite:
    """``img`` (RGBA) cut into the cheapest parts to paste. Rows with the same alpha form
    bands; a band of only opaque and transparent pixels is its opaque runs (one copy
    each), any other is pasted through a mask; neighbouring bands are pasted as one
    masked part where that costs less (a rounded corner's few rows, one at a time, cost
    more in calls than in pixels). Pasting the parts sets exactly the pixels pasting
    ``img`` through its alpha would (a mask of 255 copies, one of 0 keeps)."""
    w, h = img.size
    alpha = img.getchannel("A").tobytes()
    bands: list[tuple[int, int, bytes]] = []  # (first row, end row, the rows' alpha)
    for y in range(h):
        row = alpha[y * w : (y + 1) * w]
        if bands and bands[-1][2] == row:
            bands[-1] = (bands[-1][0], y + 1, row)
        else:
            bands.append((y, y + 1, row))
    spans = [_span(row) for _, _, row in bands]
    # a band of plain rows alone: a copy per opaque run
    alone = [
        PASTE_COST * len(re.findall(rb"\xff+", row)) if _plain(row) else None for _, _, row in bands
    ]
    # best[i]: the least cost of pasting the bands before i, and where its last part starts
    best: list[tuple[float, int]] = [(0.0, 0)]
    for i in range(len(bands)):
        options = []
        left, right, top, bottom = w, 0, -1, -1  # the visible box of bands j..i
        for j in range(i, -1, -1):
            span = spans[j]
            if span is not None:
                left, right, top = min(left, span[0]), max(right, span[1]), bands[j][0]
                bottom = bands[j][1] if bottom < 0 else bottom
            single = alone[i] if j == i else None
            if single is not None:
                cost = float(single)
            else:  # one masked part (nothing to paste: free)
                cost = PASTE_COST + (right - left) * (bottom - top) if top >= 0 else 0.0
            options.append((best[j][0] + cost, j))
        best.append(min(options))
    groups = []
    i = len(bands)
    while i > 0:
        j = best[i][1]
        groups.append((j, i - 1))
        i = j
    rgb = img.convert("RGB")
    parts: list[tuple[ImagingCore, int, int, int, int, bool]] = []
    for j, i in reversed(groups):
        if j == i and alone[i] is not None:
            y0, y1, row = bands[i]
            for run in re.finditer(rb"\xff+", row):
                box = (run.start(), y0, run.end(), y1)
                parts.append((rgb.crop(box).im, *box, False))
            continue
        seen = [(bands[k], span) for k in range(j, i + 1) if (span := spans[k]) is not None]
        if seen:
            x0, x1 = min(span[0] for _, span in seen), max(span[1] for _, span in seen)
            union = (x0, seen[0][0][0], x1, seen[-1][0][1])
            parts.append((img.crop(union).im, *union, True))
    return Sprite(w, h, tuple(parts))


def _span(row: bytes) -> tuple[int, int] | None:
    """The first and end column of a row's visible pixels (None: none)."""
    left = len(row) - len(row.lstrip(b"\x00"))
    if left == len(row):
        return None
    return left, len(row.rstrip(b"\x00"))


def _plain(row: bytes) -> bool:
    """Whether a row has only opaque and transparent pixels."""
    return not row.translate(None, b"\x00\xff")


def split(v: float) -> tuple[int, float]:
    """``v`` as an even whole number and the rest (in [0, 2)): a sprite whose shape is
    drawn at the rest (plus an even margin) and pasted at the whole number, less the
    margin, covers the pixels the shape drawn at ``v`` would. Why even: Pillow truncates
    some coordinates and rounds others half to even, and a shift by an even number
    changes neither; the rest keys the sprite's cache (a position's sub-pixel phase)."""
    whole = 2 * math.floor(v / 2)
    return whole, v - whole


def stamp(
    draw: Callable[[ImageDraw.ImageDraw, float, float], None], fx: float, fy: float, reach: int
) -> tuple[Sprite, int, int]:
    """A sprite of what ``draw`` draws around (``reach`` + ``fx``, ``reach`` + ``fy``) on a
    transparent square (``reach``: even, more than the shape reaches from its point),
    cropped to it; with where its corner goes relative to the point's whole part (from
    :func:`split`): ``(sprite, dx, dy)``."""
    img = Image.new("RGBA", (2 * reach + 2, 2 * reach + 2), (0, 0, 0, 0))
    draw(ImageDraw.Draw(img), reach + fx, reach + fy)
    box = img.getbbox() or (0, 0, 1, 1)
    return cut(img.crop(box)), box[0] - reach, box[1] - reach


def put(c: Canvas, sprite: tuple[Sprite, int, int], x: int, y: int) -> None:
    """Paste a :func:`stamp` sprite for the point whose whole parts are ``x``, ``y``."""
    img, dx, dy = sprite
    c.paste(img, (x + dx, y + dy))
