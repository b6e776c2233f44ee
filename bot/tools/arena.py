"""``python -m bot arena``: computer players against each other, for measured strength.

A benchmark, never a test: it prints figures. ``--seats normal,random`` gives seat entry 0
the level ``normal`` and entry 1 ``random``; game ``i`` rotates the entries by ``i`` seats
so every entry plays from every seat (first-player advantage cancels out over the games).
Game ``i`` uses setup seed ``seed + i``; every move's search seed is derived from the game
seed, the ply and the seat, as the bot derives it from the match, so a run is reproducible.

Per seat entry it reports the win rate (a shared win counts as 1/k of a win) with a 95%
Wilson score interval, the average score, and the time per move (mean, p95) against the
budget. Games run in a process pool (``--workers``, default 2: this machine's cores).

Why ``--first`` and ``--record``: a 200-game row at the real budget takes hours of a core,
so it is played in parts (another day, several processes, stopped by a rule written down
beforehand). ``--first K`` plays games K, K+1, ... of the same seeds, and ``--record FILE``
appends each game to FILE as it finishes, so a stopped run keeps what it played;
``python -m bot arena-tally FILE...`` then prints the table of the recorded games, the
same table one run over those games prints. The parts of a row are the documented command,
not a private script.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from rules.ai import api, choose_move
from rules.ai.api import ARENA_LEVELS
from rules.base import Event, State
from rules.registry import get_game
from rules.rng import Rng

#: Safety net against a rules bug: no game of ours needs this many decisions.
MAX_DECISIONS = 20_000

#: Sees every move of an arena game as (state before, seat, state after, the move's events).
#: Why: a benchmark that asks where a game's points go (``benchmarks/azul_points.py``)
#: watches the arena's own games instead of playing a copy of them that could drift from these.
Observer = Callable[[State, int, State, list[Event]], None]
#: Called with the seat just before each of its moves. Why: a benchmark that gives one seat
#: another setting of its game's hooks (``benchmarks/reward_shares.py``,
#: ``benchmarks/taj_mahal_eval.py``) sets that seat up here, in the arena's own games.
Prepare = Callable[[int], None]


@dataclass
class GameResult:
    """One game: per seat entry its score, win credit and move times (seconds)."""

    scores: list[int]
    wins: list[float]
    times: list[list[float]] = field(default_factory=list)
    #: CPU seconds the game took in its process (both seats' thinking and the rules).
    cpu_s: float = 0.0


def move_seed(game_seed: int, ply: int, seat: int) -> int:
    """The search seed of one move, from the game seed, the ply and the seat."""
    return Rng.from_seed(game_seed, f"move:{ply}:{seat}").next64()


def seat_of_entries(index: int, n: int) -> list[int]:
    """The seat each seat entry plays in game ``index``: entry ``e`` sits at
    ``(e + index) mod n``, so over ``n`` games every entry plays from every seat. The benches
    that replay arena games read their seats here rather than repeat the formula."""
    return [(e + index) % n for e in range(n)]


def play_one(
    game_id: str,
    levels: list[str],
    index: int,
    seed: int,
    budget_s: float,
    clock: bool = True,
    observe: Observer | None = None,
    prepare: Prepare | None = None,
) -> GameResult:
    """Play game ``index``, entries seated by :func:`seat_of_entries`. ``clock=False``
    lifts the search's wall-clock safety net, so every search runs its full iteration count
    (see :func:`run_arena`); ``observe`` sees every move (:data:`Observer`), ``prepare``
    is called before each (:data:`Prepare`)."""
    saved = api.CAP_MARGIN_S
    if not clock:
        api.CAP_MARGIN_S = 1e9
    started = time.process_time()
    try:
        result = _play(game_id, levels, index, seed, budget_s, observe, prepare)
    finally:
        api.CAP_MARGIN_S = saved
    result.cpu_s = time.process_time() - started
    return result


def _play(
    game_id: str,
    levels: list[str],
    index: int,
    seed: int,
    budget_s: float,
    observe: Observer | None = None,
    prepare: Prepare | None = None,
) -> GameResult:
    game = get_game(game_id)
    n = len(levels)
    seat_of = seat_of_entries(index, n)
    entry_of = sorted(range(n), key=seat_of.__getitem__)  # the entry at each seat
    game_seed = seed + index
    state = game.setup(n, game_seed)
    times: list[list[float]] = [[] for _ in range(n)]
    for ply in range(MAX_DECISIONS):
        seats = game.waits_for(state)  # as the bot's driver: an offer's answer comes first
        if not seats:
            break
        seat = seats[0]
        level = levels[entry_of[seat]]
        if prepare is not None:
            prepare(seat)
        view = game.view(state, seat)
        start = time.perf_counter()
        move = choose_move(
            game, view, seat, level, seed=move_seed(game_seed, ply, seat), budget_s=budget_s
        )
        times[entry_of[seat]].append(time.perf_counter() - start)
        after, events = game.apply(state, seat, move)
        if observe is not None:
            observe(state, seat, after, events)
        state = after
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
    first: int = 0,
    record: str | None = None,
) -> int:
    """Play games ``first`` … ``first + games - 1`` and print the table; 2 on bad arguments.

    ``clock=False`` (``--no-clock``): searches stop on their iteration count only (the
    budget × the game's calibrated rate), never on the wall clock. Win rates and scores
    are then the same on a busy machine as on an idle one (the run is reproducible move for
    move); the time per move is still printed but means something only on an idle machine.
    ``record``: append each finished game to that file (see :func:`record_line`).
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
    if first < 0 or games < 1:
        print("--first must be 0 or more and --games 1 or more.")
        return 2
    pairing = Pairing(game_id, players, tuple(levels), budget_s, clock, seed)
    started = time.perf_counter()
    indices = range(first, first + games)
    results: dict[int, GameResult] = {}

    def finished(index: int, result: GameResult) -> None:
        results[index] = result
        if record:
            with open(record, "a", encoding="utf-8") as out:
                out.write(record_line(pairing, index, result) + "\n")

    args = [(game_id, levels, i, seed, budget_s, clock) for i in indices]
    if workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = {pool.submit(play_one, *a): a[2] for a in args}
            for future in as_completed(futures):
                finished(futures[future], future.result())
    else:
        for a in args:
            finished(a[2], play_one(*a))
    report = _report(pairing, results)
    report["wall_s"] = round(time.perf_counter() - started, 1)
    _print(report, as_json)
    return 0


@dataclass(frozen=True)
class Pairing:
    """What makes arena games comparable: the same game, seats, budget, clock and seeds.
    Only games of one pairing may be tallied together."""

    game: str
    players: int
    seats: tuple[str, ...]
    budget_s: float
    clock: bool
    seed: int

    def __str__(self) -> str:
        clock = "" if self.clock else ", no clock"
        return (
            f"{self.game}, {self.players} players, seats {','.join(self.seats)}, "
            f"budget {self.budget_s:g} s{clock}, seed {self.seed}"
        )


def record_line(pairing: Pairing, index: int, result: GameResult) -> str:
    """One finished game as a line of JSON: the pairing, the game's index, each seat
    entry's score, win credit and move times (ms), and the game's CPU seconds."""
    return json.dumps(
        {
            **asdict(pairing),
            "index": index,
            "scores": result.scores,
            "wins": result.wins,
            "move_ms": [[round(1000 * t, 1) for t in entry] for entry in result.times],
            "cpu_s": round(result.cpu_s, 2),
        }
    )


def _ranges(indices: list[int]) -> str:
    """``[0, 1, 2, 5, 7, 8]`` → ``"0-2, 5, 7-8"``: which games a table holds."""
    parts: list[str] = []
    i = 0
    while i < len(indices):
        j = i
        while j + 1 < len(indices) and indices[j + 1] == indices[j] + 1:
            j += 1
        parts.append(str(indices[i]) if i == j else f"{indices[i]}-{indices[j]}")
        i = j + 1
    return ", ".join(parts)


def _report(pairing: Pairing, results: dict[int, GameResult]) -> dict[str, Any]:
    """The table of ``results`` (game index → result; at least one game: a run plays one
    or more, and a tally of none is refused before it gets here)."""
    indices = sorted(results)
    ordered = [results[i] for i in indices]
    k = len(ordered)
    return {
        "game": pairing.game,
        "players": pairing.players,
        "games": k,
        "indices": _ranges(indices),
        "seats": list(pairing.seats),
        "budget_s": pairing.budget_s,
        "clock": pairing.clock,
        "seed": pairing.seed,
        "winner_avg_score": round(sum(max(r.scores) for r in ordered) / k, 1),
        "cpu_s_per_game": round(sum(r.cpu_s for r in ordered) / k, 1),
        "entries": summarise(list(pairing.seats), ordered, pairing.budget_s),
    }


def _print(report: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(report, indent=1))
        return
    clock = "" if report["clock"] else " (no clock)"
    wall = f" ({report['wall_s']} s)" if "wall_s" in report else ""
    print(
        f"{get_game(report['game']).name}, {report['players']} players, "
        f"{report['games']} games ({report['indices']}), seats rotated, "
        f"budget {report['budget_s']:g} s{clock}, seed {report['seed']}{wall}"
    )
    print(
        f"{'seat entry':<14}{'wins':>7}  {'95% interval':<15}{'avg score':>10}"
        f"{'ms/move':>9}{'p95':>8}"
    )
    for r in report["entries"]:
        name = f"{r['entry']}: {r['level']}"
        interval = f"[{100 * r['win_95'][0]:.0f}%, {100 * r['win_95'][1]:.0f}%]"
        print(
            f"{name:<14}{100 * r['win_rate']:>6.1f}%  {interval:<15}{r['avg_score']:>10}"
            f"{r['move_ms_mean']:>9}{r['move_ms_p95']:>8}"
        )
    print(
        f"average winning score: {report['winner_avg_score']}; "
        f"CPU s per game: {report['cpu_s_per_game']}"
    )


def run_tally(paths: list[str], as_json: bool) -> int:
    """Print the table of the games recorded in ``paths`` (``--record`` files); 2 when a
    file is missing or unreadable, or holds games of different pairings or one game twice
    with different results (the same game recorded twice, as by a re-run, counts once)."""
    pairing: Pairing | None = None
    results: dict[int, GameResult] = {}
    for path in paths:
        try:
            lines = Path(path).read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            print(f"{path}: cannot read it ({exc.strerror}).")
            return 2
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            where = f"{path}, line {number}"
            try:
                d = json.loads(line)
                given = {f.name: d[f.name] for f in fields(Pairing)}
                this = Pairing(**{**given, "seats": tuple(d["seats"])})
                index = int(d["index"])
                result = GameResult(
                    list(d["scores"]),
                    list(d["wins"]),
                    [[t / 1000 for t in entry] for entry in d["move_ms"]],
                    float(d["cpu_s"]),
                )
            except (ValueError, KeyError, TypeError):
                print(f"{where}: not a game recorded by `arena --record`.")
                return 2
            if pairing is None:
                pairing = this
            elif this != pairing:
                print(f"{where}: a different pairing ({this}) from the first game's ({pairing}).")
                return 2
            earlier = results.get(index)
            if earlier is not None and (earlier.scores, earlier.wins) != (
                result.scores,
                result.wins,
            ):
                print(f"{where}: game {index} is recorded twice with different results.")
                return 2
            results.setdefault(index, result)
    if pairing is None:
        print("No recorded games in " + ", ".join(paths) + ".")
        return 2
    _print(_report(pairing, results), as_json)
    return 0
