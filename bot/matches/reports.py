"""The values the match service hands to its callers: who asks (:class:`User`), a match
as the front ends see it (:class:`MatchInfo`), what a state change produced
(:class:`TurnReport`) and what a computer's search needs for one seat (:class:`SeatTurn`).

Plain data: no I/O, no service state.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.storage import Seated, SeatRow
from render.words.posts import say_line
from render.words.say import say

#: One line of a post or reply, in one representation: its words (a JSON form of
#: docs/words.md, always a dict: a message, ``{"mover", "label"}``, ``{"result", "unit"}``,
#: ``{"away", "until"}``), or a ``str``: a line kept only in English (a legacy label or
#: event text of a game not speaking in messages, with the names already filled in).
Line = dict[str, Any] | str


def english(line: Line, names: list[str] | None) -> str:
    """``line`` said in English: with the match's ``names`` (None: the words name no seat
    and their strings are shown as they are, such as a seat's old and new holders)."""
    if isinstance(line, str):
        return line
    if names is None and "away" not in line:  # an away line names its player as a string
        return say(line)
    return say_line(line, None, names or [])


def english_lines(lines: list[Line], names: list[str] | None) -> list[str]:
    return [english(line, names) for line in lines]


def line_words(lines: list[Line]) -> list[Any]:
    """Per line, its words, or None for a line kept only in English."""
    return [None if isinstance(line, str) else line for line in lines]


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


@dataclass(frozen=True, slots=True)
class Awaited:
    """A running match that waits for one person (:meth:`Lobby.awaiting`): when it began
    waiting for their seat, and when their clock runs out if nothing changes and nobody
    goes away (what the turn post shows; None: the match has no clock)."""

    match: MatchInfo
    since: float
    deadline: float | None


@dataclass(slots=True)
class TurnReport:
    """What a state change produced, ready for any front end.

    The report is returned as soon as the change is committed; its public picture is drawn
    afterwards (``picture_task``), so a move never waits for a busy render pool. Await
    :meth:`wait_picture` for it: None when the picture was dropped because the match has
    already moved on (the newer state's picture replaces it) or could not be drawn.
    """

    match: MatchInfo
    #: the public lines, each as words or a legacy English string (:data:`Line`); the
    #: English (:attr:`lines`) and the words (:attr:`words`) are said from them on demand
    said: list[Line]
    #: each person's private lines, likewise
    private_said: dict[str, list[Line]] = field(default_factory=dict)
    picture: bytes | None = None
    ply: int = 0
    picture_task: asyncio.Future[bytes | None] | None = None
    #: the names the lines are said with (None: their words name no seat)
    names: list[str] | None = None

    @property
    def lines(self) -> list[str]:
        """The public lines in English (the move reply's fallback, logs and tests)."""
        return english_lines(self.said, self.names)

    @property
    def words(self) -> list[Any]:
        """The public lines as words (docs/words.md; None: a line kept only in English), so
        a front end says them in its reader's language."""
        return line_words(self.said)

    @property
    def private(self) -> dict[str, list[str]]:
        """Each person's private lines in English."""
        return {uid: english_lines(lines, self.names) for uid, lines in self.private_said.items()}

    @property
    def private_words(self) -> dict[str, list[Any]]:
        """Each person's private lines as words (None: kept only in English)."""
        return {uid: line_words(lines) for uid, lines in self.private_said.items()}

    @property
    def finished(self) -> bool:
        return self.match.status in ("finished", "aborted")

    async def wait_picture(self) -> bytes | None:
        if self.picture is None and self.picture_task is not None:
            self.picture = await asyncio.shield(self.picture_task)
        return self.picture


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
