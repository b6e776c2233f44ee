"""A league's claimed steps: opening a round (its tables seated, its matches created
started, its posts queued), finishing and cancelling it — each written by one transaction
that first claims the step on the league's status, round and version
(:meth:`bot.storage.leagues.LeagueTables.open_round`), so of several processes exactly one
takes it. Also the standings counted from the stored matches, and the league as the front
ends see it (:func:`info_of`)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from typing import Any

from bot.community.leagues import seating, standings
from bot.community.leagues.reports import (
    LeagueInfo,
    LeaguePlayer,
    RoundInfo,
    StandingRow,
    TableInfo,
    TableSeat,
)
from bot.community.leagues.values import MAX_PLAYERS, min_players
from bot.computers.players import DEFAULT_LEVEL, new_computer
from bot.matches.clocks import clocked
from bot.matches.posts import turn_post
from bot.matches.reports import Line
from bot.matches.rows import stored_english
from bot.storage import MatchRow, Notification, SeatRow, Store
from bot.storage.leagues import LeagueMatchRow, LeagueRow, NewTable
from render.words.posts import listing_word, word
from render.words.say import say
from rules import get_game
from rules.words import is_words, to_json


def info_of(row: LeagueRow) -> LeagueInfo:
    """A stored league as the front ends see it."""
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


def announcement(league: LeagueRow, event: str, rnd: int, said: Any, **extra: Any) -> Notification:
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


def roster(league: LeagueRow) -> list[str]:
    """Everyone who started the league, in seed order."""
    return seating.seed_order([p.user_id for p in league.players], league.seed)


class Steps:
    """The claimed steps of leagues, on ``store``."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def _reload(self, league_id: int) -> LeagueInfo:
        row = await self._store.get_league(league_id)
        assert row is not None  # leagues are never deleted
        return info_of(row)

    async def cancel_few(self, league: LeagueRow) -> RoundInfo:
        """The sign-up closed with too few players: cancelled, claimed, with its post
        naming how many signed up and how many were needed."""
        n, least = len(league.players), min_players(league.table_size)
        said = word("league.cancelled_few", name=league_name(league), min=least, n=n)
        note = announcement(league, "cancelled", 0, said, players=n, needed=least)
        await self._close(league, "signup", "cancelled", note)
        return RoundInfo(await self._reload(league.id), "cancelled", 0)

    async def finish(self, league: LeagueRow, matches: Sequence[LeagueMatchRow]) -> RoundInfo:
        """The last round ended (or too few are left to seat): finished, claimed, with
        the final post naming the champions (rank 1 of the standings)."""
        table = await self.standings_of(league, matches)
        champions = [r for r in table if r.rank == 1]
        said = word(
            "league.final_post",
            name=league_name(league),
            names=listing_word([r.name for r in champions]),
        )
        note = announcement(
            league, "final", league.round, said, champions=[r.user_id for r in champions]
        )
        await self._close(league, "running", "finished", note)
        return RoundInfo(await self._reload(league.id), "final", league.round)

    async def _close(
        self, league: LeagueRow, expected_status: str, status: str, note: Notification
    ) -> None:
        """End ``league`` (cancelled or finished) with its one post, claimed like a round
        (:meth:`Store.open_round` with no tables): the round stays where it is."""
        await self._store.open_round(
            league.id,
            expected_status=expected_status,
            expected_round=league.round,
            expected_version=league.version,
            status=status,
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

    # ----- opening a round --------------------------------------------------------------
    async def open_round(
        self, league: LeagueRow, matches: Sequence[LeagueMatchRow] | None = None
    ) -> RoundInfo:
        """Seat the league's next round and open it, claimed (see :meth:`advance`)."""
        if matches is None:
            matches = await self._store.league_matches(league.id)
        byes_by_round = await self._store.league_byes(league.id)
        order = roster(league)
        n_round = league.round + 1
        rounds = league.rounds
        if league.status == "signup":  # the start: the rounds follow from the players
            k, n = league.table_size, len(order)
            planned = seating.default_rounds(league.format, n, k) if rounds is None else rounds
            rounds = min(planned, seating.max_rounds(league.format, n, k))
        past = past_rounds(matches, byes_by_round)
        points = {
            line.user_id: line.points
            for line in standings.count(order, results(matches), byes_by_round, league.table_size)
        }
        active = [p.user_id for p in league.players if p.left_at is None]
        # pure, but up to a second at 64 players at tables of five: off the event loop
        pairing = await asyncio.to_thread(
            seating.seat_round,
            format=league.format,
            k=league.table_size,
            fill=league.fill,
            round_no=n_round,
            roster=order,
            active=active,
            points=points,
            past=past,
            seed=league.seed,
        )
        if not pairing.tables and league.status == "running":  # too few left to seat
            return await self.finish(league, matches)
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

        def announce(ids: list[int]) -> list[Notification]:
            extra = {"matches": ids, "byes": list(pairing.byes), "rounds": rounds}
            return [announcement(league, "round", n_round, said, lines_words=lines, **extra)]

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
        info = await self._reload(league.id)
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
        rows: list[SeatRow] = []
        for i, uid in enumerate(seats):
            if uid is None:
                cid, cname = new_computer(DEFAULT_LEVEL, [(s.user_id, s.name) for s in rows])
                rows.append(SeatRow(i, cid, cname))
            else:
                rows.append(SeatRow(i, uid, names[uid]))
        options = game.parse_options(None).model_dump(mode="json")
        seed, state = first_seat_starts(game, len(rows), options, f"{league.seed}:{rnd}:{number}")
        now = self._store.now()
        settings: dict[str, Any] = {
            "clock_days": league.days_per_move,
            "hints": bool(league.settings.get("hints", False)),
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

        def posts(match_id: int) -> list[Notification]:
            match = MatchRow(
                id=match_id, game_id=league.game_id, options=options, seed=seed,
                status="running", creator_id=league.creator_id, guild_id=league.guild_id,
                channel_id=league.channel_id, thread_id=None, max_players=len(rows), version=1,
                state=state, result=None, end_reason=None, settings=settings, created_at=now,
                updated_at=now, seats=rows,
            )  # fmt: skip
            names_now = [r.name for r in rows]
            setup = [e.text for e in game.setup_events(state) if e.text]
            said: list[Line] = [intro, begins]
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

    async def standings_of(
        self, league: LeagueRow, matches: Sequence[LeagueMatchRow]
    ) -> list[StandingRow]:
        byes = await self._store.league_byes(league.id)
        order = roster(league)
        lines = standings.count(order, results(matches), byes, league.table_size)
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


#: Seeds tried for a match whose game draws its first player, until seat 0 begins.
SEED_TRIES = 64


def first_seat_starts(
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


def results(matches: Sequence[LeagueMatchRow]) -> list[standings.TableResult]:
    return [
        standings.TableResult(
            m.round,
            tuple(m.entrants),
            m.result if m.status == "finished" else None,
        )
        for m in matches
    ]


def past_rounds(
    matches: Sequence[LeagueMatchRow], byes: dict[int, list[str]]
) -> list[seating.Pairing]:
    rounds = sorted({m.round for m in matches} | set(byes))
    return [
        seating.Pairing(
            tuple(seating.Table(tuple(m.entrants)) for m in matches if m.round == r),
            tuple(byes.get(r, [])),
        )
        for r in rounds
    ]
