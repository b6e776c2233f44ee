"""Pastiche rules: setup, placement, bank trades, offers, exchange, completion, hand limit,
end of game, final scoring (with the rulebook's worked example) and hidden information."""

from __future__ import annotations

import copy
import dataclasses
import json
from collections import Counter
from typing import Any

import pytest

from rules.base import IllegalMove, Move, Step
from rules.pastiche import GAME
from rules.pastiche import board as bd
from rules.pastiche import moves as mv
from rules.pastiche import scoring as sc
from rules.pastiche.data import load
from rules.pastiche.words import colours_word
from rules.words import ENGLISH, Msg, to_json

State = dict[str, Any]
NAMES = load().names


# ----- helpers (also used by the other Pastiche test files) -----------------------------------
def fresh(n: int = 2, seed: int = 1, **options: Any) -> State:
    return GAME.setup(n, seed, options or None)


def play(state: State, text: str, seat: int | None = None) -> tuple[State, list]:
    seat = state["cur"] if seat is None else seat
    move = GAME.parse(state, seat, text)
    return GAME.apply(state, seat, move)


def set_cards(state: State, seat: int, **counts: int) -> State:
    """Give ``seat`` exactly these cards, moving cards between hand and bank (conserved)."""
    s = copy.deepcopy(state)
    p = s["players"][seat]
    for c in NAMES:
        s["bank"][c] += p["cards"][c]
        p["cards"][c] = 0
    for c, n in counts.items():
        assert s["bank"][c] >= n, c
        s["bank"][c] -= n
        p["cards"][c] = n
    return s


def set_hand(state: State, seat: int, ids: list[str]) -> State:
    """Put these commissions in ``seat``'s hand; whatever they displace goes to the deck."""
    s = copy.deepcopy(state)
    for p in s["players"]:
        p["hand"] = [c for c in p["hand"] if c not in ids]
        p["done"] = [c for c in p["done"] if c not in ids]
    s["deck"] = [c for c in s["deck"] if c not in ids] + s["players"][seat]["hand"]
    s["gallery"] = [c for c in s["gallery"] if c not in ids]
    s["players"][seat]["hand"] = list(ids)
    while len(s["gallery"]) < 4:
        s["gallery"].append(s["deck"].pop(0))
    return s


def set_done(state: State, seat: int, ids: list[str]) -> State:
    s = set_hand(state, seat, ids)
    hand = [c for c in state["players"][seat]["hand"] if c not in ids]
    s["deck"] = [c for c in s["deck"] if c not in hand]
    s["players"][seat]["hand"] = hand
    s["players"][seat]["done"] = list(ids)
    return s


def place_any(state: State) -> State:
    """The current player places their first hex somewhere (taking the mixed cards)."""
    move = next(m for m in GAME.legal_moves(state, state["cur"]) if m.notation.endswith("mix"))
    return GAME.apply(state, state["cur"], move)[0]


def notations(state: State, seat: int | None = None) -> set[str]:
    seat = state["cur"] if seat is None else seat
    return {m.notation for m in GAME.legal_moves(state, seat)}


def check_conservation(state: State) -> None:
    cards: Counter[str] = Counter(state["bank"])
    for p in state["players"]:
        cards.update(p["cards"])
    assert cards == {c.name: c.count for c in load().colours}
    assert all(v >= 0 for v in state["bank"].values())
    assert all(v >= 0 for p in state["players"] for v in p["cards"].values())
    ids = list(state["deck"]) + list(state["gallery"])
    for p in state["players"]:
        ids += p["hand"] + p["done"]
    assert sorted(ids) == sorted(load().commission_ids)
    hexes = list(state["supply"]) + [h for p in state["players"] for h in p["hexes"] if h]
    hexes += [v[0] for v in state["board"].values() if not str(v[0]).startswith("S")]
    assert sorted(hexes) == sorted(load().hex_ids)


# ----- setup ----------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_deals_what_the_rulebook_says(n: int) -> None:
    s = fresh(n, 7)
    check_conservation(s)
    assert len(s["gallery"]) == 4
    assert len(s["deck"]) == 34 - 4 - 2 * n
    assert len(s["supply"]) == 54 - 2 * n
    for p in s["players"]:
        assert {c: v for c, v in p["cards"].items() if v} == {
            "green": 1,
            "purple": 1,
            "orange": 1,
            "brown": 1,
        }
        assert len(p["hand"]) == 2 and len(p["hexes"]) == 2 and p["done"] == []
    assert s["phase"] == "place" and s["cur"] == s["start"]
    assert len(s["board"]) == 3
    assert GAME.to_act(s) == [s["start"]]
    assert json.loads(json.dumps(s)) == s


def test_random_start_player_varies_with_seed() -> None:
    assert len({fresh(4, seed)["start"] for seed in range(30)}) == 4


