"""Away: a player's holiday from their matches (``/notify away``, ``/notify back``).

Why periods kept in the user's preferences and not a flag: a paused clock must resume with
the time it had left, so the scheduler subtracts every away period that overlaps a seat's
waiting time (``bot/matches/clocks.py``) — it needs *when* the player was away, not just whether
they are now — and the limit "at most 14 days in any 30" is counted over the same periods.
They live in the existing preferences JSON (``users.settings["away"]``, a list of
``[start, end]`` Unix times, oldest first), so no migration is needed; periods that can no
longer matter (ended long ago) are dropped whenever the list is written.

Pure functions of (preferences, now): no I/O, no clock reads, so tests pass their own time.
"""

from __future__ import annotations

from typing import Any

DAY = 86400.0
#: At most this many days away …
MAX_DAYS = 14
#: … in any window of this many days.
WINDOW_DAYS = 30
#: Periods that ended this long ago are forgotten (longer than any window or clock needs).
KEEP_SECONDS = 120 * DAY


class AwayRefused(Exception):
    """The request would break the limit; ``days_left`` is what may be asked for now."""

    def __init__(self, days_left: int) -> None:
        super().__init__(days_left)
        self.days_left = days_left


def periods(prefs: dict[str, Any]) -> list[tuple[float, float]]:
    """The stored away periods, ``(start, end)``, oldest first."""
    return [(float(a), float(b)) for a, b in prefs.get("away") or []]


def away_until(prefs: dict[str, Any], now: float) -> float | None:
    """When the player's current away period ends, or None when they are not away."""
    return next((end for start, end in periods(prefs) if start <= now < end), None)


def overlap(spans: list[tuple[float, float]], start: float, end: float) -> float:
    """Seconds of ``spans`` that fall inside ``[start, end]``."""
    return sum(max(0.0, min(b, end) - max(a, start)) for a, b in spans)


def _past(prefs: dict[str, Any], now: float) -> list[tuple[float, float]]:
    """The periods as they stand if the current one ended ``now``."""
    return [(a, min(b, now)) for a, b in periods(prefs) if a < now]


def _fits(past: list[tuple[float, float]], days: int, now: float) -> bool:
    """Would ``days`` from ``now`` keep every 30-day window at 14 days or less? The fullest
    window is the one ending with the new period (the past lies before it), so only that
    one needs counting."""
    end = now + days * DAY
    return days * DAY + overlap(past, end - WINDOW_DAYS * DAY, now) <= MAX_DAYS * DAY + 1e-6


def days_left(prefs: dict[str, Any], now: float) -> int:
    """The most whole days the player may go away for from ``now`` (a current period counts
    as ended now: asking again replaces it)."""
    past = _past(prefs, now)
    return max((d for d in range(MAX_DAYS + 1) if _fits(past, d, now)), default=0)


def go_away(prefs: dict[str, Any], days: int, now: float) -> dict[str, Any]:
    """The preferences with an away period of ``days`` starting ``now`` (replacing a current
    one); :class:`AwayRefused` when the limit does not allow it."""
    past = _past(prefs, now)
    if days < 1 or not _fits(past, days, now):
        raise AwayRefused(days_left(prefs, now))
    kept = [[a, b] for a, b in past if b > a and b > now - KEEP_SECONDS]
    return {**prefs, "away": [*kept, [now, now + days * DAY]]}


def come_back(prefs: dict[str, Any], now: float) -> dict[str, Any] | None:
    """The preferences with the current away period ended ``now``; None when not away."""
    if away_until(prefs, now) is None:
        return None
    return {**prefs, "away": [[a, b] for a, b in _past(prefs, now) if b > a]}
