"""Where computer players think: worker processes, never the event loop.

Why a pool of its own beside the picture pool (bot/matches/render_pool.py): a search runs for its
whole time budget (seconds), a picture for milliseconds. Sharing the two picture workers
would make every picture of every match wait behind a computer's two-second think; a
separate pool keeps pictures fast and bounds how many searches run at once. It reuses the
picture pool's *forkserver* (one per bot process; it has imported the rules and the
renderers once), so a worker starts in milliseconds without inheriting the bot's threads
or sockets. Why processes and not threads: the search is Python and holds the GIL, so in a
thread it would take the event loop's time for its whole budget (tests/test_computer_players
checks that the thinking happens in other processes while the loop serves people). The
workers also run at a lower CPU priority (``nice``), so on a busy machine
the loop and the picture workers come first.

Only plain data crosses the process boundary: the seat's *view* (never the full state),
the public history, the seed and the budget go in; notation strings come back. A game
registered at run time (a plug-in, the tests' game) is found in the worker by its
``"module:attribute"`` target, like the renderers. The search functions are named by
target too (default :func:`rules.ai.choose_move` and :func:`rules.ai.suggest`), so a tool
or a test can put a different thinker in the workers without patching them.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import os
import threading
from collections.abc import Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import cache
from typing import Any

from bot.matches.render_pool import forkserver_context
from rules.base import Game
from rules.registry import game_ids, game_target, register_game

log = logging.getLogger(__name__)

CHOOSER = "rules.ai:choose_move"
SUGGESTER = "rules.ai:suggest"
#: The judge of one decision of a finished match (a post-game review, ``bot/matches/review.py``)
REVIEWER = "rules.ai.review:judge"


@cache
def _load(target: str) -> Any:
    module_name, attr = target.split(":")
    return getattr(importlib.import_module(module_name), attr)


def _game(game_id: str, target: str) -> Game:
    game: Game = _load(target)
    if game_id not in game_ids():  # registered at run time in the parent only
        register_game(game)
    return game


#: How much lower the workers' CPU priority is than the bot's (``nice``): a search uses all
#: the CPU it gets for its whole budget, and must not take it from the event loop or the
#: picture workers, whose work is short and someone is waiting for.
NICENESS = 10


def _lower_priority() -> None:
    """Worker initializer: think at a lower CPU priority than the bot itself."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(NICENESS)


def choose_in_worker(
    target: str,
    game_id: str,
    game_at: str,
    view: Any,
    seat: int,
    level: str,
    seed: int,
    budget_s: float,
    history: list[tuple[int, str]],
) -> str:
    """Runs in the worker: the notation of the move ``seat`` makes."""
    move = _load(target)(
        _game(game_id, game_at), view, seat, level, seed=seed, budget_s=budget_s, history=history
    )
    return str(move.notation)


def suggest_in_worker(
    target: str,
    game_id: str,
    game_at: str,
    view: Any,
    seat: int,
    seed: int,
    budget_s: float,
    count: int,
    history: list[tuple[int, str]],
) -> list[tuple[str, float, str]]:
    """Runs in the worker: (notation, value, reason) of the best few moves, best first."""
    found = _load(target)(
        _game(game_id, game_at),
        view,
        seat,
        seed=seed,
        budget_s=budget_s,
        count=count,
        history=history,
    )
    # the reason stays a message (rules.words.Msg, a str) so /hint can say it in the
    # reader's language
    return [(str(s.move.notation), float(s.value), s.reason) for s in found]


def review_in_worker(
    target: str,
    game_id: str,
    game_at: str,
    view: Any,
    seat: int,
    played: str,
    seed: int,
    budget_s: float,
) -> dict[str, Any]:
    """Runs in the worker: the judgement of the move ``played`` by ``seat``, judged from
    the seat's own ``view`` of the position then (:func:`rules.ai.review.judge`), as JSON
    (plain data back across the process boundary)."""
    judged = _load(target)(
        _game(game_id, game_at), view, seat, played, seed=seed, budget_s=budget_s
    )
    return dict(judged.to_json())