# ----- placement ------------------------------------------------------------------------------
def test_placement_collects_cards_by_the_chart() -> None:
    s = fresh(2, 3)
    seat = s["cur"]
    hx = load().hexes[s["players"][seat]["hexes"][0]]
    cell = (-1, 0)  # west of the start hex (0,0): touches only it
    name = bd.cell_name(cell)
    others = bd.dabs_at(s["board"], cell)
    for rot in range(6):
        corners = bd.rotate(hx.corners, rot)
        expected = list(bd.placement_yield(corners, others))
        key = f"h1 {name} r{rot} mix"
        if key not in notations(s):
            continue  # a symmetric hex repeats a rotation: only the first is offered
        new, events = play(s, key)
        gained = Counter(new["players"][seat]["cards"]) - Counter(s["players"][seat]["cards"])
        assert gained == Counter(expected)
        assert events[0].data["cards"] == expected
        assert new["board"][bd.key(cell)] == [hx.id, rot, corners]
        assert new["players"][seat]["hexes"][0] is None
        assert new["last"] == bd.key(cell)
        assert new["phase"] == "trade"
        check_conservation(new)


def test_take_the_centre_primary_instead() -> None:
    s = fresh(2, 3)
    seat = s["cur"]
    hx = load().hexes[s["players"][seat]["hexes"][0]]
    centre = [load().letter_colour[x] for x in hx.centre]
    for colour in centre:
        new, _ = play(s, f"h1 m9 r0 {colour}")
        assert new["players"][seat]["cards"][colour] == 1
        assert mv.hand_size(new["players"][seat]["cards"]) == 5
    other = next(c for c in ("red", "yellow", "blue") if c not in centre)
    with pytest.raises(IllegalMove, match="centre"):
        play(s, f"h1 m9 r0 {other}")


def set_hex(state: State, seat: int, slot: int, hex_id: str) -> State:
    """Put ``hex_id`` in ``seat``'s hex slot, swapping it with wherever it was."""
    s = copy.deepcopy(state)
    old = s["players"][seat]["hexes"][slot]
    if hex_id in s["supply"]:
        s["supply"][s["supply"].index(hex_id)] = old
    else:
        for p in s["players"]:
            p["hexes"] = [old if h == hex_id else h for h in p["hexes"]]
    s["players"][seat]["hexes"][slot] = hex_id
    return s


def test_split_centre_offers_both_primaries_but_never_both() -> None:
    s = fresh(2, 3)
    split = next(h for h in load().hex_ids if len(load().hexes[h].centre) == 2)
    s = set_hex(s, s["cur"], 0, split)
    check_conservation(s)
    takes = {m.steps[-1].key for m in GAME.legal_moves(s, s["cur"]) if m.steps[0].key == "h1"}
    colours = {load().letter_colour[x] for x in load().hexes[split].centre}
    assert takes == {"mix"} | colours
    new, _ = play(s, f"h1 m9 r0 {sorted(colours)[0]}")
    assert mv.hand_size(new["players"][s["cur"]]["cards"]) == 5


def test_placement_must_touch_the_painting_and_not_overlap() -> None:
    s = fresh(2, 3)
    with pytest.raises(IllegalMove, match="already painted"):
        play(s, "h1 m10 r0 mix")
    with pytest.raises(IllegalMove, match="does not touch"):
        play(s, "h1 m15 r0 mix")
    with pytest.raises(IllegalMove, match="no hex 3"):
        play(s, "h3 m9 r0 mix")
    with pytest.raises(IllegalMove, match="Rotation 7"):
        play(s, "h1 m9 r7 mix")


def test_empty_bank_stack_means_the_card_is_not_received() -> None:
    s = fresh(2, 3)
    seat = s["cur"]
    move = next(
        m for m in GAME.legal_moves(s, seat) if m.notation.endswith("mix") and "→ no" not in m.label
    )
    wanted = GAME.apply(s, seat, move)[1][0].data["cards"]
    colour = wanted[0]
    # park the whole stack of that colour with the other player
    t = copy.deepcopy(s)
    other = 1 - seat
    t["players"][other]["cards"][colour] += t["bank"][colour]
    t["bank"][colour] = 0
    label = next(m.label for m in GAME.legal_moves(t, seat) if m.notation == move.notation)
    assert f"bank is out of {colour}" in label
    new, events = play(t, move.notation)
    assert colour not in events[0].data["cards"]
    assert colour in events[0].data["short"]
    check_conservation(new)


def test_centre_primary_not_offered_when_its_stack_is_empty() -> None:
    s = fresh(2, 3)
    seat = s["cur"]
    hx = load().hexes[s["players"][seat]["hexes"][0]]
    colour = load().letter_colour[hx.centre[0]]
    s["players"][1 - seat]["cards"][colour] += s["bank"][colour]
    s["bank"][colour] = 0
    assert not any(n.startswith("h1 ") and n.endswith(colour) for n in notations(s))


def test_placements_are_ranked_best_first_with_small_steps() -> None:
    s = fresh(3, 5)
    moves = GAME.legal_moves(s, s["cur"])
    ranks = [m.rank for m in moves]
    assert ranks == sorted(ranks, reverse=True)
    _check_steps(moves)
    for m in moves:
        assert len(m.notation) <= 80 and len(m.label) <= 100
        assert [st.key for st in m.steps][0] in ("h1", "h2")


def _check_steps(moves: list) -> None:
    """Every step offers at most 25 options under any prefix."""
    children: dict[tuple[str, ...], set[str]] = {}
    for m in moves:
        keys = tuple(st.key for st in m.steps)
        for i in range(len(keys)):
            children.setdefault(keys[:i], set()).add(keys[i])
    assert all(len(v) <= 25 for v in children.values()), max(map(len, children.values()))


