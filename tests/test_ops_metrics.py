"""The operations endpoint (bot/ops): ``/metrics`` in Prometheus's text format, scraped
with a plain HTTP request from a real server on a free port, while moves are made through
the real service on SQLite and PostgreSQL; ``/healthz`` and the container's health check
command; the settings that turn them on.

The text is parsed by :func:`parse` below, written from the format's specification
(https://prometheus.io/docs/instrumenting/exposition_formats/, "Text format details"), not
by the code under test: every family announced by ``# HELP`` and ``# TYPE`` before its
samples, names and labels in the allowed characters, values Go floats, a histogram's
buckets cumulative and ending at ``+Inf`` equal to its ``_count``.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import re
import socket
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import discord
import pytest
from aiohttp import web

import bot.storage.clock
from bot.__main__ import main
from bot.computers.driver import ComputerDriver
from bot.discord.delivery import backoff
from bot.matches.service import MatchService
from bot.ops import metrics
from bot.ops.probes import LoopLag, discord_trace
from bot.ops.server import OpsServer
from bot.settings import Settings
from tests.conftest import ALICE, BOB
from tests.discord_harness import http_error, running
from tests.test_discord_commands import mover, started

ROOT = Path(__file__).resolve().parent.parent
NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
SAMPLE = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)$")
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')
Scrape = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def parse(text: str) -> tuple[Scrape, dict[str, str]]:
    """(samples by (name, labels), family types) of a text-format exposition; raises
    AssertionError on anything the format does not allow."""
    samples: Scrape = {}
    types: dict[str, str] = {}
    helped: set[str] = set()
    assert text.endswith("\n"), "the exposition ends with a line break"
    for line in text.splitlines():
        if line.startswith("# HELP "):
            name = line.split(" ", 3)[2]
            assert NAME.fullmatch(name) and name not in helped, line
            helped.add(name)
        elif line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ")
            assert kind in ("counter", "gauge", "histogram", "summary", "untyped"), line
            assert name in helped and name not in types, f"TYPE after HELP, once: {line}"
            types[name] = kind
        else:
            found = SAMPLE.match(line)
            assert found, f"not a sample line: {line!r}"
            name, labels_text, value = found.groups()
            family = re.sub(r"_(bucket|sum|count)$", "", name)
            assert name in types or family in types, f"sample before its TYPE: {line}"
            labels = tuple(LABEL.findall(labels_text or ""))
            if labels_text:
                rebuilt = "{" + ",".join(f'{k}="{v}"' for k, v in labels) + "}"
                assert rebuilt == labels_text, f"labels: {line}"
            assert (name, labels) not in samples, f"sample twice: {line}"
            samples[(name, labels)] = float(value)  # Go's syntax: +Inf, NaN parse too
    for name, kind in types.items():
        if kind == "histogram":
            buckets = [
                (float(dict(labels)["le"]), v)
                for (n, labels), v in samples.items()
                if n == f"{name}_bucket"
            ]
            assert buckets == sorted(buckets), f"{name}: cumulative buckets"
            assert buckets[-1][0] == math.inf
            assert buckets[-1][1] == samples[(f"{name}_count", ())]
    return samples, types


def value(samples: Scrape, name: str, **labels: str) -> float:
    return samples.get((name, tuple(labels.items())), 0.0)


async def get(port: int, path: str, method: str = "GET") -> tuple[int, dict[str, str], str]:
    """A plain HTTP/1.1 request on a socket: (status, headers, body)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"{method} {path} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())
    await writer.drain()
    raw = await asyncio.wait_for(reader.read(), 10)  # the server closes the connection
    writer.close()
    head, _, body = raw.decode("utf-8").partition("\r\n\r\n")
    status_line, *header_lines = head.split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (h.partition(":") for h in header_lines)}
    if method == "HEAD":  # the length of what GET would answer, and no body
        assert body == "" and int(headers["content-length"]) > 0
    else:
        assert int(headers["content-length"]) == len(body.encode())
    return int(status_line.split()[1]), headers, body


async def scrape(port: int) -> Scrape:
    status, headers, body = await get(port, "/metrics")
    assert status == 200 and headers["content-type"] == metrics.CONTENT_TYPE
    return parse(body)[0]


@asynccontextmanager
async def endpoint() -> AsyncIterator[OpsServer]:
    server = OpsServer("127.0.0.1", 0)  # any free port
    assert await server.start() is None
    try:
        yield server
    finally:
        await server.close()


