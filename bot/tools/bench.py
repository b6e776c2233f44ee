"""``python -m bot bench``: speed figures, printed, never asserted in tests.

Per game: random full playouts per second (fewest players), median/p95 ms to draw and
encode the public picture (fewest and most players) and the private one where the game
has hands, PNG sizes; then ``service.play`` end to end (load, validate, apply, commit,
render) on a database holding 1,000 other matches.
"""

from __future__ import annotations

import asyncio
import json
import os
import platform
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from render import render_png
from rules import get_game
from rules.playout import random_playout
from rules.registry import game_ids
from rules.rng import Rng


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def _sample_states(game_id: str, players: int, count: int) -> list[dict[str, Any]]:
    """States spread over a random game (start, middle, late), for rendering."""
    game = get_game(game_id)
    states: list[dict[str, Any]] = []
    random_playout(game, players, 1234, on_step=lambda old, *_: states.append(old))
    step = max(1, len(states) // count)
    return states[::step][:count]


def machine() -> dict[str, Any]:
    """What the figures were taken on: they mean little without it."""
    load1, load5, _ = os.getloadavg()
    return {
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "python_build": " ".join(platform.python_build()),
        "cpus": os.cpu_count(),
        "load_1min": round(load1, 2),
        "load_5min": round(load5, 2),
    }


def bench_playouts(game_id: str, seconds: float, repeats: int) -> dict[str, Any]:
    """Random full playouts per second, measured so that runs can be compared.

    Method: a warm-up of ``seconds`` (loads the game data, fills move caches) that also
    counts how many games fit in that time; then ``repeats`` timed runs that each play the
    *same* seeds ``0..games-1`` (identical work every run, ``Game.random_move`` policy,
    fewest players). Reported: the median over runs of wall-clock games/s (what a user
    waits for) and of CPU games/s (this process's CPU time only, far less sensitive to other
    processes on a shared machine), with the slowest and fastest run.
    """
    game = get_game(game_id)
    players = game.min_players
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        random_playout(game, players, games)
        games += 1
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(repeats):
        w0, c0 = time.perf_counter(), time.process_time()
        for seed in range(games):
            random_playout(game, players, seed)
        wall.append(games / (time.perf_counter() - w0))
        cpu.append(games / max(time.process_time() - c0, 1e-9))
    return {
        "players": players,
        "games_per_run": games,
        "runs": repeats,
        "games_per_s": round(statistics.median(wall), 1),
        "games_per_s_min": round(min(wall), 1),
        "games_per_s_max": round(max(wall), 1),
        "cpu_games_per_s": round(statistics.median(cpu), 1),
    }


def bench_render(game_id: str, players: int, seat: int | None, samples: int) -> dict[str, Any]:
    game = get_game(game_id)
    names = ["Alice", "Bob", "Carol", "Dénes", "Łucja"][:players]
    times: list[float] = []
    sizes: list[int] = []
    states = _sample_states(game_id, players, samples)
    render_png(game_id, game.view(states[0], seat), names, seat)  # warm caches
    for state in states:
        view = game.view(state, seat)
        t0 = time.perf_counter()
        png = render_png(game_id, view, names, seat)
        times.append((time.perf_counter() - t0) * 1000)
        sizes.append(len(png))
    return {
        "players": players,
        "picture": "public" if seat is None else "private",
        "median_ms": round(statistics.median(times), 1),
        "p95_ms": round(_pct(times, 0.95), 1),
        "png_kb_median": round(statistics.median(sizes) / 1024, 1),
        "png_kb_max": round(max(sizes) / 1024, 1),
    }


async def bench_service(game_id: str, others: int, moves: int) -> dict[str, Any]:
    from bot.matches.reports import User
    from bot.matches.service import MatchService

    game = get_game(game_id)
    players = game.min_players
    users = [User(f"bench:{i}", f"Player {i + 1}") for i in range(players)]
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        filler = await MatchService.open(db, render=False)
        for i in range(others):
            info = await filler.create_match(game_id, users[0], max_players=players, seed=i)
            for u in users[1:]:
                await filler.join(info.id, u)
            await filler.start(info.id, users[0])
        await filler.close()
        service = await MatchService.open(db)
        picker = Rng.from_seed(99)
        times: list[float] = []
        stuck: list[int] = []
        try:
            info = await service.create_match(game_id, users[0], max_players=players, seed=5)
            for u in users[1:]:
                await service.join(info.id, u)
            await service.start(info.id, users[0])
            by_id = {u.id: u for u in users}
            while len(times) < moves:
                current = await service.info(info.id)
                if current.status != "running":
                    info = await service.create_match(game_id, users[0], max_players=players)
                    for u in users[1:]:
                        await service.join(info.id, u)
                    await service.start(info.id, users[0])
                    continue
                user = by_id[current.to_act[0]]
                _, legal = await service.turn_for(info.id, user)
                if not legal:  # should never happen; reported, like the load test does
                    stuck.append(info.id)
                    await service.abort(info.id, users[0], is_admin=True, reason="bench")
                    continue
                notation = legal[picker.below(len(legal))].notation
                t0 = time.perf_counter()
                await service.play(info.id, user, notation)
                times.append((time.perf_counter() - t0) * 1000)
        finally:
            await service.close()
    return {
        "game": game_id,
        "other_matches": others,
        "moves": len(times),
        "median_ms": round(statistics.median(times), 1),
        "p95_ms": round(_pct(times, 0.95), 1),
        "stuck_matches": stuck,
    }


def run_bench(
    *, as_json: bool, quick: bool, games: list[str] | None, playouts_only: bool = False
) -> int:
    chosen = games or game_ids()
    seconds, repeats = (1.0, 3) if quick else (3.0, 5)
    samples = 10 if quick else 30
    report: dict[str, Any] = {"machine": machine(), "games": {}}
    if not as_json:
        m = report["machine"]
        print(
            f"{m['python']} ({m['python_build']}), {m['cpus']} CPUs, load average "
            f"{m['load_1min']} (1 min) / {m['load_5min']} (5 min) before the run"
        )
        print(
            f"random playouts: warm-up {seconds:g} s, then {repeats} runs of the same seeds; "
            "median wall-clock games/s (slowest–fastest run), and CPU games/s"
        )
    for game_id in chosen:
        game = get_game(game_id)
        entry: dict[str, Any] = {
            "playouts": bench_playouts(game_id, seconds, repeats),
            "render": [],
        }
        report["games"][game_id] = entry
        if not as_json:
            p = entry["playouts"]
            print(
                f"{game.name}: {p['games_per_s']} random {p['players']}-player games/s "
                f"({p['games_per_s_min']}–{p['games_per_s_max']}; {p['runs']} runs of "
                f"{p['games_per_run']} games), {p['cpu_games_per_s']} per CPU-second",
                flush=True,
            )
        if playouts_only:
            continue
        for players in sorted({game.min_players, game.max_players}):
            entry["render"].append(bench_render(game_id, players, None, samples))
            if game.has_hidden_information:
                entry["render"].append(bench_render(game_id, players, 0, samples))
        if not as_json:
            for r in entry["render"]:
                print(
                    f"  render {r['picture']:7} {r['players']}p: median {r['median_ms']} ms, "
                    f"p95 {r['p95_ms']} ms, PNG {r['png_kb_median']} KB "
                    f"(max {r['png_kb_max']} KB)"
                )
    if playouts_only:
        if as_json:
            print(json.dumps(report, indent=1))
        return 0
    service_game = "azul" if "azul" in chosen else chosen[0]
    report["service_play"] = asyncio.run(
        bench_service(service_game, 200 if quick else 1000, 60 if quick else 200)
    )
    s = report["service_play"]
    if as_json:
        print(json.dumps(report, indent=1))
    else:
        print(
            f"service.play ({s['game']}, {s['other_matches']} other matches, "
            f"{s['moves']} moves; it answers before the picture is drawn): "
            f"median {s['median_ms']} ms, p95 {s['p95_ms']} ms"
        )
        if s["stuck_matches"]:
            print(f"  WARNING: a seat to act had no legal move in match(es) {s['stuck_matches']}")
    return 0
