"""Azul picture: every player's board, the factories and the centre, in one image.

Drawn only from ``rules.azul`` views (Azul has no hidden information, so every seat gets the
public picture). Phone legibility drives the layout: 1280 px wide, boards two per row (a 2x2
grid for 3-4 players, the 3-player gap holds the legend), tiles >= 40 px, text >= 16 px.

Colour is never the only cue: each tile carries its letter AND a shape (blue circle, yellow
triangle, red diamond, black square, white star); the seat colour comes with the name's
initial. Speed: everything static for a player count and wall kind (frames, empty pattern
lines, the faint printed wall, floor penalties, legend) is drawn once at 2x, reduced and
cached; tile sprites are cached too, so a picture is mostly ``paste`` calls and a few labels.

Words come from the catalogue (``pic.azul.*`` in :mod:`render.words`) in the language given
to :func:`draw`; the static layer is cached per language. Tile letters (B Y R K W), move
examples, numbers, player names and the status line written by the rules pass through.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    MUTED,
    ended_view,
    final_places,
    fit_text,
    font,
    player_colour,
    player_text_colour,
)
from render.header import Band, action_words, away_words, header_band, with_band
from render.words.catalogue import picture_language, t
from render.words.say import say

WIDTH = 1280
MARGIN = 16
#: room above the table; the header band (render.header) says the round, who acts and the
#: bag and lid, so the board itself starts right under it
HEADER_H = MARGIN
TABLE_H = 160
LEGEND_H = 44
BOARD_W = (WIDTH - 3 * MARGIN) // 2
BOARD_H = 452
CELL = 52  # pitch of pattern-line, wall and floor spaces
TILE = 46  # tile size inside a space
FAC_TILE = 40
FAC_D = 104  # factory disc diameter

BOARD_BG = "#FBF8F2"
TABLE_BG = "#E9E1D3"
EMPTY_CELL = "#E4DDD0"
EMPTY_EDGE = "#C9BFAE"

LETTERS = "BYRKW"
FILL = {"B": "#2F6DB5", "Y": "#F2C12E", "R": "#C8372D", "K": "#2A2A2A", "W": "#E6F7F7"}
MARK = {"B": "#FFFFFF", "Y": "#222222", "R": "#FFFFFF", "K": "#FFFFFF", "W": "#1E4E5A"}
SHAPES = {"B": "circle", "Y": "triangle", "R": "diamond", "K": "square", "W": "star"}


# --------------------------------------------------------------------------- geometry


@dataclass(frozen=True)
class Layout:
    players: int
    height: int
    boards: tuple[tuple[int, int], ...]  # top-left corner of each board
    legend_box: tuple[int, int] | None  # 3 players: the free grid slot
    factories: tuple[tuple[int, int], ...]  # centres of the factory discs
    centre_box: tuple[int, int, int, int]


@cache
def layout(players: int) -> Layout:
    nf = {2: 5, 3: 7, 4: 9}[players]
    table_top = HEADER_H
    centre_w = 250
    span = WIDTH - 2 * MARGIN - centre_w - MARGIN
    step = min(span // nf, FAC_D + 30)
    y = table_top + TABLE_H // 2 + 9
    factories = tuple(
        (MARGIN + step // 2 + i * step + (span - step * nf) // 2, y) for i in range(nf)
    )
    cx = WIDTH - MARGIN - centre_w
    centre_box = (cx, table_top + 10, WIDTH - MARGIN, table_top + TABLE_H - 10)
    top = table_top + TABLE_H + MARGIN // 2
    rows = 1 if players == 2 else 2
    boards = tuple(
        (MARGIN + (i % 2) * (BOARD_W + MARGIN), top + (i // 2) * (BOARD_H + MARGIN))
        for i in range(players)
    )
    legend_box = (MARGIN + BOARD_W + MARGIN, top + BOARD_H + MARGIN) if players == 3 else None
    height = top + rows * (BOARD_H + MARGIN) + (0 if players == 3 else LEGEND_H)
    return Layout(players, height, boards, legend_box, factories, centre_box)


# Board-relative positions
NAME_H = 54
LINES_X = 22
WALL_X = LINES_X + 5 * CELL + 40
GRID_Y = NAME_H + 14
FLOOR_Y = GRID_Y + 5 * CELL + 30
FLOOR_X = LINES_X


def _cell_box(x: int, y: int) -> tuple[int, int, int, int]:
    pad = (CELL - TILE) // 2
    return x + pad, y + pad, x + pad + TILE, y + pad + TILE


# --------------------------------------------------------------------------- sprites


def _shape_points(kind: str, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    if kind == "triangle":
        return [(cx, cy - r), (cx + r * 0.95, cy + r * 0.75), (cx - r * 0.95, cy + r * 0.75)]
    if kind == "diamond":
        return [(cx, cy - r), (cx + r * 0.8, cy), (cx, cy + r), (cx - r * 0.8, cy)]
    if kind == "star":
        pts = []
        for i in range(10):
            a = -math.pi / 2 + i * math.pi / 5
            rr = r if i % 2 == 0 else r * 0.45
            pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
        return pts
    raise ValueError(kind)


def _draw_shape(
    d: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float, **kw: Any
) -> None:
    if kind == "circle":
        d.ellipse((cx - r * 0.85, cy - r * 0.85, cx + r * 0.85, cy + r * 0.85), **kw)
    elif kind == "square":
        s = r * 0.75
        d.rectangle((cx - s, cy - s, cx + s, cy + s), **kw)
    else:
        d.polygon(_shape_points(kind, cx, cy, r), **kw)


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return (int(hex_colour[1:3], 16), int(hex_colour[3:5], 16), int(hex_colour[5:7], 16))


def _blend(hex_a: str, hex_b: str, t: float) -> tuple[int, int, int]:
    """``hex_a`` moved a fraction ``t`` towards ``hex_b``."""
    a, b = _rgb(hex_a), _rgb(hex_b)
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


SHADOW = 3


@cache
def tile_sprite(letter: str, size: int, faint: bool = False) -> Image.Image:
    """A tile: colour, shape mark at the left, letter at the right, and a drop shadow so a
    placed tile stands out. ``faint``: the printed colour of an empty wall space (flat, pale,
    thin outline, no shadow)."""
    ss = 3
    w = size * ss
    extra = 0 if faint else SHADOW * ss
    big = Image.new("RGBA", (w + extra, w + extra), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    fill = FILL[letter]
    mark = MARK[letter]
    if faint:
        fill_rgb = _blend(fill, BOARD_BG, 0.8)
        # the mark of a pale space is a paler version of the tile's most visible colour
        mark_rgb = _blend(MARK["W"] if letter == "W" else fill, BOARD_BG, 0.5)
        edge = _blend(fill if letter != "W" else MARK["W"], BOARD_BG, 0.7)
        d.rounded_rectangle(
            (0, 0, w - 1, w - 1), radius=w // 7, fill=fill_rgb, outline=edge, width=ss
        )
    else:
        fill_rgb = _rgb(fill)
        mark_rgb = _rgb(mark)
        edge = _blend(fill, "#000000", 0.55)
        d.rounded_rectangle(
            (extra, extra, w - 1 + extra, w - 1 + extra), radius=w // 7, fill=(0, 0, 0, 110)
        )
        d.rounded_rectangle(
            (0, 0, w - 1, w - 1), radius=w // 7, fill=fill_rgb, outline=edge, width=2 * ss
        )
    _draw_shape(d, SHAPES[letter], w * 0.30, w * 0.5, w * 0.2, fill=mark_rgb)
    full = (size + extra // ss, size + extra // ss)
    sprite = big.resize(full, Image.Resampling.LANCZOS)
    sd = ImageDraw.Draw(sprite)
    f = font(max(16, size * 2 // 5), True)
    sd.text((size * 0.73, size * 0.5), letter, font=f, fill=mark_rgb, anchor="mm")
    return sprite


@cache
def marker_sprite(size: int) -> Image.Image:
    ss = 3
    w = size * ss
    big = Image.new("RGBA", (w, w), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rounded_rectangle(
        (0, 0, w - 1, w - 1), radius=w // 7, fill="#FFFFFF", outline=INK, width=ss * 2
    )
    sprite = big.resize((size, size), Image.Resampling.LANCZOS)
    sd = ImageDraw.Draw(sprite)
    sd.text((size / 2, size / 2), "1", font=font(max(18, size // 2), True), fill=INK, anchor="mm")
    return sprite


# --------------------------------------------------------------------------- static layer


@cache
def _background(players: int, grey: bool, lang: str) -> Image.Image:
    """Everything that never changes for this player count, wall kind and language."""
    lay = layout(players)
    ss = 2
    img = Image.new("RGB", (WIDTH * ss, lay.height * ss), BACKGROUND)
    d = ImageDraw.Draw(img)
    # table
    d.rounded_rectangle(
        (MARGIN * ss, HEADER_H * ss, (WIDTH - MARGIN) * ss, (HEADER_H + TABLE_H) * ss),
        radius=14 * ss,
        fill=TABLE_BG,
    )
    for cx, cy in lay.factories:
        r = FAC_D // 2
        d.ellipse(
            ((cx - r) * ss, (cy - r) * ss, (cx + r) * ss, (cy + r) * ss),
            fill="#F6F1E7",
            outline="#9C8B70",
            width=2 * ss,
        )
    x0, y0, x1, y1 = lay.centre_box
    d.rounded_rectangle(
        (x0 * ss, y0 * ss, x1 * ss, y1 * ss),
        radius=12 * ss,
        fill="#F6F1E7",
        outline="#9C8B70",
        width=2 * ss,
    )
    # boards
    for bx, by in lay.boards:
        d.rounded_rectangle(
            (bx * ss, by * ss, (bx + BOARD_W) * ss, (by + BOARD_H) * ss),
            radius=14 * ss,
            fill=BOARD_BG,
            outline="#B9AD98",
            width=2 * ss,
        )
        for i in range(5):
            for j in range(i + 1):
                x = bx + LINES_X + (4 - j) * CELL
                y = by + GRID_Y + i * CELL
                b = _cell_box(x, y)
                d.rounded_rectangle(
                    [v * ss for v in b],
                    radius=5 * ss,
                    fill=EMPTY_CELL,
                    outline=EMPTY_EDGE,
                    width=ss,
                )
        for f in range(7):
            x = bx + FLOOR_X + f * CELL
            b = _cell_box(x, by + FLOOR_Y)
            d.rounded_rectangle(
                [v * ss for v in b], radius=5 * ss, fill="#EADCD6", outline="#C7A79C", width=ss
            )
        if grey:
            for r in range(5):
                for c in range(5):
                    b = _cell_box(bx + WALL_X + c * CELL, by + GRID_Y + r * CELL)
                    d.rounded_rectangle(
                        [v * ss for v in b],
                        radius=5 * ss,
                        fill="#D6D6D6",
                        outline="#B0B0B0",
                        width=ss,
                    )
        # arrows from lines to wall
        for i in range(5):
            y = (by + GRID_Y + i * CELL + CELL // 2) * ss
            x = (bx + LINES_X + 5 * CELL + 12) * ss
            d.polygon([(x, y - 7 * ss), (x + 14 * ss, y), (x, y + 7 * ss)], fill="#B9AD98")
    img = img.reduce(ss)
    d = ImageDraw.Draw(img)
    # text and sprites after the reduce
    small = font(16)
    for bx, by in lay.boards:
        if not grey:
            for r in range(5):
                for c in range(5):
                    letter = LETTERS[(c - r) % 5]
                    x0, y0, _, _ = _cell_box(bx + WALL_X + c * CELL, by + GRID_Y + r * CELL)
                    img.paste(
                        tile_sprite(letter, TILE, True), (x0, y0), tile_sprite(letter, TILE, True)
                    )
        for f, pen in enumerate((1, 1, 2, 2, 2, 3, 3)):
            x = bx + FLOOR_X + f * CELL + CELL // 2
            d.text((x, by + FLOOR_Y + CELL + 1), f"−{pen}", font=small, fill="#8A4B3C", anchor="mt")
        d.text(
            (bx + FLOOR_X, by + FLOOR_Y + 2),
            t("pic.azul.floor", lang),
            font=small,
            fill=MUTED,
            anchor="lb",
        )
    d.text(
        (lay.centre_box[0] + 10, lay.centre_box[1] + 4),
        t("pic.azul.centre", lang),
        font=small,
        fill=MUTED,
    )
    _legend(img, lay, grey, lang)
    return img


def _colour(letter: str, lang: str) -> str:
    return t(f"pic.azul.colour.{letter}", lang)


def _legend(img: Image.Image, lay: Layout, grey: bool, lang: str) -> None:
    d = ImageDraw.Draw(img)
    f = font(18)
    if lay.legend_box is not None:
        x, y = lay.legend_box
        d.text((x + 12, y + 8), t("pic.azul.tiles", lang), font=font(20, True), fill=INK)
        for i, letter in enumerate(LETTERS):
            yy = y + 44 + i * 54
            img.paste(tile_sprite(letter, TILE), (x + 12, yy), tile_sprite(letter, TILE))
            d.text(
                (x + 70, yy + TILE // 2),
                t(
                    "pic.azul.tile_legend",
                    lang,
                    letter=letter,
                    colour=_colour(letter, lang),
                    shape=t(f"pic.azul.shape.{SHAPES[letter]}", lang),
                ),
                font=f,
                fill=INK,
                anchor="lm",
            )
        yy = y + 44 + 5 * 54
        img.paste(marker_sprite(TILE), (x + 12, yy), marker_sprite(TILE))
        marker = t("pic.azul.marker_long", lang)
        d.text((x + 70, yy + TILE // 2), marker, font=f, fill=INK, anchor="lm")
        examples = [
            (62, t("pic.azul.move_example", lang, move="F3-R-2")),
            (88, t("pic.azul.move_example_centre", lang, move="C-B-F")),
        ]
        if grey:
            examples.append((114, t("pic.azul.move_example_grey", lang, move="col-3")))
        for dy, text in examples:
            d.text((x + 12, yy + dy), text, font=f, fill=MUTED)
        return
    y = lay.height - LEGEND_H + 6
    x = MARGIN + 4
    for letter in LETTERS:
        sp = tile_sprite(letter, 32)
        img.paste(sp, (x, y), sp)
        text = _colour(letter, lang)
        d.text((x + 38, y + 16), text, font=f, fill=INK, anchor="lm")
        x += 38 + int(f.getlength(text)) + 22
    mk = marker_sprite(32)
    img.paste(mk, (x, y), mk)
    d.text((x + 38, y + 16), t("pic.azul.marker", lang), font=f, fill=INK, anchor="lm")
    d.text(
        (WIDTH - MARGIN - 4, y + 16),
        t("pic.azul.move_short", lang, moves="F3-R-2 · C-B-F" + (" · col-3" if grey else "")),
        font=f,
        fill=MUTED,
        anchor="rm",
    )


# --------------------------------------------------------------------------- dynamic layer


def _paste(img: Image.Image, sprite: Image.Image, x: int, y: int) -> None:
    img.paste(sprite, (x, y), sprite)


def _seat_chip(d: ImageDraw.ImageDraw, seat: int, name: str, x: int, y: int, r: int = 17) -> None:
    d.ellipse((x - r, y - r, x + r, y + r), fill=player_colour(seat), outline=INK, width=2)
    initial = (name.strip()[:1] or str(seat + 1)).upper()
    d.text((x, y), initial, font=font(20, True), fill=player_text_colour(seat), anchor="mm")


def _draw_table(
    img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], lay: Layout, lang: str
) -> None:
    num = font(16, True)
    for i, ((cx, cy), tiles) in enumerate(zip(lay.factories, view["factories"], strict=True)):
        d.text((cx, cy - FAC_D // 2 - 1), str(i + 1), font=num, fill=INK, anchor="mb")
        for j, letter in enumerate(tiles):
            x = cx - FAC_TILE - 2 + (j % 2) * (FAC_TILE + 4)
            y = cy - FAC_TILE - 2 + (j // 2) * (FAC_TILE + 4)
            _paste(img, tile_sprite(letter, FAC_TILE), x, y)
        if not tiles:
            d.text((cx, cy), t("pic.azul.empty", lang), font=font(16), fill=MUTED, anchor="mm")
    x0, y0, x1, y1 = lay.centre_box
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


def _draw_board(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    p: dict[str, Any],
    name: str,
    origin: tuple[int, int],
    pending: dict[str, Any] | None,
    lang: str,
) -> None:
    bx, by = origin
    seat = p["seat"]
    acting = seat in view["to_act"]
    if acting:
        d.rounded_rectangle(
            (bx, by, bx + BOARD_W, by + BOARD_H), radius=14, outline=HIGHLIGHT, width=6
        )
        d.rounded_rectangle(
            (bx + 3, by + 3, bx + BOARD_W - 3, by + BOARD_H - 3), radius=12, outline=INK, width=1
        )
    _seat_chip(d, seat, name, bx + 32, by + 30)
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
        tag = "  " + t(key, lang)
    elif view["outcome"] and seat in view["outcome"]["winners"]:
        tag = "  " + t("pic.azul.winner", lang)
    nf = font(24, True)
    label = fit_text(name, nf, name_room - int(font(18, True).getlength(tag)))
    d.text((bx + 58, by + 30), label, font=nf, fill=INK, anchor="lm")
    if tag:
        d.text(
            (bx + 58 + int(nf.getlength(label)), by + 31),
            tag,
            font=font(18, True),
            fill="#8A6A00",
            anchor="lm",
        )
    # pattern lines, right to left
    for i, line in enumerate(p["lines"]):
        letter = line["colour"]
        for j in range(line["count"]):
            x0, y0, _, _ = _cell_box(bx + LINES_X + (4 - j) * CELL, by + GRID_Y + i * CELL)
            _paste(img, tile_sprite(letter, TILE), x0, y0)
    # wall
    for r, row in enumerate(p["wall"]):
        for c, letter in enumerate(row):
            if letter:
                x0, y0, _, _ = _cell_box(bx + WALL_X + c * CELL, by + GRID_Y + r * CELL)
                _paste(img, tile_sprite(letter, TILE), x0, y0)
    if pending is not None:
        r = pending["line"] - 1
        y = by + GRID_Y + r * CELL
        d.rectangle(
            (bx + LINES_X - 4, y, bx + LINES_X + 5 * CELL + 2, y + CELL), outline=HIGHLIGHT, width=4
        )
        for c in pending["columns"]:
            x = bx + WALL_X + (c - 1) * CELL
            d.rectangle((x, y, x + CELL, y + CELL), outline="#8A6A00", width=4)
            d.text(
                (x + CELL // 2, y + CELL // 2),
                str(c),
                font=font(22, True),
                fill="#8A6A00",
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
        x0, y0, _, _ = _cell_box(bx + FLOOR_X + f * CELL, by + FLOOR_Y)
        _paste(img, marker_sprite(TILE) if item == "M" else tile_sprite(item, TILE), x0, y0)
    if p["floor_penalty"]:
        d.text(
            (bx + FLOOR_X + 7 * CELL + 12, by + FLOOR_Y + CELL // 2),
            f"{p['floor_penalty']}".replace("-", "−"),
            font=font(24, True),
            fill="#8A2B1C",
            anchor="lm",
        )
    if p["has_marker"] and "M" not in p["floor"]:
        _paste(img, marker_sprite(32), bx + BOARD_W - 48, by + FLOOR_Y + 10)


def draw(
    view: dict[str, Any], names: list[str], seat: int | None = None, lang: str = "en"
) -> Image.Image:
    """The public picture (Azul has no private information, so ``seat`` changes nothing),
    with its words in ``lang`` (a language or Discord locale; English when unknown)."""
    lang = picture_language(lang)
    view = ended_view(view)  # resigned or aborted: nobody to move, the end in words
    n = view["player_count"]
    names = [
        names[i] if i < len(names) and names[i] else t("pic.common.player", lang, n=i + 1)
        for i in range(n)
    ]
    lay = layout(n)
    img = _background(n, bool(view["grey_wall"]), lang).copy()
    d = ImageDraw.Draw(img)
    _draw_table(img, d, view, lay, lang)
    pending = {q["seat"]: q for q in view.get("pending") or []}
    for p, origin in zip(view["players"], lay.boards, strict=True):
        _draw_board(img, d, view, p, names[p["seat"]], origin, pending.get(p["seat"]), lang)
    band = Band(
        game=t("pic.azul.title", lang),
        stage=" · ".join(
            [t("pic.azul.stage", lang, round=view["round"])]
            + ([t("pic.azul.grey_wall", lang)] if view["grey_wall"] else [])
            + [t("pic.azul.bag_lid", lang, bag=view["bag"], lid=view["lid"])]
        ),
        acting=list(view["to_act"]),
        action=action_words(say(view["status"], lang, names)),
        scores=[(p["seat"], str(p["score"])) for p in view["players"]],
        last=view.get("last_move"),
        away=away_words(view, names, lang),
        places=final_places(view),
    )
    letters = [(name[:1] or str(i + 1)).upper() for i, name in enumerate(names)]
    return with_band(header_band(img.width, band, letters, lang), img)
