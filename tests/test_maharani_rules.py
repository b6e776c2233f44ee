"""Maharani rules: every rule and worked example of shared/rules/maharani.md.

Scenarios are built on a fresh state by laying tiles/workers directly (``lay``) and putting
chosen tiles on the rondel (``on_rondel``), then played through the public interface
(``GAME.parse`` + ``GAME.apply``) so notation, legality and events are exercised too.
"""

from __future__ import annotations

import copy
import json

import pytest

from data import read_json
from rules.base import IllegalMove
from rules.maharani import GAME, engine
from rules.maharani.data import DataError, build_geometry, geometry

G = geometry()


# ----- helpers (also used by the other Maharani test files) ----------------------------
def sp(name: str) -> int:
    return G.space_by_name[name]


def fresh(n: int = 4, seed: int = 0, turn: int = 0, **opts: object) -> dict:
    """A new game with an empty rondel (its tiles back in the bag) and ``turn`` on turn."""
    st = copy.deepcopy(GAME.setup(n, seed, opts or None))
    st["bag"] += [t for t in st["rondel"] if t is not None]
    st["rondel"] = [None] * 4
    st["turn"] = turn
    return st


def take(st: dict, colour: str, space: str | None = None, d: str | None = None) -> int:
    """Remove from the bag a tile of ``colour`` that fits ``space`` (with arrow ``d``)."""
    for t in sorted(st["bag"]):
        if G.tile_colour[t] != colour:
            continue
        if space is not None:
            dirs = G.arrow_dirs(t, sp(space))
            if not dirs or (d is not None and d not in dirs):
                continue
        st["bag"].remove(t)
        return t
    raise AssertionError(f"no {colour} tile for {space} {d} left in the bag")


def lay(
    st: dict, name: str, colour: str, worker: tuple[int, int] | None = None, d: str | None = None
) -> None:
    """Put a tile (and optionally a worker ``(seat, worker_colour)``) straight on the floor."""
    s = sp(name)
    t = take(st, colour, name, d)
    st["tiles"][s] = t
    st["dirs"][s] = d or G.arrow_dirs(t, s)[0]
    if worker is not None:
        seat, c = worker
        st["workers"][s] = seat * 2 + c
        st["supply"][seat][c] -= 1


def on_rondel(st: dict, field: int, colour: str, space: str | None = None, d: str | None = None):
    st["rondel"][field - 1] = take(st, colour, space, d)


def play(st: dict, seat: int, text: str):
    return GAME.apply(st, seat, GAME.parse(st, seat, text))


def notations(st: dict, seat: int) -> set[str]:
    return {m.notation for m in GAME.legal_moves(st, seat)}


# ----- data -----
def test_data_counts_and_geometry() -> None:
    assert len(G.rows) == 56
    assert [len(q) for q in G.quarter_spaces] == [14, 14, 14, 14]
    assert len(G.centre_spaces) == 8
    assert len(G.tile_ids) == 60
    assert G.animals == ("lion", "monkey", "peacock", "elephant")
    assert sorted(G.colours) == sorted(["blue", "orange", "red", "green", "purple", "turquoise"])
    # every half pillar is matched across its edge
    for s in range(56):
        for side in G.space_sides[s]:
            dr, dc = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}[side]
            other = next(
                i for i in range(56) if (G.rows[i], G.cols[i]) == (G.rows[s] + dr, G.cols[s] + dc)
            )
            assert {"N": "S", "S": "N", "E": "W", "W": "E"}[side] in G.space_sides[other]


def _raw() -> tuple:
    return (
        read_json("maharani", "board.json"),
        read_json("maharani", "tiles.json"),
        read_json("maharani", "geometry.json"),
    )


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda b, t, g: b["spaces"].pop(), "board.json: the floor must have 56 spaces"),
        (lambda b, t, g: b["spaces"][0].update(type="X"), "board.json: spaces.0.type"),
        (
            lambda b, t, g: b["spaces"][0].update(half_pillars=["W"]),
            "board.json: space r0c1 has a half pillar on W but no space lies there",
        ),
        (
            lambda b, t, g: b["spaces"][1].update(half_pillars=["N", "S"], type="HS"),
            "board.json: space r0c1's half pillar on E is not matched",
        ),
        (lambda b, t, g: b["spaces"][0].update(q=2), "board.json: space r0c1 is not inside"),
        (
            lambda b, t, g: t[0].update(type="H1", half_pillars=["N"]),
            "tiles.json: 25 tiles of class H1",
        ),
        (lambda b, t, g: t.pop(), "tiles.json: there must be 60 tiles"),
        (lambda b, t, g: t[1].update(id="M01"), "tiles.json: tile id M01 is used twice"),
        (lambda b, t, g: t[2].update(half_pillars=["N", "E"]), "tiles.json: tile M03 type H1"),
        (
            lambda b, t, g: g["seat_sides"].update({"3": ["S", "S", "N"]}),
            "geometry.json: seat_sides[3]",
        ),
    ],
)
def test_bad_data_files_give_clear_errors(mutate, message: str) -> None:
    board, tiles, geo = copy.deepcopy(_raw())
    mutate(board, tiles, geo)
    with pytest.raises(DataError) as err:
        build_geometry(board, tiles, geo)
    assert message in str(err.value)
    assert str(err.value).startswith("data/maharani/")