class ComputerPool:
    """A bounded pool of thinking workers; ``await`` its methods from the event loop."""

    def __init__(
        self,
        workers: int = 2,
        *,
        processes: bool = True,
        chooser: str = CHOOSER,
        suggester: str = SUGGESTER,
        reviewer: str = REVIEWER,
    ) -> None:
        self.workers = workers
        self.processes = processes
        self.chooser = chooser
        self.suggester = suggester
        self.reviewer = reviewer
        self._executor: Executor | None = None
        # more jobs than workers would only queue inside the executor, out of sight
        self._slots = asyncio.Semaphore(workers)
        self._starting = threading.Lock()

    def _get_executor(self) -> Executor:
        if self._executor is None:
            if self.processes:
                # each worker lowers its own priority as it starts (threads never do: that
                # would lower the bot's own thread)
                self._executor = ProcessPoolExecutor(
                    self.workers, mp_context=forkserver_context(), initializer=_lower_priority
                )
            else:
                self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="think")
        return self._executor

    def _discard(self, executor: Executor | None) -> None:
        if executor is not None and self._executor is executor:
            self._executor = None
            executor.shutdown(wait=False, cancel_futures=True)

    async def _submit(self, job: tuple[Any, ...]) -> tuple[Executor, asyncio.Future[Any]]:
        """Hand ``job`` to a worker. The hand-over runs in a thread, not on the event loop:
        a process pool starts a worker on a job's submission when none is idle, and that
        start waits for the forkserver (its first start preloads the renderers: measured
        0.65 s on the loop, then 20-50 ms for each further worker); making the pool starts
        its resource tracker (a process too)."""

        def submit() -> tuple[Executor, Future[Any]]:
            with self._starting:  # one executor, however many jobs come at once
                executor = self._get_executor()
            return executor, executor.submit(*job)  # submits now, or raises

        executor, future = await asyncio.to_thread(submit)
        return executor, asyncio.wrap_future(future)

    async def _run(self, *job: Any) -> Any:
        """Run ``job`` in a worker. Errors raised by the thinking itself come back as they
        are; a pool that broke (a worker was killed) is replaced and the job tried once more;
        if worker processes cannot start at all, threads think instead (logged)."""
        async with self._slots:
            for attempt in (1, 2):
                try:
                    executor, future = await self._submit(job)
                except BrokenProcessPool:  # broke while idle
                    self._discard(self._executor)
                    executor, future = await self._submit(job)
                except (RuntimeError, OSError) as exc:
                    if not self.processes:
                        raise
                    # e.g. a script without the ``if __name__ == "__main__"`` guard
                    log.warning("thinking processes unavailable (%s); using threads", exc)
                    self._discard(self._executor)
                    self.processes = False
                    executor, future = await self._submit(job)
                try:
                    return await future
                except BrokenProcessPool:
                    self._discard(executor)
                    if attempt == 2:
                        raise
        raise AssertionError("unreachable")

    async def choose(
        self,
        game_id: str,
        view: Any,
        seat: int,
        level: str,
        *,
        seed: int,
        budget_s: float,
        history: Sequence[tuple[int, str]],
    ) -> str:
        """The notation of the move a computer seat makes (see :func:`rules.ai.choose_move`)."""
        return str(
            await self._run(
                choose_in_worker,
                self.chooser,
                game_id,
                game_target(game_id),
                view,
                seat,
                level,
                seed,
                budget_s,
                list(history),
            )
        )

    async def suggest(
        self,
        game_id: str,
        view: Any,
        seat: int,
        *,
        seed: int,
        budget_s: float,
        count: int,
        history: Sequence[tuple[int, str]],
    ) -> list[tuple[str, float, str]]:
        """(notation, value, reason) of the best moves for a seat (:func:`rules.ai.suggest`)."""
        return list(
            await self._run(
                suggest_in_worker,
                self.suggester,
                game_id,
                game_target(game_id),
                view,
                seat,
                seed,
                budget_s,
                count,
                list(history),
            )
        )

    async def review(
        self, game_id: str, view: Any, seat: int, played: str, *, seed: int, budget_s: float
    ) -> dict[str, Any]:
        """The judgement (JSON) of one decision of a finished match: ``played`` by ``seat``
        from its ``view`` then (:func:`rules.ai.review.judge`; a post-game review)."""
        return dict(
            await self._run(
                review_in_worker,
                self.reviewer,
                game_id,
                game_target(game_id),
                view,
                seat,
                played,
                seed,
                budget_s,
            )
        )

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
