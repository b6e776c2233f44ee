"""The match service: the one place where rules, storage and pictures meet.

Front ends (the Discord cogs, the local console, tests) call these methods with *who* is
asking and *what* they typed; the service decides whether that person may do it, asks the
rules whether it is legal, commits the change in one transaction (move row, snapshot,
version, outbox) and only then draws the picture. A failed picture or a failed Discord post
can therefore never undo an acknowledged move, and a crash after the commit loses nothing:
the outbox still holds the turn post.

Every refusal is a :class:`~bot.matches.errors.ServiceError` whose message is written for
the player.

The service is composed of parts, one module each, that share a small core
(``bot/matches/core.py``: the store, the picture workers, the reads every part needs):
``lobby``, ``turns``, ``posts``, ``seats``, ``subs``, ``votes``, ``absences``, ``records``,
``pictures``, ``computer_seats`` and ``review``. Each part receives the core and,
explicitly, the other parts it may use. :class:`MatchService` is the one object the front
ends, the computer driver, the tools and the tests hold: it builds the parts and exposes
their public methods under the names they always had.
"""

from __future__ import annotations

from pathlib import Path

from bot.matches.absences import Absences
from bot.matches.computer_seats import ComputerSeats
from bot.matches.core import Core
from bot.matches.lobby import Lobby
from bot.matches.pictures import Pictures
from bot.matches.posts import Posts
from bot.matches.records import Records
from bot.matches.render_pool import RenderPool
from bot.matches.review import Reviews
from bot.matches.seats import Seats
from bot.matches.subs import Subs
from bot.matches.turns import Turns
from bot.matches.votes import Votes
from bot.ops import metrics
from bot.storage import Store, open_store


class MatchService:
    """Create with :meth:`open`; close with :meth:`close`.

    The public methods are the parts' own, bound here once (``service.join`` is
    ``Lobby.join`` of this service's lobby), so replacing one on the instance (as tests
    do) is what every front end then calls."""

    def __init__(
        self,
        store: Store,
        *,
        render_workers: int = 2,
        render: bool = True,
        render_processes: bool = True,
    ) -> None:
        core = self._core = Core(
            store,
            render_workers=render_workers,
            render=render,
            render_processes=render_processes,
        )
        self.store = store
        # the parts, each given the others it may use (no part knows this facade)
        absences = self._absences = Absences(core)
        records = self._records = Records(core)
        pictures = self._pics = Pictures(core, absences, records)
        posts = self._posts = Posts(core, pictures)
        turns = self._turns = Turns(core, posts, absences, records)
        lobby = self._lobby = Lobby(core, posts, absences)
        votes = self._votes = Votes(core, posts, pictures)
        seats = self._seats = Seats(core, posts, turns, records)
        subs = self._subs = Subs(core, posts)
        computers = self._computers = ComputerSeats(core)
        reviews = self._reviews = Reviews(core)
        # shared state tests and the load tool look at
        self._pool = core.pool
        self._background = core.background
        self._pictures = pictures.cache
        self.render_stats = pictures.render_stats
        # reading
        self.describe = core.describe
        self.info = core.info
        self.info_at_ply = core.info_at_ply
        # lobby and settings
        self.match_for_thread = lobby.match_for_thread
        self.list_matches = lobby.list_matches
        self.awaiting = lobby.awaiting
        self.create_match = lobby.create_match
        self.join = lobby.join
        self.leave = lobby.leave
        self.start = lobby.start
        self.set_thread = lobby.set_thread
        self.update_settings = lobby.update_settings
        self.set_game_options = lobby.set_game_options
        self.options_form_for = lobby.options_form_for
        self.mute_turn = lobby.mute_turn
        # away
        self.go_away = absences.go_away
        self.come_back = absences.come_back
        self.away_until = absences.away_until
        self.away_notes = absences.away_notes
        # playing
        self.legal_moves = turns.legal_moves
        self.turn_for = turns.turn_for
        self.composers = turns.composers
        self.compose = turns.compose
        self.play = metrics.timed(metrics.MOVE_SECONDS, turns.play)  # /metrics: its latency
        # the table decides: abort votes, undo requests
        self.abort = votes.abort
        self.undo = votes.undo
        self.answer_undo = votes.answer_undo
        # seats given up
        self.resign = seats.resign
        self.expire_turn = seats.expire_turn
        # substitutes
        self.offer_seat = subs.offer_seat
        self.propose_sub = subs.propose_sub
        self.vote_sub = subs.vote_sub
        self.answer_sub = subs.answer_sub
        self.withdraw_sub = subs.withdraw_sub
        self.open_subs = subs.open_subs
        self.set_left = subs.set_left
        self.player_left = subs.player_left
        # history, records, past states
        self.state_at = records.state_at
        self.history = records.history
        self.export_record = records.export_record
        self.audit = records.audit
        # pictures
        self.turn_picture = pictures.turn_picture
        self.picture = pictures.picture
        self.hand = pictures.hand
        # computer players and hints
        self.add_computer = computers.add_computer
        self.remove_computer = computers.remove_computer
        self.computer_turn = computers.computer_turn
        self.hint_turn = computers.hint_turn
        self.count_hint = computers.count_hint
        # post-game reviews (judged in the computer workers the caller passes)
        self.reviewable = reviews.source
        self.review = reviews.review
        self.review_pictures = reviews.pictures

    @classmethod
    async def open(
        cls,
        path: Path | str,
        *,
        render_workers: int = 2,
        render: bool = True,
        synchronous: str = "NORMAL",
        render_processes: bool = True,
    ) -> MatchService:
        return cls(
            await open_store(path, synchronous=synchronous),
            render_workers=render_workers,
            render=render,
            render_processes=render_processes,
        )

    @property
    def render_pool(self) -> RenderPool:
        """The picture workers (animated replays run their long jobs there too)."""
        return self._pool

    @property
    def render_enabled(self) -> bool:
        """Whether committed changes get their public picture drawn (False in tools and
        tests that need no pictures)."""
        return self._core.render_enabled

    @render_enabled.setter
    def render_enabled(self, value: bool) -> None:
        self._core.render_enabled = value

    async def close(self) -> None:
        """Wait for the pictures still being drawn, then close the store and the workers."""
        await self._core.close()