def test_hex_is_redrawn_at_the_end_of_the_turn() -> None:
    s = place_any(fresh(2, 3))
    seat = s["cur"]
    supply = len(s["supply"])
    new, events = play(s, "end")
    assert all(h is not None for h in new["players"][seat]["hexes"])
    assert len(new["supply"]) == supply - 1
    assert any(e.kind == "hex" for e in events)
    assert new["cur"] == 1 - seat and new["phase"] == "place"


# ----- bank trades ----------------------------------------------------------------------------
def _trading(n: int = 2, seed: int = 3, **cards: int) -> State:
    s = place_any(fresh(n, seed))
    return set_cards(s, s["cur"], **cards)


def test_three_identical_buy_black_white_secondary_or_tertiary() -> None:
    s = _trading(green=3)
    bank = {n for n in notations(s) if n.startswith("bank green+green+green")}
    targets = {n.split(" for ")[1] for n in bank}
    assert targets == set(mv.three_for_one_targets()) - {"green"}
    assert not targets & {"cream", "gray", "red", "yellow", "blue"}
    new, _ = play(s, "bank green+green+green for black")
    assert new["players"][s["cur"]]["cards"]["black"] == 1
    assert new["players"][s["cur"]]["cards"]["green"] == 0
    assert new["bank"]["green"] == s["bank"]["green"] + 3
    check_conservation(new)
    with pytest.raises(IllegalMove, match="not gray"):
        play(s, "bank green+green+green for gray")


def test_yellow_and_brown_buy_cream() -> None:
    s = _trading(yellow=1, brown=1)
    new, _ = play(s, "bank yellow+brown for cream")
    assert new["players"][s["cur"]]["cards"] == {**{c: 0 for c in NAMES}, "cream": 1}
    check_conservation(new)
    with pytest.raises(IllegalMove, match="cream only"):
        play(s, "bank yellow+brown for gray")


def test_black_and_white_buy_gray() -> None:
    s = _trading(black=1, white=1)
    new, _ = play(s, "bank black+white for gray")
    assert new["players"][s["cur"]]["cards"]["gray"] == 1
    check_conservation(new)


def test_primary_plus_any_card_buys_any_primary() -> None:
    s = _trading(red=1, orange=1)
    bank = {n for n in notations(s) if n.startswith("bank")}
    assert bank == {"bank red+orange for yellow", "bank red+orange for blue"}
    new, _ = play(s, "bank red+orange for blue")
    assert new["players"][s["cur"]]["cards"]["blue"] == 1
    assert mv.hand_size(new["players"][s["cur"]]["cards"]) == 1
    # two primaries: either may be the "penalty" card, the trade is listed once
    t = _trading(red=1, blue=1)
    assert {n for n in notations(t) if n.startswith("bank")} == {"bank red+blue for yellow"}


def test_bank_trade_impossible_when_the_wanted_stack_is_empty() -> None:
    s = _trading(black=1, white=1)
    other = 1 - s["cur"]
    s["players"][other]["cards"]["gray"] += s["bank"]["gray"]
    s["bank"]["gray"] = 0
    assert "bank black+white for gray" not in notations(s)
    with pytest.raises(IllegalMove, match="no gray left"):
        play(s, "bank black+white for gray")


def test_bank_trades_only_for_the_active_player_while_trading() -> None:
    s = _trading(green=3)
    with pytest.raises(IllegalMove, match="not your turn"):
        play(s, "bank green+green+green for black", seat=1 - s["cur"])
    # before placing: not yet
    t = set_cards(fresh(2, 3), fresh(2, 3)["cur"], green=3)
    with pytest.raises(IllegalMove, match="First place"):
        play(t, "bank green+green+green for black")


# ----- offers between players -----------------------------------------------------------------
def _offer_state() -> State:
    s = place_any(fresh(3, 4))
    a = s["cur"]
    b = (a + 1) % 3
    s = set_cards(s, a, green=2, orange=1)
    s = set_cards(s, b, red=1, teal=1)
    return s


# the full trading rules are tested in tests/test_pastiche_trade.py


# ----- exchange and completion ----------------------------------------------------------------
def test_exchange_once_then_only_completions() -> None:
    s = place_any(fresh(2, 6))
    a = s["cur"]
    h, g = s["players"][a]["hand"][0], s["gallery"][2]
    s2, ev = play(s, f"swap {h} for {g}")
    assert s2["players"][a]["hand"][0] == g and s2["gallery"][2] == h
    assert ev[0].reveals
    assert not any(n.startswith(("swap", "bank", "offer")) for n in notations(s2))
    with pytest.raises(IllegalMove, match="once"):
        play(s2, f"swap {g} for {h}")


def test_complete_from_hand_draws_a_replacement_secretly() -> None:
    s = place_any(fresh(2, 6))
    a = s["cur"]
    s = set_hand(s, a, ["P23", "P28"])  # Las Meninas: gray + black
    s = set_cards(s, a, gray=1, black=1, red=1)
    s2, ev = play(s, "complete P23")
    p = s2["players"][a]
    assert p["done"] == ["P23"] and len(p["hand"]) == 2 and "P23" not in p["hand"]
    assert p["cards"]["gray"] == 0 and p["cards"]["black"] == 0 and p["cards"]["red"] == 1
    draw = next(e for e in ev if e.kind == "draw")
    assert draw.secret["commission"] == p["hand"][-1]
    assert draw.secret["commission"] not in draw.text and a in draw.private
    assert GAME.scores(s2)[a] == 9
    assert not any(n.startswith(("swap", "bank")) for n in notations(s2))
    check_conservation(s2)


