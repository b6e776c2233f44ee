"""Post-game reviews: where a finished match was won and lost, decision by decision.

**What is judged.** Every move still in force (undone moves are left out), from the
position *as the seat that moved saw it then*: ``game.view(state_before, seat)`` — what
that player knew, never the hands revealed later. The engine is
:func:`rules.ai.review.judge`; it runs in the computer players' worker processes
(:meth:`bot.computers.pool.ComputerPool.review`), never on the event loop, a few decisions
at a time (as many as the pool has workers, so a computer's turn waits behind at most one
judged decision, not behind a whole review). Each decision's seed is
:func:`review_seed`: a hash of the match seed, the ply and the seat, from which the match
seed (and so every hidden card) cannot be recovered — the computer players' seeds are made
the same way (:func:`bot.computers.players.move_seed`).

**Who may ask.** Anyone, for a match that is over (finished or aborted): its record is
public then. A running match is refused in words — a review would tell the table what a
search thinks of the positions still being played.

**Cached** per match in the store (``bot/storage/reviews.py``), language-free: the
judgements as JSON with their plies and the moves' words as message JSON. A second
``/review`` — by anyone, after a restart, in another process — reads the row; the words
are said in the reader's language when read (:mod:`bot.matches.review_words`). Two
reviews of one match asked at once in one process share one search.

**Made from** a :class:`Source`: a finished match of the store (:meth:`Reviews.review`) or
an exported record file (:func:`source_of_record`, ``python -m bot review --record``), so
the same code judges both.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.computers.players import move_seed
from bot.matches.core import Core
from bot.matches.errors import NotAllowed, NotFound, no_play_key
from bot.matches.records import hint_plies, hints_used
from bot.matches.rows import effective_moves
from bot.storage import MatchRow, MoveRow
from bot.storage.reviews import ReviewTable
from render.alt_text import Described
from rules import Game, get_game
from rules.ai.review import Judgement, average_loss, budget_for, moments
from rules.words import to_json

#: The version of what a stored analysis holds; a row of another engine is made again.
ENGINE = "review/1"
#: The statuses a review is made for: the match is over, its record public.
OVER = ("finished", "aborted")

#: ``await progress(judged, total)`` after each judged decision.
Progress = Callable[[int, int], Awaitable[None]]


class Judging(Protocol):
    """Where decisions are judged: :class:`bot.computers.pool.ComputerPool` (its worker
    processes), or a stand-in in tests."""

    workers: int

    async def review(
        self, game_id: str, view: Any, seat: int, played: str, *, seed: int, budget_s: float
    ) -> dict[str, Any]: ...


def review_seed(match_seed: int, ply: int, seat: int) -> int:
    """The seed of judging one decision: a hash, so the match seed cannot be recovered."""
    return move_seed(match_seed, ply, seat, "review")


@dataclass(frozen=True, slots=True)
class Source:
    """What a review is made from (a match of the store or a record file)."""

    match_id: int
    game_id: str
    seed: int
    options: dict[str, Any]
    names: list[str]
    status: str
    #: (ply, seat, notation) of every move in force, in order
    moves: list[tuple[int, int, str]]
    #: hints used by each seat (counts), and the plies of the decisions they were asked
    #: for, where recorded (``hint_plies`` in the match settings and its exported record;
    #: older matches: counts only)
    hints_used: list[int] = field(default_factory=list)
    hint_plies: dict[int, list[int]] = field(default_factory=dict)


def source_of_match(match: MatchRow, rows: list[MoveRow]) -> Source:
    return Source(
        match_id=match.id,
        game_id=match.game_id,
        seed=match.seed,
        options=match.options,
        names=match.names,
        status=match.status,
        moves=[(r.ply, r.seat, r.notation) for r in effective_moves(rows)],
        hints_used=hints_used(match),
        hint_plies={int(k): v for k, v in hint_plies(match).items()},
    )


class BadRecord(ValueError):
    """A record file that cannot be reviewed; its message says what is wrong."""


def source_of_record(record: Any) -> Source:
    """The source of an exported record (``python -m bot export``, format
    ``tessera-record/1``); refuses, naming the field, what it cannot review."""
    if not isinstance(record, dict) or record.get("format") != "tessera-record/1":
        raise BadRecord("not a Tessera game record (format tessera-record/1)")
    try:
        game = get_game(str(record["game"]))
    except KeyError:
        raise BadRecord(f"unknown game {record.get('game')!r}") from None
    if record.get("status") not in OVER or "seed" not in record:
        raise BadRecord("the record of a match that is not over (it holds no seed)")
    players = record.get("players")
    moves = record.get("moves")
    if not isinstance(players, list) or not players or not isinstance(moves, list):
        raise BadRecord("players and moves must be lists")
    rows = []
    try:
        for m in moves:
            rows.append(
                MoveRow(
                    int(m["ply"]),
                    str(m["kind"]),
                    int(m["seat"]),
                    "",
                    str(m["notation"]),
                    "",
                    [],
                    0.0,
                )  # fmt: skip
            )
        names = [str(p["name"]) for p in players]
        seed = int(record["seed"])
    except (KeyError, TypeError, ValueError) as exc:
        raise BadRecord(f"a move or player lacks {exc}") from None
    if not game.min_players <= len(names) <= game.max_players:
        raise BadRecord(f"{game.name} is played by {game.min_players}-{game.max_players}")
    used = record.get("hints_used") or []
    try:
        plies = {
            int(k): sorted(int(p) for p in v) for k, v in (record.get("hint_plies") or {}).items()
        }
    except (AttributeError, TypeError, ValueError):
        raise BadRecord("hint_plies must map each seat to the moves of its hints") from None
    return Source(
        match_id=int(record.get("match_id", 0)),
        game_id=game.id,
        seed=seed,
        options=dict(record.get("options") or {}),
        names=names,
        status=str(record["status"]),
        moves=[(r.ply, r.seat, r.notation) for r in effective_moves(rows)],
        hints_used=[int(n) for n in used] if isinstance(used, list) else [],
        hint_plies=plies,
    )


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the match: who moved at ``ply``, what they saw, what they played."""

    ply: int
    seat: int
    #: the seat's view of the position before the move (all the judge is given)
    view: dict[str, Any]
    played: str
    #: the state before the move (never sent to a worker: it holds every hidden card)
    state: dict[str, Any]
    #: whether the seat had more than one legal move (a forced move costs the engine
    #: nothing, so the budget is spread over the others)
    choice: bool = True
    #: the public board then (``view(state, None)``), in games with hidden information,
    #: whose seat picture is the hand: the board the seat saw beside it
    board: dict[str, Any] | None = None


