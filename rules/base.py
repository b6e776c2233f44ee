"""The one interface every game offers, and the value types that cross it.

Why this shape: a match must be reproducible from seed + moves, storable as JSON and
playable by any front end without game-specific code. So a *state* is plain JSON data
(dicts, lists, ints, strings, bools, None) holding its own random-number state; a *move*
is a notation string (what a player types, what a button carries, what the log stores)
plus human words and a short path of choices (steps) that a guided panel can walk;
``apply`` is pure and returns *events*, the words and chance outcomes of what happened.

Words are data (see :mod:`rules.words`): a label, an event text, a refusal, a status line
or an outcome's reason is a :class:`~rules.words.Msg` — a catalogue key plus parameters
(numbers, :class:`~rules.words.Seat` for a player, nested messages for game-data names
such as a colour, :class:`~rules.words.Join` for lists) — and the edge renders it in the
reader's language with the players' names (``render.words.say``). The pattern a game
follows (Azul does; Taj Mahal, Maharani and Pastiche still return English strings, which
every consumer still accepts, since a ``Msg`` is itself a ``str``):

1. its English templates go in ``rules/<game>/words.py`` as a dict of keys prefixed with
   the game id (plural families as ``key.one`` / ``key.other``, chosen by the parameter
   ``n``: never "tile(s)"), registered with :func:`rules.words.register_words`;
   ``render.words.catalogue`` merges every registered catalogue into ``MESSAGES["en"]``;
2. labels, step labels, event texts and privates, status lines, refusals
   (``IllegalMove(Msg(...))``), ``summary``, ``notation_help`` and ``Outcome.reason`` are
   built as ``Msg(key, **params)``; game-data names (colours, provinces) are messages too;
   notation tokens stay plain strings (they are language-neutral);
3. the English value of every message stays the text the game wrote before, so a
   conversion is proven by the engine-equivalence digests (``tests/engine_corpus.py``).

Legacy text in events may name seats with ``{p0}``..``{p4}`` placeholders: the rules know
seats, the application knows display names and fills them in (see :func:`fill_names`); a
message's English value carries the same placeholders for its seats.
"""

from __future__ import annotations

import contextlib
import re
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, get_args, get_origin

from pydantic import BaseModel, ConfigDict, ValidationError

from rules.rng import Rng
from rules.words import Join, Msg, from_json, to_json

State = dict[str, Any]
View = dict[str, Any]

#: Notations are at most 80 characters and labels 100; typed text beyond this is refused
#: without enumerating moves, so a pasted novel costs nothing.
MAX_TYPED = 200


class IllegalMove(ValueError):
    """Raised for any move the rules do not allow. The message is for the player: it says
    *why* in plain words ("line 3 already holds red"), never a traceback or an internal id.
    Converted games raise it with a :class:`~rules.words.Msg` (``words``), so the service
    can say why in the language of whoever typed the move; ``str()`` is the English."""

    @property
    def words(self) -> str:
        """The reason as given: a ``Msg`` for converted games, else an English string."""
        return self.args[0] if self.args and isinstance(self.args[0], str) else str(self)


#: Refusals every game gives.
OVER_ALREADY = Msg("game.over")
NOT_YOUR_TURN = Msg("game.not_your_turn")


class NoOptions(BaseModel):
    """Options model for games without match options."""

    model_config = ConfigDict(extra="forbid")


@dataclass(frozen=True)
class OptionSpec:
    """One match option as a front end must know it: its name, its kind (``bool``, ``int``,
    ``float`` or ``choice``), its default and what it allows. Read from the game's pydantic
    Options model, so the model stays the one place an option is declared and the
    console, Discord, the refusals and the docs all read the same facts."""

    name: str
    kind: str
    default: Any
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()


