"""Renderers by game id. Each game's module offers
``draw(view, names, seat, lang="en") -> PIL.Image.Image`` where ``view`` is exactly what
``rules.Game.view(state, seat)`` returned, so a picture can never show more than its
viewer may see, and ``lang`` (a language or Discord locale) picks the words drawn from the
catalogue in :mod:`render.words.catalogue` (English when unknown)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from typing import Any

from PIL import Image

from render.common import FixedPalette, encode_png
from render.game_palettes import game_palette

Drawer = Callable[[dict[str, Any], list[str], "int | None", str], Image.Image]

_RENDERERS: dict[str, str] = {
    "azul": "render.azul:draw",
    "taj-mahal": "render.taj_mahal:draw",
    "maharani": "render.maharani:draw",
    "pastiche": "render.pastiche:draw",
}


def register_renderer(game_id: str, target: str) -> None:
    """Add a renderer at run time (``"module:function"``), beside ``register_game``."""
    _RENDERERS[game_id] = target


def renderer_target(game_id: str) -> str:
    """The ``"module:function"`` that draws ``game_id`` (worker processes import it)."""
    return _RENDERERS[game_id]


def renderer_modules() -> list[str]:
    """Every renderer's module, for worker processes to import once up front."""
    return [target.split(":")[0] for target in _RENDERERS.values()]


@cache
def load_drawer(target: str) -> Drawer:
    """The drawing function named by ``"module:function"`` (imported once)."""
    module_name, attr = target.split(":")
    return getattr(importlib.import_module(module_name), attr)


def get_drawer(game_id: str) -> Drawer:
    return load_drawer(_RENDERERS[game_id])


def render_image(
    game_id: str,
    view: dict[str, Any],
    names: list[str],
    seat: int | None = None,
    lang: str = "en",
) -> Image.Image:
    return get_drawer(game_id)(view, names, seat, lang)


def target_palette(target: str) -> FixedPalette | None:
    """The fixed PNG palette for pictures drawn by ``target`` (a game's renderer), if any."""
    for game_id, known in _RENDERERS.items():
        if known == target:
            return game_palette(game_id)
    return None


def render_png(
    game_id: str,
    view: dict[str, Any],
    names: list[str],
    seat: int | None = None,
    lang: str = "en",
) -> bytes:
    """PNG bytes of the picture for ``seat`` (None: the public picture), in ``lang``."""
    picture = render_image(game_id, view, names, seat, lang)
    return encode_png(picture, game_palette(game_id))
