"""The post-game review's engine: how many points one decision lost, judged from the view.

What it answers (:func:`judge`): given what a seat saw when it decided
(``game.view(state_before_the_move, seat)``) and the move it played, which move was better,
by how many **expected points**, how noisy that estimate is, and a verdict that calls a
move a mistake only when the gap is larger than the noise.

**Why from the view.** A review teaches what the player could have known. Judged from the
revealed hands, a move that was right for every hand the opponent might hold would be
called a blunder because of the one hand they did hold; judged from the view, hidden items
are sampled by the game's own determinizer (``rules/<game>/ai.py``), exactly as the
computer players and ``/hint`` decide (``rules/ai/api.py``). Nothing here reads a state.

**Expected points lost.** For a move ``m``, one *sample* is: a full state drawn from the
view by the determinizer, ``m`` applied, then every seat's moves by the game's rollout
policy until the game ends or reaches its evaluation cut-off (Azul: the round's end; Taj
Mahal: the visit's end; Maharani: one round of turns; Pastiche: two rounds; the cut-off is
counted from the position *before* the move, so every move is looked at over the same
horizon), where the game's evaluation (a projected final score, in the game's own points:
Maharani's gold) takes over. The sample's value is the seat's **margin**: its (projected)
score minus the best opponent's. Why the margin and not the own score: the games are won
by rank, so a move that gives an opponent 5 points is worse than one that does not, though
the own score is the same (a Pastiche trade, a Taj Mahal prize left to a rival); the best
opponent, because beating the leader is what wins (the search's reward and the easy level
use the same margin). A lone seat's margin is its own score. The *expected points lost*
by the played move is the mean, over samples, of the better move's margin minus the played
move's margin. All candidates are compared with **common random numbers**: sample ``k``
uses the same determinization and the same rollout seed for every move, so the luck of a
draw cancels out of the difference.

**How a decision is judged.** (1) Forced: one legal move, verdict ``forced``, nothing
searched. (2) Shortlist: the game's own candidate moves (``GameAI.candidates``, else the
legal moves) ordered by one ply of the game's evaluation (the seat's projected margin after
the move; a game without an evaluation: a short ISMCTS), the best :data:`WIDTH`, plus the
played move. (3) Selection: every shortlisted move and the played one on the same
:data:`SELECT_SHARE` of the samples; the one of highest mean margin is the *challenger*
(ties go to the played move; when the played move is highest, the runner-up is the
challenger, so the noise is still measured). (4) Measurement: the challenger against the
played move on **fresh** samples (the other half of the budget). Why fresh: the best of
five means is biased upwards (the winner's curse); measured on samples that did not choose
it, the gap is an unbiased estimate of what the played move lost to that move.

**Noise.** ``noise`` is the standard error of the measured gap (the standard deviation of
the per-sample differences over the square root of their number), times
:data:`NOISE_FACTOR`, at least :data:`NOISE_FLOOR` of the game's ``score_scale``. The
factor was calibrated by judging the same positions with different seeds
(``python -m benchmarks.review``): the spread of the gap from seed to seed, which also
holds the luck of which challenger the selection picks, against the mean reported noise
(the figures are in docs/performance.md, "Post-game review"). ``noise`` says how far the
estimate may wander at this budget by chance; it does not cover the bias of the rollout
policy and the evaluation (the search's model of the game), which no seed can show.

**Verdicts** (``scale`` is the game's ``GameAI.score_scale``, the points that make a clear
lead: 12 in Azul, 10 in the others):

- ``forced``: one legal move.
- ``best``: the played move scored highest in the selection and no alternative was
  measured better beyond the noise.
- ``fine``: another move scored higher, but the measured gap is not *significant*: not
  above :data:`Z` × ``noise`` (a little more when few sample pairs measured it:
  :func:`z_for`) or below :data:`FINE_SHARE` × scale (a tenth of a clear lead: too small
  to teach anything).
- ``inaccuracy`` / ``mistake`` / ``blunder``: a significant gap below
  :data:`MISTAKE_SHARE` × scale / below :data:`BLUNDER_SHARE` × scale / at least that
  (Azul: under 3, 3–6, 6 and more points; the others: under 2.5, 2.5–5, 5 and more).

Only these three report a ``loss`` and a different ``best``; ``best`` and ``fine`` report
loss 0 and the played move as ``best`` (the measured figures stay in ``gap`` and ``top``).
``confidence`` is the probability, by the normal approximation of the measured
differences, that the played move is really worse than the challenger:
Φ(gap / noise); a mistake needs a gap above ``Z`` = 2 noises, so at least 0.977.

**Budget.** ``budget_s`` is turned into a sample count with the game's calibrated
iteration rate (``GameAI.iteration_rate``, one sample of one move costs about one search
iteration), never read off the clock but for a wall-clock safety net
(:data:`CAP_FACTOR`), so a judgement is a pure function of (view, seat, played, seed,
budget). :func:`budget_for` spreads :data:`MATCH_BUDGET_S` over a match's decisions so a
whole review fits in 60 s of CPU. Measured with ``python -m benchmarks.review`` (2026-12-06,
this 2-core machine shared with other work; docs/performance.md, "Post-game review"), CPU
seconds per whole match: Azul 22 (2 players) and 19 (4), Taj Mahal 24 (3) and 27 (4),
Maharani 29 (2) and 23 (4), Pastiche 31 (2) and 35 (4). Noise reported / seed-to-seed
spread of the gap, in points: Azul 0.27 / 0.17, Taj Mahal 0.24 / 0.10, Maharani 0.20 /
0.12, Pastiche 0.45 / 0.47, so :data:`NOISE_FACTOR` stays 1.

**What it is not.** The verdicts judge expected points (the margin), not the chance of
winning: a player far ahead who gives up a point for safety (as the search itself may: its
reward is mostly the rank) can be told it lost that point. And the noise is the sampling
noise only; where the rollout policy or the evaluation misjudge a position, every seed
misjudges it alike.

Words: the verdicts are ids (:data:`VERDICTS`) for the front end to word; the reasons are
the game's own ``explain`` messages (``rules.words``), in their stored JSON form.
"""

