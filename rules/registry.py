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


#: Games whose words are messages (see :mod:`rules.words`): id -> module of its English
#: catalogue. A game converted from English strings adds its line here.
_WORDS: dict[str, str] = {
    "azul": "rules.azul.words",
    "maharani": "rules.maharani.words",
    "taj-mahal": "rules.taj_mahal.words",
    "pastiche": "rules.pastiche.words",
}


def rule_words() -> dict[str, str]:
    """Every English template the rules use (``rules.words.ENGLISH`` once each game's
    catalogue is imported), for ``render.words.catalogue`` to merge into the message catalogue."""
    from rules.words import ENGLISH

    for module in _WORDS.values():
        importlib.import_module(module)
    return dict(ENGLISH)


def register_game(game: Game) -> None:
    """Add a game at run time (plug-ins, test doubles). Built-in games are listed above."""
    _GAMES[game.id] = f"{type(game).__module__}:{_attr_of(game)}"
    get_game.cache_clear()


def _attr_of(game: Game) -> str:
    module = importlib.import_module(type(game).__module__)
    for name, value in vars(module).items():
        if value is game:
            return name
    raise ValueError(f"{game!r} is not a module-level object of {module.__name__}")


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


def game_target(game_id: str) -> str:
    """The ``"module:attribute"`` of a game, for worker processes to import it (a game
    registered at run time exists in the registry of the process that registered it)."""
    try:
        return _GAMES[game_id]
    except KeyError:
        raise KeyError(f"There is no game called “{game_id}”.") from None
