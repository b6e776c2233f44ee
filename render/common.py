"""Shared drawing helpers: fonts, player colours and seat chips, supersampling and PNG encoding.

Fonts are bundled DejaVu Sans (Pillow's built-in font lacks ő ű ł ś ż ą ę ß ä, and our
players write Hungarian, German and Polish names); a character they lack is never drawn as
an empty box (:mod:`render.glyphs`). PNGs are quantised to 256 colours (see
:func:`encode_png`): faster to encode and ~2–3x smaller than plain RGB PNG, and it looks the same.
"""

from __future__ import annotations

import io
import math
import struct
import threading
import types
import zlib
from collections.abc import Hashable
from functools import cache
from importlib import resources
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageFont

from render.glyphs import characters_of, drawable

_deflate: types.ModuleType  # zlib's interface either way
try:  # zlib-ng's deflate: ~3x faster than zlib at level 1 (see :func:`palette_png`)
    from zlib_ng import zlib_ng as _deflate
except ImportError:  # a platform without a zlib-ng wheel: the same PNG format, slower
    _deflate = zlib

#: Okabe–Ito colour-blind-safe palette, one per seat; always drawn with the seat's initial
#: or number beside it so colour is never the only cue.
PLAYER_COLOURS: list[str] = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00"]
PLAYER_TEXT_ON: list[str] = ["#FFFFFF", "#FFFFFF", "#FFFFFF", "#000000", "#000000"]
BACKGROUND = "#F4EFE6"
INK = "#222222"
MUTED = "#6B6B6B"
#: The highlight (who acts, where the visit is, what the last move changed): yellow with an
#: ink edge, drawn by :func:`highlight_outline`. Why two tones: the yellow alone has 1.25:1
#: luminance contrast on the cream background (tritans barely see it), and ink alone
#: vanishes on a dark tile; ink has ≥ 3:1 against every surface of relative luminance
#: ≥ 0.15, yellow against every one ≤ 0.19, so one of the two always stands out, and they
#: stand 10:1 apart (tests/test_picture_colours.py). A yellow fill behind ink text (a
#: plate, the active seat's strip) needs no edge.
HIGHLIGHT = "#FFD400"
HIGHLIGHT_EDGE = INK


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

    Every text it draws or measures is first made :func:`render.glyphs.drawable` with this
    font's characters: whichever module draws a player's name, a character the font lacks
    never comes out as an empty box, and a text measures as it is drawn.
    """

    LIMIT = 4096

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.characters = characters_of(str(self.path))
        self._masks: dict[Hashable, tuple[Any, tuple[int, int]]] = {}
        self._lengths: dict[Hashable, float] = {}
        self._lock = threading.Lock()  # FreeType faces are not safe across render threads

    def getmask2(
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
            shown = drawable(text, self.characters) if isinstance(text, str) else text
            with self._lock:  # reads ``start`` when called: after the rounding below
                return super(CachedFont, self).getmask2(
                    shown, mode, direction, features, language, stroke_width, anchor, ink,
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

    def getlength(
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
            shown = drawable(text, self.characters) if isinstance(text, str) else text
            with self._lock:
                hit = super().getlength(shown, mode, direction, features, language)
            if len(self._lengths) >= self.LIMIT:
                self._lengths.clear()
            self._lengths[key] = hit
        return hit

    def getbbox(
        self,
        text: str | bytes | bytearray,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
        stroke_width: float = 0,
        anchor: str | None = None,
    ) -> tuple[float, float, float, float]:
        shown = drawable(text, self.characters) if isinstance(text, str) else text
        with self._lock:
            return super().getbbox(shown, mode, direction, features, language, stroke_width, anchor)


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    with resources.as_file(resources.files("render").joinpath("fonts", name)) as path:
        return CachedFont(str(path), size)


def text_size(
    draw: ImageDraw.ImageDraw, text: str, fnt: ImageFont.FreeTypeFont
) -> tuple[float, float]:
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


#: Deflate level of :func:`encode_png`: zlib-ng level 1 takes ~1.1 ms for a 1,400×1,000 board
#: (~105 KB; level 2: ~1.7 ms and ~80 KB; zlib level 2, what Pillow used: ~4 ms, ~87 KB).
PNG_LEVEL = 1

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(data, zlib.crc32(kind))
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def palette_png(pal_image: Image.Image) -> bytes:
    """An 8-bit palette PNG of a ``P`` image: the palette, then every row with filter 0 (none),
    deflated by zlib-ng.

    Why our own writer: deflate was ~4 ms of a picture's ~9 ms encoding with Pillow's writer,
    which always uses the zlib it was built with; zlib-ng (the ``zlib-ng`` package, SIMD
    deflate) does it in ~1.1 ms. ISA-L (``isal``) deflated faster still (~0.7 ms) but made
    the *next* picture's drawing ~2–3 ms slower (Pastiche, measured alternating encoders in
    one process), so it lost overall. The PNG itself is four chunks (IHDR, PLTE, one IDAT,
    IEND); no filter, as Pillow also writes palette images (filters help photographs, not
    indices). Output depends only on the image: same picture, same bytes.
    """
    w, h = pal_image.size
    palette = bytes(pal_image.getpalette() or [0, 0, 0])[: 256 * 3]
    # every row prefixed with its filter byte (0): a crop one column to the left fills it with 0
    rows = pal_image.crop((-1, 0, w, h)).tobytes()
    return b"".join(
        (
            _PNG_SIGNATURE,
            _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)),
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", _deflate.compress(rows, PNG_LEVEL)),
            _chunk(b"IEND", b""),
        )
    )


class FixedPalette:
    """A palette fixed for all pictures of one game (see :mod:`render.palette`), with the
    nearest-colour table Pillow builds on it kept from picture to picture.

    Why: learning a palette per picture (octree on the sample, ~1 ms) and filling Pillow's
    nearest-colour table for that new palette (~1 ms) were half of a picture's encoding.
    A game's pictures use the same few dozen flat colours and their anti-aliased blends, so
    one palette learnt once from many pictures of the game fits them as well as each
    picture's own. The table is a pure function of the palette (each slot holds the
    nearest entry to the slot's colour), so reusing it changes no byte: a picture's PNG
    depends only on its pixels and its game, never on the pictures drawn before.
    """

    def __init__(self, colours: bytes) -> None:
        if not colours or len(colours) % 3 or len(colours) > 256 * 3:
            raise ValueError(f"a palette is 1–256 RGB triples, got {len(colours)} bytes")
        self.colours = colours
        self._image = Image.new("P", (1, 1))
        self._image.putpalette(colours)
        self._lock = threading.Lock()  # Pillow fills the table while mapping: one at a time

    def quantize(self, rgb: Image.Image) -> Image.Image:
        with self._lock:
            return rgb.quantize(palette=self._image, dither=Image.Dither.NONE)


#: A fixed palette fits a picture when at most :data:`FIT_SHARE` of the sample's pixel
#: channels are off by more than :data:`FIT_ERROR` once mapped onto it. Measured over
#: 320 public pictures of the four games: at most 0.65/10,000 of the sample's channels are
#: off by more than 24 with the game's palette (anti-aliased edges), while one 30 px square
#: in a colour the palette lacks makes it 6.3/10,000 or more: the picture learns its own.
FIT_ERROR = 24
FIT_SHARE = 1 / 4000


def _fits(sample: Image.Image, mapped: Image.Image) -> bool:
    hist = ImageChops.difference(sample, mapped.convert("RGB")).histogram()
    off = sum(hist[FIT_ERROR + 1 : 256]) + sum(hist[257 + FIT_ERROR : 512])
    off += sum(hist[513 + FIT_ERROR : 768])
    return off <= sample.width * sample.height * FIT_SHARE


def encode_png(image: Image.Image, palette: FixedPalette | None = None) -> bytes:
    """Quantised PNG, fast: about 3 ms for a 1400×1000 board on this machine (2 cores).

    Why this way (measured on our four boards): quantising the full image with
    FASTOCTREE costs ~20 ms; plain RGB PNG costs 60–90 ms and is 2–3x larger. Our pictures
    are flat colours plus anti-aliased edges, so a palette learnt from every 4th pixel of
    every 4th row (a nearest-neighbour 1/16 sample: ~1 ms with the octree) already holds
    every colour that covers more than a few pixels. It matches a palette learnt from the
    whole image in error, and beats one learnt from a 4x ``reduce`` copy, which blends
    colours (small coloured text came out in a neighbouring hue, e.g. Azul's olive "◀ to
    move" turned red-brown) and cost ~2.5 ms. With the game's ``palette`` (a
    :class:`FixedPalette`) the sample is only checked against it (~0.3 ms) and the octree is
    skipped; a picture it does not fit gets its own palette as above. Mapping the full
    image onto the palette without dithering (~2 ms) keeps edges clean. :func:`palette_png`
    then writes it (~1 ms). Either way the palette comes from this picture or its game,
    never from an earlier picture, so a picture's bytes are a function of its pixels only.
    """
    if image.mode == "P":
        pal_image = image
    else:
        rgb = image if image.mode == "RGB" else image.convert("RGB")
        w, h = rgb.size
        sample = rgb.resize((max(1, w // 4), max(1, h // 4)), Image.Resampling.NEAREST)
        if palette is not None and _fits(sample, palette.quantize(sample)):
            pal_image = palette.quantize(rgb)
        else:
            own = sample.quantize(256, method=Image.Quantize.FASTOCTREE)
            pal_image = rgb.quantize(palette=own, dither=Image.Dither.NONE)
    palette_mode = pal_image.palette.mode if pal_image.palette else None
    if palette_mode != "RGB" or "transparency" in pal_image.info:
        buf = io.BytesIO()  # an RGBA palette or a transparent index: Pillow's writer keeps them
        pal_image.save(buf, format="PNG", compress_level=6)
        return buf.getvalue()
    return palette_png(pal_image)


def player_colour(seat: int) -> str:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def player_text_colour(seat: int) -> str:
    return PLAYER_TEXT_ON[seat % len(PLAYER_TEXT_ON)]


def highlight_outline(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    width: int = 6,
    *,
    radius: float = 0,
    ellipse: bool = False,
) -> None:
    """The highlight ring, ``width`` px inside ``box`` like Pillow's ``outline``: its outer
    edge in ink, the rest yellow (see :data:`HIGHLIGHT`); a rounded rectangle of
    ``radius``, or an ellipse. Draw it where ``outline=HIGHLIGHT`` was: one call."""
    edge = max(2, round(width * 0.4))
    x0, y0, x1, y1 = box
    inner = (x0 + edge, y0 + edge, x1 - edge, y1 - edge)
    if ellipse:
        draw.ellipse(box, outline=HIGHLIGHT_EDGE, width=width)
        draw.ellipse(inner, outline=HIGHLIGHT, width=max(1, width - edge))
    else:
        draw.rounded_rectangle(box, radius=radius, outline=HIGHLIGHT_EDGE, width=width)
        draw.rounded_rectangle(
            inner, radius=max(0, radius - edge), outline=HIGHLIGHT, width=max(1, width - edge)
        )


def ended_view(view: dict[str, Any]) -> dict[str, Any]:
    """The public view of an ended match as the renderers read it, with what the match
    service added to it applied:

    - ``ended`` — ``{"text": "Bob resigned — Carol wins", "winners": [2]}`` — for a match
      that was resigned, forfeited or aborted (or whose result moved a resigned seat
      down): the board itself still says someone is to move, so this clears every "to
      move" mark and puts the words of what happened where the status was;
    - ``ranking`` — ``{"ranks": [3, 2, 1], "winners": [2]}`` — the match's final ranking
      (its stored result) for a finished match: it replaces the ranks and winners of the
      game's own ``outcome``, which ranks a seat given up by its score, so a picture's
      places, crowns and winner marks are the result's (:func:`final_places`).

    A view with neither is returned unchanged.
    """
    end = view.get("ended")
    ranking = view.get("ranking")
    if not end and not ranking:
        return view
    seen = dict(view)
    outcome = dict(view.get("outcome") or {})
    if end:
        seen["to_act"] = []
        seen["status"] = end["text"]
        outcome["winners"] = list(end["winners"])
    if ranking:
        outcome["ranks"] = list(ranking["ranks"])
        outcome["winners"] = list(ranking["winners"])
    seen["outcome"] = outcome
    return seen


def final_places(view: dict[str, Any]) -> dict[int, int]:
    """Seat -> place of a finished match's final ranking (shared places repeat), as the
    match service put it into the view (``ranking``); empty while a match runs, for an
    aborted one, and for a view drawn without the service (a bare game-over view)."""
    ranking = view.get("ranking") or {}
    return {seat: int(place) for seat, place in enumerate(ranking.get("ranks") or [])}


def final_winners(view: dict[str, Any]) -> list[int] | None:
    """The seats the picture marks as winners when the match service said so (its final
    ranking, or the end words of a match ended early: none for an aborted one); None
    when the view alone must tell (a renderer then reads the game's own end)."""
    if view.get("ranking"):
        return [int(s) for s in view["ranking"]["winners"]]
    if view.get("ended"):
        return [int(s) for s in view["ended"]["winners"]]
    return None
