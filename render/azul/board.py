"""The changing part of the Azul picture: the factories and centre, every player's board,
and the marks of the last move on them (drawn from ``view["last_turn"]``, see
:func:`rules.azul.view.build_view`)."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render.azul.geometry import (
    BOARD_H,
    BOARD_W,
    CELL,
    FAC_D,
    FAC_TILE,
    GRID_Y,
    LINES_X,
    TILE,
    WALL_X,
    Layout,
    cell_box,
    floor_cell,
    line_cell,
    wall_cell,
)
from render.azul.sprites import LETTERS, frame_new, marker_sprite, ring_new, tile_sprite
from render.common import (
    INK,
    MUTED,
    fit_text,
    font,
    highlight_outline,
    player_colour,
    player_text_colour,
)
from render.seats import draw_robot, is_computer_label
from render.words.catalogue import t

CLAIM_INK = "#8A6A00"
PENALTY_INK = "#8A2B1C"


def _paste(img: Image.Image, sprite: Image.Image, x: int, y: int) -> None:
    img.paste(sprite, (x, y), sprite)


def seat_chip(d: ImageDraw.ImageDraw, seat: int, label: str, x: int, y: int, r: int = 17) -> None:
    """The seat's round chip centred on (x, y) with its letters from
    :func:`render.seats.seat_letters` (unique in the match, so seats sharing an initial or
    a colour under colour blindness still differ); a computer's chip wears a small drawn
    robot head at its lower right (the name's emoji is no glyph of the bundled fonts)."""
    d.ellipse((x - r, y - r, x + r, y + r), fill=player_colour(seat), outline=INK, width=2)
    size = 20 if len(label) < 2 else 16
    d.text((x, y), label, font=font(size, True), fill=player_text_colour(seat), anchor="mm")
    if is_computer_label(label):
        badge = round(r * 0.95)
        bx, by = x + r * 0.45, y + r * 0.75
        d.rounded_rectangle(
            (bx - 2, by - badge * 0.62, bx + badge * 0.98, by + badge * 0.62),
            radius=4,
            fill="#FFFFFF",
        )
        draw_robot(d, bx, by, badge, INK, "#FFFFFF")


def draw_table(
    img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], lay: Layout, lang: str
) -> None:
    num = font(16, True)
    last = view.get("last_turn") or {}
    source = last.get("source")
    for i, ((cx, cy), tiles) in enumerate(zip(lay.factories, view["factories"], strict=True)):
        # the number clears the last move's ring (render.azul.sprites.ring_new)
        d.text((cx, cy - FAC_D // 2 - 6), str(i + 1), font=num, fill=INK, anchor="mb")
        for j, letter in enumerate(tiles):
            x = cx - FAC_TILE - 2 + (j % 2) * (FAC_TILE + 4)
            y = cy - FAC_TILE - 2 + (j // 2) * (FAC_TILE + 4)
            _paste(img, tile_sprite(letter, FAC_TILE), x, y)
        if not tiles:
            d.text((cx, cy), t("pic.azul.empty", lang), font=font(16), fill=MUTED, anchor="mm")
        if source == i + 1:
            ring_new(d, cx, cy, FAC_D // 2)
    x0, y0, x1, y1 = lay.centre_box
    if source == "C":
        frame_new(d, (x0 + 4, y0 + 4, x1 - 3, y1 - 3), radius=10)
    counts = {letter: view["centre"].count(letter) for letter in LETTERS}
    items: list[tuple[str, int]] = [(k, n) for k, n in counts.items() if n]
    if view["marker_in_centre"]:
        items.insert(0, ("M", 1))
    f = font(20, True)
    for i, (letter, n) in enumerate(items):
        col, row = i % 3, i // 3
        x = x0 + 12 + col * 78
        y = y0 + 28 + row * 52
        sprite = marker_sprite(FAC_TILE) if letter == "M" else tile_sprite(letter, FAC_TILE)
        _paste(img, sprite, x, y)
        if letter != "M":
            d.text((x + FAC_TILE + 3, y + FAC_TILE // 2), f"×{n}", font=f, fill=INK, anchor="lm")
    if not items:
        d.text(
            ((x0 + x1) // 2, (y0 + y1) // 2 + 8),
            t("pic.azul.empty", lang),
            font=font(16),
            fill=MUTED,
            anchor="mm",
        )


def _header(
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    p: dict[str, Any],
    name: str,
    origin: tuple[int, int],
    lang: str,
    label: str,
) -> None:
    """The board's top line: chip, name, "to move" or "winner", and the score."""
    bx, by = origin
    seat = p["seat"]
    acting = seat in view["to_act"]
    if acting:
        highlight_outline(d, (bx, by, bx + BOARD_W, by + BOARD_H), 6, radius=14)
        d.rounded_rectangle(
            (bx + 3, by + 3, bx + BOARD_W - 3, by + BOARD_H - 3), radius=12, outline=INK, width=1
        )
    seat_chip(d, seat, label, bx + 32, by + 30)
    score = f"{p['score']}"
    sf = font(34, True)
    sw = int(sf.getlength(score))
    d.text((bx + BOARD_W - 20, by + 30), score, font=sf, fill=INK, anchor="rm")
    points = t("pic.azul.points", lang)
    d.text((bx + BOARD_W - 26 - sw, by + 34), points, font=font(16), fill=MUTED, anchor="rm")
    name_room = BOARD_W - 60 - sw - 90
    tag = ""
    if acting:
        key = "pic.azul.to_move" if view["phase"] == "offer" else "pic.azul.choose_column"
        tag = t(key, lang)
    elif view["outcome"] and seat in view["outcome"]["winners"]:
        tag = t("pic.azul.winner", lang)
    nf = font(24, True)
    gap = 12 if tag else 0
    label = fit_text(name, nf, name_room - gap - int(font(18, True).getlength(tag)))
    d.text((bx + 58, by + 30), label, font=nf, fill=INK, anchor="lm")
    if tag:
        d.text(
            (bx + 58 + int(nf.getlength(label)) + gap, by + 31),
            tag,
            font=font(18, True),
            fill=CLAIM_INK,
            anchor="lm",
        )


def draw_board(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    p: dict[str, Any],
    name: str,
    origin: tuple[int, int],
    pending: dict[str, Any] | None,
    lang: str,
    label: str,
) -> None:
    bx, by = origin
    _header(d, view, p, name, origin, lang, label)
    # pattern lines, right to left
    for i, line in enumerate(p["lines"]):
        letter = line["colour"]
        for j in range(line["count"]):
            x0, y0, _, _ = cell_box(*line_cell(origin, i, j))
            _paste(img, tile_sprite(letter, TILE), x0, y0)
    # wall
    for r, row in enumerate(p["wall"]):
        for c, letter in enumerate(row):
            if letter:
                x0, y0, _, _ = cell_box(*wall_cell(origin, r, c))
                _paste(img, tile_sprite(letter, TILE), x0, y0)
    if pending is not None:
        r = pending["line"] - 1
        y = by + GRID_Y + r * CELL
        highlight_outline(d, (bx + LINES_X - 4, y, bx + LINES_X + 5 * CELL + 2, y + CELL), 4)
        for c in pending["columns"]:
            x = bx + WALL_X + (c - 1) * CELL
            d.rectangle((x, y, x + CELL, y + CELL), outline=CLAIM_INK, width=4)
            d.text(
                (x + CELL // 2, y + CELL // 2),
                str(c),
                font=font(22, True),
                fill=CLAIM_INK,
                anchor="mm",
            )
    # column numbers above the wall
    for c in range(5):
        d.text(
            (bx + WALL_X + c * CELL + CELL // 2, by + GRID_Y - 1),
            str(c + 1),
            font=font(16),
            fill=MUTED,
            anchor="mb",
        )
    for i in range(5):
        d.text(
            (bx + LINES_X - 6, by + GRID_Y + i * CELL + CELL // 2),
            str(i + 1),
            font=font(16),
            fill=MUTED,
            anchor="rm",
        )
    # floor
    for f, item in enumerate(p["floor"]):
        x0, y0, _, _ = cell_box(*floor_cell(origin, f))
        _paste(img, marker_sprite(TILE) if item == "M" else tile_sprite(item, TILE), x0, y0)
    if p["floor_penalty"]:
        fx, fy = floor_cell(origin, 7)
        d.text(
            (fx + 12, fy + CELL // 2),
            f"{p['floor_penalty']}".replace("-", "−"),
            font=font(24, True),
            fill=PENALTY_INK,
            anchor="lm",
        )
    if p["has_marker"] and "M" not in p["floor"]:
        fx, fy = floor_cell(origin, 0)
        _paste(img, marker_sprite(32), bx + BOARD_W - 48, fy + 10)
    mark_last_turn(d, view.get("last_turn"), p["seat"], origin)


def mark_last_turn(
    d: ImageDraw.ImageDraw, last: dict[str, Any] | None, seat: int, origin: tuple[int, int]
) -> None:
    """Frame what the last move put on ``seat``'s board: the new tiles of a pattern line
    (one frame round the run), the new floor items, each new wall tile, and beside each
    wall row the points its new tile scored."""
    if not last:
        return
    start, end = last["line_slots"]
    if last["seat"] == seat and last["line"] is not None and end > start:
        line = last["line"] - 1
        # the run's left end is its last slot (lines fill from the wall side)
        _run(d, [cell_box(*line_cell(origin, line, i)) for i in range(end - 1, start - 1, -1)])
    for who, first, stop in last["floor_slots"]:
        if who == seat:
            _run(d, [cell_box(*floor_cell(origin, i)) for i in range(first, stop)])
    for who, row, column, points in last["wall_cells"]:
        if who == seat:
            frame_new(d, cell_box(*wall_cell(origin, row, column)))
            x, y = wall_cell(origin, row, 5)  # the room right of the wall, 34 px wide
            d.text(
                (x + 17, y + CELL // 2), f"+{points}", font=font(16, True), fill=INK, anchor="mm"
            )


def _run(d: ImageDraw.ImageDraw, tiles: list[tuple[int, int, int, int]]) -> None:
    """One frame round a run of tiles, left to right."""
    frame_new(d, (tiles[0][0], tiles[0][1], tiles[-1][2], tiles[-1][3]), tiles=tiles)
