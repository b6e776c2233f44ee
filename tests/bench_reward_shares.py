"""Head to head between two reward shares of the same search (a benchmark, not a test).

    python -m tests.bench_reward_shares azul --a 0.5,0.15,0.35 --b 0.6,0.2,0.2 \
        --games 40 --budget 0.2 --seed 101

Why: a game's ``reward_weights`` (``rules/ai/rewards.py``: the rank, margin and own-score
shares of a search's reward) decide how its computer player trades building for denial, and
only play between the two settings says which is stronger. Two-player games only: seat
``(index mod 2)`` of game ``index`` plays with shares ``a``, so each setting sits first in
half the games; both sides are the normal level with its budget turned into iterations (no
wall clock: every search runs its full count, so the result is what an idle machine gives,
and game ``index`` always has seed ``seed + index`` and the arena's move seeds). Prints the
games as they end and then a's wins with a 95 % interval and both sides' average scores.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterable

from bot.arena import play_one, wilson
from rules.ai.hooks import ai_for
from rules.registry import get_game

Shares = tuple[float, float, float]


def _shares(text: str) -> Shares:
    rank, margin, own = (float(x) for x in text.split(","))
    return rank, margin, own


def play(game_id: str, a: Shares, b: Shares, index: int, seed: int, budget: float) -> list[float]:
    """Game ``index``: [a's score, b's score, a's win credit]. The arena's game of that
    index with ``a`` in entry 0 (seat ``index mod 2``)."""
    hooks = ai_for(get_game(game_id))
    a_seat = index % 2

    def prepare(seat: int) -> None:
        hooks.reward_weights = a if seat == a_seat else b

    try:
        result = play_one(
            game_id, ["normal", "normal"], index, seed, budget, clock=False, prepare=prepare
        )
    finally:
        vars(hooks).pop("reward_weights", None)  # back to the class's own setting
    return [result.scores[0], result.scores[1], result.wins[0]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--a", type=_shares, required=True, help="rank,margin,own")
    parser.add_argument("--b", type=_shares, required=True, help="rank,margin,own")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--budget", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=101)
    args = parser.parse_args()
    head_to_head(
        lambda index: play(args.game, args.a, args.b, index, args.seed, args.budget),
        range(args.games),
        ("a", "b"),
    )


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


if __name__ == "__main__":
    main()
