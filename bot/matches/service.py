"""The match service: the one place where rules, storage and pictures meet.

Front ends (the Discord cogs, the local console, tests) call these methods with *who* is
asking and *what* they typed; the service decides whether that person may do it, asks the
rules whether it is legal, commits the change in one transaction (move row, snapshot,
version, outbox) and only then draws the picture. A failed picture or a failed Discord post
can therefore never undo an acknowledged move, and a crash after the commit loses nothing:
the outbox still holds the turn post.

Every refusal is a :class:`ServiceError` whose message is written for the player.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Self

from bot.computers.players import (
    DEFAULT_BUDGET_S,
    DEFAULT_LEVEL,
    is_computer,
    level_of,
    level_refusal,
    move_seed,
    new_computer,
)
from bot.matches import after_game, away, substitutes
from bot.matches.clocks import clock_update
from bot.matches.holders import handovers, holder_history, record_holders, seats_given_up
from bot.matches.render_pool import RenderPool
from bot.matches.substitutes import SubState
from bot.storage import (
    MatchRow,
    MoveRow,
    NewMove,
    Notification,
    Seated,
    SeatRow,
    Store,
    VersionConflict,
    open_store,
)
from render.header import away_date
from render.words.catalogue import (
    MESSAGES,
    match_language,
    picture_language,
    supported_language,
    t,
    tn,
)
from render.words.posts import end_summary, listing_word, result_text, say_line, word
from render.words.say import is_plural, said, said_as_is, say
from rules import Event, Game, IllegalMove, Move, get_game
from rules.ai import LEVELS, choose_move, levels_for
from rules.base import Composer, Step, fill_names, normalise_notation, rank_by
from rules.registry import game_ids
from rules.rng import Rng
from rules.words import is_words, to_json

log = logging.getLogger(__name__)

#: A lobby nobody started within this time can no longer be joined or started.
LOBBY_TTL_SECONDS = 7 * 24 * 3600
RECORD_FORMAT = "tessera-record/1"
#: A server manager's reason for aborting is posted; longer text is cut here.
ABORT_REASON_MAX = 300


def match_ending(match: MatchRow, lang: Any = None) -> dict[str, Any] | None:
    """What a picture of ``match`` says of its end in ``lang`` (see :func:`end_summary`);
    shared by the board pictures and the replays."""
    return end_summary(
        match.status,
        match.result,
        match.end_reason,
        match.names,
        lang,
        match.settings.get("end_words"),
    )


# ----- errors ------------------------------------------------------------------------------
def _catalogue_text(key: str, locale: Any, values: dict[str, Any]) -> str:
    """A catalogue text; a plural family (``key.one``, ``key.other``…) by its ``n``; a
    value in the stored words form (a list of names) said in that language too."""
    values = {k: say(v, locale) if isinstance(v, dict) else v for k, v in values.items()}
    if is_plural(key):
        rest = {k: v for k, v in values.items() if k != "n"}
        return tn(key, values["n"], locale, **rest)
    return t(key, locale, **values)


class ServiceError(Exception):
    """A refusal with a message for the person who asked. Nothing was changed.

    ``str()`` is the English message; a refusal from the rules also keeps its ``words``
    (a :class:`rules.words.Msg`) and the players' ``names``, so :meth:`text` can say it in
    the asker's language."""

    def __init__(self, *args: Any, words: Any = None, names: list[str] | None = None) -> None:
        super().__init__(*args)
        self.words = words
        self.names = names
        self.key: str | None = None
        self.values: dict[str, Any] = {}

    @classmethod
    def said(cls, key: str, /, **values: Any) -> Self:
        """A refusal written by the service itself: a catalogue key, English for ``str()``,
        and :meth:`text` in the asker's language."""
        error = cls(_catalogue_text(key, None, values))
        error.key, error.values = key, values
        return error

    def text(self, locale: Any = None) -> str:
        """The refusal in ``locale``'s language (the English message when it has no words)."""
        if self.key is not None:
            return _catalogue_text(self.key, locale, self.values)
        return str(self) if self.words is None else say(self.words, locale, self.names)


class NotFound(ServiceError):
    pass


class NotAllowed(ServiceError):
    pass


class BoardChanged(ServiceError):
    pass


class InvalidMove(ServiceError):
    pass


# ----- value types -------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class User:
    id: str
    name: str


@dataclass(slots=True)
class MatchInfo(Seated):
    id: int
    game_id: str
    game_name: str
    status: str
    creator_id: str
    guild_id: str | None
    channel_id: str | None
    thread_id: str | None
    min_players: int
    max_players: int
    version: int
    options: dict[str, Any]
    seats: list[SeatRow]
    to_act: list[str]
    #: the status line (:attr:`status_text`), or what says it when first asked
    status_said: str | Callable[[], str] = field(repr=False, compare=False)
    end_reason: str | None
    result: dict[str, Any] | None
    settings: dict[str, Any]
    created_at: float
    #: the user ids in ``to_act`` whose clocks run now (``Game.waits_for``)
    waits_for: list[str] = field(default_factory=list)

    @property
    def status_text(self) -> str:
        """The status line ("Bob to move"), said on first use. Why: a move describes its
        match several times (the gate's read, the play's answer, the post's delivery) and
        most of those callers never show the line, while saying it (the rules' status in
        words, with names) was most of what describing cost."""
        if not isinstance(self.status_said, str):
            self.status_said = self.status_said()
        return self.status_said

    @status_text.setter
    def status_text(self, text: str) -> None:
        self.status_said = text


@dataclass(slots=True)
class TurnReport:
    """What a state change produced, ready for any front end.

    The report is returned as soon as the change is committed; its public picture is drawn
    afterwards (``picture_task``), so a move never waits for a busy render pool. Await
    :meth:`wait_picture` for it: None when the picture was dropped because the match has
    already moved on (the newer state's picture replaces it) or could not be drawn.
    """

    match: MatchInfo
    lines: list[str]
    private: dict[str, list[str]] = field(default_factory=dict)
    picture: bytes | None = None
    ply: int = 0
    picture_task: asyncio.Future[bytes | None] | None = None
    #: ``lines`` as words (docs/words.md; None: a line kept only in English) and each
    #: person's private lines as words, so a front end says them in its reader's language
    words: list[Any] = field(default_factory=list)
    private_words: dict[str, list[Any]] = field(default_factory=dict)

    @property
    def finished(self) -> bool:
        return self.match.status in ("finished", "aborted")

    async def wait_picture(self) -> bytes | None:
        if self.picture is None and self.picture_task is not None:
            self.picture = await asyncio.shield(self.picture_task)
        return self.picture


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


@dataclass(slots=True)
class AuditProblem:
    match_id: int
    problem: str


@dataclass(frozen=True, slots=True)
class SeatTurn:
    """What a search needs to decide for one seat now, and nothing more: the seat's own
    view (never the full state), the public log and a seed fixed by match, ply and seat."""

    match_id: int
    version: int
    game_id: str
    seat: int
    user: User
    level: str
    view: Any
    history: list[tuple[int, str]]
    seed: int
    budget_s: float


# ----- helpers -----------------------------------------------------------------------------
def effective_moves(rows: list[MoveRow]) -> list[MoveRow]:
    """The game moves still in force: 'undo' rows cancel the latest game move before them."""
    kept: list[MoveRow] = []
    for row in rows:
        if row.kind == "move":
            kept.append(row)
        elif row.kind == "undo" and kept:
            kept.pop()
    return kept


def _all_named(moves: list[Move], names: list[str]) -> list[Move]:
    """:func:`render.words.say.said_move` for each of a seat's legal moves, with each distinct
    label object said once (the moves share their step labels: an Azul factory or colour
    step appears in a dozen moves). Only :meth:`MatchService.legal_moves` names them all;
    the front ends name just the moves they show (saying every label of every move was
    the largest cost of a click in the bot's process). Built with the constructors, not
    ``dataclasses.replace`` (which looks the fields up on every call): the same moves."""
    said_once: dict[int, str] = {}  # id of a label object, alive in ``moves`` meanwhile

    def named(label: Any) -> str:
        text = said_once.get(id(label))
        if text is None:
            text = said_once[id(label)] = said(label, None, names)
        return text

    out: list[Move] = []
    for move in moves:
        if said_as_is(move):
            out.append(move)
            continue
        steps = tuple(Step(key=st.key, label=named(st.label)) for st in move.steps)
        out.append(
            Move(notation=move.notation, label=named(move.label), steps=steps, rank=move.rank)
        )
    return out


#: How long the gate's read of a match may serve the play that follows it (seconds).
GATE_READ_SECONDS = 5.0


def _refusal(exc: IllegalMove, names: list[str]) -> InvalidMove:
    """The rules' refusal for the player: English text, with its words for other languages."""
    return InvalidMove(say(exc.words, None, names), words=exc.words, names=names)


def _label_key(text: str) -> str:
    """A label as typed or shown, compared without case and spaces, and with the "×" that
    labels print (German, Polish: "3× Rot") matching the "x" a keyboard types."""
    return normalise_notation(text).replace("×", "x")


def _by_label(moves: list[Move], names: list[str], text: str) -> Move | None:
    """The move whose label, as shown in any of the catalogue's languages, is ``text`` (a
    player types what they read in their language); None unless exactly one move fits."""
    key = _label_key(text)
    found: dict[str, Move] = {}
    for m in moves:
        langs = list(MESSAGES) if is_words(m.label) else [None]
        if any(_label_key(say(m.label, lang, names)) == key for lang in langs):
            found[m.notation] = m
    return next(iter(found.values())) if len(found) == 1 else None