def test_data_copy_matches_shared_reference() -> None:
    """The game reads the JSON files; the data is not duplicated in code."""
    board, tiles, _ = _raw()
    assert [t["id"] for t in tiles] == list(G.tile_ids)
    assert [(s["r"], s["c"]) for s in board["spaces"]] == list(zip(G.rows, G.cols, strict=True))


# ----- seats, rondel, setup -----
def test_rondel_fields_and_turning() -> None:
    # arrow S: field 1 over Q4 (elephant), 2 over Q1, 3 over Q2, 4 over Q3
    assert [G.field_quarter(f, "S") for f in (1, 2, 3, 4)] == [3, 0, 1, 2]
    # a quarter turn clockwise (arrow W) moves every field one quarter clockwise
    assert [G.field_quarter(f, "W") for f in (1, 2, 3, 4)] == [0, 1, 2, 3]
    assert [G.field_quarter(f, "N") for f in (1, 2, 3, 4)] == [1, 2, 3, 0]
    assert [G.field_quarter(f, "E") for f in (1, 2, 3, 4)] == [2, 3, 0, 1]


@pytest.mark.parametrize(
    ("n", "opts", "sides", "workers"),
    [
        (4, None, ["S", "W", "N", "E"], [[8]] * 4),
        (3, None, ["S", "W", "N"], [[10]] * 3),
        (2, None, ["S", "N"], [[7, 7]] * 2),
        (2, {"two_player_seats": "adjacent"}, ["S", "W"], [[7, 7]] * 2),
    ],
)
def test_setup(n: int, opts, sides: list[str], workers: list[list[int]]) -> None:
    st = GAME.setup(n, 3, opts)
    assert st["sides"] == sides
    assert st["supply"] == workers
    assert all(t is not None for t in st["rondel"])
    assert len(st["bag"]) == 56
    assert st["markers"] == [[True] * 4] * n
    assert st["gold"] == [0] * n
    assert GAME.to_act(st) == [st["turn"]]
    assert json.loads(json.dumps(st)) == st
    # the rondel points at the start player: every rondel tile's arrow too
    view = GAME.view(st, None)
    assert {f["arrow"] for f in view["rondel"]} == {sides[st["turn"]]}


def test_random_start_player_varies() -> None:
    assert len({GAME.setup(4, seed)["turn"] for seed in range(20)}) > 1


# ----- orientation -----
def test_orientations_follow_pillars() -> None:
    tiles = list(G.tile_ids)
    m03 = tiles.index("M03")  # blue H1, half pillar N with the arrow N
    assert G.arrow_dirs(m03, sp("B1")) == ("E",)  # space half pillar E: arrow must point E
    assert G.arrow_dirs(m03, sp("A3")) == ("N",)
    m07 = tiles.index("M07")  # blue HS N-S
    assert G.arrow_dirs(m07, sp("D2")) == ("N", "S")  # HS:NS
    assert G.arrow_dirs(m07, sp("C1")) == ("E", "W")  # HS:EW
    m01 = tiles.index("M01")  # centre pillar
    assert G.arrow_dirs(m01, sp("C2")) == ("N", "E", "S", "W")
    assert G.arrow_dirs(m01, sp("B1")) == ()  # centre tile never on a half-pillar space
    assert G.arrow_dirs(m03, sp("C2")) == ()
    m09 = tiles.index("M09")  # blue HL N-E
    assert len(G.arrow_dirs(m09, sp("D1"))) == 1  # HL: exactly one way
    assert G.arrow_dirs(m09, sp("D1")) == ("S",)  # N,E turned twice = S,W as on D1
    assert G.arrow_dirs(tiles.index("M03"), sp("C1")) == ()  # H1 never on HS


def test_only_matching_orientations_are_offered() -> None:
    st = fresh(4)
    on_rondel(st, 2, "blue", "B1")  # field 2 lies over the lion quarter (Q1)
    moves = [m for m in GAME.legal_moves(st, 0) if m.notation.startswith("2B1")]
    dirs = G.arrow_dirs(st["rondel"][1], sp("B1"))
    assert [m.notation for m in moves] == [f"2B1{d}" for d in dirs]
    for m in GAME.legal_moves(st, 0):
        if m.notation == "refresh":
            continue
        f, name, d = int(m.notation[0]), m.notation[1:3], m.notation[3]
        assert d in G.arrow_dirs(st["rondel"][f - 1], sp(name))


# ----- tile gold -----
def test_three_tile_blue_area_scores_three() -> None:
    """S1: a lone blue tile earns 1; a blue tile joining two others into an area earns 3."""
    st = fresh(4)
    lay(st, "D1", "blue")
    on_rondel(st, 2, "blue", "B1", "N")  # arrow N: not towards seat 0 (S), no worker
    on_rondel(st, 4, "blue", "C1", "E")
    st, ev = play(st, 0, "2B1N")  # B1 touches no blue tile
    assert ev[0].data["gold"] == 1
    assert st["gold"][0] == 1
    st, ev = play(st, 0, "4C1E")  # C1 joins B1 and D1: a 3-tile blue area
    assert ev[0].data["gold"] == 3


