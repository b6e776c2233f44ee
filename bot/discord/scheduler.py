"""Reminders, clocks and thread keep-alive, reconciled from the database.

Why a reconcile loop rather than timers: a bot restarted after a day must know what is
due without having remembered anything. Each :meth:`Scheduler.tick` claims the running
matches whose stored "next due" time has come (an indexed query: at scale most matches
need nothing this minute, so none of those is read), compares each with what the
``schedule`` table remembers about it (the version its current turn began at, when,
reminders sent per player, last keep-alive), queues what is due through the outbox — so
reminders are retried and ordered like every other post — and stores when it next needs a
look. Every change to a match (a move, its settings, a player's preferences) marks it due
at once in the same transaction, so nothing waits for a stale time. The claim is a lease:
of several processes one handles a match, and a dead one's matches are taken over.

- Clocks, one per seat (``bot/matches/clocks.py``): a seat the game waits for has ``clock_days``
  (match settings, default ``deadline_days``) from when it began waiting — as the match's
  settings record it, in the transaction of the move that made it wait — less the time
  its player was away (``/notify away``); then ``service.expire_turn(match, version,
  clock_action, seat)`` runs. A version mismatch (someone moved meanwhile) is simply
  ignored. Computer seats have no clock (they move by themselves).
- Reminders: only to the seats the game waits for (``Game.waits_for``: not a Pastiche
  trader waiting for answers to their own offer), every ``reminder_hours`` (the player's
  own /notify value, else the match's, else the default) counted from when that seat
  began waiting (the clock map), so another seat's move does not restart them; at most
  ``reminder_max`` per wait, never in the player's quiet hours, never after "mute for
  this turn" (which lasts while that seat keeps waiting), never for players who turned
  notifications off or are away.
- Heads-up: once per wait, a DM to the player seated after each seat waited for, if they
  asked for it (/notify heads_up). Seat order is a guess at "next" that fits most games.
- Keep-alive: every ``keepalive_days`` a thread edit so Discord does not archive it.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot.computers.players import is_computer
from bot.discord.league_posts import advance_leagues
from bot.matches import away, clocks
from bot.matches.errors import ServiceError
from bot.matches.reports import MatchInfo
from bot.storage import Notification
from bot.storage.faults import OutageLog
from render.words.catalogue import t

if TYPE_CHECKING:
    from bot.discord.client import TesseraBot

log = logging.getLogger(__name__)


def in_quiet_hours(now: float, prefs: dict[str, Any]) -> bool:
    quiet = prefs.get("quiet")
    if not quiet:
        return False
    start, end = int(quiet[0]), int(quiet[1])
    hour = int(((now / 3600.0) + float(prefs.get("utc_offset", 0))) % 24)
    if start < end:
        return start <= hour < end
    return hour >= start or hour < end


#: Matches claimed per query; a tick repeats while full batches come back.
CLAIM_BATCH = 500
#: Longest wait before a running match is looked at again even if nothing marked it due
#: (the bot's own reminder settings may have changed over a restart).
RECHECK_SECONDS = 6 * 3600.0


def next_hour(now: float, prefs: dict[str, Any]) -> float:
    """The next full hour on the player's clock (quiet hours end on a full hour)."""
    offset = float(prefs.get("utc_offset", 0)) * 3600
    return (math.floor((now + offset) / 3600) + 1) * 3600 - offset


