"""``python -m bot sweep-bench --matches 100000``: the computer driver's sweep on a database
of many running matches, with the figures that matter to a bot process beside it: how long
a sweep takes, how much memory it grows, and the longest time the event loop was held
(a ticker task measures the loop's lag; Discord's interaction deadline is 3 s, and every
button waits behind the longest block).

Why a filled copy of real matches: the sweep's cost is reading and judging snapshots of
the real games. A few template matches per game are played through the service (people
only, and with a computer seat: some waiting for the computer, some for the person); the
database is then filled with copies of them (matches, seats, move logs) under new ids and
servers spread over Discord's shards, and the computer-turn index is filled as the
migration fills it for matches that ran before it (every match with a computer seat
marked, not judged yet). Then a fresh service and driver are opened, as a bot process
starting, and measured:

- **first sweep**: the start after the migration, the worst case: every match with a
  computer seat is judged once;
- **next sweep**: the minute's sweep afterwards (nothing changed);
- **after a move**: one match changed, as after a person's move.

The thinking itself happens in worker processes (the real search) and is not waited for:
the driver is closed after the figures. ``--db`` keeps the filled database to measure
again (``--reuse``) or with other code.
"""

from __future__ import annotations

import asyncio
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.matches.reports import User
from bot.matches.service import MatchService
from rules import get_game

GAMES = ("azul", "taj-mahal", "maharani", "pastiche")
PEOPLE = [User(str(900_000 + n), f"P{n}") for n in range(5)]
#: Columns of a match copied from its template (the new id, server and times aside).
_COPIED = (
    "game_id, options, seed, status, creator_id, channel_id, thread_id, max_players, "
    "version, state, result, end_reason, settings"
)


@dataclass
class Templates:
    """Template match ids: people only, with a computer waiting for a person, and with a
    computer whose turn it is."""

    people: list[int] = field(default_factory=list)
    person_due: list[int] = field(default_factory=list)
    computer_due: list[int] = field(default_factory=list)


def _rss_mb() -> float:
    """This process's resident memory now (MB)."""
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 1e6


async def _play_until(
    service: MatchService, match_id: int, rng: random.Random, moves: int, computer: bool
) -> None:
    """Random legal moves (people's and the computer's) until at least ``moves`` are made
    and the game waits for a computer (``computer``) or for a person only."""
    for n in range(moves * 4):
        info = await service.info(match_id)
        if info.status != "running" or not info.waits_for:
            return
        computers = [u for u in info.waits_for if u.startswith("ai:")]
        if n >= moves and bool(computers) == computer:
            return
        uid = computers[0] if computers else info.waits_for[0]
        user = next(User(s.user_id, s.name) for s in info.seats if s.user_id == uid)
        _, legal = await service.turn_for(match_id, user)
        await service.play(match_id, user, rng.choice(legal).notation)


async def _templates(service: MatchService, seed: int) -> Templates:
    rng = random.Random(seed)
    out = Templates()
    for n, game_id in enumerate(GAMES):
        players = max(2, get_game(game_id).min_players)
        for kind in ("people", "person", "person", "computer", "computer"):
            info = await service.create_match(
                game_id, PEOPLE[0], max_players=players, seed=seed + 10 * n + len(out.people)
            )
            for person in PEOPLE[1 : players - (kind != "people")]:
                await service.join(info.id, person)
            if kind != "people":
                await service.add_computer(info.id, PEOPLE[0], "easy")
            await service.start(info.id, PEOPLE[0])
            await _play_until(service, info.id, rng, rng.randint(3, 16), kind == "computer")
            now = await service.info(info.id)
            if now.status != "running":
                continue
            if kind == "people":
                out.people.append(info.id)
            elif any(u.startswith("ai:") for u in now.waits_for):
                out.computer_due.append(info.id)
            else:
                out.person_due.append(info.id)
    return out


async def fill(location: Path | str, matches: int, computers: float, due: float, seed: int) -> None:
    """Fill a new database with ``matches`` running matches: a share ``computers`` with a
    computer seat, of which a share ``due`` wait for it now."""
    from bot.storage.computer_turns import FILL

    service = await MatchService.open(location, render=False)
    try:
        tpl = await _templates(service, seed)
        if not (tpl.people and tpl.person_due and tpl.computer_due):
            raise RuntimeError(f"templates missing a kind: {tpl}")
        rng = random.Random(seed)
        store = service.store
        first = max(await store.all_match_ids()) + 1
        chosen: list[tuple[int, int]] = []
        for n in range(matches):
            if rng.random() >= computers:
                kind = tpl.people
            else:
                kind = tpl.computer_due if rng.random() < due else tpl.person_due
            chosen.append((first + n, rng.choice(kind)))
        now = time.time()

        async def work(conn: Any) -> None:
            for start in range(0, len(chosen), 5000):
                batch = chosen[start : start + 5000]
                await conn.executemany(
                    f"INSERT INTO matches (id, {_COPIED}, guild_id, guild_key, created_at, "
                    f"updated_at) SELECT ?, {_COPIED}, ?, ?, ?, ? FROM matches WHERE id = ?",
                    [
                        (new, str(((new % 4096) << 22) | 1), ((new % 4096) << 22) | 1, now, now, t)
                        for new, t in batch
                    ],
                )
                await conn.executemany(
                    "INSERT INTO seats (match_id, seat, user_id, name, joined_at) "
                    "SELECT ?, seat, user_id, name, joined_at FROM seats WHERE match_id = ?",
                    batch,
                )
                await conn.executemany(
                    "INSERT INTO moves (match_id, ply, kind, seat, user_id, notation, label, "
                    "events, created_at) SELECT ?, ply, kind, seat, user_id, notation, label, "
                    "events, created_at FROM moves WHERE match_id = ?",
                    batch,
                )
            await conn.execute(FILL)
            await store._after_copy(conn)  # PostgreSQL: ids go on after the copied ones

        await store._transaction(work)
    finally:
        await service.close()