def test_tile_areas_cross_quarter_borders_and_count_any_owner() -> None:
    st = fresh(4)
    lay(st, "D2", "red")  # lion quarter
    lay(st, "F2", "red")  # monkey quarter
    on_rondel(st, 3, "red", "E2", "E")  # field 3 lies over Q2 (monkey)
    st, ev = play(st, 0, "3E2E")
    assert ev[0].data["gold"] == 3  # D2 + E2 + F2 across the border


def test_tile_area_includes_scored_quarters() -> None:
    st = fresh(4)
    st["scored"][0] = True
    lay(st, "D2", "red")
    on_rondel(st, 3, "red", "E2", "E")
    st, ev = play(st, 0, "3E2E")
    assert ev[0].data["gold"] == 2


# ----- worker -----
def test_worker_placed_when_arrow_points_at_you() -> None:
    st = fresh(4)
    on_rondel(st, 2, "orange", "B1", "E")
    on_rondel(st, 1, "orange", "A6", "S")  # elephant quarter, arrow S = seat 0's side
    st, ev = play(st, 0, "2B1E")  # arrow E points at seat 3, not at the player on turn
    assert st["workers"][sp("B1")] is None
    assert st["supply"][0] == [8]
    st, ev = play(st, 0, "1A6S")
    assert st["workers"][sp("A6")] == 0
    assert st["supply"][0] == [7]
    assert [e.kind for e in ev][:2] == ["tile", "worker"]
    assert ev[1].data["gold"] == 1


def test_existing_worker_on_same_colour_in_quarter_moves() -> None:
    st = fresh(4)
    lay(st, "C2", "blue", worker=(0, 0))
    on_rondel(st, 2, "blue", "C3", "S")
    st, ev = play(st, 0, "2C3S")
    assert st["workers"][sp("C2")] is None
    assert st["workers"][sp("C3")] == 0
    assert st["supply"][0] == [7]  # moved, not a new one
    assert "moves" in ev[1].text


def test_worker_of_same_colour_in_other_quarter_does_not_move() -> None:
    st = fresh(4)
    lay(st, "F2", "blue", worker=(0, 0))  # monkey quarter
    on_rondel(st, 2, "blue", "C3", "S")  # lion quarter
    st, _ = play(st, 0, "2C3S")
    assert st["workers"][sp("F2")] == 0
    assert st["workers"][sp("C3")] == 0
    assert st["supply"][0] == [6]


def test_worker_on_other_colour_in_quarter_does_not_move() -> None:
    st = fresh(4)
    lay(st, "B1", "red", worker=(0, 0))
    on_rondel(st, 2, "blue", "C3", "S")
    st, _ = play(st, 0, "2C3S")
    assert st["workers"][sp("B1")] == 0 and st["workers"][sp("C3")] == 0


def test_no_worker_when_supply_empty() -> None:
    st = fresh(4)
    st["supply"][0] = [0]
    on_rondel(st, 2, "blue", "C3", "S")
    st, ev = play(st, 0, "2C3S")
    assert st["workers"][sp("C3")] is None
    assert any("no worker left" in e.text for e in ev)


def test_worker_gold_is_group_size() -> None:
    st = fresh(4)
    lay(st, "B1", "red", worker=(0, 0))
    on_rondel(st, 2, "blue", "C1", "S")
    st, ev = play(st, 0, "2C1S")
    assert ev[1].data["gold"] == 2  # S1: a worker forming a group of two earns 2


def test_cross_border_eight_gold_example() -> None:
    """S1 special case: one blue tile + one worker extend an area and a group that span two
    quarters: 4 (blue area D2 E1 E2 E3) + 4 (worker group D2 E2 F2 G2) = 8 gold."""
    st = fresh(4)
    lay(st, "D2", "blue", worker=(0, 0), d="E")  # lion quarter
    lay(st, "E1", "blue")
    lay(st, "E3", "blue")
    lay(st, "F2", "orange", worker=(0, 0))
    lay(st, "G2", "red", worker=(0, 0))
    lay(st, "H2", "green", worker=(1, 0))  # another player's worker never joins the group
    on_rondel(st, 3, "blue", "E2", "S")  # field 3 over the monkey quarter
    st, ev = play(st, 0, "3E2S")
    assert ev[0].data["gold"] == 4
    assert ev[1].data["gold"] == 4
    assert st["gold"][0] == 8


# ----- second tile -----
def test_second_tile_costs_two_at_end_of_turn() -> None:
    """S1: the second tile earns +4, then the player pays 2."""
    st = fresh(4)
    for name in ("E1", "F2", "E3"):
        lay(st, name, "purple")
    on_rondel(st, 2, "red", "B1", "E")
    on_rondel(st, 3, "purple", "E2", "N")
    st, _ = play(st, 0, "2B1E")
    assert st["phase"] == "second" and st["gold"][0] == 1
    assert "stop" in notations(st, 0) and "refresh" not in notations(st, 0)
    assert all(m.notation.startswith("3") or m.notation == "stop" for m in GAME.legal_moves(st, 0))
    st, ev = play(st, 0, "3E2N")
    assert ev[0].data["gold"] == 4
    assert [e.kind for e in ev].count("pay") == 1
    assert st["gold"][0] == 1 + 4 - 2
    assert st["turn"] == 1 and st["phase"] == "first"


