"""Azul rules, one test per rule of shared/rules/azul.md, with worked examples."""

from __future__ import annotations

import pytest

from rules.azul import GAME
from rules.azul.board import (
    FLOOR_TOTAL,
    end_bonus,
    placement_points,
    printed_colour,
    printed_column,
)
from rules.base import IllegalMove
from tests.test_azul_support import (
    legal,
    notations,
    play,
    set_centre,
    set_factory,
    set_floor,
    set_line,
    set_wall,
    table,
)

# --------------------------------------------------------------------------- components


def test_wall_pattern_matches_the_reference_rows() -> None:
    rows = ["BYRKW", "WBYRK", "KWBYR", "RKWBY", "YRKWB"]
    for r, row in enumerate(rows):
        assert "".join("BYRKW"[printed_colour(r, c)] for c in range(5)) == row
        for c, letter in enumerate(row):
            assert printed_column(r, "BYRKW".index(letter)) == c


@pytest.mark.parametrize(("players", "factories"), [(2, 5), (3, 7), (4, 9)])
def test_setup_factories_bag_and_marker(players: int, factories: int) -> None:
    s = GAME.setup(players, 42)
    assert len(s["fac"]) == factories
    assert all(sum(f) == 4 for f in s["fac"])
    assert sum(s["bag"]) == 100 - 4 * factories
    assert s["marker"] == -1 and s["centre"] == [0] * 5
    assert s["score"] == [0] * players
    assert GAME.to_act(s) == [s["first"]]
    v = GAME.view(s, None)
    assert v["marker_in_centre"] is True
    assert v["bag"] == 100 - 4 * factories and v["lid"] == 0


def test_starting_player_is_random_from_the_seed_and_deterministic() -> None:
    firsts = {GAME.setup(3, seed)["first"] for seed in range(30)}
    assert firsts == {0, 1, 2}
    assert GAME.setup(3, 7) == GAME.setup(3, 7)
    assert GAME.setup(3, 7)["fac"] != GAME.setup(3, 8)["fac"]


def test_floor_penalty_table() -> None:
    assert FLOOR_TOTAL == (0, 1, 2, 4, 6, 8, 11, 14)


# --------------------------------------------------------------------------- factory offer


def test_seed_rulebook_first_turn_example() -> None:
    """Gosia takes 2 black, the other two go to the centre; Maciek takes a yellow, the 3 red
    go to the centre; Martyna takes the 3 red from the centre with the marker."""
    s = table(3)
    set_factory(s, 0, "KKBW")
    set_factory(s, 1, "YRRR")
    set_factory(s, 2, "BBYY")
    s, ev = play(s, 0, "F1-K-2")
    assert s["ln"][0][1] == 2 and s["lc"][0][1] == 3
    assert s["centre"] == [1, 0, 0, 0, 1] and not any(s["fac"][0])
    assert ev[0].data["marker"] is False
    s, _ = play(s, 1, "F2-Y-1")
    assert s["centre"] == [1, 0, 3, 0, 1]
    s, ev = play(s, 2, "C-R-3")
    assert s["floor"][2] == [5]  # the marker on the leftmost floor space
    assert s["ln"][2][2] == 3 and s["marker"] == 2
    assert s["centre"] == [1, 0, 0, 0, 1]
    assert ev[0].data["marker"] is True
    assert "first player marker" in ev[0].text
    # the next player to take from the centre does not get a marker
    s, ev = play(s, 0, "C-B-F")
    assert s["floor"][0] == [0] and ev[0].data["marker"] is False


