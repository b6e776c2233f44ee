"""Games by id. Adding a game means adding a line here (and a renderer); never touching bot/."""

from __future__ import annotations

import importlib
from functools import cache

from rules.base import Game

#: id -> "module:attribute" of the Game singleton, imported lazily so a slow-loading game
#: (data validation) costs nothing until a match of it is touched.
_GAMES: dict[str, str] = {
    "azul": "rules.azul:GAME",
    "taj-mahal": "rules.taj_mahal:GAME",
    "maharani": "rules.maharani:GAME",
    "pastiche": "rules.pastiche:GAME",
}


def game_ids() -> list[str]:
    return list(_GAMES)


@cache
def get_game(game_id: str) -> Game:
    try:
        target = _GAMES[game_id]
    except KeyError:
        known = ", ".join(_GAMES)
        raise KeyError(f"There is no game called “{game_id}”. Games: {known}.") from None
    module_name, attr = target.split(":")
    game = getattr(importlib.import_module(module_name), attr)
    assert isinstance(game, Game) and game.id == game_id
    return game


def all_games() -> list[Game]:
    return [get_game(g) for g in _GAMES]