from __future__ import annotations

import importlib
import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from rules.ai.hooks import GameAI, ai_for
from rules.ai.rewards import rewards
from rules.ai.search import MAX_ROLLOUT, search
from rules.base import Game, Move, State, View
from rules.registry import game_ids, register_game
from rules.rng import Rng
from rules.words import to_json

#: Every verdict, best first ("forced" last: no choice was made).
VERDICTS: tuple[str, ...] = ("best", "fine", "inaccuracy", "mistake", "blunder", "forced")
#: The verdicts that say the played move lost points beyond the noise.
LOSSES: tuple[str, ...] = ("inaccuracy", "mistake", "blunder")
#: A gap is significant when it exceeds this many noises (one-sided 97.7 % by the normal
#: approximation).
Z = 2.0
#: Shares of the game's ``score_scale``: a significant gap below FINE_SHARE is "fine", below
#: MISTAKE_SHARE an inaccuracy, below BLUNDER_SHARE a mistake, else a blunder.
FINE_SHARE = 0.1
MISTAKE_SHARE = 0.25
BLUNDER_SHARE = 0.5
#: Alternatives compared with the played move (the best by one ply of the evaluation).
WIDTH = 4
#: Share of the samples spent choosing the challenger; the rest measure it.
SELECT_SHARE = 0.5
#: The least samples per move in the selection and pairs in the measurement, whatever the
#: budget (fewer cannot estimate a standard error).
MIN_SELECT = 3
MIN_MEASURE = 6
#: The measured standard error times this is the reported noise (calibrated, see the
#: module docstring) ...
NOISE_FACTOR = 1.0
#: ... and at least this share of the game's ``score_scale`` (when every sample gives the
#: same difference, the standard error is 0, but the estimate is not exact).
NOISE_FLOOR = 0.02
#: CPU seconds (in the games' calibrated iteration rates) a whole match's review may
#: spend, spread over its decisions by :func:`budget_for`; the measured CPU per match is in
#: docs/performance.md ("Post-game review").
MATCH_BUDGET_S = 100.0
#: Per decision, never less than this (a tiny budget only measures noise) nor more (a
#: short match gains little beyond it).
MIN_DECISION_S = 0.05
MAX_DECISION_S = 2.0
#: Wall-clock safety net: a judgement stops sampling after this many budgets (at least
#: the budget plus CAP_MARGIN_S) and is then no longer reproducible from its seed.
CAP_FACTOR = 3.0
CAP_MARGIN_S = 0.5


