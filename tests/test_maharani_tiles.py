"""Maharani's cached drawing parts give the pixels of drawing in place, and no cached part
shows a stale picture: tiles composed from parts are the reference tile, patches lie on
the plain colour they were drawn on, and a picture drawn after another one equals the same
picture drawn with every cache empty."""

from __future__ import annotations

import copy
import itertools
from typing import Any

import pytest
from PIL import Image, ImageChops

from render.maharani import board, draw, labels, layer, panel, pieces, tiles
from rules.maharani import GAME
from rules.rng import Rng

SIDES = ("N", "E", "S", "W")
NAMES = ["Anna", "Bálint", "Csilla", "Łukasz"]


def _reference(bg: str, fill: str, letter: str, arrow: str, sides: Any, centre: bool, size: int):
    laid = Image.new("RGB", (size, size), bg)
    sprite = pieces.tile_sprite(fill, letter, arrow, sides, centre, size)
    laid.paste(sprite, (0, 0), sprite)
    return laid


@pytest.mark.parametrize(
    ("size", "bg"),
    [(pieces.CELL - 2 * board.TILE_INSET, pieces.FLOOR), (board.MINI, pieces.RONDEL_FILL)],
)
def test_a_composed_tile_is_the_drawn_tile(size: int, bg: str) -> None:
    """Every arrow with every set of pillar marks, on a dark and a light colour, and every
    colour with its letter: the patch is the reference sprite laid on its background."""
    fills = [pieces.TILE_FILL["blue"], pieces.TILE_FILL["orange"]]
    for fill, arrow, centre in itertools.product(fills, SIDES, (False, True)):
        for k in range(5):
            for sides in itertools.combinations(SIDES, k):
                args = (bg, fill, "X", arrow, sides, centre, size)
                assert (
                    ImageChops.difference(tiles.tile_patch(*args), _reference(*args)).getbbox()
                    is None
                ), args
    for colour, fill in pieces.TILE_FILL.items():
        args = (bg, fill, pieces.tile_letter(colour), "W", ("N", "W"), True, size)
        assert ImageChops.difference(tiles.tile_patch(*args), _reference(*args)).getbbox() is None


def test_a_tiles_parts_never_share_a_block() -> None:
    """What makes the composition exact: two parts one tile can have (its arrow, its pillar
    marks) never touch the same 2x2 block of the 2x drawing."""
    for size in (pieces.CELL - 2 * board.TILE_INSET, board.MINI):
        masks = tiles.part_masks(size)
        for a, b in itertools.combinations(tiles.PARTS, 2):
            if a[0] == b[0] == "arrow":
                continue
            assert ImageChops.multiply(masks[a], masks[b]).getbbox() is None, (size, a, b)


def _plain(img: Image.Image, box: tuple[int, int, int, int], colour: str) -> bool:
    region = img.crop(box)
    return ImageChops.difference(region, Image.new("RGB", region.size, colour)).getbbox() is None


def test_patches_lie_on_their_plain_colour() -> None:
    """Under each opaque patch the static layer is the colour the patch was drawn on: the
    name plates on the board's edge, the rondel fields on its wood, a tile's see-through
    corners on the floor of every space."""
    view = GAME.view(GAME.setup(4, 1), None)
    key = tuple(
        (b["space"], b["r"], b["c"], b["q"], b["type"], tuple(b["half_pillars"]))
        for b in view["board"]
    )
    base = pieces.board_layer(key, tuple(view["animals"]))
    inset, plate = board.PLATE_INSET, pieces.CELL - 2 * board.PLATE_INSET + 1
    for r, c, _ in pieces._corner_cells():
        x, y = pieces._cell_xy(r, c)
        assert _plain(
            base, (x + inset, y + inset, x + inset + plate, y + inset + plate), pieces.BOARD_EDGE
        )
    for fld in view["rondel"]:
        r, c = board.FIELD_CELL[fld["quarter"]]
        x, y = pieces._cell_xy(r, c)
        ox = x + pieces.CELL - board.GAP - board.MINI if c == 3 else x + board.GAP
        oy = y + pieces.CELL - board.GAP - board.MINI if r == 3 else y + board.GAP
        assert _plain(base, (ox, oy, ox + board.MINI + 1, oy + board.MINI + 1), pieces.RONDEL_FILL)
    size = pieces.CELL - 2 * board.TILE_INSET
    see_through = pieces.tile_sprite("#000000", "", "N", (), False, size).getchannel("A")
    see_through = see_through.point(lambda a: 255 if a < 255 else 0)
    for b in view["board"]:
        x, y = pieces._cell_xy(b["r"], b["c"])
        under = base.crop(
            (
                x + board.TILE_INSET,
                y + board.TILE_INSET,
                x + board.TILE_INSET + size,
                y + board.TILE_INSET + size,
            )
        )
        floor = Image.new("RGB", under.size, pieces.FLOOR)
        wrong = ImageChops.difference(under, floor).convert("L").point(lambda v: 255 if v else 0)
        assert ImageChops.multiply(wrong, see_through).getbbox() is None, b["space"]


def _clear() -> None:
    for cached in (
        layer.static_layer,
        pieces.board_layer,
        tiles.tile_patch,
        tiles._parts,
        board.plate_patch,
        board._badge,
        board._empty_field,
        panel._chip_row,
        panel._active_frame,
        labels._patch,
    ):
        cached.cache_clear()


def _mid_game(players: int) -> dict[str, Any]:
    state = GAME.setup(players, 8)
    picker = Rng.from_seed(8, "tiles-test")
    for _ in range(40):
        seat = GAME.to_act(state)[0]
        moves = GAME.legal_moves(state, seat)
        state, _ = GAME.apply(state, seat, moves[picker.below(len(moves))])
    return GAME.view(state, None)


