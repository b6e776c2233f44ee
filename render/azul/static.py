"""What never changes for a player count, wall kind, picture kind and language: the table
(or, on the final picture, the breakdown's panel), empty boards, the faint printed wall,
floor penalties and the legend. Drawn once at 2x, reduced and cached per language."""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw, ImageFont

from render.azul.geometry import (
    BOARD_H,
    BOARD_W,
    CELL,
    FLOOR_X,
    FLOOR_Y,
    GRID_Y,
    HEADER_H,
    LEGEND_H,
    LINES_X,
    MARGIN,
    TILE,
    WALL_X,
    WIDTH,
    Layout,
    cell_box,
    layout,
)
from render.azul.sprites import (
    BOARD_BG,
    DISC_EDGE,
    DISC_FILL,
    EMPTY_CELL,
    EMPTY_EDGE,
    LETTERS,
    SHAPES,
    TABLE_BG,
    frame_new,
    marker_sprite,
    tile_sprite,
)
from render.common import BACKGROUND, INK, MUTED, font, smallest_size
from render.words.catalogue import t


@cache
def background(
    players: int, grey: bool, lang: str, final: bool = False, footnote: bool = False
) -> Image.Image:
    """Everything that never changes for this player count, wall kind, picture kind and
    language (``final``: the breakdown's panel instead of factories and centre)."""
    lay = layout(players, final, footnote)
    ss = 2
    img = Image.new("RGB", (WIDTH * ss, lay.height * ss), BACKGROUND)
    d = ImageDraw.Draw(img)
    # table
    d.rounded_rectangle(
        (MARGIN * ss, HEADER_H * ss, (WIDTH - MARGIN) * ss, (HEADER_H + lay.table_h) * ss),
        radius=14 * ss,
        fill=DISC_FILL if final else TABLE_BG,
        outline=DISC_EDGE if final else None,
        width=2 * ss,
    )
    if not final:
        for cx, cy in lay.factories:
            r = 104 // 2
            d.ellipse(
                ((cx - r) * ss, (cy - r) * ss, (cx + r) * ss, (cy + r) * ss),
                fill=DISC_FILL,
                outline=DISC_EDGE,
                width=2 * ss,
            )
        x0, y0, x1, y1 = lay.centre_box
        d.rounded_rectangle(
            (x0 * ss, y0 * ss, x1 * ss, y1 * ss),
            radius=12 * ss,
            fill=DISC_FILL,
            outline=DISC_EDGE,
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
                b = cell_box(x, y)
                d.rounded_rectangle(
                    [v * ss for v in b],
                    radius=5 * ss,
                    fill=EMPTY_CELL,
                    outline=EMPTY_EDGE,
                    width=ss,
                )
        for f in range(7):
            x = bx + FLOOR_X + f * CELL
            b = cell_box(x, by + FLOOR_Y)
            d.rounded_rectangle(
                [v * ss for v in b], radius=5 * ss, fill="#EADCD6", outline="#C7A79C", width=ss
            )
        if grey:
            for r in range(5):
                for c in range(5):
                    b = cell_box(bx + WALL_X + c * CELL, by + GRID_Y + r * CELL)
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
                    x0, y0, _, _ = cell_box(bx + WALL_X + c * CELL, by + GRID_Y + r * CELL)
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
    if not final:
        d.text(
            (lay.centre_box[0] + 10, lay.centre_box[1] + 4),
            t("pic.azul.centre", lang),
            font=small,
            fill=MUTED,
        )
    _legend(img, lay, grey, lang)
    return img


def colour_word(letter: str, lang: str) -> str:
    return t(f"pic.azul.colour.{letter}", lang)


def _new_sample(img: Image.Image, x: int, y: int, size: int) -> None:
    """A tile framed as the last move's, for the legend."""
    sprite = tile_sprite("B", size)
    img.paste(sprite, (x, y), sprite)
    frame_new(ImageDraw.Draw(img), (x, y, x + size, y + size), radius=max(4, size // 7))


def _legend(img: Image.Image, lay: Layout, grey: bool, lang: str) -> None:
    d = ImageDraw.Draw(img)
    f = font(18)
    if lay.legend_box is not None:
        x, y = lay.legend_box
        d.text((x + 12, y + 8), t("pic.azul.tiles", lang), font=font(20, True), fill=INK)
        pitch = 48
        for i, letter in enumerate(LETTERS):
            yy = y + 40 + i * pitch
            img.paste(tile_sprite(letter, TILE), (x + 12, yy), tile_sprite(letter, TILE))
            d.text(
                (x + 70, yy + TILE // 2),
                t(
                    "pic.azul.tile_legend",
                    lang,
                    letter=letter,
                    colour=colour_word(letter, lang),
                    shape=t(f"pic.azul.shape.{SHAPES[letter]}", lang),
                ),
                font=f,
                fill=INK,
                anchor="lm",
            )
        yy = y + 40 + 5 * pitch
        img.paste(marker_sprite(TILE), (x + 12, yy), marker_sprite(TILE))
        marker = t("pic.azul.marker_long", lang)
        d.text((x + 70, yy + TILE // 2), marker, font=f, fill=INK, anchor="lm")
        yy += pitch + 2
        _new_sample(img, x + 14, yy, TILE - 4)
        d.text(
            (x + 70, yy + TILE // 2), t("pic.azul.last_move", lang), font=f, fill=INK, anchor="lm"
        )
        examples = [
            t("pic.azul.move_example", lang, move="F3-R-2"),
            t("pic.azul.move_example_centre", lang, move="C-B-F"),
        ]
        if grey:
            examples.append(t("pic.azul.move_example_grey", lang, move="col-3"))
        for i, text in enumerate(examples):
            d.text((x + 12, yy + 54 + 23 * i), text, font=f, fill=MUTED)
        return
    y = lay.height - LEGEND_H + 6
    words = [colour_word(letter, lang) for letter in LETTERS]
    words += [t("pic.azul.marker", lang), t("pic.azul.last_move", lang)]
    moves = t("pic.azul.move_short", lang, moves="F3-R-2 · C-B-F" + (" · col-3" if grey else ""))
    f = _row_font(words, moves, WIDTH - 2 * MARGIN - 8)
    x = MARGIN + 4
    for i, text in enumerate(words):
        if i < len(LETTERS):
            sp = tile_sprite(LETTERS[i], 32)
            img.paste(sp, (x, y), sp)
        elif i == len(LETTERS):
            img.paste(marker_sprite(32), (x, y), marker_sprite(32))
        else:
            _new_sample(img, x + 4, y, 32)  # its frame reaches 4 px round the tile
            x += 8
        d.text((x + 38, y + 16), text, font=f, fill=INK, anchor="lm")
        x += 38 + int(f.getlength(text)) + LEGEND_GAP
    d.text((WIDTH - MARGIN - 4, y + 16), moves, font=f, fill=MUTED, anchor="rm")


#: room between the legend row's items (each a 32 px sprite, 6 px, its word)
LEGEND_GAP = 22


def _row_font(words: list[str], moves: str, room: int) -> ImageFont.FreeTypeFont:
    """The largest font (18 px down to the legible floor) in which the legend row's items
    and the move examples fit side by side: a longer language is set a little smaller."""
    smallest = smallest_size(WIDTH)
    for size in range(18, smallest - 1, -1):
        f = font(size)
        need = sum(38 + f.getlength(w) + LEGEND_GAP for w in words) + f.getlength(moves) + 8
        if need <= room:
            return f
    return font(smallest)
