"""``python -m bot replay-bench``: how long an animated replay of a long match takes and
how large it is, per game (not part of the tests: it prints figures).

Each game gets one long match, played through the match service into a temporary SQLite
database, then its replay is built exactly as ``/history replay`` builds it (a long-job
worker process of the render pool) and asked for a second time (the cache). The long
matches: Pastiche with 4 players under a *trading* policy (bank trades, swaps, offers and
answers nine times in ten when one is legal) until a match of at least 300 plies is found
— random play ends Pastiche in 150–250 plies, and trades are what make real matches long
—; the other games at their largest player count, the longest of a few random seeds.

Printed per game: plies, turns (= frames − 2), the worker's seconds (replay and drawing,
encoding; and its CPU seconds, which a busy machine disturbs less), the wall-clock seconds
the caller waited, the file (format, width, quality,
bytes, against Discord's 10 MiB) and the cached second request's milliseconds.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.matches.replay import replays_of
from bot.matches.reports import User
from bot.matches.service import MatchService
from render.replay import UPLOAD_LIMIT
from rules import get_game
from rules.base import Game
from rules.playout import random_playout
from rules.rng import Rng

#: (game, players, seeds tried, at least this many plies)
LONG_MATCHES: list[tuple[str, int, int, int]] = [
    ("pastiche", 4, 40, 300),
    ("taj-mahal", 5, 6, 0),
    ("azul", 4, 6, 0),
    ("maharani", 2, 6, 0),
]
TRADES = ("bank", "swap", "offer", "accept", "decline", "counter")


def trading_playout(game: Game, players: int, seed: int) -> list[tuple[int, str]]:
    """A whole Pastiche-like game where trades are preferred: long, like real matches."""
    state = game.setup(players, seed, None)
    rng = Rng.from_seed(seed, "trading")
    log: list[tuple[int, str]] = []
    while game.to_act(state) and len(log) < 5000:
        seats = game.to_act(state)
        seat = seats[rng.below(len(seats))]
        move = None
        if rng.below(10) < 9:
            trades = [m for m in game.legal_moves(state, seat) if m.notation.split()[0] in TRADES]
            if trades:
                move = trades[rng.below(len(trades))]
        if move is None:
            move = game.random_move(state, seat, rng)
        state, _ = game.apply(state, seat, move)
        log.append((seat, move.notation))
    return log


def long_log(game_id: str, players: int, seeds: int, least: int) -> tuple[int, list[Any]]:
    """(seed, log) of the longest match among ``seeds`` (the first ≥ ``least`` plies)."""
    game = get_game(game_id)
    best: tuple[int, list[Any]] = (0, [])
    for seed in range(1, seeds + 1):
        if game_id == "pastiche":
            log = trading_playout(game, players, seed)
        else:
            log = random_playout(game, players, seed)[1]
        if len(log) > len(best[1]):
            best = (seed, log)
        if least and len(log) >= least:
            break
    return best


async def _stored(service: MatchService, game_id: str, players: int, seed: int, log: Any) -> int:
    users = [User(str(9000 + i), f"Player {i + 1}") for i in range(players)]
    info = await service.create_match(game_id, users[0], max_players=players, seed=seed)
    for user in users[1:]:
        await service.join(info.id, user)
    await service.start(info.id, users[0])
    info = await service.info(info.id)
    by_seat = {s.seat: User(s.user_id, s.name) for s in info.seats}
    for seat, notation in log:
        await service.play(info.id, by_seat[seat], notation)
    return info.id


async def bench(out: Path | None, games: list[str] | None) -> list[dict[str, Any]]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        service = await MatchService.open(Path(tmp) / "replay.db", render=False)
        try:
            for game_id, players, seeds, least in LONG_MATCHES:
                if games and game_id not in games:
                    continue
                seed, log = long_log(game_id, players, seeds, least)
                match_id = await _stored(service, game_id, players, seed, log)
                replays = replays_of(service)
                started = time.perf_counter()
                replay = await replays.get(match_id)
                waited = time.perf_counter() - started
                started = time.perf_counter()
                await replays.get(match_id)
                cached_ms = (time.perf_counter() - started) * 1000
                if out:
                    out.mkdir(parents=True, exist_ok=True)
                    (out / f"{game_id}.{replay.format}").write_bytes(replay.data)
                rows.append(
                    {
                        "game": game_id,
                        "players": players,
                        "plies": len(log),
                        "turns": replay.turns,
                        "draw_s": round(replay.draw_s, 2),
                        "encode_s": round(replay.encode_s, 2),
                        "wall_s": round(waited, 2),
                        "cpu_s": round(replay.cpu_s, 2),
                        "format": replay.format,
                        "width": replay.width,
                        "quality": replay.quality,
                        "attempts": replay.attempts,
                        "bytes": len(replay.data),
                        "limit": UPLOAD_LIMIT,
                        "cached_ms": round(cached_ms, 2),
                    }
                )
        finally:
            await service.close()
    return rows


def run_replay_bench(*, out: Path | None, games: list[str] | None, as_json: bool) -> int:
    rows = asyncio.run(bench(out, games))
    if as_json:
        print(json.dumps(rows, indent=1))
        return 0
    for r in rows:
        print(
            f"{r['game']:10} {r['players']}p {r['plies']:4} plies {r['turns']:4} turns: "
            f"worker {r['draw_s']:.1f} s frames + {r['encode_s']:.1f} s encoding, "
            f"({r['cpu_s']:.1f} s CPU), waited {r['wall_s']:.1f} s; "
            f"{r['format']} {r['width']} px q{r['quality']} "
            f"({r['attempts']} tr{'y' if r['attempts'] == 1 else 'ies'}), "
            f"{r['bytes'] / 1_048_576:.2f} MiB of {r['limit'] / 1_048_576:.0f}; "
            f"again from the cache {r['cached_ms']:.1f} ms"
        )
    return 0
