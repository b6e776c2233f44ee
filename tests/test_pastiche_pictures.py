"""What Pastiche's pictures explain, measured on real games: during a trade the band names
both sides of every open offer (who offers what to whom), in every language; the hand
picture is phone-shaped and legible at phone width."""

from __future__ import annotations

from typing import Any

import pytest

from render.words.catalogue import LANGUAGES, MESSAGES, t
from rules.pastiche import GAME
from rules.playout import random_playout
from tests.picture_probe import draw_probed
from tests.test_picture_legibility import PHONE, PSEUDO, clipped, longer

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


@pytest.mark.parametrize("lang", [*LANGUAGES, PSEUDO])
def test_the_hand_is_phone_shaped_and_legible_at_phone_width(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hand picture is at most 600 px wide, so a phone shows it at 2/3 or more, and its
    smallest text is still ≥ the band's floor (9 px) at 400 px, in every language and in
    the 40 %-longer pseudo-language; nothing is cut."""
    if lang == PSEUDO:
        monkeypatch.setitem(MESSAGES, PSEUDO, {k: longer(v) for k, v in MESSAGES["en"].items()})
    for players, seed in ((2, 3), (4, 8)):
        states = [GAME.setup(players, seed)]
        states.append(_first(players, seed, lambda s: sum(s["turns"]) >= 3 * s["n"]))
        for state in states:
            seat = state["cur"]
            img, probe = draw_probed("pastiche", GAME.view(state, seat), NAMES, seat, lang)
            assert img.width <= 600
            small = [(x.text, x.size) for x in probe.texts if x.size * PHONE / img.width < 9]
            assert small == [], small[:5]
            assert clipped(probe.fitted) == []