def _variants(view: dict[str, Any]) -> dict[str, tuple[dict[str, Any], str]]:
    """Views that differ from ``view`` in one thing a cache could miss, with a language."""
    out: dict[str, tuple[dict[str, Any], str]] = {"language": (view, "pl")}

    def changed(name: str, edit: Any) -> None:
        other = copy.deepcopy(view)
        edit(other)
        out[name] = (other, "en")

    changed("seat to move", lambda v: v.update(turn=(v["turn"] + 1) % v["players"]))
    changed("a marker", lambda v: v["markers"][0].__setitem__(0, not v["markers"][0][0]))
    changed(
        "a quarter scored", lambda v: v["quarters"][0].update(scored=not v["quarters"][0]["scored"])
    )
    changed(
        "empty spaces left", lambda v: v["quarters"][1].update(empty=v["quarters"][1]["empty"] + 1)
    )
    changed("the quarter table", lambda v: v.update(quarter_gold=[0, 5, 7, 9, 13, 18, 24]))
    changed("a colour", lambda v: v.update(colours=[*v["colours"][:-1], "silver"]))
    changed("the animals", lambda v: v.update(animals=list(reversed(v["animals"]))))
    changed("the big arrow", lambda v: v.update(arrow="S" if v["arrow"] != "S" else "N"))
    laid = next(b for b in view["board"] if b["colour"] is not None)
    changed(
        "a tile's arrow",
        lambda v: next(b for b in v["board"] if b["space"] == laid["space"]).update(
            arrow="E" if laid["arrow"] != "E" else "W"
        ),
    )
    field = next(f for f in view["rondel"] if f["colour"] is not None)
    changed(
        "a rondel tile's colour",
        lambda v: next(f for f in v["rondel"] if f["field"] == field["field"]).update(
            colour="red" if field["colour"] != "red" else "blue"
        ),
    )
    changed(
        "a rondel field emptied",
        lambda v: next(f for f in v["rondel"] if f["field"] == field["field"]).update(colour=None),
    )
    return out


@pytest.mark.parametrize("players", [2, 4])
def test_no_cache_shows_a_stale_picture(players: int) -> None:
    """A picture drawn right after another one (its caches warm) is the picture drawn with
    every cache empty, and differs from the first: each cache's key holds what it draws."""
    view = _mid_game(players)
    names = NAMES[:players]
    first = draw(view, names, None)
    for name, (other, lang) in _variants(view).items():
        draw(view, names, None, "en")
        warm = draw(other, names, None, lang)
        _clear()
        cold = draw(other, names, None, lang)
        assert ImageChops.difference(warm, cold).getbbox() is None, name
        assert ImageChops.difference(warm, first).getbbox() is not None, name


def test_a_pasted_label_is_the_drawn_label() -> None:
    """A label pasted from its cached patch has the pixels of ``ImageDraw.text`` at any
    fraction of a pixel and anchor; one reaching out of its plain box is drawn over what
    lies there (here a frame), as ``ImageDraw.text`` draws it."""
    from PIL import ImageDraw

    from render.common import font
    from render.maharani.labels import label

    def canvas() -> Image.Image:
        img = Image.new("RGB", (300, 80), "#FFF6C2")
        ImageDraw.Draw(img).rectangle((0, 0, 299, 79), outline="#000000", width=3)
        return img

    for text, anchor, xy in [
        ("Łukasz · 12 gold", "lm", (10.5, 40.25)),
        ("9 złota ★", "rm", (287.375, 39.5)),
        ("Süd ↓ · Arbeiter: 6", None, (12, 20.75)),
        ("a label far too long for its box, over the frame", "lm", (10, 40)),
    ]:
        drawn, pasted = canvas(), canvas()
        ImageDraw.Draw(drawn).text(xy, text, font=font(22, True), fill="#222222", anchor=anchor)
        label(pasted, xy, text, 22, "#222222", "#FFF6C2", (3, 3, 297, 77), bold=True, anchor=anchor)
        assert ImageChops.difference(drawn, pasted).getbbox() is None, text


@pytest.mark.parametrize("bg", [panel.ACTIVE_FILL, None])
def test_pasted_marker_chips_are_the_drawn_chips(bg: str | None) -> None:
    """A row of marker chips pasted from its cache has the pixels of the chips drawn in
    place: opaque on the box's plain fill, through its alpha where it reaches the frame."""
    from PIL import ImageDraw

    from render.common import INK, font

    markers, up = ("Lionäö ✓", "Peacockäöü ✗", "Łoś ✓"), (True, False, True)
    f, chip, tall = font(16, True), 14, 22
    frame = panel._active_frame()
    drawn, pasted = frame.copy(), frame.copy()
    top = frame.height - 1 - tall - 2 if bg is None else 40  # over the frame's inner edge
    d, cx = ImageDraw.Draw(drawn), 12
    for marker, is_up in zip(markers, up, strict=True):
        w = int(f.getlength(marker)) + chip
        d.rounded_rectangle(
            (cx, top, cx + w, top + tall),
            radius=8,
            fill="#F3E9CF" if is_up else "#555555",
            outline="#8A7A55" if is_up else "#222222",
        )
        fill = INK if is_up else "#FFFFFF"
        d.text((cx + w / 2, top + tall / 2), marker, font=f, fill=fill, anchor="mm")
        cx += w + 6
    row = panel._chip_row(markers, up, 16, chip, tall, bg)
    pasted.paste(row, (12, top), None if bg else row)
    assert ImageChops.difference(drawn, pasted).getbbox() is None
