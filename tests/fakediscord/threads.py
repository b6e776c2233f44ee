"""Threads that archive when idle and can be locked, with Discord's refusals.

Why: the fake's threads never archived and could not be locked, so the bot never met the
refusals Discord gives there — an edit of a message in an archived thread (50083) was
dropped silently by the bot (issue 44). The rules, from ``discord/discord-api-docs``:

- a thread archives after ``auto_archive_duration`` minutes without activity; "Activity"
  is "sending a message, unarchiving a thread, or changing the auto-archive time" —
  ``topics/threads.mdx`` "Active & Archived Threads" (on Discord's clock, ``Core.now``,
  which tests move with ``skew``);
- in an archived thread, "Users cannot edit messages, add reactions, use application
  commands, or join archived threads … Sending a message will automatically unarchive the
  thread, unless the thread has been locked by a moderator" — same section; an edit is
  refused with 400 and JSON code 50083 ("Tried to perform an operation on an archived
  thread, such as editing a message", ``topics/opcodes-and-status-codes.mdx`` "JSON Error
  Codes"); a command there is not offered by the client (:class:`.acting.NotOffered`);
- in a locked thread, users "without the ``MANAGE_THREADS`` permission … won't be able to
  create or update messages" (``topics/threads.mdx`` "Locked Threads"), and it "can only
  be unarchived by a user with the ``MANAGE_THREADS`` permission" ("Active & Archived
  Threads"): refused with JSON code 160005 "Thread is locked" (the code table; the status
  is not documented: 403 here, as for the other permission refusals); setting ``locked``
  needs ``MANAGE_THREADS`` ("Editing & Deleting Threads"): 50013. The bot has no
  ``MANAGE_THREADS`` unless :attr:`ThreadRules.bot_manages_threads` says so (a bot's role
  rarely has it).
"""

from __future__ import annotations

import asyncio
import datetime
from typing import Any

from .core import Core
from .errors import ApiError

THREAD_TYPES = (10, 11, 12)
#: ``topics/opcodes-and-status-codes.mdx`` "JSON Error Codes".
THREAD_ARCHIVED = 50083
THREAD_LOCKED = 160005
MISSING_PERMISSIONS = 50013


class ThreadRules(Core):
    """Archiving and locking (see the module docstring); tests call
    :meth:`archive_thread` and :meth:`lock_thread` as a moderator would."""

    #: Whether the bot's role has ``MANAGE_THREADS`` (it may then act in locked threads).
    bot_manages_threads: bool = False
    _updates: set[asyncio.Task[None]]

    # ----- what tests do (a moderator, or time passing) ----------------------------------
    async def archive_thread(self, thread_id: int) -> None:
        """Archive the thread now, as a moderator (or the idle timer) does."""
        self._set_archived(self.channels[thread_id], True)

    async def lock_thread(self, thread_id: int, locked: bool = True) -> None:
        """Lock (or unlock) the thread, as a moderator with ``MANAGE_THREADS`` does."""
        channel = self.channels[thread_id]
        channel["thread_metadata"]["locked"] = locked
        self._updated(channel)

    def age_threads(self) -> None:
        """Archive every active thread idle for its ``auto_archive_duration`` minutes of
        Discord's clock (``topics/threads.mdx`` "Active & Archived Threads"). Called
        before each request and each member's action, so a test moves the clock and the
        next thing anybody does finds the thread archived."""
        now = self.now()
        for channel in list(self.channels.values()):
            if channel.get("type") not in THREAD_TYPES:
                continue
            meta = channel["thread_metadata"]
            since = self.thread_activity.setdefault(int(channel["id"]), now)
            if not meta["archived"] and now - since >= int(meta["auto_archive_duration"]) * 60:
                self._set_archived(channel, True)

    # ----- the rules, called by the endpoints --------------------------------------------
    def thread_post(self, channel: dict[str, Any]) -> None:
        """Before a message is created in ``channel``: refused in a locked thread; an
        archived one is unarchived by the post; the post is activity."""
        if channel.get("type") not in THREAD_TYPES:
            return
        meta = channel["thread_metadata"]
        if meta.get("locked") and not self.bot_manages_threads:
            raise ApiError(403, THREAD_LOCKED, "Thread is locked")
        if meta["archived"]:
            self._set_archived(channel, False)
        self.thread_activity[int(channel["id"])] = self.now()

    def thread_edit(self, channel: dict[str, Any]) -> None:
        """Before a message in ``channel`` is edited: refused in a locked thread (160005)
        and in an archived one (50083)."""
        if channel.get("type") not in THREAD_TYPES:
            return
        meta = channel["thread_metadata"]
        if meta.get("locked") and not self.bot_manages_threads:
            raise ApiError(403, THREAD_LOCKED, "Thread is locked")
        if meta["archived"]:
            raise ApiError(400, THREAD_ARCHIVED, "Thread is archived")

    def thread_patch(self, channel: dict[str, Any], body: dict[str, Any]) -> None:
        """Before Modify Channel on a thread: ``locked`` needs ``MANAGE_THREADS`` (50013);
        a locked thread is unarchived only with it (160005); unarchiving and a new
        archive duration are activity."""
        meta = channel["thread_metadata"]
        if "locked" in body and not self.bot_manages_threads:
            raise ApiError(403, MISSING_PERMISSIONS, "Missing Permissions")
        unarchive = body.get("archived") is False and meta["archived"]
        if unarchive and meta.get("locked") and not self.bot_manages_threads:
            raise ApiError(403, THREAD_LOCKED, "Thread is locked")
        if body.get("archived") is False or "auto_archive_duration" in body:
            self.thread_activity[int(channel["id"])] = self.now()

    def command_refused_in(self, channel: dict[str, Any]) -> str | None:
        """Why the client offers no application command in ``channel`` (None: it does):
        not in an archived thread ("Users cannot … use application commands")."""
        if channel.get("type") in THREAD_TYPES and channel["thread_metadata"]["archived"]:
            return "commands cannot be used in an archived thread"
        return None

    # ----- helpers -------------------------------------------------------------------------
    def _set_archived(self, channel: dict[str, Any], archived: bool) -> None:
        """``archive_timestamp`` "is changed when creating, archiving, or unarchiving a
        thread" (``topics/threads.mdx`` "Thread Fields"); unarchiving is activity."""
        meta = channel["thread_metadata"]
        meta["archived"] = archived
        meta["archive_timestamp"] = datetime.datetime.now(datetime.UTC).isoformat()
        if not archived:
            self.thread_activity[int(channel["id"])] = self.now()
        self._updated(channel)

    def _updated(self, channel: dict[str, Any]) -> None:
        """THREAD_UPDATE to the bot (``topics/threads.mdx`` "Gateway Events"), sent from
        a task: the rules run inside synchronous checks."""
        if not hasattr(self, "_updates"):
            self._updates = set()
        try:
            task = asyncio.get_running_loop().create_task(self.dispatch("THREAD_UPDATE", channel))
        except RuntimeError:  # no loop (a unit test of the rules alone)
            return
        self._updates.add(task)
        task.add_done_callback(self._updates.discard)
