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

import asyncio
import builtins
import math
import random
import secrets
from collections.abc import Sequence
from typing import Any

from bot.community.leagues import seating, standings
from bot.community.leagues.reports import (
    FILLS,
    FORMATS,
    LeagueInfo,
    LeagueMatch,
    LeaguePlayer,
    RoundInfo,
    StandingRow,
    Standings,
    TableInfo,
    TableSeat,
)
from bot.computers.players import DEFAULT_LEVEL, is_computer, new_computer
from bot.matches.clocks import clocked
from bot.matches.errors import BoardChanged, InvalidMove, NotAllowed, NotFound, ServiceError
from bot.matches.posts import turn_post
from bot.matches.reports import Line, User
from bot.matches.rows import stored_english
from bot.matches.service import MatchService
from bot.storage import MatchRow, Notification, SeatRow
from bot.storage.leagues import (
    LeagueClaimLost,
    LeagueMatchRow,
    LeaguePlayerRow,
    LeagueRow,
    NewTable,
)
from render.words.catalogue import LANGUAGES
from render.words.posts import listing_word, word
from render.words.say import say
from render.words.stamps import discord_time
from rules import get_game
from rules.registry import game_ids
from rules.words import is_words, to_json

#: Allowed ranges (inclusive) and defaults of the values a league is created with.
ROUNDS_RANGE = (1, 30)
DAYS_RANGE = (0.25, 30.0)
DEFAULT_DAYS = 3.0
SIGNUP_RANGE = (0.0, 60.0)
DEFAULT_SIGNUP_DAYS = 7.0
NAME_LIMIT = 60
#: The most people a league takes.
MAX_PLAYERS = 64
#: Leagues looked at per tick at most (the rest on the next tick).
ADVANCE_BATCH = 50
#: Resignation attempts per match when a player leaves (a move racing it: try again).
RESIGN_TRIES = 5


def min_players(table_size: int) -> int:
    """The fewest sign-ups a league starts with: three, or one full table when larger."""
    return max(3, table_size)


def _refuse_number(key: str, value: Any, low: float, high: float, whole: bool) -> Any:
    ok = not isinstance(value, bool) and isinstance(value, int | float)
    if ok and whole and not isinstance(value, int):
        ok = False
    if ok and not (math.isfinite(float(value)) and low <= float(value) <= high):
        ok = False
    if not ok:
        shown = f"{value:g}" if isinstance(value, float) else str(value)
        raise InvalidMove.said(key, value=shown, low=f"{low:g}", high=f"{high:g}")
    return value


def _info(row: LeagueRow) -> LeagueInfo:
    game = get_game(row.game_id)
    return LeagueInfo(
        id=row.id,
        server_id=row.guild_id,
        channel_id=row.channel_id,
        creator_id=row.creator_id,
        name=row.name,
        game_id=row.game_id,
        game_name=game.name,
        format=row.format,
        players_per_table=row.table_size,
        rounds=row.rounds,
        days_per_move=row.days_per_move,
        signup_until=row.signup_until,
        rated=row.rated,
        language=row.language,
        fill=row.fill,
        status=row.status,
        round=row.round,
        seed=row.seed,
        created_at=row.created_at,
        players=[LeaguePlayer(p.user_id, p.name, p.joined_at, p.left_at) for p in row.players],
        settings=dict(row.settings),
        min_players=min_players(row.table_size),
        max_players=MAX_PLAYERS,
    )


def league_name(league: LeagueRow | LeagueInfo) -> Any:
    """The league's name as words: its own, else "<Game> league #id"."""
    if league.name:
        return league.name
    return word("league.default_name", game=get_game(league.game_id).name, league=league.id)


