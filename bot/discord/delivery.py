"""The outbox worker: every post and ping leaves through here.

Why an outbox: the service queues a turn post in the same transaction as the move, so a
crash or a Discord outage after the commit delays the post but never loses it, and a
failed post never undoes a move. This worker delivers the queue:

- in order per match (the store only hands out a match's oldest undelivered item);
- once, with several processes on one database: items are claimed with a lease (and only
  for servers on this process's shards); a dead process's claims are taken over when
  their lease runs out, and the nonce below keeps such a retried post from doubling;
- retried with exponential backoff on 5xx, timeouts and network errors; a 429 waits
  exactly the retry-after Discord asked for (and pauses the whole worker that long);
- never duplicated: messages carry ``nonce = "tx<outbox id>"`` (discord.py adds
  ``enforce_nonce``), so a retry after a post that did arrive (timeout on the reply) is
  de-duplicated by Discord — for a few minutes; an item claimed before (a crash between
  the send and the mark, an outage, a lease taken over) is first looked for in its
  channel and not sent again if it is there (``bot/discord/resend.py``). Each item is
  marked sent as soon as Discord acknowledged it (``bot/discord/settling.py``), not with
  the rest of its batch. A turn alert DM is keyed by its post's item and the person, so
  a re-sent post queues it once;
- a deleted thread (404) or a refused DM (403) drops the item with the reason kept,
  instead of blocking the match's later posts forever; an archived thread is unarchived
  for an edit, a locked one (160005) is said once in the match's channel;
- settled items are pruned after ``outbox_retention_days`` (:meth:`OutboxWorker.prune`,
  hourly).

Kinds: ``turn`` (service), ``dm`` (service: private text; also turn alerts by DM),
``remind`` and ``keepalive`` (the scheduler), ``locked`` (this worker: a locked thread).

Layout posts: a post of the match's thread — a turn, the final result, the score chart, a
notice (undo request, vote) — is a card (``bot/discord/cards.py``: one container with the
header, the board and its alt text, the move lines and the controls); a "your turn" DM
for whoever chose DMs is a card too, with the board and the move controls, so the turn can
be played from there. Reminders stay classic text (see ``cards.py``).

Calm posts: one turn post per change of the seats to act. A ply that leaves them as they
were (a Taj Mahal player's palace choices after withdrawing, a Pastiche trading step) comes
marked ``fold``: its lines are added to the current turn post by an edit (Edit Message, with
the board after the ply as the one attachment and the new buttons), so the post lists every
ply of the run and shows the board at its end. Only people who newly must act (the
payload's ``ping``) are mentioned with a ping and get a DM; an edit keeps the mentions of the
original post and pings nobody. Which message is the current post is kept in the match's
settings (``turn_post``), written after each post or edit; a fold item is an outbox item
like any other (claimed with a lease, in order per match, retried), and the edit is
idempotent, so a retry never doubles anything. A post older than :data:`EDIT_WINDOW`, a
run too long for one message, a deleted post or a vote/request post in between makes the
next ply a new post instead (still without a ping); so does a run whose post was made
before posts were cards (its record has no ``layout`` mark): Discord turns a classic post
into a layout one only with its content emptied, and readers would see the post change its
shape under them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.computers.players import is_computer
from bot.discord.cards import (
    HEAD_MAX,
    TEXT_LIMIT,
    Card,
    dm_turn_card,
    move_controls,
    picture_card,
    picture_file,
    turn_card,
)
from bot.discord.common import clip
from bot.discord.league_posts import KINDS as LEAGUE_KINDS
from bot.discord.league_posts import deliver as league_delivery
from bot.discord.panel import mute_view
from bot.discord.permissions import Permits, note_line
from bot.discord.resend import (
    THREAD_ARCHIVED,
    THREAD_LOCKED,
    ThreadLocked,
    find_sent,
    locked_key,
    mark_card,
    unarchive,
)
from bot.discord.settling import POST_KEY, SETTLE_EVERY, Batch, _remembering, settle
from bot.matches import clocks
from bot.matches.errors import ServiceError
from bot.matches.score_chart import chart_png
from bot.ops import metrics
from bot.storage.codec import _loads
from bot.storage.faults import OutageLog
from bot.storage.rows import MatchRow, Notification, OutboxRow, Remembered
from render.words.catalogue import match_language, t
from render.words.posts import listing, post_body, said_in, say_line
from render.words.stamps import discord_time
from rules.registry import get_game

if TYPE_CHECKING:
    from bot.discord.client import TesseraBot

log = logging.getLogger(__name__)

MAX_BACKOFF = 3600.0
#: A turn post takes folded plies (an edit) only this long after it was posted: Discord
#: limits edits of messages older than an hour hard (error 30046), so a later ply of the
#: same run starts a new post instead (without a ping).
EDIT_WINDOW = 50 * 60.0
#: A run whose lines would pass this many characters continues in a new post: a card's
#: texts may hold 4,000 characters together (``cards.TEXT_LIMIT``), its header takes up to
#: ``cards.HEAD_MAX`` of them and the picture's note follows the plies.
FOLD_MAX_CHARS = TEXT_LIMIT - HEAD_MAX - 500
#: Discord's JSON error code "Unknown message" (topics/opcodes-and-status-codes.mdx).
UNKNOWN_MESSAGE = 10008
#: "Maximum number of edits to messages older than 1 hour reached" (same table).
OLD_MESSAGE_EDITS = 30046
#: Posts of different matches in flight at once (each waits mostly on Discord's answer).
CONCURRENCY = 8
#: Posts claimed at once (one per match). Why this many: the worker shares its event loop
#: with every click, and each batch costs it a few round trips (claim, read, settle), each
#: a turn of the loop behind whatever clicks are ready. With cheap clicks and batches of
#: 20 the posts fell behind a flat-out load (docs/performance.md, fifth pass); a batch is
#: sent CONCURRENCY at a time, so at Discord's pace 50 take a few seconds of a 60 s lease.
BATCH = 50
#: Seconds between prunes of the outbox's settled rows, and rows deleted per statement.
PRUNE_EVERY = 3600.0
PRUNE_SLICE = 5000


class Drop(Exception):
    """This item can never be delivered; give it up (reason kept in the outbox row)."""


def backoff(attempts: int) -> float:
    """5 s, 10 s, 20 s … capped at an hour."""
    return min(5.0 * 2**attempts, MAX_BACKOFF)


def retry_after_of(exc: discord.HTTPException) -> float:
    """Seconds Discord asked us to wait (body ``retry_after`` or the Retry-After header)."""
    value = getattr(exc, "retry_after", None)
    if value is None:
        headers = getattr(getattr(exc, "response", None), "headers", None) or {}
        value = headers.get("Retry-After") or headers.get("retry-after")
    try:
        return max(0.0, float(value))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return 5.0


class OutboxWorker:
    """Run :meth:`run_once` in a loop (:meth:`run_forever`); tests call it directly with a
    fake clock."""

    def __init__(self, bot: TesseraBot, clock: Callable[[], float]) -> None:
        self.bot = bot
        self.clock = clock
        self.store = bot.service.store
        self.paused_until = 0.0
        self._wake = asyncio.Event()
        #: posts parked for a missing permission, managers told (bot/discord/permissions.py)
        self.permits = Permits(bot, clock, self.wake)
        self.pruned_at = 0.0  # the first sweep prunes
        #: This process's name on the items it claims (several processes share a database).
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"

    def wake(self) -> None:
        self._wake.set()

    async def run_forever(self) -> None:
        outage = OutageLog(log, "outbox sweep")  # a database down: a line a minute
        while True:
            try:
                await self.run_once()
                if self.clock() - self.pruned_at >= PRUNE_EVERY:
                    await self.prune()
                outage.ok()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                outage.failed(exc)
            wait = self.bot.settings.outbox_poll_seconds
            if self.paused_until > self.clock():
                wait = max(wait, self.paused_until - self.clock())
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=wait)

    async def run_once(self, now: float | None = None) -> int:
        """Deliver what is due; returns how many items were settled (sent or dropped)."""
        settled = 0
        for _ in range(50):  # bounded: one item per match per round
            now = self.clock() if now is None else now
            if self.paused_until > now:
                break
            due = await self.store.claim_notifications(
                self.owner,
                now=now,
                limit=BATCH,
                lease=self.bot.settings.lease_seconds,
                shards=self.bot.shard_slice,
            )
            if not due:
                break
            done = await self._deliver_batch(due, now)
            settled += done
            if not done:
                break
            now = None
        return settled

    async def _deliver_batch(self, due: list[OutboxRow], now: float) -> int:
        """Deliver a claimed batch, up to ``CONCURRENCY`` at once. The batch holds at most
        one item per match, so a match's posts still go out in order; while one post waits
        for Discord (or the database) the others proceed. Its matches are read at once
        and its delivered items settled at once (:class:`Batch`). Returns how many
        settled."""
        gate = asyncio.Semaphore(CONCURRENCY)
        handed_back: list[int] = []
        ids = sorted({r.match_id for r in due if r.match_id is not None})
        batch = Batch(await self.store.get_matches(ids) if ids else {})

        async def one(row: OutboxRow) -> bool:
            async with gate:
                if self.paused_until > now:  # rate-limited: hand it back unsent
                    handed_back.append(row.id)
                    return False
                return await self._deliver(row, now, batch)

        stop = asyncio.Event()

        async def marking() -> None:  # the sent posts' marks, every SETTLE_EVERY seconds
            while not stop.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), SETTLE_EVERY)
                await settle(self.store, *batch.take())
            # a post that went out while the last settle ran (and the batch ended) is marked
            # here: left unmarked, its claim would lapse and it would be sent again
            await settle(self.store, *batch.take())

        marks = asyncio.create_task(marking())
        try:
            results = await asyncio.gather(*(one(r) for r in due), return_exceptions=True)
        finally:
            stop.set()
            await marks  # its last settle marks what was sent since the one before
        await self.store.release_notifications(handed_back)
        for result in results:
            if isinstance(result, BaseException):
                raise result
        return sum(1 for r in results if r is True)

    async def _deliver(self, row: OutboxRow, now: float, batch: Batch | None = None) -> bool:
        """Send one item and settle it: alone at once, or with its ``batch`` (marked by the
        batch's next settle, at most :data:`SETTLE_EVERY` later, with its turn-post record
        when the batch read the match)."""
        max_attempts = self.bot.settings.outbox_max_attempts
        metrics.delivering(row.attempts)  # /metrics counts a re-send (bot/ops/metrics.py)
        try:
            try:
                await self._send(row, batch)
            except discord.HTTPException as exc:
                if exc.code == THREAD_LOCKED:  # a post or an edit in a locked thread
                    raise ThreadLocked(str(exc)) from exc
                raise
            except BaseException:
                if batch is not None:  # nothing of a failed attempt is remembered
                    batch.remembered.pop(row.id, None)
                raise
        except ThreadLocked as exc:
            if batch is not None:
                batch.remembered.pop(row.id, None)
            await self._tell_locked(row)
            await self.store.drop_notification(row.id, f"thread locked (160005): {exc}")
            return True
        except Drop as exc:
            await self.store.drop_notification(row.id, str(exc))
            return True
        except discord.NotFound as exc:
            await self.store.drop_notification(row.id, f"gone (404): {exc.text or exc}")
            return True
        except discord.Forbidden as exc:
            if await self.permits.parked(row, exc, now):  # a missing permission: parked
                return False
            if row.kind in ("dm", "headsup") or row.attempts + 1 >= max_attempts:
                await self.store.drop_notification(row.id, f"forbidden (403): {exc.text or exc}")
                return True
            await self.store.mark_failed(row.id, f"403: {exc}", now + backoff(row.attempts))
            return False
        except discord.RateLimited as exc:
            self.paused_until = now + exc.retry_after
            await self.store.mark_failed(row.id, "429", now + exc.retry_after)
            return False
        except discord.HTTPException as exc:
            if exc.status == 429:
                wait = retry_after_of(exc)
                self.paused_until = now + wait
                await self.store.mark_failed(row.id, f"429 retry after {wait}", now + wait)
                return False
            if exc.status < 500:
                await self.store.drop_notification(row.id, f"{exc.status}: {exc.text or exc}")
                return True
            return await self._retry(row, now, f"{exc.status}: {exc}")
        except (TimeoutError, aiohttp.ClientError, OSError) as exc:
            return await self._retry(row, now, f"{type(exc).__name__}: {exc}")
        item = batch.remembered.pop(row.id, None) if batch is not None else None
        if batch is None:
            await self.store.mark_sent(row.id)
        else:  # marked now, not when the batch's slowest post is done
            batch.unmarked += [] if item else [row.id]
            batch.unmarked_items += [item] if item else []
        return True

    async def _retry(self, row: OutboxRow, now: float, error: str) -> bool:
        if row.attempts + 1 >= self.bot.settings.outbox_max_attempts:
            await self.store.drop_notification(row.id, f"gave up after retries: {error}")
            return True
        log.info("outbox %s failed (%s); retrying", row.id, error)
        await self.store.mark_failed(row.id, error, now + backoff(row.attempts))
        return False

    # ----- the kinds ---------------------------------------------------------------------
    async def _send(self, row: OutboxRow, batch: Batch | None = None) -> None:
        p = row.payload
        if row.kind == "turn":
            await self._turn(row, batch)
        elif row.kind in ("dm", "headsup"):
            read = self._read(batch, p.get("match_id"))
            user = await self._user(str(p["user_id"]), read)
            if user["notify"] == "off":  # they asked for no messages at all
                raise Drop("user turned notifications off")
            text = str(p["text"])
            if isinstance(p.get("turn"), dict):  # "your turn": a card to play it from
                await self._turn_dm(row, int(p["user_id"]), p["turn"], user["locale"])
                return
            if p.get("words") and p.get("match_id") is not None:  # rule words: the reader's
                names = read.names if read is not None else None
                text = await self._dm_text(p, user["locale"], names)
            await self._dm(row, int(p["user_id"]), clip(text, 2000))
        elif row.kind == "chart":
            await self._chart(row)
        elif row.kind == "remind":
            await self._remind(row)
        elif row.kind == "keepalive":
            await self._keepalive(row)
        elif row.kind == "locked":
            await self._locked_notice(row)
        elif row.kind in LEAGUE_KINDS:  # a league's threads and posts (league_posts.py)
            await league_delivery(self, row, Drop)
        else:
            raise Drop(f"unknown kind {row.kind}")

    @staticmethod
    def _read(batch: Batch | None, match_id: Any) -> MatchRow | None:
        """The match as its batch read it (None: not read with the batch)."""
        if batch is None or match_id is None:
            return None
        return batch.matches.get(int(match_id))

    async def _user(self, user_id: str, read: MatchRow | None) -> dict[str, Any]:
        """How a person wants to be told: from the match's read when they hold a seat
        there (read with it), else read now."""
        if read is not None and read.users is not None and user_id in read.users:
            return read.users[user_id]
        return await self.store.get_user(user_id)

    async def _dm_text(self, p: dict[str, Any], locale: Any, names: list[str] | None = None) -> str:
        """A private message's lines in the reader's language (their remembered locale);
        a line without words stays as stored. ``names``: the players' (else read now)."""
        if names is None:
            names = (await self.bot.service.info(int(p["match_id"]))).names
        stored = [str(x) for x in p.get("lines") or str(p["text"]).split("\n")]
        words = list(p["words"])
        return "\n".join(
            line if k >= len(words) or words[k] is None else say_line(words[k], locale, names)
            for k, line in enumerate(stored)
        )

    async def _info(self, row: OutboxRow) -> Any:
        try:
            return await self.bot.service.info(int(row.payload["match_id"]))
        except ServiceError as exc:
            raise Drop(str(exc)) from None

    async def _turn(self, row: OutboxRow, batch: Batch | None = None) -> None:
        """A turn post, or a ply folded into the current one (see "Calm posts" above)."""
        p = row.payload
        read = self._read(batch, p["match_id"])
        if read is not None:  # read with the batch: the match and its log's last ply
            info, last_ply = self.bot.service.describe(read), read.last_ply
        else:
            try:  # the match and its log's last ply (plies run 1..n) in one read
                info, last_ply = await self.bot.service.info_at_ply(int(p["match_id"]))
            except ServiceError as exc:
                raise Drop(str(exc)) from None
        if not info.thread_id:
            raise Drop("match has no thread")
        thread_id = int(info.thread_id)
        public = self._public_language(info)  # a post in the thread: the match's language
        prefs = {uid: await self._user(uid, read) for uid in p.get("mentions", [])}
        # who newly must act; payloads queued before calm posts have no "ping": all of them
        ping = set(p.get("ping", list(prefs)))
        pinged = [uid for uid, u in prefs.items() if uid in ping and u["notify"] != "off"]
        by_id = {s.user_id: s.name for s in info.seats}
        names = [f"<@{uid}>" if uid in pinged else by_id.get(uid, uid) for uid in prefs]
        # a request, vote or refusal names whom it asks or tells, never as the ones to move
        key = {"asked": "post.asked", "told": "post.told"}.get(str(p.get("notice")), "post.to_act")
        to_act = t(key, public, mentions=listing(names, public)) if names else ""
        ply = p.get("ply")
        current = ply is not None and ply >= last_ply
        live = current and info.status == "running" and not p.get("final")
        clock, deadline = "", None
        clock_days = info.settings.get("clock_days", self.bot.settings.deadline_days)
        if live and clock_days:
            people = [u for u in info.waits_for if not is_computer(u)]
            waiting = [s for u in people if (s := info.seat_of(u)) is not None]
            limit = float(clock_days) * 86400  # per seat, from when it began waiting
            clock_data = info.settings.get("clock")
            deadline = int(clocks.deadline(clock_data, waiting, row.created_at, limit))
            clock = t("post.clock", public, when=f"<t:{deadline}:R>")
        # every line kept as words is said in the match's language (docs/words.md)
        if "lines" in p:
            lines, status = said_in(
                p, [str(x) for x in p["lines"]], str(p.get("status", "")), public, info.names
            )
        else:
            lines, status = [post_body(p, public, info.names)], ""
        png, moved_on = await self._turn_png(info, p, public)
        png, unshown = await self._attachable(thread_id, png, public)
        name = f"match-{info.id}-{ply}.png"
        hidden = get_game(info.game_id).has_hidden_information
        controls = None
        if live:
            board = self.bot.service.render_enabled  # the Board button shows a picture
            hints = bool(info.settings.get("hints", True))  # the match allows /hint
            controls = move_controls(
                info.id, info.version, public, hidden=hidden, board=board, hints=hints
            )
        run = self._run_to_fold(info, p, thread_id, lines)
        if run is not None:
            assert ply is not None
            run_lines = run["lines"] if run["last_ply"] == ply else [*run["lines"], *lines]
            card = turn_card(
                info.game_name,
                info.id,
                public,
                lines=run_lines,
                status=status,
                to_act=run["to_act"],
                clock=clock,
                note=t("post.picture_follows", public) if moved_on else unshown,
                picture=picture_file(png, name) if png is not None else None,
                controls=controls,
            )
            if await self._edit(
                thread_id, int(run["message_id"]), card, mentions=list(run.get("pinged", []))
            ):
                record = {**run, "last_ply": ply, "lines": run_lines}
                await self._remember(info.id, record, row, batch)
                return
            # the run's post was deleted meanwhile: this ply gets a post of its own below
        # a new post says its lines, plus what a finishing commit added (rating changes,
        # bot/community/ratings.py), all in the match's language; the status heads it
        body = post_body(p, public, info.names, (lines, "") if "lines" in p else None)
        notice = ply is None  # a request or a vote: what it asks first, then whom
        card = turn_card(
            info.game_name,
            info.id,
            public,
            lines=[body, to_act] if notice else [body],
            status=status,
            to_act="" if notice else to_act,
            clock=clock,
            note=t("post.picture_next", public) if moved_on else unshown,
            picture=picture_file(png, name) if png is not None else None,
            controls=controls,
        )
        message = await self._post(thread_id, None, row=row, card=card, mentions=pinged)
        if ply is not None and info.status == "running" and not p.get("final"):
            record = {
                "message_id": str(message.id),
                "channel_id": thread_id,
                "at": self.clock(),
                "first_ply": ply,
                "last_ply": ply,
                "lines": lines,
                "to_act": to_act,
                "pinged": pinged,
                "layout": True,  # a card: later plies of its run may be edited into it
            }
            await self._remember(info.id, record, row, batch)
        elif ply is None and POST_KEY in info.settings:
            await self._remember(info.id, None, row, batch)  # a vote or request ends the run
        link = self._link(info.guild_id, thread_id, message)
        # the turn card for whoever chose DMs: the board, the deadline and the move controls
        turn = {
            "match_id": info.id,
            "game": info.game_name,
            "ply": ply,
            "version": info.version,
            "link": link,
            "deadline": deadline,
            "hidden": hidden,
            "lang": public,  # the board is the thread's (its words in the match's language)
        }
        dms = [
            Notification(
                "dm",
                {
                    "user_id": uid,
                    "text": t(
                        "dm.turn",
                        prefs[uid]["locale"],
                        match=info.id,
                        game=info.game_name,
                        link=link,
                    ),
                    "turn": turn,
                },
                key=f"tx{row.id}:{uid}",  # what it announces: queued again, found again
            )
            for uid in pinged
            if prefs[uid]["notify"] == "dm" and live
        ]
        if dms:  # not tied to the match: a closed DM must never hold up the thread
            await self.store.enqueue(None, dms)

    async def _turn_png(
        self, info: Any, p: dict[str, Any], public: str
    ) -> tuple[bytes | None, bool]:
        """The board after this post's ply and whether the match has moved on since (the
        picture is then left to the post or edit queued behind: a post never shows a board
        other than its own). A service started without pictures (render=False) posts
        without them too; a picture that cannot be drawn must not block the post."""
        if p.get("ply") is None or info.status == "lobby" or not self.bot.service.render_enabled:
            return None, False
        try:
            png = await self.bot.service.turn_picture(info.id, int(p["ply"]), public)
        except Exception:
            log.exception("picture for match %s ply %s failed", info.id, p.get("ply"))
            return None, False
        return png, png is None

    async def _attachable(
        self, channel_id: int, png: bytes | None, lang: str
    ) -> tuple[bytes | None, str]:
        """The board, or none and the line saying why where the bot may not attach files
        there (``bot/discord/permissions.py``: the managers are told once)."""
        if png is None or await self.permits.attachable(channel_id):
            return png, ""
        return None, note_line(lang)

    def _run_to_fold(
        self, info: Any, p: dict[str, Any], thread_id: int, lines: list[str]
    ) -> dict[str, Any] | None:
        """The current turn post to fold this ply into, or None for a new post.

        The service marks a ply ``fold`` when the seats to act did not change. It joins the
        post recorded in the match's settings when that post holds the ply just before (or
        this very ply: a retry after the edit), sits in the match's thread, is younger than
        :data:`EDIT_WINDOW` and has room for the lines. Posts of a match go out in order,
        so the record is the one the previous ply left. A run whose post is classic (made
        before posts were cards: no ``layout`` mark) continues in a new post, a card."""
        run = info.settings.get(POST_KEY)
        if not p.get("fold") or p.get("ply") is None or not isinstance(run, dict):
            return None
        if not run.get("layout"):
            return None
        ply = int(p["ply"])
        if run.get("channel_id") != thread_id or run.get("last_ply") not in (ply - 1, ply):
            return None
        if self.clock() - float(run.get("at", 0.0)) > EDIT_WINDOW:
            return None
        if run["last_ply"] != ply and len("\n".join([*run["lines"], *lines])) > FOLD_MAX_CHARS:
            return None
        return run

    async def _remember(
        self,
        match_id: int,
        record: dict[str, Any] | None,
        row: OutboxRow | None = None,
        batch: Batch | None = None,
    ) -> None:
        """Keep (or forget) which message is the match's current turn post: written now,
        or — for an item of a batch that read the match — with the item's mark when the
        batch settles, computed from the settings as read (written only if unchanged)."""
        read = self._read(batch, match_id)
        if read is not None and row is not None and batch is not None:
            settings = _remembering(_loads(read.settings_text), record)
            batch.remembered[row.id] = (
                Remembered(row.id, match_id, read.settings_text, settings),
                record,
            )
            return
        await self.store.update_settings(
            match_id, lambda settings, _version: _remembering(settings, record), wake=False
        )

    async def _edit(
        self, channel_id: int, message_id: int, card: Card, *, mentions: list[str]
    ) -> bool:
        """Edit a turn post into ``card``: new words, the new board (``attachments`` lists
        every file the message keeps, so the old board goes; none when the match moved
        on) and the new buttons. The mentions stay those of the original post, so nobody
        is pinged again. An edit is idempotent: a retry after a lost reply changes
        nothing. False when the message no longer exists (deleted by someone) or Discord
        refuses to edit it because it is too old. A thread that archived since the last
        ply refuses the edit (50083): it is unarchived and the edit made again; a locked
        one (160005) raises :class:`ThreadLocked` (``bot/discord/resend.py``)."""
        allowed = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(int(u)) for u in mentions]
        )
        message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        for attempt in range(2):
            try:
                await message.edit(attachments=card.files, view=card.view, allowed_mentions=allowed)
            except discord.HTTPException as exc:
                # deleted meanwhile, or too old after all (clocks disagree): post anew
                if exc.code in (UNKNOWN_MESSAGE, OLD_MESSAGE_EDITS):
                    return False
                if exc.code == THREAD_ARCHIVED and attempt == 0:
                    await unarchive(self.bot, channel_id)
                    for file in card.files:  # sent once already: read again from the start
                        file.reset()
                    continue
                raise
            return True
        return True  # not reached: the second attempt returns or raises

    async def _chart(self, row: OutboxRow) -> None:
        """The score chart of a finished match, the post after its final result."""
        info = await self._info(row)
        if not info.thread_id:
            raise Drop("match has no thread")
        if not self.bot.service.render_enabled:
            raise Drop("pictures are off")
        public = self._public_language(info)
        png = await chart_png(self.store, info.id, public)
        if png is None:
            raise Drop("match is not finished")
        if not await self.permits.attachable(int(info.thread_id)):
            raise Drop("missing permission Attach Files: a chart is a picture")
        card = picture_card(
            info.game_name,
            info.id,
            public,
            text=t("chart.post", public, match=info.id),
            picture=picture_file(png, f"match-{info.id}-scores.png"),
        )
        await self._post(int(info.thread_id), None, row=row, card=card, mentions=[])

    async def _remind(self, row: OutboxRow) -> None:
        """A reminder is only worth sending while the wait it was made for is still on:
        the seat is still waited for since the same start (other seats' moves meanwhile
        do not make it obsolete)."""
        p = row.payload
        info = await self._info(row)
        uid = str(p["user_id"])
        seat = info.seat_of(uid)
        if "start" in p and seat is not None:
            since = info.settings.get("clock", {}).get("since", {}).get(str(seat))
            same_wait = since is None or float(since) == float(p["start"])
        else:  # queued before reminders followed the seat's clock
            same_wait = info.version == p.get("version")
        if not same_wait or uid not in info.waits_for:
            raise Drop("obsolete: the board changed")
        user = await self.store.get_user(uid)
        if user["notify"] == "off":
            raise Drop("user turned notifications off")
        if not info.thread_id:
            raise Drop("match has no thread")
        thread_id = int(info.thread_id)
        if user["notify"] == "dm":
            link = f"https://discord.com/channels/{info.guild_id}/{thread_id}"
            text = t("remind.dm", user["locale"], match=info.id, game=info.game_name, link=link)
            text += self._remind_times(info, seat, p, row, user["locale"])
            view = mute_view(info.id, info.version, user["locale"])
            await self._dm(row, int(uid), text, view=view)
            return
        public = self._public_language(info)
        text = t("remind.post", public, mention=f"<@{uid}>", match=info.id)
        await self._post(
            thread_id,
            text + self._remind_times(info, seat, p, row, public),
            row=row,
            view=mute_view(info.id, info.version, public),
            mentions=[uid],
        )

    def _remind_times(
        self, info: Any, seat: int | None, p: dict[str, Any], row: OutboxRow, lang: str
    ) -> str:
        """A reminder's times, as Discord timestamps each reader sees in their own zone:
        when the wait began and, on a clock, when it runs out."""
        words = ""
        if "start" in p:
            words += " " + t("remind.since", lang, since=discord_time(float(p["start"]), "R"))
        clock_days = info.settings.get("clock_days", self.bot.settings.deadline_days)
        if clock_days and seat is not None:
            clock_data = info.settings.get("clock")
            ends = clocks.deadline(clock_data, [seat], row.created_at, float(clock_days) * 86400)
            words += " " + t("post.clock", lang, when=discord_time(ends, "R"))
        return words

    async def _tell_locked(self, row: OutboxRow) -> None:
        """Queue the one notice of a locked match thread (keyed by the thread: queued
        again by every post the lock refuses, it is stored once and said once)."""
        match_id = row.payload.get("match_id")
        if match_id is None:
            return
        try:
            info = await self.bot.service.info(int(match_id))
        except ServiceError:
            return
        if not info.thread_id or not info.channel_id:
            return
        payload = {"match_id": info.id, "thread_id": info.thread_id, "channel": info.channel_id}
        note = Notification("locked", payload, key=locked_key(info.thread_id))
        await self.store.enqueue(None, [note])

    async def _locked_notice(self, row: OutboxRow) -> None:
        """Say in the channel the match was opened in, in the match's language, that its
        thread is locked and the bot cannot post there until a manager unlocks it."""
        info = await self._info(row)
        public = self._public_language(info)
        text = t(
            "post.thread_locked", public, match=info.id, thread=f"<#{row.payload['thread_id']}>"
        )
        await self._post(int(row.payload["channel"]), text, row=row, mentions=[])

    async def prune(self, now: float | None = None) -> int:
        """Delete the outbox's settled rows older than ``outbox_retention_days``, in
        slices; returns how many. :meth:`run_forever` calls it hourly."""
        now = self.clock() if now is None else now
        before = now - self.bot.settings.outbox_retention_days * 86400
        pruned = 0
        while True:
            n = await self.store.prune_sent(before, PRUNE_SLICE)
            pruned += n
            if n < PRUNE_SLICE:
                break
        self.pruned_at = now
        return pruned

    async def _keepalive(self, row: OutboxRow) -> None:
        """Keep a running match's thread from auto-archiving: unarchive it and flip its
        archive duration (a thread edit counts as activity)."""
        info = await self._info(row)
        if info.status != "running" or not info.thread_id:
            raise Drop("match not running")
        duration = int(row.payload.get("duration", 10080))
        thread = self.bot.get_channel(int(info.thread_id))
        if thread is None:
            thread = await self.bot.fetch_channel(int(info.thread_id))
        if not isinstance(thread, discord.Thread):
            raise Drop("the match's thread is not a thread")
        await thread.edit(archived=False, auto_archive_duration=duration)  # type: ignore[arg-type]

    async def _dm(
        self, row: OutboxRow, user_id: int, text: str, view: discord.ui.View | None = None
    ) -> None:
        channel = await self.bot.create_dm(discord.Object(user_id))
        await self._post(channel.id, text, row=row, view=view, mentions=[])

    async def _turn_dm(
        self, row: OutboxRow, user_id: int, turn: dict[str, Any], locale: str
    ) -> None:
        """The "your turn" DM as a card in the reader's language: the jump link, the
        deadline, the board of the post's ply — the thread's picture, in the match's
        language like every public picture (drawn once, shared); none when the match has
        moved on since — and the move controls of the thread's post, which answer in the
        DM as in the thread (the same dynamic items: ``bot/discord/panel.py``)."""
        match_id, ply = int(turn["match_id"]), turn.get("ply")
        png = None
        if ply is not None and self.bot.service.render_enabled:
            try:
                lang = str(turn.get("lang") or locale)
                png = await self.bot.service.turn_picture(match_id, int(ply), lang)
            except Exception:  # a DM without its picture is better than none
                log.exception("picture for the DM of match %s ply %s failed", match_id, ply)
        game = str(turn["game"])
        deadline = turn.get("deadline")
        card = dm_turn_card(
            game,
            match_id,
            int(turn["version"]),
            locale,
            text=t("dm.turn", locale, match=match_id, game=game, link=turn["link"]),
            clock=t("post.clock", locale, when=f"<t:{int(deadline)}:R>") if deadline else "",
            picture=picture_file(png, f"match-{match_id}-{ply}.png") if png else None,
            hidden=bool(turn.get("hidden")),
        )
        channel = await self.bot.create_dm(discord.Object(user_id))
        await self._post(channel.id, None, row=row, card=card, mentions=[])

    async def _post(
        self,
        channel_id: int,
        content: str | None,
        *,
        row: OutboxRow,
        view: discord.ui.View | None = None,
        card: Card | None = None,
        mentions: list[str],
    ) -> discord.Message:
        """Post ``row``'s message once. With a nonce (``tx<row id>``): discord.py sends it
        with ``enforce_nonce``, so Discord answers a second message with the same nonce
        (a retry after a lost reply) with the first one instead of posting it again
        (discord-api-docs ``resources/message.mdx`` "Create Message", ``enforce_nonce``) —
        for a few minutes only; so a row claimed before is first looked for in the
        channel, and found, not sent again (``bot/discord/resend.py``). A ``card`` is a
        layout message: its view and its files, no content (``content`` None), and the
        row's mark."""
        allowed = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(int(u)) for u in mentions]
        )
        extra: dict[str, Any] = {}
        if card is not None:
            mark_card(card, row.id)
            extra["view"] = card.view
            if card.files:
                extra["files"] = card.files
        elif view is not None:
            extra["view"] = view
        found = await find_sent(self.bot, channel_id, row, content, card)
        if found is not None:
            log.info("outbox %s was already on Discord (message %s)", row.id, found.id)
            return found
        channel = self.bot.get_partial_messageable(channel_id)
        return await channel.send(content, nonce=f"tx{row.id}", allowed_mentions=allowed, **extra)

    def _public_language(self, info: Any) -> str:
        """The language of a match's public posts: the match's own (chosen when it was
        created, changeable in /game settings); the server's for an older match."""
        return match_language(info.settings, self._guild_locale(info.guild_id))

    def _guild_locale(self, guild_id: str | None) -> str:
        """The server's preferred locale for public posts (its community language), as
        interactions give it in ``guild_locale``; English when the server is unknown (not
        in the gateway's cache, or a direct message)."""
        guild = self.bot.get_guild(int(guild_id)) if guild_id else None
        locale = getattr(guild, "preferred_locale", None)
        return str(getattr(locale, "value", locale) or "en-US")

    @staticmethod
    def _link(guild_id: str | None, channel_id: int, message: discord.Message) -> str:
        return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message.id}"
