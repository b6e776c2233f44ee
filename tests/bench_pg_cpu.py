"""CPU per move on PostgreSQL, A/B between source trees (a benchmark, not a test).

``python -m tests.bench_pg_cpu --rounds 3 --seconds 40 old=/tmp/old new=.`` starts a durable
PostgreSQL (``tests/pg_server.py``), fills one database with ``--matches`` matches (the load
test's filler), and for each round and source tree (alternating the order) copies it
(``CREATE DATABASE … TEMPLATE``) and runs the three bot processes of ``python -m bot load
--processes 3 --no-pictures`` on it directly (their ``--child k`` form, from that tree).

Why CPU and not moves/s: on a shared 2-core machine throughput follows whatever else runs,
while the CPU a move costs barely does. Every half second it reads from ``/proc`` the CPU
time of the bot processes and of the PostgreSQL server (the postmaster's own and its
reaped children's, plus every live backend); the window is the steady part of the run
(from 8 s after the first move to 3 s before the last, found from the moves' own
timestamps), and the moves and posts in it are counted in the database. Printed per run:
CPU ms per move (total, bot processes, PostgreSQL), moves/s, posts; then the medians per
tree. Flat out, the posts trail the moves, and by how much depends on the code: so the
``whole_*`` figures count from the first move to the end of the outbox's drain (the bot
processes' CPU from ``wait4`` at their end, the server's after their backends ended),
over every move: each move's post paid for (``pending_at_end`` says what was left).
The source trees must share the schema, or the newer tree must migrate the older one's
(the filler runs from this tree: run the script from the older tree to A/B a migration).
``--unix`` connects the bot processes through the server's Unix socket instead of TCP on
127.0.0.1 (what a bot on the database's machine can do).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from tests import pg_server

ROOT = Path(__file__).resolve().parent.parent
TICK = os.sysconf("SC_CLK_TCK")
PROCESSES = 3


def _stat(pid: int) -> list[str] | None:
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return raw[raw.rindex(")") + 2 :].split()


def _cpu(fields: list[str], children: bool = False) -> float:
    """utime + stime (and the reaped children's cutime + cstime) in seconds."""
    ticks = int(fields[11]) + int(fields[12])
    if children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / TICK


def _sample(postmaster: int, bots: list[int]) -> tuple[float, float]:
    """(PostgreSQL CPU s, bot processes CPU s) so far."""
    pg = 0.0
    own = _stat(postmaster)
    if own:
        pg += _cpu(own, children=True)  # backends that exited were reaped by it
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(int(entry))) and int(fields[1]) == postmaster:
            pg += _cpu(fields)
    bot = sum(_cpu(f, children=True) for pid in bots if (f := _stat(pid)))
    return pg, bot


