"""The service's refusals: every refusal is a :class:`ServiceError` whose message is
written for the player, and nothing was changed when one is raised.

Pure: no I/O and no service state; every part of the service and the front ends use them.
"""

from __future__ import annotations

from typing import Any, Self

from render.words.catalogue import t, tn
from render.words.say import is_plural, say
from rules import IllegalMove


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

    One representation of the message: the service's own refusals keep a catalogue
    ``key`` and its ``values`` (:meth:`said`), a refusal from the rules its ``words`` (a
    :class:`rules.words.Msg`) and the players' ``names`` (:func:`refusal`), any other a
    plain English text (``ServiceError("...")``). :meth:`text` says it in the asker's
    language; ``str()`` is that said in English, on demand (logs, tests, the console)."""

    def __init__(self, *args: Any, words: Any = None, names: list[str] | None = None) -> None:
        super().__init__(*args)
        self.words = words
        self.names = names
        self.key: str | None = None
        self.values: dict[str, Any] = {}

    @classmethod
    def said(cls, key: str, /, **values: Any) -> Self:
        """A refusal written by the service itself: a catalogue key, said in the asker's
        language by :meth:`text` (English for ``str()``)."""
        error = cls()
        error.key, error.values = key, values
        return error

    def __str__(self) -> str:
        if self.key is not None or (self.words is not None and not self.args):
            return self.text()
        return super().__str__()

    def text(self, locale: Any = None) -> str:
        """The refusal in ``locale``'s language (the English message when it has no words)."""
        if self.key is not None:
            return _catalogue_text(self.key, locale, self.values)
        if self.words is None:
            return super().__str__()
        return say(self.words, locale, self.names)


class NotFound(ServiceError):
    pass


class NotAllowed(ServiceError):
    pass


class BoardChanged(ServiceError):
    pass


class InvalidMove(ServiceError):
    pass


class DatabaseTrouble(ServiceError):
    """The database failed under a change. Unlike every other refusal, its words may say
    that the change's outcome is unknown (``err.db_unconfirmed``: a commit whose answer was
    lost and that could not be read back); see ``bot/matches/lost_commits.py``."""


def no_play_key(status: str, started: bool) -> str:
    """Why a match has no board and takes no move, as the key that says its true state: a
    lobby has not started yet; a lobby closed before it started (everyone left it, or its
    creator closed it: it never had a board) never will; a match that ran is over. Why one
    rule: a lobby everyone had left answered /board with "has not started yet" (issue 41),
    and each command that reads the board asked its own question."""
    if status == "lobby":
        return "svc.not_started"
    return "svc.over_moves" if started else "svc.closed_unstarted"


def refusal(exc: IllegalMove, names: list[str]) -> InvalidMove:
    """The rules' refusal for the player: its words and the names, said in any language."""
    return InvalidMove(words=exc.words, names=names)
