"""What can go wrong between the bot and its database, named so the callers can tell it
apart from a bug: the database cannot be reached, a connection was lost in the middle of a
statement (its outcome unknown), the schema is newer than this code, and the log that says
an outage once a minute instead of a traceback per tick.

Why a module of its own, free of any driver: the match service (the ambiguous commit), the
ticking loops (scheduler, outbox, computer driver) and the command line all need these
names, and none of them should import asyncpg (an optional dependency) to catch them.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

#: How often a lasting outage is logged again (seconds).
OUTAGE_LOG_SECONDS = 60.0


class DatabaseUnavailable(Exception):
    """No connection could be made (refused, timed out, no free connection in time), or
    the server cancelled the statement (its statement timeout). Either way the statement
    never took effect: nothing was written. The message is one line for an operator."""


class ConnectionLost(Exception):
    """A connection broke (or the server did not answer in time) while a statement was on
    it: what the statement did is unknown until it is read back. ``backend_pid`` is the
    server process that ran it (so a read-back can first make sure it is gone)."""

    def __init__(self, message: str, *, backend_pid: int | None = None) -> None:
        super().__init__(message)
        self.backend_pid = backend_pid


class SchemaTooNew(Exception):
    """The database was upgraded by a newer Tessera: this code must not run against it
    (it would write rows the newer schema does not expect, silently)."""

    def __init__(self, found: int, known: int) -> None:
        super().__init__(
            f"this database was upgraded by a newer Tessera (schema {found}); "
            f"this code knows up to {known}; upgrade the code"
        )
        self.found = found
        self.known = known


@dataclass(frozen=True)
class MoveKey:
    """What identifies one stored move, so a move whose commit's answer was lost can be
    looked for: the match and the ply the commit wrote (the move log's primary key; a
    commit writes its ply only together with the version it checked), and who played what
    there. Two commits cannot both write one ply, so a row at this ply with this author
    and notation is this move (or the same move from the same player's other click)."""

    match_id: int
    ply: int
    user_id: str
    notation: str


def is_outage(exc: BaseException) -> bool:
    """Whether ``exc`` says the database is down, unreachable or too slow (not a bug)."""
    return isinstance(exc, DatabaseUnavailable | ConnectionLost | TimeoutError | ConnectionError)


class OutageLog:
    """One log line a minute while the database is down, instead of a traceback per tick.

    A ticking loop calls :meth:`failed` with what failed; an outage is logged as one
    warning line at its start and again at most every :data:`OUTAGE_LOG_SECONDS` (saying
    how many failures it counted meanwhile), and :meth:`ok` logs once when it is over.
    Anything that is not an outage is a bug and keeps its traceback every time."""

    def __init__(
        self,
        logger: logging.Logger,
        what: str,
        *,
        every: float = OUTAGE_LOG_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._log = logger
        self._what = what
        self._every = every
        self._clock = clock
        self._since: float | None = None  # when the outage began
        self._logged_at = 0.0
        self._missed = 0

    @property
    def down(self) -> bool:
        return self._since is not None

    def failed(self, exc: BaseException, doing: str = "") -> None:
        doing = doing or self._what
        if not is_outage(exc):
            self._log.error("%s failed", doing, exc_info=exc)
            return
        now = self._clock()
        if self._since is None:
            self._since, self._logged_at, self._missed = now, now, 0
            self._log.warning("%s: the database is unreachable or too slow: %s", doing, _one(exc))
            return
        self._missed += 1
        if now - self._logged_at >= self._every:
            self._log.warning(
                "%s: the database is still unreachable or too slow (%.0f s, %d more failures): %s",
                doing,
                now - self._since,
                self._missed,
                _one(exc),
            )
            self._logged_at, self._missed = now, 0

    def ok(self) -> None:
        if self._since is not None:
            self._log.warning(
                "%s: the database answers again after %.0f s",
                self._what,
                self._clock() - self._since,
            )
            self._since = None


def _one(exc: BaseException) -> str:
    """The error in one line: its type and first line."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__
