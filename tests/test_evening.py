"""A scripted first evening in the console (issue 41): each game played to the end by two or
three people and a computer seat, in each language, through the real console
(``Console.run_line``; the README's example also through ``python -m bot``'s standard input).

The people play the move ``/moves`` lists first (or one ``/hint`` found), take a move back
beside the computer's answer, refuse another's take-back, one resigns; afterwards they look
at the board, the history, their stats, the leaderboard and the record. Everything printed
must read clean (tests/evening/transcript.py: no traceback, raw key, unfilled placeholder or
English in a hu/de/pl console), each ply is posted once, the result once, naming the winner
its standings and the record agree on.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.computers.driver import ComputerDriver
from bot.console import Console
from bot.matches import lobby
from bot.matches.reports import User
from bot.matches.service import MatchService
from render.words.catalogue import t
from render.words.posts import listing, result_text, score_words
from tests.evening.transcript import Said, Transcript

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Evening:
    """One match of the evening: the game, the console's language, who types (the first
    opens the match), its computer seats and seed, and at which of the people's turns one
    of them resigns (None: nobody does)."""

    game: str
    lang: str
    people: tuple[str, ...]
    seed: int
    #: what the take-back beside the computer and the refused one come to (see
    #: :func:`take_back_beside_the_computer`): where a computer's answer shows nothing
    #: new, both are asked for; where it draws, the rules refuse
    take_backs: list[str]
    resign_at: int | None = None


#: Every game in a language other than English, every language a whole match; two
#: resignations (the seat goes to a computer stand-in, who plays it out and ranks last —
#: Pastiche's was the issue's example of standings that disagreed).
EVENINGS = [
    Evening("azul", "hu", ("alice", "bob"), 11, ["taken back", "refused by Alice"]),
    Evening("taj-mahal", "de", ("alice", "bob"), 12, ["taken back", "refused by Alice"]),
    Evening("maharani", "pl", ("alice", "bob"), 13, ["refused", "own turn"], resign_at=9),
    Evening("pastiche", "hu", ("alice", "bob"), 14, ["refused", "own turn"], resign_at=25),
    Evening("azul", "en", ("alice", "bob", "carol"), 15, ["taken back", "refused by Alice"]),
]
#: The people's turns at which the one to move asks for hints and plays the best.
HINT_TURNS = (4, 17)
#: A whole match takes fewer of the people's turns than this (Taj Mahal: about 170).
MAX_TURNS = 400


class Table:
    """The console as a group at one table uses it, every line kept with its answer."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.service = console.service
        self.transcript = Transcript()

    async def type(self, line: str) -> list[str]:
        out = await self.console.run_line(line)  # a traceback fails the test here
        self.transcript.said.append(Said(line, self.console.lang, out))
        return out

    async def mover(self, match_id: int) -> str | None:
        """The person the match waits for (None: it is over)."""
        info = await self.service.info(match_id)
        if info.status != "running":
            return None
        people = [u for u in info.to_act if u.startswith("console:")]
        assert people, f"match {match_id} waits only for computers after they moved: {info}"
        return people[0].removeprefix("console:")

    async def best_move(self, match_id: int, who: str) -> str:
        """The move /moves lists first for ``who`` (the same order: the game's rank)."""
        _, moves = await self.service.turn_for(match_id, User(f"console:{who}", who.title()))
        assert moves, f"{who} must act in match {match_id} but has no move"
        return max(moves, key=lambda m: m.rank).notation


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    service = await MatchService.open(tmp_path / "evening.db")
    computers = ComputerDriver(
        service, workers=1, processes=False, suggester="tests.evening.players:suggest"
    )
    console = Console(service, tmp_path / "pictures", computers)
    yield Table(console)
    await computers.close()
    await service.close()


