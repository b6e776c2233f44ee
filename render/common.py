"""Shared drawing helpers: fonts, player colours, supersampling and PNG encoding.

Fonts are bundled DejaVu Sans (Pillow's built-in font lacks ő ű ł ś ż ą ę ß ä, and our
players write Hungarian, German and Polish names). PNGs are quantised to 256 colours (see
:func:`encode_png`): faster to encode and ~2–3x smaller than plain RGB PNG, and it looks the same.
"""

from __future__ import annotations

import io
import math
import threading
from collections.abc import Hashable
from functools import cache
from importlib import resources
from typing import Any

from PIL import Image, ImageDraw, ImageFont

#: Okabe–Ito colour-blind-safe palette, one per seat; always drawn with the seat's initial
#: or number beside it so colour is never the only cue.
PLAYER_COLOURS: list[str] = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00"]
PLAYER_TEXT_ON: list[str] = ["#FFFFFF", "#FFFFFF", "#FFFFFF", "#000000", "#000000"]
BACKGROUND = "#F4EFE6"
INK = "#222222"
MUTED = "#6B6B6B"
HIGHLIGHT = "#FFD400"


class CachedFont(ImageFont.FreeTypeFont):
    """A FreeType font that remembers the glyph masks and widths it has rendered.

    Why: a board picture draws 60–130 labels, mostly the same ones every turn (names,
    coordinates, colour names, counts), and FreeType rasterising was the largest single cost
    of a picture (~80 µs a label plus ~25 µs a ``getlength``). ``ImageDraw.text`` asks the
    font for a mask with :meth:`getmask2`, so caching there speeds up every renderer without
    touching its drawing code; the pixels are the same, except that a label's sub-pixel start
    is rounded to 1/8 px (so labels centred at fractional x reuse masks). Masks are small (a label
    is a few KB); each font keeps at most :attr:`LIMIT` of them and forgets them all when
    full (cheap, and the working set of one game is far below the limit).
    """

    LIMIT = 4096

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._masks: dict[Hashable, tuple[Any, tuple[int, int]]] = {}
        self._lengths: dict[Hashable, float] = {}
        self._lock = threading.Lock()  # FreeType faces are not safe across render threads

    def getmask2(  # type: ignore[override]
        self,
        text: str | bytes,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
        stroke_width: float = 0,
        anchor: str | None = None,
        ink: int = 0,
        start: tuple[float, float] | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> tuple[Any, tuple[int, int]]:
        def rasterise() -> tuple[Any, tuple[int, int]]:
            with self._lock:  # reads ``start`` when called: after the rounding below
                return super(CachedFont, self).getmask2(
                    text, mode, direction, features, language, stroke_width, anchor, ink,
                    start, *args, **kwargs,
                )  # fmt: skip

        if args or mode == "RGBA":  # colour glyphs depend on the ink: not cached
            return rasterise()
        if start:  # sub-pixel placement to 1/8 px: labels at fractional x reuse masks
            start = (round(start[0] * 8) / 8, round(start[1] * 8) / 8)
        key = (
            text,
            mode,
            direction,
            tuple(features) if features else None,
            language,
            stroke_width,
            anchor,
            start,
            tuple(sorted(kwargs.items())),
        )
        hit = self._masks.get(key)
        if hit is None:
            hit = rasterise()
            if len(self._masks) >= self.LIMIT:
                self._masks.clear()
            self._masks[key] = hit
        return hit

    def getlength(  # type: ignore[override]
        self,
        text: str | bytes,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
    ) -> float:
        key = (text, mode, direction, tuple(features) if features else None, language)
        hit = self._lengths.get(key)
        if hit is None:
            with self._lock:
                hit = super().getlength(text, mode, direction, features, language)
            if len(self._lengths) >= self.LIMIT:
                self._lengths.clear()
            self._lengths[key] = hit
        return hit


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    with resources.as_file(resources.files("render").joinpath("fonts", name)) as path:
        return CachedFont(str(path), size)


def text_size(draw: ImageDraw.ImageDraw, text: str, fnt: ImageFont.FreeTypeFont) -> tuple[int, int]:
    left, top, right, bottom = draw.textbbox((0, 0), text, font=fnt)
    return right - left, bottom - top


def fit_text(text: str, fnt: ImageFont.FreeTypeFont, max_width: int) -> str:
    """Shorten ``text`` with an ellipsis until it fits ``max_width`` pixels."""
    if fnt.getlength(text) <= max_width:
        return text
    while text and fnt.getlength(text + "…") > max_width:
        text = text[:-1]
    return text + "…"


#: Every text of a picture is at least this many px tall when the picture is shown
#: :data:`TAPPED_WIDTH` px wide (Discord never enlarges a narrower picture): README "Pictures".
LEGIBLE_PX = 11
TAPPED_WIDTH = 1080


def smallest_size(canvas_width: int) -> int:
    """The smallest font size still legible on a picture ``canvas_width`` px wide."""
    return math.ceil(LEGIBLE_PX * max(canvas_width, TAPPED_WIDTH) / TAPPED_WIDTH)


def shrink_to_fit(
    text: str, size: int, max_width: float, *, smallest: int, bold: bool = False
) -> ImageFont.FreeTypeFont:
    """The largest font from ``size`` down to ``smallest`` in which ``text`` fits
    ``max_width`` (``smallest`` when none does). Why: a translation is often longer than
    the English the layout was made for (German compounds); a little smaller beats cut
    off, and the floor keeps it legible."""
    for s in range(size, smallest - 1, -1):
        fnt = font(s, bold)
        if fnt.getlength(text) <= max_width:
            return fnt
    return font(max(1, smallest), bold)


def fit_lines(
    text: str,
    size: int,
    max_width: float,
    *,
    smallest: int,
    bold: bool = False,
    max_lines: int = 2,
) -> tuple[list[str], ImageFont.FreeTypeFont]:
    """``text`` on one line, shrunk if need be (:func:`shrink_to_fit`); when even the
    smallest legible size is too wide, broken at spaces into at most ``max_lines`` lines of
    that size (only what still does not fit is cut, with "…")."""
    fnt = shrink_to_fit(text, size, max_width, smallest=smallest, bold=bold)
    if fnt.getlength(text) <= max_width:
        return [text], fnt
    lines = wrap_text(text, fnt, int(max_width))
    if len(lines) > max_lines:
        rest = " ".join(lines[max_lines - 1 :])
        lines = [*lines[: max_lines - 1], fit_text(rest, fnt, int(max_width))]
    return lines, fnt


def wrap_text(text: str, fnt: ImageFont.FreeTypeFont, max_width: int) -> list[str]:
    """``text`` broken at spaces into lines of at most ``max_width`` pixels (a single word
    longer than that is shortened with an ellipsis): for lines that must never be cut off."""
    lines: list[str] = []
    line = ""
    for part in text.split():
        candidate = f"{line} {part}" if line else part
        if not line or fnt.getlength(candidate) <= max_width:
            line = candidate
        else:
            lines.append(fit_text(line, fnt, max_width))
            line = part
    if line:
        lines.append(fit_text(line, fnt, max_width))
    return lines


#: zlib level of :func:`encode_png`: level 1 is ~15% faster than 3 and ~12% larger; both
#: are far below Discord's limits and our 400 KB budget.
PNG_LEVEL = 2


def encode_png(image: Image.Image) -> bytes:
    """Quantised PNG, fast: about 8 ms for a 1400×1000 board on this machine (2 cores).

    Why this way (measured on our four boards): quantising the full image with
    FASTOCTREE costs ~20 ms; plain RGB PNG costs 60–90 ms and is 2–3x larger. Our pictures
    are flat colours plus anti-aliased edges, so a palette learnt from every 4th pixel of
    every 4th row (a nearest-neighbour 1/16 sample: ~1 ms with the octree) already holds
    every colour that covers more than a few pixels. It matches a palette learnt from the
    whole image in error, and beats one learnt from a 4x ``reduce`` copy, which blends
    colours (small coloured text came out in a neighbouring hue, e.g. Azul's olive "◀ to
    move" turned red-brown) and cost ~2.5 ms. Mapping the full image onto the palette
    without dithering (~3 ms) keeps edges clean. Pillow's PNG writer then takes ~6 ms at
    zlib level 2 (level 3: +0.5 ms for 5% smaller files); a hand-written palette-PNG writer
    was tried and measured no faster on our boards, so the library does it.
    """
    if image.mode == "P":
        pal_image = image
    else:
        rgb = image if image.mode == "RGB" else image.convert("RGB")
        w, h = rgb.size
        sample = rgb.resize((max(1, w // 4), max(1, h // 4)), Image.Resampling.NEAREST)
        palette = sample.quantize(256, method=Image.Quantize.FASTOCTREE)
        pal_image = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    pal_image.save(buf, format="PNG", compress_level=PNG_LEVEL)
    return buf.getvalue()


def player_colour(seat: int) -> str:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def player_text_colour(seat: int) -> str:
    return PLAYER_TEXT_ON[seat % len(PLAYER_TEXT_ON)]


def ended_view(view: dict[str, Any]) -> dict[str, Any]:
    """The view of a match that ended by the players' or a manager's decision, for the
    renderers that read whose turn it is from ``to_act`` and the words from ``status``.

    The match service adds ``ended`` — ``{"text": "Bob resigned — Carol wins",
    "winners": [2]}`` — to the public view of a match that was resigned, forfeited or
    aborted (or whose result moved a resigned seat down): the board itself still says
    someone is to move, so this clears every "to move" mark and puts the words of what
    happened where the status was. A view without ``ended`` is returned unchanged.
    """
    end = view.get("ended")
    if not end:
        return view
    outcome = {**(view.get("outcome") or {}), "winners": list(end["winners"])}
    return {**view, "to_act": [], "status": end["text"], "outcome": outcome}