def test_complete_from_gallery_refills_it() -> None:
    s = place_any(fresh(2, 6))
    a = s["cur"]
    cid = s["gallery"][1]
    com = load().commissions[cid]
    s = set_cards(s, a, **{c: 1 for c in com.palette})
    deck_top = s["deck"][-1]
    s2, ev = play(s, f"complete {cid}")
    assert s2["gallery"][1] == deck_top and len(s2["gallery"]) == 4
    assert cid in s2["players"][a]["done"]
    check_conservation(s2)


def test_empty_deck_lets_gallery_and_hand_shrink() -> None:
    s = place_any(fresh(2, 6))
    a = s["cur"]
    s["players"][1 - a]["done"] += s["deck"]
    s["deck"] = []
    g = s["gallery"][0]
    s = set_cards(s, a, **{c: 1 for c in load().commissions[g].palette})
    s2, _ = play(s, f"complete {g}")
    assert len(s2["gallery"]) == 3
    h = s2["players"][a]["hand"][0]
    s3 = set_cards(s2, a, **{c: 1 for c in load().commissions[h].palette})
    s3, _ = play(s3, f"complete {h}")
    assert len(s3["players"][a]["hand"]) == 1


def test_completion_refused_in_words_when_colours_lack() -> None:
    s = place_any(fresh(2, 6))
    a = s["cur"]
    s = set_hand(s, a, ["P23", "P28"])
    s = set_cards(s, a, gray=1)
    with pytest.raises(IllegalMove, match="lack black"):
        play(s, "complete P23")
    with pytest.raises(IllegalMove, match="neither in your hand"):
        play(s, f"complete {s['deck'][0]}")


def test_completions_only_on_your_own_turn() -> None:
    s = place_any(fresh(2, 6))
    other = 1 - s["cur"]
    s = set_hand(s, other, ["P23", "P28"])
    s = set_cards(s, other, gray=1, black=1)
    with pytest.raises(IllegalMove, match="not your turn"):
        play(s, "complete P23", seat=other)


# ----- hand limit -----------------------------------------------------------------------------
def test_hand_limit_you_choose_what_goes_back() -> None:
    s = place_any(fresh(2, 6))
    a = s["cur"]
    s = set_cards(s, a, green=5, red=3, teal=2)
    assert {"end", "end auto"} <= notations(s)
    s2, ev = play(s, "end")
    assert s2["phase"] == "discard" and s2["cur"] == a
    assert notations(s2) == {"return green", "return red", "return teal", "return auto"}
    s3, _ = play(s2, "return red")
    assert s3["cur"] == a
    s4, _ = play(s3, "return red")
    assert s4["cur"] == 1 - a and mv.hand_size(s4["players"][a]["cards"]) == 8
    assert s4["players"][a]["cards"]["red"] == 1
    check_conservation(s4)


def test_auto_return_keeps_usable_cards() -> None:
    s = place_any(fresh(2, 6))
    a = s["cur"]
    s = set_hand(s, a, ["P23", "P25"])  # gray+black / white+gray+black+teal
    s = set_cards(s, a, gray=2, black=2, white=1, teal=1, orange=2, red=1)
    assert mv.auto_returns(s, a) == ["orange"]
    s2, _ = play(s, "end auto")
    assert s2["players"][a]["cards"]["orange"] == 1 and s2["cur"] == 1 - a


def test_more_than_eight_is_fine_outside_your_own_turn_end() -> None:
    s = _offer_state()
    b = (s["cur"] + 1) % 3
    s = set_cards(s, b, red=1, green=8)
    s, _ = play(s, f"offer p{b + 1} green+orange for red")
    s, _ = play(s, "accept 1", seat=b)
    assert mv.hand_size(s["players"][b]["cards"]) == 10


# ----- end of the game ------------------------------------------------------------------------
def _before_fifer(n: int, seat_offset: int) -> State:
    """Seat ``start + seat_offset`` is about to complete The Fifer and pass the threshold."""
    s = fresh(n, 2)
    seat = (s["start"] + seat_offset) % n
    s["cur"] = seat
    s = set_done(s, seat, ["P11", "P18", "P29"])  # 15 + 9 + 16 = 40
    s = set_hand(s, seat, ["P05", "P06"])
    s = set_cards(s, seat, red=1, black=1, white=1, gray=1)
    s["phase"] = "complete"
    return s


def test_trigger_then_equal_turns_for_everyone() -> None:
    s = _before_fifer(4, 1)  # second in turn order: two more players follow
    seat = s["cur"]
    s, ev = play(s, "complete P05")
    assert s["end"] == "trigger" and any(e.kind == "trigger" for e in ev)
    s, _ = play(s, "end")
    assert not s["over"]
    guard = 0
    while not s["over"]:
        s = _quick_turn(s)
        guard += 1
        assert guard < 5
    assert guard == 2 and s["cur"] == (s["start"] - 1) % 4
    assert GAME.to_act(s) == [] and GAME.outcome(s) is not None
    assert s["turns"][seat] == s["turns"][(s["start"] - 1) % 4]


def test_trigger_on_the_last_seat_ends_at_once() -> None:
    s = _before_fifer(3, 2)  # the seat before the start player
    s, _ = play(s, "complete P05")
    s, ev = play(s, "end")
    assert s["over"] and ev[-1].kind == "over"


