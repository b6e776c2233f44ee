"""``python -m bot load``: sustained moves through the real service, with pictures.

What it does:

1. Fills a fresh database (a temporary directory) with ``--matches`` started matches spread
   over the four games and their player counts: real rows (match, seats, version, a valid
   snapshot from ``game.setup``, the start's turn post in the outbox), bulk-inserted in a few
   transactions through the store's writer connection. The matches of the first *hot set*
   are then advanced by a random number of real moves (snapshot + move rows), so the load
   hits openings, middle games and endings rather than only fresh boards.
2. Plays: simulated players pick a running match from the hot set and make a move exactly
   as the last click of the guided button panel does (``bot/discord/panel.py``: ``gate``
   then ``play_and_confirm``). The player is the one the match's last post pinged (known
   from the previous move's report; a match not moved since the fill is read once with
   ``service.info`` to find them). ``service.turn_for`` (one read: the version, who is to
   act, and the player's legal moves with every move and step named in English with the
   players' names, as the panel needs them), then a random one of them
   through ``MatchService.play`` with that version — one read, parse, apply, commit (one
   statement on PostgreSQL); ``play`` answers then, and the public picture is drawn behind
   it in the render pool (a match's older picture still waiting for a worker is dropped for
   its newest state). Each move's posts (its turn post, and a DM when the move has private
   lines) are delivered by the real outbox worker of the same process (claimed in
   batches, each batch's matches read at once, posted to a Discord that answers at once,
   settled at once). A finished hot match is replaced by a fresh one from the database.
   ``--rate R`` is an open loop (a move is started every 1/R s whatever happens; starts that
   find every hot match busy are counted as missed); ``--rate 0`` is a closed loop of
   ``CLOSED_LOOP_PLAYERS`` players, each playing its next move as soon as the last returned.
3. Reports moves/s, ``service.play`` latency (p50/p95/p99, overall and per game), the
   picture delay (from ``play`` answering to its picture being ready: p50/p95, and how many
   pictures were dropped for a newer state), the render pool's utilisation (busy worker
   time / (workers × elapsed)) and its own draw+encode time per picture, event-loop lag
   (a ticker that wants to wake every 5 ms; max and p99 lateness), peak memory (maxrss of
   the bot process and of the largest render worker) and the PNG size range. ``--json``
   prints the same as JSON.

Private pictures (``/hand``) are not part of the stream: a turn post shows the public one.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import random
import resource
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.matches.errors import ServiceError
from bot.matches.reports import MatchInfo, User
from bot.matches.rows import events_json as _events_json
from bot.matches.service import MatchService
from bot.storage import ShardSlice, Store, open_store
from bot.storage.limits import DatabaseLimits
from rules import get_game
from rules.base import fill_names
from rules.registry import game_ids

#: How many matches are "being played right now" (the rest of the database sits idle).
HOT_SET = 256
#: Simulated players of the closed loop (``--rate 0``).
CLOSED_LOOP_PLAYERS = 8
TICK_S = 0.005
QUANTILES = (("p50", 0.5), ("p95", 0.95), ("p99", 0.99))
NAMES = ["Alice", "Bob", "Carol", "Dénes", "Łucja"]


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def _user(match_id: int, seat: int) -> User:
    # numeric, like Discord's user ids (posts mention them)
    return User(str(10**12 + match_id * 8 + seat), NAMES[seat])


# ----- filling the database ----------------------------------------------------------------
def _plan(matches: int, seed: int) -> list[tuple[str, int]]:
    """(game, players) for each match: games in turn, player counts cycling per game."""
    rnd = random.Random(seed)
    out = []
    games = game_ids()
    for i in range(matches):
        game = get_game(games[i % len(games)])
        out.append((game.id, rnd.randint(game.min_players, game.max_players)))
    return out


def _advance(game_id: str, players: int, seed: int, moves: int, rnd: random.Random) -> Any:
    """Setup + ``moves`` random legal moves: (state, move rows) — stops before the end."""
    game = get_game(game_id)
    state = game.setup(players, seed, game.parse_options(None))
    rows = []
    for _ in range(moves):
        seats = game.to_act(state)
        if not seats:
            break
        seat = seats[rnd.randrange(len(seats))]
        legal = game.legal_moves(state, seat)
        move = legal[rnd.randrange(len(legal))]
        new_state, events = game.apply(state, seat, move)
        if game.outcome(new_state) is not None:
            break  # keep hot matches running
        rows.append((seat, move, events))
        state = new_state
    return state, rows


async def _insert(conn: Any, m: list, s: list, mv: list, ob: list) -> None:
    await conn.executemany(
        "INSERT INTO matches (id, game_id, options, seed, status, creator_id, guild_id, "
        "guild_key, channel_id, thread_id, max_players, version, state, settings, "
        "created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        m,
    )
    await conn.executemany(
        "INSERT INTO seats (match_id, seat, user_id, name, joined_at) VALUES (?,?,?,?,?)",
        s,
    )
    await conn.executemany(
        "INSERT INTO moves (match_id, ply, kind, seat, user_id, notation, label, events, "
        "created_at) VALUES (?,?,?,?,?,?,?,?,?)",
        mv,
    )
    await conn.executemany(
        "INSERT INTO outbox (match_id, kind, payload, created_at, due_at, sent_at) "
        "VALUES (?,?,?,?,?,?)",
        ob,
    )


async def fill(store: Store, matches: int, hot: int, seed: int = 1) -> list[int]:
    """Insert ``matches`` started matches; returns their ids (the first ``hot`` advanced)."""
    plan = _plan(matches, seed)
    rnd = random.Random(seed)
    now = time.time()
    ids: list[int] = []
    batch = 2000
    for start in range(0, matches, batch):
        chunk = plan[start : start + batch]
        match_rows, seat_rows, move_rows, outbox_rows = [], [], [], []
        first_id = start + 1
        for offset, (game_id, players) in enumerate(chunk):
            match_id = first_id + offset
            game = get_game(game_id)
            options = game.parse_options(None).model_dump(mode="json")
            depth = rnd.randrange(0, 60) if match_id <= hot else 0
            state, moves = _advance(game_id, players, match_id, depth, rnd)
            names = NAMES[:players]
            # a real start: create (0) + one version per join + the start's commit
            version = players + len(moves)
            match_rows.append(
                (
                    match_id,
                    game_id,
                    json.dumps(options, separators=(",", ":")),
                    match_id,
                    "running",
                    _user(match_id, 0).id,
                    # one server per match, on shard ``match_id % processes`` (Discord puts
                    # a server on shard (id >> 22) % count)
                    str(match_id << 22),
                    match_id << 22,
                    "1",
                    str(10**15 + match_id),
                    players,
                    version,
                    json.dumps(state, separators=(",", ":"), ensure_ascii=False),
                    "{}",
                    now,
                    now,
                )
            )
            seat_rows += [
                (match_id, s, _user(match_id, s).id, names[s], now) for s in range(players)
            ]
            for ply, (seat, move, events) in enumerate(moves, start=1):
                move_rows.append(
                    (
                        match_id,
                        ply,
                        "move",
                        seat,
                        _user(match_id, seat).id,
                        move.notation,
                        move.label,
                        json.dumps(_events_json(events), ensure_ascii=False),
                        now,
                    )
                )
            text = f"{game.name} begins. " + fill_names(game.status(state), names)
            payload = {"match_id": match_id, "ply": 0, "text": text, "mentions": [], "final": False}
            outbox_rows.append((match_id, "turn", json.dumps(payload), now, now, now))
            ids.append(match_id)

        rows = (match_rows, seat_rows, move_rows, outbox_rows)
        # the writer connection, one transaction per batch
        await store._transaction(lambda conn, rows=rows: _insert(conn, *rows))
    return ids


# ----- the load ------------------------------------------------------------------------------
@dataclass
class Tally:
    play_ms: list[float] = field(default_factory=list)
    by_game: dict[str, list[float]] = field(default_factory=dict)
    pick_ms: list[float] = field(default_factory=list)
    png_sizes: list[int] = field(default_factory=list)
    picture_ms: list[float] = field(default_factory=list)
    pictures_dropped: int = 0
    conflicts: int = 0
    no_legal: int = 0
    errors: int = 0
    missed: int = 0
    finished: int = 0
    lag_ms: list[float] = field(default_factory=list)


class Players:
    """The hot set and the simulated players' side (choosing a move)."""

    def __init__(self, service: MatchService, ids: list[int], hot: int, seed: int) -> None:
        self.service = service
        self.rnd = random.Random(seed)
        self.hot = ids[:hot]
        self.cold = ids[hot:]
        self.busy: set[int] = set()
        #: who the last move's post pinged, per match: the player who clicks next
        self.pinged: dict[int, User] = {}

    def _ping(self, info: MatchInfo) -> User | None:
        """One of the seats to act (a random one when several may), as the post pings them."""
        if info.status != "running" or not info.to_act:
            return None
        uid = info.to_act[self.rnd.randrange(len(info.to_act))]
        seat = next(s.seat for s in info.seats if s.user_id == uid)
        return User(uid, NAMES[seat])

    def take(self) -> int | None:
        for _ in range(8):
            match_id = self.hot[self.rnd.randrange(len(self.hot))]
            if match_id not in self.busy:
                self.busy.add(match_id)
                return match_id
        return None

    def release(self, match_id: int, finished: bool) -> None:
        self.busy.discard(match_id)
        if finished and self.cold:
            i = self.hot.index(match_id)
            self.hot[i] = self.cold.pop(self.rnd.randrange(len(self.cold)))

    async def one_move(self, match_id: int, tally: Tally) -> None:
        service = self.service
        finished = False
        try:
            t0 = time.perf_counter()
            user = self.pinged.pop(match_id, None)
            if user is None:  # not moved since the fill: who was pinged is read once
                info = await service.info(match_id)
                user = self._ping(info)
                if user is None:
                    finished = True
                    return
            info, legal = await service.turn_for(match_id, user)
            if info.status != "running":
                finished = True
                return
            if user.id not in info.to_act:  # a stale ping: who acts is read next time
                return
            if not legal:  # a rules bug, not a load figure: counted and reported
                tally.no_legal += 1
                return
            notation = legal[self.rnd.randrange(len(legal))].notation
            t1 = time.perf_counter()
            try:
                report = await service.play(match_id, user, notation, expected_version=info.version)
            except ServiceError:
                tally.conflicts += 1
                return
            t2 = time.perf_counter()
            ms = (t2 - t1) * 1000
            tally.pick_ms.append((t1 - t0) * 1000)
            tally.play_ms.append(ms)
            tally.by_game.setdefault(info.game_id, []).append(ms)
            if report.picture_task is not None:
                report.picture_task.add_done_callback(
                    functools.partial(_picture_done, tally, committed=t2)
                )
            finished = report.finished
            tally.finished += finished
            pinged = self._ping(report.match)
            if pinged is not None:
                self.pinged[match_id] = pinged
        except Exception:
            tally.errors += 1
            raise
        finally:
            self.release(match_id, finished)


