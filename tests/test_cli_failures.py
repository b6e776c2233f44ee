"""A command line that cannot work answers in one line and exits with 2: no traceback, no
usage block, nothing written (a mistyped database path is not created as an empty one)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["demo", "azul", "--players", "7"], "Azul is for 2–4 players, not 7"),
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
