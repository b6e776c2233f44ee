"""CPU of a whole match's post-game review, and the review's measured noise, per game.

    python -m benchmarks.review [--games azul,taj-mahal,...] [--players 2] [--seed 1]
                                [--play-budget 0.1] [--positions 6] [--seeds 5]

For each game: plays one match by computer self-play (every seat the normal level, at
``--play-budget`` seconds a move: the moves are a typical match's, how strong does not
change what a review costs), then judges every decision the way the bot's review does
(:func:`rules.ai.review.judge` from the seat's view before the move, each with the budget
:func:`rules.ai.review.budget_for` gives for the match's number of moves) and prints the CPU
seconds of the whole review, the verdicts and each seat's average loss.

Noise: ``--positions`` decisions spread over the match (not forced), each judged again with
``--seeds`` different seeds at the same budget. Printed: the seed-to-seed standard deviation
of the measured gap (``Judgement.gap``: the challenger's margin minus the played move's)
against the noise the judgements report (root mean square of ``Judgement.noise``); their
ratio calibrates :data:`rules.ai.review.NOISE_FACTOR` (1 = the reported noise is the real
spread). CPU time of this process (``time.process_time``): a shared machine distorts it
less than the wall clock.
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter
from dataclasses import dataclass

from rules.ai import choose_move
from rules.ai.review import Judgement, average_loss, budget_for, judge
from rules.base import Game, View
from rules.registry import game_ids, get_game

#: Players of a typical match per game (Taj Mahal needs three).
PLAYERS = {"azul": 2, "taj-mahal": 3, "maharani": 2, "pastiche": 2}


@dataclass(frozen=True, slots=True)
class Decision:
    view: View
    seat: int
    played: str
    choices: int


def play_match(game: Game, players: int, seed: int, budget_s: float) -> list[Decision]:
    """A whole match by normal computers: every decision with the mover's view before it."""
    state = game.setup(players, seed)
    out: list[Decision] = []
    ply = 0
    while game.outcome(state) is None:
        seat = game.waits_for(state)[0]
        view = game.view(state, seat)
        choices = len(game.legal_moves(state, seat))
        move = choose_move(game, view, seat, "normal", seed=seed * 1000 + ply, budget_s=budget_s)
        out.append(Decision(view, seat, move.notation, choices))
        state, _ = game.apply(state, seat, move)
        ply += 1
    return out


def review(game: Game, match: list[Decision], seed: int) -> tuple[list[Judgement], float]:
    budget = budget_for(game, len(match))
    start = time.process_time()
    out = [
        judge(game, d.view, d.seat, d.played, seed=seed + i, budget_s=budget)
        for i, d in enumerate(match)
    ]
    return out, time.process_time() - start


def noise(
    game: Game, match: list[Decision], positions: int, seeds: int
) -> tuple[float, float, int]:
    """(seed-to-seed spread of the gap, RMS of the reported noise, positions used)."""
    budget = budget_for(game, len(match))
    open_ = [d for d in match if d.choices > 1]
    step = max(1, len(open_) // max(1, positions))
    picked = open_[step // 2 :: step][:positions]
    spreads: list[float] = []
    reported: list[float] = []
    for d in picked:
        gaps = []
        for s in range(seeds):
            j = judge(game, d.view, d.seat, d.played, seed=7919 * (s + 1), budget_s=budget)
            gaps.append(j.gap)
            reported.append(j.noise)
        mean = sum(gaps) / len(gaps)
        spreads.append(sum((g - mean) ** 2 for g in gaps) / (len(gaps) - 1))
    spread = math.sqrt(sum(spreads) / len(spreads)) if spreads else 0.0
    rms = math.sqrt(sum(x * x for x in reported) / len(reported)) if reported else 0.0
    return spread, rms, len(picked)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.review", description=__doc__)
    parser.add_argument("--games", default=",".join(game_ids()))
    parser.add_argument("--players", type=int, default=0, help="0: each game's typical count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--play-budget", type=float, default=0.1)
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args()
    for gid in args.games.split(","):
        game = get_game(gid)
        players = args.players or PLAYERS.get(gid, game.min_players)
        t0 = time.process_time()
        match = play_match(game, players, args.seed, args.play_budget)
        played_s = time.process_time() - t0
        forced = sum(1 for d in match if d.choices <= 1)
        judged, cpu = review(game, match, args.seed)
        verdicts = Counter(j.verdict for j in judged)
        losses = average_loss(judged)
        print(
            f"{gid} {players}p: {len(match)} decisions ({forced} forced), "
            f"{budget_for(game, len(match)):.3f} s budget each; "
            f"review CPU {cpu:.1f} s (match played in {played_s:.1f} s)"
        )
        print("  verdicts: " + ", ".join(f"{v} {n}" for v, n in sorted(verdicts.items())))
        print("  average loss per seat: " + ", ".join(f"{s}: {x:.2f}" for s, x in losses.items()))
        if args.positions and args.seeds > 1:
            spread, rms, used = noise(game, match, args.positions, args.seeds)
            ratio = spread / rms if rms else float("nan")
            print(
                f"  noise: {used} positions x {args.seeds} seeds: gap spread {spread:.2f} pts, "
                f"reported noise {rms:.2f} pts (ratio {ratio:.2f})"
            )


if __name__ == "__main__":
    main()