def test_below_threshold_does_not_trigger() -> None:
    s = _before_fifer(2, 0)  # 2 players need 45: 40 + 16 = 56 triggers
    s2, _ = play(s, "complete P05")
    assert s2["end"] == "trigger"
    t = set_done(s, s["cur"], ["P18"])
    t = set_hand(t, t["cur"], ["P05", "P06"])
    t = set_cards(t, t["cur"], red=1, black=1, white=1, gray=1)
    t2, _ = play(t, "complete P05")
    assert t2["end"] is None


def _quick_turn(s: State) -> State:
    seat = s["cur"]
    if s["phase"] == "place":
        s = place_any(s)
    move = GAME.default_move(s, seat)
    assert move is not None
    s, _ = GAME.apply(s, seat, move)
    while not s["over"] and s["cur"] == seat:
        s, _ = GAME.apply(s, seat, GAME.default_move(s, seat))
    return s


def test_hex_supply_exhaustion_finishes_the_round() -> None:
    s = fresh(3, 8)
    # leave only one hex in the supply
    extra = s["supply"][:-1]
    s["supply"] = s["supply"][-1:]
    for i, h in enumerate(extra):  # paint them far away so they stay accounted for
        s["board"][bd.key((40 + 2 * i, 40))] = [h, 0, load().hexes[h].corners]
    turns = 0
    while not s["over"]:
        if s["phase"] != "place":
            assert all(h is None for h in s["players"][s["cur"]]["hexes"]) or s["phase"] != "trade"
        s = _quick_turn(s)
        turns += 1
        assert turns < 30
    assert s["end"] == "hexes" and s["supply"] == []
    assert all(h is None for p in s["players"] for h in p["hexes"])
    assert len(set(s["turns"])) == 1
    check_conservation(s)


def test_player_without_hex_skips_placing() -> None:
    s = fresh(2, 8)
    a = s["cur"]
    b = 1 - a
    s["board"].update(
        {bd.key((40 + 2 * i, 40)): [h, 0, "RYBRYB"] for i, h in enumerate(s["supply"])}
    )
    s["board"].update(
        {bd.key((40 + 2 * i, 44)): [h, 0, "RYBRYB"] for i, h in enumerate(s["players"][b]["hexes"])}
    )
    s["supply"] = []
    s["players"][b]["hexes"] = [None, None]
    s = place_any(s)
    s, ev = play(s, "end")
    assert s["cur"] == b and s["phase"] == "trade" and ev[-1].kind == "nohex"


# ----- final scoring --------------------------------------------------------------------------
def test_painter_bonus_table() -> None:
    assert [sc.painter_bonus_for(x) for x in (14, 15, 17, 18, 22, 23, 27, 28, 31, 32)] == [
        0,
        3,
        3,
        4,
        4,
        5,
        5,
        6,
        6,
        0,
    ]
    assert sc.painter_bonus(["P01", "P02"]) == 3  # Da Vinci 7 + 8
    assert sc.painter_bonus(["P03", "P04"]) == 5  # Van Gogh 14 + 13
    assert sc.painter_bonus(["P03", "P02"]) == 0


def test_usable_cards_count_once_each() -> None:
    # both Parasol (P14) and The Harvesters (P26) need green and olive
    assert sc.usable_points({"green": 1}, ["P14", "P26"]) == 1
    assert sc.usable_points({"green": 2}, ["P14", "P26"]) == 2
    assert sc.usable_points({"green": 3}, ["P14", "P26"]) == 2
    assert sc.usable_points({"olive": 1, "red": 4}, ["P14", "P26"]) == 2  # red needed by neither
    assert sc.usable_points({"green": 5}, []) == 0  # gallery cards never count


def _rulebook_final_state() -> State:
    """The rulebook's 4-player final scoring (page 7), reproduced with those cards:
    Detti 13+12+9 +5 usable; Gábor 8+7+16 + Da Vinci 3; Móni 16+15+9 +4 usable;
    Dunda 13+14+7 + Van Gogh 5."""
    s = fresh(4, 1)
    s = set_done(s, 0, ["P15", "P13", "P09"])
    s = set_hand(s, 0, ["P16", "P21"])
    s = set_cards(s, 0, white=1, olive=1, green=1)  # white 3 + olive 2; green useless
    s = set_done(s, 1, ["P02", "P01", "P19"])
    s = set_hand(s, 1, ["P10", "P12"])
    s = set_cards(s, 1, red=1)
    s = set_done(s, 2, ["P05", "P11", "P18"])
    s = set_hand(s, 2, ["P26", "P14"])
    s = set_cards(s, 2, olive=1, green=2)  # olive once (2) + two greens (1 + 1)
    s = set_done(s, 3, ["P04", "P03", "P28"])
    s = set_hand(s, 3, ["P06", "P07"])
    s = set_cards(s, 3, red=1)
    s["over"], s["phase"], s["end"] = True, "over", "trigger"
    check_conservation(s)
    return s


