"""The Azul picture: many random states draw without error, small PNGs, public view only."""

from __future__ import annotations

import pytest

from render.azul import WIDTH, draw, layout_for
from render.common import encode_png
from render.game_palettes import game_palette
from render.header import band_height
from render.registry import render_png
from rules.azul import GAME
from rules.rng import Rng

NAMES = ["Zsófia", "Łukasz", "Jürgen Weißmüller-Ödön the Extremely Long Name", "Ann"]


def _states(players: int, grey: bool, seed: int, every: int = 9) -> list[dict]:
    """States along one random game (a sample of them, plus the final one)."""
    s = GAME.setup(players, seed, {"grey_wall": grey})
    pick = Rng(seed)
    out = [s]
    step = 0
    while GAME.to_act(s):
        seat = GAME.to_act(s)[0]
        moves = GAME.legal_moves(s, seat)
        s, _ = GAME.apply(s, seat, moves[pick.below(len(moves))])
        step += 1
        if step % every == 0 or s["phase"] == "tiling":
            out.append(s)
    out.append(s)
    return out


@pytest.mark.parametrize("grey", [False, True])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_many_states_draw_small_pngs(players: int, grey: bool) -> None:
    for state in _states(players, grey, seed=players * 10 + grey, every=15):
        view = GAME.view(state, None)
        lay = layout_for(view)  # the final picture is taller: its score breakdown
        img = draw(view, NAMES[:players], None)
        # the band: two rows, or more when who-must-act takes more than one (never cut)
        bands = {band_height(WIDTH, last=False, action_rows=rows) for rows in (1, 2, 3)}
        assert img.width == WIDTH and img.height - lay.height in bands
        png = encode_png(img)
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert len(png) < 400 * 1024


def test_public_picture_is_the_same_for_every_seat_and_from_the_registry() -> None:
    state = _states(3, False, seed=4)[3]
    public = GAME.view(state, None)
    for seat in range(3):
        assert GAME.view(state, seat) == public
    png = render_png("azul", public, NAMES[:3], None)
    assert png == encode_png(draw(public, NAMES[:3], None), game_palette("azul"))
    assert png == render_png("azul", GAME.view(state, 1), NAMES[:3], 1)


def test_missing_or_empty_names_fall_back_to_seat_numbers() -> None:
    view = GAME.view(GAME.setup(4, 2), None)
    img = draw(view, ["", "B"], None)
    assert img.size[0] == WIDTH


def test_grey_wall_pending_choice_is_drawn() -> None:
    states = [s for s in _states(2, True, seed=8, every=1000) if s["phase"] == "tiling"]
    assert states
    view = GAME.view(states[0], None)
    assert view["pending"]
    blank = dict(view, pending=[])
    assert draw(view, NAMES[:2]).tobytes() != draw(blank, NAMES[:2]).tobytes()
