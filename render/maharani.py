"""Maharani picture: the palace floor with its four quarters, the rondel, and a side panel.

Drawn only from ``GAME.view(...)`` (Maharani has no hidden information, so every seat gets
the same picture). Why it looks like this:

- Tiles carry a colour letter (B O R G P T) so colour is never the only cue; their arrow is a
  white wedge near the edge it points to; pillar marks are black (centre disc or half discs
  on edges) exactly as the pillar model of the rules.
- Workers are discs in the seat colour with the player's initial (2 players: the second
  worker colour is a rounded square, so shape tells the two apart).
- The rondel sits in the middle; each field is drawn in the cell next to the quarter it
  lies over, with its field number; a yellow pointer and the highlighted seat strip show
  whom the big arrow (and every rondel tile's arrow) points at.
- Static parts (floor, pillar marks of empty spaces, coordinates, quarter names) and the tile
  and worker sprites are drawn once at 2x, reduced for smooth edges and cached; text is drawn
  at 1x after the reduce.

Words come from the catalogue (``pic.maharani.*`` in :mod:`render.words.catalogue`) in the language
given to :func:`draw`; animal and colour names from the game data are looked up there too
(``pic.maharani.animal.*``, ``pic.maharani.colour.*``) and drawn as they are when missing.
Space names, coordinates, tile letters, numbers and player names pass through. The cached
board layer holds only coordinates, so it needs no language in its key.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from render.common import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    MUTED,
    final_places,
    final_winners,
    fit_text,
    font,
    highlight_outline,
    player_colour,
    player_text_colour,
    smallest_size,
)
from render.header import Band, away_words, header_band, with_band
from render.seats import seat_letters
from render.words.catalogue import picture_language, t, tn, word

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


@lru_cache(maxsize=512)
def tile_sprite(
    fill: str, letter: str, arrow: str, sides: tuple[str, ...], centre: bool, size: int
) -> Image.Image:
    """A tile as placed: colour, pillar marks (board frame), arrow, colour letter."""
    big = size * 2
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, big - 1, big - 1), radius=big // 14, fill=fill, outline="#2B2B2B")
    _pillars(d, big, sides, centre, PILLAR)
    _arrow(d, big, arrow)
    img = img.reduce(2)  # box filter at 2x: ~3x cheaper than LANCZOS, as smooth
    d = ImageDraw.Draw(img)
    fs = max(16, size // 5)
    ink = _text_on(fill)
    d.text(
        (size * 0.09, size * 0.05),
        letter,
        font=font(fs, True),
        fill=ink,
        stroke_width=2,
        stroke_fill="#000000" if ink == "#FFFFFF" else "#FFFFFF",
    )
    return img


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


@lru_cache(maxsize=4)
def board_layer(spaces: BoardKey, animals: tuple[str, ...]) -> Image.Image:
    """Floor, grid, empty-space pillar marks, quarter borders, coordinates (static)."""
    s2 = 2
    img = Image.new("RGB", (WIDTH * s2, HEIGHT * s2), BACKGROUND)
    d = ImageDraw.Draw(img)
    x0, y0 = (GX0 - 6) * s2, (GY0 - 6) * s2
    d.rounded_rectangle(
        (x0, y0, (GX0 + GRID + 6) * s2, (GY0 + GRID + 6) * s2), radius=18, fill="#D9CBA8"
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


def _initials(names: list[str], n: int) -> list[str]:
    letters = [(names[i].strip()[:1] or str(i + 1)).upper() for i in range(n)]
    if len(set(letters)) < n:
        return [str(i + 1) for i in range(n)]
    return letters


def _names(names: list[str], n: int, lang: str = "en") -> list[str]:
    return [
        names[i] if i < len(names) and names[i] else t("pic.common.player", lang, n=i + 1)
        for i in range(n)
    ]


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


def _animal(name: str, lang: str) -> str:
    return word("pic.maharani.animal", name, lang) if name else name


def draw(view: dict[str, Any], names: list[str], seat: int | None, lang: str = "en") -> Image.Image:
    """The public picture (every seat sees the same: no hidden information), with its words
    in ``lang`` (a language or Discord locale; English when unknown)."""
    lang = picture_language(lang)
    n = view["players"]
    names = _names(names, n, lang)
    letters = seat_letters(names, n)
    colours = tuple(view["colours"])
    key = tuple(
        (b["space"], b["r"], b["c"], b["q"], b["type"], tuple(b["half_pillars"]))
        for b in view["board"]
    )
    img = board_layer(key, tuple(view["animals"])).copy()
    d = ImageDraw.Draw(img)

    # ---- quarter name plates in the corner cells
    quarters = {q["q"]: q for q in view["quarters"]}
    for r, c, qn in _corner_cells():
        q = quarters[qn]
        x, y = _cell_xy(r, c)
        fill = "#2E7D32" if q["scored"] else "#F7F1E3"
        ink = "#FFFFFF" if q["scored"] else INK
        d.rounded_rectangle(
            (x + 4, y + 4, x + CELL - 4, y + CELL - 4),
            radius=12,
            fill=fill,
            outline=QUARTER_LINE,
            width=2,
        )
        d.text(
            (x + CELL / 2, y + 26),
            _animal(q["animal"], lang),
            font=font(16, True),
            fill=ink,
            anchor="mm",
        )
        quarter = t("pic.maharani.quarter", lang, n=qn)
        d.text((x + CELL / 2, y + 50), quarter, font=font(16), fill=ink, anchor="mm")
        if q["scored"]:
            status = t("pic.maharani.scored", lang)
        else:
            status = t("pic.maharani.empty_count", lang, n=q["empty"])
        d.text((x + CELL / 2, y + 74), status, font=font(16), fill=ink, anchor="mm")

    # ---- tiles and workers
    recent = set(view["recent"])
    pending = (
        view["pending_worker"]["space"]
        if view["pending_worker"] and not view.get("ended")
        else None
    )
    wsize = 40
    for b in view["board"]:
        x, y = _cell_xy(b["r"], b["c"])
        if b["colour"] is not None:
            sprite = tile_sprite(
                tile_fill(b["colour"], colours),
                tile_letter(b["colour"]),
                b["arrow"],
                tuple(b["half_pillars"]),
                b["type"] == "C",
                CELL - 6,
            )
            img.paste(sprite, (x + 3, y + 3), sprite)
        if b["worker"] is not None:
            ws, wc = b["worker"]
            sprite = worker_sprite(
                player_colour(ws), player_text_colour(ws), letters[ws], wc == 1, wsize
            )
            img.paste(sprite, (x + CELL - wsize - 5, y + 5), sprite)
        if b["space"] in recent or b["space"] == pending:
            highlight_outline(d, (x + 1, y + 1, x + CELL - 2, y + CELL - 2), 5)

    # ---- quarter borders over the tiles (around the rondel block)
    mid_x, mid_y = GX0 + 4 * CELL, GY0 + 4 * CELL
    for a, b in ((GY0 - 2, mid_y - CELL), (mid_y + CELL, GY0 + GRID + 2)):
        d.line((mid_x, a, mid_x, b), fill=QUARTER_LINE, width=4)
        d.line((a - GY0 + GX0, mid_y, b - GY0 + GX0, mid_y), fill=QUARTER_LINE, width=4)

    # ---- rondel
    arrow = view["arrow"]
    field_cell = {1: (3, 3), 2: (3, 4), 3: (4, 4), 4: (4, 3)}  # by quarter lain over
    mini = 72
    gap = 13  # half the gap across the rondel's centre lines, where the pointer sits
    for fld in view["rondel"]:
        r, c = field_cell[fld["quarter"]]
        x, y = _cell_xy(r, c)
        ox = x + CELL - gap - mini if c == 3 else x + gap
        oy = y + CELL - gap - mini if r == 3 else y + gap
        if fld["colour"] is None:
            d.rounded_rectangle(
                (ox, oy, ox + mini, oy + mini), radius=8, outline="#A89878", width=2
            )
        else:
            turns = ROTATE[fld["arrow"]]
            sides = tuple(sorted(SIDES[(SIDES.index(s) + turns) % 4] for s in fld["half_pillars"]))
            sprite = tile_sprite(
                tile_fill(fld["colour"], colours),
                tile_letter(fld["colour"]),
                fld["arrow"],
                sides,
                fld["type"] == "C",
                mini,
            )
            img.paste(sprite, (ox, oy), sprite)
        # field number badge in the mini tile's bottom-right corner (corners stay free of
        # arrows and pillar marks)
        bx, by = ox + mini - 13, oy + mini - 13
        d.ellipse((bx - 12, by - 12, bx + 12, by + 12), fill="#FFFFFF", outline="#000000", width=2)
        d.text((bx, by), str(fld["field"]), font=font(17, True), fill="#000000", anchor="mm")
    # the big arrow: a yellow pointer on the rondel rim towards the active side
    cx, cy = GX0 + 4 * CELL, GY0 + 4 * CELL
    dx, dy = DELTA[arrow]
    px, py = -dy, dx
    tip = CELL + 8
    base = CELL - 40
    pts = [
        (cx + dx * tip, cy + dy * tip),
        (cx + dx * base + px * 12, cy + dy * base + py * 12),
        (cx + dx * base - px * 12, cy + dy * base - py * 12),
    ]
    d.polygon(pts, fill=HIGHLIGHT, outline="#000000", width=3)

    # ---- seat strips
    sides = view["sides"]
    ended = view.get("ended")  # resigned or aborted: nobody to move, the end in words
    turn = view["turn"] if view["phase"] != "over" and not ended else None
    for side in SIDES:
        seat_here = sides.index(side) if side in sides else None
        active = seat_here is not None and seat_here == turn
        _seat_strip(img, side, seat_here, names, letters, active, lang)

    _panel(img, view, names, letters, colours, lang)
    over = view["phase"] == "over" or bool(ended)
    band = Band(
        game=t("pic.maharani.title", lang),
        stage=t("pic.maharani.turn", lang, n=view["turn_no"]),
        acting=[] if over else [view["turn"]],
        action=_status_text(view, names, lang, fit=False),
        scores=[(s, str(g)) for s, g in enumerate(view["gold"])],
        last=view.get("last_move"),
        away=away_words(view, names, lang),
        places=final_places(view),
    )
    return with_band(header_band(img.width, band, letters, lang), img)


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


def _panel(
    img: Image.Image,
    view: dict[str, Any],
    names: list[str],
    letters: list[str],
    colours: tuple[str, ...],
    lang: str,
) -> None:
    d = ImageDraw.Draw(img)
    x = PANEL_X
    right = WIDTH - MARGIN
    y = MARGIN
    n = view["players"]
    d.text((x, y), t("pic.maharani.title", lang), font=font(30, True), fill=INK)
    turn = t("pic.maharani.turn", lang, n=view["turn_no"])
    d.text((right, y + 8), turn, font=font(20), fill=MUTED, anchor="ra")
    y += 46
    d.text((x, y), _status_text(view, names, lang), font=font(19, True), fill=INK)
    y += 34
    best = max(view["gold"])
    ended = view.get("ended")
    over = view["phase"] == "over" or bool(ended)
    named = final_winners(view)  # the match's own winners, when the service said them
    for s in range(n):
        active = s == view["turn"] and not over
        box_h = 136
        d.rounded_rectangle(
            (x, y, right, y + box_h - 8),
            radius=12,
            fill="#FFF6C2" if active else "#FFFFFF",
            outline="#000000" if active else "#CFC6B0",
            width=3 if active else 1,
        )
        disc = worker_sprite(player_colour(s), player_text_colour(s), letters[s], False, 40)
        img.paste(disc, (x + 10, y + 10), disc)
        gold = view["gold"][s]
        gold_text = t("pic.maharani.gold", lang, gold=gold) + (
            " ★"
            if (s in named if named is not None else view["phase"] == "over" and gold == best)
            else ""
        )
        gf = font(24, True)
        gw = int(gf.getlength(gold_text))
        d.text((right - 12, y + 30), gold_text, font=gf, fill=INK, anchor="rm")
        nf = font(22, True)
        d.text(
            (x + 60, y + 30),
            fit_text(names[s], nf, right - x - 90 - gw),
            font=nf,
            fill=INK,
            anchor="lm",
        )
        side = view["sides"][s]
        supply = view["supply"][s]
        if view["worker_colours"] == 2:
            workers = t("pic.maharani.workers_two", lang, first=supply[0], second=supply[1])
        else:
            workers = t("pic.maharani.workers", lang, n=supply[0])
        side_word = t(f"pic.maharani.side.{side}", lang)
        d.text((x + 12, y + 58), f"{side_word} · {workers}", font=font(17), fill=INK)
        cx = x + 12
        markers = [
            _animal(view["animals"][q], lang) + (" ✓" if up else " ✗")
            for q, up in enumerate(view["markers"][s])
        ]
        # one row of chips (tighter, smaller type if need be); a language whose animal names
        # still do not fit gets two lower rows inside the box, never a chip out of it
        fitted = marker_font(markers, right - 12 - cx)
        if fitted is not None:
            f, chip = fitted
            rows = [(list(enumerate(markers)), y + 88, 28)]
        else:
            f, chip = font(16, True), 14
            half = (len(markers) + 1) // 2
            pairs = list(enumerate(markers))
            rows = [(pairs[:half], y + 80, 22), (pairs[half:], y + 104, 22)]
        for row, top, tall in rows:
            cx = x + 12
            for q, marker in row:
                up = view["markers"][s][q]
                w = int(f.getlength(marker)) + chip
                d.rounded_rectangle(
                    (cx, top, cx + w, top + tall),
                    radius=8,
                    fill="#F3E9CF" if up else "#555555",
                    outline="#8A7A55" if up else "#222222",
                )
                d.text(
                    (cx + w / 2, top + tall / 2),
                    marker,
                    font=f,
                    fill=INK if up else "#FFFFFF",
                    anchor="mm",
                )
                cx += w + 6
        y += box_h
    y += 4
    d.text((x, y), t("pic.maharani.markers_legend", lang), font=font(16), fill=MUTED)
    y += 26
    bag = tn("pic.maharani.bag", view["bag"], lang)
    if view["discarded"]:
        bag += tn("pic.maharani.set_aside", len(view["discarded"]), lang)
    d.text((x, y), bag, font=font(17), fill=INK)
    y += 30
    # colour legend
    f = font(16, True)
    col_w = (right - x) // 3
    for i, colour in enumerate(colours):
        lx = x + (i % 3) * col_w
        ly = y + (i // 3) * 34
        fill = tile_fill(colour, colours)
        d.rounded_rectangle((lx, ly, lx + 28, ly + 28), radius=5, fill=fill, outline="#222222")
        d.text((lx + 14, ly + 14), tile_letter(colour), font=f, fill=_text_on(fill), anchor="mm")
        name = word("pic.maharani.colour", colour, lang)
        d.text((lx + 36, ly + 14), name, font=font(16), fill=INK, anchor="lm")
    y += 34 * ((len(colours) + 2) // 3) + 6
    table = " · ".join(f"{k}→{g}" for k, g in enumerate(view["quarter_gold"]) if k)
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
