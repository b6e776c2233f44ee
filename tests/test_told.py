"""What a move did, in the public's words (issue 42): every kind of move of every game has
a public sentence (``Game.tell``), in the third person, in every language, never the
mover's button label ("End your turn", "Offer Bob your …"), never a hidden card; a move
row stored long ago is told alike from its stored events, or keeps today's "Bob: <label>"
where its events cannot say it; the turn post, the picture's "Last move" and the replay
read the sentence.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from bot.discord.panel import move_words
from bot.matches.replay import make_job, turn_views
from bot.matches.rows import events_json, row_said, tell_row
from bot.matches.service import MatchService
from bot.storage import MoveRow
from render.words.catalogue import LANGUAGES
from render.words.say import say
from rules import Event, Game, Move, get_game
from rules.base import Told
from rules.words import is_words, to_json
from tests.conftest import ALICE, BOB

NAMES = ["Ann", "Bob", "Cid", "Dora"]
#: (game, players, options): every kind of move of the four games turns up in these
#: (Azul's grey-wall columns, Maharani's two-player worker choices).
CONFIGS = [
    ("azul", 2, {}),
    ("azul", 3, {"grey_wall": True}),
    ("maharani", 2, {}),
    ("maharani", 3, {}),
    ("taj-mahal", 3, {}),
    ("pastiche", 3, {}),
]
#: A raw catalogue key or an unfilled placeholder left in a sentence.
RAW = re.compile(r"\{|\}|\b(?:azul|maharani|taj_mahal|pastiche|clock|pic)\.[a-z_]+")
#: The mover's voice in English.
SECOND_PERSON = re.compile(r"\b(?:you|your|yours)\b", re.IGNORECASE)


def label_kind(move: Move) -> str:
    """A label's key without its plural form: the kind of move it is."""
    return re.sub(r"\.(one|other)$", "", getattr(move.label, "key", move.notation))


def played(game_id: str, players: int, options: dict[str, Any], seed: int, plies: int):
    """Moves of a random match, preferring a kind of move not seen yet (so the rare ones,
    an offer answered by a counter-offer, turn up): (seat, move, events) each."""
    game = get_game(game_id)
    rng = random.Random(seed)
    state = game.setup(players, seed, options)
    seen: set[str] = set()
    for _ in range(plies):
        seats = game.may_act(state)
        if not seats:
            return
        options_now = [(s, m) for s in seats for m in game.legal_moves(state, s)]
        new = [c for c in options_now if label_kind(c[1]) not in seen]
        waited = [c for c in options_now if c[0] in game.to_act(state)] or options_now
        seat, move = rng.choice(new if new and rng.random() < 0.5 else waited)
        seen.add(label_kind(move))
        after, events = game.apply(state, seat, move)
        yield state, seat, move, events
        state = after


def check_sentence(game: Game, seat: int, move: Move, told: Told | None) -> None:
    assert told is not None, (game.id, move.notation)
    assert is_words(told.words)
    names = NAMES[:4]
    english = say(told.words, None, names)
    assert names[seat] in english, english  # the third person: the mover by name
    assert not SECOND_PERSON.search(english), english
    for lang in LANGUAGES:
        said = say(told.words, lang, names)
        assert not RAW.search(said), (lang, said)
        assert said.strip() and said != say(move.label, lang, names), (lang, said)


def test_every_kind_of_move_is_told_in_every_language() -> None:
    kinds: dict[str, set[str]] = {}
    for game_id, players, options in CONFIGS:
        game = get_game(game_id)
        for seed in (1, 2):
            for _state, seat, move, events in played(game_id, players, options, seed, 300):
                told = game.tell(seat, move.notation, [e.public() for e in events])
                check_sentence(game, seat, move, told)
                assert told is not None and all(0 <= i < len(events) for i in told.events)
                kinds.setdefault(game_id, set()).add(label_kind(move))
                # a row stored now, read back later: the same sentence from its JSON
                stored = [Event.from_public_json(e) for e in events_json(events)]
                again = game.tell(seat, move.notation, stored)
                assert again is not None and to_json(again.words) == to_json(told.words)
                assert_no_hidden(game_id, events, told)
    for game_id, labels in kinds.items():  # every kind of move a player is offered
        prefix = game_id.replace("-", "_") + ".label."
        offered = {k for k in labels if k.startswith(prefix)}
        assert (
            len(offered) >= {"azul": 2, "maharani": 6, "taj-mahal": 7, "pastiche": 16}[game_id]
        ), (game_id, offered)


def assert_no_hidden(game_id: str, events: list[Event], told: Told) -> None:
    """A card only its drawer sees (a Taj Mahal bonus tile's cards from the deck, a
    Pastiche commission drawn) is never in the public sentence, in any language."""
    hidden: list[Any] = []
    for e in events:
        if e.kind == "take":
            continue  # a Taj Mahal display card: face up before it was taken
        for words in e.private.values():
            params = getattr(words, "params", {})
            hidden += [params[k] for k in ("cards", "card", "title") if k in params]
    for lang in LANGUAGES:
        said = say(told.words, lang, NAMES)
        for secret in hidden:
            assert say(secret, lang, NAMES) not in said, (game_id, lang, said)


