"""``python -m bot arena``: computer players against each other, for measured strength.

A benchmark, never a test: it prints figures. ``--seats normal,random`` gives seat entry 0
the level ``normal`` and entry 1 ``random``; game ``i`` rotates the entries by ``i`` seats
so every entry plays from every seat (first-player advantage cancels out over the games).
Game ``i`` uses setup seed ``seed + i``; every move's search seed is derived from the game
seed, the ply and the seat, as the bot derives it from the match, so a run is reproducible.

Per seat entry it reports the win rate (a shared win counts as 1/k of a win) with a 95%
Wilson score interval, the average score, and the time per move (mean, p95) against the
budget. Games run in a process pool (``--workers``, default 2: this machine's cores).
"""

from __future__ import annotations

import json
import math
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from rules.ai import api, choose_move
from rules.ai.api import ARENA_LEVELS
from rules.registry import get_game
from rules.rng import Rng

#: Safety net against a rules bug: no game of ours needs this many decisions.
MAX_DECISIONS = 20_000


@dataclass
class GameResult:
    """One game: per seat entry its score, win credit and move times (seconds)."""

    scores: list[int]
    wins: list[float]
    times: list[list[float]] = field(default_factory=list)


def move_seed(game_seed: int, ply: int, seat: int) -> int:
    """The search seed of one move, from the game seed, the ply and the seat."""
    return Rng.from_seed(game_seed, f"move:{ply}:{seat}").next64()


def play_one(
    game_id: str, levels: list[str], index: int, seed: int, budget_s: float, clock: bool = True
) -> GameResult:
    """Play game ``index``: seat ``s`` gets entry ``(s - index) mod n``. ``clock=False``
    lifts the search's wall-clock safety net, so every search runs its full iteration count
    (see :func:`run_arena`)."""
    saved = api.CAP_MARGIN_S
    if not clock:
        api.CAP_MARGIN_S = 1e9
    try:
        return _play(game_id, levels, index, seed, budget_s)
    finally:
        api.CAP_MARGIN_S = saved


def _play(game_id: str, levels: list[str], index: int, seed: int, budget_s: float) -> GameResult:
    game = get_game(game_id)
    n = len(levels)
    entry_of = [(s - index) % n for s in range(n)]
    game_seed = seed + index
    state = game.setup(n, game_seed)
    times: list[list[float]] = [[] for _ in range(n)]
    for ply in range(MAX_DECISIONS):
        seats = game.waits_for(state)  # as the bot's driver: an offer's answer comes first
        if not seats:
            break
        seat = seats[0]
        level = levels[entry_of[seat]]
        view = game.view(state, seat)
        start = time.perf_counter()
        move = choose_move(
            game, view, seat, level, seed=move_seed(game_seed, ply, seat), budget_s=budget_s
        )
        times[entry_of[seat]].append(time.perf_counter() - start)
        state, _ = game.apply(state, seat, move)
    out = game.outcome(state)
    if out is None:
        raise RuntimeError(f"{game_id}: arena game {index} did not end")
    winners = out.winners
    scores = [0] * n
    wins = [0.0] * n
    for s in range(n):
        scores[entry_of[s]] = out.scores[s]
        if s in winners:
            wins[entry_of[s]] = 1.0 / len(winners)
    return GameResult(scores, wins, times)


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (fine with 0 or all successes)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def summarise(
    levels: list[str], results: list[GameResult], budget_s: float
) -> list[dict[str, Any]]:
    rows = []
    k = len(results)
    for e, level in enumerate(levels):
        wins = sum(r.wins[e] for r in results)
        low, high = wilson(wins, k)
        times = [t for r in results for t in r.times[e]]
        rows.append(
            {
                "entry": e,
                "level": level,
                "games": k,
                "win_rate": round(wins / k, 3) if k else 0.0,
                "win_95": [round(low, 3), round(high, 3)],
                "avg_score": round(sum(r.scores[e] for r in results) / k, 1) if k else 0.0,
                "moves": len(times),
                "move_ms_mean": round(1000 * sum(times) / len(times), 1) if times else 0.0,
                "move_ms_p95": round(1000 * _pct(times, 0.95), 1),
                "budget_ms": round(1000 * budget_s),
            }
        )
    return rows


def run_arena(
    game_id: str,
    *,
    players: int,
    games: int,
    seats: str,
    budget_s: float,
    seed: int,
    workers: int,
    as_json: bool,
    clock: bool = True,
) -> int:
    """Play ``games`` games and print the table; 2 on bad arguments.

    ``clock=False`` (``--no-clock``): searches stop on their iteration count only (the
    budget × the game's calibrated rate), never on the wall clock. Win rates and scores
    are then the same on a busy machine as on an idle one (the run is reproducible move for
    move); the time per move is still printed but means something only on an idle machine.
    """
    levels = [s.strip() for s in seats.split(",") if s.strip()]
    try:
        game = get_game(game_id)
        game.check_player_count(players)
    except (KeyError, ValueError) as exc:
        print(exc.args[0] if exc.args else exc)
        return 2
    if len(levels) != players:
        print(f"--seats needs one level per player ({players}), got {len(levels)}.")
        return 2
    unknown = [lv for lv in levels if lv not in ARENA_LEVELS]
    if unknown:
        print(f"Unknown level(s) {', '.join(unknown)}; levels: {', '.join(ARENA_LEVELS)}.")
        return 2
    started = time.perf_counter()
    args = [(game_id, levels, i, seed, budget_s, clock) for i in range(games)]
    if workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(play_one, *zip(*args, strict=True)))
    else:
        results = [play_one(*a) for a in args]
    rows = summarise(levels, results, budget_s)
    winner_avg = sum(max(r.scores) for r in results) / len(results) if results else 0.0
    report = {
        "game": game_id,
        "players": players,
        "games": games,
        "seats": levels,
        "budget_s": budget_s,
        "clock": clock,
        "seed": seed,
        "wall_s": round(time.perf_counter() - started, 1),
        "winner_avg_score": round(winner_avg, 1),
        "entries": rows,
    }
    if as_json:
        print(json.dumps(report, indent=1))
        return 0
    print(
        f"{game.name}, {players} players, {games} games, seats rotated, "
        f"budget {budget_s:g} s{'' if clock else ' (no clock)'}, seed {seed} "
        f"({report['wall_s']} s)"
    )
    print(
        f"{'seat entry':<14}{'wins':>7}  {'95% interval':<15}{'avg score':>10}"
        f"{'ms/move':>9}{'p95':>8}"
    )
    for r in rows:
        name = f"{r['entry']}: {r['level']}"
        interval = f"[{100 * r['win_95'][0]:.0f}%, {100 * r['win_95'][1]:.0f}%]"
        print(
            f"{name:<14}{100 * r['win_rate']:>6.1f}%  {interval:<15}{r['avg_score']:>10}"
            f"{r['move_ms_mean']:>9}{r['move_ms_p95']:>8}"
        )
    print(f"average winning score: {report['winner_avg_score']}")
    return 0