def test_seed_rulebook_two_yellow_example() -> None:
    """Przemek's 2 yellow: rows 2 and 3 of his wall hold yellow, line 4 holds a blue, so he
    may put 1 in line 1 (1 to the floor), both in line 5, or both on the floor."""
    s = table(2)
    set_factory(s, 0, "YYRK")
    set_wall(s, 0, [(2, 3), (3, 4)])
    assert printed_colour(1, 2) == printed_colour(2, 3) == 1  # yellow
    set_line(s, 0, 4, "B", 1)
    yellow = {n for n in notations(s, 0) if n.startswith("F1-Y")}
    assert yellow == {"F1-Y-1", "F1-Y-5", "F1-Y-F"}
    assert "1 to floor" in legal(s, 0, "F1-Y-1").label
    s1, _ = play(s, 0, "F1-Y-1")
    assert s1["ln"][0][0] == 1 and s1["floor"][0] == [1]
    s5, _ = play(s, 0, "F1-Y-5")
    assert s5["ln"][0][4] == 2 and s5["floor"][0] == []
    sf, _ = play(s, 0, "F1-Y-F")
    assert sf["floor"][0] == [1, 1]


def test_taking_only_the_marker_is_not_a_move() -> None:
    s = table(2)
    set_factory(s, 0, "BBYR")
    assert not any(n.startswith("C-") for n in notations(s, 0))
    with pytest.raises(IllegalMove, match="only the first player marker"):
        play(s, 0, "C-B-1")


def test_line_accepts_only_its_colour_and_not_a_colour_on_the_wall_row() -> None:
    s = table(2)
    set_factory(s, 0, "RRBK")
    set_line(s, 0, 3, "B", 1)
    set_wall(s, 0, [(2, 4)])  # row 2, column 4 is red
    n = notations(s, 0)
    assert "F1-R-3" not in n and "F1-R-2" not in n
    assert {"F1-R-1", "F1-R-4", "F1-R-5", "F1-R-F", "F1-B-3"} <= n
    with pytest.raises(IllegalMove, match="Line 3 already holds blue"):
        play(s, 0, "F1-R-3")
    with pytest.raises(IllegalMove, match="wall row 2 already has red"):
        play(s, 0, "F1-R-2")


def test_full_line_refuses_more_tiles() -> None:
    s = table(2)
    set_factory(s, 0, "RRBK")
    set_line(s, 0, 2, "R", 2)
    assert "F1-R-2" not in notations(s, 0)
    with pytest.raises(IllegalMove, match="Line 2 is already full"):
        play(s, 0, "F1-R-2")


def test_overflow_goes_to_the_floor_and_beyond_seven_to_the_lid() -> None:
    s = table(2)
    set_factory(s, 0, "RRRR")
    set_factory(s, 1, "KKKK")
    set_floor(s, 0, "BBBBB")
    s2, ev = play(s, 0, "F1-R-2")
    assert s2["ln"][0][1] == 2
    assert s2["floor"][0] == [0] * 5 + [2, 2]
    assert s2["lid"] == [0] * 5
    s3, ev = play(s, 0, "F1-R-F")
    assert len(s3["floor"][0]) == 7
    assert s3["lid"][2] == 2
    assert ev[0].data["lid"] == 2 and "box lid" in ev[0].text


def test_marker_with_a_full_floor_still_changes_hands_without_penalty() -> None:
    s = table(2)
    set_centre(s, "R")
    set_factory(s, 0, "BBBB")
    set_floor(s, 0, "KKKKKKK")
    s, _ = play(s, 0, "C-R-1")
    assert s["marker"] == 0 and len(s["floor"][0]) == 7 and 5 not in s["floor"][0]


def test_floor_is_always_legal_and_moves_cover_every_source() -> None:
    s = GAME.setup(4, 3)
    moves = GAME.legal_moves(s, s["first"])
    for f, fac in enumerate(s["fac"]):
        for k, c in enumerate(fac):
            if c:
                assert f"F{f + 1}-{'BYRKW'[k]}-F" in {m.notation for m in moves}
    assert len({m.notation for m in moves}) == len(moves)
    assert all(len(m.notation) <= 80 and len(m.label) <= 100 for m in moves)
    assert all(len(m.steps) == 3 for m in moves)