def _events_json(events: list[Event]) -> list[dict[str, Any]]:
    return [e.to_json(include_secret=True) for e in events]


#: The kind of the entry a move row's events end with when its label is words: the label's
#: message (``msg``), so /history and the picture's band can say the move in any language.
#: Not an event of the game: records leave it out (:meth:`MatchService.export_record`).
LABEL_EVENT = "label"


def _candidate(proposal: dict[str, Any]) -> Any:
    """Who a substitute proposal names, as words: a person's name, or "a computer player"."""
    return proposal["to_name"] or word("sub.a_computer")


def _label_event(label_words: Any) -> list[dict[str, Any]]:
    if label_words is None:
        return []
    return [{"kind": LABEL_EVENT, "text": "", "data": {}, "msg": label_words}]


def label_words_of(events: list[dict[str, Any]]) -> Any:
    """The label's words a move row keeps (None for a row stored before, or a legacy label)."""
    for e in reversed(events):
        if e.get("kind") == LABEL_EVENT and "msg" in e:
            return e["msg"]
    return None


def rank_resigned_last(
    result: dict[str, Any], resigned: list[tuple[int, str]] | list[tuple[int, str, str]]
) -> dict[str, Any]:
    """The result with the seats given up (``(seat, name)`` or ``(seat, name, how)``,
    earliest first; ``how`` is "forfeit" for a seat whose clock ran out) ranked below
    everyone else whatever they scored — the earliest resigner last — and the others in
    the game's own order among themselves; winners follow the new ranks. The resigners'
    names are kept in the result, since a resigned seat's holder has changed."""
    if not resigned:
        return result
    order = list(dict.fromkeys(entry[0] for entry in resigned))
    ranks = result["ranks"]
    keys = [(0, order.index(s)) if s in order else (1, -ranks[s]) for s in range(len(ranks))]
    new_ranks = rank_by(keys)
    names = {entry[0]: entry[1] for entry in resigned}
    forfeits = {entry[0] for entry in resigned if entry[2:] == ("forfeit",)}
    return {
        **result,
        "ranks": new_ranks,
        "winners": [s for s, r in enumerate(new_ranks) if r == 1],
        "gave_up": [
            {"seat": s, "name": names[s], **({"how": "forfeit"} if s in forfeits else {})}
            for s in order
        ],
    }


def clocked(
    game: Game,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    version: int,
    rows: int,
) -> Any:
    """The per-seat clock update (``bot/clocks.py``) of a commit of ``rows`` log rows at
    ``version`` that takes the match from state ``before`` to ``after`` (None: none)."""

    def seats(state: dict[str, Any] | None) -> tuple[list[int], list[int]]:
        if state is None:
            return [], []
        return game.to_act(state), game.waits_for(state)

    return clock_update(seats(before), seats(after), version + max(1, rows))


