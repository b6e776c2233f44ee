"""Maharani's words around the board: the seat strips on the board's sides, the side panel
(seats, markers, bag, colour legend, quarter table) and the status sentence."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from render.common import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    MUTED,
    final_winners,
    fit_text,
    font,
    player_colour,
    player_text_colour,
    smallest_size,
)
from render.maharani.labels import label
from render.maharani.pieces import (
    BOARD_END,
    MARGIN,
    PANEL_X,
    STRIP,
    WIDTH,
    _animal,
    _text_on,
    tile_fill,
    tile_letter,
    worker_sprite,
)
from render.words.catalogue import t, tn, word


def marker_font(markers: list[str], room: float) -> tuple[ImageFont.FreeTypeFont, int] | None:
    """Font and chip padding for one row of markers ``room`` px wide: the usual 16 px with
    roomy chips when they fit; else tighter chips, then smaller type down to the legible
    floor; None when even that is too wide (the caller uses two rows)."""
    for size in range(16, smallest_size(WIDTH) - 1, -1):
        fnt = font(size, True)
        for chip in (14, 8):
            if sum(fnt.getlength(m) for m in markers) + len(markers) * (chip + 6) - 6 <= room:
                return fnt, chip
    return None


def _strip_box(side: str) -> tuple[int, int, int, int]:
    lo, hi = MARGIN, BOARD_END
    inner_lo, inner_hi = MARGIN + STRIP, BOARD_END - STRIP
    if side == "N":
        return inner_lo, lo, inner_hi, lo + STRIP - 6
    if side == "S":
        return inner_lo, hi - STRIP + 6, inner_hi, hi
    if side == "W":
        return lo, inner_lo, lo + STRIP - 6, inner_hi
    return hi - STRIP + 6, inner_lo, hi, inner_hi


def _seat_strip(
    img: Image.Image,
    side: str,
    seat: int | None,
    names: list[str],
    letters: list[str],
    active: bool,
    lang: str,
) -> None:
    x0, y0, x1, y1 = _strip_box(side)
    if seat is None:
        text = t("pic.maharani.empty_side", lang)
        colour = MUTED
    else:
        text = t("pic.maharani.to_play", lang, name=names[seat]) if active else names[seat]
        colour = INK
    letter = letters[seat] if seat is not None else ""
    img.paste(_strip_tile(side, seat, letter, text, colour, active), (x0, y0))


@lru_cache(maxsize=64)  # ~0.15 MB each
def _strip_tile(
    side: str, seat: int | None, letter: str, text: str, colour: str, active: bool
) -> Image.Image:
    """A whole side strip on the background it sits on (box, disc, words), pasted without a
    mask: the same pixels as drawing the box and pasting the words in place, for one copy."""
    x0, y0, x1, y1 = _strip_box(side)
    tile = Image.new("RGB", (x1 - x0 + 1, y1 - y0 + 1), BACKGROUND)
    fill = HIGHLIGHT if active else ("#E6DCC6" if seat is not None else BACKGROUND)
    ImageDraw.Draw(tile).rounded_rectangle(
        (0, 0, x1 - x0, y1 - y0),
        radius=12,
        fill=fill,
        outline="#000000" if active else "#BFB291",
        width=3 if active else 1,
    )
    strip = _strip_sprite(side, seat, letter, text, colour)
    tile.paste(strip, (0, 0), strip)
    return tile


@lru_cache(maxsize=64)  # ~0.1 MB each
def _strip_sprite(side: str, seat: int | None, letter: str, text: str, colour: str) -> Image.Image:
    """A side strip's disc and words (rotated for W and E), drawn once per content: the
    rotation and text cost more than the rest of the strip."""
    x0, y0, x1, y1 = _strip_box(side)
    horizontal = side in ("N", "S")
    length = (x1 - x0) if horizontal else (y1 - y0)
    thick = (y1 - y0) if horizontal else (x1 - x0)
    strip = Image.new("RGBA", (length, thick), (0, 0, 0, 0))
    sd = ImageDraw.Draw(strip)
    pos = 16
    if seat is not None:
        disc = worker_sprite(player_colour(seat), player_text_colour(seat), letter, False, 36)
        strip.paste(disc, (pos, (thick - 36) // 2), disc)
        pos += 46
    f = font(22, True)
    sd.text(
        (pos, thick / 2), fit_text(text, f, length - pos - 10), font=f, fill=colour, anchor="lm"
    )
    if side == "W":
        strip = strip.rotate(90, expand=True)
    elif side == "E":
        strip = strip.rotate(-90, expand=True)
    return strip


TOP = MARGIN + 46 + 34  # the first seat box's top, under the title and the status
RIGHT = WIDTH - MARGIN
BOX_FILL, BOX_LINE = "#FFFFFF", "#CFC6B0"
ACTIVE_FILL = "#FFF6C2"


BOX = 136  # a seat box's pitch


def panel_static(
    img: Image.Image,
    n: int,
    colours: tuple[str, ...],
    quarter_gold: tuple[int, ...],
    lang: str,
) -> None:
    """The panel's parts that only the language and the player count change, drawn once
    into the static layer: the title, every seat box's frame as not to move, the marker
    legend, the colour legend and the quarter table."""
    d = ImageDraw.Draw(img)
    d.text((PANEL_X, MARGIN), t("pic.maharani.title", lang), font=font(30, True), fill=INK)
    for s in range(n):
        y = TOP + s * BOX
        d.rounded_rectangle(
            (PANEL_X, y, RIGHT, y + BOX - 8), radius=12, fill=BOX_FILL, outline=BOX_LINE, width=1
        )
    y = TOP + n * BOX + 4
    d.text((PANEL_X, y), t("pic.maharani.markers_legend", lang), font=font(16), fill=MUTED)
    _legend(d, y + 56, colours, quarter_gold, lang)


def _box_inside(y: int) -> tuple[int, int, int, int]:
    """The part of the seat box at ``y`` that is its plain fill: inside its frame (3 px at
    most) and between its rounded corners' rows (radius 12)."""
    return PANEL_X + 3, y + 13, RIGHT - 2, y + BOX - 8 - 11


