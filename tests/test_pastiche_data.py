"""Pastiche component data: counts from the rulebook, the mixing chart, validation errors."""

from __future__ import annotations

import json
from collections import Counter
from itertools import permutations

import pytest

from data import read_json
from rules.pastiche import board as bd
from rules.pastiche import data as pd

# The reference's chart (§2.1), written out independently of the data file.
CHART_2 = {
    "RY": "orange",
    "YB": "green",
    "RB": "purple",
    "RR": None,
    "YY": None,
    "BB": None,
}
CHART_3 = {
    "RYB": "brown",
    "RRY": "vermilion",
    "RYY": "amber",
    "YYB": "olive",
    "YBB": "teal",
    "RBB": "violet",
    "RRB": "magenta",
    "RRR": "red",
    "YYY": "yellow",
    "BBB": "blue",
}


def test_palette_counts_and_values_match_the_rulebook() -> None:
    d = pd.load()
    assert sum(c.count for c in d.colours) == 132
    assert len(d.colours) == 17
    by_group = Counter()
    for c in d.colours:
        by_group[c.group] += c.count
    assert by_group == {
        "primary": 24,
        "secondary": 48,
        "tertiary": 36,
        "shade": 12,
        "gray": 6,
        "cream": 6,
    }
    assert d.value["red"] == 4 and d.value["orange"] == 1 and d.value["teal"] == 2
    assert d.value["black"] == 3 and d.value["gray"] == 6 and d.value["cream"] == 4
    assert d.starting_hand == ("green", "purple", "orange", "brown")


@pytest.mark.parametrize("dabs", sorted(CHART_2))
def test_mixing_chart_two_dabs_in_every_order(dabs: str) -> None:
    for order in permutations(dabs):
        assert bd.mix("".join(order)) == CHART_2[dabs]


@pytest.mark.parametrize("dabs", sorted(CHART_3))
def test_mixing_chart_three_dabs_in_every_order(dabs: str) -> None:
    for order in permutations(dabs):
        assert bd.mix("".join(order)) == CHART_3[dabs]


def test_every_combination_is_in_the_chart() -> None:
    assert len(pd.load().mix) == 6 + 10


def test_hexes_start_piece_and_commissions() -> None:
    d = pd.load()
    assert len(d.hexes) == 54
    assert all(sorted(h.corners) == sorted("RRYYBB") for h in d.hexes.values())
    assert len(d.start) == 3
    assert [(h.q, h.r) for h in d.start] == [(0, 0), (1, 0), (1, -1)]
    assert len(d.commissions) == 34
    painters = Counter(c.painter for c in d.commissions.values())
    assert len(painters) == 17 and set(painters.values()) == {2}
    # the rulebook's example pins Da Vinci 7+8 and Van Gogh 13+14
    pts = {p: sorted(c.points for c in d.commissions.values() if c.painter == p) for p in painters}
    assert pts["Leonardo da Vinci"] == [7, 8]
    assert pts["Vincent van Gogh"] == [13, 14]
    assert any(c.title == "The Fifer" and c.points == 16 for c in d.commissions.values())
    for c in d.commissions.values():
        assert 2 <= len(c.palette) <= 7 and 7 <= c.points <= 16


def _broken(monkeypatch: pytest.MonkeyPatch, name: str, mutate) -> str:
    original = read_json

    def fake(game_dir: str, file: str):
        raw = original(game_dir, file)
        return mutate(json.loads(json.dumps(raw))) if file == name else raw

    monkeypatch.setattr(pd, "read_json", fake)
    pd.load.cache_clear()
    try:
        with pytest.raises(pd.DataError) as err:
            pd.load()
    finally:
        monkeypatch.undo()
        pd.load.cache_clear()
    return str(err.value)


def test_broken_files_fail_loudly_with_file_and_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    msg = _broken(monkeypatch, "commissions.json", lambda d: d[:-1])
    assert "commissions.json" in msg and "34" in msg
    msg = _broken(monkeypatch, "hexes.json", lambda d: [{**d[0], "corners": "RRYYBQ"}] + d[1:])
    assert "hexes.json" in msg
    msg = _broken(monkeypatch, "mixing.json", lambda d: {**d, "mix2": {"RY": "orange"}})
    assert "mixing.json" in msg and "mix2" in msg
    msg = _broken(
        monkeypatch,
        "palette.json",
        lambda d: {**d, "colours": [{**d["colours"][0], "count": 9}] + d["colours"][1:]},
    )
    assert "palette.json" in msg and "132" in msg
    msg = _broken(
        monkeypatch,
        "start_piece.json",
        lambda d: {"hexes": [d["hexes"][0], d["hexes"][1], {**d["hexes"][2], "q": 5}]},
    )
    assert "start_piece.json" in msg and "touch" in msg

    def bad_colour(d):
        d[0]["palette"][0] = "chartreuse"
        return d

    msg = _broken(monkeypatch, "commissions.json", bad_colour)
    assert "chartreuse" in msg
    # and the real data loads again afterwards
    assert len(pd.load().commissions) == 34
