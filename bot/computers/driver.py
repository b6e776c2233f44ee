"""Computer players take their turns: the driver shared by the Discord bot and the console.

Why a driver that reads the database rather than a callback after each move: a computer's
turn may begin with a person's click, a clock running out, an undo, a match start — or a
restart of the bot in the middle of a computer's think. The driver therefore only asks
"which running match waits for a computer seat now?" (:meth:`sweep`), and plays those
turns; being woken after every move just makes it ask sooner. Nothing lives in memory
that a restart could lose. It asks an index, not every running match: the store marks
each match with a computer seat that changes (``computer_turns``, kept by triggers; see
``bot/storage/computer_turns.py``), and the driver judges only those, a few at a time,
giving the event loop back after each (at 100,000 running matches reading them all held
the loop for seconds: docs/performance.md, "Computer sweep at 100,000 matches"). And it
asks only for its own shards' matches: of several bot processes on one database, the one
running a server's shard plays that server's computers, so no turn is thought twice.

A computer's move is decided in the worker pool (bot/computers/pool.py) from the seat's view
and the public log, then enters through :meth:`MatchService.play` with the version it was
computed for, exactly like a button press: log row, record, picture, posts and pings are a
person's. A move computed for an old version loses the version check (``BoardChanged``)
and is recomputed from the new position, so it is never applied twice or on a board it
was not made for; two bot processes racing for one turn compute the same move (the seed
is fixed by match, ply and seat) and only one commit wins.

Hints use the same pool: :meth:`hints` returns the best moves for a person now, as the
person's own legal moves (with their words), and counts the hint for the record.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import Any

from bot.computers.players import is_computer
from bot.computers.pool import CHOOSER, SUGGESTER, ComputerPool
from bot.matches.errors import BoardChanged, InvalidMove, NotAllowed
from bot.matches.reports import SeatTurn, TurnReport, User
from bot.matches.service import MatchService
from bot.storage import MatchRow, ShardSlice
from bot.storage.computer_turns import ComputerTurnIndex
from bot.storage.faults import OutageLog
from render.words.say import said_move
from rules import Move
from rules.rng import Rng

log = logging.getLogger(__name__)

#: Recomputations of one turn after lost version races before the driver lets the next
#: sweep try again (each loss means the board really moved: someone else is active).
MAX_RACES = 5


@dataclass(frozen=True, slots=True)
class Hint:
    """One suggested move for a person: their legal move (with their words) and why."""

    move: Move
    value: float
    reason: str


def _waits_for_computer(info: Any) -> bool:
    """Whether the game waits for a computer seat now (``waits_for``, not ``to_act``: a
    computer waiting for a person's answer to its own offer is not due; the service's
    :meth:`MatchService.computer_turn` applies the same rule seat by seat)."""
    return any(is_computer(u) for u in info.waits_for)


#: Rows of the index read (and verdicts written) at once: few round trips to the database.
INDEX_PAGE = 64
#: Matches read at once to be judged. Each is decoded on the event loop (its snapshot's
#: JSON) as the read returns, so this is kept small; the loop is also given back after
#: every match judged (the game's ``waits_for``).
JUDGE_PAGE = 8
#: Most due matches read at once by :meth:`ComputerDriver.pending` (tests, tools).
PENDING_LIMIT = 100_000


class ComputerDriver:
    """Plays computer seats' turns and computes hints. Close with :meth:`close`.

    ``shards``: the Discord shards this process runs (``TESSERA_SHARDS``); it plays only
    the computer turns of those shards' servers (and, on shard 0, of matches without a
    server), so of several bot processes on one database exactly one decides each turn.
    ``playing``: most matches whose computer turns are played at once (the rest wait in
    the index, due, until a slot frees; default twice the workers, so the next turn is
    ready when a worker frees without a backlog held in memory)."""

    def __init__(
        self,
        service: MatchService,
        *,
        workers: int = 2,
        processes: bool = True,
        chooser: str = CHOOSER,
        suggester: str = SUGGESTER,
        shards: ShardSlice | None = None,
        playing: int | None = None,
    ) -> None:
        self.service = service
        self.pool = ComputerPool(workers, processes=processes, chooser=chooser, suggester=suggester)
        #: the computer-turn index of this process's shards (bot/storage/computer_turns.py)
        self.index = ComputerTurnIndex(service.store, shards)
        self.max_playing = playing if playing is not None else 2 * workers
        #: match id -> the task playing its computer turns (one per match at a time)
        self._playing: dict[int, asyncio.Task[None]] = {}
        self._wake = asyncio.Event()
        #: moves played by this driver (for logs and tests)
        self.moves_played = 0
        #: matches judged by this driver (for the benchmark and tests)
        self.judged = 0
        #: called after every computer move (the Discord bot wakes its outbox here)
        self.on_move: Any = lambda report: None

    # ----- finding and playing turns ---------------------------------------------------------
    async def pending(self) -> list[int]:
        """Matches of this process's shards whose next decision belongs to a computer seat
        the game waits for (:func:`_waits_for_computer`), oldest change first: the index's
        unjudged rows are judged first (:meth:`judge_marked`)."""
        await self.judge_marked()
        return [m.match_id for m in await self.index.due(PENDING_LIMIT)]

    async def judge_marked(self, *, start: bool = False) -> int:
        """Judge the index's unjudged rows of this process's shards (changed since the last
        look) page by page, oldest first, each once; with ``start``, play each match found
        due while there is a free slot. Matches being played now are skipped: their task
        looks at them itself, and the next sweep after it ends judges them. Returns how
        many matches were started."""
        started = 0
        after: tuple[float, int] | None = None
        while page := await self.index.unjudged(after, INDEX_PAGE):
            after = (page[-1].since, page[-1].match_id)
            todo = [m for m in page if not self._is_playing(m.match_id)]
            verdicts: list[tuple[int, int, bool]] = []
            for first in range(0, len(todo), JUDGE_PAGE):
                chunk = todo[first : first + JUDGE_PAGE]
                rows = await self.service.store.get_matches([m.match_id for m in chunk])
                found = []
                for marked in chunk:
                    await asyncio.sleep(0)  # the loop's turn: one match judged at a time
                    row = rows.pop(marked.match_id, None)
                    found.append(self._verdict(marked.match_id, marked.version, row))
                del rows
                verdicts += found
                if start:
                    started += self._start([m for m, _, due in found if due])
            self.judged += len(verdicts)
            await self.index.judge(verdicts)
        return started

    def _verdict(self, match_id: int, version: int, row: MatchRow | None) -> tuple[int, int, bool]:
        """(match, the version judged, whether it waits for a computer now)."""
        if row is None or row.status != "running" or row.state is None:
            return match_id, version, False
        if not any(is_computer(s.user_id) for s in row.seats):
            return match_id, row.version, False
        try:
            return match_id, row.version, _waits_for_computer(self.service.describe(row))
        except Exception:
            log.exception("reading match %s failed", match_id)
            return match_id, version, False

    def _is_playing(self, match_id: int) -> bool:
        task = self._playing.get(match_id)
        return task is not None and not task.done()

    def _start(self, match_ids: list[int]) -> int:
        """Start playing these due matches while slots are free; returns how many."""
        started = 0
        for match_id in match_ids:
            if len(self._playing) >= self.max_playing:
                break
            if self._is_playing(match_id):
                continue
            task = asyncio.create_task(
                self._play_match(match_id), name=f"tessera-computer-{match_id}"
            )
            task.add_done_callback(self._ended)
            self._playing[match_id] = task
            started += 1
        return started

    def _ended(self, task: asyncio.Task[None]) -> None:
        """A match's turns are played: its slot is free for the next due match."""
        for match_id, running in list(self._playing.items()):
            if running is task:
                del self._playing[match_id]
        self.wake()

    def watch(self, match_id: int) -> None:
        """A match that may now seat a computer (a lobby got one, a match started): the
        index has marked it already; look at the index now."""
        self.wake()

    async def sweep(self) -> int:
        """Start playing the pending computer turns of this process's shards that are not
        being played yet, as far as slots are free: first those judged due before (a
        restart, or slots were full), then the index's changed matches as they are judged.
        Returns how many matches were started; the moves happen in tasks. Reads only the
        index and the changed matches, never every running match, and gives the loop back
        after each match it judges."""
        free = self.max_playing - len(self._playing)
        started = 0
        if free > 0:
            due = await self.index.due(free + len(self._playing))
            started = self._start([m.match_id for m in due])
        return started + await self.judge_marked(start=True)

    async def settle(self) -> int:
        """Sweep and wait until no running match of this process's shards waits for a
        computer (the console runs this after every line; tests use it). Returns the moves
        played meanwhile."""
        before = self.moves_played
        while True:
            await self.sweep()
            tasks = [t for t in self._playing.values() if not t.done()]
            if not tasks:
                return self.moves_played - before
            await asyncio.gather(*tasks)

    async def _play_match(self, match_id: int) -> None:
        """Computer turns of one match, one after the other, until a person must act."""
        try:
            played = 0
            while await self.play_turn(match_id) is not None:
                played += 1
            if not played:  # judged due, yet nothing to play: judge it again now
                row = await self.service.store.get_match(match_id)
                version = row.version if row is not None else 0
                await self.index.judge([self._verdict(match_id, version, row)])
        except asyncio.CancelledError:
            raise
        except Exception:
            # a failure is retried by the next sweep, never lost: the turn is in the database
            log.exception("computer turn in match %s failed", match_id)

    async def play_turn(self, match_id: int) -> TurnReport | None:
        """Decide and play the computer move the match waits for now (None: none waits)."""
        for _ in range(MAX_RACES):
            turn = await self.service.computer_turn(match_id)
            if turn is None:
                return None
            notation = await self._decide(turn)
            try:
                report = await self._play(turn, notation)
            except BoardChanged:
                log.info("computer move in match %s lost the race; recomputing", match_id)
                continue
            self.moves_played += 1
            self.on_move(report)
            return report
        log.warning("computer move in match %s kept losing races; next sweep", match_id)
        return None

    async def _decide(self, turn: SeatTurn) -> str | None:
        try:
            return await self.pool.choose(
                turn.game_id,
                turn.view,
                turn.seat,
                turn.level,
                seed=turn.seed,
                budget_s=turn.budget_s,
                history=turn.history,
            )
        except Exception:
            log.exception(
                "computer player failed in match %s (%s); playing a legal move instead",
                turn.match_id,
                turn.game_id,
            )
            return None

    async def _play(self, turn: SeatTurn, notation: str | None) -> TurnReport:
        """Through ``service.play`` at the version the move was computed for. A move the
        rules refuse (a search bug) is logged and replaced by one of the seat's own legal
        moves, picked by the same seed, so a match never hangs on a broken search."""
        if notation is not None:
            try:
                return await self.service.play(
                    turn.match_id, turn.user, notation, expected_version=turn.version
                )
            except InvalidMove as exc:
                log.error("computer chose an illegal move in match %s: %s", turn.match_id, exc)
        _, moves = await self.service.turn_for(turn.match_id, turn.user)
        if not moves:
            raise BoardChanged("the computer has no move now")
        fallback = Rng.from_seed(turn.seed, "fallback").choice(moves)
        return await self.service.play(
            turn.match_id, turn.user, fallback.notation, expected_version=turn.version
        )

    # ----- hints -----------------------------------------------------------------------------
    async def hints(self, match_id: int, user: User, count: int = 3) -> tuple[int, list[Hint]]:
        """(version, the best ``count`` moves for ``user`` now, best first); counts one hint
        for the asker's seat. Refusals (hints off, not your turn) come from the service."""
        turn = await self.service.hint_turn(match_id, user)
        try:
            found = await self.pool.suggest(
                turn.game_id,
                turn.view,
                turn.seat,
                seed=turn.seed,
                budget_s=turn.budget_s,
                count=count,
                history=turn.history,
            )
        except Exception:
            log.exception("hint failed in match %s (%s)", match_id, turn.game_id)
            found = []
        info, moves = await self.service.turn_for(match_id, user)
        legal = {m.notation: m for m in moves}
        best = [(legal[n], v, r) for n, v, r in found if n in legal][:count]
        # only the hints are named (in English with the players' names, kept as words)
        hints = [Hint(said_move(move, info.names), v, r) for move, v, r in best]
        if not hints:
            raise NotAllowed.said("hint.none")
        await self.service.count_hint(match_id, turn.seat)
        return turn.version, hints

    # ----- running -----------------------------------------------------------------------
    def turns_pending(self) -> int:
        """Computer turns found waiting and not played yet (the gauge of /metrics)."""
        return sum(not task.done() for task in self._playing.values())

    def wake(self) -> None:
        """Something changed: sweep now rather than at the next interval."""
        self._wake.set()

    async def run_forever(self, interval: float) -> None:
        """Sweep at start (turns pending from before a restart), when woken (after a move,
        a start, a freed slot) and every ``interval`` seconds; each sweep reads the index
        only. A wake during a sweep is kept for the next one. A database that is down is
        a log line a minute (:class:`OutageLog`), not a traceback per sweep."""
        outage = OutageLog(log, "computer sweep")
        while True:
            self._wake.clear()
            try:
                await self.sweep()
                outage.ok()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                outage.failed(exc)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=interval)

    async def close(self) -> None:
        tasks = list(self._playing.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._playing.clear()
        await asyncio.to_thread(self.pool.close)


__all__ = ["ComputerDriver", "Hint"]
