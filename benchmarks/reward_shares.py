"""Head to head between two reward shares of the same search (a benchmark, not a test).

    python -m benchmarks.reward_shares azul --a 0.5,0.15,0.35 --b 0.6,0.2,0.2 \
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

from benchmarks.pool import head_to_head
from bot.tools.arena import play_one
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


if __name__ == "__main__":
    main()
