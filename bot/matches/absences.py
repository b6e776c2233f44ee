"""Players away from their matches (``/notify away``, ``/notify back``) as the service
sees them: going away and coming back, and the lines that say who is away now (on a
turn post, the match list and the picture's band).

The rules of away periods are the pure functions of ``bot/matches/away.py``; this part
adds the reads and writes of the user's preferences through the core's store. It touches
nothing else.
"""

from __future__ import annotations

from typing import Any

from bot.computers.players import is_computer
from bot.matches import away
from bot.matches.core import Core
from bot.matches.errors import NotAllowed
from bot.storage import MatchRow, SeatRow
from render.words.catalogue import t
from render.words.stamps import discord_time
from rules import Game


class Absences:
    """Away periods of players and the words that say them."""

    def __init__(self, core: Core) -> None:
        self._core = core
        self._store = core.store

    async def go_away(self, user_id: str, days: int, now: float | None = None) -> float:
        """``/notify away``: pause the user's clocks and reminders in all their matches for
        ``days`` days from now (replacing a current away period); returns when they are
        back. Refused, in words saying how many days remain, beyond 14 days in any 30."""
        now = self._store.now() if now is None else now
        user = await self._store.get_user(user_id)
        try:
            prefs = away.go_away(user["settings"], days, now)
        except away.AwayRefused as exc:
            raise NotAllowed.said(
                "away.refused", n=exc.days_left, max=away.MAX_DAYS, window=away.WINDOW_DAYS
            ) from None
        await self._store.set_user(user_id, settings=prefs)  # marks their matches due
        return now + days * away.DAY

    async def come_back(self, user_id: str, now: float | None = None) -> None:
        """``/notify back``: end the current away period now; the clocks run again with
        the time they had left. Refused when the user is not away."""
        now = self._store.now() if now is None else now
        prefs = away.come_back((await self._store.get_user(user_id))["settings"], now)
        if prefs is None:
            raise NotAllowed.said("away.not_away")
        await self._store.set_user(user_id, settings=prefs)

    async def away_lines(
        self, match: MatchRow, game: Game, state: dict[str, Any]
    ) -> list[dict[str, Any]]:
        """A turn post's lines, as words, for the players the game now waits for who are
        away ("Bob is away until 12 Dec"), so the table knows why nothing happens. From the
        preferences read with the match (no read of its own on the move's path)."""
        acting = set(game.to_act(state))
        seats = {
            s.seat: s.name for s in match.seats if s.seat in acting and not is_computer(s.user_id)
        }
        if not seats:
            return []
        back = await self.away_until(match.id, self._store.now(), prefs=match.preferences)
        return [{"away": seats[s], "until": until} for s, until in back.items() if s in seats]

    async def away_until(
        self, match_id: int, now: float, prefs: dict[int, dict[str, Any]] | None = None
    ) -> dict[int, float]:
        """Seat -> when its player is back, for the players of the match away now
        (``prefs``: the seats' preferences if already read, else they are read)."""
        if prefs is None:
            prefs = await self._store.seat_preferences(match_id)
        back = {seat: away.away_until(p, now) for seat, p in prefs.items()}
        return {seat: until for seat, until in back.items() if until is not None}

    async def away_notes(
        self,
        match_id: int,
        seats: list[SeatRow],
        now: float,
        lang: str = "en",
    ) -> list[str]:
        """A line per player of ``seats`` who is away now: "Bob is away until 12 Dec"."""
        names = {s.seat: s.name for s in seats}
        return [
            t("away.status", lang, name=names[seat], date=discord_time(until, "D"))
            for seat, until in (await self.away_until(match_id, now)).items()
            if seat in names
        ]
