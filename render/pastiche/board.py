"""The painting (Pastiche's board): hexes with their corner dabs and centres, composed once
per size as cached sprites, the open spots with their names, the frame and plate that mark
the newest hex, the whole painting and its close-up, and rows of hexes in hand. Colour is
never the only cue: each primary's dab carries its own mark, and the last move's mark is
black and white."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import INK, MUTED, font, smallest_size
from render.pastiche.common import (
    CANVAS,
    PAD,
    PANEL,
    SPOT_LINE,
    START_FILL,
    WIDTH_RIGHT,
    View,
)
from render.pastiche.paints import LETTER, _dab_mark, _paint
from render.words.catalogue import t

SQ3 = math.sqrt(3)


def _corner(cx: float, cy: float, s: float, k: int) -> tuple[float, float]:
    a = math.radians(30 + 60 * k)
    return cx + s * math.cos(a), cy - s * math.sin(a)


def _hex_poly(cx: float, cy: float, s: float) -> list[tuple[float, float]]:
    return [_corner(cx, cy, s, k) for k in range(6)]


def draw_hex(
    draw: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    s: float,
    corners: str,
    centre: str,
    *,
    start: bool = False,
    outline: str = "#5A5246",
    width: int = 2,
) -> None:
    """One palette hex: six corner dabs, a centre of one or two primaries."""
    draw.polygon(_hex_poly(cx, cy, s), fill=START_FILL if start else CANVAS, outline=outline)
    if width > 1:
        draw.line(_hex_poly(cx, cy, s) + [_corner(cx, cy, s, 0)], fill=outline, width=width)
    rd = s * 0.27
    for k, letter in enumerate(corners):
        px, py = _corner(cx, cy, s * 0.70, k)
        draw.ellipse((px - rd, py - rd, px + rd, py + rd), fill=_paint(LETTER[letter]), outline=INK)
        _dab_mark(draw, px, py, rd, letter)
    if centre:
        _dab(draw, cx, cy, s * 0.26, centre)


def _xy(q: int, r: int) -> tuple[float, float]:
    return SQ3 * (q + r / 2), 1.5 * r


PAINT_BG = "#EFE8DA"
SPOT_FILL = "#F7F3EA"
HEX_RIM = "#5A5246"
#: The last move's mark: black and white, so it is told by shape and contrast (≥ 12:1 on
#: the canvas), never by hue.
MARK_DARK = INK
MARK_LIGHT = "#FFFFFF"


def _quarter(value: float) -> float:
    """Sizes of cached sprites snap to 1/4 px, so a few sizes serve every painting."""
    return round(value * 4) / 4


@dataclass(frozen=True, slots=True)
class Sprite:
    """A sprite cut down to the box of its visible pixels, the same number of pixels off
    opposite sides (``cut_x``, ``cut_y``), so it is placed exactly where the whole one
    was: a hex's transparent border is ~15 % of its square (~30 % of a close-up's pixels
    pasted), and pasting it changed nothing but blended each of its pixels all the same."""

    img: Image.Image
    cut_x: int
    cut_y: int


def _trim(img: Image.Image) -> Sprite:
    """``img`` (``RGBA`` or ``RGBa``) as a premultiplied :class:`Sprite` (cut first: less
    to convert)."""
    box = img.getbbox()  # the box of the pixels that are not transparent
    w, h = img.size
    cut_x, cut_y = (min(box[0], w - box[2]), min(box[1], h - box[3])) if box else (0, 0)
    if cut_x or cut_y:
        img = img.crop((cut_x, cut_y, w - cut_x, h - cut_y))
    return Sprite(img if img.mode == "RGBa" else img.convert("RGBa"), cut_x, cut_y)


def _draw_sprite(corners: str, centre: str, start: bool, s: float) -> Sprite:
    """One painted hex of radius ``s`` (1x), transparent outside, in premultiplied ``RGBa``
    (so neither the paste nor anything after converts it). Composed from cached parts drawn
    at 2x and reduced (smooth edges): the hex body, one dab per primary and the centre, so a
    new hex costs a few small pastes (~0.2 ms) instead of drawing ~20 shapes at 2x (~2 ms
    for a close-up hex). Each part lands on whole pixels, at most half a pixel off."""
    half = math.ceil(s) + 3
    img = _body_sprite(start, s).copy()
    dab_r = _quarter(s * 0.27)
    for k, letter in enumerate(corners):
        px, py = _corner(half, half, s * 0.70, k)
        _compose(img, _part_sprite(letter, dab_r), px, py)
    if centre:
        _compose(img, _part_sprite(centre, _quarter(s * 0.26)), half, half)
    return _trim(img)


def _compose(img: Image.Image, part: Image.Image, cx: float, cy: float) -> None:
    """``part`` over ``img`` (both ``RGBA``), blended by its alpha: a plain masked paste
    (no crop and composite as ``alpha_composite``), exact where the hex body beneath is
    opaque, which is everywhere a part lies but for a dab's outermost pixel."""
    img.paste(part, (round(cx - part.width / 2), round(cy - part.height / 2)), part)


