"""PNG encoding (render/common.py, render/palette.py): a picture's bytes depend only on the
picture and its game, never on what was drawn before; each game's stored palette still fits
its pictures; a colour the palette lacks is kept; the PNG decodes to the mapped pixels."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from render.common import FixedPalette, encode_png
from render.game_palettes import game_palette
from render.registry import render_image, render_png
from rules import get_game
from rules.playout import random_playout

NAMES = ["Zsófia", "Łukasz", "Jürgen", "Ann", "Bea"]
GAMES = ["azul", "taj-mahal", "maharani", "pastiche"]  # the games with a stored palette


def _states(game_id: str, players: int, seed: int, count: int) -> list[dict]:
    game = get_game(game_id)
    states: list[dict] = []
    random_playout(game, players, seed, on_step=lambda old, *_: states.append(old))
    return states[:: max(1, len(states) // count)][:count] + states[-1:]


def _decoded(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def test_same_state_same_bytes_whatever_was_drawn_before() -> None:
    """The same view gives the same PNG first, after other states and games were drawn and
    encoded (warming the palettes' colour tables with other colours), and with a palette
    object that has never mapped anything."""
    firsts: dict[str, tuple[dict, int, bytes]] = {}
    for game_id in GAMES:
        game = get_game(game_id)
        players = game.min_players + 1
        state = _states(game_id, players, seed=5, count=3)[-2]
        view = game.view(state, None)
        firsts[game_id] = (view, players, render_png(game_id, view, NAMES[:players]))
    for game_id in GAMES:  # other pictures in between: every game, more players
        game = get_game(game_id)
        for state in _states(game_id, game.max_players, seed=6, count=2):
            render_png(game_id, game.view(state, None), NAMES[: game.max_players])
    for game_id, (view, players, first) in firsts.items():
        assert render_png(game_id, view, NAMES[:players]) == first, game_id
        stored = game_palette(game_id)
        assert stored is not None
        fresh = FixedPalette(stored.colours)

        picture = render_image(game_id, view, NAMES[:players])
        assert encode_png(picture, fresh) == first, game_id


@pytest.mark.parametrize("game_id", GAMES)
def test_stored_palette_fits_the_games_pictures(game_id: str) -> None:
    """Each game's pictures (public and private, fewest and most players) are encoded with
    its stored palette, not a palette of their own: if this fails, a renderer's colours
    changed; write the file again with ``python -m render.palette --write``."""
    game = get_game(game_id)
    palette = game_palette(game_id)
    assert palette is not None, "no stored palette: python -m render.palette --write"
    stored = set(zip(*[iter(palette.colours)] * 3, strict=True))
    for players in (game.min_players, game.max_players):
        for state in _states(game_id, players, seed=players + 20, count=2):
            for seat in (None, 0):
                png = render_png(game_id, game.view(state, seat), NAMES[:players], seat)
                used = _decoded(png).getpalette() or []
                assert set(zip(*[iter(used)] * 3, strict=True)) <= stored, (
                    f"{game_id} {players}p seat {seat}: the stored palette no longer fits; "
                    "run python -m render.palette --write"
                )
                assert len(png) < 400 * 1024


def test_a_colour_the_palette_lacks_is_kept() -> None:
    """A picture with a large area in a colour far from every palette entry gets its own
    palette (the area keeps its colour) instead of being forced onto the game's."""
    game = get_game("azul")
    palette = game_palette("azul")
    assert palette is not None

    picture = render_image("azul", game.view(game.setup(2, 1), None), NAMES[:2]).convert("RGB")
    odd = (1, 254, 3)
    palette_rgb = list(zip(*[iter(palette.colours)] * 3, strict=True))
    assert min(sum(abs(a - b) for a, b in zip(c, odd, strict=True)) for c in palette_rgb) > 60
    ImageDraw.Draw(picture).rectangle((100, 300, 220, 380), fill=odd)
    decoded = _decoded(encode_png(picture, palette)).convert("RGB")
    got = decoded.getpixel((160, 340))
    assert isinstance(got, tuple)
    assert max(abs(a - b) for a, b in zip(got, odd, strict=True)) <= 8


def test_png_decodes_to_the_mapped_pixels() -> None:
    """The hand-written PNG is a valid 8-bit palette PNG holding exactly the mapped image."""
    game = get_game("maharani")
    palette = game_palette("maharani")
    assert palette is not None

    state = _states("maharani", 3, seed=8, count=2)[1]
    picture = render_image("maharani", game.view(state, None), NAMES[:3]).convert("RGB")
    decoded = _decoded(encode_png(picture, palette))
    expected = palette.quantize(picture)
    assert decoded.mode == "P" and decoded.size == picture.size
    assert decoded.convert("RGB").tobytes() == expected.convert("RGB").tobytes()
    # without a game palette: the picture's own palette, still exact to its own mapping
    own = _decoded(encode_png(picture))
    assert own.size == picture.size and own.mode == "P"
