"""What issue 41's first evening still found in the console once the rest was done: Discord
markup printed literally, move lines in nested parentheses, refusals without their ✗, and
a closed lobby that claimed not to have started.

Each test drives the real console (``Console.run_line``) or the catalogue, and walks every
command, game and language rather than the examples of the issue.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.computers.driver import ComputerDriver
from bot.console import COMMANDS, Console
from bot.console.moves import group_line, group_moves
from bot.console.plain import plain_text
from bot.matches.service import MatchService
from render.words.catalogue import LANGUAGES, t
from rules import get_game
from rules.base import Move
from rules.registry import game_ids

ROOT = Path(__file__).resolve().parent.parent

#: Discord's markup: bold, underline, strike, spoiler, code, a quote or heading at the
#: start of a line, a masked link, a timestamp, a mention (of a user, role or channel).
MARKUP = re.compile(
    r"\*\*|__|~~|\|\||`|^\s*>{1,3} |^#{1,3} |\[[^\]\n]*\]\([^)\n]*\)|<t:-?\d+(?::[tTdDfFR])?>|<[@#]"
)

REAL_GAMES = [g for g in game_ids() if g != "test-pile"]


@pytest.fixture
async def console(tmp_path: Path) -> AsyncIterator[Console]:
    service = await MatchService.open(tmp_path / "t.db", render_processes=False)
    computers = ComputerDriver(
        service, workers=1, processes=False, suggester="tests.evening.players:suggest"
    )
    computers.pool.reviewer = "tests.review_fakes:judge"  # /review: the fast judge
    yield Console(service, tmp_path / "pictures", computers)
    await computers.close()
    await service.close()


async def said(console: Console, *lines: str) -> list[tuple[str, str]]:
    """Every printed line with the line typed before it."""
    out: list[tuple[str, str]] = []
    for typed in lines:
        for text in await console.run_line(typed):
            out += [(typed, line) for line in text.split("\n")]
    return out


def every_command(lang: str) -> list[str]:
    """A session that types every console command (and every /game sub-command) on a lobby,
    a running match of each game and a finished one, in ``lang``."""
    lines = [f"{who}> /lang {lang}" for who in ("carol", "bob", "alice")]
    lines += ["alice> /help", "alice> /rules"]
    lines += [f"/rules {g}" for g in game_ids()]
    for match, game in enumerate(REAL_GAMES, 1):
        lines += [
            f"alice> /game new {game}",
            "alice> /game bot",
            "alice> /game unbot",
            "bob> /game join",
            "carol> /game join",
            "alice> /game settings",
            "alice> /game list",
            "alice> /game start",
            "alice> /board",
            *(f"{who}> /{cmd}" for who in ("alice", "bob") for cmd in ("moves", "hint", "hand")),
            "alice> /moves 2",
            "bob> /moves 2",
            "alice> /history",
            "alice> /undo",
            f"alice> /use {match}",
        ]
    finished = len(REAL_GAMES) + 1
    lines += [
        "alice> /game new test-pile size=3",
        "bob> /game join",
        "bob> /game start",
        "alice> /play take1",
        "bob> /play take1",
        "alice> /play take1",
        "alice> /history",
        "alice> /board",
        "alice> /history replay",
        "alice> /review",
        "alice> /export",
        "alice> /stats",
        "alice> /stats bob",
        "alice> /stats server",
        "alice> /stats azul",
        "alice> /stats server test-pile",
        "alice> /leaderboard test-pile",
        "alice> /leaderboard azul",
        "alice> /game new test-pile size=9",
        "bob> /game join",
        "bob> /game start",
        "bob> /game sub",
        "bob> /game sub carol",
        "carol> /game sub decline",
        "alice> /game abort",
        "bob> /resign",
        f"alice> /use {finished}",
        "alice> /notify",
        "alice> /notify mode=dm",
        "alice> /notify away 3",
        "alice> /notify back",
        "alice> /audit",
        "alice> /lang",
        "alice> /game new azul",
        "alice> /game leave",
        "alice> /game abort",
        "alice> /league new azul format=swiss signup_days=0",
        *(f"{who}> /league join" for who in ("alice", "bob", "carol")),
        "alice> /league list",
        "alice> /league start",
        "alice> /league standings",
        "bob> /league leave",
        "alice> /league cancel",
        "alice> /frobnicate",
        "alice> /game frobnicate",
    ]
    return lines


def test_the_session_types_every_command() -> None:
    typed = {line.split("> /", 1)[1].split()[0] for line in every_command("en") if "> /" in line}
    assert set(COMMANDS) - typed == set()
    subs = {line.split()[2] for line in every_command("en") if "> /game " in line}
    assert {"new", "join", "leave", "start", "settings", "sub", "list", "bot", "unbot"} <= subs
    assert "abort" in subs


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_no_console_output_carries_discord_markup(console: Console, lang: str) -> None:
    seen = await said(console, *every_command(lang))
    assert len(seen) > 200
    marked = [f"{typed!r} → {line!r}" for typed, line in seen if MARKUP.search(line)]
    assert marked == []


def test_plain_text_turns_each_kind_of_markup_into_console_text() -> None:
    names = {"console:alice": "Alice"}
    assert plain_text("**Stats of Alice** on this server:", names) == (
        "Stats of Alice on this server:"
    )
    assert plain_text("__a__ ~~b~~ ||c||", names) == "a b c"
    assert plain_text("type `/notify back`", names) == "type '/notify back'"
    assert plain_text("> quoted", names) == "  quoted"
    assert plain_text("see [the rules](https://x.y/r)", names) == ("see the rules (https://x.y/r)")
    assert plain_text("<@console:alice>, your turn", names) == "Alice, your turn"
    assert plain_text("ends <t:0:R>", names) == "ends 1970-01-01 00:00 UTC"
    # what is no markup stays as it is
    for text in ("alice> /game new azul", "2 × 3 → 6", "F1-B-2", "reminder_hours=24", "a * b"):
        assert plain_text(text, names) == text


# ----- move lines read without nested parentheses ---------------------------------------


def depth(text: str) -> int:
    """How deep parentheses nest in ``text`` (1: none inside another)."""
    deepest = level = 0
    for ch in text:
        level += {"(": 1, ")": -1}.get(ch, 0)
        deepest = max(deepest, level)
    return deepest


def sample_positions(game_id: str, plies: int = 120) -> list[tuple[list[Move], list[str]]]:
    """The legal moves of the seat to act along random playouts of ``game_id`` (each seat
    count, a few seeds), with the players' names."""
    game = get_game(game_id)
    out = []
    for players in range(game.min_players, game.max_players + 1):
        names = [f"P{n}" for n in range(players)]
        for seed in range(2):
            state, rng = game.setup(players, seed), random.Random(seed)
            for _ in range(plies):
                acting = game.to_act(state)
                moves = game.legal_moves(state, acting[0]) if acting else []
                if not moves:
                    break
                out.append((moves, names))
                state, _ = game.apply(state, acting[0], rng.choice(moves))
    return out


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_no_listed_move_nests_parentheses(game_id: str) -> None:
    found: dict[str, str] = {}
    for moves, names in sample_positions(game_id):
        for group in group_moves(sorted(moves, key=lambda m: -m.rank)):
            for lang in LANGUAGES:
                line = group_line(group, lang, names)
                if depth(line) > 1 or "((" in line or "))" in line:
                    found.setdefault(lang, line)
    assert found == {}


