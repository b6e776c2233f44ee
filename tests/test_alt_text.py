"""Every picture described in words (issue 42, "Alt text"): the description the bot sends
as a file's Discord attachment ``description`` — at most 1,024 characters, in the reader's
language, the game, stage, who acts, scores, last move and the game's main facts, never a
hidden card in a public picture — and carried beside the PNG from the render worker to
every place a file is built.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.matches.replay import make_job
from bot.matches.score_chart import chart_png
from bot.matches.service import MatchService
from render.alt_text import ALT_LIMIT, Described, alt_of, describe, fitted
from render.words.catalogue import LANGUAGES, MESSAGES, t
from render.words.say import say
from rules import get_game
from rules.playout import random_playout
from tests.conftest import ALICE, BOB
from tests.test_picture_legibility import PSEUDO, longer

NAMES = ["Ágnes", "Bálint", "Łucja", "Dénes"]
CASES = [("azul", 4), ("taj-mahal", 3), ("maharani", 4), ("pastiche", 4)]
RAW = re.compile(r"\{|\}|\b(?:alt|pic|azul|maharani|taj_mahal|pastiche)\.[a-z_]+")


def states(game_id: str, players: int) -> list[tuple[dict[str, Any], Any]]:
    """A few states over a random game, each with its last move's public sentence."""
    game = get_game(game_id)
    seen: list[tuple[dict[str, Any], Any]] = []

    def hook(_b: Any, seat: int, move: Any, after: Any, events: list[Any]) -> None:
        told = game.tell(seat, move.notation, [e.public() for e in events])
        seen.append((after, told.words if told else None))

    random_playout(game, players, 7, on_step=hook)
    return seen[len(seen) // 3 :: max(1, len(seen) // 3)]


@pytest.mark.parametrize("lang", [*LANGUAGES, PSEUDO])
@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_every_picture_is_described_in_its_language(
    game_id: str, players: int, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if lang == PSEUDO:  # every word 40 % longer: still within Discord's limit
        monkeypatch.setitem(MESSAGES, PSEUDO, {k: longer(v) for k, v in MESSAGES["en"].items()})
    game = get_game(game_id)
    names = NAMES[:players]
    for state, told in states(game_id, players):
        view = game.view(state, None)
        last = say(told, lang, names)
        view["last_move"] = last
        alt = describe(game_id, view, names, None, lang)
        assert 0 < len(alt) <= ALT_LIMIT, len(alt)
        assert not RAW.search(alt), alt
        assert alt.startswith(t("alt.board", lang, game=game.name, stage="").split(",")[0])
        assert last in alt  # the last move, whole
        assert all(name in alt for name in names), alt  # scores name every seat
        if game.has_hidden_information:
            seat = game.to_act(state)[0] if game.to_act(state) else 0
            mine = describe(game_id, game.view(state, seat), names, seat, lang)
            assert 0 < len(mine) <= ALT_LIMIT and not RAW.search(mine)
            head = t("alt.hand", lang, game=game.name, name=names[seat], stage="")
            assert mine.startswith(head.split(",")[0].rstrip("."))


def test_a_public_description_never_says_a_hand() -> None:
    """Only a hand picture (``seat`` given) reads the hand; the same view described as a
    public picture leaves it out, so a view with a hand can never leak it."""
    for game_id, players in (("taj-mahal", 3), ("pastiche", 2)):
        game = get_game(game_id)
        state = states(game_id, players)[0][0]
        seat = game.to_act(state)[0]
        private = game.view(state, seat)
        public = describe(game_id, private, NAMES, None, "en")
        assert "Your " not in public
        assert public == describe(game_id, game.view(state, None), NAMES, None, "en")
        mine = describe(game_id, private, NAMES, seat, "en")
        assert "Your cards:" in mine or "Your palette cards:" in mine


def test_long_descriptions_leave_out_whole_sentences() -> None:
    sentences = [f"Sentence {i} " + "word " * 40 + "end." for i in range(10)]
    text = fitted(sentences)
    assert len(text) <= ALT_LIMIT and text.endswith("end.") and text.startswith("Sentence 0")
    assert fitted(["x" * 2000]).endswith("…") and len(fitted(["x " * 1000])) <= ALT_LIMIT
    data = Described(b"png", "A board.")
    assert data == b"png" and alt_of(data) == "A board." and alt_of(b"png") is None


async def test_every_file_the_service_makes_carries_its_words(tmp_path: Path) -> None:
    """The board (any ply), the hand, the score chart and the replay carry their words in
    the language asked for: a Hungarian board is described in Hungarian."""
    service = await MatchService.open(tmp_path / "t.db")
    try:
        info = await service.create_match("taj-mahal", ALICE, None, seed=3, guild_id="g")
        for user in (BOB, type(ALICE)("1003", "Carol")):
            await service.join(info.id, user)
        await service.start(info.id, ALICE)
        for _ in range(3):
            info = await service.info(info.id)
            uid = info.to_act[0]
            user = next(u for u in (ALICE, BOB, type(ALICE)("1003", "Carol")) if u.id == uid)
            moves = await service.legal_moves(info.id, user)
            await service.play(info.id, user, moves[0].notation)
        board = await service.picture(info.id, lang="hu")
        assert (alt_of(board) or "").startswith("Taj Mahal játéktábla, ")
        assert "Utolsó lépés: " in (alt_of(board) or "")
        older = await service.picture(info.id, 1, "de")
        assert (alt_of(older) or "").startswith("Taj Mahal: Spielplan, ")
        hand, _ = await service.hand(info.id, ALICE, "pl")
        assert (alt_of(hand) or "").startswith("Twoja ręka – Taj Mahal (Alice)")
        job = make_job(await service.store.get_match(info.id), await service.store.moves(info.id))
        assert job.alt.startswith("Animated replay of match ")
    finally:
        await service.close()


async def test_the_score_chart_is_described(tmp_path: Path) -> None:
    service = await MatchService.open(tmp_path / "t.db", render=False)
    try:
        info = await service.create_match("azul", ALICE, None, seed=3, guild_id="g")
        await service.join(info.id, BOB)
        await service.start(info.id, ALICE)
        match = await service.store.get_match(info.id)
        assert match is not None
        game = get_game("azul")
        _final, log = random_playout(game, 2, match.seed)
        for seat, notation in log:
            user = ALICE if match.seats[seat].user_id == ALICE.id else BOB
            await service.play(info.id, user, notation)
        chart = await chart_png(service.store, info.id, "de")
        assert chart is not None
        alt = alt_of(chart) or ""
        assert alt.startswith(f"Punkteverlauf der Partie #{info.id} (Azul)") and "1. " in alt
    finally:
        await service.close()