def test_rulebook_worked_final_scoring() -> None:
    s = _rulebook_final_state()
    out = GAME.outcome(s)
    assert out is not None
    assert out.scores == [39, 34, 44, 39]
    assert [d["commissions"] for d in out.details] == [34, 31, 40, 34]
    assert [d["usable"] for d in out.details] == [5, 0, 4, 0]
    assert [d["bonus"] for d in out.details] == [0, 3, 0, 5]
    # Móni wins; Detti and Dunda tie on 39 and on 3 commissions; Detti's usable cards win it
    assert out.ranks == [2, 4, 1, 3]
    assert out.winners == [2]
    assert "{p0} and {p3} tied on 39; {p0} is ahead on usable palette points (5 to 0)" in (
        out.reason
    )


def test_full_tie_is_a_shared_win() -> None:
    s = fresh(2, 1)
    s = set_done(s, 0, ["P01"])
    s = set_done(s, 1, ["P28"])  # both 7 points
    for seat in (0, 1):
        s = set_cards(s, seat)
    s["over"], s["phase"], s["end"] = True, "over", "hexes"
    out = GAME.outcome(s)
    assert out.ranks == [1, 1] and "share" in out.reason


def test_tie_broken_by_completed_count_then_bonus() -> None:
    parts = [sc.Breakdown(20, 0, 0, 3), sc.Breakdown(20, 0, 0, 2)]
    assert "completed commissions (3 to 2)" in sc.tie_reason(parts)
    parts = [sc.Breakdown(17, 0, 3, 2), sc.Breakdown(20, 0, 0, 2)]
    assert "painter bonus points (3 to 0)" in sc.tie_reason(parts)


# ----- hidden information, views and clock defaults -------------------------------------------
def test_public_view_hides_hands_and_private_view_shows_them() -> None:
    s = place_any(fresh(3, 9))
    pub = GAME.view(s, None)
    text = json.dumps(pub)
    assert "me" not in pub
    for p in s["players"]:
        for cid in p["hand"]:
            assert cid not in text
    for seat_view in pub["seats"]:
        assert isinstance(seat_view["cards"], int) and isinstance(seat_view["commissions"], int)
    for seat in range(3):
        mine = GAME.view(s, seat)["me"]
        assert [c["id"] for c in mine["hand"]] == s["players"][seat]["hand"]
        assert mine["cards"] == s["players"][seat]["cards"]
        for c in mine["hand"]:
            palette = load().commissions[c["id"]].palette
            assert c["lack"] == [x for x in palette if s["players"][seat]["cards"][x] == 0]
        others = [q for q in range(3) if q != seat]
        mtext = json.dumps(GAME.view(s, seat))
        for q in others:
            for cid in s["players"][q]["hand"]:
                assert cid not in mtext


def test_private_view_lists_every_rotation_with_its_best_spot() -> None:
    s = fresh(2, 9)
    seat = s["cur"]
    me = GAME.view(s, seat)["me"]
    for slot, h in enumerate(me["hexes"]):
        hx = load().hexes[s["players"][seat]["hexes"][slot]]
        assert [r["rotation"] for r in h["rotations"]] == [
            r for r, _ in mv.distinct_rotations(hx.corners)
        ]
        for r in h["rotations"]:
            assert r["best_spot"] in GAME.view(s, None)["spots"]


def test_default_moves_when_the_clock_runs_out() -> None:
    s = fresh(3, 4)
    assert GAME.default_move(s, s["cur"]) is None  # a hex must be placed by its owner
    s = _offer_state()
    a, b = s["cur"], (s["cur"] + 1) % 3
    s = set_cards(s, a, green=9, orange=1)
    assert GAME.default_move(s, a).notation == "end auto"
    s, _ = play(s, f"offer p{b + 1} green for red")
    assert GAME.default_move(s, b).notation == "decline 1"
    s2, ev = GAME.apply(s, a, GAME.default_move(s, a))
    assert s2["cur"] == (a + 1) % 3 and mv.hand_size(s2["players"][a]["cards"]) == 8
    t = set_cards(_offer_state(), a, green=10)
    t, _ = play(t, "end")
    assert GAME.default_move(t, a).notation == "return auto"
    assert GAME.default_move(t, b) is None


def test_explain_illegal_gives_reasons() -> None:
    s = fresh(2, 3)
    with pytest.raises(IllegalMove, match="not a Pastiche move"):
        play(place_any(s), "paint it black")
    t = place_any(s)
    with pytest.raises(IllegalMove, match="already placed"):
        play(t, "h2 m9 r0 mix")
    with pytest.raises(IllegalMove, match="No offer of yours is open"):
        play(t, "withdraw")
    with pytest.raises(IllegalMove, match=r"You hold only \d green"):
        play(t, "bank green+green+green for black")
    with pytest.raises(IllegalMove, match="not a palette colour"):
        play(t, f"offer p{2 - t['cur']} green for chartreuse")
    with pytest.raises(IllegalMove, match="no other player"):
        play(t, f"offer p{t['cur'] + 1} green for red")


def test_status_and_scores_are_public() -> None:
    s = fresh(2, 3)
    assert "{p" in GAME.status(s) and "place" in GAME.status(s)
    assert GAME.scores(s) == [0, 0]


def test_apply_is_pure_and_refuses_stale_moves() -> None:
    s = fresh(2, 3)
    before = json.dumps(s, sort_keys=True)
    move = GAME.legal_moves(s, s["cur"])[0]
    new, _ = GAME.apply(s, s["cur"], move)
    assert json.dumps(s, sort_keys=True) == before
    with pytest.raises(IllegalMove):
        GAME.apply(new, new["cur"], move)


