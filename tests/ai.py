"""The computer player's hooks for the tests' Pile game (tests/fakegame.py), found by the
convention of ``rules.ai.hooks.ai_for`` (``<the game's package>.ai:AI``).

Pile hides the other seats' card values and the future draws, so the search needs a
determinizer: the seat's own cards come from its view, every other card is sampled, and
the draw order is a fresh random stream. Whether someone already "poked" is not in the
view, so the sampled state says yes: a computer never offers a poke that might be illegal.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from rules.ai.hooks import GameAI
from rules.base import Game, Move
from rules.rng import Rng


class PileAI(GameAI):
    #: The plumbing tests seat strong computers in Pile: a fixture, not a measurement.
    offers_strong = True

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


#: Where the gated thinker and its test meet. A fixed path, not an environment variable:
#: the workers come from a forkserver started before the test, which does not see later
#: changes to the environment.
GATE = Path(tempfile.gettempdir()) / f"tessera-test-gate-{os.getuid()}"


def gated_choose_move(game: Game, view: Any, seat: int, level: str, **kw: Any) -> Any:
    """A computer that keeps thinking until the test opens a gate: it announces itself
    with a ``thinking-<pid>-<seed>`` file in :data:`GATE` and returns only once an ``open``
    file appears there (or fails after a minute, so a broken test cannot hang)."""
    import os
    import time

    from rules.ai import choose_move

    gate = GATE
    (gate / f"thinking-{os.getpid()}-{kw.get('seed')}").touch()
    deadline = time.monotonic() + 60
    while not (gate / "open").exists():
        if time.monotonic() > deadline:
            raise TimeoutError("the test never opened the gate")
        time.sleep(0.01)
    return choose_move(game, view, seat, level, **kw)


def broken_choose_move(game: Game, view: Any, seat: int, level: str, **kw: Any) -> Move:
    """A broken search: it fails outright or names a move the rules refuse."""
    if kw["seed"] % 2:
        raise NotImplementedError("no determinizer for this game")
    return Move("take99", "an impossible move")


def broken_suggest(game: Game, view: Any, seat: int, **kw: Any) -> list[Any]:
    raise NotImplementedError("no determinizer for this game")