def test_rank_prefers_exact_fills_and_puts_floor_last() -> None:
    s = table(2)
    set_factory(s, 0, "RRRB")
    moves = sorted(GAME.legal_moves(s, 0), key=lambda m: -m.rank)
    assert moves[0].notation == "F1-R-3"  # 3 red fill line 3 exactly
    floor = [m.rank for m in moves if m.notation.endswith("-F")]
    lines = [m.rank for m in moves if not m.notation.endswith("-F")]
    assert max(floor) < min(lines)


def test_turns_go_clockwise() -> None:
    s = table(3)
    set_factory(s, 0, "BBYY")
    set_factory(s, 1, "RRKK")
    s, _ = play(s, 0, "F1-B-2")
    assert GAME.to_act(s) == [1]
    s, _ = play(s, 1, "F2-R-2")
    assert GAME.to_act(s) == [2]
    with pytest.raises(IllegalMove, match="not your turn"):
        play(s, 0, "C-Y-2")


# --------------------------------------------------------------------------- wall tiling


def _last_move_table(players: int = 2) -> dict:
    """Seat 0 to move, one lone blue tile left in factory 1."""
    s = table(players)
    set_factory(s, 0, "B")
    return s


def test_lone_tile_scores_one_and_the_rest_of_the_line_goes_to_the_lid() -> None:
    s = _last_move_table()
    set_line(s, 0, 3, "R", 3)
    s, ev = play(s, 0, "F1-B-1")
    assert s["score"][0] == 1 + 1  # red line 3 alone: 1; blue line 1 alone: 1
    assert s["wall"][0][0] == 0  # blue at row 1 column 1
    assert s["wall"][0][2 * 5 + printed_column(2, 2)] == 2
    assert s["ln"][0] == [0] * 5
    assert s["lid"][2] == 2  # the other 2 red of line 3
    tile = [e for e in ev if e.kind == "tile"][0]
    assert [d["points"] for d in tile.data["placed"]] == [1, 1]


def test_run_of_three_horizontally_and_two_vertically_scores_five() -> None:
    s = _last_move_table()
    # red goes to row 2, column 4; neighbours: row 2 columns 2-3 and row 1 column 4
    set_wall(s, 0, [(2, 2), (2, 3), (1, 4)])
    set_line(s, 0, 2, "R", 2)
    s, ev = play(s, 0, "F1-B-F")
    assert s["wall"][0][1 * 5 + 3] == 2
    placed = [e for e in ev if e.kind == "tile"][0].data["placed"]
    assert placed == [{"line": 2, "colour": "R", "column": 4, "points": 5}]
    assert s["score"][0] == 5 - 1  # and the blue tile on the floor costs 1


def test_placement_points_examples() -> None:
    wall = [-1] * 25
    wall[12] = 0
    assert placement_points(wall, 2, 2) == 1
    for c in (0, 1, 2):
        wall[10 + c] = 0
    assert placement_points(wall, 2, 2) == 3  # horizontal 3 only
    wall[7] = 0
    assert placement_points(wall, 2, 2) == 3 + 2
    wall[11] = -1  # break the run: (2,0) is separate
    assert placement_points(wall, 2, 2) == 2


def test_incomplete_lines_stay_for_the_next_round() -> None:
    s = _last_move_table()
    set_line(s, 0, 4, "K", 3)
    s, _ = play(s, 0, "F1-B-1")
    assert s["ln"][0][3] == 3 and s["lc"][0][3] == 3
    assert s["phase"] == "offer" and s["round"] == 2


def test_floor_of_seven_tiles_costs_fourteen() -> None:
    s = _last_move_table()
    s["turn"] = 1
    s["score"] = [20, 0]
    set_floor(s, 0, "RRRRRRR")
    s, ev = play(s, 1, "F1-B-1")
    assert s["score"][0] == 6
    assert s["floor"][0] == []
    assert s["lid"][2] == 7
    floor = [e for e in ev if e.kind == "floor"][0]
    assert floor.data["penalty"] == 14


