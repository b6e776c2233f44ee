"""The shared core of the match service: what every part of it reads or starts.

It holds the store, the switch for pictures (``render_enabled``), the picture workers
(``pool``), the background tasks a committed change leaves behind (a picture drawn after
its move), and the reads and checks every part needs: a match by id (:meth:`Core.load`),
a stored match as the front ends see it (:meth:`Core.describe`), the asker's seat and a
running game. The parts (``lobby``, ``turns``, ``posts``…) receive it; it knows none of
them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from bot.matches import after_game
from bot.matches.errors import NotAllowed, NotFound, no_play_key
from bot.matches.render_pool import RenderPool
from bot.matches.reports import MatchInfo, User
from bot.matches.rows import match_ending
from bot.storage import MatchRow, Store
from render.words.catalogue import t
from render.words.posts import result_text
from render.words.say import say
from rules import Game, get_game


class Core:
    """The store, the settings and the reads shared by every part of the service."""

    def __init__(
        self,
        store: Store,
        *,
        render_workers: int = 2,
        render: bool = True,
        render_processes: bool = True,
    ) -> None:
        self.store = store
        self.render_enabled = render
        # worker processes: Pillow holds the GIL while drawing (see bot/matches/render_pool.py)
        self.pool = RenderPool(render_workers, processes=render_processes)
        self.background: set[asyncio.Task[Any]] = set()
        after_game.install(store)  # a finishing commit also rates and queues the chart

    async def close(self) -> None:
        if self.background:  # pictures still being drawn for committed moves
            await asyncio.gather(*self.background, return_exceptions=True)
        await self.store.close()
        self.pool.close()

    async def load(self, match_id: int) -> MatchRow:
        # SQLite integers are 64-bit: a larger number (typed, or forged into a button's
        # custom id) names no match rather than overflowing the driver.
        valid = isinstance(match_id, int) and 0 < match_id < 2**63
        match = await self.store.get_match(match_id) if valid else None
        if match is None:
            raise NotFound.said("svc.no_match", match=match_id)
        return match

    def describe(self, match: MatchRow, lang: Any = None) -> MatchInfo:
        """The front ends' picture of a stored match (no I/O: callers that already hold
        rows, like the scheduler's sweep, need not read each match again); its status line
        in ``lang`` (None: English)."""
        game = get_game(match.game_id)
        names = match.names
        to_act: list[str] = []
        waits_for: list[str] = []
        if match.status == "running" and match.state is not None:
            by_seat = {s.seat: s.user_id for s in match.seats}
            to_act = [by_seat[s] for s in game.to_act(match.state) if s in by_seat]
            waits_for = [by_seat[s] for s in game.waits_for(match.state) if s in by_seat]
            state = match.state  # a version's snapshot: never changed in place

            def status() -> str:
                return say(game.status(state), lang, names)

            status_text: str | Callable[[], str] = status
        elif match.status == "lobby":
            status_text = t(
                "svc.lobby_status",
                lang,
                count=len(match.seats),
                max=match.max_players,
                min=game.min_players,
            )
        elif match.status == "finished" and match.result:
            status_text = result_text(match.result, names, game.score_unit, lang)
        else:
            # the stored words say who ended it and how ("Aborted by a vote of the players")
            ending = match_ending(match, lang)
            status_text = ending["text"] if ending else t("end.aborted", lang)
        return MatchInfo(
            id=match.id,
            game_id=match.game_id,
            game_name=game.name,
            status=match.status,
            creator_id=match.creator_id,
            guild_id=match.guild_id,
            channel_id=match.channel_id,
            thread_id=match.thread_id,
            min_players=game.min_players,
            max_players=match.max_players,
            version=match.version,
            options=match.options,
            seats=match.seats,
            to_act=to_act,
            status_said=status_text,
            end_reason=match.end_reason,
            result=match.result,
            settings=match.settings,
            created_at=match.created_at,
            waits_for=waits_for,
        )

    async def info(self, match_id: int, lang: Any = None) -> MatchInfo:
        """The match now, its status line in ``lang`` (None: English)."""
        return self.describe(await self.load(match_id), lang)

    async def info_at_ply(self, match_id: int) -> tuple[MatchInfo, int]:
        """:meth:`info` and the ply its snapshot stands at (rows in the move log), from the
        same one read: a turn post asks whether its ply is still the newest."""
        match = await self.load(match_id)
        return self.describe(match), match.last_ply

    def spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self.background.add(task)
        task.add_done_callback(self.background.discard)
        return task

    def seat(self, match: MatchRow, user: User) -> int:
        seat = match.seat_of(user.id)
        if seat is not None:
            return seat
        raise NotAllowed.said("svc.not_seated", match=match.id)

    def running(self, match: MatchRow) -> tuple[Game, dict[str, Any]]:
        if match.status != "running" or match.state is None:
            key = no_play_key(match.status, match.state is not None)
            raise NotAllowed.said(key, match=match.id)
        return get_game(match.game_id), match.state
