"""Where pictures are drawn: worker processes, so drawing never competes with the event loop.

Why processes and not threads (measured, 2 cores): Pillow holds the GIL while it draws
shapes and text, so two render threads drew no more pictures per second than one (55/s
either way on a mixed set of boards) and every picture slowed the event loop's own work;
two worker processes drew 91/s and left the loop alone. The view (a few KB of plain data)
goes to the worker, the PNG (~40–100 KB) comes back — well under a millisecond of pickling.

Workers fork from a *forkserver* that has imported Pillow, the fonts' module and every
renderer once, so a new pool starts in milliseconds (tests open many services) and no
worker inherits the bot's threads or sockets. A renderer registered at run time is found in
the worker by its ``"module:function"`` target, exactly like the registry does. If a worker
dies, the pool is replaced on the next picture; the picture that was being drawn fails
like any other rendering error (the move itself is already committed).

``processes=False`` keeps the old thread pool (for tools that monkeypatch a renderer); it is
also the fallback when worker processes cannot start (multiprocessing re-imports a script's
``__main__`` in its workers, so a script without the ``if __name__ == "__main__"`` guard
cannot have them; ``python -m bot`` and pytest are fine).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import resource
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import cache
from typing import Any

from render.alt_text import Described
from render.registry import renderer_modules

log = logging.getLogger(__name__)

#: Imported once by the forkserver, so every worker starts with them loaded.
PRELOAD = ["render.registry", "render.common", "render.alt_text", *renderer_modules()]


def draw_png(
    target: str,
    view: dict[str, Any],
    names: list[str],
    seat: int | None,
    lang: str = "en",
    game_id: str = "",
) -> Any:
    """Runs in the worker: (PNG bytes, seconds spent drawing + encoding and describing,
    worker's peak memory in KB, the picture in words). ``lang`` picks the words drawn and
    said (render.words.catalogue); the description comes from the same view
    (``render.alt_text``), so it costs the event loop nothing."""
    from render.alt_text import describe
    from render.common import encode_png
    from render.registry import load_drawer, target_palette

    started = time.perf_counter()
    png = encode_png(load_drawer(target)(view, names, seat, lang), target_palette(target))
    alt = describe(game_id, view, names, seat, lang)
    busy = time.perf_counter() - started
    return png, busy, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, alt


#: How much lower than the bot's the render workers' CPU priority is (``nice``): a move
#: is answered before its picture is drawn, so when the cores are busy the event loop
#: (moves, replies, posts) goes first and pictures take the time that is left.
WORKER_NICENESS = 5


def _lower_priority() -> None:
    """Runs in each render worker as it starts."""
    with contextlib.suppress(OSError):  # not permitted here: draw at normal priority
        os.nice(WORKER_NICENESS)


#: The long-job worker's niceness: below the picture workers too, so a replay being built
#: takes only the CPU that moves and turn pictures leave.
LONG_JOB_NICENESS = 10


def _lowest_priority() -> None:
    with contextlib.suppress(OSError):
        os.nice(LONG_JOB_NICENESS)


def _thread_draw(
    game_id: str, view: dict[str, Any], names: list[str], seat: int | None, lang: str = "en"
) -> Any:
    from render import render_png
    from render.alt_text import describe

    started = time.perf_counter()
    png = render_png(game_id, view, names, seat, lang)
    alt = describe(game_id, view, names, seat, lang)
    return png, time.perf_counter() - started, 0, alt


@cache
def forkserver_context() -> Any:
    """The one forkserver of this process, preloaded with the renderers. The computer
    players' pool (``bot.computers.pool``) starts its workers from it too, so the bot keeps
    one forkserver, not two."""
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(PRELOAD)
    return ctx


class RenderPool:
    """A bounded pool of picture workers. ``await pool.render(...)`` never blocks the loop:
    at most ``2 * workers`` pictures are handed to the executor at once, the rest wait on an
    asyncio semaphore."""

    def __init__(self, workers: int = 2, *, processes: bool = True) -> None:
        self.workers = workers
        self.processes = processes
        self._executor: Executor | None = None
        self._slots = asyncio.Semaphore(2 * workers)
        #: the largest peak memory (maxrss, KB) any worker process reported
        self.worker_maxrss_kb = 0
        self._broken = 0  # pools broken in a row without a picture in between
        self._long_slots = asyncio.Semaphore(1)

    def _get_executor(self) -> Executor:
        if self._executor is None:
            if self.processes:
                self._executor = ProcessPoolExecutor(
                    self.workers, mp_context=forkserver_context(), initializer=_lower_priority
                )
            else:
                self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="render")
        return self._executor

    def _submit(
        self,
        game_id: str,
        view: dict[str, Any],
        names: list[str],
        seat: int | None,
        lang: str = "en",
    ) -> tuple[Executor, asyncio.Future[Any]]:
        loop = asyncio.get_running_loop()
        executor = self._get_executor()
        # each submits now, or raises
        if self.processes:
            from render.registry import renderer_target

            target = renderer_target(game_id)
            return executor, loop.run_in_executor(
                executor, draw_png, target, view, names, seat, lang, game_id
            )
        return executor, loop.run_in_executor(
            executor, _thread_draw, game_id, view, names, seat, lang
        )

    def _discard(self, executor: Executor | None) -> None:
        if executor is not None and self._executor is executor:
            self._executor = None
            executor.shutdown(wait=False, cancel_futures=True)

    async def render(
        self,
        game_id: str,
        view: dict[str, Any] | Callable[[], Awaitable[dict[str, Any]]],
        names: list[str],
        seat: int | None,
        lang: str = "en",
        *,
        wanted: Callable[[], bool] | None = None,
    ) -> tuple[Described, float] | None:
        """(PNG bytes with their description — ``render.alt_text.Described`` —, seconds
        the worker spent on it), the words in ``lang``.

        ``wanted`` is asked once a slot is free, just before drawing: False drops the
        picture (None) — when the queue backs up, a match's older picture waiting here is
        dropped for its newest state instead of costing a worker. ``view`` may be a
        coroutine function that builds the view only then, so a picture that ends up
        dropped costs the event loop nothing while it waits."""
        async with self._slots:
            if wanted is not None and not wanted():
                return None
            if callable(view):
                view = await view()
            try:
                executor, future = self._submit(game_id, view, names, seat, lang)
            except BrokenProcessPool:  # broke while idle (a worker was killed): start afresh
                self._discard(self._executor)
                executor, future = self._submit(game_id, view, names, seat, lang)
            except (RuntimeError, OSError) as exc:
                # worker processes cannot start here (e.g. a script without the
                # ``if __name__ == "__main__"`` guard): draw in threads rather than not at all
                if not self.processes:
                    raise
                log.warning("render processes unavailable (%s); drawing in threads", exc)
                self._discard(self._executor)
                self.processes = False
                executor, future = self._submit(game_id, view, names, seat, lang)
            try:
                png, busy, maxrss, alt = await future
            except BrokenProcessPool:
                # a worker died under this picture (killed, out of memory): this picture
                # fails like any rendering error; the next one gets a fresh pool. Pools
                # that keep breaking before drawing anything mean workers cannot live here
                # (e.g. a script without the __main__ guard): fall back to threads.
                self._discard(executor)
                self._broken += 1
                if self._broken >= 3 and self.processes:
                    log.warning("render worker processes keep dying; drawing in threads")
                    self.processes = False
                raise
        self._broken = 0
        self.worker_maxrss_kb = max(self.worker_maxrss_kb, maxrss)
        return Described(png, alt), busy

    async def run_long(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` (picklable, module-level) in a worker process of its own, one job
        at a time: for work that takes seconds (an animated replay), which must neither
        run on the event loop nor hold a picture worker while turn posts wait for theirs.

        Each job gets a fresh process from the forkserver (``max_tasks_per_child=1``): a
        replay holds a hundred frames in memory, and a process that ends gives all of it
        back, where a long-lived worker would keep its peak. The fork costs milliseconds;
        importing the game's rules in it a few hundred. Without worker processes
        (``processes=False``) the job runs in a thread, still off the event loop."""
        async with self._long_slots:
            loop = asyncio.get_running_loop()
            if not self.processes:
                return await asyncio.to_thread(fn, *args)
            executor = ProcessPoolExecutor(
                1,
                mp_context=forkserver_context(),
                initializer=_lowest_priority,
                max_tasks_per_child=1,
            )
            try:
                try:
                    future = loop.run_in_executor(executor, fn, *args)  # starts the process
                except (RuntimeError, OSError) as exc:  # no worker processes here
                    log.warning("long-job process unavailable (%s); using a thread", exc)
                    return await asyncio.to_thread(fn, *args)
                return await future
            finally:
                executor.shutdown(wait=False)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True)
            self._executor = None