def test_marker_and_two_tiles_cost_four_and_holder_starts_next_round() -> None:
    s = table(2)
    set_centre(s, "RR")
    s["turn"] = 1
    s["score"] = [0, 10]
    s, ev = play(s, 1, "C-R-F")
    assert s["score"][1] == 6
    assert s["round"] == 2 and s["first"] == 1 and GAME.to_act(s) == [1]
    assert s["marker"] == -1 and s["floor"][1] == []
    assert s["lid"][2] == 2  # the marker is not a tile
    assert [e for e in ev if e.kind == "floor"][0].data["penalty"] == 4


def test_score_never_drops_below_zero() -> None:
    s = _last_move_table()
    s["score"] = [3, 0]
    set_floor(s, 0, "KKKKKK")
    s, ev = play(s, 0, "F1-B-F")
    assert s["score"][0] == 0
    assert [e for e in ev if e.kind == "floor"][0].data["lost"] == 3


def test_nobody_took_from_the_centre_so_the_same_player_starts() -> None:
    s = table(2)
    set_factory(s, 0, "BBBB")
    set_factory(s, 1, "RRRR")
    s, _ = play(s, 0, "F1-B-4")
    s, _ = play(s, 1, "F2-R-4")
    assert s["round"] == 2 and s["first"] == 0 and GAME.to_act(s) == [0]


# --------------------------------------------------------------------------- next round


def test_lid_refills_the_bag_when_it_runs_empty() -> None:
    s = _last_move_table()
    s["bag"] = [0, 0, 0, 2, 0]  # two black left in the bag
    s["lid"] = [10, 10, 10, 0, 10]
    s, ev = play(s, 0, "F1-B-2")
    refill = [e for e in ev if e.kind == "refill"][0]
    assert refill.reveals
    assert refill.data["lid_poured_after"] == 2
    assert refill.data["lid_tiles_poured"] == 40
    assert refill.data["factories"][0].startswith("KK")
    assert all(len(f) == 4 for f in refill.data["factories"])
    assert sum(s["bag"]) == 42 - 20 and s["lid"] == [0] * 5
    assert "box lid" in refill.text


def test_short_factories_when_bag_and_lid_run_out() -> None:
    s = _last_move_table()
    set_wall(s, 0, [(1, 1), (1, 2), (1, 4), (1, 5)])  # row 1 only lacks red
    s["bag"] = [0, 0, 6, 0, 0]
    s["lid"] = [0] * 5
    s, ev = play(s, 0, "F1-B-2")  # line 2 not full: nothing goes to the lid
    refill = [e for e in ev if e.kind == "refill"][0]
    assert refill.data["factories"] == ["RRRR", "RR", "", "", ""]
    assert s["left"] == 6 and s["phase"] == "offer"
    assert "stay short" in refill.text


def test_game_ends_when_not_a_single_tile_can_be_drawn() -> None:
    s = _last_move_table(4)
    s["bag"] = [0] * 5
    s["lid"] = [0] * 5
    s, ev = play(s, 0, "F1-B-2")
    assert s["phase"] == "over" and s["end"] == "no_tiles"
    assert GAME.to_act(s) == []
    out = GAME.outcome(s)
    assert out is not None and "No tile could be drawn" in out.reason
    assert any(e.kind == "no_tiles" for e in ev)


# --------------------------------------------------------------------------- game end


