"""The league service: creating a league, signing up and leaving, starting it, its rounds
opened by a tick (:meth:`Leagues.advance`), its standings. Built from the
:class:`~bot.matches.service.MatchService` (``Leagues(service)``), it stores leagues through
the store's league tables (``bot/storage/leagues.py``) and plays through the match service
like anyone: a league match is an ordinary match (created started, its settings saying it
belongs to the league), a player who leaves resigns through it.

Every refusal is a :class:`~bot.matches.errors.ServiceError` with a catalogue key of
``render/words/english_league.py``; nothing was changed when one is raised.
"""

from __future__ import annotations

import builtins
import logging
import secrets
from collections.abc import Sequence
from typing import Any

from bot.community.leagues.reports import (
    LeagueInfo,
    LeagueMatch,
    RoundInfo,
    Standings,
)
from bot.community.leagues.steps import Steps, announcement, info_of, league_name
from bot.community.leagues.values import (
    DEFAULT_SIGNUP_DAYS,
    MAX_PLAYERS,
    check_new,
    min_players,
)
from bot.computers.players import is_computer
from bot.matches.errors import BoardChanged, NotAllowed, NotFound, ServiceError
from bot.matches.reports import User
from bot.matches.service import MatchService
from bot.storage import Notification
from bot.storage.leagues import (
    LeagueClaimLost,
    LeaguePlayerRow,
    LeagueRow,
)
from render.words.posts import word
from render.words.stamps import discord_time

log = logging.getLogger(__name__)

#: Leagues looked at per tick at most (the rest on the next tick).
ADVANCE_BATCH = 50
#: Resignation attempts per match when a player leaves (a move racing it: try again).
RESIGN_TRIES = 5


