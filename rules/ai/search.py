"""Information-set Monte Carlo tree search by determinization, for any game.

The shape follows OpenSpiel's ``mcts.py``/``ismcts.py`` (search separated from the
evaluator; a random-rollout evaluator as the default every game gets), written afresh for
our interface: states are JSON dicts, moves are notations, several seats may act at once.
Where they do, the first seat the game *waits for* (``Game.waits_for``) moves next, as in a
match: a Pastiche offer is answered before its maker's turn goes on, so the search values
an offer by its answer instead of seeing it expire unanswered.

One *tree* is searched from the deciding seat's view. Every iteration

1. samples a full state consistent with that view (the game's determinizer: hidden hands,
   bag order and the random-number state are drawn afresh, so chance is resampled too);
2. walks down the tree by UCT over the moves legal *in that sample* (nodes are keyed by
   the notation path from the root, so one node gathers every sample where the same moves
   were made: single-observer ISMCTS, Cowling, Powley & Whitehouse 2012). Because a move
   may be legal in one sample and not in another, UCT uses each child's *availability*
   count (how often it could have been chosen) instead of the parent's visit count;
3. expands one untried move (highest ``Move.rank`` first: the games' own suggestion order
   is a free prior) and scores the new leaf with the evaluator: a rollout with the
   game's rollout policy to the end, or to the game's cut-off where its evaluation takes
   over;
4. backs the per-seat rewards up: each node keeps the reward of the seat that moved into
   it (max^n style, so 3–5-player games need nothing special).

Determinism: everything random comes from one :class:`~rules.rng.Rng` seeded by the caller,
dictionaries are walked in insertion order and no set of strings is ever iterated, so a
given seed and iteration count give the same answer on every machine and Python version.
The budget is therefore an *iteration count*. The wall-clock cap is a safety net only: if
a machine is so overloaded that the iterations take far longer than calibrated, the search
stops early (and that one move is no longer reproducible from its seed, which is the price
of never keeping a table waiting).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from rules.ai.hooks import GameAI
from rules.ai.rewards import rewards
from rules.base import Game, Move, State, View
from rules.rng import Rng

#: UCT exploration constant for rewards in 0–1.
UCT_C = 0.7
#: Rollouts longer than this are cut (a safety net; the games end long before).
MAX_ROLLOUT = 5000
#: Root moves searched when the game has an evaluation (see :func:`_root_shortlist`).
ROOT_WIDTH = 16
#: How often (in iterations) the wall clock is looked at.
CLOCK_EVERY = 8


class Node:
    """A tree node: statistics of the move that led here, for the seat that made it."""

    __slots__ = ("actor", "avail", "children", "total", "visits")

    def __init__(self, actor: int) -> None:
        self.actor = actor
        self.visits = 0
        self.total = 0.0
        self.avail = 1
        self.children: dict[str, Node] = {}


@dataclass(frozen=True, slots=True)
class RootStat:
    """A root move with its search statistics: ``value`` is the mean reward (0–1) for the
    deciding seat over ``visits`` iterations."""

    move: Move
    visits: int
    value: float


def terminal_rewards(game: Game, hooks: GameAI, state: State) -> list[float] | None:
    out = game.outcome(state)
    if out is None:
        return None
    return rewards(out.scores, hooks.score_scale, out.ranks, hooks.reward_weights)


def rollout(game: Game, hooks: GameAI, state: State, rng: Rng) -> list[float]:
    """The default evaluator: play the rollout policy to the end (or to the game's cut-off
    when it has an evaluation) and turn the result into per-seat rewards."""
    start = state
    for depth in range(MAX_ROLLOUT):
        done = terminal_rewards(game, hooks, state)
        if done is not None:
            return done
        if depth and hooks.cutoff(game, start, state, depth):
            values = hooks.evaluate(game, state)
            if values is not None:
                return rewards(values, hooks.score_scale, weights=hooks.reward_weights)
        actor = game.waits_for(state)[0]
        move = hooks.rollout_move(game, state, actor, rng)
        state = game.next_state(state, actor, move)
    values = hooks.evaluate(game, state) or [float(x) for x in game.scores(state)]
    return rewards(values, hooks.score_scale, weights=hooks.reward_weights)


def search(
    game: Game,
    hooks: GameAI,
    view: View,
    seat: int,
    rng: Rng,
    *,
    iterations: int,
    cap_s: float | None = None,
) -> list[RootStat]:
    """Run ISMCTS for ``seat`` and return its root moves, most visited first.

    ``iterations`` is the budget; ``cap_s`` an optional wall-clock safety net (seconds).
    The root's legal moves come from one sample of the view: a seat's own options never
    depend on what it cannot see."""
    first = hooks.determinize(game, view, seat, rng)
    root_moves = hooks.candidates(game, first, seat)
    if not root_moves:
        raise ValueError(f"seat {seat} has no move to make now")
    if len(root_moves) == 1:
        return [RootStat(root_moves[0], 0, 0.5)]
    root_moves = _root_shortlist(game, hooks, first, seat, root_moves)
    root = Node(seat)
    deadline = None if cap_s is None else time.perf_counter() + cap_s
    for i in range(iterations):
        if deadline is not None and i % CLOCK_EVERY == 0 and i and time.perf_counter() > deadline:
            break
        state = first if i == 0 else hooks.determinize(game, view, seat, rng)
        _iterate(game, hooks, root, state, seat, rng, root_moves)
    order = {m.notation: k for k, m in enumerate(root_moves)}
    stats = []
    for m in root_moves:
        child = root.children.get(m.notation)
        if child is None:
            stats.append(RootStat(m, 0, 0.0))
        else:
            stats.append(RootStat(m, child.visits, child.total / max(child.visits, 1)))
    stats.sort(key=lambda s: (-s.visits, -s.value, order[s.move.notation]))
    return stats


def _root_shortlist(
    game: Game, hooks: GameAI, state: State, seat: int, moves: list[Move]
) -> list[Move]:
    """The root moves worth a search, best first by one ply of the game's evaluation.

    Why: a budget of a few hundred iterations spread over a hundred root moves (Maharani
    placements) gives each one or two noisy rollouts, and the search then plays worse than
    the greedy easy level. One ply of the evaluation (the seat's projected score margin
    after the move) is cheap and orders the root; only the best :data:`ROOT_WIDTH` are
    searched, expanded in that order. Games without an evaluation keep every move, in
    their own rank order."""
    if len(moves) <= 2 or hooks.evaluate(game, state) is None:
        return sorted(moves, key=lambda m: -m.rank)
    scored = []
    for k, move in enumerate(moves):
        after = game.next_state(state, seat, move)
        values = hooks.evaluate(game, after)
        assert values is not None
        others = max((v for s, v in enumerate(values) if s != seat), default=0.0)
        scored.append((values[seat] - others, move.rank, -k, move))
    scored.sort(key=lambda x: x[:3], reverse=True)
    return [m for *_, m in scored[:ROOT_WIDTH]]


def _most_promising(untried: list[Move], rng: Rng) -> Move:
    """The untried move to expand: the highest ``Move.rank`` (the game's own suggestion
    order, a free prior), ties broken at random. With a budget of a few visits per root
    move this matters: sensible moves get looked at first."""
    top = max(m.rank for m in untried)
    best = [m for m in untried if m.rank == top]
    return best[rng.below(len(best))] if len(best) > 1 else best[0]


def _iterate(
    game: Game,
    hooks: GameAI,
    root: Node,
    state: State,
    seat: int,
    rng: Rng,
    root_moves: list[Move],
) -> None:
    path: list[Node] = []
    node = root
    actor = seat
    result: list[float] | None = None
    while True:
        result = terminal_rewards(game, hooks, state)
        if result is not None:
            break
        if node is root:
            moves = root_moves
        else:
            actor = game.waits_for(state)[0]
            moves = hooks.candidates(game, state, actor)
        children = node.children
        untried = [m for m in moves if m.notation not in children]
        if untried:
            for m in moves:
                child = children.get(m.notation)
                if child is not None:
                    child.avail += 1
            move = untried[0] if node is root else _most_promising(untried, rng)
            node = children[move.notation] = Node(actor)
            path.append(node)
            state = game.next_state(state, actor, move)
            result = rollout(game, hooks, state, rng)
            break
        best: Node | None = None
        best_move = moves[0]
        best_score = -1.0
        for m in moves:
            child = children[m.notation]
            child.avail += 1
        for m in moves:
            child = children[m.notation]
            score = child.total / child.visits + UCT_C * math.sqrt(
                math.log(child.avail) / child.visits
            )
            if score > best_score:
                best, best_move, best_score = child, m, score
        assert best is not None
        node = best
        path.append(node)
        state = game.next_state(state, actor, best_move)
    for n in path:
        n.visits += 1
        n.total += result[n.actor]
