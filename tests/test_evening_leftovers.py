"""What a colleague's whole evening in the console still found (issue 41's classes): private
lines in the reader's language and with their name as typed, console wordings that are not
Discord's, and the like. Each test drives the console (``Console.run_line``) as a player
types, and failed before its fix."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.computers.driver import ComputerDriver
from bot.console import Console
from bot.matches.reports import User
from bot.matches.service import MatchService


async def run(console: Console, *lines: str) -> list[str]:
    out: list[str] = []
    for line in lines:
        out += await console.run_line(line)
    return out


@pytest.fixture
async def console(tmp_path: Path) -> AsyncIterator[Console]:
    service = await MatchService.open(tmp_path / "c.db", render_processes=False)
    console = Console(service, tmp_path / "pics", ComputerDriver(service, workers=0))
    yield console
    await console.computers.close()
    await service.close()


async def test_a_private_line_is_in_the_console_language_with_the_name_as_typed(
    console: Console,
) -> None:
    """Bob never typed /lang: his private lines are in the console's language (as a Discord
    user's are in their client's), and name him as he typed himself."""
    await run(console, "alice> /lang de", "alice> /game new taj-mahal")
    await run(console, "Bob> /game join", "carol> /game join", "alice> /game start")
    private: list[str] = []
    for _ in range(30):
        info = await console.service.info(1)
        if info.status != "running":
            break
        seat = next(s for s in info.seats if s.user_id in info.to_act)
        moves = await console.service.legal_moves(1, User(seat.user_id, seat.name))
        out = await run(console, f"{seat.name}> /play {moves[0].notation}")
        private += [line for line in out if line.startswith("[priva")]
    assert private, "no private line in 30 moves"
    assert all(line.startswith("[privat an ") for line in private), private
    assert not any("You " in line or "from the deck" in line for line in private), private
    assert not any(line.startswith(("[privat an bob]", "[privat an carol]")) for line in private)
