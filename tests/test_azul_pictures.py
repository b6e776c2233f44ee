"""Azul pictures that explain the game (issue 42): the last move is marked on the board, and
the final picture shows every seat's points by source, matching the record.

- the view says what the last move put on the table (``last_turn``), only what is still
  there, and the computer player rebuilds it;
- each seat's ``points`` by source add up to its score and equal the per-source sums of
  the record's scoring events, over whole games (2-4 players, both walls);
- the picture marks the last move by a dark outline (not colour alone) and draws the final
  breakdown readable on a phone, in every language.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules.azul import GAME
from rules.base import Event
from rules.playout import random_playout
from tests.test_azul_support import play, set_centre, set_factory, set_floor, set_line, table

# --------------------------------------------------------------------------- the view


def test_a_take_marks_its_line_tiles_floor_items_and_emptied_factory() -> None:
    s = table(2)
    set_factory(s, 2, "RRRB")
    set_factory(s, 0, "KKKK")
    set_line(s, 0, 4, "R", 1)
    s, _ = play(s, 0, "F3-R-4")
    last = GAME.view(s, None)["last_turn"]
    assert last == {
        "seat": 0,
        "source": 3,
        "line": 4,
        "line_slots": [1, 4],  # the three new reds beside the one already there
        "floor_slots": [],
        "wall_cells": [],
    }
    # from the centre, first: the marker and the overflow go to the floor
    set_floor(s, 1, "K")
    s["turn"] = 1
    set_centre(s, "BBBY")
    s, _ = play(s, 1, "C-B-1")
    last = GAME.view(s, None)["last_turn"]
    assert last["source"] == "C" and last["line"] == 1 and last["line_slots"] == [0, 1]
    assert last["floor_slots"] == [[1, 1, 4]]  # marker + 2 blue after the black


def test_the_round_end_marks_the_wall_tiles_and_forgets_what_left_the_table() -> None:
    s = table(2)
    set_factory(s, 0, "YY")
    set_line(s, 0, 2, "Y", 0)
    set_line(s, 1, 1, "K", 1)  # full: tiled too, by the other player
    set_floor(s, 0, "B")
    s, _ = play(s, 0, "F1-Y-2")
    assert s["round"] == 2
    view = GAME.view(s, None)
    last = view["last_turn"]
    assert last["seat"] == 0
    assert last["source"] is None  # the factories were refilled
    assert last["line_slots"][0] == last["line_slots"][1]  # line 2 went to the wall
    assert last["floor_slots"] == []  # floors were cleared
    assert sorted(last["wall_cells"]) == [[0, 1, 2, 1], [1, 0, 3, 1]]
    for seat, row, column, _points in last["wall_cells"]:
        assert view["players"][seat]["wall"][row][column] is not None


def test_grey_wall_marks_the_chosen_column_and_keeps_the_waiting_line() -> None:
    s = table(2, grey=True)
    set_factory(s, 0, "R")
    set_line(s, 0, 3, "R", 2)
    s, _ = play(s, 0, "F1-R-3")
    assert s["phase"] == "tiling"
    last = GAME.view(s, None)["last_turn"]
    assert last["source"] == 1 and last["line"] == 3 and last["line_slots"] == [2, 3]
    s, _ = play(s, 0, "col-4")
    last = GAME.view(s, None)["last_turn"]
    assert last["seat"] == 0 and last["source"] is None and last["line"] is None
    assert last["wall_cells"] == [[0, 2, 3, 1]]


# --------------------------------------------------------------------------- the arithmetic

#: (players, grey wall, seed): whole random games
GAMES = [(2, False, 1), (2, True, 2), (3, False, 3), (3, True, 4), (4, False, 5), (4, True, 6)]


def record_of(players: int, grey: bool, seed: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A whole game's final view and its events as a record stores them (``to_json``)."""
    events: list[dict[str, Any]] = []

    def keep(_old: Any, _seat: int, _move: Any, _new: Any, got: list[Event]) -> None:
        events.extend(e.to_json(include_secret=True) for e in got)

    final, _ = random_playout(GAME, players, seed, {"grey_wall": grey}, on_step=keep)
    return GAME.view(final, None), events


def sources_of(events: list[dict[str, Any]], players: int) -> list[dict[str, int]]:
    """Each seat's points by source, summed from the record's scoring events."""
    out = [
        dict.fromkeys(("wall", "floor", "rows", "columns", "colours"), 0) for _ in range(players)
    ]
    for event in events:
        data = event["data"]
        if event["kind"] == "tile":  # a coloured wall's tiling, or one grey-wall tile
            out[data["seat"]]["wall"] += data["points"]
        elif event["kind"] == "floor":
            out[data["seat"]]["floor"] -= data["lost"]
        elif event["kind"] == "bonus":
            out[data["seat"]]["rows"] += 2 * data["rows"]
            out[data["seat"]]["columns"] += 7 * data["columns"]
            out[data["seat"]]["colours"] += 10 * data["colours"]
    return out