@dataclass(frozen=True, slots=True)
class Judgement:
    """One decision judged. Plain JSON data (see :meth:`to_json`); the reasons are
    ``rules.words`` messages in their stored JSON form (``rules.words.from_json`` reads
    them back). The ply is the caller's (the review knows where in the match it was)."""

    seat: int
    #: Notation of the move played.
    played: str
    #: Notation of the better move; the played move unless the verdict is a loss.
    best: str
    #: Expected points (the game's own, margin to the best opponent) lost against ``best``;
    #: 0 unless the verdict is a loss.
    loss: float
    #: The measured gap's noise at this budget, in points.
    noise: float
    #: Probability that the played move is really worse than the challenger, 0–1.
    confidence: float
    #: One of :data:`VERDICTS`.
    verdict: str
    #: Why ``best`` (the game's ``explain``), stored JSON form of a message.
    reason: Any
    #: Why the played move (the game's ``explain``), stored JSON form.
    played_reason: Any
    #: How many moves were compared (the played one included); 1 when forced.
    candidates: int
    #: Whether the seat had one legal move.
    forced: bool
    #: The challenger: the strongest alternative the selection found (the played move when
    #: forced), named even when the gap is within the noise.
    top: str = ""
    #: The challenger's measured margin minus the played move's, in points (signed: below 0
    #: when the fresh samples favour the played move).
    gap: float = 0.0
    #: Sample pairs the gap was measured on.
    samples: int = 0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> Judgement:
        """A judgement back from :meth:`to_json`; anything else is refused in words that
        name what is allowed."""
        if not isinstance(data, dict):
            raise ValueError("a judgement is a JSON object with the fields of Judgement")
        unknown = sorted(set(data) - set(_FIELDS))
        if unknown:
            raise ValueError(f"a judgement has no field {unknown[0]}; fields: {', '.join(_FIELDS)}")
        values: dict[str, Any] = {}
        for name, (kinds, required) in _FIELDS.items():
            if name not in data:
                if required:
                    raise ValueError(f"a judgement needs the field {name}")
                continue
            value = data[name]
            if kinds and not (
                isinstance(value, kinds) and isinstance(value, bool) == (bool in kinds)
            ):
                allowed = " or ".join(k.__name__ for k in kinds)
                raise ValueError(f"a judgement's {name} is a {allowed}, not {value!r}")
            values[name] = float(value) if kinds == (float, int) else value
        if values["verdict"] not in VERDICTS:
            raise ValueError(f"a judgement's verdict is one of {', '.join(VERDICTS)}")
        return cls(**values)


#: Field -> (allowed JSON types, or () for any message form; required).
_FIELDS: dict[str, tuple[tuple[type, ...], bool]] = {
    "seat": ((int,), True),
    "played": ((str,), True),
    "best": ((str,), True),
    "loss": ((float, int), True),
    "noise": ((float, int), True),
    "confidence": ((float, int), True),
    "verdict": ((str,), True),
    "reason": ((), True),
    "played_reason": ((), True),
    "candidates": ((int,), True),
    "forced": ((bool,), True),
    "top": ((str,), False),
    "gap": ((float, int), False),
    "samples": ((int,), False),
}