class Leagues:
    """Leagues of a server, played through ``service``."""

    def __init__(self, service: MatchService) -> None:
        self._service = service
        self._store = service.store
        self._steps = Steps(service.store)

    # ----- reading ---------------------------------------------------------------------
    async def _load(self, league_id: int) -> LeagueRow:
        valid = isinstance(league_id, int) and 0 < league_id < 2**63
        row = await self._store.get_league(league_id) if valid else None
        if row is None:
            raise NotFound.said("league.none", league=league_id)
        return row

    async def info(self, league_id: int) -> LeagueInfo:
        """One league (refused when there is none)."""
        return info_of(await self._load(league_id))

    async def list(
        self,
        server_id: str | None,
        *,
        statuses: Sequence[str] = ("signup", "running", "finished"),
    ) -> builtins.list[LeagueInfo]:
        """The leagues of a server, newest first (cancelled ones left out by default)."""
        if server_id is None:  # the console: leagues of no server
            rows = await self._store.list_leagues(statuses=statuses)
            rows = [r for r in rows if r.guild_id is None]
        else:
            rows = await self._store.list_leagues(guild_id=server_id, statuses=statuses)
        return [info_of(r) for r in rows]

    async def leagues_of(self, user_id: str) -> builtins.list[LeagueInfo]:
        """The leagues ``user_id`` is in (signed up, not left), in sign-up or running."""
        rows = await self._store.list_leagues(user_id=user_id, statuses=("signup", "running"))
        return [info_of(r) for r in rows]

    async def league_of_match(self, match_id: int) -> LeagueMatch | None:
        """The league, round and table of a league match (None: not a league match)."""
        found = await self._store.league_of_match(match_id)
        if found is None:
            return None
        league_id, rnd, table = found
        return LeagueMatch(await self.info(league_id), rnd, table, match_id)

    async def remember(self, league_id: int, **fields: Any) -> LeagueInfo:
        """Keep the front end's bookkeeping in the league (the sign-up post's message id
        and channel…): merged into ``LeagueInfo.settings`` in one transaction."""
        await self._load(league_id)
        row = await self._store.change_league(
            league_id, lambda league: {"settings": {**league.settings, **fields}}
        )
        return info_of(row)

    # ----- creating and signing up ----------------------------------------------------
    async def create(
        self,
        *,
        server_id: str | None,
        channel_id: str | None,
        creator: User,
        game_id: str,
        format: str,
        players_per_table: int | None = None,
        rounds: int | None = None,
        days_per_move: float | None = None,
        signup_days: float = DEFAULT_SIGNUP_DAYS,
        rated: bool = True,
        language: str | None = None,
        fill: str = "computer",
        name: str | None = None,
        seed: int | None = None,
        hints: bool = False,
    ) -> LeagueInfo:
        """A new league in sign-up, and its sign-up post queued ("league", event "signup").

        ``players_per_table``: the game's fewest players when None (2 for Azul, 3 for Taj
        Mahal); ``rounds``: decided at the start from the players when None
        (:func:`~bot.community.leagues.seating.default_rounds`); ``days_per_move``: each
        league match's clock (default 3); ``signup_days``: when the sign-up closes and the
        league starts by itself (0: no deadline, a manager starts it); ``language``: the
        league's posts and matches (None: the server's); ``hints``: whether its matches
        allow hints (off by default in a league). Every value is checked and a
        wrong one refused in words naming what is allowed. Nobody is signed up yet (the
        creator joins like anyone)."""
        game, size, days, title = check_new(
            creator=creator, game_id=game_id, format=format,
            players_per_table=players_per_table, rounds=rounds, days_per_move=days_per_move,
            signup_days=signup_days, rated=rated, hints=hints, language=language, fill=fill,
            name=name,
        )  # fmt: skip
        now = self._store.now()
        deadline = now + float(signup_days) * 86400 if signup_days else None

        def posts(league_id: int) -> list[Notification]:
            row = LeagueRow(league_id, server_id, channel_id, creator.id, title, game_id,
                            format, int(size), rounds, float(days), deadline, rated, language,
                            fill, "signup", 0, 0, 0, {}, now, now)  # fmt: skip
            params = {
                "name": league_name(row),
                "format": word(f"league.format.{format}"),
                "game": game.name,
                "size": int(size),
            }
            if deadline is None:
                said = word("league.signup_post_open", **params)
            else:
                said = word("league.signup_post", **params, deadline=discord_time(deadline, "f"))
            return [announcement(row, "signup", 0, said, signup_until=deadline)]

        league_id = await self._store.create_league(
            guild_id=server_id,
            channel_id=channel_id,
            creator_id=creator.id,
            name=title,
            game_id=game_id,
            format=format,
            table_size=int(size),
            rounds=rounds,
            days_per_move=float(days),
            signup_until=deadline,
            rated=rated,
            language=language,
            fill=fill,
            seed=secrets.randbits(62) if seed is None else seed,
            notifications=posts,
            settings={"hints": hints},
        )
        return await self.info(league_id)

    async def join(self, league_id: int, user: User) -> LeagueInfo:
        """Sign up for a league in sign-up (refused once it started, when full, twice)."""
        await self._load(league_id)
        if is_computer(user.id):
            raise NotAllowed.said("league.computer")

        def mutate(league: LeagueRow) -> dict[str, Any]:
            self._check_signup(league)
            if any(p.user_id == user.id for p in league.players):
                raise NotAllowed.said("league.joined", league=league.id)
            if len(league.players) >= MAX_PLAYERS:
                raise NotAllowed.said("league.full", league=league.id, max=MAX_PLAYERS)
            return {"join": LeaguePlayerRow(user.id, user.name, 0.0)}

        return info_of(await self._store.change_league(league_id, mutate))

    def _check_signup(self, league: LeagueRow) -> None:
        if league.status in ("finished", "cancelled"):
            raise NotAllowed.said("league.over", league=league.id)
        if league.status != "signup":
            raise NotAllowed.said("league.not_signup", league=league.id)
        if league.signup_until is not None and self._store.now() >= league.signup_until:
            raise NotAllowed.said("league.closed", league=league.id)

    async def leave(self, league_id: int, user: User) -> LeagueInfo:
        """Leave a league. In sign-up the sign-up is taken back. Running: no new pairings,
        and in each of the league's running matches where they hold a seat they resign
        (the match service's resignation: at a table of three or more a computer takes the
        seat and plays it out, the leaver ranked last; at two the match ends, the other
        wins — a computer playing out a lost seat would only keep the opponent waiting)."""
        await self._load(league_id)

        def mutate(league: LeagueRow) -> dict[str, Any]:
            me = next((p for p in league.players if p.user_id == user.id), None)
            if league.status in ("finished", "cancelled"):
                raise NotAllowed.said("league.over", league=league.id)
            if me is None or me.left_at is not None:
                raise NotAllowed.said("league.not_in", league=league.id)
            if league.status == "signup":
                return {"remove": user.id}
            return {"left": user.id}

        row = await self._store.change_league(league_id, mutate)
        if row.status == "running":
            await self._resign_running(row, user)
        return info_of(row)

    async def _resign_running(self, league: LeagueRow, user: User) -> None:
        for m in await self._store.league_matches(league.id):
            if m.status != "running" or all(s.user_id != user.id for s in m.seats):
                continue
            for _ in range(RESIGN_TRIES):
                try:
                    await self._service.resign(m.match_id, user)
                    break
                except BoardChanged:
                    continue
                except ServiceError:
                    break  # it ended meanwhile, or the seat is no longer theirs

    async def member_left(self, server_id: str, user: User) -> builtins.list[int]:
        """A member left the server: they leave every league of it they are in (see
        :meth:`leave`). Returns those leagues."""
        out = []
        for league in await self._store.list_leagues(
            guild_id=server_id, user_id=user.id, statuses=("signup", "running")
        ):
            try:
                await self.leave(league.id, user)
                out.append(league.id)
            except ServiceError:
                continue
        return out

    # ----- starting, cancelling, advancing ----------------------------------------------
    def _check_manager(self, league: LeagueRow, user: User, manager: bool) -> None:
        if not manager and user.id != league.creator_id:
            raise NotAllowed.said("league.manager_only", league=league.id)

    async def start(self, league_id: int, user: User, *, manager: bool) -> RoundInfo:
        """Start a league in sign-up now (its creator or a server manager): round 1's
        matches are opened (see :meth:`advance`)."""
        league = await self._load(league_id)
        self._check_manager(league, user, manager)
        if league.status in ("finished", "cancelled"):
            raise NotAllowed.said("league.over", league=league.id)
        if league.status != "signup":
            raise NotAllowed.said("league.not_signup", league=league.id)
        n = len(league.players)
        if n < min_players(league.table_size):
            raise NotAllowed.said(
                "league.too_few", league=league.id, min=min_players(league.table_size), n=n
            )
        try:
            return await self._steps.open_round(league)
        except LeagueClaimLost:
            raise BoardChanged.said("league.changed", league=league.id) from None

    async def cancel(self, league_id: int, user: User, *, manager: bool) -> LeagueInfo:
        """Cancel a league in sign-up or running (its creator or a server manager). Its
        matches still running go on as ordinary matches; the league no longer counts
        them. A "cancelled" announcement is queued."""
        league = await self._load(league_id)
        self._check_manager(league, user, manager)

        def mutate(row: LeagueRow) -> dict[str, Any]:
            if row.status in ("finished", "cancelled"):
                raise NotAllowed.said("league.over", league=row.id)
            return {"status": "cancelled"}

        def posts(row: LeagueRow) -> list[Notification]:
            said = word("league.cancelled_post", name=league_name(row))
            return [announcement(row, "cancelled", row.round, said)]

        return info_of(await self._store.change_league(league_id, mutate, posts))

    async def advance(self, now: float | None = None) -> builtins.list[RoundInfo]:
        """The tick (the Discord scheduler's loop; the console after each command): for
        every league whose next step is due, take it — once across processes (each step
        is claimed on the league's status, round and version in the transaction that
        writes it; a process that loses the claim skips the league).

        - sign-up past its deadline: the league starts (round 1) with enough players, else
          it is cancelled ("cancelled" post naming the count);
        - running, every match of the current round ended (finished or aborted, a clock's
          forfeit included): the next round opens, or after the last round — or when fewer
          than two players are left — the league finishes ("final" post).

        Cheap when nothing is due: one indexed read (``due_leagues``)."""
        when = self._store.now() if now is None else now
        out: builtins.list[RoundInfo] = []
        for league_id in await self._store.due_leagues(when, ADVANCE_BATCH):
            league = await self._store.get_league(league_id)
            if league is None:
                continue
            try:
                done = await self._step(league, when)
            except LeagueClaimLost:
                continue  # another process took this step
            except Exception:  # one league's failure must not stop the others' rounds
                log.exception("league %s could not advance; the next tick tries again", league_id)
                continue
            if done is not None:
                out.append(done)
        return out

    async def _step(self, league: LeagueRow, now: float) -> RoundInfo | None:
        if league.status == "signup":
            if league.signup_until is None or league.signup_until > now:
                return None
            if len(league.players) < min_players(league.table_size):
                return await self._steps.cancel_few(league)
            return await self._steps.open_round(league)
        if league.status != "running":
            return None
        matches = await self._store.league_matches(league.id)
        if any(m.round == league.round and m.status in ("lobby", "running") for m in matches):
            return None
        active = [p for p in league.players if p.left_at is None]
        if league.round >= (league.rounds or 0) or len(active) < 2:  # (or no table left)
            return await self._steps.finish(league, matches)
        return await self._steps.open_round(league, matches)

    async def standings(self, league_id: int) -> Standings:
        """The standings now, recounted from the league's matches (see
        :mod:`bot.community.leagues.standings`)."""
        league = await self._load(league_id)
        matches = await self._store.league_matches(league.id)
        rows = await self._steps.standings_of(league, matches)
        still = sum(1 for m in matches if m.status in ("lobby", "running"))
        return Standings(info_of(league), league.round, league.status, rows, still)
