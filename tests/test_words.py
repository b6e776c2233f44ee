"""Words as data (rules/words.py, render/words/say.py): the rules write message keys and
parameters, the edge renders them per language.

A test-only language "xx" is the English catalogue upper-cased outside its placeholders,
with umlauts on its vowels (so a label typed in "xx" differs from the English one even
case-blind): every text it renders must come out without a lower-case letter (player names
are upper case here; the grey-wall notation ``col-3`` is the only lower-case token). A word
the rules still wrote in English, or a key missing from the catalogue, shows up as lower
case.
"""

from __future__ import annotations

import json
import pickle
import re
from pathlib import Path
from typing import Any

import pytest

from bot.discord.delivery import said_in
from bot.matches.errors import InvalidMove, NotAllowed, NotFound
from bot.matches.service import MatchService
from render.words.catalogue import MESSAGES
from render.words.say import in_language, say
from rules import get_game
from rules.ai.hooks import ai_for
from rules.base import IllegalMove, fill_names
from rules.rng import Rng
from rules.words import ENGLISH, Join, Msg, Seat, from_json, is_words, to_json
from tests.conftest import ALICE, BOB

NAMES = ["ANN", "BOB", "CY"]
#: What may stay lower case in "xx": notation tokens (language-neutral by design; the
#: refusals quote what was typed, which these tests type in upper case).
_NOTATION = re.compile(r"col-\d")


def no_english(text: str) -> bool:
    return not any(c.islower() for c in _NOTATION.sub("", text))


def _words_of_a_match(players: int, seed: int, options: dict[str, Any]) -> list[Any]:
    """Every word value a random Azul match shows: status lines, labels and step labels,
    hint reasons, events, refusals of wrong moves and the outcome's reason."""
    game = get_game("azul")
    state = game.setup(players, seed, options)
    rng = Rng.from_seed(seed, "words")
    out: list[Any] = [e.text for e in game.setup_events(state)]
    out += [game.summary, game.notation_help]
    for bad in ("F9-R-1", "C-B-1", "F1-B-6", "F1-K-F", "col-3", "NONSENSE", "", "F1-R-2"):
        try:
            game.parse(state, (state["turn"] + 1) % players, bad)
        except IllegalMove as exc:
            out.append(exc.words)
    while game.to_act(state):
        seat = game.to_act(state)[0]
        out.append(game.status(state))
        legal = game.legal_moves(state, seat)
        for m in legal:
            out += [m.label, *(s.label for s in m.steps)]
        view = game.view(state, seat)
        out += [ai_for(game).explain(game, view, seat, m, 0.5) for m in legal[:3]]  # /hint
        for bad in ("F1-R-2", "C-K-3", "F2-Y-F", "col-1", "col-9", "X"):
            try:
                game.parse(state, seat, bad)
            except IllegalMove as exc:
                out.append(exc.words)
        state, events = game.apply(state, seat, legal[rng.below(len(legal))])
        out += [e.text for e in events]
    out.append(game.status(state))
    outcome = game.outcome(state)
    assert outcome is not None
    out.append(outcome.reason)
    return out


@pytest.mark.parametrize(("players", "seed", "options"), [(2, 1, {}), (3, 5, {"grey_wall": True})])
def test_a_whole_azul_match_speaks_the_readers_language(
    xx: str, players: int, seed: int, options: dict[str, Any]
) -> None:
    words = _words_of_a_match(players, seed, options)
    assert len(words) > 500
    keys = set()
    for value in words:
        assert is_words(value), f"English string left in Azul's rules: {value!r}"
        shown = say(value, xx, NAMES)
        assert no_english(shown), shown
        # the English the rules carry is the catalogue's English at the edge, to the byte
        assert say(value, None, NAMES) == fill_names(str(value), NAMES)
        keys.add(value.key if isinstance(value, Msg) else type(value).__name__)
    # refusals, labels, events and status lines were all there
    for key in ("azul.no.", "azul.label.", "azul.ev.", "azul.status.", "azul.hint."):
        assert any(k.startswith(key) for k in keys), key


def test_messages_keep_their_words_through_json_and_pickle() -> None:
    game = get_game("azul")
    state = game.setup(3, 2, {"grey_wall": True})
    move = game.legal_moves(state, state["turn"])[-1]
    _, events = game.apply(state, state["turn"], move)
    for value in [move.label, *(e.text for e in events), game.status(state)]:
        stored = json.loads(json.dumps(to_json(value)))
        assert from_json(stored) == value and to_json(from_json(stored)) == to_json(value)
        assert say(stored, "en", NAMES) == say(value, "en", NAMES)
        copy = pickle.loads(pickle.dumps(value))
        assert type(copy) is type(value) and to_json(copy) == to_json(value)
    # an event stores its English text (what older logs hold) and its words beside it
    stored_event = json.loads(json.dumps(events[0].to_json(include_secret=True)))
    assert stored_event["text"] == str(events[0].text)
    assert stored_event["msg"] == to_json(events[0].text)


