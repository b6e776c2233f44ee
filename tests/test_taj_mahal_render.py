"""Taj Mahal pictures: many random states draw without error, stay small, and the public
picture is drawn from the public view alone (which holds no hand)."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat

from render.common import encode_png
from render.registry import render_png
from render.taj_mahal import draw
from rules.playout import random_playout
from rules.taj_mahal import GAME

NAMES = ["Ágnes", "Bálint", "Csilla", "Dániel", "Ödön"]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_states_draw_small_pngs(players: int) -> None:
    states = []

    def keep(old, seat, move, new, events) -> None:  # noqa: ANN001
        if len(states) < 400:
            states.append(new)

    final, _ = random_playout(GAME, players, 7 + players, on_step=keep)
    states.append(final)
    for st in states[:: max(1, len(states) // 6)] + [final]:
        pub = GAME.view(st, None)
        assert "hand" not in pub
        img = draw(pub, NAMES[:players], None)
        assert 1200 <= img.width <= 1600
        png = encode_png(img)
        assert len(png) < 400_000
        seat = GAME.to_act(st)[0] if GAME.to_act(st) else 0
        mine = draw(GAME.view(st, seat), NAMES[:players], seat)
        assert 400 <= mine.width <= 600 and len(encode_png(mine)) < 400_000


def test_registry_renders_and_names_with_duplicate_initials() -> None:
    st = GAME.setup(4, 1)
    png = render_png("taj-mahal", GAME.view(st, None), ["Ann", "Amy", "Bo", "Cy"])
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    # a private picture of a big hand still fits and is drawn
    st["hands"][0] = sorted(st["deck"][:40])
    img = draw(GAME.view(st, 0), ["Ann", "Amy", "Bo", "Cy"], 0)
    assert img.height > 400 and len(encode_png(img)) < 400_000


def _info(in_visit: bool, *symbol_lists: list[str]) -> dict:
    return {"in_visit": in_visit, "played": [{"symbols": s} for s in symbol_lists]}


def test_court_shows_who_leads_each_prize_and_by_how_much() -> None:
    from render.taj_mahal import court_leads

    view = {
        "court": ["vizier", "general", "monk", "mogul", "elephant"],
        "player_info": [
            _info(True, ["vizier", "elephant"], ["vizier"]),
            _info(True, ["vizier", "general"], ["elephant"]),
            _info(False, ["monk"], ["monk"], ["monk"]),  # withdrew: no longer counts
        ],
    }
    leads = court_leads(view)
    assert leads["vizier"] == ([0], 2, 1)  # seat 0 leads by one
    assert leads["general"] == ([1], 1, 1)
    assert leads["elephant"] == ([0, 1], 1, 0)  # a tie: nobody would win it
    assert "monk" not in leads and "mogul" not in leads  # nobody in the visit shows one
    assert "princess" not in leads  # not in the court any more


def test_plural_words_for_cards_and_commissions() -> None:
    from render.words.catalogue import tn

    assert tn("pic.pastiche.n_cards", 1) == "1 palette card"
    assert tn("pic.pastiche.n_cards", 4) == "4 palette cards"
    assert tn("pic.pastiche.n_commissions", 0) == "0 commissions"
    assert tn("pic.pastiche.n_commissions", 1, "pt") == "1 commission"  # a language we lack


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_bonus_tiles_province_tiles_and_names_never_cover_a_city_or_a_palace() -> None:
    """Issue 42: a "+1 card" tile beside a north city hid the city, and a crowned palace
    covered a long province name. Every bonus tile's place (at its widest kind), every
    province tile, and every province name in each language we ship stay clear of every
    city, every palace (regular or crowned, where it is drawn) and of one another."""
    from render.taj_mahal.board import (
        MAP_W,
        _card_bonus_width,
        _city_xy,
        _label_sprites,
        _province_xy,
        bonus_box,
        crowned_xy,
        tile_xy,
    )
    from render.words.catalogue import LANGUAGES
    from rules.taj_mahal.components import components

    comp = components()
    cxy = _city_xy()
    cities = {c: (x - 17, y - 17, x + 17, y + 17) for c, (x, y) in cxy.items()}
    palaces = {c: (x - 18, y - 20, x + 18, y + 16) for c, (x, y) in cxy.items()}
    # a crowned palace alone sits on its city; beside a palace, outwards (render/board.py)
    crowned = {}
    for c in cxy:
        for beside, name in ((False, c), (True, c + "+")):
            x, y = crowned_xy(c, beside)
            crowned[name] = (x - 18, y - 24, x + 18, y + 12)
    pieces = {**cities, **{"palace " + c: b for c, b in palaces.items()}}
    pieces |= {"crown " + c: b for c, b in crowned.items()}
    widest = max(_card_bonus_width("+1card"), 40)
    tiles = {c: bonus_box(c, widest) for c in comp.fortresses if c.partition("_")[2] != "TAJ"}
    for p in _province_xy():  # the province tile and its goods (two at most)
        x, y = tile_xy(p, 2)
        tiles[f"tile {p}"] = (x - 15, y - 15, x + 15 + 4 + 40, y + 15)
        assert tiles[f"tile {p}"][2] <= MAP_W - 8  # never under the side panel
    for city, box in tiles.items():
        gone = {"palace " + city, "crown " + city + "+"}  # a palace took the tile
        hit = [name for name, b in pieces.items() if _overlap(box, b) and name not in gone]
        assert hit == [], (city, hit)
        others = [c for c, b in tiles.items() if c != city and _overlap(box, b)]
        assert others == [], (city, others)
    for lang in ["en", *LANGUAGES]:
        for sprite, x, y in _label_sprites(lang):
            box = (x, y, x + sprite.width, y + sprite.height)
            hit = [name for name, b in {**pieces, **tiles}.items() if _overlap(box, b)]
            assert hit == [], (lang, box, hit)


def _game_states(players: int, seed: int) -> list[dict]:
    states: list[dict] = []
    random_playout(GAME, players, seed, on_step=lambda *a: states.append(a[3]))
    return states


def _changed(a: Image.Image, b: Image.Image) -> tuple[int, int, int, int]:
    """Where two pictures differ in brightness (not only in hue): a shape or an outline."""
    box = ImageChops.difference(a.convert("L"), b.convert("L")).getbbox()
    assert box is not None
    return box


def test_the_last_turn_is_marked_on_the_board_by_shape_and_outline() -> None:
    """Issue 42: the cards the last turn played (in its player's row) and the palaces it
    placed (on the map) are outlined; without ``last`` the picture has no such marks."""
    from render.taj_mahal.board import MAP_W, _city_xy

    states = _game_states(4, 3)
    played = next(s for s in states[40:] if s["last"] and s["last"]["cards"])
    placed = next(s for s in states[40:] if s["last"] and s["last"]["palaces"])
    for state in (played, placed):
        view = GAME.view(state, None)
        marked = draw(view, NAMES[:4], None)
        plain = draw({**view, "last": None}, NAMES[:4], None)
        x0, _, x1, _ = _changed(marked, plain)
        if state is played:  # the panel's row, right of the map
            assert x0 >= MAP_W
        else:
            x = _city_xy()[state["last"]["palaces"][0]][0]
            assert x0 < x < x1 and x0 < MAP_W


def test_the_hand_dims_the_cards_that_cannot_be_played_this_visit() -> None:
    """Issue 42: with red locked, the other colours' cards are dimmed (lighter), as the
    view's ``playable`` says; the red cards look as before."""
    from tests.test_taj_mahal_rules import blank, give, play

    s = blank()
    give(s, 0, "R-VE", "R-GE", "B-ME", "B-GE", "W-P")
    give(s, 1, "Y-VE")
    s, _ = play(s, 0, "R-VE")
    view = GAME.view(s, 0)
    assert len(view["playable"]["cards"]) == 2  # R-GE and the white card beside it
    dimmed = draw(view, NAMES[:3], 0)
    everything = {"cards": [c["id"] for c in view["hand"]], "with_change": []}
    bright = draw({**view, "playable": everything}, NAMES[:3], 0)
    box = ImageChops.difference(dimmed.convert("L"), bright.convert("L")).getbbox()
    assert box is not None
    region = (box[0], box[1], box[2], box[3])
    mean = [ImageStat.Stat(img.convert("L").crop(region)).mean[0] for img in (dimmed, bright)]
    assert mean[0] > mean[1] + 10  # lighter where dimmed


def test_the_final_picture_shows_each_seats_points_by_source_and_the_total() -> None:
    """Issue 42: the final picture draws every seat's points by source, which add up to
    its score, in every language we ship."""
    from render.words.catalogue import LANGUAGES, t
    from tests.picture_probe import draw_probed

    final, _ = random_playout(GAME, 3, 8)
    view = GAME.view(final, None)
    for lang in ["en", *LANGUAGES]:
        _, probe = draw_probed("taj-mahal", view, NAMES[:3], None, lang)
        drawn = [x.text for x in probe.texts]
        for key in ("palaces", "goods", "bonus", "special", "hand", "total"):
            assert t(f"pic.taj.source.{key}", lang) in drawn
        for info in view["player_info"]:
            assert sum(info["points"].values()) == info["score"]
            assert str(info["score"]) in drawn
            for points in info["points"].values():
                assert str(points) in drawn


@pytest.mark.parametrize(("w", "h"), [(36, 52), (46, 66), (58, 82)])
def test_no_two_texts_on_a_card_touch_at_any_size(w: int, h: int) -> None:
    """Issue 42: on a small played card a special card's "S" and "+1" ran together and
    read "$1"; the colour letter touched the first symbol. Every text drawn on a card
    keeps clear of the others, for every card in the game."""
    from render.taj_mahal.pieces import _draw_card
    from rules.taj_mahal.components import components
    from tests.picture_probe import probing

    seen = set()
    for c in components().cards:
        if c.code in seen:
            continue
        seen.add(c.code)
        card = {"code": c.code, "kind": c.kind, "colour": c.colour, "symbols": list(c.symbols)}
        with probing() as probe:
            _draw_card(ImageDraw.Draw(Image.new("RGBA", (w + 1, h + 1))), 0, 0, card, w, h)
        boxes = [x.box for x in probe.texts]
        for i, a in enumerate(boxes):
            assert all(0 <= v <= max(w, h) for v in a), (c.code, a)
            for b in boxes[i + 1 :]:
                apart = a[2] < b[0] or b[2] < a[0] or a[3] < b[1] or b[3] < a[1]
                assert apart, (c.code, w, h, probe.texts)
