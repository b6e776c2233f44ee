"""``/leaderboard`` and ``/stats`` in the local console (same words as on Discord)."""

from __future__ import annotations

import re
from pathlib import Path

from bot.console import Console
from bot.matches.service import MatchService


async def run(console: Console, *lines: str) -> list[str]:
    out: list[str] = []
    for line in lines:
        out += await console.run_line(line)
    return out


async def _play_to_the_end(console: Console, service: MatchService, match_id: int) -> None:
    """Whoever is on turn takes as much as allowed until the pile is empty."""
    info = await service.info(match_id)
    while info.status == "running":
        name = info.to_act[0].removeprefix("console:")
        await run(console, f"{name}> /play take3")
        info = await service.info(match_id)


async def test_console_leaderboard_and_stats(service: MatchService, tmp_path: Path) -> None:
    console = Console(service, tmp_path)
    assert await run(console, "alice> /leaderboard test-pile") == [
        "Nobody on this server has a rating in Pile yet."
    ]
    await run(console, "alice> /game new test-pile size=3", "bob> /game join", "bob> /game start")
    await _play_to_the_end(console, service, 1)
    await run(console, "carol> /game new test-pile size=3 rated=off")
    await run(console, "dave> /game join", "dave> /game start")
    await _play_to_the_end(console, service, 2)
    assert (await service.info(2)).settings["rated"] is False
    board = await run(console, "alice> /leaderboard test-pile")
    assert board[0].startswith("Pile leaderboard")  # plain: no Discord markup
    assert len(board) == 3  # Alice and Bob; the unrated match rated nobody
    mine = await run(console, "alice> /stats")
    assert mine[0] == "Stats of Alice on this server:"
    assert "played 1 · finished 1 · won" in mine[1]
    assert mine[-2] == "Favourite opponents: Bob (1)"
    # the dates line: Discord's timestamps as UTC dates (whoever was dealt the first turn
    # may have taken the whole pile of 3 at once, leaving the other without a move)
    dates = r"First match \d{4}-\d\d-\d\d · (latest move \d{4}-\d\d-\d\d \d\d:\d\d UTC|no move yet)"
    assert re.fullmatch(dates, mine[-1]), mine[-1]
    bob = await run(console, "alice> /stats bob test-pile")
    assert bob[0] == "Stats of Bob on this server:" and "Pile" in bob[-3]
    assert re.fullmatch(dates, bob[-1]), bob[-1]
    assert "latest move" in mine[-1] + bob[-1]  # one of them moved
    server = await run(console, "alice> /stats server")
    assert "matches: 2 (finished: 2, running: 0, aborted: 0) · players: 4" in server[1]