def test_legacy_english_strings_still_show(xx: str) -> None:
    """Games not converted yet and logs stored before words were data: plain text with
    {pN} placeholders passes through, names filled in, in any language."""
    assert say("{p1} drew a card.", xx, NAMES) == "BOB drew a card."
    assert say({"seat": 2}, xx, NAMES) == "CY"
    assert say(Join("words.and", [Seat(0), Seat(1)]), None, NAMES) == "ANN and BOB"
    assert say(Join("words.and", [Seat(0), Seat(1)]), xx, NAMES) == "ANN ÄND BOB"


def test_plurals_come_from_the_catalogue(monkeypatch: pytest.MonkeyPatch) -> None:
    """A key that is a plural family is chosen by ``n`` through ``tn`` — no "tile(s)"."""
    monkeypatch.setitem(
        MESSAGES,
        "xx",
        {"azul.ev.refill_short.one": "ONE {n}", "azul.ev.refill_short.other": "MANY {n}"},
    )
    assert say(Msg("azul.ev.refill_short", n=1), "xx") == "ONE 1"
    assert say(Msg("azul.ev.refill_short", n=2), "xx") == "MANY 2"
    assert str(Msg("azul.ev.refill_short", n=1)).startswith("; 1 factory ")
    assert str(Msg("azul.ev.refill_short", n=3)).startswith("; 3 factories ")


def test_english_said_twice_is_the_same_as_said_once() -> None:
    """The English text of a message is remembered per message (render/words/say.py:
    ``_english``): said again — with these names, with others, without any — it must be
    what saying it afresh gives, and a message's names never leak into another match's."""
    from render.words.say import _ENGLISH, _message

    game = get_game("azul")
    state = game.setup(3, 5, game.parse_options(None))
    labels = [m.label for m in game.legal_moves(state, game.to_act(state)[0])]
    labels.append(Msg("azul.ev.no_column", who=Seat(2), line=1, colour="red", n=1234))
    assert labels and all(isinstance(label, Msg) for label in labels)
    others = ["Zed", "Yan", "Xu"]
    _ENGLISH.clear()
    for _ in range(2):  # the first round fills the memory, the second reads it
        for label in labels:
            for names in (NAMES, others, None):
                assert say(label, None, names) == _message(label.key, label.params, None, names)
                assert say(label, "en", names) == say(label, None, names)
    seat_said = say(labels[-1], None, NAMES)
    assert "CY" in seat_said and "1,234" in seat_said
    assert say(labels[-1], None, others).startswith("Xu")


def test_every_rule_word_is_in_the_catalogue() -> None:
    for key, text in ENGLISH.items():
        assert MESSAGES["en"][key] == text


