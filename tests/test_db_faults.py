"""A database failing under a move (issue 44), against a real PostgreSQL.

- The connection is lost after the server committed the move (its answer never arrives):
  the bot reads the move back and gives the normal answer — it used to say "Something went
  wrong on our side; nothing was changed" while the move was stored.
- The connection is lost before the server saw the commit: "nothing was changed", true.
- The server stops answering (a proxy that goes silent; a PostgreSQL whose processes are
  stopped with SIGSTOP): the move fails within the statement timeout with an honest "we
  could not confirm", and a log line — it used to stall for as long as the kernel waited.

The breaks come from :mod:`tests.db_proxy` (a TCP proxy that cuts on cue) or signals; the
limits are small (1 s) so the tests are quick.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import time
from collections.abc import AsyncIterator
from urllib.parse import urlsplit

import pytest

from bot.matches.errors import DatabaseTrouble
from bot.matches.reports import User
from bot.matches.service import MatchService
from bot.storage.limits import DatabaseLimits
from bot.storage.postgres import PostgresStore
from tests import pg_server
from tests.conftest import new_postgres_database
from tests.db_proxy import PgProxy

ALICE = User("cut-alice-4417", "Alice")
BOB = User("cut-bob-5521", "Bob")
LIMITS = DatabaseLimits(pool_size=3, statement_timeout=1.0, connect_timeout=1.0)


@pytest.fixture
async def proxied(postgres: pg_server.PgServer) -> AsyncIterator[tuple[PgProxy, MatchService]]:
    url = await new_postgres_database(postgres)
    proxy = PgProxy("127.0.0.1", postgres.port)
    await proxy.start()
    store = await PostgresStore.open(
        proxy.url(postgres.user, urlsplit(url).path.lstrip("/")), limits=LIMITS
    )
    service = MatchService(store, render=False)
    yield proxy, service
    await proxy.close()
    await service.close()


async def started(service: MatchService) -> tuple[int, User]:
    info = await service.create_match(
        "test-pile", ALICE, None, seed=3, guild_id="g1", channel_id="c1"
    )
    await service.join(info.id, BOB)
    await service.start(info.id, ALICE)
    now = await service.info(info.id)
    mover = ALICE if now.to_act == [ALICE.id] else BOB
    return info.id, mover


async def test_a_commit_whose_answer_was_lost_is_read_back_as_played(
    proxied: tuple[PgProxy, MatchService], caplog: pytest.LogCaptureFixture
) -> None:
    proxy, service = proxied
    match_id, mover = await started(service)
    before = await service.info(match_id)
    proxy.arm("lose_reply", mover.id.encode())
    with caplog.at_level(logging.WARNING, logger="bot.matches.lost_commits"):
        report = await service.play(match_id, mover, "TAKE 2")
    assert proxy.cuts == 1  # the connection really broke after the server committed
    assert report.lines[0] == f"{mover.name}: take 2 counters"  # the normal answer
    assert report.match.version == before.version + 1
    rows = await service.store.moves(match_id)
    assert [(r.notation, r.user_id) for r in rows] == [("take2", mover.id)]
    assert any("the move was stored" in r.getMessage() for r in caplog.records)
    # and play goes on from the stored move
    after = await service.info(match_id)
    assert after.version == before.version + 1


async def test_a_commit_lost_before_the_server_saw_it_says_nothing_changed(
    proxied: tuple[PgProxy, MatchService],
) -> None:
    proxy, service = proxied
    match_id, mover = await started(service)
    before = await service.info(match_id)
    proxy.arm("lose_request", mover.id.encode())
    with pytest.raises(DatabaseTrouble) as refused:
        await service.play(match_id, mover, "TAKE 2")
    assert proxy.cuts == 1
    assert refused.value.key == "err.db_not_saved"
    assert "nothing was changed" in refused.value.text("en")
    assert await service.store.moves(match_id) == []
    assert (await service.info(match_id)).version == before.version
    report = await service.play(match_id, mover, "TAKE 2")  # trying again works
    assert report.match.version == before.version + 1


async def test_a_silent_server_is_answered_honestly_within_the_timeouts(
    proxied: tuple[PgProxy, MatchService], caplog: pytest.LogCaptureFixture
) -> None:
    proxy, service = proxied
    match_id, mover = await started(service)
    proxy.arm("freeze", mover.id.encode())
    began = time.monotonic()
    with (
        caplog.at_level(logging.WARNING, logger="bot.matches.lost_commits"),
        pytest.raises(DatabaseTrouble) as refused,
    ):
        await service.play(match_id, mover, "TAKE 2")
    waited = time.monotonic() - began
    assert refused.value.key == "err.db_unconfirmed"
    text = refused.value.text("en")
    assert "cannot tell" in text and "appear in the match" in text
    assert "nothing was changed" not in text
    # the client's wait (1 s + 1 s) and the read-back's connect timeout (1 s), not a stall
    assert waited < 10, waited
    assert any("may or may not be stored" in r.getMessage() for r in caplog.records)


def _server_processes(server: pg_server.PgServer) -> list[int]:
    """The postmaster and all its children."""
    pid = int((server.folder / "data" / "postmaster.pid").read_text().split()[0])
    children = subprocess.run(
        ["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True, check=False
    ).stdout.split()
    return [pid, *map(int, children)]


async def test_a_frozen_postgresql_fails_a_move_within_the_statement_timeout(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """SIGSTOP on every process of a PostgreSQL of the test's own (the shared one serves
    other tests): the play's first statement (reading the match) gets no answer; the move
    fails after the statement timeout, nothing was written, and the player is told so
    (the commit itself going silent is the proxy's test above)."""
    server = pg_server.start()
    stopped: list[int] = []
    try:
        store = await PostgresStore.open(server.url(), limits=LIMITS)
        service = MatchService(store, render=False)
        match_id, mover = await started(service)
        stopped = _server_processes(server)
        for pid in stopped:
            os.kill(pid, signal.SIGSTOP)
        began = time.monotonic()
        with (
            caplog.at_level(logging.WARNING, logger="bot.matches.lost_commits"),
            pytest.raises(DatabaseTrouble) as refused,
        ):
            await service.play(match_id, mover, "TAKE 2")
        waited = time.monotonic() - began
        assert refused.value.key == "err.db_not_saved"
        assert waited < 10, waited  # the statement timeout and a second, not a 20 s stall
        lines = [r.getMessage() for r in caplog.records]
        assert any("no answer within 2 s" in line for line in lines), lines
        for pid in stopped:
            os.kill(pid, signal.SIGCONT)
        stopped = []
        await service.close()
    finally:
        for pid in stopped:
            os.kill(pid, signal.SIGCONT)
        server.stop()