class Scheduler:
    def __init__(self, bot: TesseraBot, clock: Callable[[], float]) -> None:
        self.bot = bot
        self.clock = clock
        self.service = bot.service
        self.store = bot.service.store
        self.outage = OutageLog(log, "scheduler tick")  # a database down: a line a minute

    async def run_forever(self) -> None:
        while True:
            try:
                await self.tick()
                self.outage.ok()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.outage.failed(exc)
            await asyncio.sleep(self.bot.settings.scheduler_seconds)

    async def tick(self, now: float | None = None) -> dict[str, int]:
        """One reconcile pass; returns counts of what it queued or did (for tests/logs)."""
        now = self.clock() if now is None else now
        done = {"expired": 0, "reminders": 0, "headsup": 0, "keepalive": 0}
        for _ in range(100):  # bounded: a match is due again only after its next time
            ids = await self.store.claim_due_matches(
                now=now,
                lease=self.bot.settings.lease_seconds,
                limit=CLAIM_BATCH,
                shards=self.bot.shard_slice,
            )
            for match_id in ids:
                try:
                    row = await self.store.get_match(match_id)
                    if row is not None and row.status == "running":
                        await self._match(self.service.describe(row), now, done)
                except Exception:  # its claim runs out and it is tried again then
                    log.exception("scheduling match %s failed", match_id)
            if len(ids) < CLAIM_BATCH:
                break
        done["leagues"] = await advance_leagues(self.bot, now)  # rounds that are due
        if any(done.values()):
            self.bot.kick()
        return done

    async def _match(self, info: MatchInfo, now: float, done: dict[str, int]) -> None:
        cfg = self.bot.settings
        sched = await self.store.get_schedule(info.id)
        if sched.get("version") != info.version:
            last = await self.store.moves(info.id, last=1)
            since = last[-1].created_at if last else now
            # reminder counts are per seat and per wait (see below): they survive other
            # seats' moves, so they are carried over, not reset, when the version changes
            sched = {
                "version": info.version,
                "since": min(since, now),
                "sent": sched.get("sent", {}),
                "last": sched.get("last", {}),
                "start": sched.get("start", {}),
                "muted": sched.get("muted", {}),
                "headsup": sched.get("headsup", False),
                "keepalive": sched.get("keepalive", now),
                "duration": sched.get("duration", 10080),
            }
        since = float(sched["since"])
        users = {
            uid: await self.store.get_user(uid) for uid in info.waits_for if not is_computer(uid)
        }
        # when this match next needs a look: the earliest of these (stored with the index)
        due = [now + RECHECK_SECONDS]

        # ----- the clocks: one per seat the game waits for --------------------------------
        clock_days = float(info.settings.get("clock_days", cfg.deadline_days) or 0)
        for uid in info.waits_for if clock_days > 0 else []:
            seat = info.seat_of(uid)
            if uid not in users or seat is None:
                continue  # a computer seat: never late
            start, used = clocks.seat_start(info.settings.get("clock"), seat, since)
            spans = away.periods(users[uid]["settings"])
            ends = clocks.runs_out_at(start, used, spans, clock_days * 86400, now)
            if now < ends:
                due.append(ends)
                continue
            action = info.settings.get("clock_action", cfg.deadline_action)
            try:
                await self.service.expire_turn(info.id, info.version, action, seat)
                done["expired"] += 1
            except ServiceError as exc:
                log.warning("clock of match %s: %s", info.id, exc)
            return  # the match changed: the next tick looks at it again

        notes: list[Notification] = []
        # ----- reminders: per seat the game waits for, from when it began waiting --------
        mute = info.settings.get("mute", {})
        starts: dict[str, float] = {}
        muted: dict[str, float] = {}
        for uid in info.waits_for:
            seat = info.seat_of(uid)
            if uid not in users or seat is None:  # computer seats move by themselves
                continue
            start = clocks.seat_start(info.settings.get("clock"), seat, since)[0]
            starts[uid] = start
            if sched.get("start", {}).get(uid) != start:  # a new wait: count afresh
                sched["sent"].pop(uid, None)
                sched["last"].pop(uid, None)
            # "mute for this turn" names the version it was clicked at; it lasts while
            # that seat keeps waiting, though other seats move meanwhile
            if mute.get(uid) == info.version or sched.get("muted", {}).get(uid) == start:
                muted[uid] = start
        sched["start"] = starts
        sched["muted"] = muted
        sched["sent"] = {u: n for u, n in sched["sent"].items() if u in starts}
        sched["last"] = {u: n for u, n in sched["last"].items() if u in starts}
        for uid, start in starts.items():
            user = users[uid]
            prefs = user["settings"]
            if user["notify"] == "off" or uid in muted:
                continue
            back = away.away_until(prefs, now)
            if back is not None:  # away: no reminders until they are back
                due.append(back)
                continue
            hours = prefs.get("reminder_hours")
            if hours is None:
                hours = info.settings.get("reminder_hours", cfg.reminder_hours)
            limit = int(info.settings.get("reminder_max", cfg.reminder_max))
            sent = int(sched["sent"].get(uid, 0))
            if not hours or sent >= limit:
                continue
            if in_quiet_hours(now, prefs):
                due.append(next_hour(now, prefs))
                continue
            next_at = float(sched["last"].get(uid, start)) + float(hours) * 3600
            if now < next_at:
                due.append(next_at)
                continue
            if sent + 1 < limit:
                due.append(now + float(hours) * 3600)
            notes.append(
                Notification(
                    "remind",
                    {"match_id": info.id, "user_id": uid, "version": info.version, "start": start},
                )
            )
            sched["sent"][uid] = sent + 1
            sched["last"][uid] = now
            done["reminders"] += 1

        # ----- heads-up for the players seated after the ones waited for ---------------
        waiting = [s for s in (info.seat_of(u) for u in info.waits_for) if s is not None]
        clock_map = info.settings.get("clock")
        wait_key = sorted([s, clocks.seat_start(clock_map, s, since)[0]] for s in waiting)
        if waiting and len(info.seats) > 2 and sched.get("headsup") != wait_key:
            sched["headsup"] = wait_key  # once per wait of these seats, not per ply
            told: set[str] = set()
            for seat in waiting:
                nxt = info.seats[(seat + 1) % len(info.seats)].user_id
                if nxt in told or nxt in info.to_act or is_computer(nxt):
                    continue
                told.add(nxt)
                user = await self.store.get_user(nxt)
                if user["settings"].get("heads_up"):
                    link = f"https://discord.com/channels/{info.guild_id}/{info.thread_id}"
                    text = t(
                        "dm.headsup", user["locale"], match=info.id, game=info.game_name, link=link
                    )
                    await self.store.enqueue(
                        None, [Notification("headsup", {"user_id": nxt, "text": text})]
                    )
                    done["headsup"] += 1

        # ----- thread keep-alive ---------------------------------------------------------
        if info.thread_id and now - float(sched["keepalive"]) >= cfg.keepalive_days * 86400:
            sched["duration"] = 4320 if sched.get("duration") == 10080 else 10080
            notes.append(
                Notification("keepalive", {"match_id": info.id, "duration": sched["duration"]})
            )
            sched["keepalive"] = now
            done["keepalive"] += 1
        if info.thread_id:
            due.append(float(sched["keepalive"]) + cfg.keepalive_days * 86400)

        if notes:
            await self.store.enqueue(info.id, notes)
        # always written: the claim moved the due time to the end of the lease
        await self.store.set_schedule(info.id, sched, due_at=max(min(due), now))
