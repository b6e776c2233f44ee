"""Reminders, clocks and thread keep-alive, reconciled from the database.

Why a reconcile loop rather than timers: a bot restarted after a day must know what is
due without having remembered anything. Each :meth:`Scheduler.tick` looks at every running
match, compares it with what the ``schedule`` table remembers about it (the version its
current turn began at, when, reminders sent per player, last keep-alive) and queues what
is due through the outbox — so reminders are retried and ordered like every other post.

- Clock: ``clock_days`` (match settings, default ``deadline_days``) after the turn began,
  ``service.expire_turn(match, version, clock_action)`` runs; a version mismatch (someone
  moved meanwhile) is simply ignored.
- Reminders: every ``reminder_hours`` (the player's own /notify value, else the match's,
  else the default), at most ``reminder_max`` per turn, never in the player's quiet hours,
  never after "mute for this turn", never for players who turned notifications off.
- Heads-up: once per turn, a DM to the player seated after the one on turn, if they
  asked for it (/notify heads_up). Seat order is a guess at "next" that fits most games.
- Keep-alive: every ``keepalive_days`` a thread edit so Discord does not archive it.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot.computer_players import is_computer
from bot.i18n import t
from bot.service import MatchInfo, ServiceError
from bot.store import Notification

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


class Scheduler:
    def __init__(self, bot: TesseraBot, clock: Callable[[], float]) -> None:
        self.bot = bot
        self.clock = clock
        self.service = bot.service
        self.store = bot.service.store

    async def run_forever(self) -> None:
        while True:
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("scheduler tick failed")
            await asyncio.sleep(self.bot.settings.scheduler_seconds)

    async def tick(self, now: float | None = None) -> dict[str, int]:
        """One reconcile pass; returns counts of what it queued or did (for tests/logs)."""
        now = self.clock() if now is None else now
        done = {"expired": 0, "reminders": 0, "headsup": 0, "keepalive": 0}
        rows = await self.store.list_matches(statuses=("running",), limit=100_000)
        for row in rows:
            try:
                info = self.service.describe(row)
                await self._match(info, now, done)
            except Exception:
                log.exception("scheduling match %s failed", row.id)
        if any(done.values()):
            self.bot.kick()
        return done

    async def _match(self, info: MatchInfo, now: float, done: dict[str, int]) -> None:
        cfg = self.bot.settings
        sched = await self.store.get_schedule(info.id)
        before = json.loads(json.dumps(sched))  # deep: nested dicts are updated in place
        if sched.get("version") != info.version:
            last = await self.store.moves(info.id, last=1)
            since = last[-1].created_at if last else now
            sched = {
                "version": info.version,
                "since": min(since, now),
                "sent": {},
                "last": {},
                "headsup": False,
                "keepalive": sched.get("keepalive", now),
                "duration": sched.get("duration", 10080),
            }
        since = float(sched["since"])

        # ----- the clock ---------------------------------------------------------------
        clock_days = float(info.settings.get("clock_days", cfg.deadline_days) or 0)
        if clock_days > 0 and info.to_act and now >= since + clock_days * 86400:
            action = info.settings.get("clock_action", cfg.deadline_action)
            try:
                await self.service.expire_turn(info.id, info.version, action)
                done["expired"] += 1
            except ServiceError as exc:
                log.warning("clock of match %s: %s", info.id, exc)
            return

        notes: list[Notification] = []
        # ----- reminders ---------------------------------------------------------------
        mute = info.settings.get("mute", {})
        for uid in info.to_act:
            if is_computer(uid):  # computer seats move by themselves (bot/computer_driver.py)
                continue
            user = await self.store.get_user(uid)
            prefs = user["settings"]
            if user["notify"] == "off" or mute.get(uid) == info.version:
                continue
            hours = prefs.get("reminder_hours")
            if hours is None:
                hours = info.settings.get("reminder_hours", cfg.reminder_hours)
            limit = int(info.settings.get("reminder_max", cfg.reminder_max))
            sent = int(sched["sent"].get(uid, 0))
            if not hours or sent >= limit or in_quiet_hours(now, prefs):
                continue
            if now < float(sched["last"].get(uid, since)) + float(hours) * 3600:
                continue
            notes.append(
                Notification(
                    "remind",
                    {"match_id": info.id, "user_id": uid, "version": info.version},
                )
            )
            sched["sent"][uid] = sent + 1
            sched["last"][uid] = now
            done["reminders"] += 1

        # ----- heads-up for the next player ---------------------------------------------
        if not sched["headsup"] and info.to_act and len(info.seats) > 2:
            sched["headsup"] = True
            acting = info.seat_of(info.to_act[0])
            if acting is not None:
                nxt = info.seats[(acting + 1) % len(info.seats)]
                user = await self.store.get_user(nxt.user_id)
                if user["settings"].get("heads_up") and nxt.user_id not in info.to_act:
                    link = f"https://discord.com/channels/{info.guild_id}/{info.thread_id}"
                    text = t(
                        "dm.headsup", user["locale"], match=info.id, game=info.game_name, link=link
                    )
                    await self.store.enqueue(
                        None, [Notification("headsup", {"user_id": nxt.user_id, "text": text})]
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

        if notes:
            await self.store.enqueue(info.id, notes)
        if sched != before:
            await self.store.set_schedule(info.id, sched)