@pytest.mark.parametrize(("players", "grey", "seed"), GAMES)
def test_each_breakdown_adds_up_and_matches_the_record(players: int, grey: bool, seed: int) -> None:
    view, events = record_of(players, grey, seed)
    assert view["outcome"] is not None
    final_scores = next(e for e in events if e["kind"] == "end")["data"]["scores"]
    for p, from_record in zip(view["players"], sources_of(events, players), strict=True):
        assert p["points"] == from_record
        assert sum(p["points"].values()) == p["score"] == final_scores[p["seat"]]


async def test_the_exported_record_of_a_finished_match_gives_the_breakdown(tmp_path: Any) -> None:
    """Through the real service (pictures off): the events ``export_record`` stores add up,
    per source, to the finished match's view."""
    from bot.matches.reports import User
    from bot.matches.service import MatchService

    service = await MatchService.open(tmp_path / "record.db", render=False)
    try:
        users = [User("u:a", "Ann"), User("u:b", "Ben")]
        info = await service.create_match("azul", users[0], {}, max_players=2, seed=12)
        await service.join(info.id, users[1])
        await service.start(info.id, users[0])
        by_id = {u.id: u for u in users}
        current = await service.info(info.id)
        while current.status == "running":
            user = by_id[current.to_act[0]]
            legal = await service.legal_moves(info.id, user)
            best = max(legal, key=lambda m: m.rank)  # a game of a few rounds, not of floors
            current = (await service.play(info.id, user, best.notation)).match
        record = await service.export_record(info.id)
        view = GAME.view(await service.state_at(info.id), None)
    finally:
        await service.close()
    events = [e for move in record["moves"] for e in move["events"]]
    for p, from_record in zip(view["players"], sources_of(events, 2), strict=True):
        assert p["points"] == from_record
        assert sum(p["points"].values()) == record["final_scores"][p["seat"]]


# --------------------------------------------------------------------------- the picture

NAMES = ["Ágnes", "Bálint", "Łucja", "Dénes"]


def _luminance(rgb: tuple[int, ...]) -> float:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _body(view: dict[str, Any]) -> Any:
    """The picture without its header band (the board's own coordinates)."""
    from render.azul import draw, layout_for

    img = draw(view, NAMES[: view["player_count"]], None).convert("RGB")
    lay = layout_for(view)
    return img.crop((0, img.height - lay.height, img.width, img.height))