def seed_matches(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Every match opened from now on deals from ``seed`` (as if the dice said so)."""
    monkeypatch.setattr(lobby.secrets, "randbits", lambda bits: seed)


async def take_back_beside_the_computer(table: Table, match_id: int, who: str) -> str:
    """``who`` moves, the computer answers, ``who`` asks to take it back, the other people
    agree: the move goes with the computer's answer. Returns what happened: "taken back",
    "own turn" (still ``who``'s turn: taken back at once) or "refused" (something came to
    light since; the refusal says so and nothing changes)."""
    others = await other_people(table, match_id, who)
    await table.type(f"{who}> /play {await table.best_move(match_id, who)}")
    played = await table.service.info(match_id)
    out = await table.type(f"{who}> /undo")
    after = await table.service.info(match_id)
    if out and out[0].startswith("✗"):
        assert after.version == played.version, out
        return "refused"
    if after.version > played.version:
        return "own turn"
    assert [t("console.asked", table.console.lang, names=listing(others, table.console.lang))] == [
        line for line in out if line.startswith("  → ")
    ], out
    for other in others:
        out = await table.type(f"{other.lower()}> /undo")
    again = await table.service.info(match_id)
    assert f"console:{who}" in again.to_act and again.version > played.version, out
    return "taken back"


async def refused_take_back(table: Table, match_id: int, who: str) -> str:
    """``who`` moves and asks to take it back; another person refuses, ``who`` is told,
    and the move stays. Returns "refused by <name>", or as :func:`take_back_beside_the_computer`
    what happened instead."""
    other = (await other_people(table, match_id, who))[0]
    await table.type(f"{who}> /play {await table.best_move(match_id, who)}")
    played = await table.service.info(match_id)
    asked = await table.type(f"{who}> /undo")
    if asked and asked[0].startswith("✗"):
        return "refused"
    if (await table.service.info(match_id)).version > played.version:
        return "own turn"
    out = await table.type(f"{other.lower()}> /undo no")
    lang = table.console.lang
    assert out[0] == t("undo.refused", lang), out
    assert t("console.told", lang, names=who.title()) in out, out
    assert (await table.service.info(match_id)).version == played.version  # the move stays
    return f"refused by {other}"


async def other_people(table: Table, match_id: int, who: str) -> list[str]:
    info = await table.service.info(match_id)
    return [
        s.name for s in info.seats if s.user_id.startswith("console:") and s.name != who.title()
    ]


async def play_evening(table: Table, evening: Evening, took: list[str]) -> int:
    """The match played out; ``took`` gets what each take-back came to."""
    first, *rest = evening.people
    for person in evening.people:
        await table.type(f"{person}> /lang {evening.lang}")
    await table.type(f"{first}> /game new {evening.game} bots=1 level=easy")
    match_id = table.console.current
    assert match_id is not None
    for person in rest:
        await table.type(f"{person}> /game join")
    await table.type(f"{first}> /game start")
    turns = 0
    while (who := await table.mover(match_id)) is not None:
        turns += 1
        assert turns < MAX_TURNS, f"{evening} did not end"
        if turns == 2:
            await table.type(f"{who}> /moves")
            took.append(await take_back_beside_the_computer(table, match_id, who))
        elif turns == 5:
            took.append(await refused_take_back(table, match_id, who))
            await table.type(f"{who}> /history 3")
        elif turns == evening.resign_at:
            await table.type(f"{who}> /resign")
        elif turns in HINT_TURNS:
            await table.type(f"{who}> /hint")
            await table.type(f"{who}> /hint 1")
        else:
            await table.type(f"{who}> /play {await table.best_move(match_id, who)}")
    return match_id


async def after_the_match(table: Table, match_id: int, evening: Evening, record: Path) -> None:
    first = evening.people[0]
    for line in (
        "/board",
        "/history 5",
        "/hand",
        "/undo",
        "/stats",
        "/stats server",
        "/leaderboard",
        "/game list",
        "/rules",
        "/help",
        f"/export {record}",
    ):
        await table.type(f"{first}> {line}")


def final_post(transcript: Transcript, head: str) -> list[str]:
    """The lines of the one post that announced the result (``head``)."""
    for entry in transcript.said:
        lines = "\n".join(entry.out).split("\n")
        if head in lines and not entry.typed.endswith("/board"):
            end = lines.index(head)
            start = max(i for i in range(end) if lines[i].startswith("["))
            stop = next(i for i in range(end, len(lines)) if lines[i].startswith("  "))
            return lines[start:stop]
    raise AssertionError(f"no post announced {head!r}")


def check_result(transcript: Transcript, record: dict[str, Any], lang: str) -> None:
    """The result is announced once; its standings follow the scores (a seat given up
    last) and are the record's; the announced winners are the first-ranked."""
    result = record["result"]
    names = [p["name"] for p in record["players"]]
    winners = [names[s] for s in result["winners"]]
    head = (
        t("result.wins", lang, name=winners[0])
        if len(winners) == 1
        else t("result.shared", lang, names=listing(winners, lang))
    )
    if result.get("ended_by"):
        head = next(line for _, line in transcript.lines() if line.endswith(head))
    announced = [
        line for entry, line in transcript.lines() if line == head and entry.typed[-6:] != "/board"
    ]
    assert len(announced) == 1, f"the result {head!r} was printed {len(announced)} times"
    post = final_post(transcript, head)
    standings = [re.fullmatch(r"(\d+)\. (.+) — (.+)", line) for line in post[post.index(head) :]]
    rows = [(int(m[1]), m[2]) for m in standings if m]
    assert len(rows) == len(names), post
    gave_up = {g["seat"] for g in result.get("gave_up", [])}
    order = sorted(range(len(names)), key=lambda s: (result["ranks"][s], s))
    assert [rank for rank, _ in rows] == [result["ranks"][s] for s in order], post
    for (_, shown), seat in zip(rows, order, strict=True):
        assert shown.startswith(names[seat]), (shown, names[seat])
    scores = result["scores"]
    for a in range(len(names)):
        for b in range(len(names)):
            if a in gave_up and b not in gave_up:
                assert result["ranks"][a] > result["ranks"][b], post
            elif a not in gave_up and b not in gave_up and scores[a] > scores[b]:
                assert result["ranks"][a] <= result["ranks"][b], post
    for seat, name in enumerate(names):  # once, in the standings: no "X wins with N" again
        score = re.compile(rf"(?<!\d){scores[seat]}(?!\d)")
        said = [line for line in post if name in line and score.search(line)]
        assert len(said) == 1, f"{name}'s result is said {len(said)} times: {said}"


def check_posts(transcript: Transcript, match_id: int, record: dict[str, Any]) -> None:
    """Each move posted once: every ply's picture line appears at most once, the start's
    and every move's exactly once (a take-back of a move and the computer's answer is one
    post for its two rows)."""
    pictures = Counter(
        int(m[1])
        for _, line in transcript.lines()
        if (m := re.search(rf"match-{match_id}-(\d{{4}})\.png$", line))
    )
    assert [ply for ply, n in pictures.items() if n > 1] == []
    moves = [row["ply"] for row in record["moves"] if row["kind"] == "move"]
    assert [ply for ply in [0, *moves] if ply not in pictures] == []


@pytest.mark.parametrize("evening", EVENINGS, ids=lambda e: f"{e.game}-{e.lang}")
async def test_an_evening_in_the_console(
    table: Table, evening: Evening, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_matches(monkeypatch, evening.seed)
    took: list[str] = []
    match_id = await play_evening(table, evening, took)
    assert took == evening.take_backs, took
    record_path = tmp_path / "record.json"
    await after_the_match(table, match_id, evening, record_path)
    assert table.transcript.problems() == []
    record = json.loads(record_path.read_text(encoding="utf-8"))
    assert record["status"] == "finished"
    if evening.resign_at:
        assert record["result"].get("gave_up"), "the resignation is not in the result"
    check_result(table.transcript, record, evening.lang)
    check_posts(table.transcript, match_id, record)


# ----- the result said once ------------------------------------------------------------


def _gold(n: int) -> dict[str, Any]:
    return {"key": "maharani.gold", "params": {"n": n}}


@pytest.mark.parametrize("lang", ["en", "hu", "de", "pl"])
def test_a_result_says_why_a_game_ended_but_not_again_who_won(lang: str) -> None:
    """The evening's games end plainly; a game that stops early wraps the plain "Ben
    wins with 30 gold" in why it stopped: the why stays, the restated winner goes (the
    headline and the standings say it), in every language."""
    wins = {"key": "maharani.result.wins", "params": {"who": {"seat": 1}, "gold": _gold(30)}}
    stalled = {"key": "maharani.result.stalled", "params": {"reason": wins}}
    result = {"scores": [20, 30], "ranks": [2, 1], "winners": [1], "reason": "x"}
    names = ["Ann", "Ben"]
    standings = [
        t("result.wins", lang, name="Ben"),
        t("result.line", lang, rank=1, name="Ben", score=score_words(30, "gold", lang)),
        t("result.line", lang, rank=2, name="Ann", score=score_words(20, "gold", lang)),
    ]
    plain = result_text({**result, "reason_msg": wins}, names, "gold", lang)
    assert plain.split("\n") == standings
    early = result_text({**result, "reason_msg": stalled}, names, "gold", lang)
    why = t("maharani.result.stalled", lang, reason="").strip()
    assert early.split("\n") == [*standings, why]
    assert "{" not in why and why


# ----- who is away when a match starts --------------------------------------------------


async def test_the_first_post_says_that_the_player_to_move_is_away(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob went away before the start and the deal lets him begin: the start post says so
    (as a move's post does), so the table knows why nothing happens."""
    seed_matches(monkeypatch, README_SEED)  # Bob begins
    for line in ("alice> /lang hu", "bob> /lang hu", "alice> /game new azul", "bob> /game join"):
        await table.type(line)
    until = await table.service.go_away("console:bob", 3)
    out = await table.type("alice> /game start")
    assert table.transcript.problems() == []
    # the console shows the day in UTC (Discord draws the same mark in each reader's zone)
    day = datetime.fromtimestamp(until, UTC).strftime("%Y-%m-%d")
    away = t("away.status", "hu", name="Bob", date=day)
    assert away in "\n".join(out).split("\n"), out


# ----- the README's console example ------------------------------------------------------


def readme_example() -> list[str]:
    """The console example's lines exactly as the README shows them: a reader pastes the
    block, so it holds only what is typed (its notes are outside it)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```\n(alice> /game new .*?)```", text, re.S)
    assert block, "the README has no console example starting alice> /game new"
    return [line for line in block[1].splitlines() if line.strip()]


#: A seed with which the README's example plays as written: Bob starts, and factory 1
#: holds blue tiles (with others, /game start says whom to type the last two lines as).
README_SEED = 2


async def test_the_readme_console_example_runs_as_written(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_matches(monkeypatch, README_SEED)
    lines = readme_example()
    for line in lines:
        await table.type(line)
    assert table.transcript.problems() == []
    answers = [entry.out for entry in table.transcript.said]
    assert answers[0] == [t("console.opened", "en", match=1, game="Azul")]
    assert t("console.to_move", "en", names="Bob", typed="bob") in answers[2]
    assert answers[3][0].startswith("Your ") and "F1-B-1" in "\n".join(answers[3])
    assert not any(line.startswith("✗") for out in answers for line in out), answers
    assert (await table.service.info(1)).to_act == ["console:alice"]


def test_the_readme_console_example_through_python_m_bot(tmp_path: Path) -> None:
    """Typed into ``python -m bot`` as a new user would (without a Discord token), up to
    the line that depends on the deal: every line answered, none refused or raw."""
    typed = readme_example()[:-1]
    env = {k: v for k, v in os.environ.items() if "DISCORD" not in k}
    env["PYTHONPATH"] = str(ROOT)
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "--db", str(tmp_path / "readme.db")],
        input="\n".join(typed) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    transcript = Transcript([Said("(python -m bot)", "en", proc.stdout.splitlines())])
    assert transcript.problems() == []
    assert "Match #1 (Azul) is open." in proc.stdout
    assert "Bob joined match #1 (2/4): Alice and Bob" in proc.stdout
    assert "[match #1] Azul begins with Alice and Bob." in proc.stdout
    assert "✗" not in proc.stdout