def decisions(game: Game, source: Source) -> list[Decision]:
    """Every decision of the match, replayed from seed and moves."""
    state = game.setup(len(source.names), source.seed, source.options)
    found = []
    for ply, seat, notation in source.moves:
        choice = len(game.legal_moves(state, seat)) > 1
        board = game.view(state, None) if game.has_hidden_information else None
        view = game.view(state, seat)
        found.append(Decision(ply, seat, view, notation, state, choice, board))
        state, _ = game.apply(state, seat, game.parse(state, seat, notation))
    return found


def move_words(game: Game, state: dict[str, Any], seat: int, notation: str) -> Any:
    """The label of ``notation`` in ``state`` as message JSON (said per language later);
    the notation itself when the game cannot read it there."""
    try:
        return to_json(game.parse(state, seat, notation).label)
    except Exception:  # a best move the judge found but the rules refuse: show it raw
        return notation


async def judge_all(
    game: Game,
    source: Source,
    found: Sequence[Decision],
    judging: Judging,
    *,
    budget_s: float | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Judge every decision in ``judging``'s workers, as many at once as it has workers;
    the language-free analysis (what the store keeps)."""
    choices = sum(d.choice for d in found)
    budget = budget_s if budget_s is not None else budget_for(game, choices)
    total, done = len(found), 0
    window = asyncio.Semaphore(max(1, judging.workers))
    lock = asyncio.Lock()

    async def one(d: Decision) -> dict[str, Any]:
        nonlocal done
        async with window:
            judged = await judging.review(
                game.id,
                d.view,
                d.seat,
                d.played,
                seed=review_seed(source.seed, d.ply, d.seat),
                budget_s=budget,
            )
        best = str(judged.get("best", d.played))
        entry = {
            "ply": d.ply,
            "judgement": judged,
            "played_words": move_words(game, d.state, d.seat, d.played),
            "best_words": move_words(game, d.state, d.seat, best),
        }
        async with lock:
            done += 1
            if progress is not None:
                await progress(done, total)
        return entry

    entries = await asyncio.gather(*(one(d) for d in found))
    return {"engine": ENGINE, "budget_s": budget, "decisions": list(entries)}


@dataclass(frozen=True, slots=True)
class Moment:
    """One of a seat's biggest moments, with its words as message JSON."""

    ply: int
    judgement: Judgement
    played_words: Any
    best_words: Any
    #: the seat's view then (its picture is drawn from it)
    view: dict[str, Any]
    #: the public board then, where the seat's picture is its hand (hidden information)
    board: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class SeatReview:
    seat: int
    name: str
    decisions: int
    average_loss: float
    moments: list[Moment]
    hints_used: int
    #: plies of the decisions hints were asked for (None: only the count is known)
    hint_plies: list[int] | None


@dataclass(frozen=True, slots=True)
class Review:
    match_id: int
    game_id: str
    game_name: str
    names: list[str]
    judged: int
    seats: list[SeatReview]
    #: True when this call searched (False: read from the cache or shared)
    searched: bool = False
    budget_s: float = 0.0


def assemble(
    game: Game, source: Source, analysis: dict[str, Any], found: Sequence[Decision]
) -> Review:
    """The review of ``source`` from its stored analysis and its replayed decisions."""
    seen = {d.ply: d for d in found}
    entries = {int(e["ply"]): e for e in analysis["decisions"]}
    judged = {ply: Judgement.from_json(e["judgement"]) for ply, e in entries.items()}

    def ply_of(j: Judgement) -> int:  # the engine may hand back the same or equal objects
        same = [ply for ply, x in judged.items() if x is j]
        return same[0] if same else next(ply for ply, x in judged.items() if x == j)

    biggest = moments(list(judged.values()), per_seat=3)
    averages = average_loss(list(judged.values()))
    seats = []
    for seat, name in enumerate(source.names):
        own = [j for j in judged.values() if j.seat == seat]
        picked = []
        for j in biggest.get(seat, []):
            ply = ply_of(j)
            e = entries[ply]
            d = seen[ply]
            picked.append(Moment(ply, j, e["played_words"], e["best_words"], d.view, d.board))
        known = source.hint_plies.get(seat)
        used = source.hints_used[seat] if seat < len(source.hints_used) else 0
        seats.append(
            SeatReview(
                seat=seat,
                name=name,
                decisions=len(own),
                average_loss=float(averages.get(seat, 0.0)),
                moments=picked,
                hints_used=max(used, len(known or [])),
                hint_plies=known,
            )
        )
    return Review(
        match_id=source.match_id,
        game_id=source.game_id,
        game_name=game.name,
        names=source.names,
        judged=len(judged),
        seats=seats,
        budget_s=float(analysis.get("budget_s", 0.0)),
    )


async def review_source(
    source: Source,
    judging: Judging,
    *,
    budget_s: float | None = None,
    progress: Progress | None = None,
) -> Review:
    """A review made from ``source`` alone, nothing cached (``--record``)."""
    game = get_game(source.game_id)
    found = await asyncio.to_thread(decisions, game, source)
    analysis = await judge_all(game, source, found, judging, budget_s=budget_s, progress=progress)
    return _searched(assemble(game, source, analysis, found))


def _searched(review: Review) -> Review:
    from dataclasses import replace

    return replace(review, searched=True)


class Reviews:
    """The post-game reviews of one service's matches: judged in the computer workers,
    cached in the store."""

    def __init__(self, core: Core) -> None:
        self._core = core
        self._store = core.store
        self.table = ReviewTable(core.store)
        self._running: dict[int, asyncio.Future[dict[str, Any]]] = {}
        #: how many reviews were searched (not read from the cache), for tests and logs
        self.searches = 0

    async def source(self, match_id: int) -> Source:
        """The source of an over match; a running match, a lobby or one with no move is
        refused in words."""
        match = await self._core.load(match_id)
        if match.status == "running":
            raise NotAllowed.said("review.running", match=match.id)
        if match.state is None or match.status not in OVER:
            raise NotAllowed.said(no_play_key(match.status, False), match=match.id)
        source = source_of_match(match, await self._store.moves(match.id))
        if not source.moves:
            raise NotAllowed.said("review.empty", match=match.id)
        return source

    async def review(
        self,
        match_id: int,
        judging: Judging,
        *,
        progress: Progress | None = None,
        budget_s: float | None = None,
    ) -> Review:
        """The review of match ``match_id``: from the store's cache when it holds one
        made with at least this budget, else judged now (sharing a search already running
        for the match), ``budget_s`` seconds per decision (None: the engine's own,
        :func:`rules.ai.review.budget_for`). Why the budget counts: a quick review (a
        tool's ``--budget``, a test) must not be served later as the bot's full one."""
        if not (isinstance(match_id, int) and 0 < match_id < 2**63):
            raise NotFound.said("svc.no_match", match=match_id)
        source = await self.source(match_id)
        game = get_game(source.game_id)
        found = await asyncio.to_thread(decisions, game, source)
        budget = (
            budget_s if budget_s is not None else budget_for(game, sum(d.choice for d in found))
        )
        plies = source.moves[-1][0]
        searched = False
        stored = await self.table.get(match_id)
        if (
            stored is not None
            and stored.engine == ENGINE
            and stored.plies == plies
            and float(stored.analysis.get("budget_s", 0.0)) >= budget * 0.999
        ):
            analysis = stored.analysis
        else:
            pending = self._running.get(match_id)
            if pending is None:
                searched = True
                analysis = await self._search(game, source, found, judging, progress, budget)
            else:
                analysis = await asyncio.shield(pending)
        review = assemble(game, source, analysis, found)
        return _searched(review) if searched else review

    async def _search(
        self,
        game: Game,
        source: Source,
        found: list[Decision],
        judging: Judging,
        progress: Progress | None,
        budget_s: float,
    ) -> dict[str, Any]:
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._running[source.match_id] = future
        try:
            analysis = await judge_all(
                game, source, found, judging, budget_s=budget_s, progress=progress
            )
            await self.table.put(source.match_id, source.moves[-1][0], ENGINE, analysis)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: waiters re-raise it, nobody logs it twice
            raise
        else:
            future.set_result(analysis)
            self.searches += 1
            return analysis
        finally:
            if self._running.get(source.match_id) is future:
                del self._running[source.match_id]

    async def pictures(
        self, review: Review, lang: str
    ) -> dict[tuple[int, int], list[tuple[str, Described]]]:
        """Each moment's pictures, keyed (seat, ply), each with its kind ("" for the seat's
        picture, "board" for the public board beside a hand): the position as that seat
        saw it then — the game's picture for that seat (in a game with hidden information
        its own hand, never another's, and then the public board too) — drawn in the
        picture workers, their words in ``lang``."""
        pool = self._core.pool
        jobs: list[tuple[int, int, str, dict[str, Any], int | None]] = []
        for s in review.seats:
            for m in s.moments:
                if m.board is not None:
                    jobs.append((s.seat, m.ply, "board", m.board, None))
                jobs.append((s.seat, m.ply, "", m.view, s.seat))
        drawn = await asyncio.gather(
            *(pool.render(review.game_id, v, review.names, who, lang) for *_, v, who in jobs)
        )
        out: dict[tuple[int, int], list[tuple[str, Described]]] = {}
        for (seat, ply, kind, _view, _who), done in zip(jobs, drawn, strict=True):
            if done is not None:
                out.setdefault((seat, ply), []).append((kind, done[0]))
        return out