async def test_moves_in_the_console_read_without_nested_parentheses(console: Console) -> None:
    for lang in LANGUAGES:
        await said(console, f"alice> /lang {lang}", f"bob> /lang {lang}", "alice> /game new azul")
        await said(console, "bob> /game join", "alice> /game start")
        assert console.current is not None
        info = await console.service.info(console.current)
        mover = info.to_act[0].removeprefix("console:")
        listed = [line for _, line in await said(console, f"{mover}> /moves")]
        assert len(listed) > 5
        assert [line for line in listed if depth(line) > 1] == []


# ----- every refusal carries the ✗ of the shared refusal formatting ---------------------

#: Lines refused in a console where Alice opened match #1 (Pile, Bob joined, started) and
#: Carol opened lobby #2: each must answer one line with the refusal mark.
REFUSED = [
    "/play x",  # nobody typing yet
    "alice> play take1",
    "alice> /",
    'alice> /play "take1',
    "alice> /frobnicate",
    "alice> /game",
    "alice> /game frobnicate",
    "alice> /game new",
    "alice> /game new test-pile size",
    "alice> /game new test-pile players=2 players=3",
    "alice> /game new azul bots=4",
    "alice> /game new taj-mahal level=strong",
    "bob> /game settings reminder_hours=2",
    "carol> /game settings rated=off",
    "alice> /game sub bob carol dave",
    "alice> /game sub seat=11 computer",
    "alice> /game sub",
    "mover> /hint 1",
    "mover> /hint x",
    "alice> /history 0",
    "alice> /history 51",
    "mover> /moves 9",
    "alice> /notify away 99",
    "alice> /lang xx",
]