def test_game_ends_after_the_round_in_which_a_row_is_completed() -> None:
    s = table(2)
    set_factory(s, 0, "W")
    set_factory(s, 1, "KK")
    set_wall(s, 0, [(1, 1), (1, 2), (1, 3), (1, 4)])
    s["score"] = [10, 10]
    # the row is finished during the offer, but the round is played to its end
    s, _ = play(s, 0, "F1-W-1")
    assert s["phase"] == "offer"
    s, ev = play(s, 1, "F2-K-2")
    assert s["phase"] == "over" and s["end"] == "row"
    # seat 0: the white tile closes a run of 5 (+5), then +2 for the row
    assert s["score"][0] == 10 + 5 + 2
    # seat 1: black line 2 alone (+1), no bonus
    assert s["score"][1] == 10 + 1
    out = GAME.outcome(s)
    assert out.ranks == [1, 2] and out.winners == [0]
    assert out.details[0]["rows"] == 1 and out.details[0]["bonus"] == 2
    assert any(e.kind == "bonus" for e in ev)


def test_end_bonuses_row_column_colour() -> None:
    wall = [-1] * 25
    for c in range(5):
        wall[c] = printed_colour(0, c)  # row 1
    for r in range(5):
        wall[r * 5] = printed_colour(r, 0)  # column 1
        wall[r * 5 + printed_column(r, 0)] = 0  # every blue (a diagonal)
    rows, cols, colours, pts = end_bonus(wall)
    assert (rows, cols, colours) == (1, 1, 1)
    assert pts == 2 + 7 + 10


def _finished(scores: list[int], rows: list[int]) -> dict:
    s = table(len(scores))
    s["phase"], s["end"] = "over", "row"
    s["score"] = list(scores)
    s["bonus"] = [[r, 0, 0, 2 * r] for r in rows]
    for p, r in enumerate(rows):
        set_wall(s, p, [(row, c) for row in range(1, r + 1) for c in range(1, 6)])
    return s


def test_tie_on_points_is_broken_by_complete_rows() -> None:
    out = GAME.outcome(_finished([40, 40, 30], [1, 2, 3]))
    assert out.ranks == [2, 1, 3]
    assert "more complete rows" in out.reason and "(2 vs 1)" in out.reason


def test_shared_victory_when_points_and_rows_tie() -> None:
    out = GAME.outcome(_finished([40, 40, 12], [2, 2, 1]))
    assert out.ranks == [1, 1, 3]
    assert out.winners == [0, 1]
    assert "share the victory" in out.reason


# --------------------------------------------------------------------------- grey wall


def _grey_last_move() -> dict:
    s = table(2, grey=True)
    set_factory(s, 0, "B")
    return s


def test_grey_wall_asks_top_line_first_and_enforces_columns() -> None:
    s = _grey_last_move()
    set_line(s, 0, 1, "R", 1)
    set_line(s, 0, 3, "R", 3)
    s, ev = play(s, 0, "F1-B-F")
    assert s["phase"] == "tiling"
    assert GAME.to_act(s) == [0]
    assert notations(s, 0) == {f"col-{c}" for c in range(1, 6)}
    assert GAME.legal_moves(s, 1) == []
    v = GAME.view(s, None)
    assert v["pending"] == [{"seat": 0, "line": 1, "colour": "R", "columns": [1, 2, 3, 4, 5]}]
    s, ev = play(s, 0, "col-2")
    assert s["wall"][0][1] == 2 and s["score"][0] == 1
    # line 3 red may not go under the red of column 2
    assert notations(s, 0) == {"col-1", "col-3", "col-4", "col-5"}
    with pytest.raises(IllegalMove, match="Column 2 already has the colour red"):
        play(s, 0, "col-2")
    s, ev = play(s, 0, "col 3")
    assert s["phase"] == "offer" and s["round"] == 2
    assert s["wall"][0][2 * 5 + 2] == 2
    assert s["lid"][2] == 2
    # 1 + 1 placement points, then -1 for the blue on the floor
    assert s["score"][0] == 1


