"""ruff is part of the test run, so the one README test command also keeps the code clean."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_clean() -> None:
    ruff = shutil.which("ruff")
    cmd = [ruff, "check", str(ROOT)] if ruff else [sys.executable, "-m", "ruff", "check", str(ROOT)]
    result = subprocess.run(cmd, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