def _post(league: LeagueRow, event: str, rnd: int, said: Any, **extra: Any) -> Notification:
    """A league announcement (kind "league"; payload in the package docstring)."""
    payload = {
        "league_id": league.id,
        "event": event,
        "round": rnd,
        "guild_id": league.guild_id,
        "channel_id": league.channel_id,
        "text": stored_english(said),
        "text_words": said,
        **extra,
    }
    return Notification("league", payload, key=f"league:{league.id}:{event}:{rnd}")


class Leagues:
    """Leagues of a server, played through ``service``."""

    def __init__(self, service: MatchService) -> None:
        self._service = service
        self._store = service.store

    # ----- reading ---------------------------------------------------------------------
    async def _load(self, league_id: int) -> LeagueRow:
        valid = isinstance(league_id, int) and 0 < league_id < 2**63
        row = await self._store.get_league(league_id) if valid else None
        if row is None:
            raise NotFound.said("league.none", league=league_id)
        return row

    async def info(self, league_id: int) -> LeagueInfo:
        """One league (refused when there is none)."""
        return _info(await self._load(league_id))

    async def list(
        self,
        server_id: str | None,
        *,
        statuses: Sequence[str] = ("signup", "running", "finished"),
    ) -> builtins.list[LeagueInfo]:
        """The leagues of a server, newest first (cancelled ones left out by default)."""
        rows = await self._store.list_leagues(guild_id=server_id or "", statuses=statuses)
        if server_id is None:  # the console: leagues of no server
            rows = await self._store.list_leagues(statuses=statuses)
            rows = [r for r in rows if r.guild_id is None]
        return [_info(r) for r in rows]

    async def leagues_of(self, user_id: str) -> builtins.list[LeagueInfo]:
        """The leagues ``user_id`` is in (signed up, not left), in sign-up or running."""
        rows = await self._store.list_leagues(user_id=user_id, statuses=("signup", "running"))
        return [_info(r) for r in rows]

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
        return _info(row)

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
    ) -> LeagueInfo:
        """A new league in sign-up, and its sign-up post queued ("league", event "signup").

        ``players_per_table``: the game's fewest players when None (2 for Azul, 3 for Taj
        Mahal); ``rounds``: decided at the start from the players when None
        (:func:`~bot.community.leagues.seating.default_rounds`); ``days_per_move``: each
        league match's clock (default 3); ``signup_days``: when the sign-up closes and the
        league starts by itself (0: no deadline, a manager starts it); ``language``: the
        league's posts and matches (None: the server's). Every value is checked and a
        wrong one refused in words naming what is allowed. Nobody is signed up yet (the
        creator joins like anyone)."""
        if game_id not in game_ids():
            raise NotFound.said("league.bad_game", game=game_id, games=", ".join(game_ids()))
        game = get_game(game_id)
        if format not in FORMATS:
            raise InvalidMove.said("league.bad_format", value=format, choices=", ".join(FORMATS))
        if fill not in FILLS:
            raise InvalidMove.said("league.bad_fill", value=fill, choices=", ".join(FILLS))
        size = game.min_players if players_per_table is None else players_per_table
        whole = isinstance(size, int) and not isinstance(size, bool)
        if not whole or not game.min_players <= size <= game.max_players:
            raise InvalidMove.said(
                "league.bad_table",
                game=game.name,
                low=game.min_players,
                high=game.max_players,
                value=size,
            )
        if rounds is not None:
            _refuse_number("league.bad_rounds", rounds, *ROUNDS_RANGE, whole=True)
        days = DEFAULT_DAYS if days_per_move is None else days_per_move
        _refuse_number("league.bad_days", days, *DAYS_RANGE, whole=False)
        _refuse_number("league.bad_signup", signup_days, *SIGNUP_RANGE, whole=False)
        if not isinstance(rated, bool):
            raise InvalidMove.said("league.bad_rated", value=str(rated))
        if language is not None and language not in LANGUAGES:
            raise InvalidMove.said(
                "league.bad_language", value=language, choices=", ".join(LANGUAGES)
            )
        title = (name or "").strip()
        if len(title) > NAME_LIMIT:
            raise InvalidMove.said("league.bad_name", high=NAME_LIMIT)
        if is_computer(creator.id):
            raise NotAllowed.said("league.computer")
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
            return [_post(row, "signup", 0, said, signup_until=deadline)]

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

        return _info(await self._store.change_league(league_id, mutate))

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
        return _info(row)

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
            return await self._open_round(league)
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
            return [_post(row, "cancelled", row.round, said)]

        return _info(await self._store.change_league(league_id, mutate, posts))

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
            if done is not None:
                out.append(done)
        return out

    async def _step(self, league: LeagueRow, now: float) -> RoundInfo | None:
        if league.status == "signup":
            if league.signup_until is None or league.signup_until > now:
                return None
            if len(league.players) < min_players(league.table_size):
                return await self._cancel_few(league)
            return await self._open_round(league)
        if league.status != "running":
            return None
        matches = await self._store.league_matches(league.id)
        if any(m.round == league.round and m.status in ("lobby", "running") for m in matches):
            return None
        active = [p for p in league.players if p.left_at is None]
        if league.round >= (league.rounds or 0) or len(active) < 2:  # (or no table left)
            return await self._finish(league, matches)
        return await self._open_round(league, matches)

    async def _cancel_few(self, league: LeagueRow) -> RoundInfo:
        n, least = len(league.players), min_players(league.table_size)
        said = word("league.cancelled_few", name=league_name(league), min=least, n=n)
        await self._store.open_round(
            league.id,
            expected_status="signup",
            expected_round=0,
            expected_version=league.version,
            status="cancelled",
            new_round=0,
            rounds=None,
            game_id=league.game_id,
            guild_id=league.guild_id,
            channel_id=league.channel_id,
            creator_id=league.creator_id,
            tables=[],
            byes=[],
            notifications=lambda _ids: [
                _post(league, "cancelled", 0, said, players=n, needed=least)
            ],
        )
        return RoundInfo(_info(await self._load(league.id)), "cancelled", 0)

    async def _finish(self, league: LeagueRow, matches: Sequence[LeagueMatchRow]) -> RoundInfo:
        table = await self._standings_of(league, matches)
        champions = [r for r in table if r.rank == 1]
        said = word(
            "league.final_post",
            name=league_name(league),
            names=listing_word([r.name for r in champions]),
        )
        note = _post(league, "final", league.round, said, champions=[r.user_id for r in champions])
        await self._store.open_round(
            league.id,
            expected_status="running",
            expected_round=league.round,
            expected_version=league.version,
            status="finished",
            new_round=league.round,
            rounds=None,
            game_id=league.game_id,
            guild_id=league.guild_id,
            channel_id=league.channel_id,
            creator_id=league.creator_id,
            tables=[],
            byes=[],
            notifications=lambda _ids: [note],
        )
        return RoundInfo(_info(await self._load(league.id)), "final", league.round)

    # ----- opening a round --------------------------------------------------------------
    def _roster(self, league: LeagueRow) -> builtins.list[str]:
        return seating.seed_order([p.user_id for p in league.players], league.seed)

    async def _open_round(
        self, league: LeagueRow, matches: Sequence[LeagueMatchRow] | None = None
    ) -> RoundInfo:
        """Seat the league's next round and open it, claimed (see :meth:`advance`)."""
        if matches is None:
            matches = await self._store.league_matches(league.id)
        byes_by_round = await self._store.league_byes(league.id)
        roster = self._roster(league)
        n_round = league.round + 1
        rounds = league.rounds
        if league.status == "signup":  # the start: the rounds follow from the players
            k, n = league.table_size, len(roster)
            planned = seating.default_rounds(league.format, n, k) if rounds is None else rounds
            rounds = min(planned, seating.max_rounds(league.format, n, k))
        past = _past_rounds(matches, byes_by_round)
        points = {
            line.user_id: line.points
            for line in standings.count(roster, _results(matches), byes_by_round, league.table_size)
        }
        active = [p.user_id for p in league.players if p.left_at is None]
        # pure, but up to a second at 64 players at tables of five: off the event loop
        pairing = await asyncio.to_thread(
            seating.seat_round,
            format=league.format,
            k=league.table_size,
            fill=league.fill,
            round_no=n_round,
            roster=roster,
            active=active,
            points=points,
            past=past,
            seed=league.seed,
        )
        if not pairing.tables and league.status == "running":  # too few left to seat
            return await self._finish(league, matches)
        names = {p.user_id: p.name for p in league.players}
        tables = [
            self._new_table(league, n_round, number, table.seats, names)
            for number, table in enumerate(pairing.tables, start=1)
        ]
        said = word(
            "league.round_post",
            name=league_name(league),
            round=n_round,
            rounds=rounds or n_round,
            tables={"key": "league.tables", "params": {"n": len(tables)}},
        )
        bye_names = [names[u] for u in pairing.byes]
        lines = [said]
        if bye_names:
            lines.append(word("league.round_byes", names=listing_word(bye_names)))

        def announce(ids: builtins.list[int]) -> builtins.list[Notification]:
            extra = {"matches": ids, "byes": list(pairing.byes), "rounds": rounds}
            return [_post(league, "round", n_round, said, lines_words=lines, **extra)]

        ids = await self._store.open_round(
            league.id,
            expected_status=league.status,
            expected_round=league.round,
            expected_version=league.version,
            status="running",
            new_round=n_round,
            rounds=rounds,
            game_id=league.game_id,
            guild_id=league.guild_id,
            channel_id=league.channel_id,
            creator_id=league.creator_id,
            tables=tables,
            byes=list(pairing.byes),
            notifications=announce,
        )
        info = _info(await self._load(league.id))
        table_infos = [
            TableInfo(
                t.table, match_id, tuple(TableSeat(s.seat, s.user_id, s.name) for s in t.seats)
            )
            for t, match_id in zip(tables, ids, strict=True)
        ]
        byes = [p for p in info.players if p.user_id in pairing.byes]
        return RoundInfo(info, "round", n_round, table_infos, byes)

    def _new_table(
        self,
        league: LeagueRow,
        rnd: int,
        number: int,
        seats: Sequence[str | None],
        names: dict[str, str],
    ) -> NewTable:
        """One table's match: seats (a computer for each None), the game set up with
        the match's seed (fixed by the league's seed, round and table: every process
        computes the same match; chosen so that seat 0 moves first, as the seating
        decided), its settings and its first posts."""
        game = get_game(league.game_id)
        rows: builtins.list[SeatRow] = []
        for i, uid in enumerate(seats):
            if uid is None:
                cid, cname = new_computer(DEFAULT_LEVEL, [(s.user_id, s.name) for s in rows])
                rows.append(SeatRow(i, cid, cname))
            else:
                rows.append(SeatRow(i, uid, names[uid]))
        options = game.parse_options(None).model_dump(mode="json")
        seed, state = _first_seat_starts(game, len(rows), options, f"{league.seed}:{rnd}:{number}")
        now = self._store.now()
        settings: dict[str, Any] = {
            "clock_days": league.days_per_move,
            "hints": False,
            "rated": league.rated,
            "league": {
                "id": league.id,
                "round": rnd,
                "table": number,
                "entrants": list(seats),
            },
        }
        if league.language:
            settings["language"] = league.language
        settings = clocked(game, None, state, 0, 0)(settings, now)
        title = word("league.thread_title", name=league_name(league), round=rnd, table=number)
        intro = word("league.match_line", name=league_name(league), round=rnd, table=number)
        begins = word("post.begins", game=game.name, names=listing_word([r.name for r in rows]))

        def posts(match_id: int) -> builtins.list[Notification]:
            match = MatchRow(
                id=match_id, game_id=league.game_id, options=options, seed=seed,
                status="running", creator_id=league.creator_id, guild_id=league.guild_id,
                channel_id=league.channel_id, thread_id=None, max_players=len(rows), version=1,
                state=state, result=None, end_reason=None, settings=settings, created_at=now,
                updated_at=now, seats=rows,
            )  # fmt: skip
            names_now = [r.name for r in rows]
            setup = [e.text for e in game.setup_events(state) if e.text]
            said: builtins.list[Line] = [intro, begins]
            said += [to_json(x) if is_words(x) else say(x, None, names_now) for x in setup]
            thread = Notification(
                "league_thread",
                {
                    "league_id": league.id,
                    "match_id": match_id,
                    "round": rnd,
                    "table": number,
                    "guild_id": league.guild_id,
                    "channel_id": league.channel_id,
                    "title": stored_english(title),
                    "title_words": title,
                },
                key=f"league_thread:{match_id}",
            )
            return [thread, turn_post(match, state, said, ply=0)]

        return NewTable(number, rows, options, seed, state, settings, posts)

    # ----- standings --------------------------------------------------------------------
    async def _standings_of(
        self, league: LeagueRow, matches: Sequence[LeagueMatchRow]
    ) -> builtins.list[StandingRow]:
        byes = await self._store.league_byes(league.id)
        roster = self._roster(league)
        lines = standings.count(roster, _results(matches), byes, league.table_size)
        places = standings.ranks(lines)
        by_id = {p.user_id: p for p in league.players}
        return [
            StandingRow(
                rank=place,
                user_id=line.user_id,
                name=by_id[line.user_id].name,
                points=line.points,
                buchholz=line.buchholz,
                game_score=line.game_score,
                head_to_head=line.head_to_head,
                played=line.played,
                byes=line.byes,
                active=by_id[line.user_id].left_at is None,
            )
            for place, line in zip(places, lines, strict=True)
        ]

    async def standings(self, league_id: int) -> Standings:
        """The standings now, recounted from the league's matches (see
        :mod:`bot.community.leagues.standings`)."""
        league = await self._load(league_id)
        matches = await self._store.league_matches(league.id)
        rows = await self._standings_of(league, matches)
        still = sum(1 for m in matches if m.status in ("lobby", "running"))
        return Standings(_info(league), league.round, league.status, rows, still)


