"""The console speaks every Discord command: the README example whoever starts, /notify,
/game settings, /history N and /game sub (offers, votes, answers), with the same checks
and words as Discord (bot/community/preferences.py, bot/matches/substitutes.py).
/hint: test_computer_players."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import bot.matches.lobby
from bot.computers.players import is_computer
from bot.console import Console
from bot.matches.service import MatchService
from rules import get_game

README = Path(__file__).resolve().parent.parent / "README.md"


async def run(console: Console, *lines: str) -> list[str]:
    out: list[str] = []
    for line in lines:
        out += await console.run_line(line)
    return out


def readme_example() -> list[str]:
    """The console lines of the README's first example (comments dropped)."""
    text = README.read_text(encoding="utf-8")
    block = text.split("```\nalice> ", 1)[1].split("```", 1)[0]
    return [line.split("#")[0].strip() for line in ("alice> " + block).splitlines() if line]


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[MatchService]:
    svc = await MatchService.open(tmp_path / "c.db", render_processes=False)
    yield svc
    await svc.close()


def seed_where(first: int) -> int:
    """A seed with which seat ``first`` starts a two-player Azul match."""
    azul = get_game("azul")
    return next(s for s in range(1, 100) if azul.to_act(azul.setup(2, s, {})) == [first])


@pytest.mark.parametrize("first", ["alice", "bob"])
async def test_the_readme_example_works_whoever_starts(
    service: MatchService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, first: str
) -> None:
    seed = seed_where(0 if first == "alice" else 1)
    monkeypatch.setattr(bot.matches.lobby.secrets, "randbits", lambda _bits: seed)
    lines = readme_example()
    assert [line.split(">")[1].split()[0] for line in lines] == [
        "/game",
        "/game",
        "/game",
        "/moves",
        "/play",
    ]
    console = Console(service, tmp_path / "pics")
    out = await run(console, *lines[:3])
    info = await service.info(1)
    assert info.seats[info.seat_of(info.to_act[0])].name.lower() == first
    other = "bob" if first == "alice" else "alice"
    said = "It is your move" if first == "alice" else "Bob to move: type bob> /moves"
    assert any(said in o for o in out), out  # the start names who moves first
    # /moves by the other player names the one to move; by that player, lists the moves
    assert await run(console, f"{other}> /moves") == [
        f"{first.capitalize()} to move: type {first}> /moves, then {first}> /play <move>."
    ]
    moves = await run(console, f"{first}> /moves")
    assert moves[0].startswith("Your ") and "legal moves" in moves[0]
    notation = moves[1].split()[0]
    # the README's move is one example; played as whoever is to move, any listed one works
    typed = lines[4].replace("bob>", f"{first}>")
    if notation != typed.split()[-1] and not any(
        typed.split()[-1] == m.split()[0] for m in moves[1:]
    ):
        typed = f"{first}> /play {notation}"
    out = await run(console, typed)
    # the turn post tells the move to the table (issue 42: "Alice took …", no longer the
    # mover's label "Alice: factory 1: …")
    assert any(o.startswith(f"[match #1] {first.capitalize()} took ") for o in out), out
    assert any(f"{other.capitalize()} to move" in o or "→" in o for o in out)


async def test_notify_in_the_console(service: MatchService, tmp_path: Path) -> None:
    console = Console(service, tmp_path)
    out = await run(console, "alice> /notify")
    assert out[0].startswith("Nothing changed. Turn alerts: mention in the thread")
    out = await run(
        console, "alice> /notify mode=dm reminder_hours=6 quiet_from=22 quiet_to=7 heads_up=on"
    )
    assert "mention and direct message" in out[0] and "every 6 h" in out[0]
    assert "22:00–7:00" in out[0] and "heads-up: on" in out[0]
    user = await service.store.get_user("console:alice")
    assert user["notify"] == "dm" and user["settings"]["quiet"] == [22, 7]
    for bad, words in [
        ("mode=loud", "mode is one of: mention, dm, off."),
        ("quiet_from=25", "Hours of the day go from 0 to 23."),
        ("reminder_hours=400", "reminder_hours must be between 0 and 336."),
        ("heads_up=maybe", "is not one of these options"),
        ("colour=red", "“colour=red” is not one of these options: mode, reminder_hours"),
    ]:
        out = await run(console, f"alice> /notify {bad}")
        assert words in out[0], (bad, out)
    assert (await service.store.get_user("console:alice")) == user  # refusals change nothing


async def test_game_settings_and_history_in_the_console(
    service: MatchService, tmp_path: Path
) -> None:
    console = Console(service, tmp_path)
    await run(console, "alice> /game new test-pile size=9", "bob> /game join", "alice> /game start")
    out = await run(console, "alice> /game settings")
    assert out[0].startswith("Nothing changed. Current settings of match #1:")
    assert (await run(console, "bob> /game settings reminder_hours=2")) == [
        "✗ Only the match's creator or a server manager can change that."
    ]
    assert (
        "clock_days=99 is not allowed: clock_days takes a number from 0 to 60"
        in (await run(console, "alice> /game settings clock_days=99"))[0]
    )
    assert (await run(console, "alice> /game settings clock_action=sometimes")) == [
        "✗ clock_action=sometimes is not allowed: clock_action takes one of skip, forfeit."
    ]
    out = await run(
        console,
        "alice> /game settings reminder_hours=6 clock_days=2 clock_action=forfeit hints=off",
    )
    assert out[0].startswith("Saved for match #1:") and "2 days per move" in out[0]
    settings = (await service.info(1)).settings
    assert settings["reminder_hours"] == 6 and settings["clock_action"] == "forfeit"
    assert settings["hints"] is False
    # /history N
    for _ in range(3):
        info = await service.info(1)
        mover = info.seats[info.seat_of(info.to_act[0])].name.lower()
        await run(console, f"{mover}> /play take1")
    assert len(await run(console, "/history")) == 3
    assert len(await run(console, "/history 2")) == 2
    assert (await run(console, "/history 0")) == ["✗ count must be between 1 and 50."]


