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
    rows), and each delivered item is settled in one (:meth:`Store.settle_sent`: its mark
    and its turn-post record together) as soon as Discord acknowledged it — not when the
    batch's slowest picture is done (issue 44: that waited 5.7 s at p95, and every
    second between a send and its mark is a second in which a crash re-sends it)."""

    #: The batch's matches as read after the claim (a match missing here is read alone).
    matches: dict[int, MatchRow]
    #: Delivered items whose turn-post record is to be written with their mark, by id.
    remembered: dict[int, tuple[Remembered, dict[str, Any] | None]] = field(default_factory=dict)


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
    marked, as one item alone would be."""
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
