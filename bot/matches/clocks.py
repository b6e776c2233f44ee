"""Fair clocks: one clock per seat, running only while the game waits for that seat.

Why per seat, kept with the match: a game may wait for several seats at once (Pastiche
answers to offers, Azul's grey-wall column choices), and a seat's clock must start when
*that seat* newly must act — not whenever anyone moves. So every state change the service
commits also updates ``settings["clock"]`` in the same transaction (read inside it, so two
racing commits cannot lose each other's update)::

    {"v": version, "since": {"seat": t, ...}, "used": {"seat": seconds, ...}}

- ``since``: when each seat the game waits for now (``Game.waits_for``) began waiting; a
  seat that keeps waiting across other seats' moves — and across its own moves in a
  multi-step turn — keeps its start.
- ``used``: time a seat already spent before its clock was paused while it stays in
  ``to_act`` (Pastiche: the trading player while others answer its offers); a paused
  clock resumes with the time it had left.
- ``v``: the version the map was written for. A commit made without the map (an older
  code path) leaves it stale; the scheduler then still uses the starts it knows and the
  last move's time for the others — never shorter than the seat really had.

Away periods (``bot/matches/away.py``) are subtracted when the scheduler measures a seat's time,
so a clock paused by ``/notify away`` resumes with the time it had left too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot.matches.away import overlap

if TYPE_CHECKING:
    from rules import Game

ClockMap = dict[str, Any]


def next_clock(
    old: ClockMap | None,
    before: tuple[list[int], list[int]],
    after: tuple[list[int], list[int]],
    now: float,
    version: int,
) -> ClockMap:
    """The clock map after a change from ``before`` to ``after`` — each a pair
    (``to_act``, ``waits_for``) of seats — made at ``now``, stamped ``version``."""
    old = old or {}
    since_old: dict[str, float] = old.get("since", {})
    used_old: dict[str, float] = old.get("used", {})
    acting_b, waiting_b = before
    acting_a, waiting_a = after
    since: dict[str, float] = {}
    used: dict[str, float] = {}
    for seat in acting_a:
        key = str(seat)
        ran = seat in waiting_b and key in since_old  # its clock was running
        carried = float(used_old.get(key, 0.0)) if seat in acting_b else 0.0
        if seat in waiting_a:
            since[key] = float(since_old[key]) if ran else now
            if carried:
                used[key] = carried
        elif ran:  # paused now: keep what it used
            used[key] = carried + max(0.0, now - float(since_old[key]))
        elif carried:
            used[key] = carried
    return {"v": version, "since": since, "used": used}


def clock_update(
    before: tuple[list[int], list[int]],
    after: tuple[list[int], list[int]],
    version: int,
) -> Callable[[dict[str, Any], float], dict[str, Any]]:
    """A match-settings update for :meth:`Store.commit` that moves the clock map on."""

    def update(settings: dict[str, Any], now: float) -> dict[str, Any]:
        return {**settings, "clock": next_clock(settings.get("clock"), before, after, now, version)}

    return update


def seat_start(clock: ClockMap | None, seat: int, fallback: float) -> tuple[float, float]:
    """(when ``seat``'s clock started running, seconds it used before) from the map;
    ``fallback`` (the last move's time) for a seat the map does not know."""
    clock = clock or {}
    key = str(seat)
    start = clock.get("since", {}).get(key)
    return (float(start) if start is not None else fallback), float(
        clock.get("used", {}).get(key, 0.0)
    )


def deadline(clock: ClockMap | None, seats: list[int], fallback: float, limit: float) -> float:
    """When the first of ``seats``' clocks runs out if nothing changes and nobody goes away
    (what a turn post shows); ``fallback`` + ``limit`` when no seat is timed."""
    ends = [start + limit - used for start, used in (seat_start(clock, s, fallback) for s in seats)]
    return min(ends, default=fallback + limit)


def used_time(start: float, used: float, away: list[tuple[float, float]], now: float) -> float:
    """Seconds of the seat's clock used by ``now``: before its start, plus since then
    without the time its player was away."""
    return used + max(0.0, now - start) - overlap(away, start, now)


def runs_out_at(
    start: float, used: float, away: list[tuple[float, float]], limit: float, now: float
) -> float:
    """When the clock reaches ``limit`` seconds if nothing changes; while its player is
    away, the end of that away period (the clock is looked at again then)."""
    for a, b in away:
        if a <= now < b:
            return b
    return now + max(0.0, limit - used_time(start, used, away, now))


def clocked(
    game: Game,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    version: int,
    rows: int,
) -> Any:
    """The per-seat clock update (:func:`clock_update`) of a commit of ``rows`` log rows at
    ``version`` that takes the match from state ``before`` to ``after`` (None: none)."""

    def seats(state: dict[str, Any] | None) -> tuple[list[int], list[int]]:
        if state is None:
            return [], []
        return game.to_act(state), game.waits_for(state)

    return clock_update(seats(before), seats(after), version + max(1, rows))