# ----- the "also" items of issue 17 ------------------------------------------------------
def test_round_counter_counts_the_turns_of_the_start_seat() -> None:
    s = fresh(3, 2)
    start = s["start"]
    assert GAME.status(s).startswith("Round 1 · {p" + str(start) + "}")
    for _ in range(3):  # everyone plays one turn: still round 1 until the start seat again
        s = place_any(s)
        s, _ = play(s, "end")
        assert GAME.status(s).startswith(f"Round {1 if s['cur'] != start else 2} ·")
    assert s["cur"] == start and s["turns"] == [1, 1, 1]


def test_complete_without_a_name_says_which_commissions_can_be_completed() -> None:
    s = place_any(fresh(2, 6))
    a = s["cur"]
    s = set_hand(s, a, ["P23", "P28"])
    s = set_cards(s, a, gray=1)
    with pytest.raises(IllegalMove, match="cannot complete any commission now"):
        play(s, "complete")
    s = set_cards(s, a, gray=1, black=1)
    with pytest.raises(IllegalMove) as err:
        play(s, "complete")
    assert str(err.value).startswith("Complete which commission? You can complete: P23 (")
    assert "`complete P23`" in str(err.value)


def test_place_hints_name_only_empty_spots() -> None:
    s = fresh(2, 3)
    assert "m11" not in GAME.notation_help  # m11 is a cell of the starting piece
    for text in ("complete P05", "h1 m10 r0 mix", "h1 zz r0 mix"):
        with pytest.raises(IllegalMove) as err:
            play(s, text)
        said = str(err.value)
        hint = said[said.index("`h") + 1 : said.index("mix`") + 3]
        assert GAME.parse(s, s["cur"], hint).notation == hint  # a legal placement


def test_a_symmetric_hex_typed_with_an_equivalent_rotation_is_that_placement() -> None:
    s = set_hex(fresh(2, 3), fresh(2, 3)["cur"], 0, "H12")
    corners = load().hexes["H12"].corners
    offered = [r for r, _ in mv.distinct_rotations(corners)]
    twin = next(r for r in range(6) if r not in offered)
    same = next(r for r in offered if bd.rotate(corners, r) == bd.rotate(corners, twin))
    move = GAME.parse(s, s["cur"], f"h1 m9 r{twin} mix")
    assert move.notation == f"h1 m9 r{same} mix"
    new, _ = GAME.apply(s, s["cur"], move)
    assert new["board"][bd.key(bd.parse_cell("m9"))][2] == bd.rotate(corners, twin)


# ----- the fast placement listing against a straightforward one --------------------------------
def _reference_place_moves(state: State, seat: int) -> list[Move]:
    """Every placement built the plain way, nothing cached or shared: fresh messages and
    steps, ``Move(...)``, and a stable sort by rank, best first. ``place_moves`` builds the
    same list much faster (caches, a per-yield table, moves made without the dataclass's
    ``__init__``, rank buckets instead of a sort); this is what it must equal."""
    data = load()
    value = data.value
    need = mv.needs(state, seat)
    bank = state["bank"]
    spots = [(q, r) for q, r in state["spots"]]
    groups = mv.spot_groups(spots)  # the row steps (a bounded chunking, not a fast path)

    def gain(got: list[str]) -> float:
        return float(
            sum(value[c] for c in got) + sum(2 * min(got.count(c), need[c]) for c in set(got))
        )

    out: list[Move] = []
    for slot, hex_id in enumerate(state["players"][seat]["hexes"]):
        if hex_id is None:
            continue
        hx = data.hexes[hex_id]
        centre = [data.letter_colour[x] for x in hx.centre]
        hstep = Step(
            f"h{slot + 1}",
            Msg(
                "pastiche.step.hex",
                slot=slot + 1,
                corners=hx.corners,
                centre=colours_word(centre, "pastiche.sep.or"),
            ),
        )
        for cell in spots:
            name = bd.cell_name(cell)
            others = bd.dabs_at(state["board"], cell)
            for rot, corners in mv.distinct_rotations(hx.corners):
                turn = (
                    Msg("pastiche.step.as_drawn")
                    if rot == 0
                    else Msg("pastiche.step.turned", n=rot)
                )
                path = (
                    hstep,
                    groups[cell],
                    Step(name, Msg("pastiche.step.at", cell=name)),
                    Step(f"r{rot}", Msg("pastiche.step.rotation", rotation=rot, turn=turn)),
                )
                got, short = mv.received(list(bd.placement_yield(corners, others)), bank)
                words = colours_word(got) if got else Msg("pastiche.no_cards")
                if short:
                    words = Msg(
                        "pastiche.yield_short",
                        cards=words,
                        colours=colours_word(sorted(set(short))),
                    )
                label = Msg(
                    "pastiche.label.place", slot=slot + 1, cell=name, rotation=rot, cards=words
                )
                take = Step("mix", Msg("pastiche.step.take", cards=words))
                out.append(Move(f"h{slot + 1} {name} r{rot} mix", label, (*path, take), gain(got)))
                for c in centre:
                    if bank[c] > 0:
                        colour = Msg(f"pastiche.colour.{c}")
                        label = Msg(
                            "pastiche.label.place_centre",
                            slot=slot + 1,
                            cell=name,
                            rotation=rot,
                            colour=colour,
                        )
                        take = Step(c, Msg("pastiche.step.take", cards=colour))
                        out.append(
                            Move(f"h{slot + 1} {name} r{rot} {c}", label, (*path, take), gain([c]))
                        )
    return sorted(out, key=lambda m: m.rank, reverse=True)


