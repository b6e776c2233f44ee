"""CPU per move on PostgreSQL, A/B between source trees (a benchmark, not a test).

``python -m benchmarks.pg_cpu --rounds 3 --seconds 40 old=/tmp/old new=.`` starts a durable
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
127.0.0.1 (what a bot on the database's machine can do); a tree given as ``name=path@unix``
does so alone (``tcp=. unix=.@unix`` compares the two).

``--phases N`` answers where a move's CPU goes instead: per tree, one bot process plays
``N`` moves one after the other on its own copy of the database — the load's player, as
the panel's last click does (``info`` only for a match whose last move's post is not
known to have pinged someone, ``turn_for``: the gate's one read with the legal moves,
``play``) and, after every 20 moves, the real outbox worker delivering their posts — and
the CPU of the process and of the whole PostgreSQL server (every process of it: backends,
WAL writer, checkpointer) is read before and after each phase. Without concurrency
nothing else runs in between, so each phase's CPU is its own. A tree without
``turn_for`` (older than the gate's one read) runs ``legal_moves`` in its place. The
player's process sets its garbage collector as the tree's bot processes do
(``bot/gc_tuning.py``, where the tree has it), as ``python -m bot load`` does.
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


def _children_cpu(postmaster: int) -> float:
    """CPU seconds of the PostgreSQL server: the postmaster and its live children."""
    pids = [postmaster]
    with open(f"/proc/{postmaster}/task/{postmaster}/children") as f:
        pids += [int(p) for p in f.read().split()]
    return sum(_cpu(fields) for pid in pids if (fields := _stat(pid)))


async def _phases(url: str, postmaster: int, moves: int) -> dict[str, Any]:
    """The cost model of ``--phases`` (run inside the tree measured: its ``bot``)."""
    import random as rnd_module

    from bot.discord.delivery import OutboxWorker
    from bot.matches.reports import User
    from bot.matches.service import MatchService
    from bot.settings import Settings
    from bot.tools.loadtest import HOT_SET, NAMES, Players, _NullDiscord

    try:  # the collector's settings of a bot process, where the tree has them
        from bot.gc_tuning import tune
    except ImportError:
        pass
    else:
        tune()
    service = await MatchService.open(url, render=False)
    bot = _NullDiscord(Settings(_env_file=None), service, None)  # type: ignore[call-arg]
    worker = OutboxWorker(bot, time.time)  # type: ignore[arg-type]
    players = Players(service, list(range(1, HOT_SET + 1)), HOT_SET, seed=3)
    rnd = rnd_module.Random(3)
    spent = {name: [0.0, 0.0] for name in ("info", "turn_for", "play", "posts")}
    mark = (time.process_time(), _children_cpu(postmaster))

    def phase(name: str) -> None:
        nonlocal mark
        now = (time.process_time(), _children_cpu(postmaster))
        spent[name][0] += now[0] - mark[0]
        spent[name][1] += now[1] - mark[1]
        mark = now

    def pinged(info: Any) -> Any:
        """One of the seats to act, as the move's post pings them (None: none acts)."""
        if info.status != "running" or not info.to_act:
            return None
        uid = info.to_act[rnd.randrange(len(info.to_act))]
        return User(uid, NAMES[next(s.seat for s in info.seats if s.user_id == uid)])

    await worker.run_once()  # the start's posts of the filler are sent already
    mark = (time.process_time(), _children_cpu(postmaster))
    played = posted = 0
    by_game: dict[str, list[float]] = {}  # the bot's CPU of turn_for, per game
    next_user: dict[int, Any] = {}  # who the last move's post pinged, per match
    while played < moves:
        match_id = players.take()
        assert match_id is not None
        user = next_user.pop(match_id, None)
        if user is None:
            user = pinged(await service.info(match_id))
            phase("info")
            if user is None:
                players.release(match_id, True)
                continue
        before = time.process_time()
        if hasattr(service, "turn_for"):
            info, legal = await service.turn_for(match_id, user)
        else:  # an older tree: the moves and the version in two reads
            info = await service.info(match_id)
            legal = await service.legal_moves(match_id, user)
        by_game.setdefault(info.game_id, []).append(time.process_time() - before)
        phase("turn_for")
        choice = legal[rnd.randrange(len(legal))].notation
        report = await service.play(match_id, user, choice, expected_version=info.version)
        phase("play")
        players.release(match_id, report.finished)
        if (user := pinged(report.match)) is not None:
            next_user[match_id] = user
        played += 1
        if played % 20 == 0 or played == moves:
            posted += await worker.run_once()
            phase("posts")
    await service.close()
    out: dict[str, Any] = {"moves": played, "posts": posted}
    for name, (bot_s, pg_s) in spent.items():
        out[name] = {
            "bot_ms": round(bot_s / played * 1000, 3),
            "pg_ms": round(pg_s / played * 1000, 3),
        }
    out["turn_for_bot_ms_by_game"] = {
        game: round(statistics.mean(v) * 1000, 3) for game, v in sorted(by_game.items())
    }
    out["total"] = {
        "bot_ms": round(sum(v[0] for v in spent.values()) / played * 1000, 3),
        "pg_ms": round(sum(v[1] for v in spent.values()) / played * 1000, 3),
    }
    return out


