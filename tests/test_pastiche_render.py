"""Pastiche pictures: many random states draw without error, stay small, and the public
picture is drawn from the public view (which holds no hand)."""

from __future__ import annotations

import json

from render.common import encode_png
from render.pastiche import draw
from render.pastiche.common import HAND_W
from rules.pastiche import GAME
from rules.playout import random_playout

NAMES = ["Detti", "Gábor", "Móni", "Dunda"]


def _states(players: int, seed: int, every: int) -> list[dict]:
    out: list[dict] = []

    def grab(old, seat, move, new, events) -> None:
        if len(out) < 400 and (new["over"] or (sum(new["turns"]) + len(new["board"])) % every == 0):
            out.append(new)

    random_playout(GAME, players, seed, on_step=grab)
    return out[:: max(1, len(out) // 6)] + out[-1:]


def test_pictures_for_many_states_are_small_and_sized_for_phones() -> None:
    for players, seed in ((2, 21), (3, 22), (4, 23)):
        for state in _states(players, seed, 9):
            for seat in (None, state["cur"]):
                view = GAME.view(state, seat)
                img = draw(view, NAMES[:players], seat)
                # public: a wide board; the hand: a phone-shaped column
                assert 1100 <= img.width <= 1600 if seat is None else 400 <= img.width <= 600
                png = encode_png(img)
                assert len(png) < 400_000


def test_public_picture_uses_only_the_public_view() -> None:
    state, _ = random_playout(GAME, 3, 5)
    view = GAME.view(state, None)
    assert "me" not in view
    text = json.dumps(view)
    for p in state["players"]:
        for cid in p["hand"]:
            assert f'"{cid}"' not in text
    img = draw(view, NAMES[:3], None)
    assert img.width >= 1200
    # a private view handed in with seat=None still draws the public picture
    private = GAME.view(state, 0)
    assert draw(private, NAMES[:3], None).size == img.size


def test_private_picture_needs_the_seats_view() -> None:
    state = GAME.setup(2, 4)
    img = draw(GAME.view(state, 0), NAMES[:2], 0)
    assert img.width == HAND_W <= 600 and img.height > 300
