"""The one renderer of the rules' words: a message value (:mod:`rules.words`) to text in a
language, with the players' names.

Why here: ``rules/`` writes keys and parameters and knows no reader; the catalogue lives in
``render/`` (pictures draw words too); the match service, the front ends and the pictures
all call :func:`say` where the words leave the bot, each with its reader's language (an
ephemeral reply: the user's client; a public post or picture: the match's).

:func:`say` takes what the rules give — a :class:`~rules.words.Msg`, a
:class:`~rules.words.Seat`, a :class:`~rules.words.Join`, their stored JSON form (events
and results keep it, see ``Event.to_json``), or a legacy English string with ``{pN}``
placeholders (games not converted yet, logs stored before) — so callers need not know which
they hold.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from render.words.catalogue import DEFAULT_LANGUAGE, MESSAGES, decimal, t, tn
from rules.base import Move, fill_names
from rules.words import Join, Msg, Seat, is_words


def say(value: Any, lang: Any = None, names: list[str] | None = None) -> str:
    """``value`` in ``lang`` (a language or Discord locale; None: English). Seats become
    ``names[seat]`` (``{pN}`` placeholders stay when ``names`` is None, so the text can be
    filled later)."""
    if isinstance(value, Said):
        return say(value.words, lang, value.names if names is None else names)
    if isinstance(value, Msg):
        if lang is None or lang == DEFAULT_LANGUAGE:
            return _english(value, names)
        return _message(value.key, value.params, lang, names)
    if isinstance(value, Seat):
        return _seat(value.seat, names)
    if isinstance(value, Join):
        return t(value.sep, lang).join(say(i, lang, names) for i in value.items)
    if isinstance(value, str):
        return value if names is None else fill_names(value, names)
    if isinstance(value, dict):  # the stored JSON form
        if "seat" in value:
            return _seat(int(value["seat"]), names)
        if "join" in value:
            return t(value["join"], lang).join(say(i, lang, names) for i in value["items"])
        if "key" in value:
            return _message(value["key"], value.get("params") or {}, lang, names)
        if "decimal" in value:  # a fractional figure, written as the language writes it
            places, sign = int(value.get("places", 1)), bool(value.get("sign"))
            return decimal(float(value["decimal"]), lang, places, sign)
    return str(value)


class Said(str):
    """Words already said in one language (English, with the players' names) that keep the
    message and the names, so a front end can say them again in its reader's language
    (:func:`in_language`) — the match service hands such labels to every front end."""

    words: Any
    names: list[str] | None

    def __new__(cls, text: str, words: Any, names: list[str] | None) -> Said:
        obj = str.__new__(cls, text)
        obj.words = words
        obj.names = names
        return obj

    def __reduce__(self) -> tuple[Any, ...]:
        return (Said, (str(self), self.words, self.names))


def said(value: Any, lang: Any = None, names: list[str] | None = None) -> str:
    """:func:`say`, keeping the words for another language when ``value`` is a message."""
    text = say(value, lang, names)
    return Said(text, value, names) if is_words(value) else text


def said_as_is(move: Move) -> bool:
    """Whether saying the move's labels gives the move itself: its label is plain text and
    neither it nor a step label names a player (``{pN}``)."""
    label = move.label
    return (
        not is_words(label) and "{p" not in label and not any("{p" in st.label for st in move.steps)
    )


def said_move(move: Move, names: list[str] | None) -> Move:
    """The move with its label and step labels said in English with the players' names,
    kept as :class:`Said` where they are words (so :func:`in_language` can say them again).
    For a move about to be shown or logged: the front ends name only what they show."""
    if said_as_is(move):
        return move
    steps = tuple(replace(st, label=said(st.label, None, names)) for st in move.steps)
    return replace(move, label=said(move.label, None, names), steps=steps)


def in_language(move: Move, lang: Any) -> Move:
    """The move with its label and step labels said in ``lang`` (where they are
    :class:`Said` words; plain text is left as it is)."""
    if not isinstance(move.label, Said) and not any(isinstance(s.label, Said) for s in move.steps):
        return move
    steps = tuple(replace(s, label=say(s.label, lang)) for s in move.steps)
    return replace(move, label=say(move.label, lang), steps=steps)


#: English texts of messages said before, by the identity of the message (a :class:`Msg`
#: is immutable, and the games keep building blocks of their labels cached: Azul's takes):
#: ``id(msg) -> (msg, text with {pN} placeholders)``. The entry holds the message, so its id
#: cannot be reused while the entry lives. Cleared when full.
_ENGLISH: dict[int, tuple[Msg, str]] = {}
ENGLISH_CACHE_SIZE = 16384


def _english(msg: Msg, names: list[str] | None) -> str:
    """``say(msg, None, names)``, remembered per message. Why: the service says every legal
    move's label and step labels in English (the button panel, autocomplete) — for Azul
    about a hundred messages with number words (Babel) per turn, several milliseconds
    each time, while the labels themselves are the same cached objects turn after turn.
    The text is kept with its ``{pN}`` placeholders and filled with the names afterwards,
    which gives the same text as filling them inside (names go in by one substitution
    either way), so one entry serves every match."""
    hit = _ENGLISH.get(id(msg))
    if hit is not None and hit[0] is msg:
        text = hit[1]
    else:
        text = _message(msg.key, msg.params, None, None)
        if len(_ENGLISH) >= ENGLISH_CACHE_SIZE:
            _ENGLISH.clear()
        _ENGLISH[id(msg)] = (msg, text)
    return text if names is None or "{p" not in text else fill_names(text, names)


def _seat(seat: int, names: list[str] | None) -> str:
    if names is None:
        return f"{{p{seat}}}"
    return fill_names(f"{{p{seat}}}", names)


def _message(key: str, params: dict[str, Any], lang: Any, names: list[str] | None) -> str:
    values = {k: say(v, lang, names) if isinstance(v, str | dict) else v for k, v in params.items()}
    if is_plural(key):  # a plural family, its form chosen by n
        n: int = params["n"]  # a count: say() leaves a number as it is
        del values["n"]
        return tn(key, n, lang, **values)
    return t(key, lang, **values)


def is_plural(key: str) -> bool:
    """True when ``key`` names a plural family (``key.one``, ``key.other``...)."""
    english = MESSAGES[DEFAULT_LANGUAGE]
    return key not in english and f"{key}.other" in english