async def test_substitutes_in_the_console(service: MatchService, tmp_path: Path) -> None:
    console = Console(service, tmp_path / "pics")
    await run(
        console,
        "alice> /game new test-pile size=9",
        "bob> /game join",
        "carol> /game join",
        "alice> /game start",
    )
    assert (await run(console, "alice> /game sub")) == [
        "No seat is offered and no vote is open in this match."
    ]
    # a seat goes only to someone the console knows: they have typed a line
    await run(console, "eve> /help", "dave> /help", "frank> /help")
    out = await run(console, "alice> /game sub eve")
    assert out[0].startswith("Alice offers their seat in match #1 (Pile) to Eve.")
    assert out[1] == "(eve> /game sub accept, or eve> /game sub decline)"
    assert "only they" in (await run(console, "mallory> /game sub accept 1"))[0]
    out = await run(console, "eve> /game sub accept")
    assert out[0] == "Done: Eve holds seat 1 of match #1 now."
    assert any("Alice handed their seat to Eve" in o for o in out)
    assert "private to Eve" in (await run(console, "eve> /hand"))[0]
    assert "not playing" in (await run(console, "alice> /hand"))[0]

    # Carol resigns; a vote puts Dave into her seat once Bob agrees and Dave accepts
    await run(console, "carol> /resign")
    assert "computer" in (await run(console, "eve> /game sub seat=1 computer"))[0]
    out = await run(console, "eve> /game sub seat=3 dave")
    assert out[0].startswith("Eve proposes Dave for seat 3 (Carol, who gave it up")
    assert "1 of 2 needed" in out[0] and out[2] == (
        "(The others: /game sub yes 3 or /game sub no 3)"
    )
    assert "Eve proposes Dave" in (await run(console, "bob> /game sub"))[0]
    out = await run(console, "dave> /game sub accept")
    assert "as soon as the players' vote passes" in out[0]
    out = await run(console, "bob> /game sub yes")
    assert out[0] == "Done: Dave holds seat 3 of match #1 now."
    assert (await service.info(1)).seats[2].user_id == "console:dave"
    # a computer into a seat: withdraw one vote first, then the table agrees to another
    await run(console, "dave> /resign")
    out = await run(console, "bob> /game sub seat=3 frank")
    assert out[0].startswith("Bob proposes Frank")
    assert (await run(console, "eve> /game sub withdraw")) == [
        "✗ That offer or vote is no longer open."
    ]
    assert "withdrawn" in (await run(console, "bob> /game sub withdraw"))[0].lower()
    await run(console, "bob> /game sub seat=3 computer")
    out = await run(console, "eve> /game sub yes 3")
    assert re.match(r"Done: 🤖 .+ holds seat 3", out[0]), out
    assert is_computer((await service.info(1)).seats[2].user_id)
    assert "Use /game sub" in (await run(console, "eve> /game sub a b c"))[0]


async def test_the_console_says_your_turn_only_to_who_newly_must_act(
    service: MatchService, tmp_path: Path
) -> None:
    """Taj Mahal turns are runs of plies: as on Discord (the turn post's ``ping``), the
    console says "your turn" when a player's turn begins, not after each of their plies."""
    console = Console(service, tmp_path)
    await run(
        console,
        "alice> /game new taj-mahal",
        "bob> /game join",
        "carol> /game join",
        "alice> /game start",
    )
    game = get_game("taj-mahal")
    quiet_plies = 0
    for _ in range(30):
        info = await service.info(1)
        before = set(info.to_act)
        uid = info.to_act[0]
        match = await service.store.get_match(1)
        assert match is not None and match.state is not None
        seat = info.seat_of(uid)
        assert seat is not None
        move = game.legal_moves(match.state, seat)[0].notation
        out = await run(console, f"{uid.removeprefix('console:')}> /play {move}")
        said = [o for o in out if o.endswith(": your turn")]
        now = await service.info(1)
        newly = [s.name for s in now.seats if s.user_id in now.to_act and s.user_id not in before]
        if newly:
            assert said == [f"  → {', '.join(newly)}: your turn"], out
        else:
            assert said == [], out
            quiet_plies += 1
    assert quiet_plies  # some plies left the same players to act: no "your turn" then


async def test_console_game_settings_say_the_games_own_options(
    service: MatchService, tmp_path: Path
) -> None:
    """The console's /game settings says the game's own options in words, as Discord's
    does (both read preferences.settings_summary with the match's game and options)."""
    console = Console(service, tmp_path)
    await run(console, "alice> /game new azul grey_wall=on", "bob> /game join")
    out = await run(console, "alice> /game settings")
    assert out[0].endswith("; Azul: grey wall variant: on"), out
    out = await run(console, "alice> /lang de", "alice> /game settings")
    assert "Azul" in out[-1] and "grey_wall" not in out[-1], out
