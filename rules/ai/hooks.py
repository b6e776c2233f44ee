"""What a game may tell the search about itself, with generic defaults.

Why hooks and not subclasses of the games: the rules modules stay about the rules; the
knowledge that only a computer player needs (how to sample what a seat cannot see, a sensible
fast rollout, a heuristic evaluation, how to explain a move in a hint) sits beside them in
``rules/<game>/ai.py`` and is found by convention, so ``rules/ai`` never lists the games.
"""

from __future__ import annotations

import importlib
from functools import cache

from rules.ai.rewards import WEIGHTS
from rules.base import Game, Move, State, View
from rules.rng import Rng
from rules.words import Msg


class GameAI:
    """Game-specific knowledge for the search. Every method has a generic default.

    Besides the five hooks the bot relies on, four tuning knobs with generic defaults:

    - :meth:`iteration_rate` (default :attr:`iterations_per_second`): the calibration that
      turns a time budget into a fixed iteration count (so a move is reproducible from its
      seed; see ``rules/ai/search.py``);
    - :attr:`score_scale`: how many points make a clear lead (see ``rules/ai/rewards.py``);
    - :attr:`reward_weights`: the rank, margin and own-score shares of a reward (same file);
    - :meth:`cutoff`: where a rollout may stop and :meth:`evaluate` take over.
    """

    #: Search iterations per second of budget, measured on the reference machine (2 cores)
    #: with ``python -m bot arena``; the generic default suits small games with short
    #: random rollouts. Games override it with their own measured figure.
    iterations_per_second: float = 400.0
    #: Points that make a clear lead (the margin part of the reward saturates around it).
    score_scale: float = 10.0
    #: Shares of the rank, the margin to the best opponent and the own score in a reward.
    reward_weights: tuple[float, float, float] = WEIGHTS
    #: Whether new computer seats may be *strong* in this game: only where ``python -m bot
    #: arena`` measured three times normal's iterations beating normal (issue 10 asks for a
    #: strong level "where your measurements show more time buys strength"; a level that
    #: thinks three times as long and plays no better would mislead). Off by default: a
    #: game nobody measured offers easy and normal.
    offers_strong: bool = False

    def iteration_rate(self, game: Game, view: View) -> float:
        """Search iterations per second of budget for this position (default: the
        :attr:`iterations_per_second` calibration; games whose cost depends on the player
        count override this with a small table)."""
        return self.iterations_per_second

    def determinize(self, game: Game, view: View, seat: int, rng: Rng) -> State:
        """A full state consistent with ``view`` (what ``seat`` sees): every hidden item the
        seat cannot account for (others' hands, bag, deck order) sampled with ``rng``.

        Must depend only on ``view``, ``seat`` and ``rng``: permuting hidden items the seat
        cannot see must not change the result. The generic default serves games without
        hidden information whose view is their whole state."""
        if game.has_hidden_information:
            raise NotImplementedError(f"{game.id} has hidden information but no determinizer")
        return view

    def candidates(self, game: Game, state: State, seat: int) -> list[Move]:
        """The moves the search considers at the root and in the tree (default: all legal
        moves). Games with hundreds of near-equivalent moves prune here."""
        return game.legal_moves(state, seat)

    def avoids(self, game: Game, view: View, seat: int, move: Move) -> bool:
        """Whether a computer player declines ``move`` as its final choice although the
        rules allow it and its level ranks it first (default: never); it then makes its best
        other move, or this one if it has no other. For moves that only hand the turn back
        (a Maharani refresh with every marker face up): two computer players ranking such a
        pass first would pass to each other for ever, and the match would never end. Only
        the final choice skips it; the search still considers it (so it still expects an
        opponent who might pass), and every decision that did not pick it stays as it was."""
        return False

    def rollout_move(self, game: Game, state: State, seat: int, rng: Rng) -> Move:
        """A fast, sensible move for playouts (default: uniformly random)."""
        return game.random_move(state, seat, rng)

    def evaluate(self, game: Game, state: State) -> list[float] | None:
        """A heuristic standing per seat (higher is better; best on the score's own scale,
        e.g. a projected final score, since :attr:`score_scale` applies to it too). Used
        where :meth:`cutoff` stops a rollout, by the easy level (one greedy ply), and to
        shortlist the root moves of a search. ``None``: rollouts play to the end, easy is
        a short search and every root move is searched."""
        return None

    def cutoff(self, game: Game, start: State, state: State, depth: int) -> bool:
        """Whether a rollout that began at ``start`` and has made ``depth`` moves may stop at
        ``state`` and be scored by :meth:`evaluate` (default: never; play to the end). Only
        consulted when :meth:`evaluate` gives a value."""
        return False

    def explain(self, game: Game, view: View, seat: int, move: Move, value: float) -> str:
        """A one-line reason for a hint (default: the search's rating, 0–100: mostly how
        often the move's simulated games were won, partly by how many points)."""
        return Msg("game.hint.rating", rating=round(100 * value))


def rank_greedy(moves: list[Move], rng: Rng, epsilon: float) -> Move:
    """A rollout move: the best-ranked of ``moves`` (``Move.rank``, the game's own
    suggestion order; the first of equals), or with chance ``epsilon`` a uniformly random
    one. Why not always the best: rollouts that all play the same line would value a
    position by one future; a little noise spreads them over likely ones at almost no
    cost, where a uniformly random policy plays far worse than people (in Azul it dumps
    tiles on the floor)."""
    if rng.below(100) < epsilon * 100:
        return moves[rng.below(len(moves))]
    best = moves[0]
    for m in moves:
        if m.rank > best.rank:
            best = m
    return best


#: The hooks used by games that define none.
GENERIC = GameAI()


@cache
def ai_for(game: Game) -> GameAI:
    """The game's own hooks (``<its package>.ai:AI``) or the generic defaults."""
    package = type(game).__module__.rsplit(".", 1)[0]
    try:
        module = importlib.import_module(f"{package}.ai")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.ai":
            raise
        return GENERIC
    hooks = getattr(module, "AI", None)
    return hooks if isinstance(hooks, GameAI) else GENERIC
