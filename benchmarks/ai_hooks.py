"""Speed of the hidden-information games' computer-player hooks (not part of the test run).

    python -m benchmarks.ai_hooks [--games N]

For Taj Mahal and Pastiche prints: microseconds per ``determinize``, ``evaluate`` and
``candidates`` call on mid-game views, and whole games per second played by uniformly random
moves (``game.random_move``, what a search gets without game knowledge) against games played
by the rollout policy (``AI.rollout_move``), with moves per game. Figures on a shared machine
are noisy: compare runs taken the same way. Times are CPU time of this
process (``time.process_time``), so other work on a shared machine distorts them less.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from rules.ai.hooks import ai_for
from rules.base import Game, Move, State
from rules.pastiche import GAME as PASTICHE
from rules.rng import Rng
from rules.taj_mahal import GAME as TAJ_MAHAL

Chooser = Callable[[Game, State, int, Rng], Move]


def _random(game: Game, state: State, seat: int, rng: Rng) -> Move:
    return game.random_move(state, seat, rng)


def _policy(game: Game, state: State, seat: int, rng: Rng) -> Move:
    return ai_for(game).rollout_move(game, state, seat, rng)


def _game(game: Game, n: int, seed: int, choose: Chooser) -> tuple[State, int]:
    state = game.setup(n, seed)
    rng = Rng.from_seed(seed, "bench")
    moves = 0
    while game.outcome(state) is None:
        seats = game.to_act(state)
        seat = seats[rng.below(len(seats))]
        state, _ = game.apply(state, seat, choose(game, state, seat, rng))
        moves += 1
    return state, moves


def _playouts(game: Game, counts: list[int], games: int, choose: Chooser) -> str:
    start = time.process_time()
    moves = 0
    for g in range(games):
        moves += _game(game, counts[g % len(counts)], g, choose)[1]
    dt = time.process_time() - start
    return f"{games / dt:7.2f} games/s, {moves / games:5.0f} moves/game"


def _mid_game(game: Game, n: int, seed: int, plies: int) -> State:
    state = game.setup(n, seed)
    rng = Rng.from_seed(seed, "mid")
    for _ in range(plies):
        seat = game.to_act(state)[0]
        state, _ = game.apply(state, seat, _policy(game, state, seat, rng))
    return state


def _per_call(fn: Callable[[int], object], calls: int) -> float:
    start = time.process_time()
    for i in range(calls):
        fn(i)
    return (time.process_time() - start) / calls * 1e6


def bench(game: Game, counts: list[int], games: int, random_games: int) -> None:
    hooks = ai_for(game)
    states = [_mid_game(game, n, 7 + n, 40) for n in counts]
    views = [(game.view(s, game.to_act(s)[0]), game.to_act(s)[0]) for s in states]

    def determinize(i: int) -> object:
        view, seat = views[i % len(views)]
        return hooks.determinize(game, view, seat, Rng(i))

    def candidates(i: int) -> object:
        state = states[i % len(states)]
        return hooks.candidates(game, state, game.to_act(state)[0])

    det = _per_call(determinize, 300)
    ev = _per_call(lambda i: hooks.evaluate(game, states[i % len(states)]), 300)
    cand = _per_call(candidates, 100)
    print(f"{game.name} ({', '.join(map(str, counts))} players)")
    print(f"  µs per call: determinize {det:.0f}, evaluate {ev:.0f}, candidates {cand:.0f}")
    print(f"  random moves   {_playouts(game, counts, random_games, _random)}")
    print(f"  rollout policy {_playouts(game, counts, games, _policy)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=30, help="policy games per game")
    args = parser.parse_args()
    bench(TAJ_MAHAL, [3, 4, 5], args.games, args.games)
    bench(PASTICHE, [2, 3, 4], args.games, max(2, args.games // 10))


if __name__ == "__main__":
    main()
