"""The posts of a state change: the turn post queued in the change's own transaction
(who must act now, who is pinged, whether it folds into the current post), each person's
private lines, and the :class:`~bot.matches.reports.TurnReport` handed back once the change
is committed.

The post builders are pure functions of the match and the states; :class:`Posts` reads
the core (to describe the match, to start background work) and asks the pictures part to
draw the board behind the answer, and the absences who is away (the away note of every
turn post). It touches nothing else.
"""

from __future__ import annotations

from typing import Any

from bot.computers.players import is_computer
from bot.matches.absences import Absences
from bot.matches.core import Core
from bot.matches.pictures import Pictures
from bot.matches.reports import Line, TurnReport, english_lines, line_words
from bot.matches.rows import stored_english, told_words, words_of
from bot.storage import MatchRow, Notification
from render.words.say import say
from rules import Event, Game, get_game
from rules.words import is_words, to_json


def turn_post(
    match: MatchRow,
    state: dict[str, Any],
    said: list[Line],
    *,
    ply: int,
    final: bool = False,
    was_acting: list[str] | None = None,
    fold: bool = False,
    named: bool = True,
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
    delivery say them in the match's language (games whose rules speak in messages).

    ``said``: the lines, each as words or a legacy English string (:data:`Line`), said
    here in English with the match's names (``named``; False: their words name no seat).
    The payload keeps that English beside the words although it could be said again:
    posts written before words were kept hold only it, delivery shows it as stored in
    English (``said_in``), and a bot of the previous version sharing the database during
    an upgrade reads it."""
    game = get_game(match.game_id)
    acting = [] if final else game.to_act(state)
    mentions = people(match, acting)
    before = set(was_acting or ())
    raw_status = None if final else game.status(state)
    status = "" if raw_status is None else say(raw_status, None, match.names)
    lines = english_lines(said, match.names if named else None)
    words = line_words(said)
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
    if any(w is not None for w in words):
        payload["words"] = words
    if is_words(raw_status):
        payload["status_words"] = to_json(raw_status)
    return Notification("turn", payload)


def move_lines(
    game: Game, seat: int, notation: str, label: Any, events: list[Event], names: list[str]
) -> list[Line]:
    """A move's lines in its turn post: first the move told to the table — its public
    sentence in the third person ("Bob took 2 blue from factory 3 to line 4.", see
    ``Game.tell``), kept as ``{"mover", "label", "told"}`` so the mover's own reply can
    still say the label ("You played: …") —, then the texts of its other events (the
    events the sentence retells are left out). A move the game does not tell keeps the
    mover's name and label ("Bob: <label>"), as before; a legacy English label is said
    here with the names filled in."""
    told = game.tell(seat, notation, [e.public() for e in events])
    kept = words_of(label)
    words = told_words(told, kept)
    first: Line
    if words is not None:
        shown = kept if kept is not None else say(label, None, names)
        first = {"mover": seat, "label": shown, "told": words}
    elif kept is not None:
        first = {"mover": seat, "label": kept}
    else:
        first = f"{names[seat]}: {say(label, None, names)}"
    retold = set(told.events) if told is not None else set()
    return [first] + [
        to_json(e.text) if is_words(e.text) else say(e.text, None, names)
        for i, e in enumerate(events)
        if e.text and i not in retold
    ]


def private_lines(match: MatchRow, events: list[Event]) -> dict[str, list[Line]]:
    """Per person, their private lines: words, or the English of a legacy string."""
    names = match.names
    out: dict[str, list[Line]] = {}
    for e in events:
        for seat, text in e.private.items():
            if seat < len(match.seats) and not is_computer(match.seats[seat].user_id):
                line = to_json(text) if is_words(text) else say(text, None, names)
                out.setdefault(match.seats[seat].user_id, []).append(line)
    return out


def dm_post(match: MatchRow, uid: str, said: list[Line]) -> Notification:
    """A private message of a change: its lines in English (said here with the match's
    names, kept for posts of before and older bots, as in :func:`turn_post`) and as words,
    said on delivery in the reader's language."""
    lines = english_lines(said, match.names)
    return Notification(
        "dm",
        {
            "match_id": match.id,
            "user_id": uid,
            "text": "\n".join(lines),
            "lines": lines,
            "words": line_words(said),  # said in the reader's language
        },
    )


def text_post(words: dict[str, Any], names: list[str] | None = None) -> dict[str, Any]:
    """A post without lines (votes, substitutes, an abort): its words, said on delivery
    in the match's language, and their English (``text``: see :func:`stored_english`;
    ``names`` where the words name seats, as a told move does)."""
    return {"text": stored_english(words, names), "text_words": words}


def people(match: MatchRow, seats: list[int]) -> list[str]:
    """The people (never computer players) holding ``seats``."""
    return [
        match.seats[s].user_id
        for s in seats
        if s < len(match.seats) and not is_computer(match.seats[s].user_id)
    ]


def folds(game: Game, before: dict[str, Any], after: dict[str, Any], seat: int) -> bool:
    """Whether a ply by ``seat`` from ``before`` to ``after`` joins the current turn
    post instead of making a new one: ``seat`` was one the game waited for, and the
    seats it waits for are still the same (a Taj Mahal withdrawal's palace choices, a
    Pastiche trading step, a grey-wall tiling run)."""
    acting = game.to_act(before)
    return seat in acting and set(game.to_act(after)) == set(acting)


class Posts:
    """Answers a committed change: the report, with its public picture drawn behind; and
    the away note every turn post carries."""

    def __init__(self, core: Core, pictures: Pictures) -> None:
        self._core = core
        self._pictures = pictures
        # who is away, read from the preferences the match was loaded with (stateless: a
        # part of its own, so every change that posts a turn asks the same one)
        self._absences = Absences(core)

    async def away_lines(
        self, match: MatchRow, game: Game, state: dict[str, Any]
    ) -> list[dict[str, Any]]:
        """The lines "Bob is away until 12 Dec" for the people ``state`` waits for who are
        away: every post that names who must act next carries them (a move's, a take-back's,
        a resignation's, a substitution's), so the table knows why nothing happens.
        ``match.preferences``: the seat holders' preferences as of ``match.seats``."""
        return await self._absences.away_lines(match, game, state)

    async def report(
        self,
        match: MatchRow,
        said: list[Line],
        private: dict[str, list[Line]] | None = None,
        *,
        ply: int,
        named: bool = True,
    ) -> TurnReport:
        """``said`` and ``private``: the lines (:data:`Line`), said with the match's names
        (``named``; False: their words name no seat), as the turn post said them."""
        info = self._core.describe(match)
        task = None
        if self._core.render_enabled and match.state is not None:
            # the move is committed: answer now, draw the picture behind (its post, sent
            # by the outbox, picks it up from the cache or waits for it)
            task = self._core.spawn(self._pictures.picture_behind(match, ply))
        names = list(match.names) if named else None
        return TurnReport(info, list(said), dict(private or {}), None, ply, task, names)
