"""Each game's fixed PNG palette, read from ``palettes.json`` beside this module.

Why a palette per game: :func:`render.common.encode_png` spent about half its time learning
a palette for every picture and building Pillow's nearest-colour table for it. A game's
pictures share their colours (board, player colours, tile colours and their anti-aliased
blends), so one palette per game fits them as well as each picture's own (measured: same
worst and mean error) and its table is built once per worker. Pictures it does not fit (a
colour added since the file was written) get their own palette, so a stale file costs
speed, never colours; ``tests/test_picture_encoding.py`` tells when the file needs writing
again (``python -m render.palette --write``, see :mod:`render.palette`).

Why apart from the writer: drawing needs only the stored palettes, while writing them
draws pictures through :mod:`render.registry`, which reads the palettes here. Kept in one
module the two imported each other.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from render.common import FixedPalette

FILE = "palettes.json"


@cache
def _stored() -> dict[str, str]:
    with resources.files("render").joinpath(FILE).open(encoding="utf-8") as handle:
        data: dict[str, str] = json.load(handle)
    return data


@cache
def game_palette(game_id: str) -> FixedPalette | None:
    """The fixed palette of ``game_id`` (None for a game without one: its pictures learn
    their own)."""
    colours = _stored().get(game_id)
    return FixedPalette(bytes.fromhex(colours)) if colours else None
