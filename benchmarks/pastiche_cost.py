"""Pastiche's normal against the previous one, which counted every missing colour as one (a
benchmark, not a test).

    python -m benchmarks.pastiche_cost --games 200 --budget 0.2 --seed 101

Why: in four-player game 92 at 0.2 s normal held The Fifer (red, black, white, gray) and
Luncheon of the Boating Party (white among six) from its fifth turn to its twelfth, completed
neither, and lost to a random player when the hex supply ran out. Black, white, gray and
cream never come from a hex (rules section 2.1): white costs three identical cards at the
bank, gray a black and a white. The previous player counted every missing colour as one,
in commission exchanges and in the evaluation's held share, so a commission short of white
looked as near as one short of orange. Today's weighs each colour by what it costs to fetch
(``FETCH_COST`` in ``rules/pastiche/ai.py``); this plays it against the previous one
(``FETCH_COST`` empty for that seat) to show what the weights are worth.

Two players. Seat ``index mod 2`` of game ``index`` plays today's normal, as ``arena`` seats
its first level; the other seat the previous one. No wall clock, the arena's seeds and move
seeds: every result is reproducible. Prints the games as they end, then today's wins with a
95 % interval (the even share is half) and the average scores.
"""

from __future__ import annotations

import argparse

from benchmarks.pool import head_to_head
from bot.tools.arena import play_one
from rules.pastiche import ai as pastiche_ai

PLAYERS = 2


def play(index: int, seed: int, budget: float) -> list[float]:
    """Game ``index``: [today's score, the previous player's, today's win credit]."""
    today = pastiche_ai.FETCH_COST
    today_seat = index % PLAYERS

    def prepare(seat: int) -> None:
        pastiche_ai.FETCH_COST = today if seat == today_seat else {}

    try:
        result = play_one(
            "pastiche", ["normal"] * PLAYERS, index, seed, budget, clock=False, prepare=prepare
        )
    finally:
        pastiche_ai.FETCH_COST = today
    return [result.scores[0], result.scores[1], result.wins[0]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--budget", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=101)
    args = parser.parse_args()
    head_to_head(
        lambda index: play(index, args.seed, args.budget),
        range(args.first, args.first + args.games),
        ("today", "previous"),
    )


if __name__ == "__main__":
    main()
