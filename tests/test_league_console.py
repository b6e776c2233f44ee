"""``/league …`` in the console: the twins of Discord's commands and of the sign-up button,
a whole one-round league from opening to its final table, and the refusals in words."""

from __future__ import annotations

import re
from pathlib import Path

from bot.console import Console
from bot.matches.service import MatchService


async def lines(console: Console, *typed: str) -> list[str]:
    out: list[str] = []
    for line in typed:
        out += await console.run_line(line)
    return out


async def test_a_league_in_the_console(tmp_path: Path) -> None:
    service = await MatchService.open(tmp_path / "c.db", render_processes=False)
    try:
        c = Console(service, tmp_path / "pictures")
        opened = await lines(c, "alice> /league new azul format=round-robin rounds=1 signup_days=0")
        assert opened[0].startswith("League #1 Azul league #1 (Azul) is open.")
        assert "'/league start 1'" in opened[1]
        bad = await lines(c, "/league new azul format=knockout")
        assert bad[0].startswith("✗") and "round-robin, swiss" in bad[0]
        joined = await lines(
            c,
            "alice> /league join",
            "bob> /league join 1",
            "carol> /league join",
            "dave> /league join",
        )
        assert joined.count("You signed up for Azul league #1.") == 4
        assert "signing up · 4 players" in (await lines(c, "/league list"))[1]
        refused = await lines(c, "bob> /league start")
        assert refused[0].startswith("✗") and "creator" in refused[0]
        started = await lines(c, "alice> /league start")
        assert started[0] == "Azul league #1 has started: the first round is being seated."
        tables = [re.fullmatch(r"Table \d: (\w+) and (\w+) — #\d", x) for x in started]
        seated = [m.groups() for m in tables if m]
        assert len(seated) == 2 and {*seated[0], *seated[1]} == {"Alice", "Bob", "Carol", "Dave"}
        listed = await lines(c, "/game list")
        assert all("league Azul league #1, round 1" in x for x in listed[:2]), listed
        table = await lines(c, "/league standings")
        assert table[0] == "Azul league #1 · Azul — round 1 of 1"
        assert (tmp_path / "pictures" / "league-1-standings.png").exists()
        # one player of each table leaves: they resign, the round ends, the league is over
        await lines(c, f"{seated[0][0].lower()}> /league leave")
        final = await lines(c, f"{seated[1][0].lower()}> /league leave")
        assert any("is over" in x for x in final), final
        assert any(x.startswith(f"1. {seated[0][1]} — points 1") for x in final)
        assert any("(left)" in x for x in final)
        assert (await lines(c, "/league"))[0].startswith("✗ Usage: /league new")
    finally:
        await service.close()