def test_offers_typed_in_every_form_are_told() -> None:
    """Offers a player may only type (not listed: a request for a gift, counter-offers
    that give or ask for nothing) get their sentence too."""
    game = get_game("pastiche")
    for state, _seat, _move, _events in played("pastiche", 3, {}, 5, 400):
        if state["phase"] == "trade" and not state["deals"]:
            break
    cur = state["cur"]
    other = (cur + 1) % 3
    held = [c for c, n in state["players"][cur]["cards"].items() if n]
    theirs = [c for c, n in state["players"][other]["cards"].items() if n]
    for text in (f"offer p{other + 1} - for {theirs[0]}", f"offer p{other + 1} {held[0]} for -"):
        move = game.parse(state, cur, text)
        after, events = game.apply(state, cur, move)
        told = game.tell(cur, move.notation, [e.public() for e in events])
        check_sentence(game, cur, move, told)
        deal = after["deals"][-1]["id"]
        for counter in (f"counter {deal} - for {held[0]}", f"counter {deal} {theirs[0]} for -"):
            answer = game.parse(after, other, counter)
            _, answered = game.apply(after, other, answer)
            said = game.tell(other, answer.notation, [e.public() for e in answered])
            check_sentence(game, other, answer, said)
            assert said is not None and len(said.events) == 2  # the answer and the offer


def row(seat: int, notation: str, label: Any, events: list[dict[str, Any]]) -> MoveRow:
    return MoveRow(1, "move", seat, "u", notation, str(label), events, 0.0)


def test_old_rows_are_told_or_keep_their_label() -> None:
    """A row stored before sentences existed is told from its events: from their data
    alone where the words were not kept (Azul's take), else from their words; a row whose
    events say nothing the game can read keeps "Bob: <label>"."""
    game = get_game("azul")
    state = game.setup(2, 1)
    move = game.legal_moves(state, 0)[0]
    _, events = game.apply(state, 0, move)
    stored = events_json(events)
    english_only = [{k: v for k, v in e.items() if k != "msg"} for e in stored]
    kept_label = [{"kind": "label", "text": "", "data": {}, "msg": to_json(move.label)}]
    told = say(game.tell(0, move.notation, [e.public() for e in events]).words, "de", NAMES)
    for events_of_row in (stored, english_only, stored + kept_label):
        assert row_said(game, row(0, move.notation, move.label, events_of_row), NAMES, "de") == told
    unreadable = [{"kind": "take", "text": "Ann took tiles", "data": {}}, *kept_label]
    old = row(0, move.notation, move.label, unreadable)
    assert tell_row(game, old) is None
    assert row_said(game, old, NAMES, "de") == f"Ann: {say(move.label, 'de', NAMES)}"
    # a Taj Mahal row whose words were kept as English only: its English event text
    taj = get_game("taj-mahal")
    tstate = taj.setup(3, 1)
    tmove = taj.legal_moves(tstate, taj.to_act(tstate)[0])[0]
    seat = taj.to_act(tstate)[0]
    _, tevents = taj.apply(tstate, seat, tmove)
    bare = [{k: v for k, v in e.items() if k != "msg"} for e in events_json(tevents)]
    assert row_said(taj, row(seat, tmove.notation, tmove.label, bare), NAMES, None).startswith(
        NAMES[seat]
    )


async def test_posts_pictures_and_replays_tell_the_move(tmp_path: Path) -> None:
    """The turn post's move line, the band's "Last move" and the replay say the sentence;
    the mover's own reply still says what they chose ("You played: <label>")."""
    service = await MatchService.open(tmp_path / "t.db", render=False)
    try:
        info = await service.create_match("pastiche", ALICE, None, seed=7, guild_id="g")
        await service.join(info.id, BOB)
        await service.start(info.id, ALICE)
        game = get_game("pastiche")
        for _ in range(6):  # a hex, then the end of the turn: "End your turn" no more
            info = await service.info(info.id)
            user = ALICE if info.to_act[0] == ALICE.id else BOB
            moves = await service.legal_moves(info.id, user)
            move = next((m for m in moves if m.notation == "end"), moves[0])
            report = await service.play(info.id, user, move.notation)
            match = await service.store.get_match(info.id)
            assert match is not None
            seat = match.seat_of(user.id)
            assert seat is not None
            rows = await service.store.moves(info.id)
            told = tell_row(game, rows[-1])
            assert told is not None
            assert report.lines[0] == say(told, None, match.names)  # the post's move line
            assert move_words(report, user) == str(move.label)  # the mover's own reply
            assert "your" not in report.lines[0].lower()
            pictures = service._pics  # the band's words, as the picture gets them
            band = await pictures._last_words(info.id, "pastiche", rows[-1].ply, match.names, "hu")
            assert band == say(told, "hu", match.names)
        job = make_job(match, rows, "pl")
        lasts = [v["last_move"] for v in turn_views(job)]
        assert lasts[-1].endswith(say(told, "pl", match.names))
        assert not any("Zakończ turę" in x for x in lasts)  # the label ("End your turn")
    finally:
        await service.close()


@pytest.mark.parametrize("game_id", ["azul", "taj-mahal", "maharani", "pastiche"])
def test_the_sentence_is_the_games_own(game_id: str) -> None:
    """Each shipped game tells its moves itself (no fallback needed)."""
    assert type(get_game(game_id)).tell is not Game.tell


def test_an_azul_take_says_where_its_tiles_went() -> None:
    """Of 7 tiles over a line, 5 reached a nearly full floor and 2 the box lid."""
    data = {"seat": 0, "source": "C", "colour": "B", "count": 8, "line": 4}
    data |= {"overflow": 7, "lid": 2, "marker": True}
    told = get_game("azul").tell(0, "C-B-4", [Event("take", "", data)])
    assert told is not None
    assert say(told.words, None, NAMES) == (
        "Ann took 8 blue from the centre to line 4 (5 to the floor) (2 to the box lid), "
        "with the first player marker."
    )
