"""The values a league is created with: their ranges and defaults, and the check that
refuses a wrong one in words naming what is allowed (``render/words/english_league.py``).
Pure: no I/O."""

from __future__ import annotations

import math
from typing import Any

from bot.community.leagues.reports import FILLS, FORMATS
from bot.computers.players import is_computer
from bot.matches.errors import InvalidMove, NotAllowed, NotFound
from bot.matches.reports import User
from render.words.catalogue import LANGUAGES
from rules import Game, get_game
from rules.registry import game_ids

#: Allowed ranges (inclusive) and defaults of the values a league is created with.
ROUNDS_RANGE = (1, 30)
DAYS_RANGE = (0.25, 30.0)
DEFAULT_DAYS = 3.0
SIGNUP_RANGE = (0.0, 60.0)
DEFAULT_SIGNUP_DAYS = 7.0
NAME_LIMIT = 60
#: The most people a league takes.
MAX_PLAYERS = 64


def min_players(table_size: int) -> int:
    """The fewest sign-ups a league starts with: three, or one full table when larger."""
    return max(3, table_size)


def number_in(key: str, value: Any, low: float, high: float, whole: bool) -> Any:
    """``value`` when it is a number from ``low`` to ``high`` (a whole one if ``whole``),
    else the refusal ``key`` naming the range."""
    ok = not isinstance(value, bool) and isinstance(value, int | float)
    if ok and whole and not isinstance(value, int):
        ok = False
    if ok and not (math.isfinite(float(value)) and low <= float(value) <= high):
        ok = False
    if not ok:
        shown = f"{value:g}" if isinstance(value, float) else str(value)
        raise InvalidMove.said(key, value=shown, low=f"{low:g}", high=f"{high:g}")
    return value


def check_new(
    *,
    creator: User,
    game_id: str,
    format: str,
    players_per_table: int | None,
    rounds: int | None,
    days_per_move: float | None,
    signup_days: float,
    rated: bool,
    hints: bool,
    language: str | None,
    fill: str,
    name: str | None,
) -> tuple[Game, int, float, str]:
    """Every value of a new league checked (see :meth:`Leagues.create`); returns the
    game, the table size and the days per move (defaults filled in) and the name."""
    if game_id not in game_ids():
        raise NotFound.said("league.bad_game", game=game_id, games=", ".join(game_ids()))
    game = get_game(game_id)
    if format not in FORMATS:
        raise InvalidMove.said("league.bad_format", value=format, choices=", ".join(FORMATS))
    if fill not in FILLS:
        raise InvalidMove.said("league.bad_fill", value=fill, choices=", ".join(FILLS))
    size = game.min_players if players_per_table is None else players_per_table
    whole = isinstance(size, int) and not isinstance(size, bool)
    if not whole or not game.min_players <= size <= game.max_players:
        raise InvalidMove.said(
            "league.bad_table",
            game=game.name,
            low=game.min_players,
            high=game.max_players,
            value=size,
        )
    if rounds is not None:
        number_in("league.bad_rounds", rounds, *ROUNDS_RANGE, whole=True)
    days = DEFAULT_DAYS if days_per_move is None else days_per_move
    number_in("league.bad_days", days, *DAYS_RANGE, whole=False)
    number_in("league.bad_signup", signup_days, *SIGNUP_RANGE, whole=False)
    if not isinstance(rated, bool):
        raise InvalidMove.said("league.bad_rated", value=str(rated))
    if not isinstance(hints, bool):
        raise InvalidMove.said("league.bad_hints", value=str(hints))
    if language is not None and language not in LANGUAGES:
        raise InvalidMove.said("league.bad_language", value=language, choices=", ".join(LANGUAGES))
    title = (name or "").strip()
    if len(title) > NAME_LIMIT:
        raise InvalidMove.said("league.bad_name", high=NAME_LIMIT)
    if is_computer(creator.id):
        raise NotAllowed.said("league.computer")
    return game, int(size), float(days), title
