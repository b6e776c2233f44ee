"""One Taj Mahal seat with a trial evaluation against two of today's normal (a benchmark,
not a test).

    python -m benchmarks.taj_mahal_eval phase --games 300 --budget 0.2 --seed 101
    python -m benchmarks.taj_mahal_eval phase --against random --first 171 --games 1 --budget 2

Why: normal lost one Taj Mahal game in 174 to two random players at 2 s (game 171 of
``arena --seed 101``). It had kept a hand of one colour for its end-of-game points, played
one card of another colour a visit and withdrew, and fell behind by the fifth visit. The
evaluation (``TajMahalAI.evaluate``) counts the hand's end-of-game points in full from the
first visit, and it values nothing of a palace group's future connections. Each trial
changes one of these, and only play says whether it is stronger:

- ``phase``: the hand's end-of-game points count in proportion to the visits played;
- ``net``: plus the provinces of the seat's largest palace group, times the share of visits
  still to come (where its next palaces may connect);
- ``none``: today's evaluation (a control). With ``--trace`` every decision of the trial
  seat prints its best root moves: ``none --against random --first 171 --games 1 --budget 2
  --trace`` shows game 171 as normal saw it.

Three players. Seat ``index mod 3`` of game ``index`` plays the trial (as ``arena`` seats
the tested level: with ``--against random`` a game is the arena's game of that index),
the others are normal (or random). No wall clock: every search runs its full iteration
count, and game ``index`` has seed ``seed + index`` and the arena's move seeds, so every
result is reproducible. Prints the games as they end, then the trial seat's wins with a 95 %
interval (the even share is a third) and the average scores.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from benchmarks.pool import head_to_head
from bot.tools.arena import play_one
from rules.ai import api
from rules.ai.hooks import ai_for
from rules.ai.search import RootStat
from rules.base import Game, State, View
from rules.registry import get_game
from rules.taj_mahal.ai import TajMahalAI
from rules.taj_mahal.components import components
from rules.taj_mahal.scoring import hand_score

Evaluation = Callable[[TajMahalAI, Game, State], list[float] | None]
PLAYERS = 3


def _left(state: State) -> float:
    """Share of the game's visits still to come (as the evaluation counts it)."""
    visits = components().setup.visits
    return (visits - state["visit"]) / visits


def phased_hand(hooks: TajMahalAI, game: Game, state: State) -> list[float] | None:
    values = TajMahalAI.evaluate(hooks, game, state)
    if values is None or state["over"]:
        return values
    comp = components()
    out = []
    for s, value in enumerate(values):
        specials = [c for c in state["played"][s] if comp.cards[c].kind == "special"]
        points = int(hand_score(state["hands"][s] + specials, comp)["points"])  # type: ignore[call-overload]
        out.append(value - _left(state) * points)
    return out


def largest_group(state: State, seat: int) -> int:
    """Provinces in the seat's largest group of palaces joined by roads."""
    comp = components()
    mine = {c for c, o in state["palace"].items() if o == seat}
    mine |= {c for c, o in state["crowned"].items() if o == seat}
    best = 0
    seen: set[str] = set()
    for city in sorted(mine):
        if city in seen:
            continue
        seen.add(city)
        todo, provinces = [city], set()
        while todo:
            here = todo.pop()
            provinces.add(comp.city_province[here])
            for nb in comp.neighbours[here]:
                if nb in mine and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        best = max(best, len(provinces))
    return best


def with_network(hooks: TajMahalAI, game: Game, state: State) -> list[float] | None:
    values = TajMahalAI.evaluate(hooks, game, state)
    if values is None or state["over"]:
        return values
    return [v + _left(state) * largest_group(state, s) for s, v in enumerate(values)]


TRIALS: dict[str, Evaluation] = {
    "none": TajMahalAI.evaluate,  # today's evaluation: a control, and for --trace
    "phase": phased_hand,
    "net": with_network,
}
#: Root moves shown per decision by ``--trace``.
TRACE_MOVES = 6


def traced(search: Callable[..., list[RootStat]], seat: int) -> Callable[..., list[RootStat]]:
    """``search`` that also prints, for ``seat``'s decisions, the visit, the hand and the
    best root moves with their visits and values (mean reward 0-1): how the figures of
    game 171 in docs/computer_players.md were read."""

    def wrapper(game: Game, hooks: object, view: View, who: int, *args, **kw) -> list[RootStat]:
        stats = search(game, hooks, view, who, *args, **kw)
        if who == seat:
            codes = [components().cards[c["id"]].code for c in view["hand"]]
            scores = [p["score"] for p in view["player_info"]]
            print(f"visit {view['visit']} {view['phase']}: scores {scores}, hand {' '.join(codes)}")
            for stat in stats[:TRACE_MOVES]:
                print(f"    {stat.move.notation:16} visits {stat.visits:5}  value {stat.value:.3f}")
        return stats

    return wrapper


def play(
    trial: str, against: str, index: int, seed: int, budget: float, trace: bool = False
) -> list[float]:
    """Game ``index``: [trial seat's score, the others' average, trial seat's win credit].
    The arena's game of that index with the trial in entry 0 (seat ``index mod 3``)."""
    hooks = ai_for(get_game("taj-mahal"))
    assert isinstance(hooks, TajMahalAI)
    trial_eval = TRIALS[trial].__get__(hooks)
    trial_seat = index % PLAYERS

    def prepare(seat: int) -> None:
        if seat == trial_seat:
            hooks.evaluate = trial_eval  # type: ignore[method-assign]
        else:
            vars(hooks).pop("evaluate", None)

    plain = api.search
    if trace:
        api.search = traced(plain, trial_seat)
    levels = ["normal"] + [against] * (PLAYERS - 1)
    try:
        result = play_one("taj-mahal", levels, index, seed, budget, clock=False, prepare=prepare)
    finally:
        vars(hooks).pop("evaluate", None)  # back to the class's own evaluation
        api.search = plain
    others = result.scores[1:]
    return [result.scores[0], sum(others) / len(others), result.wins[0]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trial", choices=sorted(TRIALS))
    parser.add_argument("--against", choices=["normal", "random"], default="normal")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--budget", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=101)
    parser.add_argument("--trace", action="store_true", help="print the trial seat's searches")
    args = parser.parse_args()
    head_to_head(
        lambda index: play(args.trial, args.against, index, args.seed, args.budget, args.trace),
        range(args.first, args.first + args.games),
        ("trial", "others"),
    )


if __name__ == "__main__":
    main()