def budget_for(game: Game, decisions: int) -> float:
    """The ``budget_s`` of each decision when a match has ``decisions`` moves to judge, so
    the whole review stays within :data:`MATCH_BUDGET_S` calibrated seconds. Pass the
    number of moves in the match's log, as ``benchmarks/review.py`` does (the CPU figures
    are for that count); leaving the forced ones out, which cost nothing, gives the others
    a little more (at most a quarter more CPU in the matches measured)."""
    share = MATCH_BUDGET_S / max(1, decisions)
    return min(MAX_DECISION_S, max(MIN_DECISION_S, share))


def judge(
    game: Game, view: View, seat: int, played: str, *, seed: int, budget_s: float
) -> Judgement:
    """Judge the move ``played`` (notation) by ``seat`` from ``view`` (``game.view(state,
    seat)`` of the state before it; see the module docstring). Deterministic for ``seed``
    and ``budget_s``. Raises ``IllegalMove`` when ``played`` is not legal there."""
    hooks = ai_for(game)
    probe = _sample(game, hooks, view, seat, seed, -1)
    move = game.parse(probe, seat, played)
    legal = game.legal_moves(probe, seat)
    if len(legal) <= 1:
        reason = to_json(hooks.explain(game, view, seat, move, 0.5))
        return Judgement(
            seat, move.notation, move.notation, 0.0, 0.0, 0.0, "forced", reason, reason, 1, True,
            top=move.notation,
        )  # fmt: skip
    total = max(2 * MIN_MEASURE, round(hooks.iteration_rate(game, view) * budget_s))
    deadline = time.perf_counter() + max(CAP_FACTOR * budget_s, budget_s + CAP_MARGIN_S)
    alternatives = _shortlist(game, hooks, view, seat, probe, move, legal, seed, total)
    arms = [move, *alternatives]
    per_move = max(MIN_SELECT, round(total * SELECT_SHARE / len(arms)))
    margins, shares = _select(game, hooks, view, seat, arms, seed, per_move, deadline)
    means = [sum(m) / len(m) for m in margins]
    order = sorted(range(len(arms)), key=lambda i: (-means[i], i))  # ties: the played move
    played_top = order[0] == 0
    challenger = order[1] if played_top else order[0]
    pairs = max(MIN_MEASURE, round(total * (1 - SELECT_SHARE) / 2))
    diffs, measured = _measure(
        game, hooks, view, seat, arms[challenger], move, seed, len(margins[0]), pairs, deadline
    )
    for i, k in ((challenger, 0), (0, 1)):
        shares[i].extend(x[k] for x in measured)
    scale = hooks.score_scale
    gap = sum(diffs) / len(diffs)
    spread = math.sqrt(sum((d - gap) ** 2 for d in diffs) / (len(diffs) - 1))
    noise = max(NOISE_FACTOR * spread / math.sqrt(len(diffs)), NOISE_FLOOR * scale)
    verdict = _verdict(gap, noise, scale, played_top, len(diffs))
    better = arms[challenger] if verdict in LOSSES else move

    def why(m: Move, i: int) -> Any:
        return to_json(hooks.explain(game, view, seat, m, sum(shares[i]) / len(shares[i])))

    played_reason = why(move, 0)
    return Judgement(
        seat=seat,
        played=move.notation,
        best=better.notation,
        loss=round(gap, 3) if verdict in LOSSES else 0.0,
        noise=round(noise, 3),
        confidence=round(_phi(gap / noise), 4),
        verdict=verdict,
        reason=why(better, challenger) if verdict in LOSSES else played_reason,
        played_reason=played_reason,
        candidates=len(arms),
        forced=False,
        top=arms[challenger].notation,
        gap=round(gap, 3),
        samples=len(diffs),
    )


