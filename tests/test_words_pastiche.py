"""Pastiche speaks the reader's language: every word its rules write is a message.

A whole match at 2 and at 4 players, driven by the rules' rollout policy (with offers made
by the players not on turn and answered, countered or left to lapse), in the test language
"xx" of ``tests/test_words.py`` (the English catalogue upper-cased, vowels with umlauts). Every
word value the match shows — move and step labels, the offer composer, events public and
private, refusals of bad inputs, status lines, hint reasons, the outcome's reason, the summary
and the notation help — must be a message, render without a lower-case letter in "xx" (only
notation may stay: backtick examples, cell names, and text the player typed, quoted „…”), and
its English value must be the catalogue's English to the byte.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from bot.matches.service import MatchService
from render.words.catalogue import MESSAGES
from render.words.say import say
from rules import get_game
from rules.ai.hooks import ai_for
from rules.base import IllegalMove, fill_names
from rules.pastiche import board as bd
from rules.pastiche.data import load
from rules.pastiche.words import painter_key
from rules.rng import Rng
from rules.words import Msg, is_words
from tests.conftest import ALICE, BOB
from tests.test_words import NAMES

NAMES4 = [*NAMES, "DEE"]
#: What may stay lower case in "xx": notation (backtick examples, cell names such as m12)
#: and what the player typed, which the refusals quote.
_NOTATION = re.compile(r"`[^`]*`|“[^”]*”|\b[a-z]{1,3}-?\d+\b|\b[a-z]{1,2}\b")


def no_english(text: str) -> bool:
    return not any(c.islower() for c in _NOTATION.sub("", text))


def _bad_inputs(state: dict[str, Any], seat: int) -> list[str]:
    """Typed moves that are wrong in many different ways (at the state's own spots, hexes
    and commissions, so each reaches a different refusal)."""
    spot = bd.cell_name(tuple(state["spots"][0]))
    hand = state["players"][seat]["hand"] or ["P01"]
    gallery = state["gallery"] or ["P02"]
    painted = next(iter(state["board"]))
    taken = bd.cell_name(bd.unkey(painted))
    return [
        "",
        "NONSENSE",
        "RETURN GREEN",
        "RETURN XYZ",
        f"H9 {spot} R0 MIX",
        f"H1 {taken} R0 MIX",
        "H1 A1 R0 MIX",
        "H1 AB R0 MIX",
        f"H1 {spot} R7 MIX",
        f"H1 {spot} R0 GREEN",
        *(f"H1 {spot} R0 {c}" for c in ("RED", "YELLOW", "BLUE")),
        "BANK",
        "BANK GREEN+GREEN+GREEN FOR BLACK",
        "BANK RED+GREEN FOR BLUE",
        "BANK YELLOW+BROWN FOR RED",
        "BANK BLACK+WHITE FOR CREAM",
        "BANK RED+RED+RED FOR RED",
        "BANK GREEN+PURPLE FOR CREAM",
        "BANK FOO FOR RED",
        "SWAP",
        f"SWAP {hand[0]} FOR {gallery[0]}",
        "COMPLETE",
        "COMPLETE P99",
        f"COMPLETE {hand[0]}",
        f"COMPLETE {gallery[0]}",
        "OFFER P9 GREEN FOR RED",
        "OFFER P2 FOO FOR RED",
        "OFFER P2 GREEN FOR GREEN",
        "OFFER P2 - FOR -",
        "OFFER P2 13GREEN FOR RED",
        "OFFER P2 &* FOR RED",
        "OFFER P2 5RED FOR -",
        "OFFER P1 - FOR RED",
        "OFFER P3 - FOR RED",
        "ACCEPT",
        "ACCEPT 99",
        "DECLINE",
        "WITHDRAW",
        "WITHDRAW 1",
        "COUNTER 99 RED FOR GREEN",
        "COUNTER 1 FOO FOR GREEN",
        "OFFERXYZ",
        "END",
    ]


def _words_of_a_match(players: int, seed: int) -> tuple[list[Any], set[str]]:
    """Every word value a Pastiche match shows, and the kinds of words seen."""
    game = get_game("pastiche")
    ai = ai_for(game)
    state = game.setup(players, seed)
    rng = Rng.from_seed(seed, "words")
    out: list[Any] = [game.summary, game.notation_help]
    kinds: set[str] = set()
    for e in game.setup_events(state):
        out += [e.text, *e.private.values()]
    turn = 0
    tried: dict[tuple[str, bool], int] = {}
    while game.to_act(state):
        turn += 1
        out.append(game.status(state))
        # a player not on turn trades with the one on turn now and then
        seat = game.to_act(state)[0]
        others = [s for s in game.may_act(state) if s != state["cur"]]
        if others and turn % 3 == 0:
            offers = [
                m for m in game.legal_moves(state, others[0]) if m.notation.startswith("offer")
            ]
            if offers:
                seat = others[0]
        legal = game.legal_moves(state, seat)
        shown = legal[:30] + legal[30::40]  # placements are hundreds: a sample of them
        for m in shown:
            out += [m.label, *(s.label for s in m.steps)]
        for c in game.composers(state, seat):
            out += [c.label, *(p.label for p in c.picks)]
            out += [o.label for p in c.picks for o in p.options]
            kinds.add("compose")
        if turn % 4 == 1:  # /hint, every few decisions
            view = game.view(state, seat)
            out += [ai.explain(game, view, seat, m, 0.42) for m in (legal[:2] + legal[-2:])]
        # refusals: a bad input costs a look at every legal move (a typed label is checked
        # too), hundreds while placing: twice in each phase, then every 15th decision
        phase = (state["phase"], len(state["deals"]) > 0)
        tried[phase] = tried.get(phase, 0) + 1
        if tried[phase] <= 2 or turn % 15 == 0:
            for who in {seat, (seat + 1) % players}:
                for bad in _bad_inputs(state, who):
                    try:
                        game.parse(state, who, bad)
                    except IllegalMove as exc:
                        out.append(exc.words)
                        kinds.add("refusal")
        move = next((m for m in legal if m.notation.startswith("offer")), None)
        if move is None or seat == state["cur"]:
            move = game.random_move(state, seat, rng)
        state, events = game.apply(state, seat, move)
        for e in events:
            out += [e.text, *e.private.values()]
            kinds.add(e.kind)
    out.append(game.status(state))
    outcome = game.outcome(state)
    assert outcome is not None
    out.append(outcome.reason)
    return out, kinds


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (4, 8)])
def test_a_whole_pastiche_match_speaks_the_readers_language(
    xx: str, players: int, seed: int
) -> None:
    words, kinds = _words_of_a_match(players, seed)
    names = NAMES4[:players]
    keys: set[str] = set()
    seen: set[str] = set()
    for value in words:
        assert is_words(value), f"English string left in Pastiche's rules: {value!r}"
        english = str(value)
        if english in seen:  # the same words again (a label offered every turn)
            continue
        seen.add(english)
        shown = say(value, xx, names)
        assert no_english(shown), shown
        # the English the rules carry is the catalogue's English at the edge, to the byte
        assert say(value, None, names) == fill_names(english, names)
        if isinstance(value, Msg):
            keys.add(value.key)
    assert len(seen) > 400
    for prefix in (
        "pastiche.label.",
        "pastiche.step.",
        "pastiche.ev.",
        "pastiche.no.",
        "pastiche.status.",
        "pastiche.hint.",
        "pastiche.result.",
        "pastiche.compose.",
        "pastiche.summary",
        "pastiche.notation_help",
    ):
        assert any(k.startswith(prefix) for k in keys), prefix
    # trading happened: offers made and answered (and the draw's private words)
    assert {"offer", "bank", "refusal", "compose", "place", "complete"} <= kinds
    assert kinds & {"accept", "decline", "counter", "lapse"}


def test_every_game_data_name_is_a_catalogue_message() -> None:
    """Colours, paintings and painters shown to players all have keys (English: the data's
    own spelling), so a picture or a sentence never shows a raw data name."""
    data = load()
    english = MESSAGES["en"]
    for colour in data.names:
        assert english[f"pastiche.colour.{colour}"] == colour
    for cid, com in data.commissions.items():  # English adds the accents the data omits
        assert _plain(english[f"pastiche.painting.{cid}"]) == com.title
        assert _plain(english[painter_key(com.painter)]) == com.painter


def _plain(text: str) -> str:
    """Without accents: Cézanne -> Cezanne."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def test_a_placement_label_is_said_in_the_readers_language(xx: str) -> None:
    game = get_game("pastiche")
    state = game.setup(2, 1)
    move = game.legal_moves(state, state["cur"])[0]
    assert no_english(say(move.label, xx, NAMES))
    hungarian = say(move.label, "hu", NAMES)
    assert hungarian != str(move.label) and "→" in hungarian


