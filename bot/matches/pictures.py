"""The match's pictures: the public board (now, after a ply, for a turn post), a
player's private hand, and the board drawn behind a committed change.

Drawing happens in the render pool (``bot/matches/render_pool.py``); this part keeps the
small cache of public pictures, shares one drawing between simultaneous requests, drops
a picture whose match has moved on before a worker was free, and counts it all
(:class:`RenderStats`). It reads the core (the match, the store, the pool), the
absences part (who is away, for the picture's band) and the records part (an older
ply's state, the last move in words); it changes nothing stored.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from bot.matches.absences import Absences
from bot.matches.core import Core
from bot.matches.errors import NotAllowed, no_play_key
from bot.matches.records import Records
from bot.matches.reports import User
from bot.matches.rows import picture_end, row_said
from bot.storage import MatchRow
from render.alt_text import Described
from render.words.catalogue import match_language, picture_language
from rules import get_game

log = logging.getLogger(__name__)


@dataclass(slots=True)
class RenderStats:
    """Counters of the picture pool, read by ``python -m bot load`` (cheap: a few adds)."""

    pictures: int = 0
    #: time spent drawing + encoding inside the render workers
    busy_s: float = 0.0
    #: time callers spent awaiting a picture (queueing for a slot included)
    awaited_s: float = 0.0
    #: largest number of pictures waiting for or holding a slot at once
    max_waiting: int = 0
    waiting: int = 0
    #: the largest peak memory (maxrss, KB) a render worker process reported
    worker_maxrss_kb: int = 0
    #: pictures not drawn because their match had moved on before a worker was free
    dropped: int = 0


class Pictures:
    """The pictures of matches, drawn in the render pool and cached (public ones only)."""

    def __init__(self, core: Core, absences: Absences, records: Records) -> None:
        self._core = core
        self._store = core.store
        self._absences = absences
        self._records = records
        #: the newest public pictures, by (match, ply, seat, language)
        #: (each a PNG with its description in words, ``render.alt_text.Described``)
        self.cache: OrderedDict[tuple[int, int, int | None, str], Described] = OrderedDict()
        #: pictures being drawn, by cache key: a second request awaits the same one
        self._drawing: dict[tuple[int, int, int | None, str], asyncio.Future[Described | None]] = {}
        #: per match, the newest ply whose public picture was asked for: an older picture
        #: still waiting for a worker is dropped (nobody needs a board that has changed)
        self._newest: dict[int, int] = {}
        self.render_stats = RenderStats()

    async def picture_behind(self, match: MatchRow, ply: int) -> Described | None:
        """The public picture of ``ply``, drawn after the commit; dropped (None) if the
        match moves on before a render worker is free."""
        assert match.state is not None
        self._newest[match.id] = max(ply, self._newest.get(match.id, -1))
        try:
            return await self._render(
                match.id,
                match.game_id,
                match.state,
                match.names,
                None,
                ply,
                match_language(match.settings),  # the language its post is delivered in
                droppable=True,
                end=picture_end(match, match_language(match.settings)),
            )
        except Exception:  # a picture must never undo a committed move
            log.exception("rendering match %s failed", match.id)
            return None
        finally:
            if self._newest.get(match.id) == ply:  # nothing newer asked for: forget it
                del self._newest[match.id]

    async def _render(
        self,
        match_id: int,
        game_id: str,
        state: dict[str, Any],
        names: list[str],
        seat: int | None,
        ply: int,
        lang: str = "en",
        *,
        droppable: bool = False,
        end: dict[str, Any] | None = None,
    ) -> Described | None:
        """The picture of ``state`` (log row ``ply``) for ``seat``. ``droppable``: give up
        (None) if, when a worker is free, a newer ply of this match was asked for; else
        always a picture. Requests for the same picture share one drawing. ``end``: what
        the public view of an ended match gets (``bot.matches.rows.picture_end``: how it
        ended, and the final ranking the picture draws)."""
        lang = picture_language(lang)  # 'en-US', 'en-GB' and unknown locales share English
        key = (match_id, ply, seat, lang)
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        if seat is not None:  # a hand: its key names no state version, so never shared
            return await self._draw(
                match_id, game_id, state, names, seat, ply, lang, droppable, None
            )
        pending = self._drawing.get(key)
        if pending is not None:
            png = await asyncio.shield(pending)
            if png is not None or droppable:
                return png
        future: asyncio.Future[Described | None] = asyncio.get_running_loop().create_future()
        self._drawing[key] = future
        try:
            png = await self._draw(match_id, game_id, state, names, seat, ply, lang, droppable, end)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: waiters re-raise it, nobody logs it twice
            raise
        else:
            future.set_result(png)
        finally:
            if self._drawing.get(key) is future:
                del self._drawing[key]
        if png is not None:  # public only (hands returned above): private is never cached
            self.cache[key] = png
            while len(self.cache) > 64:
                self.cache.popitem(last=False)
        return png

    async def _draw(
        self,
        match_id: int,
        game_id: str,
        state: dict[str, Any],
        names: list[str],
        seat: int | None,
        ply: int,
        lang: str,
        droppable: bool,
        end: dict[str, Any] | None,
    ) -> Described | None:
        async def view() -> dict[str, Any]:  # built once a render slot is free
            seen = get_game(game_id).view(state, seat)
            if seat is None and end:  # how it ended (no turn marks), its final ranking
                seen = {**seen, **end}
            ended = bool(end and "ended" in end)  # then nobody is to move: nobody is away
            if seat is None and not ended and get_game(game_id).to_act(state):  # who is away
                back = await self._absences.away_until(match_id, self._store.now())
                if back:
                    seen = {**seen, "away": {str(s): until for s, until in back.items()}}
            if seat is None and ply >= 0:
                last = await self._last_words(match_id, game_id, ply, names, lang)
                if last:
                    seen = {**seen, "last_move": last}
            return seen

        def wanted() -> bool:
            return self._newest.get(match_id, ply) <= ply

        stats = self.render_stats
        started = time.perf_counter()
        stats.waiting += 1
        stats.max_waiting = max(stats.max_waiting, stats.waiting)
        try:
            drawn = await self._core.pool.render(
                game_id, view, names, seat, lang, wanted=wanted if droppable else None
            )
        finally:
            stats.waiting -= 1
        stats.awaited_s += time.perf_counter() - started
        if drawn is None:
            stats.dropped += 1
            return None
        png, busy = drawn
        stats.pictures += 1
        stats.busy_s += busy
        stats.worker_maxrss_kb = self._core.pool.worker_maxrss_kb
        return png

    async def _last_words(
        self, match_id: int, game_id: str, ply: int, names: list[str], lang: Any = None
    ) -> str | None:
        """What log row ``ply`` did, for the picture's header band, in the picture's
        language: a move's public sentence (``rows.row_said``)."""
        if ply <= 0:
            return None
        rows = await self._store.moves(match_id, last=1)
        if not rows or rows[0].ply != ply:  # an older state: find its row
            rows = [r for r in await self._store.moves(match_id) if r.ply == ply]
        if not rows:
            return None
        return row_said(get_game(game_id), rows[0], names, lang)

    async def turn_picture(self, match_id: int, ply: int, lang: str = "en") -> Described | None:
        """The picture for the turn post of log row ``ply``: the board after that row, or
        None when the match has already moved on — the post then says the next post shows
        the board (that post is queued behind it, and the newest state is what counts)."""
        match = await self._core.load(match_id)
        if match.state is None:  # a lobby, or one closed before it started
            raise NotAllowed.said(no_play_key(match.status, False), match=match_id)
        if ply < match.last_ply:
            self.render_stats.dropped += 1
            return None
        ply = match.last_ply
        self._newest[match_id] = max(ply, self._newest.get(match_id, -1))
        try:
            return await self._render(
                match_id,
                match.game_id,
                match.state,
                match.names,
                None,
                ply,
                lang,
                droppable=True,
                end=picture_end(match, lang),
            )
        finally:
            if self._newest.get(match_id) == ply:  # nothing newer asked for: forget it
                del self._newest[match_id]

    async def picture(self, match_id: int, ply: int | None = None, lang: str = "en") -> Described:
        """The public picture, now or after log row ``ply`` (for delayed turn posts), with
        its words in ``lang`` (a language or Discord locale; the server's, for public posts)."""
        match = await self._core.load(match_id)
        if match.state is None:  # a lobby, or one closed before it started
            raise NotAllowed.said(no_play_key(match.status, False), match=match_id)
        current = match.last_ply  # read with the snapshot: a move landing now can't mix in
        if ply is None or ply >= current:
            png = await self._render(
                match_id,
                match.game_id,
                match.state,
                match.names,
                None,
                current,
                lang,
                end=picture_end(match, lang),
            )
        else:
            state = await self._records.state_at(match_id, ply)
            png = await self._render(match_id, match.game_id, state, match.names, None, ply, lang)
        assert png is not None  # not droppable: always drawn
        return png

    async def hand(
        self, match_id: int, user: User, lang: str = "en"
    ) -> tuple[Described, dict[str, Any]]:
        """The caller's private picture and view (their hand), with its words in ``lang``
        (the user's own language). Only ever for themselves."""
        match = await self._core.load(match_id)
        game, state = self._core.running(match)
        seat = self._core.seat(match, user)
        if not game.has_hidden_information:
            raise NotAllowed.said("err.no_hidden", game=game.name)
        view = game.view(state, seat)
        png = await self._render(match_id, match.game_id, state, match.names, seat, -1, lang)
        assert png is not None  # not droppable: always drawn
        return png, view