def test_grey_wall_asks_every_player_with_a_choice_at_once() -> None:
    s = _grey_last_move()
    set_line(s, 0, 2, "Y", 2)
    set_line(s, 1, 1, "K", 1)
    s, _ = play(s, 0, "F1-B-F")
    assert GAME.to_act(s) == [0, 1]
    a, _ = play(s, 1, "col-5")
    a, _ = play(a, 0, "col-1")
    b, _ = play(s, 0, "col-1")
    b, _ = play(b, 1, "col-5")
    # the order of answers does not matter (but for the record of who answered last,
    # which the picture marks)
    assert a["last"][0] == 0 and b["last"][0] == 1
    assert {**a, "last": None} == {**b, "last": None}
    assert a["phase"] == "offer"


def test_grey_wall_single_legal_column_is_placed_without_asking() -> None:
    s = _grey_last_move()
    set_wall(s, 0, [(2, 1)], "B")
    set_wall(s, 0, [(2, 2)], "Y")
    set_wall(s, 0, [(4, 3)], "R")  # red already in columns 3 and 5
    set_wall(s, 0, [(5, 5)], "R")
    set_line(s, 0, 2, "R", 2)
    s, ev = play(s, 0, "F1-B-F")
    assert s["phase"] == "offer"  # nobody was asked
    assert s["wall"][0][5 + 3] == 2
    forced = [e for e in ev if e.kind == "tile"][0]
    assert forced.data["forced"] is True and forced.data["column"] == 4


def test_grey_wall_line_without_legal_column_goes_to_the_floor() -> None:
    s = _grey_last_move()
    set_wall(s, 0, [(2, 1)], "Y")
    set_wall(s, 0, [(2, 2)], "R")
    set_wall(s, 0, [(2, 3)], "K")
    set_wall(s, 0, [(1, 4)], "B")  # blue already in columns 4 and 5
    set_wall(s, 0, [(3, 5)], "B")
    set_line(s, 0, 2, "B", 2)
    set_floor(s, 0, "WWWWW")
    s["score"] = [30, 0]
    s["fac"][0] = [0, 1, 0, 0, 0]  # one yellow: it fills line 1, columns 2, 3 or 5 are legal
    s, ev = play(s, 0, "F1-Y-1")
    assert GAME.to_act(s) == [0] and notations(s, 0) == {"col-2", "col-3", "col-5"}
    s, ev = play(s, 0, "col-5")
    nc = [e for e in ev if e.kind == "no_column"][0]
    assert nc.data == {"seat": 0, "line": 2, "colour": "B", "floor": 2, "lid": 0}
    assert s["phase"] == "offer"
    # yellow at row 1 column 5 touches the blue at column 4: +2; 7 floor items: -14
    assert s["score"][0] == 30 + 2 - 14
    assert s["lid"][0] == 2 and s["lid"][4] == 5


def test_grey_wall_offer_still_refuses_a_colour_already_in_the_row() -> None:
    s = table(2, grey=True)
    set_factory(s, 0, "RRBB")
    set_wall(s, 0, [(3, 1)], "R")
    assert "F1-R-3" not in notations(s, 0)
    with pytest.raises(IllegalMove, match="wall row 3 already has red"):
        play(s, 0, "F1-R-3")


# --------------------------------------------------------------------------- words


def test_explain_illegal_messages() -> None:
    s = table(2)
    set_factory(s, 0, "BBYK")
    set_line(s, 0, 1, "B", 1)
    cases = {
        "F9-B-1": "There is no factory 9: this game has factories 1–5.",
        "F2-B-1": "Factory 2 is empty.",
        "F1-R-2": "Factory 1 has no red tiles (it holds 2 blue, 1 yellow, 1 black).",
        "F1-B-1": "Line 1 is already full (1 blue); choose another line or the floor.",
        "F1-B-7": "There is no line 7: pattern lines are 1–5 (or F for the floor).",
        "C-B-2": (
            "The centre holds only the first player marker; taking only the marker is not a move."
        ),
    }
    for text, message in cases.items():
        assert GAME.explain_illegal(s, 0, text) == message
        with pytest.raises(IllegalMove) as err:
            play(s, 0, text)
        assert str(err.value) == message
    set_line(s, 0, 1, "R", 0)
    set_line(s, 0, 2, "R", 1)
    assert GAME.explain_illegal(s, 0, "F1-B-2") == "Line 2 already holds red; it only takes red."
    assert "not a move" in GAME.explain_illegal(s, 0, "hello")
    assert GAME.explain_illegal(s, 1, "F1-B-2") == "It is not your turn."
    assert "grey-wall" in GAME.explain_illegal(s, 0, "col-2")