@lru_cache(maxsize=64)
def _body_sprite(start: bool, s: float, k: int = 2) -> Image.Image:
    """A hex without paint: its fill and rim (``RGBA``, to compose the parts on)."""
    half = math.ceil(s) + 3
    img = Image.new("RGBa", (2 * half * k, 2 * half * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    poly = _hex_poly(half * k, half * k, s * k)
    d.polygon(poly, fill=START_FILL if start else CANVAS, outline=HEX_RIM)
    d.line(poly + [poly[0]], fill=HEX_RIM, width=2)
    return img.reduce(k).convert("RGBA")


@lru_cache(maxsize=256)
def _part_sprite(paint: str, r: float, k: int = 2) -> Image.Image:
    """A round dab of radius ``r`` (``paint`` one primary's letter, or two for a split
    centre) with its marks, smooth edged (``RGBA``)."""
    size = 2 * math.ceil(r) + 4
    img = Image.new("RGBa", (size * k, size * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    _dab(d, size * k / 2, size * k / 2, r * k, paint)
    return img.reduce(k).convert("RGBA")


def _dab(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, paint: str) -> None:
    """A round dab of radius ``r`` centred on (cx, cy): one primary (``paint`` one letter)
    with its mark, or a centre split between two, each half with its own mark."""
    box = (cx - r, cy - r, cx + r, cy + r)
    if len(paint) == 1:
        draw.ellipse(box, fill=_paint(LETTER[paint]), outline=INK)
        _dab_mark(draw, cx, cy, r, paint)
        return
    draw.pieslice(box, 90, 270, fill=_paint(LETTER[paint[0]]))
    draw.pieslice(box, 270, 450, fill=_paint(LETTER[paint[1]]))
    draw.ellipse(box, outline=INK)
    _dab_mark(draw, cx - r * 0.45, cy, r * 0.5, paint[0])
    _dab_mark(draw, cx + r * 0.45, cy, r * 0.5, paint[1])


@lru_cache(maxsize=1024)  # ~20 KB each: at most ~20 MB per render worker
def _hex_sprite(
    corners: str, centre: str, start: bool, s: float, bg: str = PAINT_BG, k: int = 2
) -> Sprite:
    """A hex of the painting or of a hand (``bg`` and ``k`` no longer change the pixels:
    they were the transparent colour of an older ``RGBA`` sprite and its drawing scale)."""
    return _draw_sprite(corners, centre, start, s)


@lru_cache(maxsize=96)  # ~170 KB each: the close-up's few hexes, ~16 MB per render worker
def _close_sprite(corners: str, centre: str, start: bool, s: float) -> Sprite:
    """A hex of the close-up: one fixed size, so a new picture draws only the new hex."""
    return _draw_sprite(corners, centre, start, s)


@lru_cache(maxsize=64)
def _spot_sprite(s: float, k: int = 2) -> Sprite:
    half = math.ceil(s) + 3
    img = Image.new("RGBa", (2 * half * k, 2 * half * k), (0, 0, 0, 0))  # see _draw_sprite
    poly = _hex_poly(half * k, half * k, s * k)
    ImageDraw.Draw(img).polygon(poly, fill=SPOT_FILL, outline=SPOT_LINE)
    return _trim(img.reduce(k))


@lru_cache(maxsize=64)
def _mark_sprite(s: float, k: int = 2) -> Image.Image:
    """The frame around the most recent hex: a black band between white ones, drawn by
    shape and contrast, not by hue (black on the cream canvas, white against the dark
    dabs), so it reads in greyscale, for every colour vision, and at phone width."""
    half = math.ceil(s) + 8
    img = Image.new("RGBa", (2 * half * k, 2 * half * k), (0, 0, 0, 0))  # see _draw_sprite
    d = ImageDraw.Draw(img)
    ring = _hex_poly(half * k, half * k, s * k)
    band = max(4.0, s * 0.13) * k
    d.line(ring + [ring[0]], fill=MARK_LIGHT, width=round(band + 4 * k), joint="curve")
    d.line(ring + [ring[0]], fill=MARK_DARK, width=round(band), joint="curve")
    d.line(ring + [ring[0]], fill=MARK_LIGHT, width=max(2, round(band / 3)), joint="curve")
    return img.reduce(k)


def _paste_centred(img: Image.Image, sprite: Image.Image | Sprite, cx: float, cy: float) -> None:
    """Paste ``sprite`` centred on (cx, cy), on whole pixels (its whole box's corner
    rounded: at most half a pixel off)."""
    if isinstance(sprite, Image.Image):
        sprite = Sprite(sprite, 0, 0)
    w, h = sprite.img.width + 2 * sprite.cut_x, sprite.img.height + 2 * sprite.cut_y
    x, y = round(cx - w / 2) + sprite.cut_x, round(cy - h / 2) + sprite.cut_y
    img.paste(sprite.img, (x, y), sprite.img)


def _spot_cells(view: View) -> list[tuple[int, int]]:
    return [(q, r) for q, r in view["spot_cells"]]


@dataclass(frozen=True, slots=True)
class Label:
    """A text drawn over the painting after it is pasted (at 1x, so it stays crisp): an
    open spot's name, or, on a dark ``plate``, the mark of the most recent hex."""

    x: float
    y: float
    text: str
    size: int
    plate: bool = False


@dataclass(frozen=True, slots=True)
class Painted:
    """A drawn piece of the painting: the image, its labels, and where the painting's unit
    coordinates land on it (pixel = origin + unit × ``s``)."""

    img: Image.Image
    labels: list[Label]
    s: float
    ox: float
    oy: float


def _region(
    view: View,
    w: int,
    h: int,
    s: float,
    ox: float,
    oy: float,
    label: int,
    mark: int,
    sprite: Any,
    lang: str,
) -> Painted:
    """The hexes and open spots whose centres fall inside a ``w`` × ``h`` window (or close
    enough to show in part), hexes of radius ``s`` from ``sprite``; the most recent hex
    framed (:func:`_mark_sprite`) with a ``mark``-px "new" plate over its centre (a placed
    hex's centre no longer matters to anyone)."""
    img = Image.new("RGB", (w, h), PAINT_BG)
    labels: list[Label] = []

    def inside(x: float, y: float) -> bool:
        return -s <= x <= w + s and -s <= y <= h + s

    spots = [] if view["over"] else _spot_cells(view)
    spot = _spot_sprite(_quarter(s * 0.96))
    for (q, r), name in zip(spots, view["spots"], strict=False):
        x, y = _xy(q, r)
        cx, cy = ox + x * s, oy + y * s
        if inside(cx, cy):
            _paste_centred(img, spot, cx, cy)
            half = font(label, True).getlength(name) / 2 + 2
            if half <= cx <= w - half and label <= cy <= h - label:  # whole, or not at all
                labels.append(Label(cx, cy, name, label))
    hex_s = _quarter(s * 0.985)
    last = view.get("last")
    for b in view["board"]:
        x, y = _xy(b["q"], b["r"])
        cx, cy = ox + x * s, oy + y * s
        if inside(cx, cy):
            _paste_centred(img, sprite(b["corners"], b["centre"], b["start"], hex_s), cx, cy)
    for b in view["board"]:
        if b["name"] == last:
            x, y = _xy(b["q"], b["r"])
            cx, cy = ox + x * s, oy + y * s
            _paste_centred(img, _mark_sprite(_quarter(s)), cx, cy)
            labels.append(Label(cx, cy, t("pic.pastiche.new", lang), mark, plate=True))
    return Painted(img, labels, s, ox, oy)


def _painting(view: View, max_w: int, max_h: int, lang: str = "en") -> Painted:
    """The whole painting, scaled to fit ``max_w`` × ``max_h`` however far it spreads.

    Every hex is a cached sprite (drawn at 2x and reduced once, then pasted): a painting is
    ~40 pastes instead of ~600 shapes on a 2x canvas and a full-size reduce (measured: 6 ms
    down to ~1 ms). Sprites land on whole pixels, at most half a pixel from the exact spot.
    """
    cells = [(b["q"], b["r"]) for b in view["board"]]
    spots = [] if view["over"] else _spot_cells(view)
    pts = [_xy(q, r) for q, r in cells + spots]
    minx = min(p[0] for p in pts) - SQ3 / 2
    maxx = max(p[0] for p in pts) + SQ3 / 2
    miny = min(p[1] for p in pts) - 1
    maxy = max(p[1] for p in pts) + 1
    bw, bh = maxx - minx, maxy - miny
    s = min(64.0, (max_w - 2 * PAD) / bw, (max_h - 2 * PAD) / bh)
    if s < 24:  # a far-flung painting: a taller area, then a wider one, then smaller hexes
        max_h += 380
        s = min(24.0, (max_w - 2 * PAD) / bw, (max_h - 2 * PAD) / bh)
        if s < 20:
            max_w += 200
            s = max(9.0, min(24.0, (max_w - 2 * PAD) / bw, (max_h - 2 * PAD) / bh))
    # whole pixels: one sprite size per hex size, shared by every painting that has it
    # (a painting is at most one pixel of hex radius smaller than the largest that fits)
    s = float(math.floor(s))
    w = int(max(max_w, bw * s + 2 * PAD))
    # the spots' names: never under the legible floor of the whole picture's width
    label = max(18 if s >= 34 else 16 if s >= 24 else int(s * 0.7), smallest_size(w + WIDTH_RIGHT))
    h = int(max(360, bh * s + 2 * PAD))
    ox = (w - bw * s) / 2 - minx * s
    oy = (h - bh * s) / 2 - miny * s
    return _region(view, w, h, s, ox, oy, label, 16, _hex_sprite, lang)


#: The close-up's hex radius: its dabs stay ~7 px and its marks visible on a phone that
#: shows the public picture 400 px wide.
CLOSE_S = 100.0


def _focus(view: View, half_w: float, half_h: float) -> tuple[float, float]:
    """Where the close-up looks (unit coordinates): the most recent hex (else the middle of
    the starting piece), moved towards the painting's middle as far as it takes to keep
    the window on the painting and its open spots rather than on the empty table around."""
    cells = [b for b in view["board"] if b["name"] == view.get("last")]
    cells = cells or [b for b in view["board"] if b["start"]] or view["board"]
    pts = [_xy(b["q"], b["r"]) for b in cells]
    fx, fy = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
    every = [_xy(b["q"], b["r"]) for b in view["board"]]
    every += [_xy(q, r) for q, r in ([] if view["over"] else _spot_cells(view))]
    # half a hex of table beyond the outermost hexes: room for the mark's frame
    lo_x, hi_x = min(p[0] for p in every) - SQ3, max(p[0] for p in every) + SQ3
    lo_y, hi_y = min(p[1] for p in every) - 1.5, max(p[1] for p in every) + 1.5
    return _clamp(fx, lo_x, hi_x, half_w), _clamp(fy, lo_y, hi_y, half_h)


def _clamp(focus: float, lo: float, hi: float, half: float) -> float:
    """A window's middle near ``focus`` that keeps the window inside [lo, hi] (or centred
    on it when it is the wider)."""
    if hi - lo <= 2 * half:
        return (lo + hi) / 2
    return min(max(focus, lo + half), hi - half)


def _close_up(view: View, w: int, h: int, size: int, lang: str = "en") -> Painted:
    """The painting's latest area at a size a phone can read: the most recent hex with its
    neighbours and the open spots around it, in a ``w`` × ``h`` window; its words ``size``
    px tall."""
    s = CLOSE_S
    fx, fy = _focus(view, w / 2 / s, h / 2 / s)
    ox, oy = w / 2 - fx * s, h / 2 - fy * s
    return _region(view, w, h, s, ox, oy, size, size, _close_sprite, lang)


def _draw_texts(draw: ImageDraw.ImageDraw, ox: int, oy: int, labels: list[Label]) -> None:
    """The labels, each centred on the whole pixel nearest its spot's centre: where the
    spot's and the mark's sprites are centred too, and one position per name, so the
    font's cached mask serves every painting (at the exact fractional centre, most of a
    painting's ~35 labels were new masks each time, ~2 ms)."""
    for lb in labels:
        f = font(lb.size, True)
        w = f.getlength(lb.text)
        x, y = ox + round(lb.x), oy + round(lb.y)
        if lb.plate:  # the mark: white on a black plate, over the hex's centre
            pad = max(4, lb.size // 4)
            draw.rounded_rectangle(
                (x - w / 2 - pad, y - lb.size / 2 - pad, x + w / 2 + pad, y + lb.size / 2 + pad),
                radius=pad + 2,
                fill=MARK_DARK,
                outline=MARK_LIGHT,
                width=2,
            )
        fill = MARK_LIGHT if lb.plate else MUTED
        draw.text((x, y), lb.text, font=f, fill=fill, anchor="mm")


def _hex_row(
    img: Image.Image,
    x: int,
    y: int,
    hexes: list[dict[str, Any] | None],
    s: float = 22,
    bg: str = PANEL,
) -> None:
    size = int(2 * s + 4)
    for i, hx in enumerate(hexes):
        if hx is None:
            continue
        sprite = _hex_sprite(hx["corners"], hx["centre"], False, s, bg)  # cached
        _paste_centred(img, sprite, x + i * (size + 6) + size / 2, y + size / 2)
