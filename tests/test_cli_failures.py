"""A command line that cannot work answers in one line and exits with 2: no traceback, no
usage block, nothing written (a mistyped database path is not created as an empty one).
So does a bot that cannot start: a token Discord refuses, an intent it refuses, no network."""

from __future__ import annotations

import os
import shutil
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
        # every command that reads a database refuses a missing one, --db before or after
        (["--db", "typo.db", "ratings"], "There is no database at typo.db"),
        (["ratings", "--rebuild", "--db", "typo.db"], "There is no database at typo.db"),
        (["copy-db", "typo.db", "target.db"], "There is no database at typo.db"),
        (["replay", "--db", "x", "1", "--out", "r.webp"], "There is no database at x"),
        # a file that is no database, or one database copied onto itself
        (["ratings", "--db", "junk.db"], "Cannot read the database at junk.db"),
        (["copy-db", "junk.db", "target.db"], "Cannot read the database at junk.db"),
        (["copy-db", "real.db", "junk.db"], "Cannot read the database at junk.db"),
        (["copy-db", "real.db", "./real.db"], "the target must be another database"),
        # a match is a number from 1 on
        (["export", "--db", "x", "five"], "a match number is a whole number from 1 on, not 'five'"),
        (["replay", "--db", "x", "0", "--out", "r.webp"], "from 1 on, not '0'"),
        # a language is one the pictures speak
        (
            ["replay", "--db", "x", "1", "--out", "r.webp", "--lang", "xx"],
            "invalid choice: 'xx' (choose from 'en', 'de', 'hu', 'pl')",
        ),
        # counts, durations and game names are checked before anything starts
        (["demo", "azul", "--players", "0"], "0 is no player count for Azul (players: 2–4)"),
        # an option's value is read by its kind, as /game new reads it: 1 is no yes/no word
        (
            ["demo", "azul", "--option", "grey_wall=1"],
            "grey_wall=1 is not allowed: grey_wall takes on or off",
        ),
        (["load", "--matches", "0"], "argument --matches: a whole number from 1 on, not '0'"),
        (["load", "--seconds", "-1"], "argument --seconds: a number of seconds above 0, not '-1'"),
        (["load", "--seconds", "nan"], "above 0, not 'nan'"),
        (["load", "--rate", "-5"], "argument --rate: a number from 0 on, not '-5'"),
        (["load", "--processes", "0"], "argument --processes: a whole number from 1 on"),
        (["load", "--processes", "2"], "several processes need a shared PostgreSQL"),
        (["arena", "azul", "--seats", "random,random", "--games", "0"], "--games: a whole"),
        (["arena", "azul", "--seats", "random,random", "--first", "-1"], "from 0 on, not '-1'"),
        (["arena", "azul", "--seats", "random,random", "--workers", "0"], "--workers: a whole"),
        (["arena", "azul", "--seats", "random,random", "--budget", "inf"], "above 0, not 'inf'"),
        (["bench", "--games", "azul", "chess"], "argument --games: invalid choice: 'chess'"),
        (["calibrate", "--games", "chess"], "argument --games: invalid choice: 'chess'"),
        (["calibrate", "--positions", "0"], "argument --positions: a whole number from 1 on"),
        (["calibrate", "--iterations", "-3"], "argument --iterations: a whole number from 1 on"),
        (["replay-bench", "--games", "chess"], "argument --games: invalid choice: 'chess'"),
    ],
)
def test_bad_arguments_one_line_exit_2(
    argv: list[str],
    words: str,
    tmp_path: Path,
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    capsys,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "junk.db").write_text("not a database")
    shutil.copy(real_database(tmp_path_factory), tmp_path / "real.db")
    before = sorted(tmp_path.iterdir())
    capsys.readouterr()  # the making of real.db said so
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and words in err and err.count("\n") == 1, err
    assert sorted(tmp_path.iterdir()) == before  # no demo folder, no empty database


def real_database(factory: pytest.TempPathFactory) -> Path:
    """An SQLite database with the bot's schema and no matches (made once per worker)."""
    path = factory.getbasetemp() / "real.db"
    if not path.exists():
        assert main(["migrate", "--db", str(path)]) == 0
    return path


@pytest.mark.parametrize(
    "argv",
    [
        ["demo", "azul", "--players", "7"],
        ["audit", "--db", "garbage.db"],
        ["--db", "typo.db", "ratings"],
        ["migrate", "--db", "garbage.db"],
    ],
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
    assert sorted(p.name for p in tmp_path.iterdir()) == ["garbage.db"]  # nothing created


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


def test_a_match_or_a_folder_that_is_not_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """``export 5`` and ``replay 5`` over a real database without match 5, and an ``--out``
    in a folder that does not exist: one line, exit 2, nothing written."""
    monkeypatch.chdir(tmp_path)
    assert main(["migrate", "--db", "real.db"]) == 0  # --db after the command, too
    capsys.readouterr()
    before = sorted(tmp_path.iterdir())
    for argv, words in [
        (["export", "5", "--db", "real.db"], "There is no match #5"),
        (["export", "5", "--db", "real.db", "--out", "nowhere/5.json"], "no folder nowhere"),
        (["replay", "5", "--db", "real.db", "--out", "nowhere/r.webp"], "no folder nowhere"),
    ]:
        assert main(argv) == 2, argv
        out, err = capsys.readouterr()
        assert out == "" and words in err and err.count("\n") == 1, (argv, err)
        assert sorted(tmp_path.iterdir()) == before, argv


def test_migrate_says_when_it_creates_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """``migrate`` may create a database (that is its job before a first start), but a
    mistyped path must not look like an upgrade: it says the database is new."""
    monkeypatch.chdir(tmp_path)
    assert main(["migrate", "--db", "new.db"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("schema version") and err == "created a new database at new.db\n"
    assert main(["--db", "new.db", "migrate"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("schema version") and err == ""


@pytest.mark.parametrize(
    ("name", "value", "words"),
    [
        ("TESSERA_RENDER_WORKERS", "0", "TESSERA_RENDER_WORKERS=0: "),
        ("TESSERA_DEADLINE_ACTION", "later", "TESSERA_DEADLINE_ACTION=later: "),
        ("TESSERA_LOG_LEVEL", "loud", "TESSERA_LOG_LEVEL=loud: one of DEBUG, INFO"),
    ],
)
def test_a_bad_setting_is_one_line_and_exit_2(
    name: str, value: str, words: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """A setting from the environment or .env that cannot work names itself and its value
    (no pydantic traceback, no logging ValueError), before anything is created."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(name, value)
    assert main(["migrate", "--db", "new.db"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and words in err and err.count("\n") == 1, err
    assert list(tmp_path.iterdir()) == []
