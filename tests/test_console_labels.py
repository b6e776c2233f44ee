"""A move label can be typed on a plain keyboard (issue 41): every symbol a label prints
in any language ("→", "←", "↑", "↓", "×", "·", "–", quotes) has an ASCII spelling."""

from __future__ import annotations

import random
import unicodedata
from pathlib import Path

import pytest

from bot.console import Console
from bot.matches.reports import User
from bot.matches.service import MatchService
from bot.matches.turns import _by_label, label_key
from render.words.catalogue import MESSAGES
from render.words.say import say
from rules import get_game

#: How a player without the symbols types them.
PLAIN = {
    "→": "->",
    "←": "<-",
    "↑": "^",
    "↓": "v",
    "×": "x",
    "·": ".",
    "–": "-",
    "—": "-",
    "−": "-",
    "“": '"',
    "”": '"',
    "„": '"',
    "‘": "'",
    "’": "'",
    "…": "...",
}


def plain(text: str) -> str:
    out = "".join(PLAIN.get(ch, ch) for ch in text)
    symbols = {ch for ch in out if ord(ch) > 127 and unicodedata.category(ch)[0] not in "LM"}
    assert not symbols, f"no plain spelling for {symbols} in {text!r}"
    return out


@pytest.mark.parametrize("game_id", ["azul", "maharani", "pastiche", "taj-mahal"])
def test_every_label_in_every_language_can_be_typed_plainly(game_id: str) -> None:
    game = get_game(game_id)
    names = ["Alice", "Bob", "Carol"]
    state = game.setup(3, seed=7)
    rng = random.Random(7)
    checked = 0
    for _ in range(12):  # a few plies in: labels of later decisions too
        acting = game.to_act(state)
        if not acting:
            break
        seat = acting[0]
        moves = game.legal_moves(state, seat)
        for move in rng.sample(moves, min(4, len(moves))):
            for lang in MESSAGES:
                shown = say(move.label, lang, names)
                found = _by_label(moves, names, plain(shown))
                if _by_label(moves, names, shown) is None:
                    continue  # two moves share this label: neither spelling is taken
                assert found is not None and found.notation == move.notation, (lang, shown)
                checked += 1
        state, _ = game.apply(state, seat, rng.choice(moves))
    assert checked > 20


def test_plain_spellings_of_times_arrow_dot_and_dash() -> None:
    assert label_key("3× Rot → Reihe 2") == label_key("3*rot->reihe 2")
    assert label_key("3× Rot → Reihe 2") == label_key("3 x Rot => Reihe 2")
    assert label_key("Runde 1 · Zug") == label_key("runde 1 . zug")
    assert label_key("a – b") == label_key("a - b")


async def test_console_plays_an_azul_label_typed_with_an_ascii_arrow(
    service: MatchService, tmp_path: Path
) -> None:
    console = Console(service, tmp_path)
    for line in ("alice> /game new azul", "bob> /game join", "alice> /game start"):
        await console.run_line(line)
    info = await service.info(1)
    mover = info.to_act[0].removeprefix("console:")
    moves = await service.legal_moves(1, User(info.to_act[0], mover.capitalize()))
    move = next(m for m in moves if "→" in str(m.label))
    typed = str(move.label).replace("→", "->")
    out = await console.run_line(f"{mover}> /play {typed}")
    assert not any(line.startswith("✗") for line in out), out
    assert (await service.info(1)).version > info.version