async def test_the_offer_composer_is_said_in_the_readers_language(xx: str, tmp_path: Path) -> None:
    """The guided panel's "Compose an offer" keeps its words: English with names by
    default, and the reader's language when the front end says it (``say``)."""
    service = await MatchService.open(tmp_path / "compose.db", render=False)
    try:
        info = await service.create_match("pastiche", ALICE, seed=4, guild_id="g", channel_id="c")
        await service.join(info.id, BOB)
        await service.start(info.id, ALICE)
        info = await service.info(info.id)
        mover = ALICE if info.to_act[0] == ALICE.id else BOB
        await service.play(info.id, mover, (await service.legal_moves(info.id, mover))[0].notation)
        (composer,) = await service.composers(info.id, mover)
        labels = [composer.label, *(p.label for p in composer.picks)]
        labels += [o.label for p in composer.picks for o in p.options]
        assert str(composer.label) == "Compose an offer (any cards for any cards)"
        other = BOB if mover is ALICE else ALICE
        assert str(composer.picks[0].options[0].label) == other.name  # a name, not {p1}
        for label in labels:
            assert is_words(label.words)  # type: ignore[attr-defined]
            assert no_english(say(label, xx).replace(other.name, "")), say(label, xx)
        assert say(composer.picks[2].options[0].label, "hu") == "piros"
    finally:
        await service.close()
