"""Shared fixtures. The test-only Pile game is registered here, through the same public
registries a real game uses."""

from __future__ import annotations

import itertools
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest

from bot.matches.reports import User
from bot.matches.service import MatchService
from render.registry import register_renderer
from render.words.catalogue import MESSAGES
from rules.registry import register_game
from tests import pg_server
from tests.fakediscord import FakeDiscord
from tests.fakediscord.rest import Rest
from tests.fakegame import GAME as PILE

register_game(PILE)
register_renderer(PILE.id, "tests.fakegame:draw")

ALICE = User("1001", "Alice")
BOB = User("1002", "Bob")
CAROL = User("1003", "Carol")
MALLORY = User("6666", "Mallory")


_databases = itertools.count(1)


@pytest.fixture(scope="session")
def postgres() -> Iterator[pg_server.PgServer]:
    """One PostgreSQL server for the whole run (started on first use); every test that
    uses it gets a database of its own."""
    server = pg_server.start()
    yield server
    server.stop()


async def new_postgres_database(server: pg_server.PgServer) -> str:
    """A fresh, empty database on the test server; the store migrates it when opened."""
    name = f"t{next(_databases)}"
    conn = await asyncpg.connect(server.url())
    try:
        try:  # PostgreSQL 15+: a plain file copy is the fastest way to a small database
            await conn.execute(f"CREATE DATABASE {name} STRATEGY FILE_COPY")
        except asyncpg.PostgresSyntaxError:  # older servers copy files anyway
            await conn.execute(f"CREATE DATABASE {name}")
    finally:
        await conn.close()
    return server.url(name)


@pytest.fixture(params=["sqlite", "postgres"])
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """Where a test's store lives: an SQLite file, or a PostgreSQL database. Tests that
    take this fixture run once per backend: nothing may behave differently between them."""
    if request.param == "sqlite":
        return tmp_path / "t.db"
    return await new_postgres_database(request.getfixturevalue("postgres"))


@pytest.fixture
async def service(database: str | Path) -> AsyncIterator[MatchService]:
    svc = await MatchService.open(database)
    yield svc
    await svc.close()


_PLACEHOLDER = re.compile(r"(\{[^{}]*\})")
_UMLAUTS = str.maketrans("AEIOU", "ÄËÏÖÜ")


def shout(template: str) -> str:
    """A template upper-cased (vowels with umlauts) except inside its {placeholders}."""
    return "".join(
        part if _PLACEHOLDER.fullmatch(part) else part.upper().translate(_UMLAUTS)
        for part in _PLACEHOLDER.split(template)
    )


@pytest.fixture
def xx(monkeypatch: pytest.MonkeyPatch) -> str:
    """The test-only language "xx": the English catalogue shouted (see tests/test_words.py),
    shared by every game's words test."""
    monkeypatch.setitem(MESSAGES, "xx", {k: shout(v) for k, v in MESSAGES["en"].items()})
    return "xx"


@pytest.fixture
async def http(fake: FakeDiscord) -> AsyncIterator[Rest]:
    """Raw requests to the strict local Discord of the test module's ``fake`` fixture
    (each module opens its own, with the rate limits it tests)."""
    async with Rest(fake) as call:
        yield call
