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
    computers = ComputerDriver(
        service, workers=1, processes=False, suggester="tests.evening.players:suggest"
    )
    console = Console(service, tmp_path / "pics", computers)
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


#: Words only Discord has: a button to click or tap, a slash option written name:value.
DISCORD_ONLY = ("click", "button", "tap ", ":True", "seat:", "new:@", "refuse:")


def discord_only(lines: list[str]) -> list[str]:
    return [line for line in lines if any(w in line for w in DISCORD_ONLY)]


async def test_the_console_says_how_to_act_in_the_console_not_on_discord(
    console: Console,
) -> None:
    """/hint said "click one to play it"; an undo request "/undo … ignore it"; the
    substitute refusals and posts named buttons and ``seat:N`` options."""
    out = await run(console, "alice> /game new azul", "bob> /game join", "alice> /game start")
    info = await console.service.info(1)
    first = next(s for s in info.seats if s.user_id in info.to_act)
    other = next(s for s in info.seats if s is not first)
    out += await run(console, f"{first.name}> /hint", f"{first.name}> /hint 1")
    out += await run(console, f"{first.name}> /undo")
    assert any("/undo no" in line for line in out), out
    out += await run(console, f"{other.name}> /game sub computer", f"{other.name}> /game sub bob")
    out += await run(console, "carol> /help", f"{other.name}> /game sub carol")
    assert discord_only(out) == [], discord_only(out)
    assert any("/game sub accept" in line for line in out), "\n".join(out)
