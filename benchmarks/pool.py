"""What the benchmarks that replay the arena's games share (not a test).

Why: ``benchmarks.azul_points`` and ``benchmarks.pastiche_ends`` both replay a range of the arena's
games with an observer, on the same command-line arguments, in a pool of processes, and
print each game as it ends; ``benchmarks.reward_shares``, ``benchmarks.taj_mahal_eval`` and
``benchmarks.pastiche_cost`` each play one seat set up differently against the others and report
the same head-to-head figures. One copy keeps their games, ranges and reports the same.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

from bot.tools.arena import wilson

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


def play_in_pool(work: Work[T], args: argparse.Namespace, show: Callable[[T], str]) -> list[T]:
    """Games ``--first`` to ``--first + --games - 1`` in ``--workers`` processes, printed
    (by ``show``) in the order of their index, as soon as each and those before it end."""
    levels = args.seats.split(",")
    indices = range(args.first, args.first + args.games)
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        futures = [pool.submit(work, levels, i, args.seed, args.budget) for i in indices]
        results = []
        for index, future in zip(indices, futures, strict=True):
            result = future.result()
            print(f"game {index}: {show(result)}", flush=True)
            results.append(result)
    return results


def head_to_head(
    play_game: Callable[[int], list[float]], indices: Iterable[int], names: tuple[str, str]
) -> None:
    """Play the games, print each as it ends, then the first side's wins with a 95 %
    interval and both sides' average scores. ``play_game(index)`` gives [the first side's
    score, the second side's, the first side's win credit]; ``names`` labels the sides."""
    first, second = names
    results = []
    for index in indices:
        started = time.process_time()
        result = play_game(index)
        results.append(result)
        cpu = time.process_time() - started
        print(
            f"game {index}: {first} {result[0]:g}, {second} {result[1]:g} ({cpu:.1f} CPU s)",
            flush=True,
        )
    k = len(results)
    wins = sum(r[2] for r in results)
    low, high = wilson(wins, k)
    avg_a, avg_b = (sum(r[i] for r in results) / k for i in (0, 1))
    print(
        f"{first} wins {wins:g} of {k} = {100 * wins / k:.1f} % ({100 * low:.0f}–"
        f"{100 * high:.0f} %); average score {first} {avg_a:.1f}, {second} {avg_b:.1f}"
    )