@dataclass
class Figures:
    seconds: float = 0.0
    rss_before: float = 0.0
    rss_peak: float = 0.0
    longest_block_ms: float = 0.0
    longest_cpu_ms: float = 0.0
    started: int = 0


async def _measured(step: Callable[[], Awaitable[int]], after_s: float) -> Figures:
    """Run ``step`` while a ticker measures the loop's lag and the memory; the ticker goes
    on ``after_s`` seconds after it (the tasks it started run meanwhile)."""
    figures = Figures(rss_before=_rss_mb())
    figures.rss_peak = figures.rss_before
    running = True

    async def ticker() -> None:
        tick = 0.001
        last, last_cpu = time.perf_counter(), time.thread_time()
        n = 0
        while running:
            await asyncio.sleep(tick)
            now, cpu = time.perf_counter(), time.thread_time()
            figures.longest_block_ms = max(figures.longest_block_ms, (now - last - tick) * 1000)
            # the loop's own work in that gap (on a busy machine the rest is waiting for a
            # core or for the interpreter lock held by the database's threads)
            figures.longest_cpu_ms = max(figures.longest_cpu_ms, (cpu - last_cpu) * 1000)
            n += 1
            if n % 20 == 0:  # memory every 20 ticks: reading it is a system call
                figures.rss_peak = max(figures.rss_peak, _rss_mb())
            last, last_cpu = time.perf_counter(), time.thread_time()

    watching = asyncio.create_task(ticker())
    await asyncio.sleep(0.01)
    start = time.perf_counter()
    figures.started = await step()
    figures.seconds = time.perf_counter() - start
    await asyncio.sleep(after_s)
    running = False
    await watching
    figures.rss_peak = max(figures.rss_peak, _rss_mb())
    return figures


async def measure(location: Path | str, workers: int, after_s: float) -> list[tuple[str, Figures]]:
    """Open the filled database as a starting bot process would and measure its sweeps."""
    from bot.computers.driver import ComputerDriver
    from bot.storage.computer_turns import FILL

    service = await MatchService.open(location, render=False)

    async def as_migrated(conn: Any) -> None:
        """The index as the migration leaves it: every match with a computer unjudged."""
        await conn.execute("DELETE FROM computer_turns")
        await conn.execute(FILL)

    await service.store._transaction(as_migrated)
    await service.close()
    service = await MatchService.open(location, render=False)  # a bot process starting
    driver = ComputerDriver(service, workers=workers)
    out = []
    try:
        out.append(("first sweep", await _measured(driver.sweep, after_s)))
        out.append(("next sweep", await _measured(driver.sweep, after_s)))
        rows = await service.store.list_matches(statuses=("running",), limit=1)
        if rows:  # one match changes, as after a person's move (its version moves on)

            async def after_move() -> int:
                async def bump(conn: Any) -> None:
                    await conn.execute(
                        "UPDATE matches SET version = version + 1 WHERE id = ?", (rows[0].id,)
                    )

                await service.store._transaction(bump)
                return int(await driver.sweep())

            out.append(("after a move", await _measured(after_move, after_s)))
    finally:
        await driver.close()
        await service.close()
    return out


def run_sweep_bench(
    *,
    matches: int,
    db: str | None,
    reuse: bool,
    computers: float,
    due: float,
    workers: int,
    seed: int,
    after_s: float = 2.0,
) -> int:
    with tempfile.TemporaryDirectory(prefix="tessera-sweep-") as tmp:
        location: Path | str = db if db else Path(tmp) / "sweep.db"
        if not reuse:
            began = time.perf_counter()
            asyncio.run(fill(location, matches, computers, due, seed))
            print(
                f"filled {matches:,} running matches ({computers:.0%} with a computer seat, "
                f"{due:.0%} of those waiting for it) in {time.perf_counter() - began:.0f} s"
            )
            # measured in a fresh process, as a bot starting: the fill's memory is not in it
            command = [sys.executable, "-m", "bot", "sweep-bench", "--reuse", "--db", str(location)]
            command += ["--workers", str(workers)]
            return subprocess.run(command, check=False).returncode
        began = time.perf_counter()
        results = asyncio.run(measure(location, workers, after_s))
        for name, f in results:
            print(
                f"{name:>13}: {f.seconds * 1000:9.1f} ms, {f.started} matches started; "
                f"memory {f.rss_before:.0f} -> peak {f.rss_peak:.0f} MB "
                f"(+{f.rss_peak - f.rss_before:.0f}); longest loop block "
                f"{f.longest_block_ms:.1f} ms ({f.longest_cpu_ms:.1f} ms of the loop's own CPU)"
            )
        print(
            f"measured in {time.perf_counter() - began:.0f} s; peak memory of the process "
            f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1000:.0f} MB; "
            f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
        )
    return 0