def judge_decision(
    game_id: str, target: str, view: View, seat: int, played: str, *, seed: int, budget_s: float
) -> dict[str, Any]:
    """:func:`judge` for a worker process: the game found by its ``"module:attribute"``
    ``target`` (registered there if the registry does not know ``game_id``, as
    ``bot/computers/pool.py`` does for the computer players), the judgement as JSON."""
    module_name, attr = target.split(":")
    game = getattr(importlib.import_module(module_name), attr)
    if not isinstance(game, Game) or game.id != game_id:
        raise ValueError(f"{target} is not the game {game_id}")
    if game_id not in game_ids():
        register_game(game)
    return judge(game, view, seat, played, seed=seed, budget_s=budget_s).to_json()


def moments(judgements: Iterable[Judgement], per_seat: int = 3) -> dict[int, list[Judgement]]:
    """Each seat's ``per_seat`` biggest losses beyond the noise (verdict in :data:`LOSSES`),
    biggest first (equal losses: the earlier decision first). Every seat judged has an
    entry, empty when it lost nothing beyond the noise."""
    out: dict[int, list[Judgement]] = {}
    for j in judgements:
        out.setdefault(j.seat, [])
        if j.verdict in LOSSES:
            out[j.seat].append(j)
    return {s: sorted(js, key=lambda j: -j.loss)[:per_seat] for s, js in sorted(out.items())}


def average_loss(judgements: Iterable[Judgement]) -> dict[int, float]:
    """Per seat, the mean ``loss`` over its decisions that were not forced (a forced move
    is no decision); a seat whose moves were all forced averages 0. Losses within the noise
    count as 0 (see the module docstring), so this is what the search could tell apart
    from its noise, a little below the true figure rather than inflated by luck."""
    total: dict[int, float] = {}
    count: dict[int, int] = {}
    for j in judgements:
        total.setdefault(j.seat, 0.0)
        count.setdefault(j.seat, 0)
        if not j.forced:
            total[j.seat] += j.loss
            count[j.seat] += 1
    return {s: round(total[s] / count[s], 3) if count[s] else 0.0 for s in sorted(total)}


# ----- the parts of a judgement -----------------------------------------------------------


def z_for(samples: int) -> float:
    """:data:`Z` for a gap measured on ``samples`` pairs: a little more for few pairs, whose
    standard error is itself uncertain (Student's t by its first-order expansion,
    z·(1 + (z² + 1) / (4·df)): 2.5 for 6 pairs, 2.01 for 300)."""
    df = max(1, samples - 1)
    return Z * (1.0 + (Z * Z + 1.0) / (4.0 * df))


def _verdict(gap: float, noise: float, scale: float, played_top: bool, samples: int) -> str:
    if gap <= z_for(samples) * noise or gap < FINE_SHARE * scale:
        return "best" if played_top else "fine"
    if gap < MISTAKE_SHARE * scale:
        return "inaccuracy"
    if gap < BLUNDER_SHARE * scale:
        return "mistake"
    return "blunder"


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def _sample(game: Game, hooks: GameAI, view: View, seat: int, seed: int, k: int) -> State:
    """Sample ``k``'s full state drawn from the view (``k`` = -1: the probe that lists the
    seat's moves; a seat's own options never depend on what it cannot see)."""
    return hooks.determinize(game, view, seat, Rng.from_seed(seed, f"review:state:{seat}:{k}"))


def _margin(values: Sequence[float], seat: int) -> float:
    others = [v for s, v in enumerate(values) if s != seat]
    return values[seat] - max(others) if others else values[seat]