async def test_every_console_refusal_is_marked(console: Console) -> None:
    await said(console, "alice> /game new test-pile size=9", "bob> /game join")
    await said(console, "alice> /game start", "carol> /game new test-pile size=9")
    await said(console, "carol> /game abort", "alice> /use 1")
    before = await console.service.info(1)
    mover = before.to_act[0].removeprefix("console:")  # "mover>": who is to move
    console.user = None  # the first line is typed by nobody
    for line in (line.replace("mover>", f"{mover}>") for line in REFUSED):
        out = await console.run_line(line)
        if line == "alice> /game sub":  # listing what is open: nothing, an answer
            assert out and not out[0].startswith("✗"), out
            continue
        assert len(out) == 1 and out[0].startswith("✗ "), (line, out)
    assert await console.service.info(1) == before  # nothing changed
    assert len(await console.service.list_matches()) == 1  # nothing was opened


async def test_a_rules_or_leaderboard_without_a_game_is_a_refusal(console: Console) -> None:
    for line in ("alice> /rules", "alice> /leaderboard"):
        out = await console.run_line(line)
        assert len(out) == 1 and out[0].startswith("✗ "), (line, out)


#: Keys that refuse: said by raising (``ServiceError.said``), never returned as a line.
REFUSAL_KEY = re.compile(
    r"^(err\.|svc\.|ai\.too_many$|ai\.level_not_offered$|console\.("
    r"slash_first|who_first|unreadable|type_help|no_command|game_usage|which_game|"
    r"option_form|sub_usage|hint_pick|hint_stale|moves_no_page|leaderboard_usage|"
    r"rules_usage|away_usage|lang_usage)$)"
)


def test_no_console_module_prints_a_refusal_as_a_plain_line() -> None:
    """A refusal key said with ``t``/``tn`` in a console command is a line without the ✗
    (the shared formatting adds it only to what is raised)."""
    found = []
    for path in sorted((ROOT / "bot" / "console").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id in ("t", "tn") and node.args:  # the key, or keys it picks
                keys = [c.value for c in ast.walk(node.args[0]) if isinstance(c, ast.Constant)]
                found += [
                    f"{path.name}:{node.lineno} {key}"
                    for key in keys
                    if isinstance(key, str) and REFUSAL_KEY.match(key)
                ]
    assert found == []


# ----- a lobby everyone left is closed, and every command says so ------------------------

#: Every command that acts on a match, typed at a lobby everyone left.
ON_A_CLOSED_LOBBY = [
    "/board",
    "/history",
    "/history replay",
    "/moves",
    "/hint",
    "/hand",
    "/play F1-B-1",
    "/undo",
    "/resign",
    "/export",
    "/game start",
    "/game join",
    "/game leave",
    "/game bot",
    "/game unbot",
    "/game sub seat=1 computer",
    "/game abort",
]


@pytest.mark.parametrize(
    "closing", [["bob> /game leave", "alice> /game leave"], ["alice> /game abort"]]
)
async def test_a_closed_lobby_says_it_was_closed(console: Console, closing: list[str]) -> None:
    await said(console, "alice> /game new azul", "bob> /game join", *closing)
    info = await console.service.info(1)
    assert info.status == "aborted"
    closed = "✗ " + t("svc.closed_unstarted", "en", match=1)
    for line in ON_A_CLOSED_LOBBY:
        assert await console.run_line(f"alice> {line}") == [closed], line
    assert await console.service.info(1) == info  # nothing changed


async def test_a_lobby_not_yet_started_says_so(console: Console) -> None:
    await said(console, "alice> /game new azul")
    waiting = "✗ " + t("svc.not_started", "en", match=1)
    for line in ("/board", "/history replay", "/moves", "/hint", "/play F1-B-1", "/export"):
        assert await console.run_line(f"alice> {line}") == [waiting], line
    assert await console.run_line("alice> /history") == [t("history.empty", "en")]


async def test_a_finished_match_says_it_is_over_to_moves(console: Console) -> None:
    await said(console, "alice> /game new test-pile size=9", "bob> /game join")
    await said(console, "alice> /game start", "alice> /game abort", "bob> /game abort")
    assert (await console.service.info(1)).status == "aborted"
    over = "✗ " + t("svc.over_moves", "en", match=1)
    for line in ("/moves", "/hint", "/play take1"):
        assert await console.run_line(f"alice> {line}") == [over], line
    assert (await console.run_line("alice> /board"))[0].startswith("Aborted by a vote")