def option_specs(model: type[BaseModel]) -> tuple[OptionSpec, ...]:
    """The options of an Options model, in declaration order. A field of another type
    would need a reader in every front end: refused here, so nobody adds one silently."""
    specs = []
    for name, info in model.model_fields.items():
        kind_of = info.annotation
        low = high = None
        for meta in info.metadata:
            low = getattr(meta, "ge", low)
            high = getattr(meta, "le", high)
        if get_origin(kind_of) is Literal:
            choices = tuple(str(a) for a in get_args(kind_of))
            specs.append(OptionSpec(name, "choice", info.default, choices=choices))
        elif kind_of in (bool, int, float):
            kind = kind_of.__name__
            specs.append(OptionSpec(name, kind, info.default, low, high))
        else:
            raise TypeError(f"option {name}: no front end reads a {kind_of}")
    return tuple(specs)


@dataclass(frozen=True, slots=True)
class Step:
    """One choice on the path to a move: ``key`` is the token, ``label`` the human words."""

    key: str
    label: str


@dataclass(frozen=True, slots=True)
class Move:
    """A legal move. ``notation`` is canonical and unique among the legal moves of a seat.

    ``steps`` split the move into successive choices (Azul: source, colour, line) so a
    guided panel or autocomplete can walk any game's moves without knowing the game.
    ``rank`` orders suggestions (higher first) when only 25 fit in an autocomplete list.
    """

    notation: str
    label: str
    steps: tuple[Step, ...] = ()
    rank: float = 0.0


@dataclass(frozen=True, slots=True)
class Pick:
    """One part of a composed move (see :class:`Composer`): choose from ``least`` to
    ``most`` of ``options``; an option may be listed more than once (two green cards)."""

    key: str
    label: str
    options: tuple[Step, ...]
    least: int = 1
    most: int = 1


@dataclass(frozen=True, slots=True)
class Composer:
    """A kind of move too free to list (a Pastiche trade offer: any cards for any cards),
    built by picks instead of walked through ``Move.steps``. ``Game.compose`` turns the
    chosen option keys into the move's notation, which ``parse`` then judges like any typed
    move, so a guided panel needs no game-specific code for it either."""

    key: str
    label: str
    picks: tuple[Pick, ...]


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, in words and data.

    - ``text``: public words (may use ``{pN}`` seat placeholders).
    - ``data``: public, JSON-able details.
    - ``secret``: JSON-able details that must stay hidden while the match runs (a card
      drawn into a hand); exported only in the record of a finished match.
    - ``private``: seat -> extra words only that seat may read (sent ephemerally/by DM).
    - ``reveals``: chance or hidden information came to light (tiles drawn, cards dealt);
      the undo policy refuses to take back a move across such an event.
    """

    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)
    secret: dict[str, Any] = field(default_factory=dict)
    private: dict[int, str] = field(default_factory=dict)
    reveals: bool = False

    def to_json(self, *, include_secret: bool) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "text": str(self.text), "data": self.data}
        if isinstance(self.text, Msg):  # the words too, so a log can be shown in any language
            out["msg"] = to_json(self.text)
        if self.reveals:
            out["reveals"] = True
        if include_secret:
            if self.secret:
                out["secret"] = self.secret
            if self.private:
                out["private"] = {str(k): str(v) for k, v in self.private.items()}
                if any(isinstance(v, Msg) for v in self.private.values()):
                    out["private_msg"] = {str(k): to_json(v) for k, v in self.private.items()}
        return out

    def public(self) -> Event:
        """The event as everyone saw it: no secret details, no private words."""
        if not self.secret and not self.private:
            return self
        return Event(self.kind, self.text, self.data, reveals=self.reveals)

    @classmethod
    def from_public_json(cls, entry: dict[str, Any]) -> Event:
        """The public part of a stored event (:meth:`to_json`): its words again as a
        message where the row kept them (``msg``), else its English ``text``. Words whose
        key a later version no longer knows are read as that English too, so any stored
        row can be read back."""
        text: Any = entry.get("text", "")
        if isinstance(entry.get("msg"), dict):
            # a key or parameter of an older version: its English stands
            with contextlib.suppress(KeyError, TypeError, ValueError, IndexError):
                text = from_json(entry["msg"])
        return cls(
            str(entry.get("kind", "")),
            text,
            dict(entry.get("data") or {}),
            reveals=bool(entry.get("reveals")),
        )


@dataclass(frozen=True, slots=True)
class Told:
    """A move told to the table: what a spectator reads of it (a turn post's move line, a
    picture's "Last move", a replay, alt text).

    - ``words``: one public sentence in the third person, naming the mover as a seat
      ("Bob took 2 blue from factory 3 to line 4."; English in the past tense, other
      languages in the tense their event texts use): never the mover's button label,
      which speaks to the mover ("End your turn", "Offer Bob your …").
    - ``events``: the indexes of the move's events the sentence retells, which a post
      showing the sentence leaves out (the rest — a refill, a scoring — stay lines of
      their own).
    """

    words: str
    events: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game.

    ``ranks[seat]`` is 1 for the winner(s); tied seats share a rank (shared victory).
    ``reason`` explains any tie-break in words.
    """

    scores: list[int]
    ranks: list[int]
    reason: str = ""
    details: list[dict[str, Any]] = field(default_factory=list)

    @property
    def winners(self) -> list[int]:
        return [s for s, r in enumerate(self.ranks) if r == 1]

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": self.scores,
            "ranks": self.ranks,
            "winners": self.winners,
            "reason": self.reason,  # a Msg stays one here (JSON stores its English)
            "details": self.details,
        }


