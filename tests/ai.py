"""The computer player's hooks for the tests' Pile game (tests/fakegame.py), found by the
convention of ``rules.ai.hooks.ai_for`` (``<the game's package>.ai:AI``).

Pile hides the other seats' card values and the future draws, so the search needs a
determinizer: the seat's own cards come from its view, every other card is sampled, and
the draw order is a fresh random stream. Whether someone already "poked" is not in the
view, so the sampled state says yes: a computer never offers a poke that might be illegal.
"""

from __future__ import annotations

from typing import Any

from rules.ai.hooks import GameAI
from rules.base import Game, Move
from rules.rng import Rng


class PileAI(GameAI):
    def determinize(self, game: Game, view: Any, seat: int, rng: Rng) -> dict[str, Any]:
        hands = [
            list(view["hand"]) if s == seat else [1 + rng.below(5) for _ in range(n)]
            for s, n in enumerate(view["hand_sizes"])
        ]
        return {
            "pile": view["pile"],
            "turn": view["turn"],
            "taken": list(view["taken"]),
            "hands": hands,
            "draws": sum(view["hand_sizes"]),
            "rng": Rng.from_seed(rng.next64(), "pile-draws").state,
            "poked": True,
        }


AI = PileAI()


def slow_choose_move(game: Game, view: Any, seat: int, level: str, **kw: Any) -> Any:
    """A computer that really spends its whole budget computing before choosing: the
    tests' stand-in for a long search. It holds its interpreter's GIL in stretches of
    ~100 ms (one long C-level sum each), as a C-heavy evaluation would: in a thread of the
    bot's process that would stall the event loop, in a worker process it cannot."""
    import time

    from rules.ai import choose_move

    end = time.perf_counter() + float(kw.get("budget_s", 0.0))
    while time.perf_counter() < end:
        sum(range(3_000_000))
    return choose_move(game, view, seat, level, **kw)


def broken_choose_move(game: Game, view: Any, seat: int, level: str, **kw: Any) -> Move:
    """A broken search: it fails outright or names a move the rules refuse."""
    if kw["seed"] % 2:
        raise NotImplementedError("no determinizer for this game")
    return Move("take99", "an impossible move")


def broken_suggest(game: Game, view: Any, seat: int, **kw: Any) -> list[Any]:
    raise NotImplementedError("no determinizer for this game")