def test_stop_ends_turn_without_paying() -> None:
    st = fresh(4)
    on_rondel(st, 2, "red", "B1", "E")
    on_rondel(st, 3, "purple", "E2", "N")
    st, _ = play(st, 0, "2B1E")
    st, ev = play(st, 0, "stop")
    assert st["gold"][0] == 1 and st["turn"] == 1
    assert "pay" not in [e.kind for e in ev]


def test_no_second_tile_offered_when_none_fits() -> None:
    st = fresh(4)
    on_rondel(st, 2, "red", "B1", "E")  # nothing else on the rondel
    st, _ = play(st, 0, "2B1E")
    assert st["turn"] == 1 and st["phase"] == "first"  # turn ended at once


# ----- action markers -----
def test_marker_of_source_quarter_is_flipped() -> None:
    st = fresh(4)
    on_rondel(st, 2, "blue", "F1", "E")  # field 2 over lion (Q1); F1 is in the monkey quarter
    st, ev = play(st, 0, "2F1E")
    assert st["markers"][0] == [False, True, True, True]  # lion flipped, not monkey
    assert ev[0].data["marker"] == "lion"


def test_face_down_marker_keeps_tile_in_its_quarter() -> None:
    st = fresh(4)
    st["markers"][0][0] = False
    on_rondel(st, 2, "blue", "F1", "E")
    legal = notations(st, 0)
    assert all(
        G.space_quarter[sp(n[1:3])] == 0 for n in legal if n[0] == "2"
    )  # only the lion quarter
    assert any(n.startswith("2") for n in legal)  # own quarter still free
    with pytest.raises(IllegalMove, match="lion marker is face down"):
        GAME.parse(st, 0, "2F1E")


def test_own_quarter_never_needs_or_flips_a_marker() -> None:
    st = fresh(4)
    st["markers"][0] = [False] * 4
    on_rondel(st, 2, "blue", "B1", "E")
    st, _ = play(st, 0, "2B1E")
    assert st["markers"][0] == [False] * 4
    st2 = fresh(4)
    on_rondel(st2, 2, "blue", "B1", "E")
    st2, _ = play(st2, 0, "2B1E")
    assert st2["markers"][0] == [True] * 4


def test_refresh_is_a_whole_turn() -> None:
    st = fresh(4)
    st["markers"][0] = [False, True, False, True]
    on_rondel(st, 2, "blue", "B1", "E")
    st, ev = play(st, 0, "refresh")
    assert st["markers"][0] == [True] * 4
    assert st["turn"] == 1
    assert st["tiles"] == [None] * 56
    assert ev[0].data["turned_up"] == 2


def test_refresh_needs_a_face_down_marker() -> None:
    """The rulebook's two actions are placing tiles and turning face-down markers up; with
    every marker up a refresh would be a pass, which the rules do not have (tables that
    passed to each other never ended)."""
    st = fresh(4)
    on_rondel(st, 2, "blue", "B1", "E")
    assert "refresh" not in notations(st, 0)
    with pytest.raises(IllegalMove, match="nothing to refresh: place a tile"):
        GAME.parse(st, 0, "refresh")
    with pytest.raises(IllegalMove, match="nothing to refresh"):
        GAME.apply(st, 0, engine_refresh_move())
    st["markers"][0][3] = False
    assert "refresh" in notations(st, 0)


def engine_refresh_move():
    from rules.maharani.moves import REFRESH

    return REFRESH


def test_refresh_as_pass_house_rule_and_states_stored_before() -> None:
    st = fresh(4, refresh_as_pass=True)
    on_rondel(st, 2, "blue", "B1", "E")
    assert "refresh" in notations(st, 0)
    st, _ = play(st, 0, "refresh")
    assert st["turn"] == 1 and st["tiles"] == [None] * 56
    old = fresh(4)
    del old["refresh_as_pass"]  # a state stored before the rule was read so
    on_rondel(old, 2, "blue", "B1", "E")
    assert "refresh" in notations(old, 0)
    assert GAME.view(old, 0)["refresh_as_pass"] is True


def test_refresh_is_the_only_move_when_markers_block() -> None:
    st = fresh(4)
    on_rondel(st, 2, "blue", "B1", "E")
    # every remaining lion space filled; the only tile comes from the lion field; marker down
    st["markers"][0][0] = False
    for name in G.space_names:
        if G.space_quarter[sp(name)] == 0 and name != "B1":
            st["tiles"][sp(name)] = 0
    st["tiles"][sp("B1")] = 0
    assert notations(st, 0) == {"refresh"}


def test_marker_face_down_until_refreshed_across_turns() -> None:
    st = fresh(2)
    on_rondel(st, 2, "blue", "F1", "E")
    st, _ = play(st, 0, "2F1E")
    assert st["markers"][0][0] is False
    st["markers"][1][3] = False
    st, _ = play(st, 1, "refresh")  # other player's turn
    assert st["markers"][0][0] is False


