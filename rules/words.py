"""Words as data: the message values the rules write instead of English sentences.

Why: players read Tessera in English, Hungarian, German and Polish, but ``rules/`` is pure
and knows no reader. So a move label, an event text, a refusal or a status line is a
:class:`Msg` — a catalogue key plus parameters — and the edge (the match service, a front
end, a picture; see ``render.words.say``) renders it for one language and the players'
names. Notation stays language-neutral (``F3-R-2``).

A parameter is one of:

- an ``int`` (a count, a line number; a key that is a plural family — ``key.one``,
  ``key.other`` in the catalogue — is chosen by the parameter ``n``),
- a plain ``str`` shown verbatim (a notation token, a player-typed text),
- a :class:`Seat` (rendered as that seat's player name),
- a nested :class:`Msg` (a colour, a source, a clause: game-data names are messages too,
  so "red" is translated like any sentence),
- a :class:`Join` of such values (a list, joined by a catalogue separator such as
  ``words.and`` = " and ").

Transition, and why a message *is* a ``str``: a :class:`Msg` is a ``str`` subclass whose
value is its English text with ``{pN}`` seat placeholders — exactly the string the rules
wrote before. Every place that took a string keeps working unchanged (``fill_names``,
``len``, a database column, ``json.dumps``, tests reading English), the three games not
converted yet keep returning plain strings, and the edge renders a value as a message when
it is one (``isinstance(value, Msg)``) and as a legacy string otherwise. The English
templates come from the game packages' own catalogues (``rules/<game>/words.py``, plain
data registered with :func:`register_words`), which ``render.words.catalogue`` merges into the one
catalogue (``MESSAGES["en"]``) that translators translate. So there is one English text per
key, used both here and at the edge.

Stored form (:func:`to_json`): ``{"key": k, "params": {...}}`` with a seat as
``{"seat": n}`` and a join as ``{"join": sep_key, "items": [...]}``; numbers and plain
strings as themselves. Events store it beside their English ``text`` (see
``Event.to_json``), so old logs (English only) and new ones load alike.
"""

from __future__ import annotations

from typing import Any

#: key -> English template, filled by the game packages (:func:`register_words`) and merged
#: into the message catalogue by ``render.words.catalogue``.
ENGLISH: dict[str, str] = {}

#: Separators for :class:`Join` (words, so translators can change them too).
#: The shared words of ``rules.base`` (refusals every game gives) are keys here too.
BASE_WORDS: dict[str, str] = {
    "words.and": " and ",
    "words.comma": ", ",
    "words.semicolon": "; ",
    "game.over": "This game is over; no more moves can be made.",
    "game.not_your_turn": "It is not your turn.",
    "game.type_a_move": "Type a move. {help}",
    "game.not_legal": "“{text}” is not a legal move now. {help}",
    "game.not_legal_bare": "“{text}” is not a legal move now.",
    "game.nothing_to_compose": "Nothing can be composed here.",
    "game.player_count": "{count} is no player count for {game} (players: {low}–{high}).",
    "game.options": "{problems}.",
    "game.option.unknown": "{game} has no option {name}; its options are: {options}",
    "game.option.none": "none",
    "game.option.bool": "{name} is true or false",
    "game.option.int": "{name} is a whole number",
    "game.option.literal": "{name} is {expected}",
    "game.option.ge": "{name} must be at least {limit}",
    "game.option.gt": "{name} must be more than {limit}",
    "game.option.le": "{name} must be at most {limit}",
    "game.option.lt": "{name} must be less than {limit}",
    "game.option.form": "options are written as name=value",
    "game.option.unclear": "{name}: {problem}",
    "game.hint.rating": "search rating {rating}/100 in simulated games",
}


def register_words(words: dict[str, str]) -> None:
    """Add a game's English catalogue (keys prefixed with the game, e.g. ``azul.``)."""
    clash = [k for k in words if k in ENGLISH and ENGLISH[k] != words[k]]
    if clash:
        raise ValueError(f"message keys registered twice with different words: {clash}")
    ENGLISH.update(words)


register_words(BASE_WORDS)