def rank_by(keys: list[tuple[Any, ...]]) -> list[int]:
    """Competition ranking (1, 1, 3) from comparable keys, higher is better."""
    return [1 + sum(1 for other in keys if other > k) for k in keys]


_PLACEHOLDER = re.compile(r"\{p(\d)\}")


def fill_names(text: str, names: list[str]) -> str:
    """Replace ``{pN}`` placeholders with display names (unknown seats left as 'seat N')."""

    def sub(m: re.Match[str]) -> str:
        i = int(m.group(1))
        return names[i] if i < len(names) else f"seat {i + 1}"

    return _PLACEHOLDER.sub(sub, text)


def normalise_notation(text: str) -> str:
    """Case- and space-insensitive key used to match typed text against notations."""
    return re.sub(r"\s+", "", text).lower()


class Game(ABC):
    """A game's rules behind the shared interface. Subclasses are stateless singletons."""

    id: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    Options: ClassVar[type[BaseModel]] = NoOptions
    #: A few lines for ``/rules``; the full text lives in the rules reference.
    summary: ClassVar[str] = ""
    #: How to type a move, shown in help and in errors for malformed notation.
    notation_help: ClassVar[str] = ""
    #: What the scores count, in results ("1. Ann — 40 gold"): Maharani scores gold.
    score_unit: ClassVar[str] = "points"
    #: Whether players hold private information (hands): enables ``/hand``.
    has_hidden_information: ClassVar[bool] = False
    #: State keys a later version began to record (what the last move changed, where the
    #: points came from). A snapshot stored before then lacks them (or, once played on,
    #: holds them only from its next move: ``None`` where a whole-game tally was due); the
    #: audit, which rebuilds each match from seed and moves with today's rules, compares
    #: such a snapshot without these keys instead of calling it corrupt.
    later_keys: ClassVar[tuple[str, ...]] = ()

    # ----- options ---------------------------------------------------------------------
    def parse_options(self, options: BaseModel | dict[str, Any] | None) -> BaseModel:
        """Validate match options; malformed options raise IllegalMove in the player's words
        ("grey_wall is true or false", "Azul has no option colour; its options are: ...")."""
        if isinstance(options, self.Options):
            return options
        try:
            return self.Options.model_validate(options or {})
        except ValidationError as exc:
            problems = list(dict.fromkeys(self._option_problem(e) for e in exc.errors()))
            raise IllegalMove(
                Msg("game.options", problems=Join("words.semicolon", problems))
            ) from None

    def _option_problem(self, error: Any) -> Msg:
        """One pydantic error as a sentence a player understands (no pydantic jargon)."""
        names = list(self.Options.model_fields)
        name = ".".join(str(p) for p in error["loc"]) or "options"
        kind = error["type"]
        ctx = error.get("ctx") or {}
        if kind == "extra_forbidden":
            listed = Join("words.comma", names) if names else Msg("game.option.none")
            return Msg("game.option.unknown", game=self.name, name=name, options=listed)
        if kind.startswith("bool"):
            return Msg("game.option.bool", name=name)
        if kind.startswith("int") or kind.startswith("float"):
            return Msg("game.option.int", name=name)
        if kind == "literal_error":
            expected = str(ctx.get("expected", "")).replace("'", "")
            return Msg("game.option.literal", name=name, expected=expected)
        bounds = {
            "greater_than_equal": ("game.option.ge", "ge"),
            "greater_than": ("game.option.gt", "gt"),
            "less_than_equal": ("game.option.le", "le"),
            "less_than": ("game.option.lt", "lt"),
        }
        if kind in bounds:
            key, limit = bounds[kind]
            return Msg(key, name=name, limit=str(ctx.get(limit)))
        if kind in ("model_type", "dict_type"):
            return Msg("game.option.form")
        return Msg("game.option.unclear", name=name, problem=str(error["msg"]))

    def check_player_count(self, player_count: int) -> None:
        if not self.min_players <= player_count <= self.max_players:
            raise IllegalMove(
                Msg(
                    "game.player_count",
                    game=self.name,
                    low=self.min_players,
                    high=self.max_players,
                    count=player_count,
                )
            )

    # ----- the game --------------------------------------------------------------------
    @abstractmethod
    def setup(
        self, player_count: int, seed: int, options: BaseModel | dict[str, Any] | None = None
    ) -> State:
        """A fresh state; all randomness comes from ``seed`` and is stored inside the state."""

    @abstractmethod
    def to_act(self, state: State) -> list[int]:
        """Seats whose input the game waits for (empty when the game is over)."""

    def may_act(self, state: State) -> list[int]:
        """Seats that may move now: ``to_act`` plus seats with optional moves the game does
        not wait for (Pastiche: anyone may offer the trading player a trade). The first
        seat of ``to_act`` is the one whose turn it is (the clock's seat)."""
        return self.to_act(state)

    def waits_for(self, state: State) -> list[int]:
        """The seats of ``to_act`` whose clocks run now: the seats the game really waits
        for, in the order they should move (the bot's driver, the search and the arena take
        them in this order). Usually all of ``to_act``; a game narrows it where a seat in
        ``to_act`` is itself waiting for others (Pastiche: the trading player whose offers
        await answers), so that seat is not timed for the others' slowness, and orders it
        where an answer should land before the turn moves on."""
        return self.to_act(state)

    @abstractmethod
    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Every move ``seat`` may make now (empty if it is not that seat's decision)."""

    @abstractmethod
    def apply(self, state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
        """Pure: returns a new state (the argument is not modified) and what happened."""

    def next_state(self, state: State, seat: int, move: Move) -> State:
        """``apply``'s new state without its events, for callers that never read them
        (random playouts, search rollouts and trees). Why a method of its own: building an
        event's words (messages formatted into English, nested names) costs a random
        playout a fifth of its time or more, and a search's simulated moves are never
        shown to anyone. A game overrides this with a path that builds no words; it must
        return exactly the state ``apply`` returns (``tests/test_engine_equivalence.py``
        compares them over whole games)."""
        return self.apply(state, seat, move)[0]

    @abstractmethod
    def view(self, state: State, seat: int | None) -> View:
        """What ``seat`` may see (``None``: a spectator). JSON-able; never another's hand."""

    @abstractmethod
    def outcome(self, state: State) -> Outcome | None:
        """``None`` while the game runs."""

    @abstractmethod
    def scores(self, state: State) -> list[int]:
        """Current public scores (used for standings and when a match ends early)."""

    @abstractmethod
    def status(self, state: State) -> str:
        """One public line: round/phase and who must act, with ``{pN}`` placeholders."""

    # ----- defaults a game may refine --------------------------------------------------
    def parse(self, state: State, seat: int, text: str) -> Move:
        """Notation (or a move's exact label) to a legal move, or IllegalMove saying why."""
        if self.outcome(state) is not None:
            raise IllegalMove(OVER_ALREADY)
        if seat not in self.may_act(state):
            raise IllegalMove(NOT_YOUR_TURN)
        key = normalise_notation(text)
        if not key:
            raise IllegalMove(Msg("game.type_a_move", help=self.notation_help))
        if len(key) <= MAX_TYPED:  # longer text is no notation or label: skip the search
            found = self.find_notation(state, seat, key)
            if found is not None:
                return found
            for move in self.legal_moves(state, seat):
                if normalise_notation(move.label) == key:
                    return move
        raise IllegalMove(self.explain_illegal(state, seat, text))

    def find_notation(self, state: State, seat: int, key: str) -> Move | None:
        """The legal move whose normalised notation is ``key``, else None. Games with
        thousands of legal moves override this to build only candidates of the typed kind."""
        for move in self.legal_moves(state, seat):
            if normalise_notation(move.notation) == key:
                return move
        return None

    def composers(self, state: State, seat: int) -> list[Composer]:
        """Kinds of move ``seat`` may build pick by pick now (none for most games)."""
        return []

    def compose(self, state: State, seat: int, key: str, chosen: list[list[str]]) -> str:
        """The notation of composer ``key`` with these option keys chosen per pick (then
        checked by ``parse``); IllegalMove when the choice does not fit the composer."""
        raise IllegalMove(Msg("game.nothing_to_compose"))

    def explain_illegal(self, state: State, seat: int, text: str) -> str:
        """Why ``text`` is not a legal move. Games override this with precise reasons."""
        shown = text.strip()[:60]
        if not self.notation_help.strip():
            return Msg("game.not_legal_bare", text=shown)
        return Msg("game.not_legal", text=shown, help=self.notation_help.strip())

    def setup_events(self, state: State) -> list[Event]:
        """Chance outcomes of ``setup`` (the first factories, the opening deal), so a game
        record can show and an independent program can check them. Secret parts (cards
        dealt into hands) go in ``Event.secret``."""
        return []

    def tell(self, seat: int, notation: str, events: list[Event]) -> Told | None:
        """The public sentence of a move (:class:`Told`): what ``seat`` did by the move
        with ``notation``, built from the move's public ``events`` only (``Event.public``,
        or :meth:`Event.from_public_json` for a stored row), so it can never say a hidden
        card, and a move row stored before this existed is told alike. None when the
        events do not say the move (a row of an older version whose words are gone): the
        caller then shows the mover's name and the move's label, as before.

        Default: None. Every shipped game tells each kind of move it has
        (tests/test_told.py)."""
        return None

    def is_commitment(self, state: State, seat: int, move: Move) -> bool:
        """Whether ``move`` by ``seat`` in ``state`` (the state *before* it) is a commitment
        the other players have seen: taking it back would let its maker use what the others
        learnt or did in answer (a Taj Mahal withdrawal, an answered Pastiche offer, cards
        shown from a hidden hand). ``/undo`` of a commitment needs everyone's consent, like
        an undo after the turn has passed, even while its maker is still the one to act.

        Default: no move is a commitment. Moves whose events reveal chance or hidden
        information (``Event.reveals``) are never taken back at all, commitment or not.
        Must be pure and cheap: the service asks it when someone asks to undo."""
        return False

    def default_move(self, state: State, seat: int) -> Move | None:
        """The game's own pass for a seat whose clock ran out (withdrawing, declining an
        offer, ending a turn); ``None`` where the rules give no pass (the bot then makes
        the computer player's easy move for the seat, see ``bot/matches/clocks.py``)."""
        return None

    def random_move(self, state: State, seat: int, rng: Rng) -> Move:
        """A uniformly random legal move (or a sensibly random one: games with hundreds of
        moves may sample without enumerating). Used by random playouts and search rollouts."""
        return rng.choice(self.legal_moves(state, seat))

    def private_view_differs(self, state: State, seat: int) -> bool:
        """True when ``view(state, seat)`` shows more than the public view (a hand)."""
        return self.has_hidden_information