# ----- refill and the centre-pillar surplus -----
def test_refill_in_field_order() -> None:
    st = fresh(4)
    on_rondel(st, 1, "blue", "B1")
    on_rondel(st, 3, "red", "B1")
    on_rondel(st, 2, "green", "B1", "E")
    keep = st["bag"][:1]
    st["discarded"] += st["bag"][1:]
    st["bag"] = keep  # one tile left: it must go to the lowest empty field
    st, _ = play(st, 0, "2B1E")
    st, _ = play(st, 0, "stop")
    assert st["rondel"][1] == keep[0]
    assert st["rondel"][3] is None
    assert st["bag"] == []


def test_centre_surplus_removed_from_rondel_immediately_and_set_aside_when_drawn() -> None:
    st = fresh(4)
    centre = [G.space_names[s] for s in G.centre_spaces]
    colours = ["blue", "blue", "orange", "orange", "red", "red", "green"]
    for name, colour in zip(centre[:7], colours, strict=False):
        lay(st, name, colour)
    last = [n for n in centre if st["tiles"][sp(n)] is None][0]
    q = G.space_quarter[sp(last)]
    field = next(f for f in (1, 2, 3, 4) if G.field_quarter(f, "S") == q)
    on_rondel(st, field, "green", last)
    other = next(f for f in (1, 2, 3, 4) if f != field)
    on_rondel(st, other, "purple", centre[0])  # a centre tile waiting on the rondel
    third = next(f for f in (1, 2, 3, 4) if f not in (field, other))
    on_rondel(st, third, "purple", "B1")
    st, ev = play(st, 0, f"{field}{last}N")
    assert st["rondel"][other - 1] is None  # removed at once
    assert len(st["discarded"]) == 1
    assert any(e.kind == "surplus" for e in ev)
    assert all(not n.startswith(str(other)) for n in notations(st, 0))
    # drawing: only centre tiles left in the bag besides one H1 -> they are set aside
    centre_left = [t for t in st["bag"] if G.tile_type[t] == "C"]
    h1 = [t for t in st["bag"] if G.tile_type[t] == "H1"][:1]
    st["discarded"] += [t for t in st["bag"] if t not in centre_left and t not in h1]
    st["bag"] = centre_left + h1
    st, _ = play(st, 0, "stop")
    assert st["bag"] == [] or all(G.tile_type[t] != "C" for t in st["rondel"] if t is not None)
    assert all(G.tile_type[t] != "C" for t in st["rondel"] if t is not None)
    assert h1[0] in st["rondel"]
    assert set(centre_left) <= set(st["discarded"])


# ----- quarter scoring -----
def test_quarter_scoring_example_18_9_4_0() -> None:
    """S1: green 5 workers -> 18, red 3 -> 9, blue 1 -> 4, yellow 0 -> 0; workers go home."""
    st = fresh(4, turn=3)
    lion = [G.space_names[s] for s in G.quarter_spaces[0]]
    colours = ["blue", "orange", "red", "green", "purple", "blue", "orange", "red", "green"]
    owners = [(0, 0)] * 5 + [(1, 0)] * 3 + [(2, 0)]
    # seat 0 on blue, orange, red, green, purple; seat 1 on blue, orange, red; seat 2 on green
    last = "B1"
    names = [n for n in lion if n != last]
    for name, colour, owner in zip(names, colours, owners, strict=False):
        lay(st, name, colour, worker=owner)
    for name in names[len(colours) :]:
        lay(st, name, "turquoise")
    # seat 3 (E side) fills the last lion space; arrow away from them: no worker
    field = next(f for f in (1, 2, 3, 4) if G.field_quarter(f, "E") == 0)
    on_rondel(st, field, "turquoise", last)
    on_rondel(st, 1 + field % 4, "blue", "F2")  # a possible second tile
    d = G.arrow_dirs(st["rondel"][field - 1], sp(last))[0]
    assert d != "E"
    gold_before = list(st["gold"])
    st, ev = play(st, 3, f"{field}{last}{d}")
    assert st["phase"] == "second"  # scoring waits for the end of the turn
    assert not st["scored"][0]
    st, ev = play(st, 3, "stop")
    score = next(e for e in ev if e.kind == "score")
    assert [r["gold"] for r in score.data["results"]] == [18, 9, 4, 0]
    gains = [a - b for a, b in zip(st["gold"], gold_before, strict=True)]
    assert gains == [18, 9, 4, 1]  # seat 3 also earned 1 for the tile
    assert st["scored"] == [True, False, False, False]
    assert st["supply"] == [[8], [8], [8], [8]]
    assert all(st["workers"][s] is None for s in G.quarter_spaces[0])
    assert all(st["tiles"][s] is not None for s in G.quarter_spaces[0])  # tiles stay


def test_quarter_gold_table() -> None:
    assert engine.QUARTER_GOLD == (0, 4, 6, 9, 13, 18, 24)


