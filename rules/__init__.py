"""Pure game logic: states, moves, notation, scoring. No I/O, no asyncio, no Discord, no PIL."""

from rules.base import Event, Game, IllegalMove, Move, Outcome, Step, Told
from rules.registry import all_games, game_ids, get_game

__all__ = [
    "Event",
    "Game",
    "IllegalMove",
    "Move",
    "Outcome",
    "Step",
    "Told",
    "all_games",
    "game_ids",
    "get_game",
]