def run_phases(server: pg_server.PgServer, postmaster: int, root: str, db: str, moves: int) -> Any:
    """``--phases`` for one tree: this file run as a script inside that tree."""
    done = subprocess.run(
        [sys.executable, __file__, "--phases-child", server.url(db), str(postmaster), str(moves)],
        cwd=root,
        env={**os.environ, "PYTHONPATH": root},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=40)
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--unix", action="store_true", help="bots connect by Unix socket")
    parser.add_argument("--phases", type=int, default=0, help="moves of the cost model per tree")
    parser.add_argument("trees", nargs="+", help="name=path of a source tree")
    if sys.argv[1:2] == ["--phases-child"]:  # inside a tree: python pg_cpu.py --phases-child ...
        import asyncio

        url, postmaster, moves = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
        print(json.dumps(asyncio.run(_phases(url, postmaster, moves))))
        return
    args = parser.parse_args()
    trees = dict(t.split("=", 1) for t in args.trees)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # stop the server on the way out
    server = pg_server.start(durable=True)
    postmaster = int((server.folder / "data" / "postmaster.pid").read_text().split()[0])
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
    try:
        _psql(server, "postgres", "CREATE DATABASE filled")
        fill = (
            "import asyncio; from bot.tools.loadtest import fill_new; "
            f"asyncio.run(fill_new({server.url('filled')!r}, {args.matches}, 256))"
        )
        subprocess.run([sys.executable, "-c", fill], cwd=ROOT, check=True)
        _psql(server, "filled", "VACUUM ANALYZE")
        n = 0
        if args.phases:
            for r in range(args.rounds):
                for name in list(trees) if r % 2 == 0 else list(reversed(trees)):
                    n += 1
                    _psql(server, "postgres", f"CREATE DATABASE run{n} TEMPLATE filled")
                    found = run_phases(server, postmaster, trees[name], f"run{n}", args.phases)
                    print(time.strftime("%H:%M:%S"), name, json.dumps(found), flush=True)
                    _psql(server, "postgres", f"DROP DATABASE run{n}")
            return
        for r in range(args.rounds):
            for name in list(trees) if r % 2 == 0 else list(reversed(trees)):
                n += 1
                _psql(server, "postgres", f"CREATE DATABASE run{n} TEMPLATE filled")
                root, _, how = trees[name].partition("@")
                result = run_once(
                    server,
                    postmaster,
                    root,
                    f"run{n}",
                    args.matches,
                    args.seconds,
                    args.unix or how == "unix",
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
