"""What Maharani's pictures explain, measured on whole games: the gold by source (tile
areas, worker groups, second tiles, each quarter's result) adds up to every seat's gold and
equals what the record's events say, and the final picture prints that arithmetic; a state
saved before the tally existed still plays and draws."""

from __future__ import annotations

from typing import Any

import pytest

from rules.maharani import GAME
from rules.maharani.engine import QUARTER_GOLD
from rules.playout import random_playout
from tests.picture_probe import draw_probed

NAMES = ["Anna", "Bálint", "Csilla", "Łukasz"]


def _from_record(players: int, events: list[Any]) -> list[dict[str, Any]]:
    """Each seat's gold by source, summed from the record's events alone."""
    out = [
        {"tiles": 0, "workers": 0, "second_tiles": 0, "quarters": [None] * 4}
        for _ in range(players)
    ]
    for seat, e in events:
        if e.kind == "tile":
            out[seat]["tiles"] += e.data["gold"]
        elif e.kind == "worker" and "gold" in e.data:
            out[seat]["workers"] += e.data["gold"]
        elif e.kind == "pay":
            out[seat]["second_tiles"] -= e.data["gold"]
        elif e.kind == "score":
            q = e.data["quarter"] - 1
            for s in range(players):
                mine = [r for r in e.data["results"] if r["seat"] == s]
                out[s]["quarters"][q] = {
                    "workers": [r["workers"] for r in mine],
                    "golds": [r["gold"] for r in mine],
                    "gold": sum(r["gold"] for r in mine),
                }
    return out


@pytest.mark.parametrize(
    ("players", "seed", "options"),
    [(2, 31, None), (3, 32, None), (4, 33, None), (2, 34, {"two_player_seats": "adjacent"})],
)
def test_gold_by_source_adds_up_and_equals_the_record(
    players: int, seed: int, options: dict[str, Any] | None
) -> None:
    events: list[tuple[int, Any]] = []
    steps = checked = 0

    def record(old: Any, seat: int, move: Any, new: dict[str, Any], evs: Any) -> None:
        nonlocal steps, checked
        events.extend((seat, e) for e in evs)
        steps += 1
        if steps % 5 == 0:  # on the way: the view's sources add up to the gold
            view = GAME.view(new, None)
            for s, src in enumerate(view["sources"]):
                quarters = sum(q["gold"] for q in src["quarters"] if q is not None)
                assert (
                    src["tiles"] + src["workers"] + src["second_tiles"] + quarters
                    == (view["gold"][s])
                )
            checked += 1

    final, _ = random_playout(GAME, players, seed, options, on_step=record)
    assert checked > 10
    view = GAME.view(final, None)
    assert view["sources"] == _from_record(players, events)
    assert all(q is not None for q in view["sources"][0]["quarters"])
    for s, src in enumerate(view["sources"]):
        for q in src["quarters"]:
            assert q["gold"] == sum(QUARTER_GOLD[min(k, 6)] for k in q["workers"])
        total = src["tiles"] + src["workers"] + src["second_tiles"]
        assert total + sum(q["gold"] for q in src["quarters"]) == view["gold"][s]


def test_a_state_saved_before_the_tally_still_plays_and_draws() -> None:
    state = GAME.setup(3, 5)
    for _ in range(12):
        seat = GAME.to_act(state)[0]
        state, _ = GAME.apply(state, seat, GAME.legal_moves(state, seat)[0])
    old = {k: v for k, v in state.items() if k not in ("tally", "results")}
    seat = GAME.to_act(old)[0]
    new, _ = GAME.apply(old, seat, GAME.legal_moves(old, seat)[0])
    assert "tally" not in new and GAME.view(new, None)["sources"] is None
    img, _ = draw_probed("maharani", GAME.view(new, None), NAMES[:3], None, "en")
    assert img.width > 0