def english_template(key: str, n: Any = None) -> str:
    """The English template of ``key``: for a plural family, the form for ``n``."""
    text = ENGLISH.get(key)
    if text is not None:
        return text
    form = ENGLISH.get(f"{key}.one" if n == 1 else f"{key}.other")
    if form is None:
        form = ENGLISH[f"{key}.other"]  # a KeyError here is a typo in the rules: fail loudly
    return form


class _Frozen(str):
    """A ``str`` with a few read-only attributes (``str`` subclasses cannot use slots)."""

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")


_SEATS: dict[int, Seat] = {}


class Seat(_Frozen):
    """A seat in words: its English value is the ``{pN}`` placeholder; rendered as a name."""

    seat: int

    def __new__(cls, seat: int) -> Seat:
        obj = _SEATS.get(seat)  # immutable, so one per seat (events name seats often)
        if obj is None:
            obj = _SEATS[seat] = str.__new__(cls, f"{{p{seat}}}")
            object.__setattr__(obj, "seat", seat)
        return obj

    def __reduce__(self) -> tuple[Any, ...]:
        return (Seat, (self.seat,))

    def __repr__(self) -> str:
        return f"Seat({self.seat})"


class Msg(_Frozen):
    """A message: catalogue ``key`` and ``params``; its ``str`` value is the English text.

    Build with keyword parameters: ``Msg("azul.take", who=Seat(0), n=3, colour=RED)``.
    """

    key: str
    params: dict[str, Any]

    def __new__(cls, key: str, /, **params: Any) -> Msg:
        text = ENGLISH.get(key)
        if text is None:
            text = english_template(key, params.get("n"))
        obj = str.__new__(cls, text.format(**params) if params else text)
        object.__setattr__(obj, "key", key)
        object.__setattr__(obj, "params", params)
        return obj

    def __reduce__(self) -> tuple[Any, ...]:
        # rebuilt from the English text too, so a process that has not imported the game's
        # catalogue (a render worker unpickling a view) still gets the same value
        return (_restore_msg, (str(self), self.key, self.params))

    def __repr__(self) -> str:
        inner = "".join(f", {k}={v!r}" for k, v in self.params.items())
        return f"Msg({self.key!r}{inner})"


def _restore_msg(text: str, key: str, params: dict[str, Any]) -> Msg:
    obj = str.__new__(Msg, text)
    object.__setattr__(obj, "key", key)
    object.__setattr__(obj, "params", params)
    return obj


class Join(_Frozen):
    """Values joined by the catalogue's separator ``sep`` (``words.and``, ``words.comma``)."""

    sep: str
    items: tuple[Any, ...]

    def __new__(cls, sep: str, items: Any) -> Join:
        items = tuple(items)
        obj = str.__new__(cls, ENGLISH[sep].join(str(i) for i in items))
        object.__setattr__(obj, "sep", sep)
        object.__setattr__(obj, "items", items)
        return obj

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore_join, (str(self), self.sep, self.items))

    def __repr__(self) -> str:
        return f"Join({self.sep!r}, {self.items!r})"


def _restore_join(text: str, sep: str, items: tuple[Any, ...]) -> Join:
    obj = str.__new__(Join, text)
    object.__setattr__(obj, "sep", sep)
    object.__setattr__(obj, "items", items)
    return obj


def to_json(value: Any) -> Any:
    """The JSON form of a message value (see the module docstring)."""
    if isinstance(value, Msg):
        return {"key": value.key, "params": {k: to_json(v) for k, v in value.params.items()}}
    if isinstance(value, Seat):
        return {"seat": value.seat}
    if isinstance(value, Join):
        return {"join": value.sep, "items": [to_json(i) for i in value.items]}
    if isinstance(value, str):
        return str(value)
    return value


def from_json(value: Any) -> Any:
    """A message value back from :func:`to_json` (needs the game's catalogue registered)."""
    if isinstance(value, dict):
        if "seat" in value:
            return Seat(int(value["seat"]))
        if "join" in value:
            return Join(value["join"], [from_json(i) for i in value["items"]])
        return Msg(value["key"], **{k: from_json(v) for k, v in value["params"].items()})
    return value


def is_words(value: Any) -> bool:
    """True for a structured value (rendered per language), False for a legacy string."""
    return isinstance(value, Msg | Seat | Join)