def test_two_quarters_completed_by_two_tiles_both_score() -> None:
    st = fresh(4)
    for q, last in ((0, "B1"), (1, "F1")):
        for s in G.quarter_spaces[q]:
            if G.space_names[s] != last:
                st["tiles"][s] = 0
    st["workers"][sp("C1")] = 0
    st["supply"][0][0] -= 1
    on_rondel(st, 2, "red", "B1", "E")
    on_rondel(st, 3, "green", "F1", "E")
    st, _ = play(st, 0, "2B1E")
    st, ev = play(st, 0, "3F1E")
    assert st["scored"][:2] == [True, True]
    assert sum(1 for e in ev if e.kind == "score") == 2
    assert st["supply"][0] == [8]


# ----- the end -----
def _fill_all_but(st: dict, keep: set[str]) -> None:
    for s in range(56):
        if G.space_names[s] not in keep:
            st["tiles"][s] = 0


def test_game_ends_after_fourth_quarter_and_ties_share_victory() -> None:
    st = fresh(4)
    st["scored"] = [True, True, True, False]
    _fill_all_but(st, {"B8"})  # B8 is in the elephant quarter (Q4)
    st["gold"] = [10, 9, 10, 3]
    on_rondel(st, 1, "orange", "B8", "E")  # field 1 over Q4 when the arrow is S
    st, ev = play(st, 0, "1B8E")
    assert st["phase"] == "over" and st["end"] == "complete"
    out = GAME.outcome(st)
    assert out is not None
    assert out.scores == [11, 9, 10, 3]
    assert out.ranks == [1, 3, 2, 4]
    st2 = copy.deepcopy(st)
    st2["gold"] = [11, 9, 11, 3]
    out2 = GAME.outcome(st2)
    assert out2.ranks == [1, 3, 1, 4]
    assert "Shared victory" in out2.reason
    assert GAME.to_act(st) == [] and GAME.legal_moves(st, 0) == []
    assert ev[-1].kind == "end"


def test_stall_rule_scores_unfinished_quarters() -> None:
    st = fresh(4)
    _fill_all_but(st, {"C2", "B3"})  # two lion centre-pillar spaces stay empty
    st["workers"][sp("B1")] = 1 * 2  # seat 1 has one worker in the lion quarter
    st["supply"][1][0] -= 1
    st["scored"] = [False, True, True, True]
    on_rondel(st, 1, "blue", "B1")  # an H1 tile: it fits no empty space
    st["bag"] = []
    st["markers"][0][0] = False  # so the turn can end without a tile
    st, ev = play(st, 0, "refresh")
    assert st["phase"] == "over" and st["end"] == "stall"
    assert st["scored"] == [True] * 4
    assert st["gold"][1] == 4
    assert st["supply"][1] == [8]
    assert any(e.kind == "stall" for e in ev)
    assert "stopped early" in GAME.outcome(st).reason


def test_stall_when_rondel_and_bag_are_empty_but_spaces_remain() -> None:
    st = fresh(3)
    _fill_all_but(st, {"C2"})
    st["scored"] = [False, True, True, True]
    st["bag"] = []
    st["markers"][0][0] = False  # so the turn can end without a tile
    st, _ = play(st, 0, "refresh")
    assert st["end"] == "stall"


# ----- two-player variant -----
def test_two_player_new_worker_colour_is_a_choice() -> None:
    st = fresh(2)
    on_rondel(st, 2, "blue", "C3", "S")
    st, ev = play(st, 0, "2C3S")
    assert st["phase"] == "worker"
    assert notations(st, 0) == {"new1", "new2"}
    assert GAME.to_act(st) == [0]
    st, ev = play(st, 0, "new2")
    assert st["workers"][sp("C3")] == 1  # seat 0, square colour
    assert st["supply"][0] == [7, 6]
    assert st["phase"] == "second" or st["turn"] == 1


def test_two_player_move_or_new_other_colour() -> None:
    st = fresh(2)
    lay(st, "B1", "blue", worker=(0, 0), d="N")
    on_rondel(st, 2, "blue", "C3", "S")
    st, _ = play(st, 0, "2C3S")
    assert notations(st, 0) == {"move1", "new2"}
    labels = {m.notation: m.label for m in GAME.legal_moves(st, 0)}
    assert "from B1 to C3" in labels["move1"]
    moved, _ = play(st, 0, "move1")
    assert moved["workers"][sp("B1")] is None and moved["workers"][sp("C3")] == 0
    assert moved["supply"][0] == [6, 7]
    new, _ = play(st, 0, "new2")
    assert new["workers"][sp("B1")] == 0 and new["workers"][sp("C3")] == 1
    assert new["supply"][0] == [6, 6]


def test_two_player_must_move_when_other_colour_is_empty() -> None:
    st = fresh(2)
    lay(st, "B1", "blue", worker=(0, 0), d="N")
    st["supply"][0][1] = 0
    on_rondel(st, 2, "blue", "C3", "S")
    st, ev = play(st, 0, "2C3S")
    assert st["phase"] != "worker"
    assert st["workers"][sp("B1")] is None and st["workers"][sp("C3")] == 0


