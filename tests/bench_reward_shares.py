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

from bot.arena import MAX_DECISIONS, move_seed, wilson
from rules.ai import api, choose_move
from rules.ai.hooks import ai_for
from rules.registry import get_game

Shares = tuple[float, float, float]


def _shares(text: str) -> Shares:
    rank, margin, own = (float(x) for x in text.split(","))
    return rank, margin, own


def play(game_id: str, a: Shares, b: Shares, index: int, seed: int, budget: float) -> list[float]:
    """Game ``index``: [a's score, b's score, a's win credit]."""
    game = get_game(game_id)
    hooks = ai_for(game)
    state = game.setup(2, seed + index)
    a_seat = index % 2
    saved, api.CAP_MARGIN_S = api.CAP_MARGIN_S, 1e9
    try:
        for ply in range(MAX_DECISIONS):
            seats = game.to_act(state)
            if not seats:
                break
            seat = seats[0]
            hooks.reward_weights = a if seat == a_seat else b
            move = choose_move(
                game,
                game.view(state, seat),
                seat,
                "normal",
                seed=move_seed(seed + index, ply, seat),
                budget_s=budget,
            )
            state, _ = game.apply(state, seat, move)
    finally:
        api.CAP_MARGIN_S = saved
        vars(hooks).pop("reward_weights", None)  # back to the class's own setting
    out = game.outcome(state)
    assert out is not None, "the game did not end"
    win = 1.0 / len(out.winners) if a_seat in out.winners else 0.0
    return [out.scores[a_seat], out.scores[1 - a_seat], win]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--a", type=_shares, required=True, help="rank,margin,own")
    parser.add_argument("--b", type=_shares, required=True, help="rank,margin,own")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--budget", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=101)
    args = parser.parse_args()
    results = []
    for index in range(args.games):
        started = time.process_time()
        result = play(args.game, args.a, args.b, index, args.seed, args.budget)
        results.append(result)
        cpu = time.process_time() - started
        print(f"game {index}: a {result[0]:g}, b {result[1]:g} ({cpu:.1f} CPU s)", flush=True)
    k = len(results)
    wins = sum(r[2] for r in results)
    low, high = wilson(wins, k)
    avg_a, avg_b = (sum(r[i] for r in results) / k for i in (0, 1))
    print(
        f"a wins {wins:g} of {k} = {100 * wins / k:.1f} % ({100 * low:.0f}–{100 * high:.0f} %);"
        f" average score a {avg_a:.1f}, b {avg_b:.1f}"
    )


if __name__ == "__main__":
    main()
