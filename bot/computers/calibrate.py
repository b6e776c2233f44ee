"""``python -m bot calibrate``: the search's iterations per second, per game and player count.

A benchmark, never a test. The normal level turns its time budget into an iteration count
with each game's calibration (``iteration_rate`` in ``rules/<game>/ai.py``), so a move is a
pure function of the position and its seed; this command measures what that rate should be
on this machine. It samples positions spread over random games, runs the search with a fixed
iteration count from each and reports iterations per second of this process's **CPU time**
(``time.process_time``), so a busy machine distorts the figure less than wall time would;
on an idle machine CPU and wall time agree. Compare the printed rate with the game's
current calibration (also printed): a calibration well above the measured rate makes moves
take longer than their budget.
"""

from __future__ import annotations

import json
import time
from typing import Any

from rules.ai.hooks import ai_for
from rules.ai.search import search
from rules.playout import random_playout
from rules.registry import get_game
from rules.rng import Rng


def _positions(game_id: str, players: int, count: int, seed: int) -> list[Any]:
    """(view, seat) at decision points spread over random games."""
    game = get_game(game_id)
    out: list[Any] = []
    game_seed = seed
    while len(out) < count:
        states: list[Any] = []
        random_playout(game, players, game_seed, on_step=lambda old, *_, s=states: s.append(old))
        step = max(1, len(states) // 6)
        for state in states[::step]:
            seats = game.to_act(state)
            if seats:
                out.append((game.view(state, seats[0]), seats[0]))
        game_seed += 1
    return out[:count]


def measure(
    game_id: str, players: int, positions: int, iterations: int, seed: int
) -> dict[str, Any]:
    game = get_game(game_id)
    hooks = ai_for(game)
    cpu = 0.0
    runs = 0
    for k, (view, seat) in enumerate(_positions(game_id, players, positions, seed)):
        rng = Rng.from_seed(seed, f"calibrate:{k}")
        started = time.process_time()
        search(game, hooks, view, seat, rng, iterations=iterations)
        cpu += time.process_time() - started
        runs += 1
    rate = runs * iterations / cpu if cpu else 0.0
    view0 = _positions(game_id, players, 1, seed)[0][0]
    return {
        "game": game_id,
        "players": players,
        "positions": runs,
        "iterations": iterations,
        "measured_per_s": round(rate),
        "calibrated_per_s": round(hooks.iteration_rate(game, view0)),
    }


def run_calibrate(games: list[str] | None, positions: int, iterations: int, as_json: bool) -> int:
    rows = []
    for game_id in games or ["azul", "taj-mahal", "maharani", "pastiche"]:
        game = get_game(game_id)
        for players in range(game.min_players, game.max_players + 1):
            row = measure(game_id, players, positions, iterations, seed=1)
            rows.append(row)
            if not as_json:
                print(
                    f"{game.name:<10} {players}p  measured {row['measured_per_s']:>6} "
                    f"iterations/s of CPU  (calibration {row['calibrated_per_s']})",
                    flush=True,
                )
    if as_json:
        print(json.dumps(rows, indent=1))
    return 0
