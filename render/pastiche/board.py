"""The painting (Pastiche's board): hexes with their corner dabs and centres, drawn once
per size as cached sprites, the open spots with their names, the ring around the newest hex,
and rows of hexes in hand. Colour is never the only cue: each primary's dab carries its own
mark."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    HIGHLIGHT,
    INK,
    MUTED,
    font,
)
from render.pastiche.common import CANVAS, PAD, PANEL, SPOT_LINE, START_FILL, View
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
        rc = s * 0.26
        box = (cx - rc, cy - rc, cx + rc, cy + rc)
        if len(centre) == 1:
            draw.ellipse(box, fill=_paint(LETTER[centre]), outline=INK)
            _dab_mark(draw, cx, cy, rc, centre)
        else:
            draw.pieslice(box, 90, 270, fill=_paint(LETTER[centre[0]]))
            draw.pieslice(box, 270, 450, fill=_paint(LETTER[centre[1]]))
            draw.ellipse(box, outline=INK)
            _dab_mark(draw, cx - rc * 0.45, cy, rc * 0.5, centre[0])
            _dab_mark(draw, cx + rc * 0.45, cy, rc * 0.5, centre[1])


def _xy(q: int, r: int) -> tuple[float, float]:
    return SQ3 * (q + r / 2), 1.5 * r


PAINT_BG = "#EFE8DA"
SPOT_FILL = "#F7F3EA"


def _quarter(value: float) -> float:
    """Sizes of cached sprites snap to 1/4 px, so a few sizes serve every painting."""
    return round(value * 4) / 4


@lru_cache(maxsize=1024)  # ~20 KB each: at most ~20 MB per render worker
def _hex_sprite(
    corners: str, centre: str, start: bool, s: float, bg: str = PAINT_BG, k: int = 2
) -> Image.Image:
    """One painted hex of radius ``s`` (1x), drawn at ``k``x and reduced: smooth edges.
    Transparent outside. Drawn in premultiplied ``RGBa``, so the anti-aliased rim blends as
    when it was drawn in place (within one level of 255) and neither the reduce nor the
    paste converts it: half the cost of an ``RGBA`` sprite. ``bg`` no longer changes the
    pixels (it was the transparent colour of the ``RGBA`` sprite)."""
    half = math.ceil(s) + 3
    img = Image.new("RGBa", (2 * half * k, 2 * half * k), (0, 0, 0, 0))
    draw_hex(ImageDraw.Draw(img), half * k, half * k, s * k, corners, centre, start=start)
    return img.reduce(k)


@lru_cache(maxsize=64)
def _spot_sprite(s: float, k: int = 2) -> Image.Image:
    half = math.ceil(s) + 3
    img = Image.new("RGBa", (2 * half * k, 2 * half * k), (0, 0, 0, 0))  # see _hex_sprite
    poly = _hex_poly(half * k, half * k, s * k)
    ImageDraw.Draw(img).polygon(poly, fill=SPOT_FILL, outline=SPOT_LINE)
    return img.reduce(k)


@lru_cache(maxsize=64)
def _ring_sprite(s: float, k: int = 2) -> Image.Image:
    """The ring around the most recent hex: black under yellow."""
    half = math.ceil(s) + 6
    img = Image.new("RGBa", (2 * half * k, 2 * half * k), (0, 0, 0, 0))  # see _hex_sprite
    d = ImageDraw.Draw(img)
    ring = _hex_poly(half * k, half * k, s * k)
    d.line(ring + [ring[0]], fill=INK, width=12, joint="curve")
    d.line(ring + [ring[0]], fill=HIGHLIGHT, width=7, joint="curve")
    return img.reduce(k)


def _paste_centred(img: Image.Image, sprite: Image.Image, cx: float, cy: float) -> None:
    w, h = sprite.size
    img.paste(sprite, (round(cx - w / 2), round(cy - h / 2)), sprite)


def _spot_cells(view: View) -> list[tuple[int, int]]:
    return [(q, r) for q, r in view["spot_cells"]]


def _painting(
    view: View, max_w: int, max_h: int, lang: str = "en"
) -> tuple[Image.Image, list[tuple]]:
    """The painting, plus text jobs (x, y, text, size, fill) to draw after.

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
    if s < 24:  # a far-flung painting: use a wider, taller area, then smaller hexes
        max_w, max_h = max_w + 200, max_h + 480
        s = max(9.0, min(24.0, (max_w - 2 * PAD) / bw, (max_h - 2 * PAD) / bh))
    # whole pixels: one sprite size per hex size, shared by every painting that has it
    # (a painting is at most one pixel of hex radius smaller than the largest that fits)
    s = float(math.floor(s))
    label = 18 if s >= 34 else 16 if s >= 24 else max(11, int(s * 0.7))
    w = int(max(max_w, bw * s + 2 * PAD))
    h = int(max(420, bh * s + 2 * PAD))
    ox = (w - bw * s) / 2 - minx * s
    oy = (h - bh * s) / 2 - miny * s
    img = Image.new("RGB", (w, h), PAINT_BG)
    texts: list[tuple] = []
    spot = _spot_sprite(_quarter(s * 0.96))
    for (q, r), name in zip(spots, view["spots"], strict=False):
        x, y = _xy(q, r)
        cx, cy = ox + x * s, oy + y * s
        _paste_centred(img, spot, cx, cy)
        texts.append((cx, cy, name, label, MUTED))
    last = view.get("last")
    hex_s = _quarter(s * 0.985)
    for b in view["board"]:
        x, y = _xy(b["q"], b["r"])
        sprite = _hex_sprite(b["corners"], b["centre"], b["start"], hex_s)
        _paste_centred(img, sprite, ox + x * s, oy + y * s)
    for b in view["board"]:
        if b["name"] == last:
            x, y = _xy(b["q"], b["r"])
            cx, cy = ox + x * s, oy + y * s
            _paste_centred(img, _ring_sprite(_quarter(s)), cx, cy)
            texts.append((cx, cy + s * 0.55, t("pic.pastiche.new", lang), 16, INK))
    return img, texts


def _draw_texts(draw: ImageDraw.ImageDraw, ox: int, oy: int, texts: list[tuple]) -> None:
    for x, y, text, size, fill in texts:
        f = font(size, True)
        w = f.getlength(text)
        if fill == INK:  # a plate so the label stays readable over the dabs
            draw.rounded_rectangle(
                (
                    ox + x - w / 2 - 4,
                    oy + y - size / 2 - 3,
                    ox + x + w / 2 + 4,
                    oy + y + size / 2 + 4,
                ),
                radius=4,
                fill=HIGHLIGHT,
            )
        draw.text((ox + x - w / 2, oy + y - size / 2 - 1), text, font=f, fill=fill)


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
