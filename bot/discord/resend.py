"""What the outbox worker does before a post may go out a second time, and when a thread
refuses it.

**A re-send is looked up first.** Discord de-duplicates an ``enforce_nonce`` message only
"in the past few minutes" (discord-api-docs ``resources/message.mdx`` "Create Message").
A row the worker claims again after an earlier claim may already be on Discord — the
process was killed between the send and the mark, the reply was lost, the database was
down at the mark — and the re-send may come after a lease's end or a long outage, past
that window. So a row claimed before (:attr:`OutboxRow.tried_at`) is first looked for in
its channel's messages since that first claim (``GET /channels/{id}/messages``, "Get
Channel Messages"; the nonce is not part of what that read returns — the docs promise it in
the Message Create event only —, so the post carries its own mark):

- a card (a layout message) carries the outbox row in its container's component ``id``
  (``components/reference.mdx`` "Anatomy of a Component": an ``id`` we set is kept, unique
  in the message, 32 bits): :func:`mark_card`;
- a classic message is known by its words: the bot's message with the same content, made
  since the row was first claimed. Two rows with the same words cannot race into one
  channel: a match's posts go out in order, and words name their match.

Found, the message is taken as this row's (its bookkeeping and its DMs follow as after a
send); not found, the post is sent with its nonce, which still covers a send made within
Discord's window. Either way it appears once. This needs ``READ_MESSAGE_HISTORY`` in the
channel (without it Discord returns no messages, and the re-send relies on the nonce).

**Archived and locked threads** (``topics/threads.mdx`` "Active & Archived Threads",
"Locked Threads"). A thread that archived between two plies of a run refuses the edit
that folds the second in (400, 50083): it is unarchived (Modify Channel with
``archived: false``, which the bot may do in a thread it can post in) and the edit made
again. A locked thread refuses posts and edits (160005) to anyone without Manage Threads:
the post is given up, and the channel the match was opened in is told once, in words, so
the server's managers can unlock it (:class:`ThreadLocked`) — not a silent drop.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import discord

from bot.storage.rows import OutboxRow

if TYPE_CHECKING:
    from bot.discord.cards import Card
    from bot.discord.client import TesseraBot

#: Discord's JSON error codes (``topics/opcodes-and-status-codes.mdx`` "JSON Error Codes").
THREAD_ARCHIVED = 50083
THREAD_LOCKED = 160005
#: A card's mark: its container's component id, from here up (Discord numbers the other
#: components 1, 2, … when they have none, so the two never meet).
MARK_BASE = 1_000_000
MARK_SPAN = 2**31 - 1 - MARK_BASE
#: Seconds before the first claim a found message may have been made (clocks of the bot
#: and Discord disagree a little).
CLOCK_MARGIN = 60.0
#: Messages read back at most (Discord's largest page): the row's channel after its first
#: claim — a match's thread holds only that match's posts, in order, and the replies to
#: commands; a DM the person's alerts.
LOOK_LIMIT = 100


class ThreadLocked(Exception):
    """The match's thread is locked: nothing more can be posted or edited there."""


def marker(outbox_id: int) -> int:
    """The component id a card of outbox row ``outbox_id`` carries (32 bits)."""
    return MARK_BASE + outbox_id % MARK_SPAN


def mark_card(card: Card, outbox_id: int) -> None:
    """Give the card's container the row's mark (the first top-level container)."""
    for item in card.view.children:
        if isinstance(item, discord.ui.Container):
            item.id = marker(outbox_id)
            return


def _ids(components: Iterable[Any]) -> Iterable[int]:
    """Every component id of a message's components, through nesting."""
    for c in components:
        if getattr(c, "id", None) is not None:
            yield int(c.id)
        for attr in ("children", "components"):
            yield from _ids(getattr(c, attr, None) or [])
        accessory = getattr(c, "accessory", None)
        if accessory is not None:
            yield from _ids([accessory])


async def find_sent(
    bot: TesseraBot, channel_id: int, row: OutboxRow, content: str | None, card: Card | None
) -> discord.Message | None:
    """The message an earlier claim of ``row`` already made in ``channel_id``, or None
    (see the module docstring). Only for a row claimed before (``row.tried_at``)."""
    me = getattr(bot, "user", None)  # None: not logged in (the load tool's stand-ins)
    if row.tried_at is None or me is None:
        return None
    since = datetime.datetime.fromtimestamp(row.tried_at - CLOCK_MARGIN, datetime.UTC)
    after = discord.Object(discord.utils.time_snowflake(since))
    channel = bot.get_partial_messageable(channel_id)
    mark = marker(row.id)
    async for message in channel.history(limit=LOOK_LIMIT, after=after, oldest_first=True):
        if message.author.id != me.id:
            continue
        if card is not None:
            if mark in set(_ids(message.components)):
                return message
        elif content is not None and message.content == content:
            return message
    return None


async def unarchive(bot: TesseraBot, thread_id: int) -> None:
    """Modify Channel ``archived: false`` (``topics/threads.mdx`` "Editing & Deleting
    Threads": it "only requires the current user has already been added to the thread";
    the bot started it). A locked thread refuses it (160005): :class:`ThreadLocked`."""
    try:
        await bot.http.edit_channel(thread_id, archived=False)
    except discord.HTTPException as exc:
        if exc.code == THREAD_LOCKED:
            raise ThreadLocked(str(exc)) from exc
        raise


def locked_key(thread_id: Any) -> str:
    """The outbox key of a locked thread's notice: one per thread, ever."""
    return f"locked:{thread_id}"
