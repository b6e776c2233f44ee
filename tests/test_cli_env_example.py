""".env.example is the settings' documentation: every setting is there, each line's value is
the default, and the words above a line say what the code does (render workers are
processes, the log levels are the ones accepted)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.__main__ import LOG_LEVELS
from bot.settings import Settings

EXAMPLE = Path(__file__).resolve().parent.parent / ".env.example"


def env_name(field: str) -> str:
    return "DISCORD_TOKEN" if field == "discord_token" else f"TESSERA_{field.upper()}"


def comment_above(name: str) -> str:
    """The comment lines right above ``NAME=`` in .env.example."""
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(f"{name}="))
    above: list[str] = []
    for line in reversed(lines[:at]):
        if not line.startswith("# ") or line.startswith("# -----"):
            break
        above.insert(0, line[2:])
    return " ".join(above)


def test_every_setting_is_shown_with_its_default(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("TESSERA_") or name == "DISCORD_TOKEN":
            monkeypatch.delenv(name)
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    shown = {line.split("=", 1)[0] for line in lines if line and not line.startswith("#")}
    assert shown == {env_name(f) for f in Settings.model_fields}
    from_example = Settings(_env_file=EXAMPLE)
    assert from_example.model_dump() == Settings(_env_file=None).model_dump()


def test_the_comments_say_what_the_code_does() -> None:
    workers = comment_above("TESSERA_RENDER_WORKERS")
    assert "processes" in workers and "thread" not in workers.lower(), workers
    assert "1-16" in workers
    assert all(level in comment_above("TESSERA_LOG_LEVEL") for level in LOG_LEVELS)
    fields = Settings.model_fields
    for name, low, high in [("render_workers", 1, 16), ("ai_workers", 1, 16)]:
        limits = {type(m).__name__: m for m in fields[name].metadata}
        assert (limits["Ge"].ge, limits["Le"].le) == (low, high)
