"""What Pastiche's pictures explain, measured on real games: during a trade the band names
both sides of every open offer (who offers what to whom), in every language."""

from __future__ import annotations

from typing import Any

import pytest

from render.words.catalogue import LANGUAGES, t
from rules.pastiche import GAME
from rules.playout import random_playout
from tests.picture_probe import draw_probed

NAMES = ["Ágnes", "Bálint", "Łucja", "Dénes"]


def _first(players: int, seed: int, wanted: Any) -> dict[str, Any]:
    """The first state of a random game that ``wanted(state)`` accepts."""
    found: list[dict[str, Any]] = []

    def grab(old: Any, seat: int, move: Any, new: dict[str, Any], events: Any) -> None:
        if not found and wanted(new):
            found.append(new)

    random_playout(GAME, players, seed, on_step=grab)
    assert found, "no such state in this game"
    return found[0]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_band_names_both_sides_of_an_open_offer(lang: str) -> None:
    state = _first(3, 7, lambda s: bool(s["deals"]))
    view = GAME.view(state, None)
    _, probe = draw_probed("pastiche", view, NAMES[:3], None, lang)
    band = " ".join(x.text for x in probe.band_texts())
    for offer in view["offers"]:
        assert NAMES[offer["from"]] in band and NAMES[offer["to"]] in band, band
        for colour in offer["give"] + offer["get"]:
            assert t(f"pastiche.colour.{colour}", lang) in band, (colour, band)