def test_typed_notation_variants() -> None:
    s = table(2)
    set_factory(s, 2, "BBYK")
    set_centre(s, "RR")
    for text in ("F3-B-2", "f3b2", "F3 B 2", "factory 3 b 2", " f3-b-2 "):
        assert GAME.parse(s, 0, text).notation == "F3-B-2"
    for text in ("C-R-F", "crf", "centre r floor", "center-r-f"):
        assert GAME.parse(s, 0, text).notation == "C-R-F"
    move = legal(s, 0, "C-R-F")
    assert GAME.parse(s, 0, move.label) == move
    assert move.label == "centre: 2 red → floor (+first player marker)"
    assert [st.key for st in move.steps] == ["C", "R", "F"]


def test_labels_and_events_use_seat_placeholders() -> None:
    s = table(2)
    set_factory(s, 0, "RRRB")
    move = legal(s, 0, "F1-R-2")
    assert move.label == "factory 1: 3 red → line 2 (1 to floor)"
    _, ev = GAME.apply(s, 0, move)
    assert ev[0].text == "{p0} took 3 red from factory 1 → line 2 (1 to floor)"
    assert GAME.status(s) == "Round 1: {p0} to take tiles."


def test_apply_refuses_a_move_that_is_not_legal() -> None:
    s = table(2)
    set_factory(s, 0, "RRRB")
    bad = legal(s, 0, "F1-R-2")
    set_line(s, 0, 2, "B", 1)
    with pytest.raises(IllegalMove, match="Line 2 already holds blue"):
        GAME.apply(s, 0, bad)


def test_default_move_is_none_no_skips_in_azul() -> None:
    s = GAME.setup(2, 1)
    assert GAME.default_move(s, s["first"]) is None


def test_tile_draws_are_uniform_over_orders() -> None:
    """Several tiles are drawn from one random number (mixed radix): every order of three
    distinct tiles must still be equally likely."""
    from collections import Counter

    from rules.azul.board import draw_tiles
    from rules.rng import Rng

    rng = Rng(12345)
    seen: Counter[tuple[int, ...]] = Counter()
    for _ in range(6000):
        drawn, poured = draw_tiles(rng, [1, 1, 1, 0, 0], [0] * 5, 3)
        assert poured == -1
        seen[tuple(drawn)] += 1
    assert len(seen) == 6
    assert all(850 < n < 1150 for n in seen.values())


def test_draw_pours_the_lid_exactly_when_the_bag_is_empty() -> None:
    from rules.azul.board import draw_tiles
    from rules.rng import Rng

    bag, lid = [0, 3, 0, 0, 0], [0, 0, 0, 0, 4]
    drawn, poured = draw_tiles(Rng(1), bag, lid, 8)
    assert drawn[:3] == [1, 1, 1] and drawn[3:] == [4, 4, 4, 4]
    assert poured == 3 and bag == [0] * 5 and lid == [0] * 5


