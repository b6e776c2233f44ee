"""League standings (bot/community/leagues/standings.py): points by place with ties split,
byes, and the tie-breaks in their order."""

from __future__ import annotations

from bot.community.leagues import standings
from bot.community.leagues.standings import TableResult


def test_points_by_place_split_on_ties() -> None:
    assert standings.place_points([1, 2]) == [1.0, 0.0]
    assert standings.place_points([1, 1]) == [0.5, 0.5]  # a two-player draw
    assert standings.place_points([2, 1, 3]) == [1.0, 2.0, 0.0]
    assert standings.place_points([1, 1, 3]) == [1.5, 1.5, 0.0]
    assert standings.place_points([1, 2, 2, 2, 5]) == [4.0, 2.0, 2.0, 2.0, 0.0]
    assert standings.place_points([1, 1, 1]) == [1.0, 1.0, 1.0]


def test_a_bye_scores_a_win_at_two_and_the_average_at_tables() -> None:
    assert standings.bye_points(2) == 1.0
    assert standings.bye_points(3) == 1.0
    assert standings.bye_points(4) == 1.5


def result(ranks: list[int], scores: list[int]) -> dict[str, list[int]]:
    return {"ranks": ranks, "scores": scores}


def test_order_points_then_buchholz_then_score_then_head_to_head_then_seed() -> None:
    players = ["a", "b", "c", "d", "e", "f"]  # seed order
    tables = [
        TableResult(1, ("a", "b"), result([1, 2], [10, 5])),
        TableResult(1, ("c", "d"), result([1, 2], [10, 5])),
        TableResult(1, ("e", "f"), result([1, 1], [7, 7])),
        TableResult(2, ("a", "c"), result([1, 2], [3, 2])),
        TableResult(2, ("b", "e"), result([2, 1], [1, 2])),
        TableResult(2, ("d", "f"), None),  # aborted: nothing, not played
    ]
    lines = standings.count(players, tables, {}, 2)
    got = {line.user_id: line for line in lines}
    points = {u: got[u].points for u in players}
    assert points == {"a": 2, "b": 0, "c": 1, "d": 0, "e": 1.5, "f": 0.5}
    assert got["d"].played == 1 and got["f"].played == 1 and got["a"].played == 2
    # b and d both 0: b met a (2) and e (1.5), d only c (1)
    assert got["b"].buchholz == 3.5 and got["d"].buchholz == 1.0
    assert [line.user_id for line in lines] == ["a", "e", "c", "f", "b", "d"]
    assert standings.ranks(lines) == [1, 2, 3, 4, 5, 6]


def test_head_to_head_and_then_seed_and_shared_ranks() -> None:
    players = ["x", "y", "z", "w"]
    # y beat x; both 1 point, met each other only, same game score: y above on head-to-head
    tables = [
        TableResult(1, ("x", "y"), result([2, 1], [5, 5])),
        TableResult(1, ("z", "w"), result([1, 1], [4, 4])),
        TableResult(2, ("x", "y"), result([1, 2], [5, 5])),
    ]
    lines = standings.count(players, tables, {}, 2)
    assert [line.user_id for line in lines] == ["x", "y", "z", "w"]
    # x and y: equal on everything, the seed orders them and they share rank 1
    assert standings.ranks(lines) == [1, 1, 3, 3]


def test_computer_seats_count_as_seats_and_byes_count() -> None:
    tables = [TableResult(1, ("a", None, "b"), result([2, 1, 3], [40, 50, 30]))]
    lines = standings.count(["a", "b", "c"], tables, {1: ["c"]}, 3)
    got = {line.user_id: line for line in lines}
    assert (got["a"].points, got["b"].points, got["c"].points) == (1.0, 0.0, 1.0)
    assert got["c"].byes == 1 and got["c"].played == 0
    assert got["a"].buchholz == 0.0  # only league players count as opponents met
