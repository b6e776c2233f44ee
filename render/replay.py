"""An animated replay of a match: its frames (title, one board per turn, final standings)
and their encoding as an animated WebP, or a GIF, under an upload limit.

This module only draws and encodes: the boards come from the games' renderers, drawn from
*public* views by the caller (``bot/matches/replay.py``), so a frame can never hold more than a
spectator sees. It adds two cards of its own — the title (game, match, players in their
colours, dates) and the standings — drawn straight at the frame size.

Why WebP first: the frames of a match differ from one turn to the next in a few places,
and libwebp's animation encoder stores only the changed rectangle of each frame, lossy
(quality ~80 keeps our flat colours and labels readable). Measured on Pastiche boards at
960 px: ~50 KB a frame lossy, ~200 KB lossless, ~150 KB as GIF (256 colours per frame).
GIF is the fallback when this Pillow cannot write animated WebP, or when even the
smallest WebP step is too large and a GIF step is not (a rare case: GIF is larger).

Why a ladder of (width, quality) steps rather than one guess: the size of an encoded
animation is only known after encoding; each step is cheaper than the one before, and
:func:`encode` stops at the first that fits, so a normal match costs one encoding.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache

from PIL import Image, ImageDraw

from render.common import BACKGROUND, fit_lines, fit_text, font, wrap_text
from render.header import BAND_FILL, BAND_INK, BAND_MUTED
from render.seats import SeatLabel, chip_width, draw_seat_chip, is_computer, seat_letters
from render.words.catalogue import t, tn

#: A frame's width before any reduction (px): a phone shows a tapped picture ~1,080 px wide.
FRAME_WIDTH = 960
#: How long each frame stays (ms): the title and the standings are read, a turn is glanced.
TITLE_MS = 3000
TURN_MS = 1000
FINAL_MS = 6000
#: Discord's upload limit for a file sent by a bot without boosts: 10 MiB per file
#: (discord-api-docs ``developers/reference.mdx``, "Uploading Files").
UPLOAD_LIMIT = 10 * 1024 * 1024

#: (width, quality) tried in order for WebP until the file fits.
WEBP_STEPS: tuple[tuple[int, int], ...] = (
    (960, 80),
    (960, 60),
    (800, 55),
    (720, 45),
    (640, 40),
    (560, 30),
)
#: (width, colours) tried in order for GIF.
GIF_STEPS: tuple[tuple[int, int], ...] = ((960, 256), (800, 128), (720, 64), (560, 32))


#: The title and standings cards are dark, like the pictures' header band. Not only for
#: looks: libwebp's lossy animation encoder leaves pixels that changed by less than a
#: threshold to the frame before, and a light card after a board kept faint ghosts of the
#: board's light parts (seen on the standings card); every pixel of a dark card changes.
CARD_FILL = BAND_FILL


class TooLarge(Exception):
    """Even the smallest step of the ladder did not fit the limit."""


@dataclass(frozen=True, slots=True)
class Seat:
    name: str
    seat: int


@dataclass(frozen=True, slots=True)
class TitleCard:
    """What the first frame says; every string already in the reader's language."""

    game: str
    match: int
    players: list[Seat]
    started: str
    turns: int
    ended: str | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    seat: int
    name: str
    score: str


@dataclass(frozen=True, slots=True)
class FinalCard:
    """The last frame: the standings of a finished match, or the words of how it ended or
    that it is still being played (then without scores: a running match's scores may
    count hidden cards)."""

    heading: str
    lines: list[str] = field(default_factory=list)
    standings: list[Standing] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Encoded:
    data: bytes
    format: str  # "webp" or "gif"
    width: int
    height: int
    #: WebP quality, or GIF colours
    quality: int
    frames: int
    attempts: int


