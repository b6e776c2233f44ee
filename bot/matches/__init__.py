"""The match service: one match from lobby to result, split by concern.

The names below are the package's interface for the front ends (``bot.discord``,
``bot.console``), the computer driver and the tools; they import them from here.
"""

from bot.matches.errors import BoardChanged, InvalidMove, NotAllowed, NotFound, ServiceError
from bot.matches.lobby import LOBBY_TTL_SECONDS
from bot.matches.reports import MatchInfo, SeatTurn, TurnReport, User
from bot.matches.rows import effective_moves, rank_resigned_last
from bot.matches.service import MatchService
from bot.matches.turns import GATE_READ_SECONDS

__all__ = [
    "GATE_READ_SECONDS",
    "LOBBY_TTL_SECONDS",
    "BoardChanged",
    "InvalidMove",
    "MatchInfo",
    "MatchService",
    "NotAllowed",
    "NotFound",
    "SeatTurn",
    "ServiceError",
    "TurnReport",
    "User",
    "effective_moves",
    "rank_resigned_last",
]
