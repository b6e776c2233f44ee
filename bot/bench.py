"""``python -m bot bench``: speed figures, printed, never asserted in tests.

Per game: random full playouts per second (fewest players), median/p95 ms to draw and
encode the public picture (fewest and most players) and the private one where the game
has hands, PNG sizes; then ``service.play`` end to end (load, validate, apply, commit,
render) on a database holding 1,000 other matches.
"""

from __future__ import annotations

import asyncio
import json
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


def bench_playouts(game_id: str, seconds: float) -> dict[str, Any]:
    game = get_game(game_id)
    players = game.min_players
    games, seed = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        random_playout(game, players, seed)
        games, seed = games + 1, seed + 1
    elapsed = time.perf_counter() - start
    return {"players": players, "games": games, "games_per_s": round(games / elapsed, 1)}


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
    from bot.service import MatchService, User

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
                legal = await service.legal_moves(info.id, user)
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
    }


def run_bench(*, as_json: bool, quick: bool, games: list[str] | None) -> int:
    chosen = games or game_ids()
    seconds = 1.0 if quick else 3.0
    samples = 10 if quick else 30
    report: dict[str, Any] = {"games": {}}
    for game_id in chosen:
        game = get_game(game_id)
        entry: dict[str, Any] = {"playouts": bench_playouts(game_id, seconds), "render": []}
        for players in sorted({game.min_players, game.max_players}):
            entry["render"].append(bench_render(game_id, players, None, samples))
            if game.has_hidden_information:
                entry["render"].append(bench_render(game_id, players, 0, samples))
        report["games"][game_id] = entry
        if not as_json:
            p = entry["playouts"]
            print(f"{game.name}: {p['games_per_s']} random {p['players']}-player games/s")
            for r in entry["render"]:
                print(
                    f"  render {r['picture']:7} {r['players']}p: median {r['median_ms']} ms, "
                    f"p95 {r['p95_ms']} ms, PNG {r['png_kb_median']} KB "
                    f"(max {r['png_kb_max']} KB)"
                )
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
            f"{s['moves']} moves incl. render): median {s['median_ms']} ms, "
            f"p95 {s['p95_ms']} ms"
        )
    return 0
