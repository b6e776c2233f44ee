"""The arguments and the process pool that the replaying benchmarks share (not a test).

Why: ``bench_azul_points`` and ``bench_pastiche_ends`` both replay a range of the arena's
games with an observer, on the same command-line arguments, in a pool of processes, and
print each game as it ends; one copy keeps their games and their ranges the same.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

T = TypeVar("T")
#: Plays arena game ``index`` for these seat levels: (levels, index, seed, budget) → result.
Work = Callable[[list[str], int, int, float], T]


def add_game_arguments(
    parser: argparse.ArgumentParser, seats: str, games: int, budget: float
) -> None:
    """``--seats --games --first --budget --seed --workers``, as ``arena`` names them."""
    parser.add_argument("--seats", default=seats)
    parser.add_argument("--games", type=int, default=games)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--budget", type=float, default=budget)
    parser.add_argument("--seed", type=int, default=101)
    parser.add_argument("--workers", type=int, default=1)


def play_in_pool(work: Work[T], args: argparse.Namespace, show: Callable[[int, T], str]) -> list[T]:
    """Games ``--first`` to ``--first + --games - 1`` in ``--workers`` processes, printed
    (by ``show``) in the order of their index, as soon as each and those before it end."""
    levels = args.seats.split(",")
    indices = range(args.first, args.first + args.games)
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        futures = [pool.submit(work, levels, i, args.seed, args.budget) for i in indices]
        results = []
        for index, future in zip(indices, futures, strict=True):
            result = future.result()
            print(f"game {index}: {show(index, result)}", flush=True)
            results.append(result)
    return results