async def test_the_service_speaks_and_reads_the_players_language(xx: str, tmp_path: Path) -> None:
    service = await MatchService.open(tmp_path / "words.db", render=False)
    try:
        info = await service.create_match("azul", ALICE, seed=4, guild_id="g", channel_id="c")
        await service.join(info.id, BOB)
        await service.start(info.id, ALICE)
        info = await service.info(info.id)
        mover = ALICE if info.to_act[0] == ALICE.id else BOB
        other = BOB if mover is ALICE else ALICE
        english = await service.legal_moves(info.id, mover)
        shown = [in_language(m, xx) for m in english]  # what autocomplete and the panel do
        assert all(no_english(m.label) for m in shown)
        assert all(no_english(s.label) for m in shown for s in m.steps)
        assert [m.notation for m in shown] == [m.notation for m in english]
        # a refusal keeps its words: English by default, the asker's language on request
        with pytest.raises(InvalidMove) as refused:
            await service.play(info.id, mover, "F1-Q-9")
        assert "is not a move" in str(refused.value)
        assert no_english(refused.value.text(xx)) and "ÏS NÖT Ä MÖVË" in refused.value.text(xx)
        # a label typed as shown in "xx" plays that move
        pick = shown[len(shown) // 2]
        assert pick.label.lower() != english[len(shown) // 2].label.lower()
        report = await service.play(info.id, mover, pick.label.lower())
        played = say(report.words[0]["label"], None, info.names)  # the label typed: that move
        assert played == english[len(shown) // 2].label
        assert report.lines[0].startswith(f"{mover.name} took ")  # told to the table
        info = await service.info(info.id)
        assert info.to_act == [other.id]
        # and the English label still does, as does the notation
        nxt = await service.legal_moves(info.id, other)
        await service.play(info.id, other, nxt[0].label)
        rows = await service.store.moves(info.id)
        assert [r.notation for r in rows] == [pick.notation, nxt[0].notation]
        assert rows[0].events[0]["msg"]["key"] == "azul.ev.take"
        assert await service.audit() == []
    finally:
        await service.close()


async def test_a_turn_post_is_said_in_the_match_language(xx: str, tmp_path: Path) -> None:
    """The post's lines and status travel as words too, so delivery can say them in the
    match's language (``said_in``); names and non-rule lines stay as they were."""
    service = await MatchService.open(tmp_path / "post.db", render=False)
    try:
        info = await service.create_match("azul", ALICE, seed=4, guild_id="g", channel_id="c")
        await service.join(info.id, BOB)
        await service.start(info.id, ALICE)
        info = await service.info(info.id)
        mover = ALICE if info.to_act[0] == ALICE.id else BOB
        move = (await service.legal_moves(info.id, mover))[0]
        report = await service.play(info.id, mover, move.notation)
        turn = []
        while rows := await service.store.claim_notifications("test", limit=100):
            for row in rows:  # a match's posts come one at a time, in order
                if row.kind == "turn" and row.payload.get("ply") == 1:
                    turn.append(row.payload)
                await service.store.mark_sent(row.id)
        assert len(turn) == 1
        p = turn[0]
        assert p["lines"] == report.lines  # English as stored, for the console and old posts
        lines, status = said_in(p, p["lines"], p["status"], xx, info.names)
        # the move told to the table, in the third person: the mover's name, then the words
        assert lines[0].startswith(f"{mover.name} ") and no_english(lines[0][len(mover.name) :])

        def unnamed(text: str) -> str:
            return text.replace(info.names[0], "").replace(info.names[1], "")

        assert len(lines) == len(p["lines"]) and all(no_english(unnamed(x)) for x in lines[1:])
        assert no_english(unnamed(status))
        assert said_in(p, p["lines"], p["status"], "en", info.names) == (p["lines"], p["status"])
        # the stored English is kept only as what the words say in English with these names:
        # said again without the post's names, the same; with a seat renamed, the new name
        unnamed_post = {k: v for k, v in p.items() if k != "names"}
        english = said_in(unnamed_post, p["lines"], p["status"], "en", info.names)
        assert english == (p["lines"], p["status"])
        renamed = [("Zed" if n == mover.name else n) for n in info.names]
        lines, _ = said_in(p, p["lines"], p["status"], "en", renamed)
        assert lines[0] == "Zed" + p["lines"][0][len(mover.name) :]
    finally:
        await service.close()


async def test_a_label_with_a_times_sign_may_be_typed_with_an_x(tmp_path: Path) -> None:
    """Polish and German Azul labels print "3× czerwony"; a keyboard types "3x"."""
    service = await MatchService.open(tmp_path / "x.db", render=False)
    try:
        info = await service.create_match("azul", ALICE, seed=4, guild_id="g", channel_id="c")
        await service.join(info.id, BOB)
        await service.start(info.id, ALICE)
        info = await service.info(info.id)
        mover = ALICE if info.to_act[0] == ALICE.id else BOB
        moves = await service.legal_moves(info.id, mover)
        polish = [(m, in_language(m, "pl").label) for m in moves]
        move, label = next((m, x) for m, x in polish if "×" in x)
        assert sum(x.replace("×", "x") == label.replace("×", "x") for _, x in polish) == 1
        report = await service.play(info.id, mover, label.replace("×", "x"))
        assert say(report.words[0]["label"], None, info.names) == move.label
    finally:
        await service.close()


async def test_the_services_own_refusals_are_said_in_the_askers_language(tmp_path: Path) -> None:
    """Refusals written by the service (not the rules) carry their catalogue key: English
    for ``str()`` and the logs, the asker's language for ``text``; nothing changes."""
    from babel.messages.pofile import read_po

    with open(Path(__file__).parent.parent / "locale/de/LC_MESSAGES/tessera.po", "rb") as po:
        german = {m.id: m.string for m in read_po(po)}
    service = await MatchService.open(tmp_path / "refusals.db", render=False)
    try:
        info = await service.create_match("azul", ALICE, seed=4, guild_id="g", channel_id="c")
        with pytest.raises(NotAllowed) as early:
            await service.play(info.id, ALICE, "F1-B-1")
        assert str(early.value) == f"Match #{info.id} has not started yet."
        assert early.value.text("de") == german["svc.not_started"].format(match=info.id)
        await service.join(info.id, BOB)
        await service.start(info.id, ALICE)
        info = await service.info(info.id)
        waiting = ALICE if info.to_act[0] == ALICE.id else BOB
        idle = BOB if waiting is ALICE else ALICE
        version = info.version
        with pytest.raises(NotAllowed) as turn:
            await service.play(info.id, idle, "F1-B-1")
        assert turn.value.text("pl") == f"To nie twoja kolej; czekamy na: {waiting.name}."
        assert str(turn.value) == f"It is not your turn; waiting for {waiting.name}."
        with pytest.raises(NotFound) as missing:
            await service.info(info.id + 99)
        assert missing.value.text("hu") == f"Nincs #{info.id + 99} számú játszma."
        assert (await service.info(info.id)).version == version
    finally:
        await service.close()