def _play(
    game: Game, hooks: GameAI, start: State, seat: int, move: Move, seed: int, k: int
) -> tuple[float, float]:
    """Sample ``k`` of ``move``: (the seat's margin in points, its reward 0–1 for the hint
    words). The rollout's seed is the sample's, whichever the move (common random numbers);
    the cut-off is counted from ``start``, the position before the move."""
    rng = Rng.from_seed(seed, f"review:roll:{seat}:{k}")
    state = game.next_state(start, seat, move)
    weights = hooks.reward_weights
    for depth in range(1, MAX_ROLLOUT):
        out = game.outcome(state)
        if out is not None:
            shares = rewards(out.scores, hooks.score_scale, out.ranks, weights)
            return _margin(out.scores, seat), shares[seat]
        if hooks.cutoff(game, start, state, depth):
            values = hooks.evaluate(game, state)
            if values is not None:
                return _margin(values, seat), rewards(values, hooks.score_scale, weights=weights)[
                    seat
                ]
        actor = game.waits_for(state)[0]
        state = game.next_state(state, actor, hooks.rollout_move(game, state, actor, rng))
    values = hooks.evaluate(game, state) or [float(x) for x in game.scores(state)]
    return _margin(values, seat), rewards(values, hooks.score_scale, weights=weights)[seat]


def _shortlist(
    game: Game,
    hooks: GameAI,
    view: View,
    seat: int,
    probe: State,
    played: Move,
    legal: list[Move],
    seed: int,
    total: int,
) -> list[Move]:
    """Up to :data:`WIDTH` alternatives to the played move: the game's candidates (else the
    legal moves: a seat outside the game's candidates, e.g. answering an offer another way)
    by one ply of its evaluation; without an evaluation, by a short search's visits."""
    pool = [m for m in hooks.candidates(game, probe, seat) if m.notation != played.notation]
    if not pool:
        pool = [m for m in legal if m.notation != played.notation]
    if hooks.evaluate(game, probe) is None:
        if hooks.candidates(game, probe, seat):
            rng = Rng.from_seed(seed, f"review:search:{seat}")
            stats = search(game, hooks, view, seat, rng, iterations=max(16, total // 4))
            known = {m.notation for m in pool}
            ranked = [s.move for s in stats if s.move.notation in known]
            return ranked[:WIDTH]
        return sorted(pool, key=lambda m: -m.rank)[:WIDTH]
    scored = []
    for k, m in enumerate(pool):
        values = hooks.evaluate(game, game.next_state(probe, seat, m))
        assert values is not None
        scored.append((-_margin(values, seat), -m.rank, k, m))
    scored.sort(key=lambda x: x[:3])
    return [m for *_, m in scored[:WIDTH]]


def _select(
    game: Game,
    hooks: GameAI,
    view: View,
    seat: int,
    arms: list[Move],
    seed: int,
    per_move: int,
    deadline: float,
) -> tuple[list[list[float]], list[list[float]]]:
    """Every move on samples 0 .. ``per_move``-1: per move, the margins and the rewards."""
    margins: list[list[float]] = [[] for _ in arms]
    shares: list[list[float]] = [[] for _ in arms]
    for k in range(per_move):
        if k >= MIN_SELECT and time.perf_counter() > deadline:
            break
        start = _sample(game, hooks, view, seat, seed, k)
        for i, m in enumerate(arms):
            margin, share = _play(game, hooks, start, seat, m, seed, k)
            margins[i].append(margin)
            shares[i].append(share)
    return margins, shares


def _measure(
    game: Game,
    hooks: GameAI,
    view: View,
    seat: int,
    challenger: Move,
    played: Move,
    seed: int,
    first: int,
    pairs: int,
    deadline: float,
) -> tuple[list[float], list[tuple[float, float]]]:
    """The challenger against the played move on fresh samples ``first`` .. (none chose
    the challenger): the differences of margins, and the (challenger, played) rewards."""
    diffs: list[float] = []
    shares: list[tuple[float, float]] = []
    for k in range(first, first + pairs):
        if k - first >= MIN_MEASURE and time.perf_counter() > deadline:
            break
        start = _sample(game, hooks, view, seat, seed, k)
        ours, our_share = _play(game, hooks, start, seat, challenger, seed, k)
        theirs, their_share = _play(game, hooks, start, seat, played, seed, k)
        diffs.append(ours - theirs)
        shares.append((our_share, their_share))
    return diffs, shares