def test_the_last_move_is_framed_in_dark_on_its_tiles_and_factory() -> None:
    """Line tiles, floor items, wall tiles and the emptied factory each get a frame that
    differs from the unmarked picture by at least 3:1 in luminance (so not by colour
    alone: it shows in greyscale), just outside the tiles' edge."""
    from render.azul.geometry import FAC_D, cell_box, floor_cell, layout, line_cell, wall_cell

    s = table(2)
    set_factory(s, 2, "RRRB")
    set_factory(s, 0, "KKKK")
    s, _ = play(s, 0, "F3-R-2")  # 2 red to line 2, 1 to the floor
    view = GAME.view(s, None)
    marked, plain = _body(view), _body({**view, "last_turn": None})
    lay = layout(2)
    origin = lay.boards[0]

    def differs(x: int, y: int) -> bool:
        return contrast(marked.getpixel((x, y)), plain.getpixel((x, y))) >= 3

    x0, y0, _, y1 = cell_box(*line_cell(origin, 1, 1))  # the run's left end
    assert differs(x0 - 2, (y0 + y1) // 2)
    x0, y0, _, y1 = cell_box(*floor_cell(origin, 0))
    assert differs(x0 - 2, (y0 + y1) // 2)
    cx, cy = lay.factories[2]
    assert differs(cx - FAC_D // 2 - 2, cy)
    assert not differs(lay.factories[0][0] - FAC_D // 2 - 2, lay.factories[0][1])
    # the other player's board is untouched
    other = lay.boards[1]
    box = (other[0], other[1], other[0] + 600, other[1] + 440)
    assert marked.crop(box).tobytes() == plain.crop(box).tobytes()
    # after the round end: the wall tiles, with the points each scored
    s = table(2)
    set_factory(s, 0, "YY")
    s, _ = play(s, 0, "F1-Y-2")
    view = GAME.view(s, None)
    assert view["last_turn"]["wall_cells"] == [[0, 1, 2, 1]]
    marked, plain = _body(view), _body({**view, "last_turn": None})
    x0, y0, _, y1 = cell_box(*wall_cell(origin, 1, 2))
    assert differs(x0 - 2, (y0 + y1) // 2)


def _states_of(players: int, grey: bool, seed: int) -> list[dict[str, Any]]:
    states: list[dict[str, Any]] = []
    random_playout(GAME, players, seed, {"grey_wall": grey}, on_step=lambda *a: states.append(a[3]))
    return states


#: numbers and headings of the breakdown: ≥ 9 px tall on a phone (the band's floor)
PHONE, PHONE_MIN_PX = 400, 9


def _overlapping(boxes: list[tuple[str, tuple[int, int, int, int]]]) -> list[tuple[str, str]]:
    out = []
    for i, (a, (ax0, ay0, ax1, ay1)) in enumerate(boxes):
        for b, (bx0, by0, bx1, by1) in boxes[i + 1 :]:
            if ax0 < bx1 and bx0 < ax1 and ay0 < by1 and by0 < ay1:
                out.append((a, b))
    return out


@pytest.mark.parametrize("lang", ["en", "hu", "de", "pl", "qps"])
def test_the_final_breakdown_is_drawn_whole_and_phone_legible(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every seat's numbers by source and its total are drawn, as big as the header band's
    text on a phone, and so are the headings (the language's words) in every language we
    ship; no text of the picture's body overlaps another and none is cut (the 40 %-longer
    pseudo-language included, whose headings may shrink to fit)."""
    from render.azul import WIDTH, layout_for
    from render.azul.breakdown import HEADINGS
    from render.words.catalogue import MESSAGES, t
    from tests.picture_probe import draw_probed, fresh_caches
    from tests.test_picture_legibility import PSEUDO, clipped, longer

    if lang == PSEUDO:
        monkeypatch.setitem(MESSAGES, PSEUDO, {k: longer(v) for k, v in MESSAGES["en"].items()})
    fresh_caches("azul")
    for players, grey, seed in GAMES[1::2]:  # both walls, 2-4 players
        view, _ = record_of(players, grey, seed)
        img, probe = draw_probed("azul", view, NAMES[:players], None, lang)
        body = [x for x in probe.texts if x.canvas == (WIDTH, layout_for(view).height)]
        drawn = {x.text: x for x in body}
        phone = PHONE_MIN_PX if lang != PSEUDO else 0  # longer words may shrink
        for key in HEADINGS.values():
            heading = drawn[t(key, lang)]
            assert heading.size * PHONE / img.width >= phone, heading
        totals = sorted((x for x in body if x.text.startswith("= ")), key=lambda x: x.box[1])
        assert [x.text for x in totals] == [f"= {p['score']}" for p in view["players"]]
        for p, total in zip(view["players"], totals, strict=True):
            assert total.size * PHONE / img.width >= PHONE_MIN_PX
            mid = (total.box[1] + total.box[3]) / 2
            row = [x for x in body if abs((x.box[1] + x.box[3]) / 2 - mid) < 8]
            numbers = {x.text for x in row if x.size == total.size and x is not total}
            for source, n in p["points"].items():
                shown = "0" if n == 0 else f"−{-n}" if n < 0 else str(n)
                assert shown in numbers or f"+{n}" in numbers, (source, n, numbers)
        assert _overlapping([(x.text, x.box) for x in body]) == []
        assert clipped(probe.fitted) == []
        # and mid-game, after a round end (new wall tiles, their points) and after a take
        states = _states_of(players, grey, seed)
        for state in (states[len(states) // 2], next(s for s in states if s["round"] == 2)):
            mid_view = GAME.view(state, None)
            img, probe = draw_probed("azul", mid_view, NAMES[:players], None, lang)
            body = [x for x in probe.texts if x.canvas == (WIDTH, layout_for(mid_view).height)]
            assert _overlapping([(x.text, x.box) for x in body]) == []


def test_a_state_saved_before_these_records_plays_on_and_draws() -> None:
    """A match stored before ``last`` and ``tally`` were kept: its moves apply, the view
    says the last move from then on, and its final picture has no breakdown (its sources
    before that are unknown) rather than a wrong one."""
    from render.azul import draw, layout_for

    states = _states_of(2, True, 3)
    old = {k: v for k, v in states[len(states) // 2].items() if k not in ("last", "tally")}
    view = GAME.view(old, None)
    assert view["last_turn"] is None and view["players"][0]["points"] is None
    s = old
    while GAME.to_act(s):
        seat = GAME.to_act(s)[0]
        s, _ = GAME.apply(s, seat, GAME.legal_moves(s, seat)[0])
        assert GAME.view(s, None)["last_turn"]["seat"] == seat
    final = GAME.view(s, None)
    assert final["outcome"] is not None and final["players"][0]["points"] is None
    assert not layout_for(final).final
    draw(final, NAMES[:2])
