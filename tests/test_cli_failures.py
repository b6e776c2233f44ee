"""A command line that cannot work answers in one line and exits with 2: no traceback, no
usage block, nothing written (a mistyped database path is not created as an empty one).
So does a bot that cannot start: a token Discord refuses, an intent it refuses, no network."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.__main__ import main

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["demo", "azul", "--players", "7"], "7 is no player count for Azul (players: 2–4)"),
        (["demo", "azul", "--option", "foo=1"], "Azul has no option foo"),
        (["demo", "azul", "--option", "foo"], "name=value"),
        (["demo", "chess"], "invalid choice: 'chess'"),
        (["demo", "azul", "--players", "x"], "invalid int value"),
        (["audit", "--db", "x"], "There is no database at x"),
        (["--db", "x", "audit"], "There is no database at x"),
        (["export", "--db", "x", "3"], "There is no database at x"),
        (["bogus"], "invalid choice: 'bogus'"),
    ],
)
def test_bad_arguments_one_line_exit_2(
    argv: list[str], words: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and words in err and err.count("\n") == 1, err
    assert list(tmp_path.iterdir()) == []  # no demo folder, no empty database


@pytest.mark.parametrize(
    "argv",
    [["demo", "azul", "--players", "7"], ["audit", "--db", "garbage.db"]],
)
def test_the_real_process_prints_one_line(argv: list[str], tmp_path: Path) -> None:
    """As a person runs it: the process ends (a file that is no database used to leave a
    connection thread that kept it alive), with one line on stderr and exit code 2."""
    (tmp_path / "garbage.db").write_text("not a database")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "bot", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env=env,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == "" and proc.stderr.count("\n") == 1, proc.stderr
    assert "Traceback" not in proc.stderr


def closed_port() -> int:
    """A 127.0.0.1 port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def bot_env(tmp_path: Path, api: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TESSERA_")}
    return env | {
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": "some-token",
        "TESSERA_DISCORD_API": api,
        "TESSERA_DATABASE_PATH": str(tmp_path / "bot.db"),
        "TESSERA_RENDER_WORKERS": "1",
    }


def test_no_network_on_start_is_one_line_and_exit_2(tmp_path: Path) -> None:
    """The real process with Discord out of reach (a closed port on 127.0.0.1): one line
    naming where it could not connect and what to check; no traceback, no voice noise."""
    api = f"http://127.0.0.1:{closed_port()}/api/v10"
    proc = subprocess.run(
        [sys.executable, "-m", "bot"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env=bot_env(tmp_path, api),
    )
    assert proc.returncode == 2, proc.stderr
    # the default log level shows INFO log records ("logging in"); the rest is one line
    said = [line for line in proc.stderr.splitlines() if line.strip() and " INFO " not in line]
    assert len(said) == 1, proc.stderr
    assert said[0].startswith("Cannot reach Discord at 127.0.0.1:") and "network" in said[0]
    assert "Connection refused" in said[0]
    assert "Traceback" not in proc.stderr and "voice" not in proc.stderr


@pytest.mark.parametrize(
    ("failure", "words"),
    [
        (lambda: discord.LoginFailure("Improper token has been passed."), "refused the bot token"),
        (lambda: discord.PrivilegedIntentsRequired(None), "Server Members intent"),
    ],
)
def test_discord_refusing_the_start_is_one_line_and_exit_2(
    failure: Any, words: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """Discord's refusals as discord.py raises them (a stand-in for the login: the real
    401 from the strict local Discord is in tests/test_e2e_discord.py)."""

    async def refuse(self: Any, token: str, **_: Any) -> None:
        raise failure()

    monkeypatch.chdir(tmp_path)
    for key, value in bot_env(tmp_path, f"http://127.0.0.1:{closed_port()}/api/v10").items():
        monkeypatch.setenv(key, value)
    monkeypatch.setattr(discord.Client, "start", refuse)
    assert main([]) == 2
    out, err = capsys.readouterr()
    assert words in err and err.count("\n") == 1 and "Traceback" not in err, err


def test_a_reader_that_stops_early_gets_no_traceback(tmp_path: Path) -> None:
    """``python -m bot arena-tally F | head -1``: once the reader has closed the pipe, the
    command stops quietly with exit code 1 instead of a ``BrokenPipeError`` traceback. The
    reading end is closed before the process starts, so every write meets a closed pipe."""
    record = tmp_path / "games.jsonl"
    argv = ["arena", "maharani", "--seats", "random,random", "--games", "1", "--workers", "1"]
    assert main([*argv, "--record", str(record)]) == 0
    reader, writer = os.pipe()
    os.close(reader)
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "bot", "arena-tally", str(record)],
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
    finally:
        os.close(writer)
    assert (proc.returncode, proc.stderr) == (1, "")


def test_a_broken_pipe_elsewhere_keeps_its_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a closed reader on stdout is quiet: a broken pipe to a socket or a worker is a
    real failure and reaches the person running the command."""

    def fails(argv: list[str] | None) -> int:
        raise BrokenPipeError("a worker's pipe")

    monkeypatch.setattr("bot.__main__._main", fails)
    with pytest.raises(BrokenPipeError, match="worker"):
        main(["arena-tally", "x"])
