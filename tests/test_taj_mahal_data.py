"""Taj Mahal component data: the counts the rules reference confirms, and loud failures on
bad files (a corrected JSON file must change the game or fail with the file named)."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

import data
from rules.taj_mahal import components as comp_mod
from rules.taj_mahal.components import DataError, components


def test_deck_counts_match_the_reference() -> None:
    comp = components()
    deck = [comp.cards[i] for i in comp.deck]
    assert len(deck) == 96
    for colour in comp.colours:
        cards = [c for c in deck if c.colour == colour]
        assert len(cards) == 21
        sym = Counter(s for c in cards for s in c.symbols)
        assert sym == {
            "elephant": 18,
            "vizier": 5,
            "general": 5,
            "monk": 5,
            "princess": 5,
            "mogul": 4,
        }
        assert all(len(c.symbols) == 2 for c in cards)
        assert sum(1 for c in cards if c.symbols == ("elephant", "elephant")) == 2
    whites = [c for c in deck if c.kind == "white"]
    assert len(whites) == 12 and all(len(c.symbols) == 1 for c in whites)
    assert sum(1 for c in whites if c.symbols == ("elephant",)) == 7
    total = Counter(s for c in deck for s in c.symbols)
    assert total["elephant"] == 79 and total["mogul"] == 17
    assert all(total[k] == 21 for k in ("vizier", "general", "monk", "princess"))
    # every pair of non-elephant symbols appears on exactly two cards (two 5-cycles)
    pairs = Counter(c.symbols for c in deck if c.kind == "colour" and "elephant" not in c.symbols)
    assert len(pairs) == 10 and set(pairs.values()) == {2}


def test_special_cards_and_their_mapping() -> None:
    comp = components()
    specials = [c for c in comp.cards if c.kind == "special"]
    assert len(specials) == 4
    assert {c.code for c in specials} == {"S-E", "S-C", "S-2", "S-X"}
    assert comp.special_for_kind == {
        "general": "elephant",
        "princess": "points",
        "vizier": "mogul",
        "monk": "colour",
    }
    assert comp.cards[comp.specials["points"]].points == 2
    assert comp.cards[comp.specials["elephant"]].symbols == ("elephant",)
    assert comp.cards[comp.specials["mogul"]].symbols == ("mogul",)
    assert comp.cards[comp.specials["colour"]].symbols == ()


def test_map_tiles_and_bonus_tiles() -> None:
    comp = components()
    assert len(comp.province_keys) == 12
    assert len(comp.cities) == 49
    assert len(comp.fortresses) == 16
    assert len(comp.roads) == 87
    assert comp.agra == "AGR" and len(comp.province_cities["AGR"]) == 5
    assert all(len(comp.province_cities[p]) == 4 for p in comp.province_keys if p != "AGR")
    goods = Counter(g for t in comp.tile_goods.values() for g in t)
    assert goods == {"rice": 7, "spice": 6, "tea": 5, "jewel": 5}
    assert comp.tile_goods[1] == ("rice",)
    tiles = comp.bonus_tiles
    assert len(tiles) == 16 and tiles[0].value == 4 and comp.taj_city == "AGR_TAJ"
    kinds = Counter((t.kind, t.good) for t in tiles[1:])
    assert kinds[("points", None)] == 3 and kinds[("card", None)] == 3
    assert kinds[("good", "tea")] == 3 and kinds[("good", "rice")] == 1


def _with_patched(monkeypatch: pytest.MonkeyPatch, name: str, change) -> str:
    original = data.read_json

    def fake(game_dir: str, file: str):
        value = original(game_dir, file)
        if file == name:
            value = copy.deepcopy(value)
            change(value)
        return value

    monkeypatch.setattr(comp_mod, "read_json", fake)
    components.cache_clear()
    try:
        with pytest.raises(DataError) as err:
            components()
    finally:
        components.cache_clear()
    msg = str(err.value)
    assert msg.startswith("data/taj_mahal/") and name in msg
    return msg


def test_bad_files_fail_loudly_naming_the_file(monkeypatch: pytest.MonkeyPatch) -> None:
    msg = _with_patched(
        monkeypatch, "cards.json", lambda v: v["per_color_fixed"][0].update(count=3)
    )
    assert "22 cards" in msg
    msg = _with_patched(monkeypatch, "cards.json", lambda v: v["white"].pop())
    assert "white" in msg
    msg = _with_patched(
        monkeypatch, "map.json", lambda v: v["roads_between_provinces"].append(["KAB_N", "NOPE"])
    )
    assert "unknown city" in msg

    def cut_kabul(v: dict) -> None:
        v["roads_between_provinces"] = [
            r for r in v["roads_between_provinces"] if not any(x.startswith("KAB") for x in r)
        ]

    msg = _with_patched(monkeypatch, "map.json", cut_kabul)
    assert "not connected" in msg
    msg = _with_patched(monkeypatch, "map.json", lambda v: v["cities"][0].update(fortress=True))
    assert "15 random tiles for 16 fortresses" in msg
    msg = _with_patched(monkeypatch, "province_tiles.json", lambda v: v.pop("7"))
    assert "1..12" in msg
    msg = _with_patched(monkeypatch, "province_tiles.json", lambda v: v.update({"3": ["gold"]}))
    assert "gold" in msg
    msg = _with_patched(
        monkeypatch, "special_cards.json", lambda v: v["cards"][0].update(claimed_with="monk")
    )
    assert "influence" in msg
    msg = _with_patched(
        monkeypatch, "bonus_tiles.json", lambda v: v["random_15"]["tiles"][0].update(count=4)
    )
    assert "16 random tiles" in msg
    msg = _with_patched(monkeypatch, "setup.json", lambda v: v.update(visits="many"))
    assert "visits" in msg
    # and the real files load again afterwards
    monkeypatch.undo()
    components.cache_clear()
    assert len(components().cards) == 100
