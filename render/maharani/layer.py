"""The picture's static layer: what stays the same from turn to turn of a game, drawn once
and copied for every picture — the floor with its empty spaces' pillar marks, coordinates and
rondel block (:func:`render.maharani.pieces.board_layer`), and the panel's title, seat box
frames and legends (:func:`render.maharani.panel.panel_static`).

Its key is everything that changes those pixels: the board's spaces, the quarters' animals,
the tile colours, the quarter table, the number of players and the language. A cached layer
is never drawn on: every picture draws on its own copy.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from render.maharani.panel import panel_static
from render.maharani.pieces import BoardKey, board_layer


@lru_cache(maxsize=6)  # ~6.7 MB each: a few languages and player counts at once
def static_layer(
    spaces: BoardKey,
    animals: tuple[str, ...],
    colours: tuple[str, ...],
    quarter_gold: tuple[int, ...],
    players: int,
    lang: str,
) -> Image.Image:
    img = board_layer(spaces, animals).copy()
    panel_static(img, players, colours, quarter_gold, lang)
    return img