@pytest.mark.parametrize(("players", "seed"), [(2, 41), (4, 42)])
def test_the_final_picture_prints_each_seats_gold_by_source(players: int, seed: int) -> None:
    """The final picture draws the whole table: every source's label and every seat's
    cell, the quarters as workers → gold, and a total equal to each seat's gold."""
    from collections import Counter

    from render.maharani.final import rows

    final, _ = random_playout(GAME, players, seed)
    view = GAME.view(final, None)
    table = rows(view, "en")
    _, probe = draw_probed("maharani", view, NAMES[:players], None, "en")
    drawn = Counter(x.text for x in probe.texts)
    for label, cells, _total in table:
        assert label in drawn
        assert not Counter(cells) - drawn, (label, cells)
    assert table[-1][1] == [str(g) for g in view["gold"]]
    for s, src in enumerate(view["sources"]):
        for q, quarter in enumerate(src["quarters"]):
            k, g = quarter["workers"][0], quarter["golds"][0]
            assert table[3 + q][1][s].startswith(f"{k}→{g}" if k else "0")


@pytest.mark.parametrize(
    ("players", "seed", "lang"), [(2, 41, "pl"), (4, 42, "en"), (4, 43, "qps")]
)
def test_the_final_table_reads_on_a_phone(
    players: int, seed: int, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Shown 400 px wide on a phone, the final table's labels, seats' names and numbers are
    ≥ 7.5 px tall (≥ ~28 px on the 1,478 px picture; the table had 17 px text, 4.6 px on a
    phone), in a real language and in the 40 %-longer pseudo-language, and none is cut."""
    from render.maharani.final import rows
    from render.words.catalogue import MESSAGES, t
    from tests.test_picture_legibility import PHONE, PSEUDO, longer

    if lang == PSEUDO:
        monkeypatch.setitem(MESSAGES, PSEUDO, {k: longer(v) for k, v in MESSAGES["en"].items()})
    final, _ = random_playout(GAME, players, seed)
    view = GAME.view(final, None)
    img, probe = draw_probed("maharani", view, NAMES[:players], None, lang)
    wanted = {x for label, cells, _ in rows(view, lang) for x in (label, *cells)}
    wanted |= set(NAMES[:players])
    head = t("pic.maharani.src.head", lang)
    table = {x.image_id for x in probe.texts if x.text == head}  # what the table is drawn on
    sizes = {x.text: x.size for x in probe.texts if x.text in wanted and x.image_id in table}
    assert set(sizes) == wanted  # every one drawn whole
    small = {text: size for text, size in sizes.items() if size * PHONE / img.width < 7.5}
    assert small == {}, small


def _luminance(colour: str) -> float:
    """WCAG relative luminance of a ``#RRGGBB`` colour."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_the_recent_tiles_mark_is_shape_and_contrast_not_hue() -> None:
    """The mark of the last move's spaces is black and white only (a frame, a light line
    inside it and a corner flag), so it reads for every colour vision and in greyscale; on
    the floor and on every tile colour one of its two bands stands out ≥ 3:1."""
    from PIL import Image, ImageChops, ImageDraw

    from render.maharani import pieces

    for fill in [pieces.FLOOR, *pieces.TILE_FILL.values()]:
        img = Image.new("RGB", (pieces.CELL, pieces.CELL), fill)
        pieces.recent_mark(ImageDraw.Draw(img), 0, 0)
        changed = ImageChops.difference(img, Image.new("RGB", img.size, fill)).convert("L")
        mask = changed.point(lambda v: 255 if v else 0)
        marked = img.copy()
        marked.putalpha(mask)
        pixels = {px[:3] for _, px in marked.getcolors(1 << 16) or [] if px[3]}
        assert pixels and all(r == g == b for r, g, b in pixels), fill
        assert max(_contrast(pieces.MARK_DARK, fill), _contrast(pieces.MARK_LIGHT, fill)) >= 3
    assert _contrast(pieces.MARK_DARK, pieces.FLOOR) >= 3
    assert _contrast(pieces.MARK_DARK, pieces.MARK_LIGHT) >= 12
