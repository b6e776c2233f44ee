"""The console as a full twin of Discord (issue 41): each post printed once, /stats and
/leaderboard in the console's language, /moves grouped and paged, labels typed plainly."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from bot.community import stats
from bot.console import Console
from bot.console.plain import plain_text
from bot.matches.service import MatchService
from render.words.catalogue import t


def plain(text: str, lang: str) -> str:
    """A text as the console prints it (without Discord's markup)."""
    return plain_text(text, {})


async def run(console: Console, *lines: str) -> list[str]:
    out: list[str] = []
    for line in lines:
        out += await console.run_line(line)
    return out


async def _play_out(console: Console, service: MatchService, match_id: int) -> list[str]:
    seen: list[str] = []
    info = await service.info(match_id)
    while info.status == "running":
        name = info.to_act[0].removeprefix("console:")
        seen += await run(console, f"{name}> /play take1")
        info = await service.info(match_id)
    return seen


def _posts(lines: list[str]) -> Counter[str]:
    """The match posts printed, each counted (a picture's path names its ply)."""
    return Counter(line for line in lines if line.startswith("[match #"))


async def test_each_move_and_the_result_are_printed_once(
    service: MatchService, tmp_path: Path
) -> None:
    console = Console(service, tmp_path)
    await run(console, "alice> /game new test-pile size=3", "bob> /game join", "bob> /game start")
    seen = await _play_out(console, service, 1)
    posts = _posts(seen)
    assert len(posts) == 3 and set(posts.values()) == {1}, seen
    assert sum("wins" in line for line in seen) == 1
    pictures = [line for line in seen if "picture:" in line]
    assert len(pictures) == len(set(pictures)) == 3


async def test_moves_and_result_with_a_computer_seat_are_printed_once(
    service: MatchService, tmp_path: Path
) -> None:
    console = Console(service, tmp_path)
    seen = await run(console, "alice> /game new test-pile size=6 bots=1", "alice> /game start")
    seen += await _play_out(console, service, 1)
    posts = _posts(seen)
    assert posts and set(posts.values()) == {1}, seen
    assert sum("wins" in line for line in seen) == 1


async def test_resignation_result_is_printed_once(service: MatchService, tmp_path: Path) -> None:
    console = Console(service, tmp_path)
    await run(console, "alice> /game new test-pile size=9", "bob> /game join", "bob> /game start")
    seen = await run(console, "bob> /resign")
    assert sum("resigned" in line for line in seen) == 1, seen
    assert sum(line.startswith("[match #") for line in seen) == 1


@pytest.mark.parametrize("lang", ["hu", "de", "pl"])
async def test_stats_and_leaderboard_speak_the_console_language(
    service: MatchService, tmp_path: Path, lang: str
) -> None:
    console = Console(service, tmp_path)
    await run(console, f"alice> /lang {lang}")
    assert await run(console, "alice> /leaderboard test-pile") == [
        t("leaderboard.empty", lang, game="Pile")
    ]
    await run(console, "alice> /game new test-pile size=3", "bob> /game join", "bob> /game start")
    await _play_out(console, service, 1)
    board = await run(console, "alice> /leaderboard")
    assert board[0] == plain(t("leaderboard.head", lang, game="Pile"), lang)
    mine = await run(console, "alice> /stats")
    store = service.store
    report = await stats.player_report(store, None, "console:alice", "Alice", None, lang)
    assert mine == [plain(line, lang) for line in report]
    english = await stats.player_report(store, None, "console:alice", "Alice", None, "en")
    assert mine != [plain(line, "en") for line in english]
    server = await run(console, "alice> /stats server")
    assert server == [
        plain(line, lang) for line in await stats.server_report(store, None, None, lang)
    ]
    english = await stats.server_report(store, None, None, "en")
    assert server != [plain(line, "en") for line in english]