def _exactly(moves: list[Move]) -> list[Any]:
    """Everything a move is, down to the words' keys and parameters and the types (a ``Msg``
    equals any ``str`` with its text, so equality alone would not see a wrong key)."""

    def words(w: Any) -> Any:
        return (type(w).__name__, str(w), json.dumps(to_json(w)))

    return [
        (
            type(m).__name__,
            m.notation,
            words(m.label),
            [(type(s).__name__, s.key, words(s.label)) for s in m.steps],
            repr(m.rank),
        )
        for m in moves
    ]


def _placement_states() -> list[State]:
    """Placement states of a few random games (2–4 players), and copies with a thin bank
    (stacks of 0–2: yields the bank is short of, centre colours it cannot give)."""
    import random

    out: list[State] = []
    for seed in range(6):
        rnd = random.Random(seed)
        s = fresh(2 + seed % 3, seed)
        for _ in range(90):
            if s["over"]:
                break
            seat = s["cur"] if s["cur"] in GAME.may_act(s) else GAME.may_act(s)[0]
            if s["phase"] == "place" and seat == s["cur"] and rnd.random() < 0.5:
                out.append(s)
                thin = copy.deepcopy(s)
                for c in NAMES:
                    thin["bank"][c] = min(thin["bank"][c], rnd.randrange(3))
                out.append(thin)
            s, _ = GAME.apply(s, seat, rnd.choice(GAME.legal_moves(s, seat)))
    return out


def test_fast_placement_listing_is_exactly_the_straightforward_one() -> None:
    states = _placement_states()
    assert len(states) > 40 and any(len(st["spots"]) > 25 for st in states)
    for cold in (True, False):  # caches empty, then full of these very states
        if cold:
            for f in (mv._place_label, mv._centre_label, mv._yield_words):
                f.cache_clear()
        for s in states:
            seat = s["cur"]
            want = _reference_place_moves(s, seat)
            assert _exactly(GAME.legal_moves(s, seat)) == _exactly(want)
            # a typed placement's check lists one hex, spot and rotation: the same moves
            for slot, hex_id in enumerate(s["players"][seat]["hexes"]):
                if hex_id is None:
                    continue
                rot = mv.distinct_rotations(load().hexes[hex_id].corners)[-1][0]
                cell = (s["spots"][-1][0], s["spots"][-1][1])
                head = f"h{slot + 1} {bd.cell_name(cell)} r{rot} "
                part = [m for m in want if m.notation.startswith(head)]
                assert _exactly(mv.place_moves(s, seat, slot, cell, rot)) == _exactly(part)


def test_moves_made_without_init_are_moves() -> None:
    """``moves._move`` sets a Move's slots directly: it is right only while Move has exactly
    these fields and nothing to run after ``__init__``."""
    assert [f.name for f in dataclasses.fields(Move)] == ["notation", "label", "steps", "rank"]
    assert not hasattr(Move, "__post_init__")
    steps = (Step("a", Msg("pastiche.step.at", cell="m9")),)
    made = mv._move("h1 m9 r0 mix", Msg("pastiche.no_cards"), steps, 2.0)
    plain = Move("h1 m9 r0 mix", Msg("pastiche.no_cards"), steps, 2.0)
    assert type(made) is Move and made == plain and hash(made) == hash(plain)
    assert repr(made) == repr(plain)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.rank = 3.0  # type: ignore[misc]


def test_placement_labels_are_joined_around_their_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """``moves._label`` cuts a label's template once per hex slot, spot and rotation and
    joins the text around the value: the placement labels are cut (so the fast path is the
    one the listing test checks), and a template it cannot cut is formatted in full."""
    assert mv._text_around("pastiche.label.place", "cards", 2, "m9", 3) == (
        "Hex 2 at m9, rotation 3 → ",
        "",
    )
    assert mv._text_around("pastiche.label.place_centre", "colour", 2, "m9", 3) == (
        "Hex 2 at m9, rotation 3 → ",
        " (centre) instead",
    )
    words = colours_word(["green", "orange"])
    for key, template in (
        ("pastiche.test.cut", "{cards} {{at}} {cell}/{slot}/{rotation}!"),  # cut
        ("pastiche.test.spec", "{slot} {cell} {rotation}: {cards!r}"),  # a conversion
        ("pastiche.test.twice", "{cards} {slot} {cell} {rotation} {cards}"),  # met twice
    ):
        monkeypatch.setitem(ENGLISH, key, template)
        made = mv._label(key, 1, "m9", 0, "cards", words)
        plain = Msg(key, slot=1, cell="m9", rotation=0, cards=words)
        assert (str(made), made.key, made.params) == (str(plain), plain.key, plain.params)
        assert list(made.params) == ["slot", "cell", "rotation", "cards"]
    assert mv._text_around("pastiche.test.cut", "cards", 1, "m9", 0) == ("", " {at} m9/1/0!")
    assert mv._text_around("pastiche.test.spec", "cards", 1, "m9", 0) is None
    assert mv._text_around("pastiche.test.twice", "cards", 1, "m9", 0) is None
