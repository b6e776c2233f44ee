"""Where each Azul player's points come from and go, over arena games (a benchmark, not a test).

    python -m benchmarks.azul_points --seats normal,normal --games 28 --budget 2 --seed 101

Why: normal scores about 65 against easy at 2 s but two normal players average about 43
each (docs/computer_players.md). Whether that is tiles denied (lines that fill late, so
fewer wall points) or tiles forced onto the floor decides what a livelier computer player
would have to change, and only the games themselves say which. This watches the arena's own
games (``bot.tools.arena.play_one`` with an observer: the same seeds, seat rotation and move
seeds, no wall clock, so the figures are what an idle machine gives) and adds up, per seat
entry, the points each wall tile scored, the end bonuses and the floor's loss, from the
events the rules emit. Each game's parts must add up to its final score, or it stops.
"""

from __future__ import annotations

import argparse
import statistics
from dataclasses import dataclass

from benchmarks.pool import add_game_arguments, play_in_pool
from bot.tools.arena import play_one, seat_of_entries
from rules.base import Event, State

#: The per-entry figures, in the order they are printed.
PARTS = ("score", "wall_points", "wall_tiles", "bonus", "floor_items", "floor_lost")


@dataclass
class Tally:
    """One game's figures per seat entry, each read from its seat (``seat_of_entries``)."""

    index: int
    parts: dict[str, list[int]]


def tally_game(levels: list[str], index: int, seed: int, budget_s: float) -> Tally:
    """Play arena game ``index`` without the clock and add up its scoring events per entry."""
    n = len(levels)
    by_seat = {part: [0] * n for part in PARTS if part != "score"}

    def observe(_before: State, _seat: int, _after: State, events: list[Event]) -> None:
        for event in events:
            data = event.data
            if event.kind == "tile":
                by_seat["wall_points"][data["seat"]] += data["points"]
                by_seat["wall_tiles"][data["seat"]] += len(data["placed"])
            elif event.kind == "floor":
                by_seat["floor_items"][data["seat"]] += data["items"]
                by_seat["floor_lost"][data["seat"]] += data["lost"]
            elif event.kind == "bonus":
                by_seat["bonus"][data["seat"]] += data["points"]

    result = play_one("azul", levels, index, seed, budget_s, clock=False, observe=observe)
    seat_of = seat_of_entries(index, n)
    tally = Tally(index, {"score": list(result.scores)})
    for part, per_seat in by_seat.items():
        tally.parts[part] = [per_seat[seat_of[e]] for e in range(n)]
    for e in range(n):
        made = tally.parts["wall_points"][e] + tally.parts["bonus"][e]
        if made - tally.parts["floor_lost"][e] != result.scores[e]:
            raise RuntimeError(f"game {index}, entry {e}: the events do not add up to the score")
    return tally


def report(levels: list[str], tallies: list[Tally]) -> None:
    """Per entry the average of every part, then the winner's and loser's averages."""
    print(f"{len(tallies)} games; per game, averages:")
    print("entry  level     " + "  ".join(f"{p:>11}" for p in PARTS))
    for e, level in enumerate(levels):
        means = [statistics.mean(t.parts[p][e] for t in tallies) for p in PARTS]
        print(f"{e:>5}  {level:<8}  " + "  ".join(f"{m:>11.1f}" for m in means))
    for name, pick in (("winner", max), ("loser", min)):
        rows = []
        for t in tallies:
            scores = t.parts["score"]
            e = scores.index(pick(scores))
            rows.append([t.parts[p][e] for p in PARTS])
        means = [statistics.mean(column) for column in zip(*rows, strict=True)]
        print(f"{name:>15}  " + "  ".join(f"{m:>11.1f}" for m in means))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_game_arguments(parser, seats="normal,normal", games=28, budget=2.0)
    args = parser.parse_args()
    tallies = play_in_pool(tally_game, args, lambda tally: str(tally.parts))
    report(args.seats.split(","), tallies)


if __name__ == "__main__":
    main()
