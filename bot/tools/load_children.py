"""``python -m bot load --processes N``: fill a shared PostgreSQL once, run N bot processes
on it (each on shard k of N: its matches and its posts), merge their figures — and survive
a process that dies.

Why a module of its own: the parent only starts, watches and merges; what a process does
is :func:`bot.tools.loadtest.run_load`. A child killed mid-run (``kill -9``, the kernel's
out-of-memory killer) prints no figures: the parent used to read its empty output's last
line and crash with ``IndexError`` (issue 44). Now it says which child died, how (its exit
code or signal), and what it had done — the moves stored in its shard's matches during the
run, counted in the database, which outlives it — and merges the figures of the others.
The run then exits with 1: its figures are those of fewer processes than asked.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.storage import Store, is_postgres_url, open_store
from bot.tools.loadtest import HOT_SET, QUANTILES, _pct, fill_new, post_delays


@dataclass
class Child:
    """One bot process of the run and how it ended."""

    number: int
    pid: int
    returncode: int
    report: dict[str, Any] | None  # its figures; None when it printed none (it died)

    @property
    def how(self) -> str:
        """How a dead child ended, in words: a signal by name, else its exit code."""
        if self.returncode < 0:
            try:
                return f"killed by {signal.Signals(-self.returncode).name}"
            except ValueError:
                return f"killed by signal {-self.returncode}"
        return f"exited with code {self.returncode}"


def _figures(output: bytes) -> dict[str, Any] | None:
    """A child's figures: the JSON object on its last line; None when there is none."""
    lines = output.decode(errors="replace").strip().splitlines()
    if not lines:
        return None
    try:
        report = json.loads(lines[-1])
    except ValueError:
        return None
    return report if isinstance(report, dict) and "raw_play_ms" in report else None


async def moves_by_child(store: Store, processes: int, since: float) -> dict[int, int]:
    """Moves stored since ``since`` in each child's matches (child k plays the matches
    whose id % processes == k)."""
    cur = await store._reader.execute(
        "SELECT k, COUNT(*) FROM (SELECT match_id % ? AS k FROM moves WHERE created_at >= ?) m "
        "GROUP BY k",
        (processes, since),
    )
    return {int(k): int(n) for k, n in await cur.fetchall()}


async def run_processes(
    *,
    matches: int,
    seconds: float,
    rate: float,
    as_json: bool,
    database: str | None,
    processes: int,
    pictures: bool,
) -> int:
    """Fill once, then run ``processes`` bot processes on the shared database (each on
    shard k of ``processes``: its matches and its posts) and merge their figures."""
    if database is None or not is_postgres_url(database):
        raise SystemExit("several processes need a shared PostgreSQL: --database postgresql://…")
    hot = min(HOT_SET, matches)
    t0 = time.perf_counter()
    await fill_new(database, matches, hot)
    if not as_json:
        print(f"filled {matches} matches in {time.perf_counter() - t0:.1f} s", flush=True)
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    argv = [
        sys.executable, "-m", "bot", "load", "--database", database, "--matches", str(matches),
        "--seconds", str(seconds), "--rate", str(rate / processes),
        "--processes", str(processes), "--json",
    ]  # fmt: skip
    if not pictures:
        argv.append("--no-pictures")
    since = time.time()
    procs = [
        await asyncio.create_subprocess_exec(
            *argv, "--child", str(k), cwd=root, env=env, stdout=asyncio.subprocess.PIPE
        )
        for k in range(processes)
    ]
    outputs = [await p.communicate() for p in procs]
    children = [
        Child(k, p.pid, p.returncode if p.returncode is not None else 0, _figures(out))
        for k, (p, (out, _)) in enumerate(zip(procs, outputs, strict=True))
    ]
    reports = [c.report for c in children if c.report is not None]
    play = [v for r in reports for v in r["raw_play_ms"]]
    store = await open_store(database)
    try:
        outbox = await post_delays(store, since)
        done = await moves_by_child(store, processes, since)
    finally:
        await store.close()
    died = [
        {
            "child": c.number,
            "pid": c.pid,
            "how": c.how,
            "moves_stored": done.get(c.number, 0),
        }
        for c in children
        if c.report is None
    ]
    merged = {
        "processes": processes,
        "matches": matches,
        "pictures": pictures,
        "moves": len(play),
        "moves_per_s": round(sum(r["moves_per_s"] for r in reports), 1),
        "play_ms": {q: round(_pct(play, v), 1) for q, v in QUANTILES},
        "conflicts": sum(r["conflicts"] for r in reports),
        "errors": sum(r["errors"] for r in reports),
        "cpu_share": round(sum(r["cpu_share"] for r in reports), 2),
        "outbox_delay_ms": outbox,
        "died": died,
    }  # fmt: skip
    if as_json:
        print(json.dumps(merged, indent=1))
        return 1 if died else 0
    p, o = merged["play_ms"], merged["outbox_delay_ms"]
    print(
        f"{processes} processes, {merged['moves']} moves = {merged['moves_per_s']} moves/s "
        f"({merged['conflicts']} conflicts, {merged['errors']} errors; "
        f"CPU {merged['cpu_share']} cores in the bot processes)"
    )
    print(f"service.play: p50 {p['p50']} ms, p95 {p['p95']} ms, p99 {p['p99']} ms")
    print(
        f"outbox delay (commit → posted): p50 {o['p50']} ms, p95 {o['p95']} ms, "
        f"p99 {o['p99']} ms; {o['posts']} posts, {o['pending']} still queued at the end"
    )
    for d in died:
        print(
            f"child {d['child']} (pid {d['pid']}) died: {d['how']}; it had stored "
            f"{d['moves_stored']} moves in its matches; the figures above are the other "
            f"{len(reports)} processes'"
        )
    return 1 if died else 0
