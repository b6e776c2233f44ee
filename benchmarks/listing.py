"""Time to list a seat's legal moves, per game, A/B between source trees (a benchmark, not a
test).

``python -m benchmarks.listing --games pastiche --rounds 3 old=/tmp/old new=.`` runs, for
each round and source tree (alternating the order), one fresh process with that tree on its
path. The process plays ``--playouts`` random games of each game (seeds 0.., fewest players,
the rules' own random policy), keeps every state where someone must act, and lists the
acting seat's legal moves in each state twice: **cold** (the first pass of a fresh process,
as after a restart; caches fill as it goes) and **warm** (the same states again). Each state
is read back from its JSON text before it is listed, outside the timer, so no call sees an
object an earlier call touched — as the bot reads a match from the database for every click.

Why it exists: the bot lists the acting seat's legal moves once per version of a match (the
button panel, autocomplete, hints and the load test's player all read that listing), and in
Pastiche's placing phase that listing was the largest single cost of a move under load.
Printed per run: median, p95 and max µs per listing and CPU µs per listing (``process_time``
over the pass); then per tree the medians over rounds. Compare trees only within one
invocation: the machine's speed drifts, interleaving is what makes the comparison fair.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


def _child(games: list[str], playouts: int) -> dict[str, Any]:
    """Runs inside the measured tree: its ``rules`` is the one on ``sys.path``."""
    from rules.playout import random_playout
    from rules.registry import get_game

    out: dict[str, Any] = {}
    for game_id in games:
        game = get_game(game_id)
        players = game.min_players
        texts: list[tuple[str, int]] = []

        def keep(old: dict[str, Any], seat: int, *_: Any) -> None:
            texts.append((json.dumps(old), seat))  # noqa: B023 - used within this loop

        for seed in range(playouts):
            random_playout(game, players, seed, on_step=keep)
        passes: dict[str, Any] = {}
        for name in ("cold", "warm"):
            times: list[float] = []
            cpu = 0.0
            for text, seat in texts:
                state = json.loads(text)
                c0, t0 = time.process_time(), time.perf_counter()
                game.legal_moves(state, seat)
                t1, c1 = time.perf_counter(), time.process_time()
                times.append(t1 - t0)
                cpu += c1 - c0
            ordered = sorted(times)
            passes[name] = {
                "median_us": 1e6 * statistics.median(ordered),
                "p95_us": 1e6 * ordered[int(0.95 * (len(ordered) - 1))],
                "max_us": 1e6 * ordered[-1],
                "cpu_us": 1e6 * cpu / len(times),
            }
        out[game_id] = {"states": len(texts), "players": players, **passes}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "trees",
        nargs="*",
        help="name=path of a source tree (default: new=this repository)",
    )
    parser.add_argument("--games", nargs="+", default=["azul", "taj-mahal", "maharani", "pastiche"])
    parser.add_argument("--playouts", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(_child(args.games, args.playouts)))
        return
    here = Path(__file__).resolve().parents[1]  # the repository, wherever it is run from
    trees = [t.split("=", 1) for t in (args.trees or [f"new={here}"])]
    print(f"load average {os.getloadavg()[0]:.2f} before; {args.playouts} random games per game")
    results: dict[str, list[dict[str, Any]]] = {name: [] for name, _ in trees}
    for round_ in range(args.rounds):
        order = trees if round_ % 2 == 0 else trees[::-1]
        for name, path in order:
            root = str(Path(path).resolve())
            done = subprocess.run(
                [
                    sys.executable,
                    str(Path(__file__).resolve()),
                    "--child",
                    "--playouts",
                    str(args.playouts),
                    "--games",
                    *args.games,
                ],
                cwd=root,
                env={**os.environ, "PYTHONPATH": root},
                capture_output=True,
                text=True,
                check=True,
            )
            run = json.loads(done.stdout)
            results[name].append(run)
            for game_id, r in run.items():
                print(
                    f"round {round_} {name:>6} {game_id:>9} ({r['states']} states): "
                    + "; ".join(
                        f"{p} median {r[p]['median_us']:.0f} p95 {r[p]['p95_us']:.0f} "
                        f"max {r[p]['max_us']:.0f} cpu {r[p]['cpu_us']:.0f} µs"
                        for p in ("cold", "warm")
                    ),
                    flush=True,
                )
    print("medians over rounds (µs per listing: median / p95 / cpu)")
    for game_id in args.games:
        for name, _ in trees:
            cells = []
            for p in ("cold", "warm"):
                cells.append(
                    f"{p} "
                    + " / ".join(
                        f"{statistics.median(run[game_id][p][k] for run in results[name]):.0f}"
                        for k in ("median_us", "p95_us", "cpu_us")
                    )
                )
            print(f"{game_id:>9} {name:>6}: " + "; ".join(cells))


if __name__ == "__main__":
    main()