# ----- frames ---------------------------------------------------------------------------------
def fit(image: Image.Image, width: int, height: int | None = None) -> Image.Image:
    """``image`` scaled to ``width`` (aspect kept), on a background canvas ``height`` tall
    (the board at the top) so that every frame of an animation has one size."""
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    scaled_h = max(1, round(rgb.height * width / rgb.width))
    if rgb.size != (width, scaled_h):
        # BILINEAR scales its support with the reduction, so it anti-aliases like a box
        # filter; LANCZOS looked the same on our boards at three times the cost.
        rgb = rgb.resize((width, scaled_h), Image.Resampling.BILINEAR)
    if height is None or height == scaled_h:
        return rgb
    canvas = Image.new("RGB", (width, height), BACKGROUND)
    canvas.paste(rgb.crop((0, 0, width, min(height, scaled_h))), (0, 0))
    return canvas


def scaled_height(image: Image.Image, width: int) -> int:
    return max(1, round(image.height * width / image.width))


def _chip(draw: ImageDraw.ImageDraw, x: int, y: int, size: int, seat: int, label: str) -> float:
    """The seat's chip ``size`` px tall from (``x``, ``y``), as the pictures' header band
    draws it (:func:`render.seats.draw_seat_chip`: its unique letters, or its place, and a
    robot's head for a computer); returns the x after it."""
    return draw_seat_chip(
        draw, x, y + size / 2, seat, label, round(size * 0.6), edge=BAND_MUTED, height=size
    )


def _labels(players: Sequence[Seat]) -> dict[int, str]:
    """Each seat's chip letters, unique in the match (render.seats.seat_letters)."""
    names = {p.seat: p.name for p in players}
    seats = max(names, default=-1) + 1
    letters = seat_letters([names.get(s, "") for s in range(seats)])
    return {s: letters[s] for s in names}


