"""The picture and the words of a match that ended early (resigned, forfeited, aborted):
they say what happened, and no "to move" mark is left on the board or in the header band.

Every renderer is drawn from a mid-game view (where the board itself still says someone
is to move) with the service's ``ended`` added; the same view without it must show the
turn marks, so the check can fail."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

import render.header
from bot.matches.reports import User
from bot.matches.service import MatchService
from rules import get_game
from rules.rng import Rng
from tests.picture_probe import draw_probed, fresh_caches, probing

#: words and signs that mean "someone must act now", in each renderer
TURN_MARKS = (
    "to move",
    "to play",
    "◀",
    "▶",
    "to take tiles",
    "places a hex",
    "choose a worker",
    "trades,",
)
ENDED = {"text": "Bob resigned — Carol wins", "winners": [2]}
NAMES = ["Ann", "Bob", "Carol"]


def mid_game(game_id: str, plies: int = 9) -> dict[str, Any]:
    game = get_game(game_id)
    state = game.setup(3, 17)
    picker = Rng.from_seed(17, "end-pictures")
    for _ in range(plies):
        seat = game.to_act(state)[0]
        moves = game.legal_moves(state, seat)
        state, _ = game.apply(state, seat, moves[picker.below(len(moves))])
    assert game.outcome(state) is None
    return state


def drawn(game_id: str, view: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> tuple:
    """(every text drawn, the texts of the header band, the band's acting seats)."""
    bands: list[render.header.Band] = []
    original = render.header.header_band

    def spy(width: int, band: render.header.Band, *args: Any, **kwargs: Any) -> Any:
        bands.append(band)
        return original(width, band, *args, **kwargs)

    # the probe wraps whatever render.header.header_band is when it starts
    monkeypatch.setattr(render.header, "header_band", spy)
    fresh_caches(game_id)
    _, probe = draw_probed(game_id, view, NAMES, None, "en")
    monkeypatch.setattr(render.header, "header_band", original)
    return [x.text for x in probe.texts], [x.text for x in probe.band_texts()], bands[-1].acting


@pytest.mark.parametrize("game_id", ["azul", "taj-mahal", "maharani", "pastiche"])
def test_ended_picture_says_what_happened_and_marks_no_turn(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = get_game(game_id).view(mid_game(game_id), None)
    texts, band, acting = drawn(game_id, view, monkeypatch)
    assert acting and any(m in x for x in texts for m in TURN_MARKS)  # the check can fail

    texts, band, acting = drawn(game_id, {**view, "ended": ENDED}, monkeypatch)
    assert acting == []
    assert ENDED["text"] in band
    marks = [x for x in texts if any(m in x for m in TURN_MARKS)]
    assert not marks, marks


async def test_service_end_words_and_the_final_picture(tmp_path: Path) -> None:
    """Through the service: a two-player resign and an abort of a running match say what
    happened in the status text, the final post and the picture drawn for it."""
    service = await MatchService.open(tmp_path / "p.db", render_processes=False, render_workers=1)
    ann, bob = User("1", "Ann"), User("2", "Bob")
    try:
        ids = []
        for _ in range(2):
            info = await service.create_match("azul", ann, max_players=2, seed=5)
            await service.join(info.id, bob)
            await service.start(info.id, ann)
            ids.append(info.id)
        resigned, aborted = ids
        await service.resign(resigned, bob)
        await service.abort(aborted, ann)  # a vote of the two players
        await service.abort(aborted, bob)
        await asyncio.gather(*service._background)
        service._pictures.clear()  # draw them again, under the probe
        expected = {
            resigned: "Bob resigned — Ann wins",
            aborted: "Aborted by a vote of the players (Ann and Bob)",
        }
        for match_id, words in expected.items():
            info = await service.info(match_id)
            assert info.status_text.startswith(words.replace(" wins", "").split(" — ")[0])
            assert info.to_act == []
            with probing() as probe:
                await service.picture(match_id)
            band = [x.text for x in probe.band_texts()]
            assert words in band, band
            assert not [x.text for x in probe.texts if "to move" in x.text or "◀" in x.text]
            rows = await service.store.moves(match_id)
            cur = await service.store._reader.execute(
                "SELECT payload FROM outbox WHERE match_id = ? AND kind = 'turn' "
                "ORDER BY id DESC LIMIT 1",
                (match_id,),
            )
            post = json.loads((await cur.fetchone())[0])
            assert post["ply"] == rows[-1].ply and post["final"]  # it carries the picture
            assert words.split(" — ")[0] in post["text"]
        assert (await service.info(resigned)).status_text.startswith("Bob resigned — 🏆 Ann wins!")
    finally:
        await service.close()