def test_view_shows_the_whole_public_table() -> None:
    s = table(2)
    set_factory(s, 0, "RRBK")
    set_centre(s, "YY")
    set_line(s, 1, 3, "K", 2)
    set_wall(s, 1, [(1, 1)])
    set_floor(s, 1, "RM")
    s["marker"] = 1
    s["bag"] = [1, 2, 3, 4, 5]
    s["lid"] = [0, 0, 7, 0, 0]
    v = GAME.view(s, None)
    assert v["bag"] == 15 and v["lid"] == 7 and v["lid_colours"]["R"] == 7
    assert v["factories"][0] == ["B", "R", "R", "K"] and v["factories"][1] == []
    assert v["centre"] == ["Y", "Y"] and v["marker_in_centre"] is False
    assert v["round"] == 1 and v["turn"] == 0 and v["to_act"] == [0]
    p1 = v["players"][1]
    assert p1["lines"][2] == {"size": 3, "colour": "K", "count": 2}
    assert p1["wall"][0] == ["B", None, None, None, None]
    assert p1["floor"] == ["R", "M"] and p1["floor_penalty"] == -2
    assert p1["has_marker"] is True
    assert v["wall_pattern"][1] == ["W", "B", "Y", "R", "K"]
    assert v["floor_penalties"] == [-1, -1, -2, -2, -2, -3, -3]
    assert v["pending"] == [] and v["outcome"] is None
    assert GAME.view(table(2, grey=True), None)["wall_pattern"] is None


# --------------------------------------------------------------------------- dead ends


def _grey_wall(rows: list[str]) -> list[int]:
    return ["BYRKW".index(ch) if ch != "." else -1 for row in rows for ch in row]


def test_a_grey_wall_row_can_become_impossible() -> None:
    from rules.azul.board import any_row_can_be_completed, row_can_be_completed

    # from a random game: every open space needs a colour its column already holds
    wall = _grey_wall(["WRKB.", "RKY.W", "YB.RK", "KWR.Y", "B.WYR"])
    assert not any(row_can_be_completed(wall, r) for r in range(5))
    lines = [[-1] * 5]
    assert not any_row_can_be_completed([wall], lines, [[0] * 5], [20] * 5, True)
    wall[3 * 5 + 4] = -1  # lift the yellow of row 4, column 5: row 1 may take yellow there
    assert row_can_be_completed(wall, 0)
    assert any_row_can_be_completed([wall], lines, [[0] * 5], [20] * 5, True)


def test_starved_colour_makes_every_row_impossible() -> None:
    """All the blue still in play is locked in pattern lines that need more blue."""
    from rules.azul.board import any_row_can_be_completed

    walls = [[-1] * 25, [-1] * 25]
    colours = [[-1, -1, -1, -1, 0], [-1, -1, -1, -1, 0]]
    counts = [[0, 0, 0, 0, 4], [0, 0, 0, 0, 3]]
    assert not any_row_can_be_completed(walls, colours, counts, [0, 9, 9, 9, 9], False)
    # one blue tile fills the first line, which gives 3 back, enough for the other line
    # and then for any row's line: play can go on
    assert any_row_can_be_completed(walls, colours, counts, [1, 9, 9, 9, 9], False)
    assert any_row_can_be_completed(walls, [[-1] * 5] * 2, [[0] * 5] * 2, [20] * 5, False)


def test_game_ends_when_no_row_can_be_completed_any_more() -> None:
    s = table(2, grey=True)
    set_factory(s, 0, "B")
    wall = _grey_wall(["WRKB.", "RKY.W", "YB.RK", "KWR.Y", "B.WYR"])
    for p in range(2):
        s["wall"][p] = list(wall)
        s["rows"][p] = [
            sum(1 << k for k in set(wall[r * 5 : r * 5 + 5]) if k >= 0) for r in range(5)
        ]
    s["score"] = [30, 25]
    s, ev = play(s, 0, "F1-B-F")
    assert s["phase"] == "over" and s["end"] == "no_row_possible"
    assert any(e.kind == "no_row_possible" for e in ev)
    out = GAME.outcome(s)
    assert out.reason.startswith("No player could complete a wall row any more")
    assert out.ranks == [1, 2]


def test_random_games_that_used_to_run_for_ever_now_end() -> None:
    from rules.playout import random_playout

    for players, seed in ((2, 2100), (4, 622), (2, 322)):
        state, _ = random_playout(GAME, players, seed, {"grey_wall": True})
        assert state["end"] == "no_row_possible"
