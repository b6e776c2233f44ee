"""The one clock the store stamps its rows with.

Why a module of its own: every table module stamps rows (``created_at``, due times, leases)
and :meth:`bot.storage.backend.Backend.now` hands the same time to callers that compare
with those stamps. Looking the time up here, and only here, lets a test replace the
store's clock in one place (``monkeypatch.setattr(bot.storage.clock, "time", ...)``).
"""

from __future__ import annotations

import time


def current_time() -> float:
    """Seconds since the epoch, as ``time.time()`` of this module gives them."""
    return time.time()
