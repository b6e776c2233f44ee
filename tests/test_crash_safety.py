"""Kill a working service with SIGKILL at random moments, 50 times, and check after each
restart that every acknowledged move is stored, nothing is half-applied and every snapshot
equals the replay of seed + moves."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from bot.matches.service import MatchService
from rules.registry import game_ids

ROOT = Path(__file__).resolve().parent.parent
KILLS = 50


def _games() -> str:
    real = [g for g in game_ids() if g != "test-pile"]
    return ",".join(real or ["test-pile"])


def _run_and_kill(db: str | Path, seed: int, delay: float) -> list[tuple[int, int, str]]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.crash_child", str(db), _games(), str(seed)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )
    acks: list[tuple[int, int, str]] = []
    ready = threading.Event()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("ACK "):
                _, m, ply, notation = line.split(maxsplit=3)
                acks.append((int(m), int(ply), notation.strip()))
                ready.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    if not ready.wait(timeout=60):  # the child is up and moving; now let it run a while
        proc.kill()
        raise AssertionError(
            "crash child made no move: " + (proc.stderr.read() if proc.stderr else "")
        )
    time.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    reader.join(timeout=10)
    assert proc.returncode == -signal.SIGKILL, proc.stderr.read() if proc.stderr else ""
    return acks


async def test_sigkill_never_loses_an_acknowledged_move(database: str | Path) -> None:
    db = database
    # fewer rounds on PostgreSQL: the server outlives each kill, so what is tested there is
    # the client side (a killed process's open transaction rolled back), which needs fewer
    kills = KILLS if isinstance(database, Path) else KILLS // 3
    rng = random.Random(2026)
    acknowledged: list[tuple[int, int, str]] = []
    for kill in range(kills):
        acknowledged += _run_and_kill(db, kill, rng.uniform(0.0, 0.25))
        service = await MatchService.open(db, render=False)
        try:
            stored = {}
            for match_id in {m for m, _, _ in acknowledged}:
                for row in await service.store.moves(match_id):
                    stored[(match_id, row.ply)] = row.notation
            missing = [a for a in acknowledged if stored.get((a[0], a[1])) != a[2]]
            assert missing == [], f"kill {kill}: acknowledged moves lost: {missing[:5]}"
            assert await service.audit() == [], f"kill {kill}: snapshot differs from replay"
        finally:
            await service.close()
    assert len(acknowledged) > kills  # the children really were moving when killed
