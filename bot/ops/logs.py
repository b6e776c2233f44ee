"""The log: one line per event, as text or as JSON (``TESSERA_LOG_FORMAT=text|json``).

Why one line per event in both formats: the log of a bot in a container or under systemd
is read line by line (``docker logs``, journald, Loki, Elasticsearch); a traceback spread
over twenty lines becomes twenty events, its first line without its cause. So a traceback
stays with its event: in JSON as the ``exc`` field (newlines inside a JSON string are
written ``\\n``), in text appended to the line with its line breaks written ``\\n``.

JSON fields: ``time`` (UTC, ISO 8601 with milliseconds), ``level``, ``logger``,
``message``, ``exc`` (the traceback, when there is one), ``stack`` (when asked with
``stack_info``), and any field a call passes with ``extra=``.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any, Literal

#: The formats ``TESSERA_LOG_FORMAT`` accepts.
FORMATS = ("text", "json")
#: The text format's layout (what the bot logged before JSON existed).
TEXT_LAYOUT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
#: What every LogRecord has; anything else on a record came from ``extra=``.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message",
    "asctime",
    "taskName",
}


def _one_line(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\\r").replace("\n", "\\n")


class TextFormatter(logging.Formatter):
    """The usual text line; a traceback (and any line break in the message) is folded into
    the same line, its breaks written ``\\n``, so one event stays one line."""

    def __init__(self) -> None:
        super().__init__(TEXT_LAYOUT)

    def format(self, record: logging.LogRecord) -> str:
        return _one_line(super().format(record))


class JsonFormatter(logging.Formatter):
    """One JSON object per line (see the module's docstring for its fields)."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exc"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in entry:
                entry[key] = value
        return json.dumps(entry, ensure_ascii=False, default=str)


def formatter(kind: Literal["text", "json"]) -> logging.Formatter:
    if kind == "json":
        return JsonFormatter()
    if kind == "text":
        return TextFormatter()
    raise ValueError(f"log format {kind!r}: one of {', '.join(FORMATS)}")


def configure_logging(level: str, kind: Literal["text", "json"]) -> None:
    """The root logger writes to stderr at ``level`` in the format ``kind`` (what
    ``logging.basicConfig`` did, with our formatter). Called once per process by every
    entry point (``python -m bot …``, ``python -m bot.ops.health``)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(formatter(kind))
    logging.basicConfig(level=level.upper(), handlers=[handler])
