"""The local console speaks the Discord command set, as named users, without Discord."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.console import Console
from bot.matches.service import MatchService
from bot.tools.demo import run_demo
from render.words.catalogue import t


async def run(console: Console, *lines: str) -> list[str]:
    out: list[str] = []
    for line in lines:
        out += await console.run_line(line)
    return out


async def test_console_plays_a_match_as_named_users(service: MatchService, tmp_path: Path) -> None:
    console = Console(service, tmp_path / "pics")
    out = await run(
        console, "alice> /game new test-pile size=4", "bob> /game join", "alice> /game start"
    )
    assert any("Match #1 (Pile) is open" in o for o in out)
    assert any(o.startswith("[match #1] Pile begins with Alice and Bob.") for o in out)
    picture = next(o for o in out if "picture:" in o).split("picture: ")[1]
    assert Path(picture).read_bytes().startswith(b"\x89PNG")
    info = await service.info(1)
    mover = "alice" if info.to_act == ["console:alice"] else "bob"
    idle = "bob" if mover == "alice" else "alice"
    assert await run(console, f"{idle}> /play take1") == [
        f"✗ It is not your turn; waiting for {mover.capitalize()}."
    ]
    out = await run(console, f"{mover}> /play take9")
    assert out == ["✗ You can take 1 to 3 counters, not 9."]
    out = await run(console, f"{mover}> /play take2")
    assert any(f"{mover.capitalize()}: take 2 counters" in o for o in out)
    assert (await run(console, "/history")) == [f"1. {mover.capitalize()}: take 2 counters"]
    assert await run(console, "mallory> /play take1") == [
        "✗ You are not playing in match #1; only its players can do that. You are welcome to watch."
    ]


async def test_console_refuses_garbage_politely(service: MatchService, tmp_path: Path) -> None:
    console = Console(service, tmp_path)
    assert await run(console, "/play x") == [
        "✗ Say who is typing first, e.g. 'alice> /game new azul'."
    ]
    assert (await run(console, "alice> /nonsense"))[
        0
    ] == "✗ There is no /nonsense command. Type /help."
    assert "No match selected" in (await run(console, "alice> /board"))[0]
    assert "not a match number" in (await run(console, "alice> /game join abc"))[0]
    assert "no game called" in (await run(console, "alice> /game new chess"))[0]
    assert "Could not read" in (await run(console, 'alice> /play "unclosed'))[0]
    assert (await run(console, "alice> /game new test-pile colour=red"))[0] == (
        "✗ Pile has no option colour; its options are: size."
    )


async def test_console_export_and_audit(service: MatchService, tmp_path: Path) -> None:
    console = Console(service, tmp_path)
    await run(console, "alice> /game new test-pile size=3", "bob> /game join", "bob> /game start")
    out = await run(console, f"alice> /export {tmp_path / 'r.json'}")
    assert out == [f"Game record written to {tmp_path / 'r.json'}"]
    record = json.loads((tmp_path / "r.json").read_text())
    assert record["game"] == "test-pile" and record["status"] == "running"
    assert await run(console, "alice> /audit") == [
        "Audit: every match rebuilds exactly from its seed and moves."
    ]


async def test_console_export_takes_a_match_number_as_the_command_line_does(
    service: MatchService, tmp_path: Path
) -> None:
    """``/export 5`` means match 5 (as ``python -m bot export 5``), not a file named "5";
    a match that does not exist is refused and nothing is written."""
    console = Console(service, tmp_path)
    await run(console, "alice> /game new test-pile size=3", "bob> /game join", "bob> /game start")
    first = console.current
    await run(console, "carol> /game new test-pile size=4", "dave> /game join")
    assert console.current != first  # carol's lobby is the current match now
    out = await run(console, f"alice> /export {first}")
    written = tmp_path / f"match-{first}-record.json"
    assert out == [f"Game record written to {written}"] and not (tmp_path / str(first)).exists()
    assert json.loads(written.read_text())["status"] == "running"
    named = tmp_path / "named.json"
    assert await run(console, f"alice> /export #{first} {named}") == [
        f"Game record written to {named}"
    ]
    assert json.loads(named.read_text())["options"] == {"size": 3}
    before = sorted(tmp_path.iterdir())
    assert "no match #99" in (await run(console, "alice> /export 99"))[0]
    assert sorted(tmp_path.iterdir()) == before


async def test_demo_plays_a_whole_game_and_writes_a_record(tmp_path: Path) -> None:
    assert await run_demo("test-pile", 3, 5, tmp_path, ["size=6"]) == 0
    record = json.loads((tmp_path / "record.json").read_text())
    assert record["status"] == "finished" and record["result"]["winners"]
    turns = sorted(tmp_path.glob("turn-*.png"))
    assert len(turns) == len(record["moves"]) + 1  # the start and every move
    assert sorted(p.name for p in tmp_path.glob("hand-*.png")) == [
        "hand-alice.png",
        "hand-bob.png",
        "hand-carol.png",
    ]


def test_without_token_python_m_bot_starts_the_console(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if "DISCORD" not in k}
    root = Path(__file__).resolve().parent.parent
    env["PYTHONPATH"] = str(root)
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "--db", str(tmp_path / "x.db")],
        input="alice> /game list\n/quit\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    assert "No DISCORD_TOKEN configured" in proc.stdout
    assert "No open or running matches." in proc.stdout


def test_demo_command_line_plays_azul(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if "DISCORD" not in k}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parent.parent)
    out = tmp_path / "demo"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "demo",
            "azul",
            "--players",
            "3",
            "--seed",
            "7",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    record = json.loads((out / "record.json").read_text())
    assert record["game"] == "azul" and record["status"] == "finished"
    assert len(record["players"]) == 3 and record["seed"] == 7
    assert record["setup_events"] and record["setup_events"][0]["data"]
    assert len(list(out.glob("turn-*.png"))) == len(record["moves"]) + 1
    assert "wins" in proc.stdout or "Shared victory" in proc.stdout


@pytest.mark.parametrize("lang", ["en", "hu", "de", "pl"])
def test_help_gives_hand_its_match_argument(lang: str) -> None:
    """``/hand [match]`` names another match's hand (as Discord's ``/hand match:N``); the
    help showed it bare, so nobody knew they could."""
    assert "/hand [match]" in t("console.help", lang, games="azul", languages="en")
