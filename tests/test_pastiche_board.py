"""Hex geometry of the painting: shared vertices, rotation, names, frontier and yields."""

from __future__ import annotations

import math

import pytest

from rules.pastiche import board as bd


def _corner_xy(cell: bd.Cell, k: int) -> tuple[float, float]:
    """Pointy-top geometry (y up): centre + unit vector at 30° + 60°·k."""
    q, r = cell
    cx, cy = math.sqrt(3) * (q + r / 2), -1.5 * r
    a = math.radians(30 + 60 * k)
    return cx + math.cos(a), cy + math.sin(a)


@pytest.mark.parametrize("cell", [(0, 0), (3, -2), (-4, 5), (1, 1)])
def test_vertex_is_shared_by_the_three_hexes_the_rules_name(cell: bd.Cell) -> None:
    for k in range(6):
        here = _corner_xy(cell, k)
        a = (cell[0] + bd.DIRS[k][0], cell[1] + bd.DIRS[k][1])
        b = (cell[0] + bd.DIRS[(k + 1) % 6][0], cell[1] + bd.DIRS[(k + 1) % 6][1])
        assert _corner_xy(a, (k + 2) % 6) == pytest.approx(here)
        assert _corner_xy(b, (k + 4) % 6) == pytest.approx(here)
        # and no other neighbour touches it
        for j, d in enumerate(bd.DIRS):
            if j in (k, (k + 1) % 6):
                continue
            other = (cell[0] + d[0], cell[1] + d[1])
            assert all(_corner_xy(other, m) != pytest.approx(here) for m in range(6))


def test_dabs_at_reads_the_neighbours_corners() -> None:
    board = {bd.key((1, 0)): ["X", 0, "abcdef"], bd.key((1, -1)): ["Y", 0, "ghijkl"]}
    dabs = bd.dabs_at(board, (0, 0))
    # corner 0 of (0,0): corner 2 of E (1,0) then corner 4 of NE (1,-1)
    assert dabs[0] == "c" + "k"
    # corner 5 touches SE (0,1) (empty) and E (1,0) corner (5+4)%6=3
    assert dabs[5] == "d"
    assert dabs[1] == "j"  # corner 1: NE (1,-1) corner 3, NW empty
    assert dabs[2] == dabs[3] == dabs[4] == ""


def test_rotation_moves_corners_anticlockwise() -> None:
    assert bd.rotate("RRYYBB", 0) == "RRYYBB"
    assert bd.rotate("RYBBBB", 1) == "BRYBBB"  # c'[k] = c[k-1]
    assert bd.rotate("RYBBBB", 6) == "RYBBBB"
    for r in range(6):
        assert bd.rotate(bd.rotate("RRYBYB", r), 6 - r) == "RRYBYB"


def test_cell_names_are_stable_and_round_trip() -> None:
    assert bd.cell_name((0, 0)) == "m10"
    assert bd.cell_name((1, 0)) == "m11"
    assert bd.cell_name((1, -1)) == "l10"
    for q in range(-40, 41, 3):
        for r in range(-70, 71, 1):
            assert bd.parse_cell(bd.cell_name((q, r))) == (q, r)
    assert bd.parse_cell("zz") is None
    assert bd.parse_cell("11") is None


def test_start_piece_frontier_and_yield_shapes() -> None:
    board = bd.start_board()
    front = bd.frontier(board)
    assert len(front) == 9
    assert all(bd.key(c) not in board for c in front)
    shapes = sorted(tuple(sorted(len(x) for x in bd.dabs_at(board, c))) for c in front)
    # three notches (2 two-dab + 1 three-dab vertex), six sides touching one hex (2 vertices)
    assert shapes.count((0, 0, 0, 1, 1, 2)) == 3
    assert shapes.count((0, 0, 0, 0, 1, 1)) == 6
    # the enclosed centre vertex: RRR of the three start hexes, never reachable again
    assert board["0,0"][2][0] + board["1,0"][2][2] + board["1,-1"][2][4] == "RRR"


def test_a_hole_gives_six_three_dab_vertices() -> None:
    board = {bd.key(n): ["X", 0, "RYBRYB"] for n in bd.neighbours((5, 5))}
    assert [len(x) for x in bd.dabs_at(board, (5, 5))] == [2] * 6
    cards = bd.placement_yield("RRRRRR", bd.dabs_at(board, (5, 5)))
    assert len(cards) == 6


def test_yield_uses_the_chart_and_skips_same_colour_pairs() -> None:
    # new corners R at a vertex with one Y -> orange; with one R -> nothing; with R+B -> magenta
    others = ("Y", "R", "RB", "", "", "")
    assert bd.placement_yield("RRRRRR", others) == ("orange", "magenta")


def test_yield_is_the_chart_corner_by_corner() -> None:
    """``placement_yield`` (one cached look-up per corner, through ``map``) against the
    plain rule: for each corner in order, the chart's card for its letter and the dabs
    painted there, if any."""
    import itertools
    import random

    rnd = random.Random(3)
    dabs = ["", "", "", *"RYB", *("".join(p) for p in itertools.product("RYB", repeat=2))]
    for _ in range(3000):
        corners = "".join(rnd.choice("RYB") for _ in range(6))
        others = tuple(rnd.choice(dabs) for _ in range(6))
        plain = tuple(
            card
            for letter, o in zip(corners, others, strict=True)
            if o and (card := bd.mix(letter + o)) is not None
        )
        assert bd.placement_yield(corners, others) == plain


def test_grow_frontier_matches_a_full_rescan() -> None:
    board = bd.start_board()
    spots = [[q, r] for q, r in bd.frontier(board)]
    for cell in [(2, 0), (2, -1), (-1, 0), (0, 1), (3, 0), (-2, 1)]:
        assert list(cell) in spots
        board[bd.key(cell)] = ["X", 0, "RYBRYB"]
        spots = bd.grow_frontier(spots, board, cell)
        assert spots == [[q, r] for q, r in bd.frontier(board)]
