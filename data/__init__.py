"""Static component data as JSON, one folder per game. Read by ``rules`` through
:func:`read_json`, so a corrected file changes the game without code changes."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


def read_json(game_dir: str, name: str) -> Any:
    """Parse ``data/<game_dir>/<name>`` from the installed package."""
    return json.loads(resources.files(__name__).joinpath(game_dir, name).read_text("utf-8"))
