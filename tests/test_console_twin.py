"""The console is a full twin of Discord (issue 41): walking Discord's real command tree
(built offline, as tests/test_discord_tree.py does), the console understands every command
and every option by name. ``/game new`` and ``/game settings`` take each option as
``name=value``, from the one table of options. There is no allow-list: the seven options
the console once lacked (a match on leave/start/abort/sub/replay, a page, an abort reason)
are taken now, each with its line in :data:`USES`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.console import Console
from bot.matches import option_table
from bot.matches.service import MatchService
from render.words.catalogue import t
from tests.discord_harness import running

#: How the console spells a Discord command whose words differ (the rest: the same words).
SPELLED = {
    "stats player": "stats",  # /stats [name] [game]
    "history moves": "history",  # /history [N]
}

#: Discord's options the console takes by position or as a word, with a line using each
#: (``new`` and ``settings`` take every option as name=value and are probed from the table).
USES = {
    ("game join", "match"): "/game join 1",
    ("game sub", "new"): "/game sub carol",
    ("game sub", "seat"): "/game sub seat=2 computer",
    ("game sub", "computer"): "/game sub seat=2 computer",
    ("play", "move"): "/play x",
    ("undo", "refuse"): "/undo no",
    ("rules", "game"): "/rules azul",
    ("leaderboard", "game"): "/leaderboard test-pile",
    ("stats player", "user"): "/stats bob",
    ("stats player", "game"): "/stats test-pile",
    ("stats server", "game"): "/stats server test-pile",
    ("history moves", "count"): "/history 5",
    ("notify", "mode"): "/notify mode=dm",
    ("notify", "reminder_hours"): "/notify reminder_hours=5",
    ("notify", "quiet_from"): "/notify quiet_from=22",
    ("notify", "quiet_to"): "/notify quiet_to=7",
    ("notify", "utc_offset"): "/notify utc_offset=2",
    ("notify", "heads_up"): "/notify heads_up=on",
    ("notify", "away"): "/notify away 3",
    ("notify", "back"): "/notify back",
    ("game new", "game"): "/game new test-pile",
    ("game new", "options"): '/game new test-pile "options=size=9"',
    ("game settings", "match"): "/game settings match=1",
    ("game leave", "match"): "/game leave 1",
    ("game start", "match"): "/game start 1",
    ("game abort", "match"): "/game abort 1",
    ("game abort", "reason"): '/game abort "reason=no time"',
    ("game sub", "match"): "/game sub bob match=1",
    ("history replay", "match"): "/history replay 1",
    ("review", "match"): "/review 1",
    ("game list", "page"): "/game list 1",
    ("hand", "match"): "/hand 1",
    ("league new", "game"): "/league new azul",
    ("league new", "format"): "/league new azul format=swiss",
    ("league new", "players_per_table"): "/league new azul players_per_table=2",
    ("league new", "rounds"): "/league new azul rounds=2",
    ("league new", "days_per_move"): "/league new azul days_per_move=2",
    ("league new", "signup_days"): "/league new azul signup_days=0",
    ("league new", "rated"): "/league new azul rated=off",
    ("league new", "fill"): "/league new azul fill=bye",
    ("league start", "league"): "/league start 1",
    ("league standings", "league"): "/league standings 1",
    ("league leave", "league"): "/league leave 1",
    ("league cancel", "league"): "/league cancel 1",
}

#: Answers that mean "not understood" (placeholders as wildcards).
NOT_UNDERSTOOD = (
    "console.no_command",
    "console.game_usage",
    "console.options",
    "console.sub_usage",
    "console.league_usage",
)


def not_understood(lines: list[str]) -> bool:
    patterns = [
        re.compile(re.escape(t(k, "en")).replace(r"\{", "{").replace(r"\}", "}"))
        for k in NOT_UNDERSTOOD
    ]
    loose = [re.compile(re.sub(r"\{[^}]*\}", ".*", p.pattern)) for p in patterns]
    return any(p.search(line) for p in loose for line in lines)


async def discord_commands(tmp_path: Path, monkeypatch: Any) -> dict[str, list[str]]:
    """Every Discord command path ("game new", "stats player", "board") -> its options."""
    async with running(tmp_path, monkeypatch) as h:
        payloads = [c.to_dict(h.bot.tree) for c in h.bot.tree.get_commands()]
    out: dict[str, list[str]] = {}

    def walk(path: str, options: list[dict[str, Any]]) -> None:
        groups = [o for o in options if o["type"] in (1, 2)]
        for group in groups:
            walk(f"{path} {group['name']}", group.get("options", []))
        if not groups:
            out[path] = [o["name"] for o in options]

    for payload in payloads:
        if payload.get("type", 1) == 1:  # slash commands (not the context menus)
            walk(payload["name"], payload.get("options", []))
    return out


@pytest.fixture(autouse=True)
def same_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every match is dealt alike, so a line's answer differs only by what it asks."""
    monkeypatch.setattr("bot.matches.lobby.secrets.randbits", lambda _bits: 12345)


async def answers(tmp_path: Path, name: str, *lines: str) -> list[str]:
    """What the console answers to ``lines`` after Alice and Bob started a match (#1)."""
    service = await MatchService.open(tmp_path / f"{name}.db", render_processes=False)
    try:
        console = Console(service, tmp_path / name)
        for line in ("alice> /game new test-pile", "bob> /game join", "alice> /game start"):
            await console.run_line(line)
        out: list[str] = []
        for line in lines:
            out += await console.run_line(f"alice> {line}")
        return out
    finally:
        await service.close()


def sample(spec: Any) -> str:
    """A value the table allows, as typed."""
    if spec.kind == "bool":
        return "off"
    if spec.kind == "choice":
        return str(spec.choices[0])
    return f"{spec.low:g}" if spec.name != "players" else "2"


async def test_console_takes_every_discord_command_and_option(
    tmp_path: Path, monkeypatch: Any
) -> None:
    commands = await discord_commands(tmp_path / "tree", monkeypatch)
    assert {"game new", "game settings", "play", "notify"} <= set(commands)
    problems: list[str] = []
    for n, (path, options) in enumerate(sorted(commands.items())):
        typed = SPELLED.get(path, path)
        out = await answers(tmp_path, f"c{n}", f"/{typed}")
        if not_understood(out):
            problems.append(f"/{path}: {out}")
        for m, option in enumerate(options):
            key = (path, option)
            table = option_table.for_command(path.removeprefix("game "))
            if path in ("game new", "game settings") and option in table:
                line = f"/{path} {option}={sample(table[option])}"
                if path == "game new":
                    line = f"/game new test-pile {option}={sample(table[option])}"
            elif key in USES:
                line = USES[key]
            else:
                problems.append(f"/{path} {option}: no console form")
                continue
            out = await answers(tmp_path, f"c{n}o{m}", line)
            if not_understood(out) or any("is not allowed" in x for x in out):
                problems.append(f"/{path} {option}: {line!r} -> {out}")
    assert problems == []


async def test_the_console_forms_name_real_discord_options(
    tmp_path: Path, monkeypatch: Any
) -> None:
    commands = await discord_commands(tmp_path, monkeypatch)
    for path, option in USES:
        assert option in commands.get(path, []), (path, option)
