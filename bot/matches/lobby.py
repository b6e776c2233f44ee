"""A match before and around its play: creating it, joining and leaving its lobby,
starting it, its thread and settings, muted reminders, and the list of matches.

It reads and writes through the core, builds the start's turn post with ``posts`` and
asks the absences part who is away (the match list's status lines). :func:`check_lobby`
is also the computer seats' check (``computer_seats``).
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from bot.computers.players import is_computer
from bot.matches import clocks, option_table
from bot.matches.absences import Absences
from bot.matches.clocks import clocked
from bot.matches.core import Core
from bot.matches.errors import BoardChanged, InvalidMove, NotAllowed, NotFound, refusal
from bot.matches.posts import Posts, turn_post
from bot.matches.reports import Awaited, Line, MatchInfo, TurnReport, User
from bot.storage import MatchRow, SeatRow, VersionConflict
from render.words.catalogue import supported_language, t
from render.words.posts import listing_word, word
from render.words.say import say
from rules import IllegalMove, get_game
from rules.registry import game_ids
from rules.words import is_words, to_json

#: A lobby nobody started within this time can no longer be joined or started.
LOBBY_TTL_SECONDS = 7 * 24 * 3600
#: The most running matches of one person read for :meth:`Lobby.awaiting` (far more than
#: anyone plays at once; a bound, so one call stays one bounded read).
AWAITED_READ = 500


def check_lobby(match: MatchRow) -> None:
    if match.status == "running":
        raise NotAllowed.said("svc.started", match=match.id)
    if match.status == "aborted" and match.state is None:  # closed before it started
        raise NotAllowed.said("svc.closed_unstarted", match=match.id)
    if match.status in ("finished", "aborted"):
        raise NotAllowed.said("svc.over", match=match.id)
    if time.time() - match.created_at > LOBBY_TTL_SECONDS:
        raise NotAllowed.said("svc.lobby_expired", match=match.id, n=LOBBY_TTL_SECONDS // 86400)


class Lobby:
    """Matches from creation to start, their settings, and the list of them."""

    def __init__(self, core: Core, posts: Posts, absences: Absences) -> None:
        self._core = core
        self._store = core.store
        self._posts = posts
        self._absences = absences

    async def match_for_thread(self, thread_id: str) -> int | None:
        return await self._store.match_for_thread(thread_id)

    async def list_matches(
        self,
        *,
        guild_id: str | None = None,
        user_id: str | None = None,
        include_finished: bool = False,
        lang: Any = None,
    ) -> list[MatchInfo]:
        statuses = ("lobby", "running", "finished") if include_finished else ("lobby", "running")
        rows = await self._store.list_matches(guild_id=guild_id, user_id=user_id, statuses=statuses)
        infos = [self._core.describe(m, lang) for m in rows]
        language = supported_language(lang)
        for info in infos:  # "· Bob is away until 12 Dec" on the status line
            if info.status == "running":
                notes = await self._absences.away_notes(
                    info.id, info.seats, self._store.now(), language
                )
                if notes:
                    first, *rest = info.status_text.split("\n")
                    more = t("words.semicolon", language).join(notes)
                    info.status_text = "\n".join([f"{first} · {more}", *rest])
        return infos

    async def awaiting(
        self, user_id: str, *, default_clock_days: float = 0.0, lang: Any = None
    ) -> list[Awaited]:
        """The running matches of every server that wait for ``user_id`` now (their seat
        is among the game's ``waits_for``: a Pastiche trader waiting for answers to their
        own offer is not awaited), the soonest deadline first, then the longest wait.

        One indexed read: the person's seats (``seats_user``) to their running matches
        (by primary key), with each match's state, from which the rules say whom it
        waits for. ``default_clock_days``: the bot's clock for a match that set none."""
        rows = await self._store.list_matches(
            user_id=user_id, statuses=("running",), limit=AWAITED_READ
        )
        found: list[Awaited] = []
        for row in rows:
            info = self._core.describe(row, lang)
            seat = info.seat_of(user_id)
            if user_id not in info.waits_for or seat is None:
                continue
            clock = info.settings.get("clock")
            since, _used = clocks.seat_start(clock, seat, row.updated_at)
            days = float(info.settings.get("clock_days", default_clock_days) or 0)
            deadline = clocks.deadline(clock, [seat], row.updated_at, days * 86400)
            found.append(Awaited(info, since, deadline if days > 0 else None))
        found.sort(key=lambda a: (a.deadline is None, a.deadline or 0.0, a.since, a.match.id))
        return found

    async def create_match(
        self,
        game_id: str,
        creator: User,
        options: dict[str, Any] | None = None,
        *,
        max_players: int | None = None,
        guild_id: str | None = None,
        channel_id: str | None = None,
        seed: int | None = None,
        settings: dict[str, Any] | None = None,
    ) -> MatchInfo:
        if game_id not in game_ids():
            raise NotFound.said("svc.no_game", game=game_id, games=", ".join(game_ids()))
        game = get_game(game_id)
        try:
            parsed = game.parse_options(options)
        except IllegalMove as exc:
            raise refusal(exc, []) from None
        if max_players is None:
            max_players = game.max_players
        if not game.min_players <= max_players <= game.max_players:
            raise InvalidMove.said(
                "game.player_count",
                game=game.name,
                low=game.min_players,
                high=game.max_players,
                count=max_players,
            )
        match_id = await self._store.create_match(
            game_id=game_id,
            options=parsed.model_dump(mode="json"),
            seed=secrets.randbits(62) if seed is None else seed,
            creator=SeatRow(0, creator.id, creator.name),
            max_players=max_players,
            guild_id=guild_id,
            channel_id=channel_id,
            settings=settings,
        )
        return await self._core.info(match_id)

    async def join(self, match_id: int, user: User) -> MatchInfo:
        await self._core.load(match_id)

        def mutate(match: MatchRow) -> list[SeatRow]:
            check_lobby(match)
            if any(s.user_id == user.id for s in match.seats):
                raise NotAllowed.said("svc.joined", match=match.id)
            if len(match.seats) >= match.max_players:
                raise NotAllowed.said("svc.full", match=match.id, players=match.max_players)
            return [*match.seats, SeatRow(len(match.seats), user.id, user.name)]

        return self._core.describe(await self._store.update_lobby(match_id, mutate))

    async def options_form_for(self, match_id: int, user: User) -> MatchInfo:
        """The lobby whose game options ``user`` may choose now (its creator, before the
        start): checked before a form opens, so nobody fills one in only to be refused."""
        match = await self._core.load(match_id)
        check_lobby(match)
        if match.creator_id != user.id:
            raise NotAllowed.said("options.creator_only")
        return self._core.describe(match)

    async def set_game_options(
        self, match_id: int, user: User, values: dict[str, str], lang: Any = None
    ) -> MatchInfo:
        """The lobby's creator changes the game's own options before the start (Discord's
        options form; the console's ``/game options``). Each value is read by its spec,
        as typed options are, and the whole set by the game, so a form can set nothing a
        typed ``/game new`` could not; one transaction, so a start racing it either sees
        the new options or refuses for the changed version."""
        match = await self._core.load(match_id)
        game = get_game(match.game_id)
        # an unknown name is left for the game, which refuses it naming its options
        read = option_table.read_game_options(match.game_id, values, lang)

        def mutate(m: MatchRow) -> list[SeatRow]:
            check_lobby(m)
            if m.creator_id != user.id:
                raise NotAllowed.said("options.creator_only")
            try:
                parsed = game.parse_options({**m.options, **read})
            except IllegalMove as exc:
                raise refusal(exc, []) from None
            m.options = parsed.model_dump(mode="json")
            return list(m.seats)

        return self._core.describe(await self._store.update_lobby(match_id, mutate))

    async def leave(self, match_id: int, user: User) -> MatchInfo:
        """Leave a lobby. The creator leaving an empty-otherwise lobby aborts it; a running
        match is left by resigning instead."""
        match = await self._core.load(match_id)
        if match.status == "running":  # someone not in it is told so, not to resign
            seated = any(s.user_id == user.id for s in match.seats)
            raise NotAllowed.said("svc.leave_started" if seated else "svc.not_in", match=match_id)

        def mutate(m: MatchRow) -> list[SeatRow]:
            check_lobby(m)
            if not any(s.user_id == user.id for s in m.seats):
                raise NotAllowed.said("svc.not_in", match=m.id)
            return [s for s in m.seats if s.user_id != user.id]

        updated = await self._store.update_lobby(match_id, mutate)
        if all(is_computer(s.user_id) for s in updated.seats):  # nobody left to play with
            await self._store.commit(
                match_id,
                expected_version=updated.version,
                status="aborted",
                state=None,
                end_reason=t("end.lobby_empty", None),
                settings_update=lambda settings, _now: {
                    **settings,
                    "end_words": word("end.lobby_empty"),
                },
            )
        return await self._core.info(match_id)

    async def start(self, match_id: int, user: User) -> TurnReport:
        match = await self._core.load(match_id)
        check_lobby(match)
        self._core.seat(match, user)
        game = get_game(match.game_id)
        n = len(match.seats)
        if n < game.min_players:
            raise NotAllowed.said("svc.too_few", game=game.name, min=game.min_players, n=n)
        state = game.setup(n, match.seed, match.options)
        names = match.names
        begins = word("post.begins", game=game.name, names=listing_word(names))
        setup = [e.text for e in game.setup_events(state) if e.text]
        # each line as words, or the English of a legacy text with the names filled in
        said: list[Line] = [begins]
        said += [to_json(x) if is_words(x) else say(x, None, names) for x in setup]
        # who must begin but is away, as a move's post says it (else nobody knows why)
        said += await self._absences.away_lines(match, game, state)
        notes = [turn_post(match, state, said, ply=0)]
        try:
            version = await self._store.commit(
                match_id,
                expected_version=match.version,
                status="running",
                state=state,
                notifications=notes,
                settings_update=clocked(game, None, state, match.version, 0),
            )
        except VersionConflict:
            raise BoardChanged.said("svc.changed_start") from None
        match.version, match.state, match.status = version, state, "running"
        return await self._posts.report(match, said, ply=0)

    async def set_thread(self, match_id: int, thread_id: str) -> None:
        await self._store.set_match_fields(match_id, thread_id=thread_id)

    async def update_settings(self, match_id: int, **changes: Any) -> MatchInfo:
        """Change a match's settings (the front ends check each value against the one
        table of options, bot/matches/option_table.py); a match that has ended keeps its
        settings."""
        match = await self._core.load(match_id)
        if match.status in ("finished", "aborted"):
            raise NotAllowed.said("options.match_over", match=match_id)
        await self._store.update_settings(match_id, lambda settings, _v: {**settings, **changes})
        return await self._core.info(match_id)

    async def mute_turn(self, match_id: int, user: User, version: int) -> MatchInfo:
        """Mute reminders for ``user`` for the turn at ``version`` (merged in one
        transaction, so two players muting at once both stay muted)."""
        await self._core.load(match_id)

        def mutate(settings: dict[str, Any], _version: int) -> dict[str, Any]:
            return {**settings, "mute": {**settings.get("mute", {}), user.id: version}}

        await self._store.update_settings(match_id, mutate)
        return await self._core.info(match_id)