def test_two_player_choose_which_of_two_workers_moves() -> None:
    st = fresh(2)
    lay(st, "B1", "blue", worker=(0, 0), d="N")
    lay(st, "A3", "blue", worker=(0, 1), d="E")
    on_rondel(st, 2, "blue", "C3", "S")
    st, _ = play(st, 0, "2C3S")
    assert notations(st, 0) == {"move1", "move2"}
    st, _ = play(st, 0, "move2")
    assert st["workers"][sp("A3")] is None and st["workers"][sp("C3")] == 1
    assert st["workers"][sp("B1")] == 0


def test_two_player_colours_never_form_one_group() -> None:
    st = fresh(2)
    lay(st, "B1", "red", worker=(0, 0))
    on_rondel(st, 2, "blue", "C1", "S")
    st, _ = play(st, 0, "2C1S")
    st, ev = play(st, 0, "new2")
    assert ev[0].data["gold"] == 1  # square worker next to a round one: no group
    st2 = fresh(2)
    lay(st2, "B1", "red", worker=(0, 0))
    on_rondel(st2, 2, "blue", "C1", "S")
    st2, _ = play(st2, 0, "2C1S")
    st2, ev2 = play(st2, 0, "new1")
    assert ev2[0].data["gold"] == 2


def test_two_player_quarter_scoring_per_colour() -> None:
    st = fresh(2, turn=1)
    lion = [G.space_names[s] for s in G.quarter_spaces[0]]
    last = "B1"
    names = [n for n in lion if n != last]
    plan = [("blue", (0, 0)), ("red", (0, 0)), ("blue", (0, 1)), ("green", (1, 1))]
    for name, (colour, worker) in zip(names, plan, strict=False):
        lay(st, name, colour, worker=worker)
    for name in names[len(plan) :]:
        lay(st, name, "turquoise")
    # seat 1 sits at N; field 4 lies over the lion quarter when the arrow points N
    assert G.field_quarter(4, "N") == 0
    on_rondel(st, 4, "orange", last, "E")
    before = list(st["gold"])
    st, _ = play(st, 1, f"4{last}E")
    if st["phase"] == "second":
        st, _ = play(st, 1, "stop")
    gains = [a - b for a, b in zip(st["gold"], before, strict=True)]
    assert gains[0] == 6 + 4  # round: 2 workers -> 6, square: 1 -> 4
    assert gains[1] == 4 + 1  # square 1 -> 4, plus 1 for the tile
    assert st["supply"] == [[7, 7], [7, 7]]


def test_two_player_seat_at_north_gets_worker_for_arrow_north() -> None:
    st = fresh(2, turn=1)
    assert G.field_quarter(4, "N") == 0
    on_rondel(st, 4, "blue", "C3", "N")
    st, _ = play(st, 1, "4C3N")
    assert st["phase"] == "worker"


def test_three_players_arrow_at_empty_side_gives_no_worker() -> None:
    st = fresh(3)
    assert st["sides"] == ["S", "W", "N"]
    on_rondel(st, 2, "blue", "B1", "E")  # E is the empty side
    st, _ = play(st, 0, "2B1E")
    assert all(w is None for w in st["workers"])


# ----- notation, labels, refusals -----
def test_labels_and_steps() -> None:
    st = fresh(4)
    on_rondel(st, 2, "green", "C3", "S")
    on_rondel(st, 4, "green", "D3", "S")
    moves = {m.notation: m for m in GAME.legal_moves(st, 0)}
    m = moves["2C3S"]
    assert m.label == "green tile from lion field → lion quarter C3, arrow ↓ S to you: worker"
    assert [s.key for s in m.steps] == ["2", "C3", "S"]
    m4 = moves["4C3N"]
    assert m4.label.endswith("; flips peacock marker")
    assert m4.rank < m.rank
    assert "refresh" not in moves  # every marker is face up: nothing to refresh
    st["markers"][0][1] = False
    moves = {m.notation: m for m in GAME.legal_moves(st, 0)}
    assert moves["refresh"].rank < moves["2C3S"].rank


def test_parse_accepts_separators_and_missing_single_arrow() -> None:
    st = fresh(4)
    on_rondel(st, 2, "green", "B1", "E")
    assert GAME.parse(st, 0, " 2-b1-e ").notation == "2B1E"
    assert GAME.parse(st, 0, "2 B1").notation == "2B1E"  # H1: only one arrow fits
    on_rondel(st, 3, "green", "F2")
    with pytest.raises(IllegalMove, match="Say which way the arrow points"):
        GAME.parse(st, 0, "3F2")  # centre space: four ways


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1B1E", "Rondel field 1 is empty"),
        ("2D4N", "under the rondel"),
        ("2A1N", "corner of the palace"),
        ("2C2N", "C2 has a centre pillar"),
        ("2B1N", "the arrow can point E"),
        ("2C3S", "already holds a red tile"),
        ("stop", "You must place a tile"),
        ("new1", "no worker choice"),
        ("xyz", "Type field, space and arrow"),
    ],
)
def test_refusals_say_why(text: str, message: str) -> None:
    st = fresh(4)
    lay(st, "C3", "red")
    on_rondel(st, 2, "green", "B1", "E")
    with pytest.raises(IllegalMove, match=message):
        GAME.parse(st, 0, text)


