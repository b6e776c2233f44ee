"""The computer players' worker processes think at a lower CPU priority than the bot
(``nice`` 10 more, as docs/computer_players.md says), measured from outside with ``ps``:
a search uses all the CPU it gets for its whole budget and must not take it from the event
loop or the picture workers."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from bot.computers.pool import NICENESS, ComputerPool


def _niceness(pid: int) -> int:
    """The process's nice value as ``ps`` reports it."""
    out = subprocess.run(
        ["ps", "-o", "ni=", "-p", str(pid)], capture_output=True, text=True, check=True
    )
    return int(out.stdout.strip())


@pytest.mark.skipif(shutil.which("ps") is None, reason="no ps on this machine")
async def test_thinking_workers_run_at_nice_10() -> None:
    pool = ComputerPool(1, processes=True)
    try:
        worker = int(await pool._run(os.getpid))  # a worker's own process id
        assert worker != os.getpid()  # a process, not a thread of the bot
        bot = _niceness(os.getpid())
        assert _niceness(worker) == min(bot + NICENESS, 19)  # 19: the lowest priority
    finally:
        pool.close()
