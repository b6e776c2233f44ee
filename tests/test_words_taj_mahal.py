"""Taj Mahal speaks in messages: a whole random match, every word it shows, in the test-only
language "xx" (the English catalogue shouted, see ``tests/test_words.py``).

Every label, step label, public and private event text, refusal of a wrong input, status
line, hint reason, the outcome's reason, the summary and the notation help must be a
message (not an English string), render in "xx" without a lower-case letter (a word the
rules still wrote in English, or a missing key, shows up in lower case), and say in English
exactly the English the rules carry.
"""

from __future__ import annotations

import json
import pickle
import re
from collections.abc import Iterator
from typing import Any

import pytest

from render.words.catalogue import MESSAGES
from render.words.say import say
from rules import get_game
from rules.ai.hooks import ai_for
from rules.base import IllegalMove, fill_names
from rules.rng import Rng
from rules.words import Join, Msg, from_json, is_words, to_json

NAMES = ["ANN", "BOB", "CY", "DAN", "EVE"]
#: What may stay lower case in "xx": notation tokens (city codes such as ``delhi-n`` and
#: the moves built from them: language-neutral by design) and the text a player typed,
#: which refusals quote between “…”.
_NOTATION = re.compile(
    r"“[^”]*”|\b(?:palace-|crown-)?[a-z]+-(?:n|e|s|w|taj)\b|\btake-[A-Z]-[A-Z0-9]+"
)

#: Wrong inputs tried at every decision (upper case, as a player might type them): each
#: phase's refusals (turn, palace, crown, display pick) get their turn.
BAD = (
    "R-VE+W-C+S-X",
    "W-C",
    "W-C+R-VE",
    "R-VE+G-VE",
    "Y-GP",
    "B-EE+S-X",
    "Q-ZZ",
    "PALACE-NOWHERE-N",
    "PALACE-AGRA-TAJ",
    "PALACE-DELHI-N",
    "CROWN-NOWHERE-N",
    "CROWN-KABUL-N",
    "TAKE-Q-Q",
    "TAKE-R-VE",
    "PASS-ME",
    "",
)


def no_english(text: str) -> bool:
    return not any(c.islower() for c in _NOTATION.sub("", text))


def keys_in(value: Any) -> Iterator[str]:
    """Every catalogue key a message value uses, nested ones (card names...) included."""
    if isinstance(value, Msg):
        yield value.key
        for param in value.params.values():
            yield from keys_in(param)
    elif isinstance(value, Join):
        yield value.sep
        for item in value.items:
            yield from keys_in(item)


def words_of_a_match(players: int, seed: int) -> list[tuple[str, Any]]:
    """(kind, value) of every word value a random Taj Mahal match shows."""
    game = get_game("taj-mahal")
    state = game.setup(players, seed, {})
    rng = Rng.from_seed(seed, "words")
    out: list[tuple[str, Any]] = [("event", e.text) for e in game.setup_events(state)]
    out += [("help", game.summary), ("help", game.notation_help)]
    try:
        game.setup(players, seed, {"first_player": players})
    except IllegalMove as exc:
        out.append(("refusal", exc.words))
    ai = ai_for(game)
    while game.to_act(state):
        seat = game.to_act(state)[0]
        out.append(("status", game.status(state)))
        legal = game.legal_moves(state, seat)
        for m in legal:
            out += [("label", m.label), *(("step", s.label) for s in m.steps)]
        view = game.view(state, seat)
        out += [("hint", ai.explain(game, view, seat, m, 0.5)) for m in legal[:4]]
        for bad in (*BAD, legal[0].notation):
            for who in (seat, (seat + 1) % players):
                try:
                    game.parse(state, who, bad)
                except IllegalMove as exc:
                    out.append(("refusal", exc.words))
        state, events = game.apply(state, seat, legal[rng.below(len(legal))])
        for e in events:
            out.append(("event", e.text))
            out += [("private", text) for text in e.private.values()]
    out.append(("status", game.status(state)))
    outcome = game.outcome(state)
    assert outcome is not None
    out.append(("result", outcome.reason))
    try:
        game.parse(state, 0, "withdraw")
    except IllegalMove as exc:
        out.append(("refusal", exc.words))
    return out


@pytest.mark.parametrize(("players", "seed"), [(3, 11), (5, 4)])
def test_a_whole_taj_mahal_match_speaks_the_readers_language(
    xx: str, players: int, seed: int
) -> None:
    words = words_of_a_match(players, seed)
    assert len(words) > 2000
    kinds: set[str] = set()
    keys: set[str] = set()
    for kind, value in words:
        assert is_words(value), f"English string left in Taj Mahal's {kind}: {value!r}"
        shown = say(value, xx, NAMES)
        assert no_english(shown), (kind, shown)
        # the English the rules carry is the catalogue's English at the edge, to the byte
        assert say(value, None, NAMES) == fill_names(str(value), NAMES)
        kinds.add(kind)
        keys.update(keys_in(value))
    assert kinds == {
        *("event", "private", "help", "refusal", "status", "label", "step", "hint", "result")
    }
    for prefix in (
        "taj_mahal.no.",
        "taj_mahal.label.",
        "taj_mahal.step.",
        "taj_mahal.ev.",
        "taj_mahal.status.",
        "taj_mahal.hint.",
        "taj_mahal.result.",
        "taj_mahal.summary",
        "taj_mahal.notation_help",
        # names of game data, nested in the sentences
        "taj_mahal.card.",
        "taj_mahal.colour.",
        "taj_mahal.symbol.",
        "taj_mahal.special.",
        "taj_mahal.province.",
        "taj_mahal.side.",
        "taj_mahal.good.",
        "taj_mahal.bonus.",
        "taj_mahal.prize.",
        "game.not_your_turn",
    ):
        assert any(k.startswith(prefix) for k in keys), prefix


def test_words_keep_through_json_and_pickle_and_count_in_english() -> None:
    """Stored events and labels come back as the same messages (card names, provinces
    and seats nested inside); counted English agrees with its number (no "card(s)")."""
    game = get_game("taj-mahal")
    state = game.setup(4, 7, {})
    values: list[Any] = [e.text for e in game.setup_events(state)]
    for _ in range(40):
        seat = game.to_act(state)[0]
        move = game.legal_moves(state, seat)[-1]
        values += [move.label, game.status(state)]
        state, events = game.apply(state, seat, move)
        values += [e.text for e in events] + [t for e in events for t in e.private.values()]
    for value in values:
        stored = json.loads(json.dumps(to_json(value)))
        assert to_json(from_json(stored)) == to_json(value)
        assert say(stored, "en", NAMES) == say(value, "en", NAMES)
        copy = pickle.loads(pickle.dumps(value))
        assert type(copy) is type(value) and to_json(copy) == to_json(value)
    assert str(Msg("taj_mahal.ev.deal", n=1)) == "Each player was dealt 1 card."
    assert str(Msg("taj_mahal.ev.deal", n=6)) == "Each player was dealt 6 cards."
    assert str(Msg("taj_mahal.bonus.card", n=1)) == "+1 card"
    assert not any("(s)" in v for k, v in MESSAGES["en"].items() if k.startswith("taj_mahal."))
