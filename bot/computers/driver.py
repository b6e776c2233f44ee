"""Computer players take their turns: the driver shared by the Discord bot and the console.

Why a driver that reads the database rather than a callback after each move: a computer's
turn may begin with a person's click, a clock running out, an undo, a match start — or a
restart of the bot in the middle of a computer's think. The driver therefore only asks the
service "which running match waits for a computer seat now?" (:meth:`sweep`), and plays
those turns; being woken after every move just makes it ask sooner. Nothing lives in memory
that a restart could lose.

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


class ComputerDriver:
    """Plays computer seats' turns and computes hints. Close with :meth:`close`."""

    def __init__(
        self,
        service: MatchService,
        *,
        workers: int = 2,
        processes: bool = True,
        chooser: str = CHOOSER,
        suggester: str = SUGGESTER,
    ) -> None:
        self.service = service
        self.pool = ComputerPool(workers, processes=processes, chooser=chooser, suggester=suggester)
        #: match id -> the task playing its computer turns (one per match at a time)
        self._playing: dict[int, asyncio.Task[None]] = {}
        self._wake = asyncio.Event()
        #: matches known to seat a computer player (see :meth:`watch`)
        self._watched: set[int] = set()
        #: moves played by this driver (for logs and tests)
        self.moves_played = 0
        #: called after every computer move (the Discord bot wakes its outbox here)
        self.on_move: Any = lambda report: None

    # ----- finding and playing turns ---------------------------------------------------------
    async def pending(self) -> list[int]:
        """Running matches whose next decision belongs to a computer seat the game waits
        for (:func:`_waits_for_computer`). Reads every running match: done at start, every
        sweep interval and by :meth:`settle`."""
        rows = await self.service.store.list_matches(statuses=("running",), limit=100_000)
        out = []
        watched = set()
        for row in rows:
            if not any(is_computer(s.user_id) for s in row.seats):
                continue  # most matches: no game logic needed to skip them
            watched.add(row.id)
            try:
                info = self.service.describe(row)
            except Exception:
                log.exception("reading match %s failed", row.id)
                continue
            if _waits_for_computer(info):
                out.append(info.id)
        self._watched = watched | {m for m in self._watched if m not in {r.id for r in rows}}
        return out

    async def _pending_watched(self) -> list[int]:
        """The cheap look after a wake: only matches known to seat a computer (one read
        each), so a person's move in one of 10,000 matches does not read them all."""
        out = []
        for match_id in sorted(self._watched):
            try:
                info = await self.service.info(match_id)
            except Exception:
                self._watched.discard(match_id)
                continue
            if info.status not in ("lobby", "running") or not any(
                is_computer(s.user_id) for s in info.seats
            ):
                self._watched.discard(match_id)
            elif info.status == "running" and _waits_for_computer(info):
                out.append(match_id)
        return out

    def watch(self, match_id: int) -> None:
        """A match that may now seat a computer (a lobby got one, a match started): look
        at it at the next wake, which this starts."""
        self._watched.add(match_id)
        self.wake()

    async def sweep(self, *, full: bool = True) -> int:
        """Start playing every pending computer turn not already being played; returns how
        many matches were started. Returns at once: the moves happen in tasks. ``full``
        reads every running match; otherwise only the watched ones."""
        started = 0
        for match_id in [m for m, task in self._playing.items() if task.done()]:
            del self._playing[match_id]  # finished tasks are not kept for days
        for match_id in await (self.pending() if full else self._pending_watched()):
            task = self._playing.get(match_id)
            if task is None or task.done():
                self._playing[match_id] = asyncio.create_task(
                    self._play_match(match_id), name=f"tessera-computer-{match_id}"
                )
                started += 1
        return started

    async def settle(self) -> int:
        """Sweep and wait until no running match waits for a computer (the console runs
        this after every line; tests use it). Returns the moves played meanwhile."""
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
            while await self.play_turn(match_id) is not None:
                pass
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
        """Read every running match at start (turns pending from before a restart) and
        every ``interval`` seconds; when woken (after any move), look at the watched
        matches only."""
        full = True
        outage = OutageLog(log, "computer sweep")  # a database down: a line a minute
        while True:
            try:
                await self.sweep(full=full)
                outage.ok()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                outage.failed(exc)
            self._wake.clear()
            try:
                await asyncio.wait_for(self._wake.wait(), timeout=interval)
                full = False
            except TimeoutError:
                full = True

    async def close(self) -> None:
        for task in self._playing.values():
            task.cancel()
        for task in self._playing.values():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._playing.clear()
        await asyncio.to_thread(self.pool.close)


__all__ = ["ComputerDriver", "Hint"]
