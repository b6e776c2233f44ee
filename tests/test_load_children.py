"""``python -m bot load --processes 3`` survives a child killed mid-run and reports it
(issue 44: the parent read the dead child's empty output and crashed with IndexError).

A real run on a real PostgreSQL: three bot processes, one killed with SIGKILL once it has
stored moves; the run finishes, merges the other two, and says which child died, how, and
how many moves it had stored (counted in the database, which outlives it)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import asyncpg

from tests import pg_server
from tests.conftest import new_postgres_database

ROOT = Path(__file__).resolve().parent.parent


def _child_pid(parent: int, number: int) -> int | None:
    listing = subprocess.run(
        ["ps", "-ww", "-o", "pid=,args=", "--ppid", str(parent)],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    for line in listing.splitlines():
        pid, _, args = line.strip().partition(" ")
        if args.endswith(f"--child {number}"):
            return int(pid)
    return None


async def test_a_child_killed_mid_run_is_reported_and_the_run_finishes(
    postgres: pg_server.PgServer,
) -> None:
    url = await new_postgres_database(postgres)
    run = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "load", "--processes", "3", "--database", url,
        "--matches", "30", "--seconds", "4", "--no-pictures",
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    conn = None
    victim = None
    try:
        assert run.stdout is not None
        filled = await asyncio.wait_for(run.stdout.readline(), timeout=60)
        assert filled.startswith(b"filled 30 matches"), filled
        began = time.time()  # the fill's own moves are older: only the children's count
        for _ in range(600):  # until child 1 has stored a move (at most a minute)
            await asyncio.sleep(0.1)
            if conn is None:
                try:
                    conn = await asyncpg.connect(url)
                except asyncpg.PostgresError:
                    continue
            try:
                stored = await conn.fetchval(
                    "SELECT count(*) FROM moves WHERE match_id % 3 = 1 AND created_at >= $1",
                    began,
                )
            except asyncpg.UndefinedTableError:
                continue  # not migrated yet
            victim = _child_pid(run.pid, 1) if stored else None
            if victim is not None:
                break
        assert victim is not None, "child 1 never stored a move"
        os.kill(victim, signal.SIGKILL)
        out, err = await asyncio.wait_for(run.communicate(), timeout=120)
        text = out.decode()
        assert run.returncode == 1, (text, err.decode()[-2000:])
        assert "IndexError" not in err.decode()
        found = re.search(
            rf"child 1 \(pid {victim}\) died: killed by SIGKILL; it had stored (\d+) moves", text
        )
        assert found, text
        assert conn is not None
        in_db = await conn.fetchval(
            "SELECT count(*) FROM moves WHERE match_id % 3 = 1 AND created_at >= $1", began
        )
        assert 0 < int(found.group(1)) <= in_db
        assert re.search(r"3 processes, \d+ moves", text)  # the others' figures, merged
    finally:
        if run.returncode is None:
            run.kill()
            await run.wait()
        if conn is not None:
            await conn.close()
