"""Settling delivered outbox items: each marked sent with its match's turn-post record
(which message is the current turn post), as soon as Discord acknowledged it.

Split from :mod:`bot.discord.delivery` (the worker) to keep each module readable: this is
the bookkeeping after a send, that the sending.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.storage.codec import _loads
from bot.storage.rows import MatchRow, Remembered
from bot.storage.sqlite import Store

#: The match setting holding the current turn post: message, thread, when, plies, lines.
POST_KEY = "turn_post"


@dataclass
class Batch:
    """What the items of one claimed batch share. Why: a post used to cost six statements
    of its own — its match read, a read per person it names, a read and a write of the
    turn-post record, the mark — each a round trip that costs the bot and PostgreSQL CPU.
    Now the batch's matches are read in one statement (with their seat holders' user
    rows), and the delivered items are settled together (:meth:`Store.settle_sent`: each
    mark with its turn-post record) every :data:`SETTLE_EVERY` seconds while the batch
    is sent — not when the batch's slowest picture is done (issue 44: that waited 5.7 s
    at p95, and every second between a send and its mark is a second in which a crash
    re-sends it)."""

    #: The batch's matches as read after the claim (a match missing here is read alone).
    matches: dict[int, MatchRow]
    #: Delivered items whose turn-post record is to be written with their mark, by id.
    remembered: dict[int, tuple[Remembered, dict[str, Any] | None]] = field(default_factory=dict)
    #: Sent and not yet marked: plain ids, and items with their turn-post records
    #: (:meth:`take` hands them to the next settle, at most :data:`SETTLE_EVERY` later).
    unmarked: list[int] = field(default_factory=list)
    unmarked_items: list[tuple[Remembered, dict[str, Any] | None]] = field(default_factory=list)

    def take(self) -> tuple[list[int], list[tuple[Remembered, dict[str, Any] | None]]]:
        """What was sent since the last settle, handed over once (no await between the
        read and the reset: two settles never mark the same item)."""
        sent, items = self.unmarked, self.unmarked_items
        self.unmarked, self.unmarked_items = [], []
        return sent, items


#: Seconds a sent post waits at most for its mark: the posts a batch sends within this
#: time are marked in one statement. One statement per post made the outbox fall behind
#: at three processes flat out (issue 44: 468 moves/s, 1,981 posts still queued; marked
#: per 0.1 s: 608 moves/s, none queued, p95 0.4 s), and a crash within this window is
#: re-sent only after the look-up for the post (bot/discord/resend.py) did not find it.
SETTLE_EVERY = 0.1


def _remembering(settings: dict[str, Any], record: dict[str, Any] | None) -> dict[str, Any]:
    """The match settings with ``record`` as the current turn post (None: no post)."""
    if record is None:
        settings.pop(POST_KEY, None)
    else:
        settings[POST_KEY] = record
    return settings


async def settle(
    store: Store, sent: list[int], waiting: list[tuple[Remembered, dict[str, Any] | None]]
) -> None:
    """Mark delivered items sent with their turn-post records, in one go. A record
    whose match's settings changed since they were read (a move's clock, a vote) is
    computed again from the settings as stored now — the missed matches read again at
    once, then settled again at once; after a few misses in a row, one at a time under
    the match's lock (:meth:`Store.update_settings`) — and only then is its item
    marked, as one item alone would be. Nothing to settle: no statement."""
    if not sent and not waiting:
        return
    for attempt in range(3):
        marked = await store.settle_sent(sent, [item for item, _ in waiting])
        sent = []
        waiting = [(item, record) for item, record in waiting if item.outbox_id not in marked]
        if not waiting or attempt == 2:
            break
        now = await store.get_matches([item.match_id for item, _ in waiting])
        waiting = [
            (
                Remembered(
                    item.outbox_id,
                    item.match_id,
                    now[item.match_id].settings_text,
                    _remembering(_loads(now[item.match_id].settings_text), record),
                ),
                record,
            )
            if item.match_id in now
            else (item, record)  # gone: left to update_settings below to say so
            for item, record in waiting
        ]
    for item, record in waiting:
        await store.update_settings(
            item.match_id,
            lambda settings, _version, record=record: _remembering(settings, record),
            wake=False,
        )
        await store.mark_sent(item.outbox_id)