#: Seeds tried for a match whose game draws its first player, until seat 0 begins.
SEED_TRIES = 64


def _first_seat_starts(
    game: Any, seats: int, options: dict[str, Any], key: str
) -> tuple[int, dict[str, Any]]:
    """A match seed (fixed by ``key``) under which seat 0 moves first, and its state:
    Azul, Maharani and Pastiche draw their first player from the seed, and the seating
    has decided who goes first. The first seed tried when no seed gives seat 0."""
    first: tuple[int, dict[str, Any]] | None = None
    for attempt in range(SEED_TRIES):
        seed = random.Random(f"league-match:{key}:{attempt}").getrandbits(62)
        state = game.setup(seats, seed, options)
        if game.to_act(state)[:1] == [0]:
            return seed, state
        first = first or (seed, state)
    assert first is not None
    return first


def _results(matches: Sequence[LeagueMatchRow]) -> builtins.list[standings.TableResult]:
    return [
        standings.TableResult(
            m.round,
            tuple(m.entrants),
            m.result if m.status == "finished" else None,
        )
        for m in matches
    ]


def _past_rounds(
    matches: Sequence[LeagueMatchRow], byes: dict[int, builtins.list[str]]
) -> builtins.list[seating.Pairing]:
    rounds = sorted({m.round for m in matches} | set(byes))
    return [
        seating.Pairing(
            tuple(seating.Table(tuple(m.entrants)) for m in matches if m.round == r),
            tuple(byes.get(r, [])),
        )
        for r in rounds
    ]
