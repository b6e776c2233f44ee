"""The palace floor's changing parts: the quarter name plates, the tiles, workers and last-move
marks on the spaces, the quarter borders over them, and the rondel with its pointer.

Every part that repeats from turn to turn is an opaque patch, drawn once on the plain colour
it lies on and cached (a plate on the board's edge colour, a tile on the floor, a rondel field
on the rondel's wood), then pasted without a mask: the same pixels as drawing it in place,
because what lies under it there is that plain colour (tests/test_maharani_tiles.py), and
pasting an opaque patch costs a tenth of drawing or of pasting through a mask.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import HIGHLIGHT, INK, font, player_colour, player_text_colour
from render.maharani.pieces import (
    BOARD_EDGE,
    CELL,
    DELTA,
    FLOOR,
    GRID,
    GX0,
    GY0,
    QUARTER_LINE,
    RONDEL_FILL,
    ROTATE,
    SIDES,
    _animal,
    _cell_xy,
    _corner_cells,
    recent_mark,
    tile_fill,
    tile_letter,
    worker_sprite,
)
from render.maharani.tiles import tile_patch
from render.words.catalogue import t

PLATE_INSET = 4  # a quarter's name plate inside its corner cell
TILE_INSET = 3  # a tile inside its space
WORKER = 40  # a worker's disc on a space
MINI = 72  # a rondel tile
BADGE = 25  # a rondel field's number disc
GAP = 13  # half the gap across the rondel's centre lines, where the pointer sits
PLATE_FILL, PLATE_SCORED = "#F7F1E3", "#2E7D32"
FIELD_CELL = {1: (3, 3), 2: (3, 4), 3: (4, 4), 4: (4, 3)}  # a rondel field by quarter lain over


PLATE = CELL - 2 * PLATE_INSET + 1  # a plate's side


@lru_cache(maxsize=16)  # ~35 KB each: four quarters, scored or not, a few languages
def plate_patch(scored: bool, animal: str, quarter: str) -> Image.Image:
    """A quarter's name plate on the board's edge colour (its corner cell's colour), with
    its animal and number; the line under them changes with the game (:func:`draw_plates`)."""
    img = Image.new("RGB", (PLATE, PLATE), BOARD_EDGE)
    _draw_plate(ImageDraw.Draw(img), 0, 0, scored, animal, quarter)
    return img


def _draw_plate(
    d: ImageDraw.ImageDraw, x: int, y: int, scored: bool, animal: str, quarter: str
) -> None:
    d.rounded_rectangle(
        (x, y, x + PLATE - 1, y + PLATE - 1),
        radius=12,
        fill=PLATE_SCORED if scored else PLATE_FILL,
        outline=QUARTER_LINE,
        width=2,
    )
    ink = "#FFFFFF" if scored else INK
    mid = x + CELL / 2 - PLATE_INSET
    d.text((mid, y + 26 - PLATE_INSET), animal, font=font(16, True), fill=ink, anchor="mm")
    d.text((mid, y + 50 - PLATE_INSET), quarter, font=font(16), fill=ink, anchor="mm")


@lru_cache(maxsize=64)  # measuring a text's box costs ~0.1 ms: once per animal and language
def _fits_plate(animal: str, quarter: str) -> bool:
    """Whether the plate's words stay on it (a long translation may reach past it)."""
    mid = CELL / 2 - PLATE_INSET
    for text, bold in ((animal, True), (quarter, False)):
        left, _, right, _ = font(16, bold).getbbox(text, anchor="mm")
        if mid + left < 1 or mid + right > PLATE - 1:
            return False
    return True


def draw_plates(img: Image.Image, view: dict[str, Any], lang: str) -> None:
    """The quarters' name plates in the board's corner cells: animal, number, empty spaces
    left (or scored, in green). A plate whose words reach past it is drawn in place, over
    what lies around it, as a cached patch would cut them."""
    d = ImageDraw.Draw(img)
    quarters = {q["q"]: q for q in view["quarters"]}
    for r, c, qn in _corner_cells():
        q = quarters[qn]
        scored = bool(q["scored"])
        animal = _animal(q["animal"], lang)
        quarter = t("pic.maharani.quarter", lang, n=qn)
        x, y = _cell_xy(r, c)
        if _fits_plate(animal, quarter):
            img.paste(plate_patch(scored, animal, quarter), (x + PLATE_INSET, y + PLATE_INSET))
        else:
            _draw_plate(d, x + PLATE_INSET, y + PLATE_INSET, scored, animal, quarter)
        if scored:
            status = t("pic.maharani.scored", lang)
        else:
            status = t("pic.maharani.empty_count", lang, n=q["empty"])
        ink = "#FFFFFF" if scored else INK
        d.text((x + CELL / 2, y + 74), status, font=font(16), fill=ink, anchor="mm")


def draw_spaces(
    img: Image.Image,
    view: dict[str, Any],
    colours: tuple[str, ...],
    letters: list[str],
) -> None:
    """Tiles, workers and the last move's marks on the spaces, then the quarter borders."""
    d = ImageDraw.Draw(img)
    recent = set(view["recent"])
    pending = (
        view["pending_worker"]["space"]
        if view["pending_worker"] and not view.get("ended")
        else None
    )
    for b in view["board"]:
        x, y = _cell_xy(b["r"], b["c"])
        if b["colour"] is not None:
            patch = tile_patch(
                FLOOR,
                tile_fill(b["colour"], colours),
                tile_letter(b["colour"]),
                b["arrow"],
                tuple(b["half_pillars"]),
                b["type"] == "C",
                CELL - 2 * TILE_INSET,
            )
            img.paste(patch, (x + TILE_INSET, y + TILE_INSET))
        if b["worker"] is not None:
            ws, wc = b["worker"]
            sprite = _worker(ws, letters[ws], wc == 1)
            img.paste(sprite, (x + CELL - WORKER - 5, y + 5), sprite)
        if b["space"] in recent or b["space"] == pending:
            recent_mark(d, x, y)
    # quarter borders over the tiles (around the rondel block)
    mid_x, mid_y = GX0 + 4 * CELL, GY0 + 4 * CELL
    for a, e in ((GY0 - 2, mid_y - CELL), (mid_y + CELL, GY0 + GRID + 2)):
        d.line((mid_x, a, mid_x, e), fill=QUARTER_LINE, width=4)
        d.line((a - GY0 + GX0, mid_y, e - GY0 + GX0, mid_y), fill=QUARTER_LINE, width=4)


def _worker(seat: int, letter: str, square: bool) -> Image.Image:
    return worker_sprite(player_colour(seat), player_text_colour(seat), letter, square, WORKER)


@lru_cache(maxsize=4)
def _badge(number: int) -> Image.Image:
    """A rondel field's number badge: a white disc with the number, opaque where drawn."""
    img = Image.new("RGBA", (BADGE, BADGE), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.ellipse((0, 0, BADGE - 1, BADGE - 1), fill="#FFFFFF", outline="#000000", width=2)
    mid = BADGE // 2
    d.text((mid, mid), str(number), font=font(17, True), fill="#000000", anchor="mm")
    return img


@lru_cache(maxsize=1)
def _empty_field() -> Image.Image:
    """A field without a tile: an outline on the rondel's wood."""
    img = Image.new("RGB", (MINI + 1, MINI + 1), RONDEL_FILL)
    ImageDraw.Draw(img).rounded_rectangle((0, 0, MINI, MINI), radius=8, outline="#A89878", width=2)
    return img


def draw_rondel(img: Image.Image, view: dict[str, Any], colours: tuple[str, ...]) -> None:
    """The rondel's four fields, each in the cell next to the quarter it lies over, and the
    big arrow: a yellow pointer on the rondel's rim towards the active side."""
    for fld in view["rondel"]:
        r, c = FIELD_CELL[fld["quarter"]]
        x, y = _cell_xy(r, c)
        ox = x + CELL - GAP - MINI if c == 3 else x + GAP
        oy = y + CELL - GAP - MINI if r == 3 else y + GAP
        if fld["colour"] is None:
            img.paste(_empty_field(), (ox, oy))
        else:
            turns = ROTATE[fld["arrow"]]
            sides = tuple(sorted(SIDES[(SIDES.index(s) + turns) % 4] for s in fld["half_pillars"]))
            patch = tile_patch(
                RONDEL_FILL,
                tile_fill(fld["colour"], colours),
                tile_letter(fld["colour"]),
                fld["arrow"],
                sides,
                fld["type"] == "C",
                MINI,
            )
            img.paste(patch, (ox, oy))
        # the field's number in the tile's bottom-right corner (corners stay free of arrows
        # and pillar marks)
        badge = _badge(fld["field"])
        at = MINI - 13 - BADGE // 2
        img.paste(badge, (ox + at, oy + at), badge)
    cx, cy = GX0 + 4 * CELL, GY0 + 4 * CELL
    dx, dy = DELTA[view["arrow"]]
    px, py = -dy, dx
    tip = CELL + 8
    base = CELL - 40
    pts = [
        (cx + dx * tip, cy + dy * tip),
        (cx + dx * base + px * 12, cy + dy * base + py * 12),
        (cx + dx * base - px * 12, cy + dy * base - py * 12),
    ]
    ImageDraw.Draw(img).polygon(pts, fill=HIGHLIGHT, outline="#000000", width=3)
