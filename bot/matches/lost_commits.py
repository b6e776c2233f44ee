"""What the player is told when the database failed under their move's commit.

Why read the move back (issue 44): a connection can break after PostgreSQL committed a move
but before its answer arrived; the bot answered "Something went wrong on our side; nothing
was changed" while the move was stored and its post appeared a second later. Now a commit
whose outcome is unknown (:class:`bot.storage.faults.ConnectionLost`) is settled by looking
for the move in the log on a fresh connection (its key: the match, the ply the commit
wrote, the player and the move — :class:`bot.storage.faults.MoveKey`):

- stored: the move was played; the caller answers as after any move;
- not stored: nothing was changed, and the player may simply try again;
- the database still cannot be reached: we say we could not confirm it, and that the move
  will show in the match if it was saved.

A database that could not be reached at all, or cancelled the statement as too slow
(:class:`bot.storage.faults.DatabaseUnavailable`), wrote nothing: "nothing was changed".
Each case logs one line (no traceback: it is no bug of ours).
"""

from __future__ import annotations

import logging

from bot.matches.errors import DatabaseTrouble
from bot.storage import Store
from bot.storage.faults import ConnectionLost, DatabaseUnavailable, MoveKey

log = logging.getLogger(__name__)


async def settle_lost_commit(store: Store, key: MoveKey, lost: ConnectionLost) -> None:
    """Returns when the move ``key`` names was stored; raises the answer otherwise."""
    stored = await store.move_stored(key, lost)
    if stored:
        log.warning(
            "match %s ply %s: %s; read back: the move was stored", key.match_id, key.ply, lost
        )
        return
    if stored is False:
        log.warning(
            "match %s ply %s: %s; read back: the move was not stored", key.match_id, key.ply, lost
        )
        raise DatabaseTrouble.said("err.db_not_saved")
    log.warning(
        "match %s ply %s: %s; the database still does not answer: the move may or may not "
        "be stored",
        key.match_id,
        key.ply,
        lost,
    )
    raise DatabaseTrouble.said("err.db_unconfirmed")


def not_saved(match_id: int, error: DatabaseUnavailable | ConnectionLost) -> DatabaseTrouble:
    """The answer when the database failed before the commit, or never took it: nothing
    was written."""
    log.warning("match %s: a move was not saved: %s", match_id, error)
    return DatabaseTrouble.said("err.db_not_saved")


def database_answer(error: BaseException) -> DatabaseTrouble | None:
    """What to tell a person whose request (any, not only a move) the database failed
    under, or None when ``error`` is no database failure. Why: a front end answered these
    with "Something went wrong on our side; nothing was changed" — true when the database
    could not be reached (nothing was written), but not known when the connection broke
    under a change whose outcome only a move's read-back settles."""
    if isinstance(error, DatabaseUnavailable):
        log.warning("a request failed: %s", error)
        return DatabaseTrouble.said("err.db_down")
    if isinstance(error, ConnectionLost):
        log.warning("a request's outcome is unknown: %s", error)
        return DatabaseTrouble.said("err.db_unknown")
    return None
