"""The command line's value checks: each turns a typed word into a value or refuses it.

Why argparse types: a refusal then comes out the way argparse words every other one
(``python -m bot load: argument --seconds: a number of seconds above 0, not '-1'``), in one
line with exit status 2, before any file is opened, created or written. A value that would
only be noticed later — a count of 0 that runs nothing, a negative duration, ``nan`` — never
reaches the command.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable


def whole(low: int) -> Callable[[str], int]:
    """A whole number from ``low`` on (counts, indices, worker processes)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = low - 1
        if value < low:
            raise argparse.ArgumentTypeError(f"a whole number from {low} on, not {text!r}")
        return value

    return parse


def match_number(text: str) -> int:
    """A match as the bot numbers them (#1, #2, …)."""
    try:
        return whole(1)(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            f"a match number is a whole number from 1 on, not {text!r}"
        ) from None


def _finite(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def seconds(text: str) -> float:
    """A duration above 0 (``nan`` and ``inf`` are no durations)."""
    value = _finite(text)
    if value is None or value <= 0:
        raise argparse.ArgumentTypeError(f"a number of seconds above 0, not {text!r}")
    return value


def not_negative(text: str) -> float:
    """A finite number from 0 on (a rate where 0 means "as fast as it goes")."""
    value = _finite(text)
    if value is None or value < 0:
        raise argparse.ArgumentTypeError(f"a number from 0 on, not {text!r}")
    return value
