"""Playing a turn: the asker's legal moves (remembered per match version), the gate's
read a button's play may reuse, moves built pick by pick (composers), and the play
itself — parsed, applied by the rules and committed in one transaction with its turn
post and private lines.

It reads the core (the match, the store), builds its posts with ``posts``, asks the
absences part who is away (a line of the turn post) and the records part who gave a seat
up (the final ranking). The seats part plays a late seat's move through :meth:`Turns.apply`.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import replace
from typing import Any

from bot.matches.absences import Absences
from bot.matches.clocks import clocked
from bot.matches.core import Core
from bot.matches.errors import BoardChanged, NotAllowed, refusal
from bot.matches.lost_commits import not_saved, settle_lost_commit
from bot.matches.posts import (
    Posts,
    dm_post,
    folds,
    move_lines,
    people,
    private_lines,
    turn_post,
)
from bot.matches.records import Records
from bot.matches.reports import Line, MatchInfo, TurnReport, User
from bot.matches.rows import events_json, final_result, move_row, words_of
from bot.ops import metrics
from bot.storage import MatchRow, VersionConflict
from bot.storage.faults import ConnectionLost, DatabaseUnavailable, MoveKey
from render.words.catalogue import MESSAGES
from render.words.posts import listing_word, word
from render.words.say import said, said_as_is, say
from rules import Game, IllegalMove, Move, get_game
from rules.base import Composer, Step, normalise_notation
from rules.words import is_words

#: How long the gate's read of a match may serve the play that follows it (seconds).
GATE_READ_SECONDS = 5.0


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


#: Typed stand-ins for the symbols that move labels print, in every language's
#: catalogue: each spelling on the left is compared as the one on the right (labels and
#: typed text alike), so a plain keyboard can type any label. Longer spellings first.
_TYPED_SYMBOLS: tuple[tuple[str, str], ...] = (
    ("->", "→"),
    ("=>", "→"),
    ("<-", "←"),
    ("...", "…"),
)
#: Each label symbol, and each plain character typed for it, as one comparison character.
_SYMBOL_KEYS = str.maketrans(
    {
        "→": ">",  # Azul, Maharani, Pastiche: "… → line 2"
        "←": "<",  # Maharani's arrow directions
        "↑": "^",
        "↓": "v",
        "×": "x",  # "3× Rot"
        "*": "x",
        "·": ".",  # "Round 1 · …"
        "–": "-",  # en dash, em dash and minus sign as a hyphen
        "—": "-",
        "−": "-",
        "“": '"',  # typographic quotes as plain ones
        "”": '"',
        "„": '"',
        "«": '"',
        "»": '"',
        "‘": "'",
        "’": "'",
        "…": ".",  # an ellipsis, typed "..." (see _TYPED_SYMBOLS)
    }
)


def label_key(text: str) -> str:
    """A label as typed or shown, compared without case and spaces, and with every symbol
    a label prints ("→", "×", "·", "–", quotes, arrows) matching its plain-keyboard
    spellings ("->", "x" or "*", ".", "-", '"', "^"/"v"/"<-")."""
    for typed, symbol in _TYPED_SYMBOLS:
        text = text.replace(typed, symbol)
    return normalise_notation(text).translate(_SYMBOL_KEYS)


def _by_label(moves: list[Move], names: list[str], text: str) -> Move | None:
    """The move whose label, as shown in any of the catalogue's languages, is ``text`` (a
    player types what they read in their language); None unless exactly one move fits."""
    key = label_key(text)
    found: dict[str, Move] = {}
    for m in moves:
        langs = list(MESSAGES) if is_words(m.label) else [None]
        if any(label_key(say(m.label, lang, names)) == key for lang in langs):
            found[m.notation] = m
    return next(iter(found.values())) if len(found) == 1 else None


class Turns:
    """Legal moves, composed moves and plays, with the caches that spare a click work."""

    def __init__(self, core: Core, posts: Posts, absences: Absences, records: Records) -> None:
        self._core = core
        self._store = core.store
        self._posts = posts
        self._absences = absences
        self._records = records
        #: a seat's legal moves per match version, as listed by the rules (see :meth:`_legal`)
        self._listed: OrderedDict[tuple[int, int, int], list[Move]] = OrderedDict()
        #: the match as :meth:`turn_for` last read it (and when, by ``_clock``), for the
        #: :meth:`play` at that version that usually follows (see :meth:`_gated_read`)
        self._gated: OrderedDict[int, tuple[float, MatchRow]] = OrderedDict()
        self._clock = time.monotonic

    async def legal_moves(self, match_id: int, user: User) -> list[Move]:
        """The caller's legal moves now (empty when it is not their decision), every one
        named in English with the players' names; their words can be said in another
        language with ``render.words.say.in_language``. For scripts and tests that want them
        all in words: the front ends use :meth:`turn_for` and name only what they show."""
        match = await self._core.load(match_id)
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
        match = await self._core.load(match_id)
        self._gated[match.id] = (self._clock(), match)
        self._gated.move_to_end(match.id)
        while len(self._gated) > 256:
            self._gated.popitem(last=False)
        return self._core.describe(match), self._legal(match, user)

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
        match = await self._core.load(match_id)
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
        match = await self._core.load(match_id)
        game, state = self._core.running(match)
        try:
            return game.compose(state, self._core.seat(match, user), key, chosen)
        except IllegalMove as exc:
            raise refusal(exc, match.names) from None

    async def play(
        self, match_id: int, user: User, text: str, *, expected_version: int | None = None
    ) -> TurnReport:
        """Play ``text`` (notation or exact label) for ``user``.

        ``expected_version`` comes from buttons: a button pressed on an older board answers
        "the board has changed" instead of acting on a state its presser never saw.

        A database that fails before the commit (the match's read, say) wrote nothing: the
        player is told so (``err.db_not_saved``), with one log line; the commit's own
        failure is settled in :meth:`apply`.
        """
        try:
            return await self._play(match_id, user, text, expected_version)
        except (ConnectionLost, DatabaseUnavailable) as exc:
            raise not_saved(match_id, exc) from None

    async def _play(
        self, match_id: int, user: User, text: str, expected_version: int | None
    ) -> TurnReport:
        gated = self._gated_read(match_id, expected_version)
        match = gated or await self._core.load(match_id)
        game, state = self._core.running(match)
        seat = self._core.seat(match, user)
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
            found = _by_label(game.legal_moves(state, seat), names, text)
            if found is None:
                raise refusal(exc, names) from None
            move = found
        try:
            return await self.apply(match, game, state, seat, user, move, kind="move")
        except BoardChanged:
            if gated is None:
                raise
        # the gate's read was overtaken (another process moved): answer from a fresh one
        return await self._play(match_id, user, text, expected_version)

    async def apply(
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
        # the label: the rules' words (a message), or a legacy English label with {pN}
        label: Any = move.label
        if timed:  # words either way: the legacy label is their parameter
            label = word("clock.timed_label", label=words_of(label) or label)
        # the post's lines: the move told to the table, then what else happened
        said: list[Line] = move_lines(game, seat, move.notation, label, events, names)
        private = private_lines(match, events)
        result = None
        if outcome is not None:  # the match's one final ranking, stored with its end
            result = final_result(game, new_state, await self._records.resigned(match))
            said.append({"result": result, "unit": game.score_unit})
        else:
            said += await self._absences.away_lines(match, game, new_state)
        ply = match.last_ply + 1
        notes = [
            turn_post(
                match,
                new_state,
                said,
                ply=ply,
                final=result is not None,
                was_acting=people(match, game.to_act(state)),
                fold=result is None and folds(game, state, new_state, seat),
            )
        ]
        notes += [dm_post(match, uid, lines) for uid, lines in private.items()]
        try:
            version = await self._store.commit(
                match.id,
                expected_version=match.version,
                status="finished" if result else "running",
                state=new_state,
                moves=[
                    move_row(kind, seat, user.id, move.notation, label, events_json(events), names)
                ],
                result=result,
                end_reason="game over" if result else None,
                notifications=notes,
                settings_update=clocked(game, state, new_state, match.version, 1),
                settings_seen=match.settings_text,
            )
        except VersionConflict:
            raise BoardChanged.said("svc.moved_first") from None
        except DatabaseUnavailable as exc:
            raise not_saved(match.id, exc) from None
        except ConnectionLost as lost:  # committed or not? read it back, then say which
            await settle_lost_commit(
                self._store, MoveKey(match.id, ply, user.id, move.notation), lost
            )
            version = match.version + 1
        metrics.MOVES.inc(game.id)  # committed: /metrics counts it (bot/ops/metrics.py)
        match.version, match.state = version, new_state
        match.status = "finished" if result else "running"
        match.result = result
        return await self._posts.report(match, said, private, ply=ply)
