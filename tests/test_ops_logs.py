"""The log: one line per event, JSON when ``TESSERA_LOG_FORMAT=json`` (bot/ops/logs.py),
set up by the entry point (``python -m bot``) for every command."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

from bot.ops.logs import JsonFormatter, TextFormatter

ROOT = Path(__file__).resolve().parent.parent


def failing_record() -> logging.LogRecord:
    logger = logging.getLogger("tessera.test")
    try:
        {}["missing"]  # noqa: B018 - the exception is the point
    except KeyError:
        return logger.makeRecord(
            logger.name,
            logging.ERROR,
            __file__,
            1,
            "outbox sweep failed\nfor match %s",
            (7,),
            sys.exc_info(),
            extra={"match_id": 7},
        )
    raise AssertionError("unreachable")


def test_a_logged_exception_is_one_json_line() -> None:
    line = JsonFormatter().format(failing_record())
    assert "\n" not in line
    entry = json.loads(line)
    assert entry["level"] == "ERROR"
    assert entry["logger"] == "tessera.test"
    assert entry["message"] == "outbox sweep failed\nfor match 7"
    assert entry["exc"].startswith("Traceback (most recent call last):")
    assert entry["exc"].rstrip().endswith("KeyError: 'missing'")
    assert entry["match_id"] == 7  # a field given with extra=
    assert entry["time"].endswith("+00:00")


def test_a_logged_exception_is_one_text_line() -> None:
    line = TextFormatter().format(failing_record())
    assert "\n" not in line
    assert " ERROR tessera.test: outbox sweep failed\\nfor match 7\\nTraceback" in line
    assert line.endswith("KeyError: 'missing'")


def test_every_command_logs_json_when_asked(tmp_path: Path) -> None:
    """The entry point sets the format up before any command runs: here ``migrate``,
    then a logged exception in the same process, as the bot's own would be."""
    script = (
        "import logging, sys\n"
        "from bot.__main__ import main\n"
        f"assert main(['migrate', '--db', {str(tmp_path / 't.db')!r}]) == 0\n"
        "logging.getLogger('bot.discord.delivery').info('posted %s', 3)\n"
        "try:\n"
        "    1 / 0\n"
        "except ZeroDivisionError:\n"
        "    logging.getLogger('bot.discord.delivery').exception('outbox sweep failed')\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("TESSERA_")}
    env.update(PYTHONPATH=str(ROOT), TESSERA_LOG_FORMAT="json")
    proc = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()
    # the command's own words to the person who typed it are no log events
    assert [line for line in lines if not line.startswith("{")] == [
        f"created a new database at {tmp_path / 't.db'}"
    ]
    entries = [json.loads(line) for line in lines if line.startswith("{")]
    assert [(e["level"], e["message"]) for e in entries] == [
        ("INFO", "posted 3"),
        ("ERROR", "outbox sweep failed"),
    ]
    assert entries[1]["logger"] == "bot.discord.delivery"
    assert "ZeroDivisionError" in entries[1]["exc"]
