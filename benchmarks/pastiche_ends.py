"""How Pastiche arena games end, and who wins each way (a benchmark, not a test).

    python -m benchmarks.pastiche_ends --seats normal,random,random,random --games 200 \\
        --budget 0.2 --seed 101 --workers 2

Why: at four players normal lost 5 of 200 games to random at 0.2 s, each by a few points.
A Pastiche game ends one of two ways: someone's completed commissions reach the trigger
(35 points at four players) and the round is finished, or the hex supply runs out and the
last hexes are played (our [R] house rule, ``docs/pastiche.md``). Which way a game ended
is not in the arena's record, and whether the losses cluster in one kind of ending says
where to look. This replays the arena's own games (``bot.tools.arena.play_one`` with an
observer: the same seeds, seat rotation and move seeds, no wall clock, so the scores are
the arena's to the point) and reports, per ending, the first seat level's wins, scores and
completed commissions against the best of the others.
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter
from dataclasses import dataclass

from benchmarks.pool import add_game_arguments, play_in_pool
from bot.tools.arena import play_one, seat_of_entries
from rules.base import Event, State


@dataclass
class Ending:
    """One game, per seat entry, each read from its seat (``seat_of_entries``)."""

    index: int
    end: str
    rounds: int
    scores: list[int]
    wins: list[float]
    done: list[int]


def replay(levels: list[str], index: int, seed: int, budget_s: float) -> Ending:
    """Play Pastiche arena game ``index`` without the clock and note how it ended."""
    n = len(levels)
    last: list[State] = []

    def observe(_before: State, _seat: int, after: State, _events: list[Event]) -> None:
        last[:] = [after]

    result = play_one("pastiche", levels, index, seed, budget_s, clock=False, observe=observe)
    state = last[0]
    seat_of = seat_of_entries(index, n)
    done = [len(state["players"][seat_of[e]]["done"]) for e in range(n)]
    return Ending(index, state["end"], max(state["turns"]), result.scores, result.wins, done)


def report(levels: list[str], endings: list[Ending]) -> None:
    """Per way of ending: games, the first level's wins and averages, the rounds played."""
    print(f"{len(endings)} games; '{levels[0]}' is entry 0, 'best other' the best other score")
    for end in sorted({e.end for e in endings}):
        rows = [e for e in endings if e.end == end]
        wins = sum(e.wins[0] for e in rows)
        mine = statistics.mean(e.scores[0] for e in rows)
        best = statistics.mean(max(e.scores[1:]) for e in rows)
        done = statistics.mean(e.done[0] for e in rows)
        rounds = ", ".join(f"{r}: {k}" for r, k in sorted(Counter(e.rounds for e in rows).items()))
        print(
            f"ended by {end}: {len(rows)} games, {levels[0]} won {wins:g}; "
            f"avg score {mine:.1f} against best other {best:.1f}; "
            f"{levels[0]} completed {done:.2f} commissions; rounds {rounds}"
        )
    lost = [e for e in endings if e.wins[0] < 1]
    for e in lost:
        print(
            f"not won: game {e.index}, ended by {e.end} after {e.rounds} rounds, "
            f"scores {e.scores}, commissions {e.done}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_game_arguments(parser, seats="normal,random,random,random", games=200, budget=0.2)
    args = parser.parse_args()
    levels = args.seats.split(",")
    if not 2 <= len(levels) <= 4:
        parser.error("--seats must name one level for each of 2 to 4 players")
    report(levels, play_in_pool(replay, args, str))


if __name__ == "__main__":
    main()