def test_refusals_in_second_phase_and_wrong_turn() -> None:
    st = fresh(4)
    on_rondel(st, 2, "green", "B1", "E")
    on_rondel(st, 3, "green", "F2")
    st, _ = play(st, 0, "2B1E")
    with pytest.raises(IllegalMove, match="whole turn"):
        GAME.parse(st, 0, "refresh")
    with pytest.raises(IllegalMove, match="not your turn"):
        GAME.parse(st, 1, "stop")
    with pytest.raises(IllegalMove):
        GAME.apply(st, 1, GAME.parse(st, 0, "stop"))


def test_quarter_step_added_when_a_tile_has_more_than_25_spaces() -> None:
    from rules.maharani import moves as mv

    st = fresh(4)
    on_rondel(st, 2, "green", "B1", "E")
    old = mv.MAX_STEP_OPTIONS
    try:
        mv.MAX_STEP_OPTIONS = 5
        m = next(x for x in GAME.legal_moves(st, 0) if x.notation == "2B1E")
        assert [s.key for s in m.steps] == ["2", "Q1", "B1", "E"]
    finally:
        mv.MAX_STEP_OPTIONS = old


def test_default_move() -> None:
    st = fresh(2)
    on_rondel(st, 2, "blue", "C3", "S")
    on_rondel(st, 3, "blue", "F2")
    assert GAME.default_move(st, 0) is None  # no refresh: absent players would pass forever
    assert GAME.default_move(st, 1) is None
    st, _ = play(st, 0, "2C3S")
    assert GAME.default_move(st, 0) is None  # 2-player worker choice: no skip
    st, _ = play(st, 0, "new1")
    assert GAME.default_move(st, 0).notation == "stop"


def test_view_is_public_and_identical_for_every_seat() -> None:
    st = GAME.setup(3, 9)
    pub = GAME.view(st, None)
    assert all(GAME.view(st, s) == pub for s in range(3))
    assert not GAME.has_hidden_information
    text = json.dumps(pub)
    assert '"bag": 56' in text  # only the count of the bag
    assert len(pub["board"]) == 56 and len(pub["rondel"]) == 4


def test_status_and_summary() -> None:
    st = GAME.setup(4, 1)
    assert "{p" in GAME.status(st)
    assert 3 <= len(GAME.summary.splitlines()) <= 6


def test_every_possible_placement_label_fits_untruncated() -> None:
    from rules.maharani.moves import placement_move

    for t in range(60):
        for src in range(4):
            for s, dirs in G.fits[t]:
                for d in dirs:
                    marker = G.space_quarter[s] != src
                    m = placement_move(1, t, src, s, d, marker, "S", False, 0.0)
                    assert len(m.label) <= 100
                    if marker:
                        assert m.label.endswith(f"flips {G.animals[src]} marker")
                    elif d == "S":
                        assert m.label.endswith("to you: worker")


# ----- words (issue 17) -----
def test_tile_event_uses_the_right_article() -> None:
    st = fresh(4)
    on_rondel(st, 1, "orange", "A6", "S")
    on_rondel(st, 2, "blue", "B1", "E")
    st, ev = play(st, 0, "1A6S")
    assert ev[0].text.startswith("{p0} places an orange tile from the elephant field on A6")
    st, ev = play(st, 0, "2B1E")
    assert ev[0].text.startswith("{p0} places a blue tile")


def test_result_speaks_of_gold_and_always_gives_a_reason() -> None:
    from render.words.posts import result_text

    st = fresh(3)
    st["phase"], st["end"], st["gold"] = "over", "complete", [12, 30, 7]
    out = GAME.outcome(st)
    assert out is not None and out.reason == "{p1} wins with 30 gold."
    text = result_text(out.to_json(), ["Ann", "Ben", "Cy"], GAME.score_unit)
    assert "1. Ben — 30 gold" in text and "points" not in text
    assert text.endswith("Ben wins with 30 gold.")
    st["end"] = "stall"
    assert GAME.outcome(st).reason == (
        "{p1} wins with 30 gold. The game stopped early: no rondel tile fit any empty space."
    )


def test_status_says_whose_side_the_arrow_points_to() -> None:
    st = fresh(4, turn=1)  # seat 1 sits at W
    assert GAME.status(st) == (  # every marker face up: nothing to refresh
        "Turn 1 · 0/4 quarters scored · {p1} to place a tile "
        "(the rondel's arrow points to {p1}'s side, west)."
    )
    st["markers"][1][2] = False
    assert GAME.status(st) == (
        "Turn 1 · 0/4 quarters scored · {p1} to place a tile or refresh "
        "(the rondel's arrow points to {p1}'s side, west)."
    )
    with pytest.raises(IllegalMove, match="type refresh"):
        GAME.parse(st, 1, "stop")
    st["markers"][1][2] = True
    with pytest.raises(IllegalMove, match="You must place a tile this turn.$"):
        GAME.parse(st, 1, "stop")
    with pytest.raises(IllegalMove, match="like 1F7S.$"):
        GAME.parse(st, 1, "zzz")
