"""Azul playout speed: a loose guard in the test run, the real figures as a script.

``python -m tests.test_azul_speed`` prints full random games per second (via
``rules.playout.random_playout``) for 2-4 players and both walls, and the 4-player
render + encode time. The target is >= 400 two-player games per second on a 2-core machine.
"""

from __future__ import annotations

import statistics
import time

from rules.azul import GAME
from rules.playout import random_playout


def games_per_second(players: int, games: int, grey: bool = False, first_seed: int = 0) -> float:
    start = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        random_playout(GAME, players, seed, {"grey_wall": grey})
    return games / (time.perf_counter() - start)


def test_playouts_are_not_slow() -> None:
    # a guard against accidental 10x slowdowns, loose enough for a busy machine
    assert games_per_second(2, 40) > 80


def main() -> None:
    from render.azul import draw
    from render.common import encode_png
    from tests.test_azul_render import NAMES, _states

    games_per_second(2, 50)  # warm the move caches like a long-running bot
    for players in (2, 3, 4):
        for grey in (False, True):
            rates = [games_per_second(players, 300, grey, 1000 * r) for r in range(3)]
            print(
                f"{players} players, grey={grey!s:5}: "
                f"{statistics.median(rates):6.0f} full games/s (runs: "
                + ", ".join(f"{r:.0f}" for r in rates)
                + ")"
            )
    view = GAME.view(_states(4, False, seed=3)[6], None)
    times, size = [], 0
    for _ in range(30):
        t = time.perf_counter()
        png = encode_png(draw(view, NAMES))
        times.append(time.perf_counter() - t)
        size = len(png)
    print(
        f"4-player render + encode: {statistics.median(times) * 1000:.1f} ms median, {size} bytes"
    )


if __name__ == "__main__":
    main()
