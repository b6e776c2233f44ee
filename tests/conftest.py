"""Shared fixtures. The test-only Pile game is registered here, through the same public
registries a real game uses."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import MatchService, User
from render.registry import register_renderer
from rules.registry import register_game
from tests.fakegame import GAME as PILE

register_game(PILE)
register_renderer(PILE.id, "tests.fakegame:draw")

ALICE = User("1001", "Alice")
BOB = User("1002", "Bob")
CAROL = User("1003", "Carol")
MALLORY = User("6666", "Mallory")


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[MatchService]:
    svc = await MatchService.open(tmp_path / "t.db")
    yield svc
    await svc.close()