def _picture_done(tally: Tally, task: Any, committed: float) -> None:
    """A move's picture is ready (or was dropped): its delay after ``play`` answered."""
    png = None if task.cancelled() or task.exception() else task.result()
    if png is None:
        tally.pictures_dropped += 1
        return
    tally.picture_ms.append((time.perf_counter() - committed) * 1000)
    tally.png_sizes.append(len(png))


async def _ticker(tally: Tally, stop: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        due = loop.time() + TICK_S
        await asyncio.sleep(TICK_S)
        tally.lag_ms.append(max(0.0, (loop.time() - due) * 1000))


async def _closed_loop(players: Players, tally: Tally, seconds: float, count: int) -> None:
    end = time.perf_counter() + seconds

    async def player() -> None:
        while time.perf_counter() < end:
            match_id = players.take()
            if match_id is None:
                await asyncio.sleep(0.001)
                continue
            await players.one_move(match_id, tally)

    await asyncio.gather(*(player() for _ in range(count)))


async def _open_loop(players: Players, tally: Tally, seconds: float, rate: float) -> None:
    loop = asyncio.get_running_loop()
    start = loop.time()
    tasks: set[asyncio.Task[None]] = set()
    k = 0
    while (due := start + k / rate) < start + seconds:
        delay = due - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        k += 1
        match_id = players.take()
        if match_id is None:
            tally.missed += 1
            continue
        task = asyncio.create_task(players.one_move(match_id, tally))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    if tasks:
        await asyncio.gather(*tasks)


async def run_load(
    *,
    matches: int,
    seconds: float,
    rate: float,
    as_json: bool,
    database: str | None = None,
    processes: int = 1,
    pictures: bool = True,
    child: int | None = None,
) -> int:
    """``database``: an empty SQLite file or PostgreSQL database (default: a temporary
    SQLite file). ``child``: this is one of ``processes`` bot processes started by
    :func:`bot.tools.load_children.run_processes` (the database is filled already); it plays
    and delivers the matches of its own shard, as sharded bot processes would, and prints
    its figures as one JSON line for the parent to merge."""
    hot = min(HOT_SET, matches)
    with tempfile.TemporaryDirectory(prefix="tessera-load-") as tmp:
        db: Path | str = database or Path(tmp) / "load.db"
        t0 = time.perf_counter()
        if child is None:
            ids = await fill_new(db, matches, hot)
        else:
            ids = [i for i in range(1, matches + 1) if i % processes == child]
            hot = len([i for i in ids if i <= min(HOT_SET, matches)])
        fill_s = time.perf_counter() - t0
        db_mb = sum(p.stat().st_size for p in Path(tmp).iterdir()) / 1e6
        if not as_json:
            print(f"filled {len(ids)} matches in {fill_s:.1f} s ({db_mb:.1f} MB on disk)")
        service = await MatchService.open(db, render=pictures)
        delivery = start_delivery(service, None if child is None else (child, processes))
        run_started = time.time()
        tally = Tally()
        players = Players(service, ids, hot, seed=7 + (child or 0))
        # warm up: fonts, static layers and sprites of the games and player counts
        warm = Tally()
        for _ in range(40):
            match_id = players.take()
            if match_id is not None:
                await players.one_move(match_id, warm)
        stop = asyncio.Event()
        ticker = asyncio.create_task(_ticker(tally, stop))
        stats = service.render_stats
        base = (stats.pictures, stats.busy_s)
        workers = service._pool.workers
        started = time.perf_counter()
        cpu0 = time.process_time()
        try:
            if rate > 0:
                await _open_loop(players, tally, seconds, rate)
            else:
                await _closed_loop(players, tally, seconds, CLOSED_LOOP_PLAYERS)
        finally:
            elapsed = time.perf_counter() - started
            cpu = time.process_time() - cpu0
            busy_s = stats.busy_s - base[1]  # worker time within the measured window
            stop.set()
            await ticker
            outbox = await outbox_delay(service, run_started, delivery)
            await service.close()  # waits for the pictures still being drawn
            drained = time.perf_counter() - started - elapsed  # posts and pictures after
    drawn = stats.pictures - base[0]
    moves = len(tally.play_ms)
    sizes = tally.png_sizes or [0]
    report: dict[str, Any] = {
        "matches": len(ids),
        "hot_set": hot,
        "mode": f"open loop at {rate:g} moves/s"
        if rate > 0
        else (f"closed loop, {CLOSED_LOOP_PLAYERS} players"),
        "seconds": round(elapsed, 1),
        "fill_s": round(fill_s, 1),
        "moves": moves,
        "moves_per_s": round(moves / elapsed, 1),
        "finished_matches": tally.finished,
        "conflicts": tally.conflicts,
        "no_legal_moves": tally.no_legal,
        "missed_starts": tally.missed,
        "errors": tally.errors,
        "play_ms": {
            "p50": round(_pct(tally.play_ms, 0.50), 1),
            "p95": round(_pct(tally.play_ms, 0.95), 1),
            "p99": round(_pct(tally.play_ms, 0.99), 1),
            "max": round(max(tally.play_ms, default=0.0), 1),
        },
        "play_ms_by_game": {
            g: {
                "moves": len(v),
                "p50": round(_pct(v, 0.5), 1),
                "p95": round(_pct(v, 0.95), 1),
            }
            for g, v in sorted(tally.by_game.items())
        },
        "pick_ms_p50": round(_pct(tally.pick_ms, 0.5), 1),
        "render": {
            "pictures": drawn,
            "dropped_for_newer_state": tally.pictures_dropped,
            "pool_utilisation": round(busy_s / (elapsed * workers), 2) if elapsed else 0.0,
            "pool_ms_per_picture": round(
                (stats.busy_s - base[1]) / drawn * 1000 if drawn else 0.0, 1
            ),
            "picture_delay_ms": {
                "p50": round(_pct(tally.picture_ms, 0.50), 1),
                "p95": round(_pct(tally.picture_ms, 0.95), 1),
                "max": round(max(tally.picture_ms, default=0.0), 1),
            },
            "drain_s": round(drained, 2),
            "max_waiting": stats.max_waiting,
        },
        "cpu_share": round(cpu / elapsed, 2),
        "loop_lag_ms": {
            "p99": round(_pct(tally.lag_ms, 0.99), 1),
            "max": round(max(tally.lag_ms, default=0.0), 1),
        },
        "maxrss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "worker_maxrss_mb": round(stats.worker_maxrss_kb / 1024, 1),
        "png_kb": {
            "min": round(min(sizes) / 1024, 1),
            "median": round(statistics.median(sizes) / 1024, 1),
            "max": round(max(sizes) / 1024, 1),
        },
    }
    report["outbox_delay_ms"] = outbox
    if child is not None:  # the parent merges the raw figures of all processes
        report["raw_play_ms"] = [round(v, 2) for v in tally.play_ms]
        print(json.dumps(report))
        return 0
    if as_json:
        print(json.dumps(report, indent=1))
        return 0

    p = report["play_ms"]
    r = report["render"]
    print(
        f"{report['mode']}: {moves} moves in {report['seconds']} s = "
        f"{report['moves_per_s']} moves/s ({tally.finished} matches finished, "
        f"{tally.conflicts} conflicts, {tally.missed} missed starts, {tally.errors} errors, "
        f"{tally.no_legal} seats to act without a legal move)"
    )
    print(
        f"service.play: p50 {p['p50']} ms, p95 {p['p95']} ms, p99 {p['p99']} ms, max {p['max']} ms"
    )
    for g, v in report["play_ms_by_game"].items():
        print(f"  {g:10} {v['moves']:5} moves: p50 {v['p50']} ms, p95 {v['p95']} ms")
    d = r["picture_delay_ms"]
    print(
        f"render: {r['pictures']} pictures ({r['dropped_for_newer_state']} dropped for a newer "
        f"state), {r['pool_ms_per_picture']} ms each in the pool, pool utilisation "
        f"{round(r['pool_utilisation'] * 100)}% of {workers} workers, at most "
        f"{r['max_waiting']} waiting"
    )
    print(
        f"picture delay after service.play answered: p50 {d['p50']} ms, p95 {d['p95']} ms, "
        f"max {d['max']} ms ({r['drain_s']} s to finish the last pictures)"
    )
    lag = report["loop_lag_ms"]
    print(
        f"event-loop lag: p99 {lag['p99']} ms, max {lag['max']} ms; CPU {report['cpu_share']} cores"
    )
    png = report["png_kb"]
    print(
        f"peak memory (maxrss): bot {report['maxrss_mb']} MB, largest render worker "
        f"{report['worker_maxrss_mb']} MB; PNG {png['min']}–{png['max']} KB "
        f"(median {png['median']} KB); choosing a move (read + legal moves): "
        f"p50 {report['pick_ms_p50']} ms"
    )
    print(
        f"outbox delay (commit → posted): p50 {outbox['p50']} ms, p95 {outbox['p95']} ms, "
        f"p99 {outbox['p99']} ms; {outbox['pending']} posts still queued at the end"
    )
    return 0


# ----- database, delivery and several processes -------------------------------------------
async def fill_new(db: Path | str, matches: int, hot: int) -> list[int]:
    """Fill an empty database (refuses one that holds matches: ids start at 1). A bulk
    insert of 100,000 matches is a long statement: a tool's limits, not the bot's."""
    store = await open_store(db, limits=DatabaseLimits.from_settings(tool=True))
    try:
        cur = await store._reader.execute("SELECT COUNT(*) FROM matches")
        (existing,) = await cur.fetchone()  # type: ignore[misc]
        if existing:
            raise SystemExit(f"{db} already holds {existing} matches: give an empty database")
        return await fill(store, matches, hot)
    finally:
        await store.close()


class _NullChannel:
    """A channel whose posts Discord accepts at once: the load measures the bot, not Discord."""

    def __init__(self, posted: list[int], channel_id: int) -> None:
        self.id = channel_id
        self._posted = posted

    async def send(self, content: str, **_: Any) -> Any:
        from types import SimpleNamespace

        self._posted.append(self.id)
        return SimpleNamespace(id=len(self._posted))

    def get_partial_message(self, message_id: int) -> _NullMessage:
        return _NullMessage()


class _NullMessage:
    """A turn post that Discord edits at once (calm posts fold a ply into the post)."""

    async def edit(self, **_: Any) -> None:
        return None


class _NullDiscord:
    """The part of the bot client the outbox worker talks to (posts, DMs, threads), with
    a Discord that answers at once."""

    def __init__(self, settings: Any, service: MatchService, shard_slice: Any) -> None:
        self.settings = settings
        self.service = service
        self.shard_slice = shard_slice
        self.posted: list[int] = []

    def get_partial_messageable(self, channel_id: int) -> _NullChannel:
        return _NullChannel(self.posted, channel_id)

    async def create_dm(self, user: Any) -> _NullChannel:
        return _NullChannel(self.posted, int(user.id))

    def get_channel(self, channel_id: int) -> None:
        return None  # not cached: the worker fetches it

    async def fetch_channel(self, channel_id: int) -> _NullChannel:
        return _NullChannel(self.posted, channel_id)  # not a thread: keep-alives are dropped

    def get_guild(self, guild_id: int) -> None:
        return None


def start_delivery(service: MatchService, shard: tuple[int, int] | None) -> asyncio.Task[None]:
    """The real outbox worker (claims, leases, turn posts with their picture) delivering to
    a Discord that answers at once, as the bot process runs it beside the players."""
    from bot.discord.delivery import OutboxWorker
    from bot.settings import Settings

    bot = _NullDiscord(
        Settings(_env_file=None, outbox_poll_seconds=0.05),  # type: ignore[call-arg]
        service,
        ShardSlice((shard[0],), shard[1]) if shard else None,
    )
    worker = OutboxWorker(bot, time.time)  # type: ignore[arg-type]
    return asyncio.create_task(worker.run_forever(), name="load-outbox")


async def outbox_delay(
    service: MatchService, since: float, delivery: asyncio.Task[None] | None
) -> dict[str, Any]:
    """Commit-to-posted time of the posts queued during the run (after letting the worker
    finish for up to 10 s), and how many were still queued."""
    for _ in range(100):
        if await service.store.pending_count() == 0:
            break
        await asyncio.sleep(0.1)
    if delivery is not None:
        delivery.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await delivery
    return await post_delays(service.store, since)


async def post_delays(store: Store, since: float) -> dict[str, Any]:
    """Percentiles of commit → posted over the posts queued since ``since`` (all
    processes': they share the database)."""
    cur = await store._reader.execute(
        "SELECT (sent_at - created_at) * 1000 FROM outbox WHERE created_at >= ? "
        "AND sent_at IS NOT NULL",
        (since,),
    )
    delays = [float(r[0]) for r in await cur.fetchall()]
    return {
        "posts": len(delays),
        "p50": round(_pct(delays, 0.5), 1),
        "p95": round(_pct(delays, 0.95), 1),
        "p99": round(_pct(delays, 0.99), 1),
        "pending": await store.pending_count(),
    }