class FakeClock:
    """The store's clock (bot/storage/clock.py), moved by the test."""

    def __init__(self) -> None:
        self.now = time.time()

    def time(self) -> float:
        return self.now


async def test_a_scrape_sees_moves_latency_and_the_outbox(
    service: MatchService, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = FakeClock()
    monkeypatch.setattr(bot.storage.clock, "time", clock)
    async with endpoint() as server:
        server.watch(service.store, computer_turns=lambda: 0)
        before = await scrape(server.port)
        _, types = parse((await get(server.port, "/metrics"))[2])
        assert types["tessera_moves_total"] == "counter"
        assert types["tessera_move_seconds"] == "histogram"
        assert types["tessera_outbox_backlog"] == "gauge"
        info = await service.create_match("test-pile", ALICE, None, seed=3, guild_id="g1")
        await service.join(info.id, BOB)
        await service.start(info.id, ALICE)
        for _ in range(3):
            match = await service.info(info.id)
            who = ALICE if ALICE.id in match.to_act else BOB
            moves = await service.legal_moves(info.id, who)
            await service.play(info.id, who, moves[0].notation)
        clock.now += 120  # the posts have waited two minutes: nothing delivers them here
        after = await scrape(server.port)
    moved = value(after, "tessera_moves_total", game="test-pile") - value(
        before, "tessera_moves_total", game="test-pile"
    )
    assert moved == 3
    timed = value(after, "tessera_move_seconds_count") - value(before, "tessera_move_seconds_count")
    assert timed == 3  # service.play, observed once per call
    assert value(after, "tessera_move_seconds_sum") > value(before, "tessera_move_seconds_sum")
    pending = await service.store.pending_count()
    assert pending >= 4  # the start post and a post per move, none delivered
    assert value(after, "tessera_outbox_backlog") == pending
    assert value(after, "tessera_outbox_oldest_age_seconds") == pytest.approx(120, abs=1)
    assert value(after, "tessera_outbox_lapsed_claims") == 0
    assert value(after, "tessera_database_up") == 1


async def test_a_lapsed_claim_is_seen_once_its_lease_ran_out(
    service: MatchService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process claimed posts and died: they show as lapsed claims once the lease ran out
    (the next claim of a living process sends them again)."""
    clock = FakeClock()
    monkeypatch.setattr(bot.storage.clock, "time", clock)
    info = await service.create_match("test-pile", ALICE, None, seed=3, guild_id="g1")
    await service.join(info.id, BOB)
    await service.start(info.id, ALICE)
    claimed = await service.store.claim_notifications("dead-process", lease=60.0)
    assert claimed
    async with endpoint() as server:
        server.watch(service.store)
        assert value(await scrape(server.port), "tessera_outbox_lapsed_claims") == 0
        clock.now += 61
        assert value(await scrape(server.port), "tessera_outbox_lapsed_claims") == len(claimed)


async def test_the_bot_counts_a_resent_post(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real bot against the strict local Discord: a turn post meets a 503, waits its
    backoff, goes out on the second try; the scrape counts one re-send and sees the
    backlog fall to nothing."""
    async with running(tmp_path, monkeypatch) as h, endpoint() as server:
        server.watch(h.service.store, ready=h.bot.is_ready)
        match_id, thread = await started(h)
        on, _ = await mover(h, match_id)
        await h.slash(on, "play", move="take1", channel=thread)
        before = await scrape(server.port)
        assert value(before, "tessera_outbox_backlog") == 1
        h.fake.fail("POST", f"/channels/{thread}/messages", http_error(503))
        assert await h.deliver() == 0
        h.clock.advance(backoff(0))
        assert await h.deliver() == 1
        after = await scrape(server.port)
    resent = "tessera_posts_resent_total"
    assert value(after, resent) - value(before, resent) == 1
    assert value(after, "tessera_outbox_backlog") == 0


async def test_computer_turns_pending_are_read_at_scrape_time(service: MatchService) -> None:
    """Two matches wait for a computer seat whose thinking waits for the test: the gauge
    says 2 while they think, 0 once they played."""
    driver = ComputerDriver(service, workers=1, processes=False)
    gate = asyncio.Event()

    async def thinking(*_args: object, **_kwargs: object) -> None:
        await gate.wait()
        return None  # no choice: the driver plays one of the seat's legal moves

    driver.pool.choose = thinking  # type: ignore[method-assign]
    try:
        for seed in (1, 2):
            info = await service.create_match("test-pile", ALICE, {"size": 9}, seed=seed)
            await service.add_computer(info.id, ALICE, "easy")
            await service.start(info.id, ALICE)
            match = await service.info(info.id)
            if ALICE.id in match.to_act:  # the person first, if the deal says so
                moves = await service.legal_moves(info.id, ALICE)
                await service.play(info.id, ALICE, moves[0].notation)
        async with endpoint() as server:
            server.watch(service.store, computer_turns=driver.turns_pending)
            assert await driver.sweep() == 2
            assert value(await scrape(server.port), "tessera_computer_turns_pending") == 2
            gate.set()
            while driver.turns_pending():
                await asyncio.sleep(0.01)
            assert value(await scrape(server.port), "tessera_computer_turns_pending") == 0
    finally:
        await driver.close()


async def test_the_loop_lag_gauge_sees_a_blocked_loop() -> None:
    lag = LoopLag(interval=0.01)
    lag.start()
    try:
        await asyncio.sleep(0.05)
        time.sleep(0.2)  # the loop blocked, as a long sweep on the loop would block it
        await asyncio.sleep(0.05)
    finally:
        await lag.close()
    async with endpoint() as server:
        samples = await scrape(server.port)
    assert samples[("tessera_event_loop_lag_max_seconds", ())] >= 0.15
    assert samples[("tessera_event_loop_lag_seconds", ())] < 0.15  # the latest tick: on time


def answer(body: object, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """JSON as Discord sends it (discord.py reads a body as JSON only with exactly this
    content type)."""
    kind = {"Content-Type": "application/json"}
    return web.Response(
        body=json.dumps(body).encode(), status=status, headers={**(headers or {}), **kind}
    )


async def test_discord_429s_are_counted_by_scope() -> None:
    """discord.py's HTTP client with the bot's trace, against a server that answers 429
    twice (a route's own limit, then the global one) before 200: discord.py waits the
    retry-after and retries by itself; the counter sees each 429."""
    answers = [
        (429, {"X-RateLimit-Scope": "user"}, {"retry_after": 0.01, "global": False}),
        (429, {"X-RateLimit-Scope": "global"}, {"retry_after": 0.01, "global": True}),
        (200, {}, {"id": "1", "type": 0}),
    ]

    async def channel(_request: web.Request) -> web.Response:
        status, headers, body = answers.pop(0)
        return answer(body, status, {**headers, "Via": "1.1 google"})

    async def me(_request: web.Request) -> web.Response:
        user = {"id": "7", "username": "tessera", "discriminator": "0", "avatar": None}
        return answer(user)

    app = web.Application()
    app.router.add_get("/api/v10/channels/{id}", channel)
    app.router.add_get("/api/v10/users/@me", me)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    saved = discord.http.Route.BASE
    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    http = discord.http.HTTPClient(asyncio.get_running_loop(), http_trace=discord_trace())
    before = {s: metrics.DISCORD_429.value(s) for s in ("user", "global")}
    try:
        await http.static_login("token")
        await http.request(discord.http.Route("GET", "/channels/{channel_id}", channel_id=1))
    finally:
        discord.http.Route.BASE = saved
        await http.close()
        await runner.cleanup()
    assert not answers
    assert metrics.DISCORD_429.value("user") == before["user"] + 1
    assert metrics.DISCORD_429.value("global") == before["global"] + 1


async def test_health_answers_for_the_database_and_discord(tmp_path: Path) -> None:
    service = await MatchService.open(tmp_path / "t.db", render=False)
    ready = [False]
    try:
        async with endpoint() as server:
            server.watch(service.store, ready=lambda: ready[0])
            status, _, body = await get(server.port, "/healthz")
            assert (status, body) == (503, "discord: not connected\n")
            ready[0] = True
            assert (await get(server.port, "/healthz"))[:3:2] == (200, "ok\n")
            assert (await get(server.port, "/healthz", "HEAD"))[0] == 200
            assert (await get(server.port, "/nothing"))[0] == 404
            assert (await get(server.port, "/metrics", "POST"))[0] == 405
            await service.store.close()  # the database stops answering
            status, _, body = await get(server.port, "/healthz")
            assert status == 503 and body.startswith("database: no answer"), body
            samples = await scrape(server.port)
            assert samples[("tessera_database_up", ())] == 0
            assert math.isnan(samples[("tessera_outbox_backlog", ())])
    finally:
        service.store.close = _closed  # type: ignore[method-assign]
        await service.close()


async def _closed() -> None:
    """A store already closed by the test closes again as nothing."""


async def test_the_health_check_command_asks_the_running_endpoint(tmp_path: Path) -> None:
    """``python -m bot.ops.health`` (the Dockerfile's HEALTHCHECK) with the container's
    settings: 0 against a healthy bot, 1 with one line against none."""
    service = await MatchService.open(tmp_path / "t.db", render=False)
    env = {k: v for k, v in os.environ.items() if not k.startswith("TESSERA_")}
    env["PYTHONPATH"] = str(ROOT)
    try:
        async with endpoint() as server:
            server.watch(service.store, ready=lambda: True)
            env.update(TESSERA_METRICS_HOST="0.0.0.0", TESSERA_METRICS_PORT=str(server.port))
            code, out = await _run_health(env, tmp_path)
            assert (code, out) == (0, "health: 200: ok\n")
    finally:
        await service.close()
    code, out = await _run_health(env, tmp_path)  # the endpoint is gone
    assert code == 1 and out.startswith("health: http://127.0.0.1:") and out.count("\n") == 1
    code, out = await _run_health({**env, "TESSERA_METRICS_PORT": "0"}, tmp_path)
    assert code == 1 and "TESSERA_METRICS_PORT is 0" in out


async def _run_health(env: dict[str, str], cwd: Path) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.ops.health",
        env=env,
        cwd=cwd,
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await asyncio.wait_for(proc.communicate(), 60)
    return proc.returncode or 0, out.decode()


async def test_a_port_that_cannot_be_used_is_one_line_before_anything_starts() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = OpsServer("127.0.0.1", port)
        refused = await server.start()
        await server.close()
    assert refused is not None and "\n" not in refused
    assert f"TESSERA_METRICS_PORT={port}" in refused and "in use" in refused


def test_the_endpoint_is_off_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("TESSERA_"):
            monkeypatch.delenv(name)
    assert OpsServer.from_settings(Settings(_env_file=None)) is None
    monkeypatch.setenv("TESSERA_METRICS_PORT", "9464")
    server = OpsServer.from_settings(Settings(_env_file=None))
    assert server is not None and (server.host, server.asked_port) == ("127.0.0.1", 9464)


@pytest.mark.parametrize(
    ("name", "wrong", "allowed"),
    [
        ("TESSERA_LOG_FORMAT", "xml", "'text' or 'json'"),
        ("TESSERA_METRICS_HOST", "localhost", "an IP address"),
        ("TESSERA_METRICS_PORT", "70000", "65535"),
    ],
)
def test_a_wrong_operations_setting_is_refused_in_one_line(
    name: str,
    wrong: str,
    allowed: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv(name, wrong)
    assert main(["audit", "--db", "missing.db"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{name}={wrong}" in err and allowed in err, err


def test_metric_names_and_help_follow_the_format() -> None:
    samples, types = parse(metrics.REGISTRY.exposition())
    assert set(types) == {
        "tessera_moves_total",
        "tessera_move_seconds",
        "tessera_outbox_backlog",
        "tessera_outbox_oldest_age_seconds",
        "tessera_outbox_lapsed_claims",
        "tessera_posts_resent_total",
        "tessera_discord_429_total",
        "tessera_computer_turns_pending",
        "tessera_event_loop_lag_seconds",
        "tessera_event_loop_lag_max_seconds",
        "tessera_database_up",
    }
    for name, kind in types.items():
        assert (kind == "counter") == name.endswith("_total"), name


def test_the_readme_names_every_metric() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Operations", 1)[1].split("\n## ", 1)[0]
    for name in parse(metrics.REGISTRY.exposition())[1]:
        assert f"`{name}`" in section, name


def test_a_label_value_is_escaped() -> None:
    counter = metrics.CounterMetric("tessera_test_total", "A test.", label="game")
    counter.inc('a"b\\c\nd')
    line = counter.exposition().splitlines()[-1]
    assert line == 'tessera_test_total{game="a\\"b\\\\c\\nd"} 1'
    parse(counter.exposition())
