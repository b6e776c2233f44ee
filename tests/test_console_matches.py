"""Console commands that acted on the wrong thing (issue 41): a match number ignored (``/game
start 9`` started the current match), a typo taken as a player's name (``/game sub acept``)
or as another match's game (``/leaderboard azull``), a stray word dropped, and "Saved."
when nothing was saved. Each is refused in words, and a refusal changes nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.console import Console
from bot.matches.service import MatchService


async def run(console: Console, *lines: str) -> list[str]:
    out: list[str] = []
    for line in lines:
        out += await console.run_line(line)
    return out


@pytest.fixture
async def console(tmp_path: Path) -> AsyncIterator[Console]:
    """Alice and Bob in lobby #1; Alice alone in lobby #2, the match she looks at."""
    service = await MatchService.open(tmp_path / "c.db", render_processes=False)
    console = Console(service, tmp_path / "pics")
    await run(console, "alice> /game new test-pile", "bob> /game join")
    await run(console, "alice> /game new test-pile")
    yield console
    await service.close()


async def status(console: Console, match_id: int) -> str:
    return (await console.service.info(match_id)).status


async def test_a_match_number_is_honoured_never_replaced_by_the_current_one(
    console: Console,
) -> None:
    assert console.current == 2
    assert (await run(console, "alice> /game start 9")) == ["✗ There is no match #9."]
    assert await status(console, 2) == "lobby"
    out = await run(console, "alice> /game start 1")
    assert out[0] == "Match #1 started." and await status(console, 1) == "running"
    assert await status(console, 2) == "lobby"
    assert (await run(console, "alice> /game start x")) == ["✗ “x” is not a match number."]
    # leave: the named lobby, not the running match
    await run(console, "carol> /game join 2")
    assert (await run(console, "carol> /game leave 2")) == ["Carol left match #2."]
    assert (await run(console, "bob> /game leave 1"))[0].startswith("✗ The match has started")
    assert (await run(console, "carol> /game leave 1")) == ["✗ You are not in match #1."]
    # abort: the named match, with its reason shown to everyone as on Discord
    out = await run(console, 'bob> /game abort 1 "reason=my cat is ill"')
    assert out[0] == "Your vote to abort match #1 counts (1 of the 2 needed)."
    assert "“my cat is ill”" in out[1] and await status(console, 2) == "lobby"
    out = await run(console, 'alice> /game abort match=2 reason="wrong game"')
    assert out[0] == "Match #2 was aborted." and await status(console, 1) == "running"
    assert "Aborted by Alice: wrong game" in (await console.service.info(2)).status_text
    assert (await run(console, "alice> /game abort bored"))[0].startswith("✗ “bored” is not")
    # the replay of the named match
    assert "#1 " in (await run(console, "alice> /history replay 1"))[0]
    assert (await run(console, "alice> /history replay 9")) == ["✗ There is no match #9."]
    # /game sub match=N names the match: it is no player called "Match=7"
    assert (await run(console, "alice> /game sub match=7")) == ["✗ There is no match #7."]
    assert (await run(console, "bob> /game sub alice match=2"))[0] == (
        "✗ Match #2 was closed before it started."
    )


async def test_a_command_without_a_match_option_refuses_one(console: Console) -> None:
    """/board 1 showed match #2 (the current one): a word a command does not take is
    refused, never dropped. (/hand takes a match number since Discord's /hand has a match
    option: a second one is refused.)"""
    for line in ("/board 1", "/hand 1 2", "/resign 1", "/use 1 2", "/game join 1 2", "/hint 1 2"):
        out = await run(console, f"alice> {line}")
        assert len(out) == 1 and out[0].startswith("✗ /") and "“" in out[0], (line, out)
    assert "/use <number>" in (await run(console, "alice> /board 1"))[0]
    assert (await run(console, "alice> /lang de en")) == [
        "✗ /lang does not take “en”; type /help to see its form."
    ]
    assert (await console.service.info(1)).status == "lobby"


async def test_a_free_word_is_no_player_and_no_answer(console: Console) -> None:
    await run(console, "alice> /game start 1", "alice> /use 1")
    out = await run(console, "bob> /game sub acept")
    assert out == [
        "✗ Nobody called “acept” plays in this console (players: Alice and Bob). A new "
        "player first types a line as themselves, e.g. 'acept> /help'."
    ]
    assert await console.service.open_subs(1) == []
    await run(console, "carol> /help")
    assert (await run(console, "bob> /game sub carol"))[0].startswith("Bob offers their seat")
    # /undo takes yes or no; "no" without a request asks for nothing
    out = await run(console, "alice> /undo maybe")
    assert out == ["✗ /undo takes yes or no (your answer to a request), or nothing; not “maybe”."]
    assert (await run(console, "alice> /undo no")) == [
        "✗ There is no open request to take back a move."
    ]
    assert "undo" not in (await console.service.info(1)).settings
    # /stats: a game or a known player, nothing else
    out = await run(console, "alice> /stats azull")
    assert out == [
        "✗ “azull” is neither a game (azul, taj-mahal, maharani, pastiche, test-pile) "
        "nor a player of this console (Alice, Bob and Carol)."
    ]
    assert (await run(console, "alice> /stats bob"))[0] == "Stats of Bob on this server:"


async def test_an_unknown_game_is_refused_naming_the_games(console: Console) -> None:
    games = "azul, taj-mahal, maharani, pastiche, test-pile"
    no_game = f"✗ There is no game called “azull”. Games: {games}."
    assert (await run(console, "alice> /leaderboard azull")) == [no_game]
    assert (await run(console, "alice> /rules azull")) == [no_game]
    assert (await run(console, "alice> /stats server azull")) == [no_game]
    assert (await run(console, "alice> /leaderboard test-pile")) == [
        "Nobody on this server has a rating in Pile yet."
    ]


async def test_the_list_takes_a_page_and_checks_it(console: Console) -> None:
    first = await run(console, "alice> /game list")
    assert len(first) == 2 and first == await run(console, "alice> /game list 1")
    assert (await run(console, "alice> /game list 2")) == [
        "✗ There is no page 2: the list has 1 page."
    ]
    assert (await run(console, "alice> /game list two"))[0].startswith("✗ page must be")


async def test_nothing_changed_is_not_called_saved(console: Console) -> None:
    out = await run(console, "alice> /notify")
    assert out[0].startswith("Nothing changed. Turn alerts: mention in the thread;"), out
    assert "mode=… reminder_hours=…" in out[0]
    assert (await console.service.store.get_user("console:alice"))["name"] == ""  # no row
    out = await run(console, "alice> /lang")
    assert out == [
        "This console speaks English (en). To change it, type /lang and one of: en, de, hu, pl."
    ]
