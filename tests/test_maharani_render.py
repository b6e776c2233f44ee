"""Maharani pictures: many random states draw without error, in size and budget."""

from __future__ import annotations

from render.common import encode_png
from render.maharani import draw
from render.registry import render_png
from rules.maharani import GAME
from rules.rng import Rng

NAMES = ["Anna", "Bálint", "Csilla", "Łukasz"]


def _states(players: int, seed: int, every: int = 9) -> list[dict]:
    state = GAME.setup(players, seed)
    picker = Rng.from_seed(seed, "render-test")
    out = [state]
    k = 0
    while GAME.to_act(state):
        seat = GAME.to_act(state)[0]
        moves = GAME.legal_moves(state, seat)
        state, _ = GAME.apply(state, seat, moves[picker.below(len(moves))])
        k += 1
        if k % every == 0:
            out.append(state)
    out.append(state)
    return out


def test_random_states_draw_within_limits() -> None:
    for players in (2, 3, 4):
        for state in _states(players, players + 20, every=11):
            view = GAME.view(state, None)
            img = draw(view, NAMES[:players], None)
            assert 1200 <= img.width <= 1600
            png = encode_png(img)
            assert len(png) < 400_000


def test_picture_is_the_same_for_every_seat_and_comes_from_the_view() -> None:
    state = _states(3, 4)[3]
    public = render_png("maharani", GAME.view(state, None), NAMES[:3], None)
    for seat in range(3):
        assert render_png("maharani", GAME.view(state, seat), NAMES[:3], seat) == public


def test_missing_or_duplicate_names_still_draw() -> None:
    state = GAME.setup(4, 2)
    img = draw(GAME.view(state, None), ["Ann", "Ann"], None)
    assert img.width > 0
