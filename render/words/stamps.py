"""Times as Discord timestamps (``<t:1700000000:R>``), the one form every written time takes.

Why one form for every surface: Discord draws a timestamp in each reader's own time zone
and language ("in 3 days", "3 nap múlva"), which no text we could write does; the console
turns the same mark into a UTC date (bot/console/plain.py), so the service's words need
not know where they will be read. Pictures cannot follow a reader's time zone and keep
their own short UTC dates (render/header.py).
"""

from __future__ import annotations

#: Discord's styles: t/T time, d/D date, f/F date and time, R relative ("in 2 hours")
STYLES = "tTdDfFR"


def discord_time(when: float, style: str = "R") -> str:
    """``when`` (seconds since the epoch) as a Discord timestamp in ``style``."""
    if style not in STYLES:
        raise ValueError(f"timestamp style {style!r}: one of {', '.join(STYLES)}")
    return f"<t:{int(when)}:{style}>"
