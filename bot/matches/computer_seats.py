"""Computer players at a match's table: seating and unseating them in a lobby, the
turn a computer seat must decide now and a hint for a person (each a
:class:`~bot.matches.reports.SeatTurn`: the seat's own view, never the full state), and
the count of hints used.

The search itself runs in the computer driver (``bot/computers/``), which plays the
chosen move through the service like anyone else. This part reads and writes through
the core's store and uses the lobby's :func:`~bot.matches.lobby.check_lobby`.
"""

from __future__ import annotations

from typing import Any

from bot.computers.players import (
    DEFAULT_BUDGET_S,
    DEFAULT_LEVEL,
    is_computer,
    level_of,
    level_refusal,
    move_seed,
    new_computer,
)
from bot.matches.core import Core
from bot.matches.errors import InvalidMove, NotAllowed
from bot.matches.lobby import check_lobby
from bot.matches.reports import MatchInfo, SeatTurn, User
from bot.matches.rows import effective_moves
from bot.storage import MatchRow, SeatRow
from render.words.posts import listing_word
from rules import Game, get_game
from rules.ai import LEVELS


class ComputerSeats:
    """Computer players seated in lobbies, their turns, and people's hints."""

    def __init__(self, core: Core) -> None:
        self._core = core
        self._store = core.store

    async def add_computer(
        self, match_id: int, user: User, level: str = DEFAULT_LEVEL
    ) -> MatchInfo:
        """Seat a computer player at ``level`` in a lobby (any seated player may)."""
        # an unknown level is refused before the match is read, as before
        game = get_game((await self._core.load(match_id)).game_id) if level in LEVELS else None
        refusal = level_refusal(game, level)
        if refusal is not None:
            key, values = refusal
            raise InvalidMove.said(key, **values)

        def mutate(match: MatchRow) -> list[SeatRow]:
            check_lobby(match)
            self._core.seat(match, user)
            if len(match.seats) >= match.max_players:
                raise NotAllowed.said("ai.full", match=match.id, max=match.max_players)
            uid, name = new_computer(level, [(s.user_id, s.name) for s in match.seats])
            return [*match.seats, SeatRow(len(match.seats), uid, name)]

        return self._core.describe(await self._store.update_lobby(match_id, mutate))

    async def remove_computer(self, match_id: int, user: User) -> tuple[MatchInfo, str]:
        """Unseat the most recently seated computer player of a lobby; (lobby, its name)."""
        await self._core.load(match_id)
        removed: list[str] = []

        def mutate(match: MatchRow) -> list[SeatRow]:
            check_lobby(match)
            self._core.seat(match, user)
            computers = [s for s in match.seats if is_computer(s.user_id)]
            if not computers:
                raise NotAllowed.said("ai.none_seated", match=match.id)
            removed.append(computers[-1].name)
            return [s for s in match.seats if s is not computers[-1]]

        info = self._core.describe(await self._store.update_lobby(match_id, mutate))
        return info, removed[0]

    async def _seat_turn(self, match: MatchRow, game: Game, seat: int, purpose: str) -> SeatTurn:
        assert match.state is not None
        row = match.seats[seat]
        history = [(r.seat, r.notation) for r in effective_moves(await self._store.moves(match.id))]
        return SeatTurn(
            match_id=match.id,
            version=match.version,
            game_id=match.game_id,
            seat=seat,
            user=User(row.user_id, row.name),
            level=level_of(row.user_id),
            view=game.view(match.state, seat),
            history=history,
            seed=move_seed(match.seed, match.last_ply, seat, purpose),
            budget_s=float(match.settings.get("think_seconds", DEFAULT_BUDGET_S)),
        )

    async def computer_turn(self, match_id: int) -> SeatTurn | None:
        """The computer seat the match waits for now, or None. When several seats are
        waited for, they move in the game's order (``Game.waits_for``): in Pastiche those
        who owe answers to the seat on turn come first, so an answer lands before the turn
        moves on.

        Only seats in ``waits_for`` move: a computer on turn whose own offers wait for a
        person's answer waits for it, as a polite player would, instead of ending its turn
        at once and letting the offer expire before the person could read it (the game
        times the person then, not the computer; computer answerers answer first anyway)."""
        match = await self._core.load(match_id)
        if match.status != "running" or match.state is None:
            return None
        game = get_game(match.game_id)
        for seat in game.waits_for(match.state):
            if seat < len(match.seats) and is_computer(match.seats[seat].user_id):
                return await self._seat_turn(match, game, seat, "move")
        return None

    async def hint_turn(self, match_id: int, user: User) -> SeatTurn:
        """What a hint for ``user`` is computed from; refuses when hints are off for the
        match or it is not the asker's decision now."""
        match = await self._core.load(match_id)
        game, state = self._core.running(match)
        seat = self._core.seat(match, user)
        if not match.settings.get("hints", True):
            raise NotAllowed.said("hint.off", match=match.id)
        if seat not in game.to_act(state):
            waiting = [match.seats[s].name for s in game.to_act(state) if s < len(match.seats)]
            raise NotAllowed.said("hint.not_your_turn", waiting=listing_word(waiting))
        return await self._seat_turn(match, game, seat, "hint")

    async def count_hint(self, match_id: int, seat: int) -> None:
        """One more hint used by ``seat`` (kept in the match settings; shown only in the
        record of a finished match and its review), and the ply of the decision it was
        for (``hint_plies``: the review says at which moves hints were used)."""
        ply = (await self._core.load(match_id)).last_ply + 1

        def mutate(settings: dict[str, Any], _version: int) -> dict[str, Any]:
            used = dict(settings.get("hints_used", {}))
            used[str(seat)] = int(used.get(str(seat), 0)) + 1
            plies = dict(settings.get("hint_plies", {}))
            plies[str(seat)] = sorted({*plies.get(str(seat), []), ply})
            return {**settings, "hints_used": used, "hint_plies": plies}

        await self._store.update_settings(match_id, mutate)
