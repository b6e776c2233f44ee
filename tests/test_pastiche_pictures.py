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


def _luminance(colour: str) -> float:
    """WCAG relative luminance of a ``#RRGGBB`` colour."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_the_last_move_is_marked_by_shape_and_contrast_not_hue() -> None:
    """The newest hex's frame and plate are black and white only (no hue: the same for
    every colour vision and in greyscale), with a dark band ≥ 3:1 against the canvas and a
    light band ≥ 3:1 against every paint dab it may touch."""
    from render.pastiche import board
    from render.pastiche.paints import LETTER, PAINT

    sprite = board._mark_sprite(40.0).convert("RGBA")
    seen = {px[:3] for _, px in sprite.getcolors(1 << 20) or [] if px[3] == 255}
    assert seen and all(r == g == b for r, g, b in seen), "the mark has a hue"
    assert _contrast(board.MARK_DARK, board.PAINT_BG) >= 3
    assert _contrast(board.MARK_DARK, board.SPOT_FILL) >= 3
    for letter in LETTER.values():
        assert _contrast(board.MARK_LIGHT, PAINT[letter]) >= 3 or (
            _contrast(board.MARK_DARK, PAINT[letter]) >= 3
        )
    assert _contrast(board.MARK_LIGHT, board.MARK_DARK) >= 12


def test_view_names_the_commissions_the_last_turn_completed() -> None:
    """``fresh`` lists what the turn completed; the next placement starts it afresh."""
    seen = 0

    def check(old: Any, seat: int, move: Any, new: dict[str, Any], events: Any) -> None:
        nonlocal seen
        view = GAME.view(new, None)
        done = [e.data["commission"] for e in events if e.kind == "complete"]
        if done:
            assert view["fresh"][-len(done) :] == done
            seen += 1
        if any(e.kind == "place" for e in events):
            assert view["fresh"] == []
        if view["fresh"]:  # only the player on turn, or the one just before, completed them
            owners = {s for s, info in enumerate(view["seats"]) for c in info["done"]
                      if c["id"] in view["fresh"]}  # fmt: skip
            assert len(owners) == 1

    random_playout(GAME, 3, 7, on_step=check)
    assert seen >= 3


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_the_close_up_shows_the_last_move_at_phone_width(lang: str) -> None:
    """After a completion the close-up draws the newest hex's "new" plate, the open spots
    beside it and the completed commission's title, all ≥ 9 px at 400 px; the players'
    panel frames the same commission behind its own "new" plate."""
    state = _first(3, 7, lambda s: bool(s.get("fresh")) and sum(s["turns"]) > 6)
    view = GAME.view(state, None)
    img, probe = draw_probed("pastiche", view, NAMES[:3], None, lang)

    def sizes(text: str) -> list[float]:
        return [x.size * PHONE / img.width for x in probe.texts if text in x.text]

    new = t("pic.pastiche.new", lang)
    assert max(sizes(new)) >= 9 and len(sizes(new)) >= 3  # hex twice, commission, plate
    title = t(f"pastiche.painting.{view['fresh'][-1]}", lang)
    big = " ".join(x.text for x in probe.texts if x.size * PHONE / img.width >= 9)
    assert title in big  # (perhaps over two lines)
    last = next(b for b in view["board"] if b["name"] == view["last"])
    beside = [
        name
        for name, (q, r) in zip(view["spots"], view["spot_cells"], strict=True)
        if abs(q - last["q"]) + abs(r - last["r"]) + abs(q + r - last["q"] - last["r"]) == 2
    ]
    assert beside and all(max(sizes(name)) >= 9 for name in beside)


#: The rulebook's painter bonus (§5.3) by the pair's point sum, written out again here.
PAIR_BONUS = [(15, 17, 3), (18, 22, 4), (23, 27, 5), (28, 31, 6)]


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 12), (4, 13)])
def test_the_final_breakdown_adds_up_to_the_records_scoring(players: int, seed: int) -> None:
    """Over whole games: each seat's commissions, usable palette cards and painter bonus,
    as the final picture prints them (in the players' panel, and big enough for a phone
    where the close-up was), add up to the score it prints, and equal the sums the
    record's events give (completed commissions' points, the bonus of each painter's
    completed pair, the final outcome's usable cards)."""
    from rules.pastiche.data import load

    data = load()
    completed: dict[int, list[str]] = {s: [] for s in range(players)}
    over: list[dict[str, Any]] = []

    def record(old: Any, seat: int, move: Any, new: Any, events: Any) -> None:
        for e in events:
            if e.kind == "complete":
                completed[seat].append(e.data["commission"])
            if e.kind == "over":
                over.append(e.data["outcome"])

    from render.pastiche.final import final_rows

    final, _ = random_playout(GAME, players, seed, on_step=record)
    assert len(over) == 1
    view = GAME.view(final, None)
    img, probe = draw_probed("pastiche", view, NAMES[:players], None, "en")
    drawn = " ".join(x.text for x in probe.texts)
    # the big table where the close-up was: every figure ≥ 9 px at phone width
    big = [x.text for x in probe.texts if x.size * PHONE / img.width >= 9]
    rows = {r.seat: r for r in final_rows(view)}
    band = " ".join(x.text for x in probe.band_texts())
    for seat in range(players):
        points = sum(data.commissions[c].points for c in completed[seat])
        by_painter: dict[str, list[int]] = {}
        for c in completed[seat]:
            by_painter.setdefault(data.commissions[c].painter, []).append(
                data.commissions[c].points
            )
        bonus = sum(
            b for pts in by_painter.values() if len(pts) == 2
            for low, high, b in PAIR_BONUS if low <= sum(pts) <= high
        )  # fmt: skip
        usable = over[0]["details"][seat]["usable"]
        score = over[0]["scores"][seat]
        assert points + usable + bonus == score
        line = t(
            "pic.pastiche.final_line",
            "en",
            place=over[0]["ranks"][seat],
            commissions=points,
            usable=usable,
            bonus=bonus,
        )
        assert line in drawn, (line, drawn)
        assert str(score) in band
        row = rows[seat]
        assert (row.commissions, row.usable, row.bonus, row.total) == (points, usable, bonus, score)
        assert NAMES[seat] in big and all(str(v) in big for v in (points, usable, bonus, score))
    assert view["outcome"]["scores"] == over[0]["scores"]
