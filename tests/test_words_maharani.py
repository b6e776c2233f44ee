"""Maharani speaks in words as data (rules/maharani/words.py), like Azul in test_words.py.

A whole random match at 2 and at 4 players is played in the test language "xx" (the
English catalogue shouted, see ``tests.test_words``): every word value the game shows —
move and step labels, events, refusals of wrong inputs, status lines, hint reasons, the
outcome's reason, the summary and the notation help — must be a message, render with no
lower-case letter in "xx" (a word the rules still wrote in English, or a name from the game
data without a catalogue key, would show as lower case), and carry as its English exactly
the catalogue's English. The same words said in Hungarian, German and Polish keep move
labels within Discord's 100 characters and distinct, since players type them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.matches.errors import InvalidMove
from bot.matches.service import MatchService
from render.words.catalogue import MESSAGES
from render.words.say import in_language, say
from rules import get_game
from rules.ai.hooks import ai_for
from rules.base import IllegalMove, fill_names
from rules.maharani.data import COLUMNS, geometry
from rules.maharani.words import ANIMALS, COLOURS, WORDS
from rules.rng import Rng
from rules.words import Join, Msg, is_words
from tests.conftest import ALICE, BOB

NAMES = ["ANN", "BOB", "CY", "DEE"]
#: Lower case that may stay in "xx": the worker-choice notations a refusal lists.
_NOTATION = re.compile(r"\b(?:new|move)[12]\b")
#: Typed inputs tried every turn (upper case: a refusal quotes what was typed).
BAD = ("STOP", "REFRESH", "NEW1", "XYZ", "2D4N", "3A1S", "1H8E", "")


def no_english(text: str) -> bool:
    return not any(c.islower() for c in _NOTATION.sub("", text))


def _tries(rng: Rng) -> list[str]:
    """A few random placements (some without an arrow): most are refused, for many reasons."""
    out = []
    for _ in range(6):
        field = 1 + rng.below(4)
        space = f"{COLUMNS[rng.below(8)]}{1 + rng.below(8)}"
        out.append(f"{field}{space}{'NESW'[rng.below(4)] if rng.below(3) else ''}")
    return out


def _words_of_a_match(players: int, seed: int) -> tuple[list[Any], list[Any]]:
    """Every word value of a random match, and the move labels among them."""
    game = get_game("maharani")
    ai = ai_for(game)
    state = game.setup(players, seed)
    rng = Rng.from_seed(seed, "words")
    out: list[Any] = [e.text for e in game.setup_events(state)]
    out += [game.summary, game.notation_help]
    labels: list[Any] = []
    while game.to_act(state):
        seat = game.to_act(state)[0]
        out.append(game.status(state))
        legal = game.legal_moves(state, seat)
        labels += [m.label for m in legal]
        for m in legal:
            out += [m.label, *(s.label for s in m.steps)]
        view = game.view(state, seat)
        for m in {id(m): m for m in (*legal[:2], legal[-1])}.values():  # /hint
            out.append(ai.explain(game, view, seat, m, 0.5))
        for bad in (*BAD, *_tries(rng)):
            for who in (seat, (seat + 1) % players):
                try:
                    game.parse(state, who, bad)
                except IllegalMove as exc:
                    out.append(exc.words)
        move = legal[rng.below(len(legal))]
        state, events = game.apply(state, seat, move)
        out += [e.text for e in events if e.text]
        told = game.tell(seat, move.notation, [e.public() for e in events])  # the table's
        assert told is not None
        out.append(told.words)
        out += [words for e in events for words in e.private.values()]  # none in Maharani
    out.append(game.status(state))
    outcome = game.outcome(state)
    assert outcome is not None
    out.append(outcome.reason)
    return out, labels


def _keys(value: Any) -> set[str]:
    """The catalogue keys a word value uses, nested ones included (plural families by name)."""
    if isinstance(value, Msg):
        keys = {value.key}
        for v in value.params.values():
            keys |= _keys(v)
        return keys
    if isinstance(value, Join):
        return {value.sep}.union(*(_keys(i) for i in value.items))
    return set()


def _family(key: str) -> str:
    return key.rsplit(".", 1)[0] if key.endswith((".one", ".other")) else key


#: Keys a random match seldom reaches (a quarter step never: no tile fits more than 24
#: spaces); each is met in :func:`_rare_words`.
RARE = {
    "maharani.ev.stall",
    "maharani.ev.end_shared",
    "maharani.result.shared",
    "maharani.result.stalled",
    "maharani.status.over_stall",
    "maharani.ev.score_unfinished",
    "maharani.ev.no_worker",
    "maharani.told.no_worker",
    "maharani.told.worker_moved",
    "maharani.ev.group",
    "maharani.step.quarter",
    "maharani.step.quarter_marker",
    "maharani.hint.pass",
}


@pytest.fixture(scope="module")
def matches() -> dict[int, tuple[list[Any], list[Any]]]:
    return {2: _words_of_a_match(2, 34), 4: _words_of_a_match(4, 34)}


@pytest.mark.parametrize("players", [2, 4])
def test_a_whole_maharani_match_speaks_the_readers_language(
    xx: str, matches: dict[int, tuple[list[Any], list[Any]]], players: int
) -> None:
    words, _ = matches[players]
    assert len(words) > 1000
    keys: set[str] = set()
    for value in words:
        assert is_words(value), f"English string left in Maharani's rules: {value!r}"
        shown = say(value, xx, NAMES)
        assert no_english(shown), shown
        # the English the rules carry is the catalogue's English at the edge, to the byte
        assert say(value, None, NAMES) == fill_names(str(value), NAMES)
        keys |= _keys(value)
    # every kind of word was there: labels, steps, events, refusals, status, hints, result
    for prefix in (
        "maharani.label.",
        "maharani.step.",
        "maharani.ev.",
        "maharani.no.",
        "maharani.status.",
        "maharani.hint.",
        "maharani.result.",
        "maharani.summary",
        "maharani.notation_help",
        "maharani.colour.",
        "maharani.a_tile.",
        "maharani.animal.",
        "maharani.quarter_name.",
        "maharani.side.",
    ):
        assert any(k.startswith(prefix) for k in keys), prefix
    if players == 2:  # the worker choice and its two worker colours
        assert {"maharani.worker.round", "maharani.worker.square"} <= keys
        assert "maharani.status.worker" in keys


def test_both_matches_reach_every_common_key(
    matches: dict[int, tuple[list[Any], list[Any]]],
) -> None:
    """Every key of the catalogue is met by the two matches, but for the rare ones (tested
    one by one below): a key no game path uses is a leftover."""
    met = set().union(*(_keys(v) for words, _ in matches.values() for v in words))
    families = {_family(k) for k in WORDS}
    assert families - {_family(k) for k in met} - RARE == set()


@pytest.mark.parametrize("lang", ["hu", "de", "pl"])
def test_move_labels_fit_discord_and_stay_distinct_in_every_language(
    matches: dict[int, tuple[list[Any], list[Any]]], lang: str
) -> None:
    """Labels are typed back by players and listed by autocomplete (≤ 100 characters)."""
    for _, labels in matches.values():
        shown = [say(label, lang, NAMES) for label in labels]
        assert max(len(x) for x in shown) <= 100, max(shown, key=len)
        assert not any(c in x for x in shown for c in "{}")
    # within one position's legal moves no two labels coincide
    game = get_game("maharani")
    state = game.setup(2, 3)
    legal = game.legal_moves(state, state["turn"])
    said = [say(m.label, lang, NAMES).lower() for m in legal]
    assert len(set(said)) == len(said)


def test_the_data_names_are_catalogue_words() -> None:
    """Every colour and animal in data/maharani has its words (a new one needs keys)."""
    g = geometry()
    assert set(g.colours) == set(COLOURS) and set(g.animals) == set(ANIMALS)
    for c in COLOURS:
        assert f"maharani.colour.{c}" in MESSAGES["en"] and f"maharani.a_tile.{c}" in WORDS
    for a in ANIMALS:
        assert f"maharani.animal.{a}" in WORDS and f"maharani.quarter_name.{a}" in WORDS


def _rare_words() -> list[Any]:
    """The words of situations a random match seldom reaches: a stall, a shared victory,
    a worker with none left, a quarter step (only for a tile with very many spaces)."""
    from rules.maharani import GAME
    from rules.maharani.moves import placement_move
    from tests.test_maharani_rules import _fill_all_but, fresh, lay, on_rondel, play, sp

    out: list[Any] = []
    st = fresh(4)  # stall: no rondel tile fits an empty space
    _fill_all_but(st, {"C2", "B3"})
    st["workers"][sp("B1")] = 1 * 2
    st["supply"][1][0] -= 1
    st["scored"] = [False, True, True, True]
    on_rondel(st, 1, "blue", "B1")
    st["bag"] = []
    st["markers"][0][0] = False  # so the turn can end without a tile
    st, events = play(st, 0, "refresh")
    out += [e.text for e in events] + [GAME.status(st), GAME.outcome(st).reason]
    st = fresh(2, refresh_as_pass=True)  # the house rule's pass, as a hint explains it
    on_rondel(st, 2, "blue", "C3", "S")
    move = next(m for m in GAME.legal_moves(st, 0) if m.notation == "refresh")
    out.append(ai_for(GAME).explain(GAME, GAME.view(st, 0), 0, move, 0.5))
    st = fresh(4)  # the last quarter is finished by a tile that ties the gold
    st["scored"] = [True, True, True, False]
    _fill_all_but(st, {"B8"})
    st["gold"] = [9, 9, 10, 3]
    on_rondel(st, 1, "orange", "B8", "E")
    st, events = play(st, 0, "1B8E")
    out += [e.text for e in events] + [GAME.status(st), GAME.outcome(st).reason]
    st = fresh(4)  # the arrow points at a player without workers
    st["supply"][0] = [0]
    on_rondel(st, 2, "blue", "C3", "S")
    events = play(st, 0, "2C3S")[1]
    out += [e.text for e in events]
    told = GAME.tell(0, "2C3S", events)  # the move told to the table says it too
    assert told is not None
    out.append(told.words)
    st = fresh(4)  # a worker joining a group of two
    lay(st, "B3", "red", worker=(0, 0))
    on_rondel(st, 2, "blue", "C3", "S")
    out += [e.text for e in play(st, 0, "2C3S")[1]]
    st = fresh(4)  # a tile of the colour of the seat's worker there: the worker moves
    lay(st, "B3", "blue", worker=(0, 0))
    on_rondel(st, 2, "blue", "C3", "S")
    events = play(st, 0, "2C3S")[1]
    told = GAME.tell(0, "2C3S", events)
    assert told is not None
    out.append(told.words)
    move = placement_move(2, 0, 0, sp("F7"), "S", True, "S", True, 1.0)
    out += [move.label, *(s.label for s in move.steps)]
    return out


def test_rare_situations_speak_the_readers_language(xx: str) -> None:
    words = _rare_words()
    keys: set[str] = set()
    for value in words:
        assert is_words(value), f"English string left in Maharani's rules: {value!r}"
        assert no_english(say(value, xx, NAMES)), say(value, xx, NAMES)
        assert say(value, None, NAMES) == fill_names(str(value), NAMES)
        keys |= _keys(value)
    assert RARE - {_family(k) for k in keys} == set()


async def test_the_service_plays_a_german_label_and_refuses_in_polish(tmp_path: Path) -> None:
    """Through the match service: a move typed as its German label is played (and logged in
    English); a bad input is refused in the asker's language, in English by default."""
    service = await MatchService.open(tmp_path / "maharani.db", render=False)
    try:
        info = await service.create_match("maharani", ALICE, seed=4, guild_id="g", channel_id="c")
        await service.join(info.id, BOB)
        await service.start(info.id, ALICE)
        info = await service.info(info.id)
        mover = ALICE if info.to_act[0] == ALICE.id else BOB
        english = await service.legal_moves(info.id, mover)
        pick = len(english) // 2
        german = in_language(english[pick], "de")
        assert german.label != english[pick].label and "-Viertel" in german.label
        report = await service.play(info.id, mover, german.label)
        assert say(report.words[0]["label"], None, info.names) == english[pick].label
        assert report.lines[0].startswith(f"{mover.name} placed ")  # told to the table
        rows = await service.store.moves(info.id)
        assert [r.notation for r in rows] == [english[pick].notation]
        assert rows[0].events[0]["msg"]["key"] == "maharani.ev.tile"
        info = await service.info(info.id)
        asker = ALICE if info.to_act[0] == ALICE.id else BOB
        with pytest.raises(InvalidMove) as refused:
            await service.play(info.id, asker, "xyz")
        assert str(refused.value).startswith("“xyz” is not a move. Type field, space and arrow")
        assert refused.value.text("pl").startswith("„xyz” to nie ruch. Wpisz pole tarczy")
        assert (await service.info(info.id)).version == info.version
    finally:
        await service.close()
