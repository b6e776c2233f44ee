"""mypy is part of the test run, as ruff is (tests/test_lint.py): the one README test command
also keeps the types right, so an annotation that lies fails before it misleads a reader.

The configuration is pyproject.toml's ``[tool.mypy]`` (bot/, render/ and rules/, every
function checked). mypy runs from the repository root with its default cache,
``.mypy_cache/`` there: ignored by git, created by the first run in a fresh clone (a few
seconds), then shared with a developer's own ``mypy`` runs, so a later check reads only
the files that changed.
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_clean() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