class MatchService:
    """Create with :meth:`open`; close with :meth:`close`."""

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
        # worker processes: Pillow holds the GIL while drawing (see bot/render_pool.py)
        self._pool = RenderPool(render_workers, processes=render_processes)
        self._pictures: OrderedDict[tuple[int, int, int | None, str], bytes] = OrderedDict()
        #: pictures being drawn, by cache key: a second request awaits the same one
        self._drawing: dict[tuple[int, int, int | None, str], asyncio.Future[bytes | None]] = {}
        #: per match, the newest ply whose public picture was asked for: an older picture
        #: still waiting for a worker is dropped (nobody needs a board that has changed)
        self._newest: dict[int, int] = {}
        self._background: set[asyncio.Task[Any]] = set()
        #: a seat's legal moves per match version, as listed by the rules (see :meth:`_legal`)
        self._listed: OrderedDict[tuple[int, int, int], list[Move]] = OrderedDict()
        #: the match as :meth:`turn_for` last read it (and when, by ``_clock``), for the
        #: :meth:`play` at that version that usually follows (see :meth:`_gated_read`)
        self._gated: OrderedDict[int, tuple[float, MatchRow]] = OrderedDict()
        self._clock = time.monotonic
        self.render_stats = RenderStats()
        after_game.install(store)  # a finishing commit also rates and queues the chart

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

    async def close(self) -> None:
        if self._background:  # pictures still being drawn for committed moves
            await asyncio.gather(*self._background, return_exceptions=True)
        await self.store.close()
        self._pool.close()

    # ----- reading -----------------------------------------------------------------------
    async def _load(self, match_id: int) -> MatchRow:
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
        return self.describe(await self._load(match_id), lang)

    async def info_at_ply(self, match_id: int) -> tuple[MatchInfo, int]:
        """:meth:`info` and the ply its snapshot stands at (rows in the move log), from the
        same one read: a turn post asks whether its ply is still the newest."""
        match = await self._load(match_id)
        return self.describe(match), match.last_ply

    async def match_for_thread(self, thread_id: str) -> int | None:
        return await self.store.match_for_thread(thread_id)

    async def list_matches(
        self,
        *,
        guild_id: str | None = None,
        user_id: str | None = None,
        include_finished: bool = False,
        lang: Any = None,
    ) -> list[MatchInfo]:
        statuses = ("lobby", "running", "finished") if include_finished else ("lobby", "running")
        rows = await self.store.list_matches(guild_id=guild_id, user_id=user_id, statuses=statuses)
        infos = [self.describe(m, lang) for m in rows]
        language = supported_language(lang)
        for info in infos:  # "· Bob is away until 12 Dec" on the status line
            if info.status == "running":
                notes = await self.away_notes(info.id, info.seats, self.store.now(), language)
                if notes:
                    first, *rest = info.status_text.split("\n")
                    more = t("words.semicolon", language).join(notes)
                    info.status_text = "\n".join([f"{first} · {more}", *rest])
        return infos

    async def go_away(self, user_id: str, days: int, now: float | None = None) -> float:
        """``/notify away``: pause the user's clocks and reminders in all their matches for
        ``days`` days from now (replacing a current away period); returns when they are
        back. Refused, in words saying how many days remain, beyond 14 days in any 30."""
        now = self.store.now() if now is None else now
        user = await self.store.get_user(user_id)
        try:
            prefs = away.go_away(user["settings"], days, now)
        except away.AwayRefused as exc:
            raise NotAllowed.said(
                "away.refused", n=exc.days_left, max=away.MAX_DAYS, window=away.WINDOW_DAYS
            ) from None
        await self.store.set_user(user_id, settings=prefs)  # marks their matches due
        return now + days * away.DAY

    async def come_back(self, user_id: str, now: float | None = None) -> None:
        """``/notify back``: end the current away period now; the clocks run again with
        the time they had left. Refused when the user is not away."""
        now = self.store.now() if now is None else now
        prefs = away.come_back((await self.store.get_user(user_id))["settings"], now)
        if prefs is None:
            raise NotAllowed.said("away.not_away")
        await self.store.set_user(user_id, settings=prefs)

    async def _away_lines(
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
        back = await self.away_until(match.id, self.store.now(), prefs=match.preferences)
        return [{"away": seats[s], "until": until} for s, until in back.items() if s in seats]

    async def away_until(
        self, match_id: int, now: float, prefs: dict[int, dict[str, Any]] | None = None
    ) -> dict[int, float]:
        """Seat -> when its player is back, for the players of the match away now
        (``prefs``: the seats' preferences if already read, else they are read)."""
        if prefs is None:
            prefs = await self.store.seat_preferences(match_id)
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
            t("away.status", lang, name=names[seat], date=away_date(until, lang))
            for seat, until in (await self.away_until(match_id, now)).items()
            if seat in names
        ]

    def _seat(self, match: MatchRow, user: User) -> int:
        seat = match.seat_of(user.id)
        if seat is not None:
            return seat
        raise NotAllowed.said("svc.not_seated", match=match.id)

    async def legal_moves(self, match_id: int, user: User) -> list[Move]:
        """The caller's legal moves now (empty when it is not their decision), every one
        named in English with the players' names; their words can be said in another
        language with ``render.words.say.in_language``. For scripts and tests that want them
        all in words: the front ends use :meth:`turn_for` and name only what they show."""
        match = await self._load(match_id)
        return _all_named(self._legal(match, user), match.names)

    async def turn_for(self, match_id: int, user: User) -> tuple[MatchInfo, list[Move]]:
        """:meth:`info` and the caller's legal moves from one read of the match, the moves
        as the rules list them: labels not yet said (words, or English with ``{pN}``
        placeholders), to be said with ``info.names`` in the reader's language
        (``render.words.say``) only where they are shown. Why: every click of the button
        panel needs both before it acts (is this their match, their board, their turn;
        which moves), but shows a handful of the moves (Pastiche lists hundreds), and each
        read of a match (its snapshot's JSON included) is a real share of a move's CPU
        under load (docs/performance.md)."""
        match = await self._load(match_id)
        self._gated[match.id] = (self._clock(), match)
        self._gated.move_to_end(match.id)
        while len(self._gated) > 256:
            self._gated.popitem(last=False)
        return self.describe(match), self._legal(match, user)

    def _gated_read(self, match_id: int, expected_version: int | None) -> MatchRow | None:
        """The match as :meth:`turn_for` read it at ``expected_version``, taken (each read
        serves one play). Why: a button's click reads the match in its gate and then plays
        at that version, and the second read (a round trip and the snapshot's JSON) was a
        real share of a move's CPU. Safe because everything a play relies on is fixed by
        the version (a state, seats and status change bumps it) and the commit checks the
        version in its own statement; the settings it updates (the clocks) are read inside
        the commit. A play on a taken read that finds the version moved on is played again
        on a fresh read, so its answer is the one a fresh read would have given. Only a read
        of the last few seconds (a click's gate, its acknowledgement, its play) is taken:
        what the version does not pin (who is away, for the post's lines) stays as fresh
        as a play's own read would be."""
        if expected_version is None:
            return None
        at, match = self._gated.pop(match_id, (0.0, None))
        if match is None or self._clock() - at > GATE_READ_SECONDS:
            return None
        return match if match.version == expected_version else None

    def _legal(self, match: MatchRow, user: User) -> list[Move]:
        """The seat's legal moves as the rules list them, remembered per match version.
        Why: one move on the button panel is several clicks (an Azul factory, its colour,
        the line), and every click's gate needs the moves again at the same version;
        listing them is the largest cost of a click left (hundreds of moves in Pastiche).
        A version's state never changes and the labels are not said yet (no names in
        them: a substitute's renaming changes nothing), so a remembered list is always the
        one the rules would give now."""
        if match.status != "running" or match.state is None:
            return []
        seat = match.seat_of(user.id)
        if seat is None:
            return []
        key = (match.id, match.version, seat)
        listed = self._listed.get(key)
        if listed is None:
            listed = self._listed[key] = get_game(match.game_id).legal_moves(match.state, seat)
            while len(self._listed) > 256:
                self._listed.popitem(last=False)
        else:
            self._listed.move_to_end(key)
        return list(listed)  # the caller's own list: the remembered one stays as it is

    def _listed_move(self, match: MatchRow, seat: int, text: str) -> Move | None:
        """The move whose notation is exactly ``text`` among the seat's legal moves as
        :meth:`_legal` remembered them at this version, else None (then the rules parse).
        Why: a button's play sends the notation of a move its gate listed, and parsing it
        again lists the moves again (Azul, Maharani) or the typed kind's (Pastiche) — a
        real share of a move's CPU. The same move: every game's ``parse`` of a legal move's
        notation gives that move (tests/test_game_contract.py), and the play has already
        checked that this seat may act at this version."""
        listed = self._listed.get((match.id, match.version, seat))
        if listed is None:
            return None
        return next((m for m in listed if m.notation == text), None)

    async def composers(self, match_id: int, user: User) -> list[Composer]:
        """Moves the caller may build pick by pick now (a Pastiche trade offer), in words
        with player names; empty for most games and whenever it is not their decision.
        Labels that are messages stay :class:`render.words.say.Said`, so a front end can say
        them in its reader's language (``render.words.say``)."""
        match = await self._load(match_id)
        seat = match.seat_of(user.id)
        if match.status != "running" or match.state is None or seat is None:
            return []
        names = match.names
        out = []
        for c in get_game(match.game_id).composers(match.state, seat):
            picks = tuple(
                replace(
                    p,
                    label=said(p.label, None, names),
                    options=tuple(replace(o, label=said(o.label, None, names)) for o in p.options),
                )
                for p in c.picks
            )
            out.append(replace(c, label=said(c.label, None, names), picks=picks))
        return out

    async def compose(self, match_id: int, user: User, key: str, chosen: list[list[str]]) -> str:
        """The notation of a composed move (played, and judged, through :meth:`play`)."""
        match = await self._load(match_id)
        game, state = self._running(match)
        try:
            return game.compose(state, self._seat(match, user), key, chosen)
        except IllegalMove as exc:
            raise _refusal(exc, match.names) from None

    # ----- lobby -------------------------------------------------------------------------
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
            raise _refusal(exc, []) from None
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
        match_id = await self.store.create_match(
            game_id=game_id,
            options=parsed.model_dump(mode="json"),
            seed=secrets.randbits(62) if seed is None else seed,
            creator=SeatRow(0, creator.id, creator.name),
            max_players=max_players,
            guild_id=guild_id,
            channel_id=channel_id,
            settings=settings,
        )
        return await self.info(match_id)

    def _check_lobby(self, match: MatchRow) -> None:
        if match.status == "running":
            raise NotAllowed.said("svc.started", match=match.id)
        if match.status in ("finished", "aborted"):
            raise NotAllowed.said("svc.over", match=match.id)
        if time.time() - match.created_at > LOBBY_TTL_SECONDS:
            raise NotAllowed.said("svc.lobby_expired", match=match.id, n=LOBBY_TTL_SECONDS // 86400)

    async def join(self, match_id: int, user: User) -> MatchInfo:
        await self._load(match_id)

        def mutate(match: MatchRow) -> list[SeatRow]:
            self._check_lobby(match)
            if any(s.user_id == user.id for s in match.seats):
                raise NotAllowed.said("svc.joined", match=match.id)
            if len(match.seats) >= match.max_players:
                raise NotAllowed.said("svc.full", match=match.id, players=match.max_players)
            return [*match.seats, SeatRow(len(match.seats), user.id, user.name)]

        return self.describe(await self.store.update_lobby(match_id, mutate))

    async def leave(self, match_id: int, user: User) -> MatchInfo:
        """Leave a lobby. The creator leaving an empty-otherwise lobby aborts it; a running
        match is left by resigning instead."""
        match = await self._load(match_id)
        if match.status == "running":
            raise NotAllowed.said("svc.leave_started")

        def mutate(m: MatchRow) -> list[SeatRow]:
            self._check_lobby(m)
            if not any(s.user_id == user.id for s in m.seats):
                raise NotAllowed.said("svc.not_in", match=m.id)
            return [s for s in m.seats if s.user_id != user.id]

        updated = await self.store.update_lobby(match_id, mutate)
        if all(is_computer(s.user_id) for s in updated.seats):  # nobody left to play with
            await self.store.commit(
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
        return await self.info(match_id)

    async def start(self, match_id: int, user: User) -> TurnReport:
        match = await self._load(match_id)
        self._check_lobby(match)
        self._seat(match, user)
        game = get_game(match.game_id)
        n = len(match.seats)
        if n < game.min_players:
            raise NotAllowed.said("svc.too_few", game=game.name, min=game.min_players, n=n)
        state = game.setup(n, match.seed, match.options)
        names = match.names
        begins = word("post.begins", game=game.name, names=listing_word(names))
        lines = [say(begins, None, names)]
        setup = [e.text for e in game.setup_events(state) if e.text]
        lines += [say(text, None, names) for text in setup]
        words = [begins, *(to_json(x) if is_words(x) else None for x in setup)]
        notes = [self._turn_post(match, state, lines, ply=0, words=words)]
        try:
            version = await self.store.commit(
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
        return await self._report(match, lines, {}, ply=0, words=words)

    async def abort(
        self, match_id: int, user: User, *, is_admin: bool = False, reason: str | None = None
    ) -> MatchInfo:
        """End a match that nobody will finish.

        A lobby: its creator (or a server manager) closes it at once. A running match
        belongs to everyone who has played it for days, so the seated people vote: each
        ``abort`` by one of them is a vote, and the match ends once more than half of the
        people still seated have voted (computer seats do not vote; a vote stays until the
        match ends). A server manager may end any match at once for moderation, with a
        reason that the final post shows. The returned info carries the open vote in
        ``settings["abort_votes"]`` while the match goes on.
        """
        match = await self._load(match_id)
        if match.status in ("finished", "aborted"):
            raise NotAllowed.said("svc.already_over", match=match_id)
        reason = (reason or "").strip()[:ABORT_REASON_MAX] or None
        if match.status == "lobby":
            if user.id != match.creator_id and not is_admin:
                raise NotAllowed.said("abort.lobby_creator")
            return await self._end_aborted(match, user, word("end.aborted_by", name=user.name))
        seated = match.seat_of(user.id) is not None
        if is_admin and reason:
            words = word("end.aborted_manager", name=user.name, reason=reason)
            return await self._end_aborted(match, user, words)
        if not seated:
            raise NotAllowed.said("abort.not_seated" if is_admin else "abort.vote_only")
        return await self._vote_abort(match_id, user)

    async def _vote_abort(self, match_id: int, user: User) -> MatchInfo:
        """Count ``user``'s vote in one transaction (two votes at the same moment both
        count), then end the match if the votes are a majority. Racing last votes each
        try the one commit; the loser finds the match already aborted."""
        decided: list[list[str]] = []

        def mutate(settings: dict[str, Any], _version: int) -> dict[str, Any]:
            votes = list(settings.get("abort_votes", []))
            if user.id in votes:
                raise NotAllowed.said("abort.already_voted")
            votes.append(user.id)
            decided.append(votes)
            return {**settings, "abort_votes": votes}

        for _ in range(5):  # a move landing between the vote and the commit: look again
            match = await self._load(match_id)
            if match.status != "running":
                raise NotAllowed.said("svc.already_over", match=match_id)
            people = [s.user_id for s in match.seats if not is_computer(s.user_id)]
            if not decided:
                settings = await self.store.update_settings(match_id, mutate)
                voters = [u for u in settings["abort_votes"] if u in people]
                if 2 * len(voters) <= len(people):
                    await self._announce_vote(match, user, voters, people)
                    return await self.info(match_id)
            voters = [u for u in decided[-1] if u in people]
            names = listing_word([s.name for s in match.seats if s.user_id in voters])
            try:
                return await self._end_aborted(match, user, word("end.aborted_vote", names=names))
            except BoardChanged:
                current = await self.info(match_id)
                if current.status == "aborted":  # another last vote ended it: fine
                    return current
        raise BoardChanged.said("svc.changed")

    async def _announce_vote(
        self, match: MatchRow, user: User, voters: list[str], people: list[str]
    ) -> None:
        needed = len(people) // 2 + 1
        vote = {"name": user.name, "match": match.id, "votes": len(voters), "needed": needed}
        await self.store.enqueue(
            match.id,
            [
                Notification(
                    "turn",
                    {
                        "match_id": match.id,
                        "ply": None,
                        "text": t("abort.vote_post", None, **vote),
                        "text_words": word("abort.vote_post", **vote),
                        "mentions": [u for u in people if u not in voters],
                        "final": False,
                    },
                )
            ],
        )

    async def _end_aborted(self, match: MatchRow, user: User, said: dict[str, Any]) -> MatchInfo:
        """Abort now. A running match gets a log row, so its final post carries a picture
        of its own (the board, with ``said`` where the turn marks were). ``said``: who
        ended it and how, as words; kept in the match settings (``end_words``) so the
        status and pictures say it in any language (``end_reason`` keeps the English)."""
        running = match.status == "running" and match.state is not None
        ply = match.last_ply + 1 if running else None
        seat = match.seat_of(user.id)
        words = say(said)
        events = _label_event(said)
        row = NewMove("abort", -1 if seat is None else seat, user.id, "abort", words, events)
        post = word("end.aborted_post", match=match.id, words=said)
        try:
            await self.store.commit(
                match.id,
                expected_version=match.version,
                status="aborted",
                state=match.state,
                moves=[row] if running else (),
                end_reason=words,
                settings_update=lambda settings, _now: {**settings, "end_words": said},
                notifications=[
                    Notification(
                        "turn",
                        {
                            "match_id": match.id,
                            "ply": ply,
                            "text": say(post),
                            "text_words": post,
                            "mentions": [],
                            "final": True,
                        },
                    )
                ],
            )
        except VersionConflict:
            raise BoardChanged.said("svc.changed") from None
        match.status, match.end_reason = "aborted", words
        match.settings = {**match.settings, "end_words": said}
        if running and ply is not None and self.render_enabled:
            match.last_ply = ply
            self._spawn(self._picture_behind(match, ply))
        return await self.info(match.id)

    async def set_thread(self, match_id: int, thread_id: str) -> None:
        await self.store.set_match_fields(match_id, thread_id=thread_id)

    async def update_settings(self, match_id: int, **changes: Any) -> MatchInfo:
        await self._load(match_id)
        await self.store.update_settings(match_id, lambda settings, _v: {**settings, **changes})
        return await self.info(match_id)

    async def mute_turn(self, match_id: int, user: User, version: int) -> MatchInfo:
        """Mute reminders for ``user`` for the turn at ``version`` (merged in one
        transaction, so two players muting at once both stay muted)."""
        await self._load(match_id)

        def mutate(settings: dict[str, Any], _version: int) -> dict[str, Any]:
            return {**settings, "mute": {**settings.get("mute", {}), user.id: version}}

        await self.store.update_settings(match_id, mutate)
        return await self.info(match_id)

    # ----- playing -----------------------------------------------------------------------
    def _running(self, match: MatchRow) -> tuple[Game, dict[str, Any]]:
        if match.status == "lobby":
            raise NotAllowed.said("svc.not_started", match=match.id)
        if match.status in ("finished", "aborted") or match.state is None:
            raise NotAllowed.said("svc.over_moves", match=match.id)
        return get_game(match.game_id), match.state

    async def play(
        self, match_id: int, user: User, text: str, *, expected_version: int | None = None
    ) -> TurnReport:
        """Play ``text`` (notation or exact label) for ``user``.

        ``expected_version`` comes from buttons: a button pressed on an older board answers
        "the board has changed" instead of acting on a state its presser never saw.
        """
        gated = self._gated_read(match_id, expected_version)
        match = gated or await self._load(match_id)
        game, state = self._running(match)
        seat = self._seat(match, user)
        if expected_version is not None and expected_version != match.version:
            raise BoardChanged.said("svc.button_stale")
        if seat not in game.may_act(state):  # to_act, plus optional moves (trade offers)
            waiting = [match.seats[s].name for s in game.to_act(state) if s < len(match.seats)]
            raise NotAllowed.said("err.not_your_turn", waiting=listing_word(waiting))
        names = match.names
        try:
            move = self._listed_move(match, seat, text) or game.parse(state, seat, text)
        except IllegalMove as exc:
            # a label as shown to players: with names where the game wrote {pN}, in
            # whichever language the player reads
            move = _by_label(game.legal_moves(state, seat), names, text)
            if move is None:
                raise _refusal(exc, names) from None
        try:
            return await self._apply(match, game, state, seat, user, move, kind="move")
        except BoardChanged:
            if gated is None:
                raise
        # the gate's read was overtaken (another process moved): answer from a fresh one
        return await self.play(match_id, user, text, expected_version=expected_version)

    async def _apply(
        self,
        match: MatchRow,
        game: Game,
        state: dict[str, Any],
        seat: int,
        user: User,
        move: Move,
        *,
        kind: str,
        timed: bool = False,
    ) -> TurnReport:
        """``timed``: the move was made for a seat whose clock ran out ("(out of time) …")."""
        names = match.names
        new_state, events = game.apply(state, seat, move)
        outcome = game.outcome(new_state)
        # the label as words (a message, or a legacy English string), for any language
        label_words: Any = to_json(move.label) if is_words(move.label) else None
        if timed:
            english = move.label if label_words is None else say(move.label)
            label_words = word("clock.timed_label", label=label_words or english)
            move = replace(move, label=t("clock.timed_label", None, label=english))
        label = say(move.label, None, names)  # the log's words: the label only, not its steps
        lines = [f"{names[seat]}: {label}"]
        lines += [say(e.text, None, names) for e in events if e.text]
        # the same lines as words, so the post can be said in the match's language
        words: list[Any] = [None if label_words is None else {"mover": seat, "label": label_words}]
        words += [to_json(e.text) if is_words(e.text) else None for e in events if e.text]
        private, private_words = self._private_lines(match, events)
        result = outcome.to_json() if outcome else None
        if result and is_words(result["reason"]):  # stored with its words, for any language
            result["reason_msg"] = to_json(result["reason"])
        if result:
            result = rank_resigned_last(result, await self._resigned(match))
            lines.append(result_text(result, names, game.score_unit))
            words.append({"result": result, "unit": game.score_unit})
        else:
            away_words = await self._away_lines(match, game, new_state)
            lines += [say_line(w, None, names) for w in away_words]
            words += away_words
        ply = match.last_ply + 1
        notes = [
            self._turn_post(
                match,
                new_state,
                lines,
                ply=ply,
                final=result is not None,
                was_acting=self._people(match, game.to_act(state)),
                fold=result is None and self._folds(game, state, new_state, seat),
                words=words,
            )
        ]
        notes += [
            Notification(
                "dm",
                {
                    "match_id": match.id,
                    "user_id": uid,
                    "text": "\n".join(text),
                    "lines": text,
                    "words": private_words[uid],  # said in the reader's language
                },
            )
            for uid, text in private.items()
        ]
        try:
            version = await self.store.commit(
                match.id,
                expected_version=match.version,
                status="finished" if result else "running",
                state=new_state,
                moves=[
                    NewMove(
                        kind,
                        seat,
                        user.id,
                        move.notation,
                        label,
                        _events_json(events) + _label_event(label_words),
                    )
                ],
                result=result,
                end_reason="game over" if result else None,
                notifications=notes,
                settings_update=clocked(game, state, new_state, match.version, 1),
                settings_seen=match.settings_text,
            )
        except VersionConflict:
            raise BoardChanged.said("svc.moved_first") from None
        match.version, match.state = version, new_state
        match.status = "finished" if result else "running"
        match.result = result
        return await self._report(
            match, lines, private, ply=ply, words=words, private_words=private_words
        )

    def _private_lines(
        self, match: MatchRow, events: list[Event]
    ) -> tuple[dict[str, list[str]], dict[str, list[Any]]]:
        """Per person, their private lines in English and as words (None: a legacy string)."""
        names = match.names
        out: dict[str, list[str]] = {}
        words: dict[str, list[Any]] = {}
        for e in events:
            for seat, text in e.private.items():
                if seat < len(match.seats) and not is_computer(match.seats[seat].user_id):
                    uid = match.seats[seat].user_id
                    out.setdefault(uid, []).append(say(text, None, names))
                    words.setdefault(uid, []).append(to_json(text) if is_words(text) else None)
        return out, words

    @staticmethod
    def _people(match: MatchRow, seats: list[int]) -> list[str]:
        """The people (never computer players) holding ``seats``."""
        return [
            match.seats[s].user_id
            for s in seats
            if s < len(match.seats) and not is_computer(match.seats[s].user_id)
        ]

    @staticmethod
    def _folds(game: Game, before: dict[str, Any], after: dict[str, Any], seat: int) -> bool:
        """Whether a ply by ``seat`` from ``before`` to ``after`` joins the current turn
        post instead of making a new one: ``seat`` was one the game waited for, and the
        seats it waits for are still the same (a Taj Mahal withdrawal's palace choices, a
        Pastiche trading step, a grey-wall tiling run)."""
        acting = game.to_act(before)
        return seat in acting and set(game.to_act(after)) == set(acting)

    def _turn_post(
        self,
        match: MatchRow,
        state: dict[str, Any],
        lines: list[str],
        *,
        ply: int,
        final: bool = False,
        was_acting: list[str] | None = None,
        fold: bool = False,
        words: list[Any] | None = None,
    ) -> Notification:
        """The turn post of a state change, queued in the change's own transaction.

        Calm posts (one post per change of the seats to act, a ping only for who newly
        must act): ``mentions`` are the people to act now (named in the post), ``ping``
        those of them who were not in ``was_acting`` before this change (None: nobody
        was, as at the start) — only they are pinged and DM'd. ``fold``: the seats to act
        did not change, so delivery adds ``lines`` to the current turn post (an edit,
        with the board after this ply) instead of posting again; see
        ``bot/discord/delivery.py``. ``text`` is the whole post for front ends that print
        every ply (the console); ``lines`` and ``status`` are its two parts, in English;
        ``words`` (per line: its message as JSON, or None) and ``status_words`` let
        delivery say them in the match's language (games whose rules speak in messages)."""
        game = get_game(match.game_id)
        acting = [] if final else game.to_act(state)
        mentions = self._people(match, acting)
        before = set(was_acting or ())
        raw_status = None if final else game.status(state)
        status = "" if raw_status is None else say(raw_status, None, match.names)
        text = "\n".join([*lines, status] if status else lines)
        payload: dict[str, Any] = {
            "match_id": match.id,
            "ply": ply,
            "text": text,
            "mentions": mentions,
            "ping": [u for u in mentions if u not in before],
            "final": final,
            "lines": list(lines),
            "status": status,
            "names": list(match.names),  # what the English lines name (post_words.said_in)
        }
        if fold and not final:
            payload["fold"] = True
        if words and any(w is not None for w in words):
            payload["words"] = words
        if is_words(raw_status):
            payload["status_words"] = to_json(raw_status)
        return Notification("turn", payload)

    async def _report(
        self,
        match: MatchRow,
        lines: list[str],
        private: dict[str, list[str]],
        *,
        ply: int,
        words: list[Any] | None = None,
        private_words: dict[str, list[Any]] | None = None,
    ) -> TurnReport:
        info = self.describe(match)
        task = None
        if self.render_enabled and match.state is not None:
            # the move is committed: answer now, draw the picture behind (its post, sent
            # by the outbox, picks it up from the cache or waits for it)
            task = self._spawn(self._picture_behind(match, ply))
        return TurnReport(
            info, lines, private, None, ply, task, list(words or []), dict(private_words or {})
        )

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    async def _picture_behind(self, match: MatchRow, ply: int) -> bytes | None:
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
                ended=match_ending(match, match_language(match.settings)),
            )
        except Exception:  # a picture must never undo a committed move
            log.exception("rendering match %s failed", match.id)
            return None
        finally:
            if self._newest.get(match.id) == ply:  # nothing newer asked for: forget it
                del self._newest[match.id]

    async def resign(self, match_id: int, user: User) -> TurnReport:
        """Give up.

        With two players — or when no other person is left at the table — the match ends:
        the resigner ranks last, the others by their current scores. With three or more,
        the match goes on for the others: a computer player (the match's level, default
        normal) takes the seat and plays it out through the computer driver, and the
        resigner is ranked last in the result whatever the seat scores. Each game's own
        game-over rules stay untouched; only the final ranking moves the resigner down.
        """
        match = await self._load(match_id)
        game, state = self._running(match)
        seat = self._seat(match, user)
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
        label_words = word(f"{prefix}.label", name=user.name, computer=name)
        text_words = word(f"{prefix}.handed_over", name=user.name, computer=name)
        label, text = say(label_words), say(text_words)
        new_row = SeatRow(seat, uid, name)
        after = replace(match, seats=[new_row if s.seat == seat else s for s in match.seats])
        ply = match.last_ply + 1
        data = {"seat": seat, "name": user.name, "user_id": user.id, "by": name, "by_id": uid}
        event = Event(how, "", data | ({"how": how} if how != "resign" else {}))
        try:
            version = await self.store.commit(
                match.id,
                expected_version=match.version,
                status="running",
                state=state,
                moves=[
                    NewMove(
                        how,
                        seat,
                        user.id,
                        how,
                        label,
                        _events_json([event]) + _label_event(label_words),
                    )
                ],
                notifications=[
                    self._turn_post(
                        after,
                        state,
                        [text],
                        ply=ply,
                        was_acting=self._people(match, game.to_act(state)),
                        words=[text_words],
                    )
                ],
                seats=[new_row],
                settings_update=clocked(game, state, state, match.version, 1),
            )
        except VersionConflict:
            raise BoardChanged.said("svc.board_changed") from None
        after.version = version
        after.last_ply = ply
        return await self._report(after, [text], {}, ply=ply, words=[text_words])

    async def _resigned(self, match: MatchRow) -> list[tuple[int, str, str]]:
        """(seat, name, how) of everyone who gave up a seat a computer played on (how
        "resign", or "forfeit" when the clock ran out), earliest first (read by
        :mod:`bot.matches.holders`, like the record and the ratings)."""
        if not any(is_computer(s.user_id) for s in match.seats):
            return []  # a resigned seat is always held by a computer: most matches skip this
        changes = handovers(await self.store.moves(match.id))
        return seats_given_up([(s.user_id, s.name) for s in match.seats], changes)

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
        names = match.names
        scores = game.scores(state)
        ranks = rank_by([(scores[s],) for s in range(len(names))])
        result = {
            "scores": scores,
            "ranks": ranks,
            "winners": [s for s, r in enumerate(ranks) if r == 1],
            "reason": "",
            "details": [],
        }
        # earlier resigners below everyone, this one just above them
        how = "forfeit" if kind == "forfeit" else "resign"
        result = rank_resigned_last(result, [*await self._resigned(match), (seat, user.name, how)])
        result["ended_by"] = say(what)
        result["ended_by_words"] = what
        lines = [result_text(result, names, game.score_unit)]  # its head says what happened
        words: list[Any] = [{"result": result, "unit": game.score_unit}]
        ply = match.last_ply + 1
        try:
            await self.store.commit(
                match.id,
                expected_version=match.version,
                status="finished",
                state=state,
                moves=[NewMove(kind, seat, user.id, kind, say(text), _label_event(text))],
                result=result,
                end_reason=say(text),
                notifications=[
                    self._turn_post(match, state, lines, ply=ply, final=True, words=words)
                ],
            )
        except VersionConflict:
            raise BoardChanged.said("svc.board_changed") from None
        match.status, match.result = "finished", result
        return await self._report(match, lines, {}, ply=ply, words=words)

    async def expire_turn(
        self, match_id: int, expected_version: int, action: str, seat: int | None = None
    ) -> TurnReport:
        """``seat``'s clock ran out at ``expected_version`` (None: the first seat the game
        waits for). The scheduler decides *when* (``bot/clocks.py``); a version that no
        longer matches, or a seat no longer waited for, changes nothing.

        ``action="skip"`` makes the seat's move for it: the game's own pass where the
        rules have one (``Game.default_move``: withdraw, decline an offer, end the turn),
        else the move the *easy* computer player would make from the seat's view — so a
        skip never forfeits. ``"forfeit"``: with two players (or no other person left) the
        match ends and the late player loses; with three or more a computer player takes
        the seat and plays it out, and the late player is ranked last, as on resigning.
        """
        match = await self._load(match_id)
        game, state = self._running(match)
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
                return await self._apply(
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

    # ----- undo --------------------------------------------------------------------------
    async def undo(self, match_id: int, user: User) -> TurnReport | MatchInfo:
        """Take back your own last move.

        Allowed only while nothing random or hidden came to light in it and the game is not
        over. While you are still the one to act it happens at once; otherwise the others
        must agree: the request is stored and each of them answers with :meth:`answer_undo`.
        Returns the report of the undone position, or the match info with the open request.
        """
        match = await self._load(match_id)
        game, state = self._running(match)
        seat = self._seat(match, user)
        moves = effective_moves(await self.store.moves(match_id))
        last = self._undoable(moves, seat)
        others = [s.seat for s in match.seats if s.seat != seat]
        if not others:
            return await self._do_undo(match, game, user, last)
        seen = False
        if seat in game.to_act(state):
            # still your turn: alone, unless the move is a commitment the others have seen
            before = self._replay(match, game, moves[:-1])
            seen = self._is_commitment(game, before, last)
            if not seen:
                return await self._do_undo(match, game, user, last, before=before)
        request = {"seat": seat, "ply": last.ply, "version": match.version, "consents": []}
        await self.store.update_settings(match_id, lambda st, _v: {**st, "undo": request})
        names = match.names
        await self.store.enqueue(
            match_id,
            [
                Notification(
                    "turn",
                    {
                        "match_id": match_id,
                        "ply": None,
                        "text": t(
                            "undo.request_seen" if seen else "undo.request",
                            None,
                            name=names[seat],
                            move=fill_names(last.label, names),
                        ),
                        "mentions": [match.seats[s].user_id for s in others],
                        "final": False,
                    },
                )
            ],
        )
        return await self.info(match_id)

    @staticmethod
    def _is_commitment(game: Game, before: dict[str, Any], last: MoveRow) -> bool:
        """Whether log row ``last``, played from ``before``, is a commitment the other
        players have seen (the game decides: ``Game.is_commitment``)."""
        try:
            move = game.parse(before, last.seat, last.notation)
        except IllegalMove:  # cannot happen for a stored move; be safe: ask everyone
            return True
        return game.is_commitment(before, last.seat, move)

    @staticmethod
    def _undoable(moves: list[MoveRow], seat: int) -> MoveRow:
        if not moves:
            raise NotAllowed.said("svc.no_undo")
        last = moves[-1]
        if last.seat != seat:
            raise NotAllowed.said("svc.undo_own")
        if any(e.get("reveals") for e in last.events):
            raise NotAllowed.said("svc.undo_revealed")
        return last

    async def answer_undo(self, match_id: int, user: User, agree: bool) -> TurnReport | MatchInfo:
        match = await self._load(match_id)
        game, _ = self._running(match)
        seat = self._seat(match, user)
        others = {s.seat for s in match.seats}
        agreed: dict[str, Any] = {}

        def mutate(settings: dict[str, Any], version: int) -> dict[str, Any]:
            # Decided inside the write transaction: two consents given at the same moment
            # must both count (a read-then-write would let one overwrite the other).
            request = settings.get("undo")
            if not request or request["version"] != version:
                raise NotAllowed.said("svc.no_request")
            if seat == request["seat"]:
                raise NotAllowed.said("svc.own_request")
            if not agree:
                settings.pop("undo")
                return settings
            consents = sorted({*request["consents"], seat})
            if set(consents) >= others - {request["seat"]}:
                settings.pop("undo")
                agreed.update(request)
            else:
                settings["undo"] = {**request, "consents": consents}
            return settings

        settings = await self.store.update_settings(match_id, mutate)
        if not agreed:
            return await self.info(match_id)
        match.settings = settings
        if match.version != agreed["version"]:
            raise BoardChanged.said("svc.undo_changed")
        asker = match.seats[agreed["seat"]]
        last = self._undoable(effective_moves(await self.store.moves(match_id)), agreed["seat"])
        return await self._do_undo(match, game, User(asker.user_id, asker.name), last)

    async def _do_undo(
        self,
        match: MatchRow,
        game: Game,
        user: User,
        last: MoveRow,
        *,
        before: dict[str, Any] | None = None,
    ) -> TurnReport:
        """Take ``last`` back. ``before``: the state before it, when the caller already
        rebuilt it (the commit's version check guards against a log that moved on)."""
        rows = await self.store.moves(match.id)
        state = before
        if state is None:
            state = self._replay(match, game, effective_moves(rows)[:-1])
        taken = label_words_of(last.events)
        said_words = word(
            "undo.taken_back", name=user.name, move=last.label if taken is None else taken
        )
        text = say(said_words, None, match.names)
        ply = len(rows) + 1
        assert match.state is not None
        post = self._turn_post(
            match,
            state,
            [text],
            ply=ply,
            was_acting=self._people(match, game.to_act(match.state)),
            fold=self._folds(game, match.state, state, last.seat),
            words=[said_words],
        )
        try:
            await self.store.commit(
                match.id,
                expected_version=match.version,
                status="running",
                state=state,
                moves=[NewMove("undo", last.seat, user.id, "undo", text, _label_event(said_words))],
                notifications=[post],
                settings_update=clocked(game, match.state, state, match.version, 1),
            )
        except VersionConflict:
            raise BoardChanged.said("svc.undo_changed") from None
        match.state = state
        match.version += 1
        return await self._report(match, [text], {}, ply=ply, words=[said_words])

    # ----- replay, pictures, history, records --------------------------------------------
    @staticmethod
    def _replay(match: MatchRow, game: Game, moves: list[MoveRow]) -> dict[str, Any]:
        state = game.setup(len(match.seats), match.seed, match.options)
        for row in moves:
            move = game.parse(state, row.seat, row.notation)
            state, _ = game.apply(state, row.seat, move)
        return state

    async def state_at(self, match_id: int, ply: int | None = None) -> dict[str, Any]:
        """The game state after ``ply`` log rows (None: now), rebuilt from seed + log."""
        match = await self._load(match_id)
        game = get_game(match.game_id)
        if match.state is None:
            raise NotAllowed.said("svc.not_started", match=match_id)
        if ply is None:
            return match.state
        rows = [r for r in await self.store.moves(match_id) if r.ply <= ply]
        return self._replay(match, game, effective_moves(rows))

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
        ended: dict[str, Any] | None = None,
    ) -> bytes | None:
        """The picture of ``state`` (log row ``ply``) for ``seat``. ``droppable``: give up
        (None) if, when a worker is free, a newer ply of this match was asked for; else
        always a picture. Requests for the same picture share one drawing."""
        lang = picture_language(lang)  # 'en-US', 'en-GB' and unknown locales share English
        key = (match_id, ply, seat, lang)
        cached = self._pictures.get(key)
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
        future: asyncio.Future[bytes | None] = asyncio.get_running_loop().create_future()
        self._drawing[key] = future
        try:
            png = await self._draw(
                match_id, game_id, state, names, seat, ply, lang, droppable, ended
            )
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
            self._pictures[key] = png
            while len(self._pictures) > 64:
                self._pictures.popitem(last=False)
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
        ended: dict[str, Any] | None,
    ) -> bytes | None:
        async def view() -> dict[str, Any]:  # built once a render slot is free
            seen = get_game(game_id).view(state, seat)
            if seat is None and ended:  # resigned, forfeited, aborted: say so, no turn marks
                seen = {**seen, "ended": ended}
            elif seat is None and get_game(game_id).to_act(state):  # the band: who is away
                back = await self.away_until(match_id, self.store.now())
                if back:
                    seen = {**seen, "away": {str(s): until for s, until in back.items()}}
            if seat is None and ply >= 0:
                last = await self._last_words(match_id, ply, names, lang)
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
            drawn = await self._pool.render(
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
        stats.worker_maxrss_kb = self._pool.worker_maxrss_kb
        return png

    async def _last_words(
        self, match_id: int, ply: int, names: list[str], lang: Any = None
    ) -> str | None:
        """The move of log row ``ply`` in a few words, for the picture's header band (in
        the picture's language)."""
        if ply <= 0:
            return None
        rows = await self.store.moves(match_id, last=1)
        if not rows or rows[0].ply != ply:  # an older state: find its row
            rows = [r for r in await self.store.moves(match_id) if r.ply == ply]
        if not rows:
            return None
        return self._row_words(rows[0], names, lang)

    async def turn_picture(self, match_id: int, ply: int, lang: str = "en") -> bytes | None:
        """The picture for the turn post of log row ``ply``: the board after that row, or
        None when the match has already moved on — the post then says the next post shows
        the board (that post is queued behind it, and the newest state is what counts)."""
        match = await self._load(match_id)
        if match.state is None:
            raise NotAllowed.said("svc.not_started", match=match_id)
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
                ended=match_ending(match, lang),
            )
        finally:
            if self._newest.get(match_id) == ply:  # nothing newer asked for: forget it
                del self._newest[match_id]

    async def picture(self, match_id: int, ply: int | None = None, lang: str = "en") -> bytes:
        """The public picture, now or after log row ``ply`` (for delayed turn posts), with
        its words in ``lang`` (a language or Discord locale; the server's, for public posts)."""
        match = await self._load(match_id)
        if match.state is None:
            raise NotAllowed.said("svc.not_started", match=match_id)
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
                ended=match_ending(match, lang),
            )
        else:
            state = await self.state_at(match_id, ply)
            png = await self._render(match_id, match.game_id, state, match.names, None, ply, lang)
        assert png is not None  # not droppable: always drawn
        return png

    async def hand(
        self, match_id: int, user: User, lang: str = "en"
    ) -> tuple[bytes, dict[str, Any]]:
        """The caller's private picture and view (their hand), with its words in ``lang``
        (the user's own language). Only ever for themselves."""
        match = await self._load(match_id)
        game, state = self._running(match)
        seat = self._seat(match, user)
        if not game.has_hidden_information:
            raise NotAllowed.said("err.no_hidden", game=game.name)
        view = game.view(state, seat)
        png = await self._render(match_id, match.game_id, state, match.names, seat, -1, lang)
        assert png is not None  # not droppable: always drawn
        return png, view

    async def history(self, match_id: int, last: int = 15, lang: Any = None) -> list[str]:
        """The latest ``last`` log rows, each "12. Bob: <label>", the labels in ``lang``
        (None: English): the reader's for a private answer, the match's for a public one.
        Rows stored before labels were kept as words show their English label."""
        match = await self._load(match_id)
        names = match.names
        return [
            f"{row.ply}. {self._row_words(row, names, lang)}"
            for row in await self.store.moves(match_id, last=last)
        ]

    @staticmethod
    def _row_words(row: MoveRow, names: list[str], lang: Any) -> str:
        """A log row in a few words: "Bob: <label>" for a move, else its label."""
        kept = label_words_of(row.events)
        label = fill_names(row.label, names) if kept is None else say(kept, lang, names)
        if row.kind != "move":
            return label
        if 0 <= row.seat < len(names):
            return f"{names[row.seat]}: {label}"
        return f"{t('history.seat', lang, seat=row.seat + 1)}: {label}"

    async def export_record(self, match_id: int) -> dict[str, Any]:
        """Everything needed to replay and check the match independently — once it is over.

        While the match runs the record holds only what every player has seen: no seed
        (seed + moves replay the whole deal and deck order, every hidden hand included),
        no random-number state, no secret chance outcomes (cards drawn into hands), no
        private words and no scores computed from the hidden state. The record of a
        finished (or aborted) match has all of it.
        """
        match = await self._load(match_id)
        game = get_game(match.game_id)
        over = match.status in ("finished", "aborted")
        moves = []
        rows = await self.store.moves(match_id)
        #: who held each seat from which ply (resign, substitutes: see bot/holders.py)
        held = holder_history([(s.user_id, s.name) for s in match.seats], handovers(rows))
        for row in rows:
            kept = [e for e in row.events if e.get("kind") != LABEL_EVENT]  # not a game event
            events = (
                kept
                if over
                else [{k: v for k, v in e.items() if k not in ("secret", "private")} for e in kept]
            )
            moves.append(
                {
                    "ply": row.ply,
                    "kind": row.kind,
                    "seat": row.seat,
                    "notation": row.notation,
                    "label": row.label,
                    "events": events,
                    "at": row.created_at,
                }
            )
        setup_state = game.setup(len(match.seats), match.seed, match.options)
        setup_events = [e.to_json(include_secret=over) for e in game.setup_events(setup_state)]
        return {
            "format": RECORD_FORMAT,
            "match_id": match.id,
            "game": match.game_id,
            "game_name": game.name,
            "options": match.options,
            "players": [
                {"seat": s.seat, "name": s.name}
                | ({"computer": level_of(s.user_id)} if is_computer(s.user_id) else {})
                | {"holders": record_holders(held[s.seat])}
                for s in match.seats
            ],
            "text_placeholders": "{pN} in a text is the name of players[N]",
            "status": match.status,
            "end_reason": match.end_reason,
            "setup_events": setup_events,
            "moves": moves,
            "result": match.result,
        } | (
            {
                "seed": match.seed,
                "final_scores": game.scores(match.state) if match.state is not None else None,
                "hints_used": self._hints_used(match),
            }
            if over
            else {"hidden_until_over": t("record.hidden", None)}
        )

    async def audit(self) -> list[AuditProblem]:
        """Rebuild every started match from seed + moves and compare with its snapshot."""
        problems: list[AuditProblem] = []
        for match_id in await self.store.all_match_ids():
            match = await self._load(match_id)
            if match.state is None:
                continue
            game = get_game(match.game_id)
            try:
                rebuilt = self._replay(
                    match, game, effective_moves(await self.store.moves(match_id))
                )
            except Exception as exc:
                problems.append(AuditProblem(match_id, f"replay failed: {exc}"))
                continue
            if rebuilt != match.state:
                problems.append(AuditProblem(match_id, "snapshot differs from replay"))
        return problems

    # ----- computer players and hints ------------------------------------------------------
    async def add_computer(
        self, match_id: int, user: User, level: str = DEFAULT_LEVEL
    ) -> MatchInfo:
        """Seat a computer player at ``level`` in a lobby (any seated player may)."""
        # an unknown level is refused before the match is read, as before
        game = get_game((await self._load(match_id)).game_id) if level in LEVELS else None
        refusal = level_refusal(game, level)
        if refusal is not None:
            key, values = refusal
            raise InvalidMove.said(key, **values)

        def mutate(match: MatchRow) -> list[SeatRow]:
            self._check_lobby(match)
            self._seat(match, user)
            if len(match.seats) >= match.max_players:
                raise NotAllowed.said("ai.full", match=match.id, max=match.max_players)
            uid, name = new_computer(level, [(s.user_id, s.name) for s in match.seats])
            return [*match.seats, SeatRow(len(match.seats), uid, name)]

        return self.describe(await self.store.update_lobby(match_id, mutate))

    async def remove_computer(self, match_id: int, user: User) -> tuple[MatchInfo, str]:
        """Unseat the most recently seated computer player of a lobby; (lobby, its name)."""
        await self._load(match_id)
        removed: list[str] = []

        def mutate(match: MatchRow) -> list[SeatRow]:
            self._check_lobby(match)
            self._seat(match, user)
            computers = [s for s in match.seats if is_computer(s.user_id)]
            if not computers:
                raise NotAllowed.said("ai.none_seated", match=match.id)
            removed.append(computers[-1].name)
            return [s for s in match.seats if s is not computers[-1]]

        info = self.describe(await self.store.update_lobby(match_id, mutate))
        return info, removed[0]

    async def _seat_turn(self, match: MatchRow, game: Game, seat: int, purpose: str) -> SeatTurn:
        assert match.state is not None
        row = match.seats[seat]
        history = [(r.seat, r.notation) for r in effective_moves(await self.store.moves(match.id))]
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
        match = await self._load(match_id)
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
        match = await self._load(match_id)
        game, state = self._running(match)
        seat = self._seat(match, user)
        if not match.settings.get("hints", True):
            raise NotAllowed.said("hint.off", match=match.id)
        if seat not in game.to_act(state):
            waiting = [match.seats[s].name for s in game.to_act(state) if s < len(match.seats)]
            raise NotAllowed.said("hint.not_your_turn", waiting=listing_word(waiting))
        return await self._seat_turn(match, game, seat, "hint")

    async def count_hint(self, match_id: int, seat: int) -> None:
        """One more hint used by ``seat`` (kept in the match settings; shown only in the
        record of a finished match)."""

        def mutate(settings: dict[str, Any], _version: int) -> dict[str, Any]:
            used = dict(settings.get("hints_used", {}))
            used[str(seat)] = int(used.get(str(seat), 0)) + 1
            return {**settings, "hints_used": used}

        await self.store.update_settings(match_id, mutate)

    @staticmethod
    def _hints_used(match: MatchRow) -> list[int]:
        used = match.settings.get("hints_used", {})
        return [int(used.get(str(s.seat), 0)) for s in match.seats]

    # ----- substitutes (rules: bot/substitutes.py; who held a seat: bot/holders.py) ----------
    def _sub_state(
        self, match: MatchRow, proposal: dict[str, Any], status: str, report: Any = None
    ) -> SubState:
        people = substitutes.voters(match.seats, match.settings)
        return SubState(
            self.describe(match),
            proposal,
            status,
            substitutes.votes_for(proposal, people),
            substitutes.needed(people),
            report,
        )

    async def _check_candidate(self, match: MatchRow, new: User) -> None:
        """A person who may take a seat of ``match``: not seated in it already, and not
        someone who gave up a seat of it (resigned or forfeited)."""
        if is_computer(new.id):
            raise NotAllowed.said("sub.bot")
        if match.seat_of(new.id) is not None:
            raise NotAllowed.said("sub.already_seated", name=new.name, match=match.id)
        changes = handovers(await self.store.moves(match.id))
        if any(c.gave_up and c.user_id == new.id for c in changes):
            raise NotAllowed.said("sub.gave_up_before", name=new.name)

    async def offer_seat(self, match_id: int, user: User, new: User) -> SubState:
        """Offer your own seat to ``new``; it changes hands when they accept
        (:meth:`answer_sub`). A new offer replaces your earlier one."""
        match = await self._load(match_id)
        self._running(match)
        seat = self._seat(match, user)
        if new.id == user.id:
            raise NotAllowed.said("sub.self")
        await self._check_candidate(match, new)
        proposal = substitutes.new_proposal(
            seat=seat,
            kind="own",
            holder=(user.id, user.name),
            by=(user.id, user.name),
            to=(new.id, new.name),
            why="own",
        )

        def mutate(settings: dict[str, Any], _version: int) -> dict[str, Any]:
            subs = dict(settings.get("subs", {}))
            subs[str(seat)] = proposal
            # whoever offers their seat is evidently still here
            left = [u for u in settings.get("left", []) if u != user.id]
            return {**settings, "subs": subs, "left": left}

        match.settings = await self.store.update_settings(match_id, mutate)
        return self._sub_state(match, proposal, "open")

    async def propose_sub(self, match_id: int, user: User, seat: int, new: User | None) -> SubState:
        """Open a vote to put ``new`` (None: a computer player at the match's level) into
        ``seat`` (0-based), which must be deserted: played by a computer since its person
        gave it up or was replaced, or held by a person who left the server. The
        proposer's vote counts at once. Your own seat: an offer (:meth:`offer_seat`)."""
        match = await self._load(match_id)
        self._running(match)
        self._seat(match, user)
        people = substitutes.voters(match.seats, match.settings)
        if user.id not in people:
            raise NotAllowed.said("sub.not_voter", match=match.id)
        if not 0 <= seat < len(match.seats):
            raise NotAllowed.said("sub.no_seat", seat=seat + 1, n=len(match.seats))
        holder = match.seats[seat]
        if holder.user_id == user.id:
            if new is None:
                raise NotAllowed.said("sub.own_computer")
            return await self.offer_seat(match_id, user, new)
        changes = [c for c in handovers(await self.store.moves(match.id)) if c.seat == seat]
        if is_computer(holder.user_id):
            if not changes:  # the table seated it in the lobby
                raise NotAllowed.said("sub.seat_chosen", seat=seat + 1)
            why = "gave_up" if changes[-1].gave_up else "computer"
            held_by = (changes[-1].user_id, changes[-1].name)
        elif holder.user_id in match.settings.get("left", []):
            why, held_by = "left", (holder.user_id, holder.name)
        else:
            raise NotAllowed.said("sub.seat_taken", name=holder.name, seat=seat + 1)
        if new is not None:
            await self._check_candidate(match, new)
        proposal = substitutes.new_proposal(
            seat=seat,
            kind="vote",
            holder=(holder.user_id, held_by[1]),
            by=(user.id, user.name),
            to=(new.id, new.name) if new else None,
            why=why,
        )

        def mutate(settings: dict[str, Any], _version: int) -> dict[str, Any]:
            subs = dict(settings.get("subs", {}))
            old = subs.get(str(seat))
            if old and not substitutes.expired(old):
                raise NotAllowed.said(
                    "sub.vote_already_open", seat=seat + 1, to=substitutes.candidate_name(old)
                )
            subs[str(seat)] = proposal
            return {**settings, "subs": subs}

        match.settings = await self.store.update_settings(match_id, mutate)
        if substitutes.verdict(proposal, people) == "passed":  # the only person seated
            return await self._complete_sub(match_id, proposal, user)
        return self._sub_state(match, proposal, "open")

    async def _change_sub(
        self, match_id: int, user: User, seat: int, proposal_id: str | None, change: Any
    ) -> tuple[MatchRow, dict[str, Any], str]:
        """Apply ``change(proposal, people)`` to the open offer or vote of ``seat`` in one
        settings transaction (two clicks at the same moment both count); ``change``
        returns the changed proposal (or raises a refusal). Returns the match, the
        proposal and its verdict — ``failed``, ``declined`` and ``withdrawn`` remove it."""
        match = await self._load(match_id)
        self._running(match)
        people = substitutes.voters(match.seats, match.settings)
        out: list[Any] = []

        def mutate(settings: dict[str, Any], _version: int) -> dict[str, Any]:
            subs = dict(settings.get("subs", {}))
            proposal = subs.get(str(seat))
            if (
                proposal is None
                or (proposal_id is not None and proposal["id"] != proposal_id)
                or substitutes.expired(proposal)
            ):
                raise NotAllowed.said("sub.no_offer")
            proposal, status = change(dict(proposal), people)
            if status in ("failed", "declined", "withdrawn"):
                subs.pop(str(seat))
            else:
                subs[str(seat)] = proposal
            out[:] = [proposal, status]
            return {**settings, "subs": subs}

        match.settings = await self.store.update_settings(match_id, mutate)
        return match, out[0], out[1]

    async def _after_change(
        self,
        match: MatchRow,
        proposal: dict[str, Any],
        status: str,
        user: User,
        note: dict[str, Any] | None,
    ) -> SubState:
        if status == "passed":
            return await self._complete_sub(match.id, proposal, user)
        if note:
            await self.store.enqueue(match.id, [self._sub_note(match, note)])
        return self._sub_state(match, proposal, status)

    def _sub_note(
        self, match: MatchRow, said_words: dict[str, Any], mentions: Sequence[str] = ()
    ) -> Notification:
        """A post about a substitute; its words said in the match's language on delivery."""
        return Notification(
            "turn",
            {
                "match_id": match.id,
                "ply": None,
                "text": say(said_words),
                "text_words": said_words,
                "mentions": list(mentions),
                "final": False,
            },
        )

    async def vote_sub(
        self, match_id: int, user: User, seat: int, proposal_id: str | None, yes: bool
    ) -> SubState:
        """A seated person's vote on the substitute proposed for ``seat``."""

        def change(p: dict[str, Any], people: list[str]) -> tuple[dict[str, Any], str]:
            if p["kind"] != "vote":
                raise NotAllowed.said("sub.no_vote_own", holder=p["holder_name"])
            if user.id not in people:
                raise NotAllowed.said("sub.not_voter", match=match_id)
            if user.id in p["yes"] or user.id in p["no"]:
                raise NotAllowed.said("sub.already_voted")
            side = "yes" if yes else "no"
            p[side] = [*p[side], user.id]
            return p, substitutes.verdict(p, people)

        match, p, status = await self._change_sub(match_id, user, seat, proposal_id, change)
        people = substitutes.voters(match.seats, match.settings)
        words = {
            "open": "sub.voted_for" if yes else "sub.voted_against",
            "failed": "sub.failed_post",
        }.get(status)
        note = None
        if words:
            note = word(
                words,
                name=user.name,
                to=_candidate(p),
                seat=seat + 1,
                votes=substitutes.votes_for(p, people),
                needed=substitutes.needed(people),
            )
        return await self._after_change(match, p, status, user, note)

    async def answer_sub(
        self, match_id: int, user: User, seat: int, proposal_id: str | None, accept: bool
    ) -> SubState:
        """The proposed person takes the seat (once a vote on it has passed) or declines."""

        def change(p: dict[str, Any], people: list[str]) -> tuple[dict[str, Any], str]:
            if user.id != p["to"]:
                raise NotAllowed.said("sub.not_for_you", name=substitutes.candidate_name(p))
            if not accept:
                return p, "declined"
            p["accepted"] = True
            return p, substitutes.verdict(p, people)

        match, p, status = await self._change_sub(match_id, user, seat, proposal_id, change)
        note = word("sub.declined_post", to=user.name, seat=seat + 1, match=match_id)
        return await self._after_change(match, p, status, user, note if not accept else None)

    async def withdraw_sub(
        self, match_id: int, user: User, seat: int, proposal_id: str | None
    ) -> SubState:
        """Whoever made an offer or opened a vote takes it back."""

        def change(p: dict[str, Any], people: list[str]) -> tuple[dict[str, Any], str]:
            if user.id != p["by"]:
                raise NotAllowed.said("sub.not_proposer", name=p["by_name"])
            return p, "withdrawn"

        match, p, status = await self._change_sub(match_id, user, seat, proposal_id, change)
        note = word("sub.withdrawn_post", name=user.name, seat=seat + 1)
        return await self._after_change(match, p, status, user, note)

    async def open_subs(self, match_id: int) -> list[dict[str, Any]]:
        """The offers and votes of a match still open (for the front ends' choices)."""
        match = await self._load(match_id)
        return substitutes.open_proposals(match.settings)

    async def _complete_sub(self, match_id: int, proposal: dict[str, Any], user: User) -> SubState:
        """Hand the seat over as ``proposal`` says, in one versioned commit. Racing last
        clicks each try it; the one that finds the seat already changed hands reports the
        handover as done instead of doing it twice."""
        seat = proposal["seat"]
        for _ in range(5):  # a move landing between the read and the commit: look again
            match = await self._load(match_id)
            self._running(match)
            holder = match.seats[seat]
            if holder.user_id != proposal["holder"]:
                await self._drop_sub(match_id, proposal, None)
                taken = holder.user_id == proposal["to"] or (
                    proposal["to"] is None and is_computer(holder.user_id)
                )
                if taken:  # another click handed it over a moment ago
                    return self._sub_state(match, proposal, "done")
                raise NotAllowed.said("sub.no_offer")
            if proposal["to"] is None:
                level = match.settings.get("level", DEFAULT_LEVEL)
                uid, name = new_computer(
                    level if level in LEVELS else DEFAULT_LEVEL,
                    [(s.user_id, s.name) for s in match.seats],
                )
            else:
                if match.seat_of(proposal["to"]) is not None:
                    raise NotAllowed.said(
                        "sub.already_seated", name=proposal["to_name"], match=match_id
                    )
                uid, name = proposal["to"], proposal["to_name"]
            try:
                report = await self._hand_seat(match, seat, uid, name, proposal["kind"], user)
            except BoardChanged:
                continue
            await self._drop_sub(match_id, proposal, uid)
            state = self._sub_state(match, proposal, "done", report)
            state.match = report.match  # the seats after the handover
            return state
        raise BoardChanged.said("sub.busy")

    async def _drop_sub(self, match_id: int, proposal: dict[str, Any], holder: str | None) -> None:
        """Forget a finished offer or vote; the new holder (``holder``) is present."""

        def mutate(settings: dict[str, Any], _version: int) -> dict[str, Any]:
            subs = dict(settings.get("subs", {}))
            if subs.get(str(proposal["seat"]), {}).get("id") == proposal["id"]:
                subs.pop(str(proposal["seat"]))
            left = [u for u in settings.get("left", []) if u != holder]
            return {**settings, "subs": subs, "left": left}

        await self.store.update_settings(match_id, mutate)

    async def _hand_seat(
        self, match: MatchRow, seat: int, uid: str, name: str, how: str, user: User
    ) -> TurnReport:
        """The seat goes to (``uid``, ``name``) in one transaction with the log row that
        says who held it until when (read back by :mod:`bot.matches.holders`). The seat's hand
        goes with it: views, /hand and private messages follow the seat's holder."""
        assert match.state is not None
        old = match.seats[seat]
        text_words = word(f"sub.done_{how}", old=old.name, new=name, seat=seat + 1)
        label_words = word("sub.label", old=old.name, new=name, seat=seat + 1)
        text, label = say(text_words), say(label_words)
        new_row = SeatRow(seat, uid, name)
        after = replace(match, seats=[new_row if s.seat == seat else s for s in match.seats])
        ply = match.last_ply + 1
        event = Event(
            f"sub.{how}",
            "",
            {"seat": seat, "name": old.name, "user_id": old.user_id, "by": name, "by_id": uid},
        )
        try:
            version = await self.store.commit(
                match.id,
                expected_version=match.version,
                status="running",
                state=match.state,
                moves=[
                    NewMove(
                        "sub",
                        seat,
                        user.id,
                        "sub",
                        label,
                        _events_json([event]) + _label_event(label_words),
                    )
                ],
                notifications=[
                    self._turn_post(after, match.state, [text], ply=ply, words=[text_words])
                ],
                seats=[new_row],
            )
        except VersionConflict:
            raise BoardChanged.said("sub.busy") from None
        after.version = version
        after.last_ply = ply
        return await self._report(after, [text], {}, ply=ply, words=[text_words])

    async def set_left(self, match_id: int, user_id: str, left: bool = True) -> bool:
        """Mark (or unmark) a seated person as gone from the server; True when this
        changed the mark. Their seat may then be voted on (:meth:`propose_sub`)."""
        changed: list[bool] = []

        def mutate(settings: dict[str, Any], _version: int) -> dict[str, Any]:
            marks = list(settings.get("left", []))
            if left and user_id not in marks:
                marks.append(user_id)
                changed.append(True)
            elif not left and user_id in marks:
                marks.remove(user_id)
                changed.append(True)
            return {**settings, "left": marks}

        await self.store.update_settings(match_id, mutate)
        return bool(changed)

    async def player_left(self, guild_id: str, user_id: str) -> list[int]:
        """A member left the server: in each running match of that server where they
        hold a seat, mark them gone and tell the thread the others may vote a substitute
        or a computer player in. Returns those matches."""
        rows = await self.store.list_matches(
            guild_id=guild_id, user_id=user_id, statuses=("running",)
        )
        out = []
        for match in rows:
            seat = match.seat_of(user_id)
            if seat is None or not await self.set_left(match.id, user_id):
                continue
            text = word("sub.left_post", name=match.seats[seat].name, seat=seat + 1)
            people = [u for u in substitutes.voters(match.seats, match.settings) if u != user_id]
            await self.store.enqueue(match.id, [self._sub_note(match, text, people)])
            out.append(match.id)
        return out