@lru_cache(maxsize=1)  # ~0.2 MB
def _active_frame() -> Image.Image:
    """The box of the seat to move, on the panel's background."""
    tile = Image.new("RGB", (RIGHT - PANEL_X + 1, BOX - 7), BACKGROUND)
    ImageDraw.Draw(tile).rounded_rectangle(
        (0, 0, RIGHT - PANEL_X, BOX - 8), radius=12, fill=ACTIVE_FILL, outline="#000000", width=3
    )
    return tile


@lru_cache(maxsize=128)  # ~50 KB each: a seat's markers, two box colours, a few languages
def _chip_row(
    markers: tuple[str, ...],
    up: tuple[bool, ...],
    size: int,
    chip: int,
    tall: int,
    bg: str | None,
) -> Image.Image:
    """One row of marker chips (animal, ✓ or ✗) on the seat box's colour ``bg``, or, where
    the row reaches the box's frame, transparent around the chips (pasted through its alpha:
    the same pixels as drawing the chips over the frame)."""
    f = font(size, True)
    widths = [int(f.getlength(m)) + chip for m in markers]
    room = (sum(widths) + 6 * (len(widths) - 1) + 1, tall + 1)
    img = Image.new("RGB", room, bg) if bg else Image.new("RGBA", room, (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    cx = 0
    for marker, is_up, w in zip(markers, up, widths, strict=True):
        d.rounded_rectangle(
            (cx, 0, cx + w, tall),
            radius=8,
            fill="#F3E9CF" if is_up else "#555555",
            outline="#8A7A55" if is_up else "#222222",
        )
        d.text(
            (cx + w / 2, tall / 2), marker, font=f, fill=INK if is_up else "#FFFFFF", anchor="mm"
        )
        cx += w + 6
    return img


def _panel(
    img: Image.Image,
    view: dict[str, Any],
    names: list[str],
    letters: list[str],
    colours: tuple[str, ...],
    lang: str,
) -> None:
    """The panel's changing parts over :func:`panel_static`: turn, status, each seat's box
    (who is to move, gold, supply, markers), the bag."""
    d = ImageDraw.Draw(img)
    x = PANEL_X
    right = RIGHT
    y = MARGIN
    n = view["players"]
    turn = t("pic.maharani.turn", lang, n=view["turn_no"])
    d.text((right, y + 8), turn, font=font(20), fill=MUTED, anchor="ra")
    y += 46
    d.text((x, y), _status_text(view, names, lang), font=font(19, True), fill=INK)
    y += 34
    best = max(view["gold"])
    ended = view.get("ended")
    over = view["phase"] == "over" or bool(ended)
    named = final_winners(view)  # the match's own winners, when the service said them
    gf, nf = font(24, True), font(22, True)
    for s in range(n):
        active = s == view["turn"] and not over
        if active:
            img.paste(_active_frame(), (x, y))
        disc = worker_sprite(player_colour(s), player_text_colour(s), letters[s], False, 40)
        img.paste(disc, (x + 10, y + 10), disc)
        gold = view["gold"][s]
        gold_text = t("pic.maharani.gold", lang, gold=gold) + (
            " ★"
            if (s in named if named is not None else view["phase"] == "over" and gold == best)
            else ""
        )
        gw = int(gf.getlength(gold_text))
        bg = ACTIVE_FILL if active else BOX_FILL
        plain = _box_inside(y)
        # drawn each time, not pasted: two seats with the same gold are two texts, each with
        # its ★ (tests/test_rankings_agree.py reads every seat's mark as a drawn text)
        d.text((right - 12, y + 30), gold_text, font=gf, fill=INK, anchor="rm")
        name = fit_text(names[s], nf, right - x - 90 - gw)
        label(img, (x + 60, y + 30), name, 22, INK, bg, plain, bold=True, anchor="lm")
        _seat_details(img, view, s, y, bg, lang)
        y += BOX
    y += 4 + 26
    bag = tn("pic.maharani.bag", view["bag"], lang)
    if view["discarded"]:
        bag += tn("pic.maharani.set_aside", len(view["discarded"]), lang)
    d.text((x, y), bag, font=font(17), fill=INK)


def _seat_details(
    img: Image.Image,
    view: dict[str, Any],
    s: int,
    y: int,
    bg: str,
    lang: str,
) -> None:
    """A seat box's lower part during play: its side and workers left, its markers."""
    x = PANEL_X
    supply = view["supply"][s]
    if view["worker_colours"] == 2:
        workers = t("pic.maharani.workers_two", lang, first=supply[0], second=supply[1])
    else:
        workers = t("pic.maharani.workers", lang, n=supply[0])
    side_word = t(f"pic.maharani.side.{view['sides'][s]}", lang)
    plain = _box_inside(y)
    label(img, (x + 12, y + 58), f"{side_word} · {workers}", 17, INK, bg, plain)
    up = tuple(bool(u) for u in view["markers"][s])
    markers = tuple(
        _animal(view["animals"][q], lang) + (" ✓" if u else " ✗") for q, u in enumerate(up)
    )
    # one row of chips (tighter, smaller type if need be); a language whose animal names
    # still do not fit gets two lower rows inside the box, never a chip out of it
    fitted = marker_font(list(markers), RIGHT - 12 - (x + 12))
    if fitted is not None:
        f, chip = fitted
        rows = [(slice(None), y + 88, 28)]
    else:
        f, chip = font(16, True), 14
        half = (len(markers) + 1) // 2
        rows = [(slice(None, half), y + 80, 22), (slice(half, None), y + 104, 22)]
    for part, top, tall in rows:
        if top + tall < plain[3]:  # on the box's plain fill: an opaque patch
            row = _chip_row(markers[part], up[part], int(f.size), chip, tall, bg)
            img.paste(row, (x + 12, top))
        else:
            row = _chip_row(markers[part], up[part], int(f.size), chip, tall, None)
            img.paste(row, (x + 12, top), row)


def _legend(
    d: ImageDraw.ImageDraw,
    y: int,
    colours: tuple[str, ...],
    quarter_gold: tuple[int, ...],
    lang: str,
) -> None:
    """The tile colours with their letters and names, and what a quarter's workers pay."""
    x, right = PANEL_X, RIGHT
    f = font(16, True)
    names = [word("pic.maharani.colour", colour, lang) for colour in colours]
    cols = 3  # two a row when a language's colour names do not fit three (pomarańczowy)
    if any(font(16).getlength(name) > (right - x) // cols - 42 for name in names):
        cols = 2
    col_w = (right - x) // cols
    for i, colour in enumerate(colours):
        lx = x + (i % cols) * col_w
        ly = y + (i // cols) * 34
        fill = tile_fill(colour, colours)
        d.rounded_rectangle((lx, ly, lx + 28, ly + 28), radius=5, fill=fill, outline="#222222")
        d.text((lx + 14, ly + 14), tile_letter(colour), font=f, fill=_text_on(fill), anchor="mm")
        d.text((lx + 36, ly + 14), names[i], font=font(16), fill=INK, anchor="lm")
    y += 34 * ((len(colours) + cols - 1) // cols) + 6
    table = " · ".join(f"{k}→{g}" for k, g in enumerate(quarter_gold) if k)
    d.text((x, y), t("pic.maharani.quarter_pays", lang), font=font(16), fill=MUTED)
    d.text((x, y + 22), table, font=font(17, True), fill=INK)


def _status_text(view: dict[str, Any], names: list[str], lang: str = "en", fit: bool = True) -> str:
    phase = view["phase"]
    if view.get("ended"):  # resigned or aborted: what happened instead of whose turn
        text = view["ended"]["text"]
        return fit_text(text, font(19, True), 440) if fit else text
    if phase == "over":
        best = max(view["gold"])
        named = final_winners(view)
        seats = named if named is not None else [s for s, g in enumerate(view["gold"]) if g == best]
        win = [names[s] for s in seats]
        key = "pic.maharani.over_early" if view["end"] == "stall" else "pic.maharani.over"
        winners = t("pic.maharani.and", lang).join(win)
        text = t(key, lang, winners=winners)
        return fit_text(text, font(19, True), 440) if fit else text
    who = names[view["turn"]]
    if phase == "first":
        text = t("pic.maharani.first", lang, who=who)
    elif phase == "second":
        text = t("pic.maharani.second", lang, who=who)
    else:
        text = t("pic.maharani.worker", lang, who=who, space=view["pending_worker"]["space"])
    return fit_text(text, font(19, True), 440) if fit else text