def _psql(server: pg_server.PgServer, db: str, sql: str) -> str:
    done = subprocess.run(
        ["psql", server.url(db), "-Atqc", sql], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def run_once(
    server: pg_server.PgServer,
    postmaster: int,
    root: str,
    db: str,
    matches: int,
    seconds: float,
    unix: bool = False,
) -> dict[str, Any]:
    url = server.socket_url(db) if unix else server.url(db)
    argv = [
        sys.executable, "-m", "bot", "load", "--database", url,
        "--matches", str(matches), "--seconds", str(seconds), "--rate", "0",
        "--processes", str(PROCESSES), "--json", "--no-pictures",
    ]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": root}
    procs = [
        subprocess.Popen([*argv, "--child", str(k)], cwd=root, env=env, stdout=subprocess.PIPE)
        for k in range(PROCESSES)
    ]
    samples: list[tuple[float, float, float]] = []
    stop = threading.Event()

    def sampler() -> None:
        while not stop.is_set():
            pg, bot = _sample(postmaster, [p.pid for p in procs])
            samples.append((time.time(), pg, bot))
            time.sleep(0.5)

    thread = threading.Thread(target=sampler, daemon=True)
    thread.start()
    outputs = [p.stdout.read() if p.stdout else b"" for p in procs]
    final_bot = 0.0
    for p in procs:  # each process's whole CPU, as the kernel hands it over at its end
        _, _, usage = os.wait4(p.pid, 0)
        p.returncode = 0
        final_bot += usage.ru_utime + usage.ru_stime
    stop.set()
    thread.join()
    time.sleep(1.0)  # their backends end with their connections, reaped by the postmaster
    final_pg, _ = _sample(postmaster, [])
    reports = [json.loads(out.decode().strip().splitlines()[-1]) for out in outputs]
    first, last = map(
        float,
        _psql(
            server,
            db,
            f"SELECT min(created_at), max(created_at) FROM moves "
            f"WHERE created_at > {samples[0][0] - 1}",
        ).split("|"),
    )
    start = min(samples, key=lambda s: abs(s[0] - (first + 8)))
    end = min(samples, key=lambda s: abs(s[0] - (last - 3)))
    a, b = start[0], end[0]
    span = f"BETWEEN {a} AND {b}"
    moves = int(_psql(server, db, f"SELECT count(*) FROM moves WHERE created_at {span}"))
    posts = int(_psql(server, db, f"SELECT count(*) FROM outbox WHERE sent_at {span}"))
    pg, bot = end[1] - start[1], end[2] - start[2]
    # the whole run from its first move to the end of the outbox's drain: a move's post
    # is paid for even when the posts trail the moves (closed loop, flat out)
    begin = min(samples, key=lambda s: abs(s[0] - first))
    all_moves = int(_psql(server, db, f"SELECT count(*) FROM moves WHERE created_at >= {first}"))
    pending = int(_psql(server, db, "SELECT count(*) FROM outbox WHERE sent_at IS NULL"))
    whole_pg, whole_bot = final_pg - begin[1], final_bot - begin[2]
    return {
        "whole_ms_per_move": round((whole_pg + whole_bot) / all_moves * 1000, 3),
        "whole_bot_ms_per_move": round(whole_bot / all_moves * 1000, 3),
        "whole_pg_ms_per_move": round(whole_pg / all_moves * 1000, 3),
        "whole_moves": all_moves,
        "pending_at_end": pending,
        "window_s": round(b - a, 1),
        "moves": moves,
        "posts": posts,
        "moves_per_s": round(moves / (b - a), 1),
        "cpu_ms_per_move": round((pg + bot) / moves * 1000, 3),
        "bot_ms_per_move": round(bot / moves * 1000, 3),
        "pg_ms_per_move": round(pg / moves * 1000, 3),
        "cores": round((pg + bot) / (b - a), 2),
        "conflicts": sum(r["conflicts"] for r in reports),
        "errors": sum(r["errors"] for r in reports),
        "outbox_p50_ms": max(r["outbox_delay_ms"]["p50"] for r in reports),
        "load": round(os.getloadavg()[0], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=40)
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--unix", action="store_true", help="bots connect by Unix socket")
    parser.add_argument("trees", nargs="+", help="name=path of a source tree")
    args = parser.parse_args()
    trees = dict(t.split("=", 1) for t in args.trees)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # stop the server on the way out
    server = pg_server.start(durable=True)
    postmaster = int((server.folder / "data" / "postmaster.pid").read_text().split()[0])
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
    try:
        _psql(server, "postgres", "CREATE DATABASE filled")
        fill = (
            "import asyncio; from bot.loadtest import fill_new; "
            f"asyncio.run(fill_new({server.url('filled')!r}, {args.matches}, 256))"
        )
        subprocess.run([sys.executable, "-c", fill], cwd=ROOT, check=True)
        _psql(server, "filled", "VACUUM ANALYZE")
        n = 0
        for r in range(args.rounds):
            for name in list(trees) if r % 2 == 0 else list(reversed(trees)):
                n += 1
                _psql(server, "postgres", f"CREATE DATABASE run{n} TEMPLATE filled")
                result = run_once(
                    server,
                    postmaster,
                    trees[name],
                    f"run{n}",
                    args.matches,
                    args.seconds,
                    args.unix,
                )
                results[name].append(result)
                print(time.strftime("%H:%M:%S"), name, json.dumps(result), flush=True)
                _psql(server, "postgres", f"DROP DATABASE run{n}")
    finally:
        server.stop()
    keys = (
        "whole_ms_per_move",
        "whole_bot_ms_per_move",
        "whole_pg_ms_per_move",
        "cpu_ms_per_move",
        "bot_ms_per_move",
        "pg_ms_per_move",
        "moves_per_s",
        "cores",
    )
    for name, runs in results.items():
        if runs:
            medians = {k: statistics.median(x[k] for x in runs) for k in keys}
            print("median", name, json.dumps(medians))


if __name__ == "__main__":
    main()
