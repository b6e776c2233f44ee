"""A seat given up: resigning, and a seat whose clock ran out (its move made for it, or
forfeited). With two players — or no other person left — the match ends early; with
more, a computer player takes the seat and plays it out, and the giver is ranked last.

It commits through the core's store, builds its posts with ``posts``, plays a late seat's
move through :meth:`bot.matches.turns.Turns.apply` and asks ``records`` who gave up
before (the final ranking).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import Any

from bot.computers.players import (
    DEFAULT_BUDGET_S,
    DEFAULT_LEVEL,
    is_computer,
    move_seed,
    new_computer,
)
from bot.matches.clocks import clocked
from bot.matches.core import Core
from bot.matches.errors import BoardChanged
from bot.matches.posts import Posts, people, turn_post
from bot.matches.records import Records
from bot.matches.reports import Line, TurnReport, User
from bot.matches.rows import events_json, final_result, move_row
from bot.matches.turns import Turns
from bot.storage import MatchRow, SeatRow, VersionConflict
from render.words.posts import word
from rules import Event, Game, Move
from rules.ai import choose_move, levels_for
from rules.rng import Rng

log = logging.getLogger(__name__)


class Seats:
    """Resignations and late seats: who plays a seat given up, or how the match ends."""

    def __init__(self, core: Core, posts: Posts, turns: Turns, records: Records) -> None:
        self._core = core
        self._store = core.store
        self._posts = posts
        self._turns = turns
        self._records = records

    async def resign(self, match_id: int, user: User) -> TurnReport:
        """Give up.

        With two players — or when no other person is left at the table — the match ends:
        the resigner ranks last, the others by their current scores. With three or more,
        the match goes on for the others: a computer player (the match's level, default
        normal) takes the seat and plays it out through the computer driver, and the
        resigner is ranked last in the result whatever the seat scores. Each game's own
        game-over rules stay untouched; only the final ranking moves the resigner down.
        """
        match = await self._core.load(match_id)
        game, state = self._core.running(match)
        seat = self._core.seat(match, user)
        people_left = [s for s in match.seats if s.seat != seat and not is_computer(s.user_id)]
        if len(match.seats) <= 2 or not people_left:
            return await self._end_early(
                match,
                game,
                state,
                seat,
                user,
                "resign",
                word("resign.text", name=user.name),
                word("end.resigned", name=user.name),
            )
        return await self._hand_to_computer(match, game, state, seat, user)

    async def _hand_to_computer(
        self,
        match: MatchRow,
        game: Game,
        state: dict[str, Any],
        seat: int,
        user: User,
        how: str = "resign",
    ) -> TurnReport:
        """The resigner's seat goes to a computer player, in one transaction with the log
        row that says who held it until when (its event names the resigner, so the final
        ranking and the record know them after the seat has changed hands). ``how`` is
        "forfeit" for a seat whose clock ran out: the same hand-over and ranking, in the
        words of a clock (a "forfeit" row, which
        :mod:`bot.matches.holders` reads like a resignation)."""
        level = match.settings.get("level", DEFAULT_LEVEL)
        if level not in levels_for(game):
            level = DEFAULT_LEVEL
        uid, name = new_computer(level, [(s.user_id, s.name) for s in match.seats])
        prefix = "clock" if how == "forfeit" else "resign"
        label = word(f"{prefix}.label", name=user.name, computer=name)
        text = word(f"{prefix}.handed_over", name=user.name, computer=name)
        new_row = SeatRow(seat, uid, name)
        after = replace(match, seats=[new_row if s.seat == seat else s for s in match.seats])
        said: list[Line] = [text, *await self._posts.away_lines(after, game, state)]
        ply = match.last_ply + 1
        data = {"seat": seat, "name": user.name, "user_id": user.id, "by": name, "by_id": uid}
        event = Event(how, "", data | ({"how": how} if how != "resign" else {}))
        try:
            version = await self._store.commit(
                match.id,
                expected_version=match.version,
                status="running",
                state=state,
                # the words name the resigner and the computer, no seat: said without names
                moves=[move_row(how, seat, user.id, how, label, events_json([event]))],
                notifications=[
                    turn_post(
                        after,
                        state,
                        said,
                        ply=ply,
                        was_acting=people(match, game.to_act(state)),
                        named=False,
                    )
                ],
                seats=[new_row],
                settings_update=clocked(game, state, state, match.version, 1),
            )
        except VersionConflict:
            raise BoardChanged.said("svc.board_changed") from None
        after.version = version
        after.last_ply = ply
        return await self._posts.report(after, said, ply=ply, named=False)

    async def _end_early(
        self,
        match: MatchRow,
        game: Game,
        state: dict[str, Any],
        seat: int,
        user: User,
        kind: str,
        text: dict[str, Any],
        what: dict[str, Any],
    ) -> TurnReport:
        """The match ends now, before the game's own end: ``text`` for the log and the
        post, ``what`` in a few words for the result's head and the final picture
        ("Bob resigned"); both as words, stored with their English."""
        # earlier resigners below everyone, this one just above them
        how = "forfeit" if kind == "forfeit" else "resign"
        given_up = [*await self._records.resigned(match), (seat, user.name, how)]
        result = final_result(game, state, given_up, ended_by=what)
        said: list[Line] = [{"result": result, "unit": game.score_unit}]  # its head: what happened
        row = move_row(kind, seat, user.id, kind, text, [])
        ply = match.last_ply + 1
        try:
            await self._store.commit(
                match.id,
                expected_version=match.version,
                status="finished",
                state=state,
                moves=[row],
                result=result,
                end_reason=row.label,  # the row's English, said once
                notifications=[turn_post(match, state, said, ply=ply, final=True)],
            )
        except VersionConflict:
            raise BoardChanged.said("svc.board_changed") from None
        match.status, match.result = "finished", result
        return await self._posts.report(match, said, ply=ply)

    async def expire_turn(
        self, match_id: int, expected_version: int, action: str, seat: int | None = None
    ) -> TurnReport:
        """``seat``'s clock ran out at ``expected_version`` (None: the first seat the game
        waits for). The scheduler decides *when* (``bot/matches/clocks.py``); a version that no
        longer matches, or a seat no longer waited for, changes nothing.

        ``action="skip"`` makes the seat's move for it: the game's own pass where the
        rules have one (``Game.default_move``: withdraw, decline an offer, end the turn),
        else the move the *easy* computer player would make from the seat's view — so a
        skip never forfeits. ``"forfeit"``: with two players (or no other person left) the
        match ends and the late player loses; with three or more a computer player takes
        the seat and plays it out, and the late player is ranked last, as on resigning.
        """
        match = await self._core.load(match_id)
        game, state = self._core.running(match)
        if match.version != expected_version:
            raise BoardChanged.said("svc.clock_reset")
        waiting = game.waits_for(state) or game.to_act(state)
        seat = waiting[0] if seat is None and waiting else seat
        if seat is None or seat not in game.to_act(state) or seat >= len(match.seats):
            raise BoardChanged.said("svc.clock_seat")
        player = User(match.seats[seat].user_id, match.seats[seat].name)
        if action == "skip":
            move = await self._timeout_move(match, game, state, seat)
            if move is not None:
                return await self._turns.apply(
                    match, game, state, seat, player, move, kind="move", timed=True
                )
        people_left = [s for s in match.seats if s.seat != seat and not is_computer(s.user_id)]
        if len(match.seats) > 2 and people_left:
            return await self._hand_to_computer(match, game, state, seat, player, "forfeit")
        return await self._end_early(
            match,
            game,
            state,
            seat,
            player,
            "forfeit",
            word("end.forfeit_text", name=player.name),
            word("end.forfeit", name=player.name),
        )

    async def _timeout_move(
        self, match: MatchRow, game: Game, state: dict[str, Any], seat: int
    ) -> Move | None:
        """The move made for a seat whose clock ran out in skip mode: the game's own pass,
        else the easy computer player's move, decided from the seat's view only (it never
        peeks) with a seed fixed by match seed, ply and seat — the same late turn gets the
        same move in every process. None only when the seat has no legal move at all."""
        move = game.default_move(state, seat)
        if move is not None:
            return move
        seed = move_seed(match.seed, match.last_ply, seat, "clock")
        try:
            chosen = await asyncio.to_thread(
                choose_move,
                game,
                game.view(state, seat),
                seat,
                "easy",
                seed=seed,
                budget_s=float(match.settings.get("think_seconds", DEFAULT_BUDGET_S)),
            )
            return game.parse(state, seat, chosen.notation)
        except Exception:  # a search bug must not stall the match: a legal move instead
            log.exception("easy move for a late seat in match %s failed", match.id)
        legal = game.legal_moves(state, seat)
        return Rng.from_seed(seed, "fallback").choice(legal) if legal else None
