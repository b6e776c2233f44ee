"""What happens inside the transaction that finishes a match, after the game itself: the
ratings move (bot/community/ratings.py, their change added to the final post) and the score chart is
queued as the post after it (bot/matches/score_chart.py draws it when the outbox sends it).

Why in the finishing transaction: the outbox is written in that transaction, so the final
post, the rating change and the chart post are stored together or not at all; a crash after
the commit can delay them but never lose or double them.
"""

from __future__ import annotations

from typing import Any

from bot.community import ratings
from bot.storage import Notification, Store


async def on_finish(
    store: Store, conn: Any, match_id: int, notifications: list[Notification]
) -> list[Notification]:
    notifications = await ratings.on_finish(store, conn, match_id, notifications)
    return [*notifications, Notification("chart", {"match_id": match_id})]


def install(store: Store) -> None:
    """Make ``store`` run :func:`on_finish` for every match that finishes through it."""
    store.on_finish = on_finish