def title_frame(card: TitleCard, size: tuple[int, int], lang: str = "en") -> Image.Image:
    """Game, match number, the players with their colour chips, dates and turn count."""
    width, height = size
    image = Image.new("RGB", size, CARD_FILL)
    draw = ImageDraw.Draw(image)
    unit = width / 960
    margin = round(48 * unit)
    inner = width - 2 * margin
    y = round(56 * unit)
    big = font(round(56 * unit), bold=True)
    draw.text((margin, y), fit_text(card.game, big, inner), font=big, fill=BAND_INK)
    y += round(76 * unit)
    sub = font(round(28 * unit))
    head = t("pic.replay.match", lang, match=card.match)
    draw.text((margin, y), fit_text(head, sub, inner), font=sub, fill=BAND_MUTED)
    y += round(64 * unit)
    chip = round(44 * unit)
    name_font = font(round(30 * unit), bold=True)
    rows = min(len(card.players), max(1, (height - y - round(150 * unit)) // (chip + 16)))
    labels = _labels(card.players)
    widths = [chip_width(labels[p.seat], round(chip * 0.6), chip) for p in card.players]
    left = margin + max(widths, default=chip) + round(20 * unit)
    for player in card.players[:rows]:
        _chip(draw, margin, y, chip, player.seat, labels[player.seat])
        name = fit_text(player.name, name_font, int(width - margin - left))
        draw.text((left, y + chip / 2), name, font=name_font, fill=BAND_INK, anchor="lm")
        y += chip + round(16 * unit)
    y += round(24 * unit)
    small = font(round(24 * unit))
    facts = [t("pic.replay.started", lang, date=card.started)]
    if card.ended:
        facts.append(card.ended)
    facts.append(tn("pic.replay.turns", card.turns, lang))
    for fact in facts:
        if y + round(30 * unit) > height:
            break
        draw.text((margin, y), fit_text(fact, small, inner), font=small, fill=BAND_MUTED)
        y += round(36 * unit)
    return image


def final_frame(card: FinalCard, size: tuple[int, int], lang: str = "en") -> Image.Image:
    """The standings in finishing order (chip, rank, name, score), or the closing words."""
    width, height = size
    image = Image.new("RGB", size, CARD_FILL)
    draw = ImageDraw.Draw(image)
    unit = width / 960
    margin = round(48 * unit)
    inner = width - 2 * margin
    y = round(56 * unit)
    big = font(round(48 * unit), bold=True)
    draw.text((margin, y), fit_text(card.heading, big, inner), font=big, fill=BAND_INK)
    y += round(84 * unit)
    chip = round(48 * unit)
    row_font = font(round(32 * unit), bold=True)
    places = [SeatLabel(str(row.rank), is_computer(row.name)) for row in card.standings]
    left = margin + max((chip_width(p, round(chip * 0.6), chip) for p in places), default=chip)
    left += round(20 * unit)
    for row, place in zip(card.standings, places, strict=True):
        if y + chip > height:
            break
        _chip(draw, margin, y, chip, row.seat, place)
        score_w = round(row_font.getlength(row.score))
        room = width - margin - left - score_w - round(28 * unit)
        lines, name_font = fit_lines(
            row.name, round(32 * unit), room, smallest=round(24 * unit), bold=True
        )
        tall = round(name_font.size * 1.15)
        for i, line in enumerate(lines):
            mid = y + chip / 2 + (i - (len(lines) - 1) / 2) * tall
            draw.text((left, mid), line, font=name_font, fill=BAND_INK, anchor="lm")
        right = (width - margin, y + chip / 2)
        draw.text(right, row.score, font=row_font, fill=BAND_INK, anchor="rm")
        y += chip + round(20 * unit)
    y += round(16 * unit)
    small = font(round(26 * unit))
    step = round(36 * unit)
    said = [part for line in card.lines for part in wrap_text(line, small, inner)]
    room = max(0, (height - y - round(12 * unit)) // step)  # whole rows, never cut
    if len(said) > room:  # only a card too short for every row ends in "…"
        said = [*said[: room - 1], fit_text(" ".join(said[room - 1 :]), small, inner)][:room]
    for part in said:
        draw.text((margin, y), part, font=small, fill=BAND_MUTED)
        y += step
    return image


def shared_palette(samples: Sequence[Image.Image], colours: int = 256) -> Image.Image:
    """One palette for a whole animation, learnt from a few of its frames (every 4th pixel
    of every 4th row, as :func:`render.common.encode_png` does for one picture).

    Why one for all: with a palette per frame, the same anti-aliased edge maps to slightly
    different colours from one frame to the next, the encoders see change everywhere and a
    Pastiche replay grew by half (measured: 10.7 MB against 7.6 MB with one palette at
    WebP quality 80, the same mean error against the full-colour frames). Frames held in
    256 colours also take a third of the memory of RGB while the encoder waits for all."""
    rgb = [s if s.mode == "RGB" else s.convert("RGB") for s in samples]
    w = max(1, max(s.width for s in rgb) // 4)
    parts = [s.resize((w, max(1, s.height // 4)), Image.Resampling.NEAREST) for s in rgb]
    strip = Image.new("RGB", (w, sum(p.height for p in parts)))
    y = 0
    for part in parts:
        strip.paste(part, (0, y))
        y += part.height
    return strip.quantize(colours, method=Image.Quantize.FASTOCTREE)


def paletted(image: Image.Image, palette: Image.Image, height: int | None = None) -> Image.Image:
    """``image`` in ``palette``'s colours without dithering (clean edges), on a canvas
    ``height`` tall filled with the background colour when it is shorter."""
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    if height is not None and rgb.height != height:
        rgb = fit(rgb, rgb.width, height)
    return rgb.quantize(palette=palette, dither=Image.Dither.NONE)


def durations(turns: int) -> list[int]:
    return [TITLE_MS, *([TURN_MS] * turns), FINAL_MS]


# ----- encoding -------------------------------------------------------------------------------
@cache
def can_write_animated_webp() -> bool:
    """Whether this Pillow was built with libwebp's animation encoder (checked by writing a
    two-frame file: Pillow has no feature flag for it in every version)."""
    frames = [Image.new("RGB", (4, 4), c) for c in ("white", "black")]
    try:
        buf = io.BytesIO()
        frames[0].save(buf, "WEBP", save_all=True, append_images=frames[1:], duration=100)
        with Image.open(io.BytesIO(buf.getvalue())) as check:
            return getattr(check, "n_frames", 1) == 2
    except (OSError, KeyError, ValueError, RuntimeError):
        return False


def _resized(frames: Sequence[Image.Image], width: int) -> list[Image.Image]:
    """Every frame scaled to ``width``; frames that share one palette keep it (a
    hundred 800 px frames in RGB would take 240 MB, in 256 colours 80 MB)."""
    if frames[0].width == width:
        return list(frames)
    height = round(frames[0].height * width / frames[0].width)
    palette = frames[0] if all(f.mode == "P" for f in frames) else None
    out = []
    for frame in frames:
        small = frame.convert("RGB").resize((width, height), Image.Resampling.BILINEAR)
        out.append(small if palette is None else paletted(small, palette))
    return out


def encode_webp(frames: Sequence[Image.Image], ms: Sequence[int], quality: int) -> bytes:
    buf = io.BytesIO()
    first = frames[0] if frames[0].mode == "RGB" else frames[0].convert("RGB")
    first.save(
        buf,
        "WEBP",
        save_all=True,
        append_images=list(frames[1:]),
        duration=list(ms),
        loop=0,
        quality=quality,
        method=0,  # the fastest: methods 4–6 saved ~8 % at 2–3x the time on our boards
    )
    return buf.getvalue()


def encode_gif(frames: Sequence[Image.Image], ms: Sequence[int], colours: int) -> bytes:
    """Frames that already share one palette (:func:`shared_palette`) are written as they
    are; others get one palette learnt from a sample of them. One palette lets the GIF
    writer store only what changed between frames, and no frame flickers."""
    same = (
        all(f.mode == "P" for f in frames)
        and len({bytes(f.getpalette() or []) for f in frames}) == 1
    )
    if same and colours >= 256:
        paletted_frames = list(frames)
    else:
        step = max(1, len(frames) // 8)
        palette = shared_palette(frames[::step], colours)
        paletted_frames = [paletted(f, palette) for f in frames]
    buf = io.BytesIO()
    paletted_frames[0].save(
        buf, "GIF", save_all=True, append_images=paletted_frames[1:], duration=list(ms), loop=0
    )
    return buf.getvalue()


def encode(
    frames: Sequence[Image.Image],
    ms: Sequence[int],
    limit: int = UPLOAD_LIMIT,
    *,
    webp: bool | None = None,
    on_attempt: Callable[[str, int, int, int], None] | None = None,
) -> Encoded:
    """The first step of the ladder whose file is at most ``limit`` bytes: WebP steps
    (when ``webp``, default: when this Pillow can write it), then GIF steps. ``frames``
    share one size; ``on_attempt(format, width, quality, bytes)`` sees every try."""
    if len(frames) != len(ms):
        raise ValueError("one duration per frame")
    use_webp = can_write_animated_webp() if webp is None else webp
    ladder: list[tuple[str, int, int]] = []
    if use_webp:
        ladder += [("webp", w, q) for w, q in WEBP_STEPS]
    ladder += [("gif", w, c) for w, c in GIF_STEPS]
    current: list[Image.Image] = list(frames)
    for attempts, (kind, width, quality) in enumerate(ladder, start=1):
        width = min(width, frames[0].width)
        if current[0].width != width:
            current = _resized(frames, width)
        if kind == "webp":
            data = encode_webp(current, ms, quality)
        else:
            data = encode_gif(current, ms, quality)
        if on_attempt is not None:
            on_attempt(kind, width, quality, len(data))
        if len(data) <= limit:
            w, h = current[0].size
            return Encoded(data, kind, w, h, quality, len(frames), attempts)
    raise TooLarge(f"no step of the ladder fits {limit} bytes")
