"""Taj Mahal rules, one test per rule or worked example of shared/rules/taj_mahal.md and the
Hungarian summary seed. States are built from a real setup with chosen hands/display so the
engine is exercised exactly as in a match."""

from __future__ import annotations

import json
import re

import pytest

from rules.base import IllegalMove, State
from rules.taj_mahal import GAME
from rules.taj_mahal.components import components
from rules.taj_mahal.scoring import goods_score, hand_score, majority_wins, palace_score

COMP = components()


# ----- helpers -----------------------------------------------------------------------
def blank(n: int = 3, seed: int = 1, **opts: object) -> State:
    """A setup whose hands and display went back into the deck."""
    s = GAME.setup(n, seed, opts or None)
    for h in s["hands"]:
        s["deck"].extend(h)
        h.clear()
    s["deck"].extend(s["display"])
    s["display"] = []
    return s


def take(s: State, code: str) -> int:
    """Remove one card with this code from the deck (or the special supply) and return it."""
    for cid in reversed(s["deck"]):
        if COMP.cards[cid].code == code:
            s["deck"].remove(cid)
            return cid
    for sid, cid in COMP.specials.items():
        if COMP.cards[cid].code == code and s["special"][sid] is None:
            return cid
    raise AssertionError(f"no {code} left")


def give(s: State, seat: int, *codes: str) -> None:
    for code in codes:
        cid = take(s, code)
        card = COMP.cards[cid]
        if card.kind == "special":
            s["special"][card.special] = seat
        s["hands"][seat].append(cid)
    s["hands"][seat].sort()


def show(s: State, *codes: str) -> None:
    s["display"] = [take(s, c) for c in codes]


def put_bonus(s: State, city: str, idx: int) -> None:
    """Put bonus tile ``idx`` on ``city``, swapping with wherever it lay."""
    where = next(c for c, b in s["bonus"].items() if b == idx)
    s["bonus"][where], s["bonus"][city] = s["bonus"][city], idx


def play(s: State, seat: int, text: str) -> tuple[State, list]:
    assert GAME.to_act(s) == [seat]
    return GAME.apply(s, seat, GAME.parse(s, seat, text))


def texts(events: list) -> str:
    return " | ".join(e.text for e in events)


def notations(s: State, seat: int) -> set[str]:
    return {m.notation for m in GAME.legal_moves(s, seat)}


def conserved(s: State) -> None:
    """Every card, palace, influence tile and bonus tile is somewhere, exactly once."""
    n = s["n"]
    ordinary: list[int] = list(s["deck"]) + s["discard"] + s["display"]
    special_seen: dict[int, int] = {}
    for seat in range(n):
        for cid in s["hands"][seat] + s["played"][seat]:
            if COMP.cards[cid].kind == "special":
                assert cid not in special_seen
                special_seen[cid] = seat
            else:
                ordinary.append(cid)
    assert sorted(ordinary) == list(COMP.deck)
    for sid, cid in COMP.specials.items():
        assert s["special"][sid] == special_seen.get(cid)
    for seat in range(n):
        on_board = sum(1 for o in s["palace"].values() if o == seat)
        on_board += sum(1 for o in s["crowned"].values() if o == seat)
        assert on_board + s["left"][seat] == 20
    for kind in ("vizier", "general", "monk", "princess"):
        held = sum(h.count(kind) for h in s["infl"])
        assert held + s["stock"][kind] + (kind in s["court"]) == 6
    bonus = list(s["bonus"].values()) + [b for h in s["btiles"] for b in h]
    assert sorted(bonus) == list(range(16))
    json.loads(json.dumps(s))


# ----- setup -------------------------------------------------------------------------
@pytest.mark.parametrize(("n", "display"), [(3, 5), (4, 7), (5, 9)])
def test_setup(n: int, display: int) -> None:
    s = GAME.setup(n, 42)
    assert [len(h) for h in s["hands"]] == [6] * n
    assert len(s["display"]) == display
    assert len(s["deck"]) == 96 - 6 * n - display
    assert s["tiles"]["AGR"] == 12 and sorted(s["tiles"].values()) == list(range(1, 13))
    assert s["bonus"]["AGR_TAJ"] == 0 and len(s["bonus"]) == 16
    assert set(s["bonus"]) == COMP.fortresses
    assert s["court"] == ["vizier", "general", "monk", "princess", "mogul", "elephant"]
    assert GAME.to_act(s) == [0] and s["visit"] == 0
    assert GAME.view(s, None)["court_tile"] == 1
    conserved(s)


# ----- playing cards ------------------------------------------------------------------
def test_one_coloured_card_plus_at_most_one_white_or_special() -> None:
    s = blank()
    give(s, 0, "R-VE", "R-GM", "W-C", "W-E", "S-2")
    legal = notations(s, 0)
    assert {"withdraw", "R-VE", "R-VE+W-C", "R-VE+W-E", "R-VE+S-2", "R-GM+W-C"} <= legal
    assert not any(n.startswith("W-") or n.startswith("S-") for n in legal)
    for bad, why in [
        ("W-C", "only be played together with a coloured card"),
        ("R-VE+R-GM", "Only one coloured card"),
        ("R-VE+W-C+W-E", "at most two cards"),
        ("B-GE", "no blue general+elephant in your hand"),
        ("W-C+R-VE", "coloured card first"),
    ]:
        with pytest.raises(IllegalMove, match=re.escape(why)):
            GAME.parse(s, 0, bad)
    s2, ev = play(s, 0, "R-VE+W-C")
    assert s2["played"][0] and len(s2["played"][0]) == 2
    assert "played red vizier+elephant with white mogul" in texts(ev)
    assert s2["turn"] == 1 and len(s["hands"][0]) == 5  # the input state is untouched


def test_colour_lock_and_it_resets_each_visit() -> None:
    s = blank()
    give(s, 0, "R-VE", "R-GE", "B-ME", "W-P")
    give(s, 1, "Y-VE")
    give(s, 2, "G-VE")
    s, _ = play(s, 0, "R-VE")
    assert s["lock"][0] == "red"
    s, _ = play(s, 1, "Y-VE")
    s, _ = play(s, 2, "G-VE")
    legal = notations(s, 0)
    assert "R-GE" in legal and "R-GE+W-P" in legal
    assert not any(n.startswith("B-") for n in legal)
    with pytest.raises(IllegalMove, match="Your colour this visit is red"):
        GAME.parse(s, 0, "B-ME")
    # different players may use the same colour: seat 1 could play red too
    s["lock"] = [None] * 3
    s["visit"] = 1
    assert "B-ME" in notations(s, 0)


def test_colour_change_card() -> None:
    s = blank()
    give(s, 0, "R-VE", "B-ME", "S-X", "W-C")
    give(s, 1, "Y-VE", "Y-GE")
    give(s, 2, "G-VE", "G-GE")
    # first coloured card with the colour-change card sets the lock as usual
    s1, _ = play(s, 0, "B-ME+S-X")
    assert s1["lock"][0] == "blue"
    # normal case: lock red, colour change lets one blue card through, lock stays red
    s, _ = play(s, 0, "R-VE")
    s, _ = play(s, 1, "Y-VE")
    s, _ = play(s, 2, "G-VE")
    legal = notations(s, 0)
    assert "B-ME+S-X" in legal and "B-ME" not in legal and "B-ME+W-C" not in legal
    s, ev = play(s, 0, "B-ME+S-X")
    assert s["lock"][0] == "red"
    assert "with Colour change" in texts(ev)
    # the special card lies on the table until he withdraws, then returns to his hand
    sx = COMP.specials["colour"]
    assert sx in s["played"][0] and sx not in s["hands"][0]
    s, _ = play(s, 1, "Y-GE")
    s, _ = play(s, 2, "G-GE")
    s, _ = play(s, 0, "withdraw")
    while GAME.to_act(s) == [0]:
        s, _ = GAME.apply(s, 0, GAME.legal_moves(s, 0)[0])
    assert sx in s["hands"][0] and s["special"]["colour"] == 0
    conserved(s)


def test_plus_two_points_special_scores_when_played() -> None:
    s = blank()
    give(s, 0, "R-VE", "S-2")
    s, ev = play(s, 0, "R-VE+S-2")
    assert s["score"][0] == 2 and "scored 2" in texts(ev)


# ----- withdrawing and majorities ------------------------------------------------------
def test_majority_is_strict_against_players_still_in() -> None:
    assert majority_wins({"vizier": 2}, [{"vizier": 1}], ["vizier"]) == ["vizier"]
    assert majority_wins({"vizier": 1}, [{"vizier": 1}], ["vizier"]) == []
    assert majority_wins({"vizier": 0}, [], ["vizier"]) == []
    assert majority_wins({"vizier": 1}, [], ["vizier"]) == ["vizier"]  # alone: at least 1
    assert majority_wins({"mogul": 3, "vizier": 1}, [{"vizier": 2}], ["vizier"]) == []


def test_tie_turns_into_a_win_once_the_other_tied_player_withdraws() -> None:
    s = blank()
    give(s, 0, "R-VG")
    give(s, 1, "Y-VM")
    give(s, 2, "G-PE")
    s, _ = play(s, 0, "R-VG")  # vizier 1, general 1
    s, _ = play(s, 1, "Y-VM")  # vizier 1, monk 1
    s, _ = play(s, 2, "G-PE")
    s, ev = play(s, 0, "withdraw")  # ties seat 1 on vizier; general is his alone
    assert ev[0].data["won"] == ["general"]
    assert "vizier" in s["court"]
    s, _ = GAME.apply(s, 0, GAME.legal_moves(s, 0)[0])  # palace
    while GAME.to_act(s) == [0]:
        s, _ = GAME.apply(s, 0, GAME.legal_moves(s, 0)[0])
    # seat 1 withdraws: seat 0 has left (his cards no longer count) -> vizier and monk
    s, ev = play(s, 1, "withdraw")
    assert ev[0].data["won"] == ["vizier", "monk"]
    assert GAME.to_act(s) == [1]
    conserved(s)


def test_court_prizes_are_taken_once_per_visit() -> None:
    s = blank()
    give(s, 0, "R-EE")
    give(s, 1, "Y-EE", "Y-EE")
    give(s, 2, "G-PE")
    s, _ = play(s, 0, "R-EE")
    s, _ = play(s, 1, "Y-EE")
    s, _ = play(s, 2, "G-PE")
    s, ev = play(s, 0, "withdraw")  # 2 elephants vs 2 and 1: tie -> nothing
    assert ev[0].data["won"] == []
    while GAME.to_act(s) == [0]:
        s, _ = GAME.apply(s, 0, GAME.legal_moves(s, 0)[0])
    s, _ = play(s, 1, "Y-EE")  # 4 elephants
    s, ev = play(s, 2, "withdraw")
    assert ev[0].data["won"] == ["princess"]  # 3 elephants < 4: no province tile
    while GAME.to_act(s) == [2]:
        s, _ = GAME.apply(s, 2, GAME.legal_moves(s, 2)[0])
    s, ev = play(s, 1, "withdraw")
    assert ev[0].data["won"] == ["elephant"]  # princess already gone from the court
    assert s["ptiles"][1] == [1]


def test_to_act_returns_the_withdrawing_player_for_each_decision() -> None:
    s = blank()
    give(s, 0, "R-VG", "R-PC", "W-E")
    give(s, 1, "Y-EE")
    show(s, "B-VE", "B-GE", "W-M", "Y-PE", "G-CE")
    s, _ = play(s, 0, "R-VG+W-E")
    s, _ = play(s, 1, "withdraw")
    # seat 1 (withdrew without playing): two picks, then a blind card
    assert GAME.to_act(s) == [1]
    assert notations(s, 1) == {"take-B-VE", "take-B-GE", "take-W-M", "take-Y-PE", "take-G-CE"}
    s, ev = play(s, 1, "take-W-M")
    assert "drew 1 card from the display: white monk" in texts(ev)
    assert ev[0].secret == {"card": COMP.cards[ev[0].data["card"]].id}
    s, ev = play(s, 1, "take-B-VE")
    blind = [e for e in ev if e.kind == "draw"]
    assert blind and blind[0].text == "{p1} drew 1 card from the deck."
    assert blind[0].secret["card"] in s["hands"][1] and 1 in blind[0].private
    assert len(s["hands"][1]) == 4  # Y-EE kept + 2 picks + 1 blind
    assert GAME.to_act(s) == [2]


# ----- palaces, crown, bonus tiles, scoring ---------------------------------------------
def _at_province(s: State, prov: str) -> None:
    """Make ``prov`` the province of the current visit (swap tile numbers)."""
    cur = GAME.province(s)
    s["tiles"][cur], s["tiles"][prov] = s["tiles"][prov], s["tiles"][cur]


def test_palaces_one_per_influence_tile_on_empty_cities_with_bonus_tiles() -> None:
    s = blank()
    _at_province(s, "DEL")
    put_bonus(s, "DEL_N", 1)  # +2 points
    put_bonus(s, "DEL_S", 4)  # +1 card
    assert COMP.bonus_tiles[1].kind == "points" and COMP.bonus_tiles[4].kind == "card"
    s["palace"]["DEL_E"] = 1  # somebody's earlier... (impossible in play, tests "empty")
    s["left"][1] -= 1
    give(s, 0, "R-VG", "W-M")
    s["inv"][1] = s["inv"][2] = False  # alone in the visit
    s, _ = play(s, 0, "R-VG+W-M")
    s, ev = play(s, 0, "withdraw")
    assert ev[0].data["won"] == ["vizier", "general", "monk"]
    assert notations(s, 0) == {"palace-delhi-n", "palace-delhi-s", "palace-delhi-w"}
    labels = {m.label for m in GAME.legal_moves(s, 0)}
    assert "palace on Delhi north, taking +2 points" in labels
    with pytest.raises(IllegalMove, match="Delhi east already has a palace"):
        GAME.parse(s, 0, "palace-delhi-e")
    s, ev = play(s, 0, "palace-delhi-n")
    assert s["score"][0] == 2 and "scored 2" in texts(ev)
    hand_before = len(s["hands"][0])
    s, ev = play(s, 0, "palace-delhi-s")
    assert len(s["hands"][0]) == hand_before + 1 and ev[0].secret["drawn"]
    assert "+1 card" in texts(ev) and ev[0].reveals
    s, ev = play(s, 0, "palace-delhi-w")
    # palaces: one point for Delhi (3 palaces, still one point), no connections
    assert "palaces 1 (Delhi)" in texts(ev)
    assert s["score"][0] == 3
    assert s["left"][0] == 17
    conserved(s)


def test_crown_on_any_city_not_his_own_and_it_takes_no_bonus() -> None:
    s = blank()
    _at_province(s, "DEL")
    put_bonus(s, "DEL_N", 1)
    s["palace"]["DEL_E"] = 2  # a palace of seat 2 (set up directly)
    s["left"][2] -= 1
    give(s, 0, "R-VC", "W-C")
    give(s, 1, "Y-PE")
    s["inv"][2] = False
    s, _ = play(s, 0, "R-VC+W-C")
    s, _ = play(s, 1, "Y-PE")
    s, ev = play(s, 0, "withdraw")
    assert ev[0].data["won"] == ["vizier", "mogul"]
    s, _ = play(s, 0, "palace-delhi-w")
    # crown: any city except DEL_W (his own palace); occupied DEL_E is allowed
    assert notations(s, 0) == {"crown-delhi-n", "crown-delhi-e", "crown-delhi-s"}
    with pytest.raises(IllegalMove, match="your own palace"):
        GAME.parse(s, 0, "crown-delhi-w")
    s1, ev = play(s, 0, "crown-delhi-e")
    assert s1["crowned"]["DEL_E"] == 0 and "beside {p2}'s palace" in texts(ev)
    s2, _ = play(s, 0, "crown-delhi-n")
    assert "DEL_N" in s2["bonus"]  # the crowned palace leaves the bonus tile
    assert s2["score"][0] == 1  # palaces in Delhi: 1
    while GAME.to_act(s2) == [0]:
        s2, _ = GAME.apply(s2, 0, GAME.legal_moves(s2, 0)[0])
    # a lone crowned palace does not block a later regular palace (which takes the bonus)
    s2, ev = play(s2, 1, "withdraw")
    assert ev[0].data["won"] == ["princess", "elephant"]
    assert notations(s2, 1) == {"palace-delhi-n", "palace-delhi-s"}
    s2, ev = play(s2, 1, "palace-delhi-n")
    assert s2["palace"]["DEL_N"] == 1 and s2["crowned"]["DEL_N"] == 0
    assert "took the +2 points tile" in texts(ev)
    conserved(s2)


def test_goods_examples_from_the_seed_and_the_reference() -> None:
    # seed: "1 +1 +1 = 3": one good, two earlier copies
    assert sum(goods_score(["rice"], {"rice": 2})) == 3
    # seed: "1 1 +1 +1 = 4": two goods, one earlier copy of each
    assert sum(goods_score(["spice", "jewel"], {"spice": 1, "jewel": 1})) == 4
    # seed: province tile "8 = 1+1 + 1+1 + 1+1 + 1+1" (two goods, three earlier copies each)
    assert sum(goods_score(["rice", "tea"], {"rice": 3, "tea": 3})) == 8
    # reference: owning [rice+tea, rice], gaining tile 11 (rice, tea): 3 + 2 = 5
    assert COMP.tile_goods[11] == ("rice", "tea")
    assert goods_score(COMP.tile_goods[11], {"rice": 2, "tea": 1}) == [3, 2]


def test_goods_scored_with_earlier_tiles_through_the_engine() -> None:
    s = blank()
    s["visit"] = 5  # tile 6: rice + jewel
    prov = GAME.province(s)
    assert COMP.tile_goods[6] == ("rice", "jewel")
    s["ptiles"][0] = [1, 4]  # rice; rice + tea
    s["btiles"][0] = [next(i for i, b in enumerate(COMP.bonus_tiles) if b.good == "jewel")]
    s["bonus"] = {c: b for c, b in s["bonus"].items() if b not in s["btiles"][0]}
    give(s, 0, "R-EE")
    s["inv"][1] = s["inv"][2] = False
    s, _ = play(s, 0, "R-EE")
    s, ev = play(s, 0, "withdraw")
    # rice: 1 + 2 earlier = 3; jewel: 1 + 1 earlier = 2
    assert "goods rice 3 + jewel 2" in texts(ev) and s["score"][0] == 5
    assert s["ptiles"][0] == [1, 4, 6]
    assert s["visit"] == 6 and prov != GAME.province(s)  # he was alone: the visit ended


def test_goods_bonus_tile_scores_before_the_province_tile() -> None:
    s = blank()
    s["visit"] = 0  # tile 1: rice
    prov = GAME.province(s)
    fort = next(c for c in COMP.province_cities[prov] if c in COMP.fortresses)
    rice = next(i for i, b in enumerate(COMP.bonus_tiles) if b.good == "rice")
    other = next(c for c, b in s["bonus"].items() if b == rice)
    s["bonus"][other], s["bonus"][fort] = s["bonus"][fort], rice
    give(s, 0, "R-VE")
    s["inv"][1] = s["inv"][2] = False
    s, _ = play(s, 0, "R-VE")
    s, _ = play(s, 0, "withdraw")
    s, ev = play(s, 0, "palace-" + COMP.city_code(fort))
    # bonus rice first (1), then province tile rice (1 + 1 earlier = 2), palaces 1
    assert "took a tile (rice) and scored 1" in texts(ev)
    assert "goods rice 2" in texts(ev)
    assert s["score"][0] == 1 + 2 + 1


def test_palace_connection_example_like_the_seed() -> None:
    """Seed: red scores 1 for palaces in A, +2 because A4 links provinces B and C, +1 because
    A2 links E: 4. Rebuilt on our map with A = Agra."""
    mine = {"AGR_N", "AGR_E", "DEL_S", "AJM_E", "AWA_S", "KAB_N"}
    pts, provs = palace_score(mine, ["AGR_N", "AGR_E"], COMP)
    assert pts == 4 and provs == ["AGR", "AJM", "AWA", "DEL"]
    # a longer chain of own palaces through several provinces (brown: 1 + 4 in the seed)
    chain = {"AGR_S", "MAL_N", "MAL_W", "GUJ_E", "GUJ_N", "SIN_E"}
    assert palace_score(chain, ["AGR_S"], COMP) == (4, ["AGR", "GUJ", "MAL", "SIN"])
    # no palace placed in the province now: 0 (grey in the seed)
    assert palace_score(chain, [], COMP) == (0, [])


def test_connections_through_the_engine_ignore_other_players() -> None:
    s = blank()
    _at_province(s, "AGR")
    for c in ("DEL_S", "AJM_E", "AWA_S"):
        s["palace"][c] = 0
        s["left"][0] -= 1
    s["palace"]["MAL_N"] = 1  # another player's palace neither helps nor blocks
    s["left"][1] -= 1
    give(s, 0, "R-VG")
    s["inv"][1] = s["inv"][2] = False
    s, _ = play(s, 0, "R-VG")
    s, _ = play(s, 0, "withdraw")
    s, _ = play(s, 0, "palace-agra-n")
    s, ev = play(s, 0, "palace-agra-e")
    assert "palaces 4 (Agra, Ajmer, Awadh, Delhi)" in texts(ev)


# ----- drawing ----------------------------------------------------------------------
def test_draws_two_each_last_one_and_blind_card_only_without_playing() -> None:
    s = blank()
    show(s, "R-VE", "R-GE", "R-ME", "R-PE", "R-CE")
    give(s, 0, "B-VE")
    give(s, 1, "B-GE")
    give(s, 2, "B-ME")
    s, _ = play(s, 0, "B-VE")
    s, _ = play(s, 1, "withdraw")  # without playing: 2 + 1 blind
    s, _ = play(s, 1, "take-R-VE")
    s, _ = play(s, 1, "take-R-GE")
    assert len(s["hands"][1]) == 4
    s, _ = play(s, 2, "B-ME")
    s, _ = play(s, 0, "withdraw")  # played: exactly 2
    while GAME.to_act(s) == [0] and s["pending"]["palaces"] + s["pending"]["crown"]:
        s, _ = GAME.apply(s, 0, GAME.legal_moves(s, 0)[0])
    s, _ = play(s, 0, "take-R-ME")
    s, _ = play(s, 0, "take-R-PE")
    assert len(s["hands"][0]) == 2
    s, _ = play(s, 2, "withdraw")  # last: only 1 card left
    while s["pending"] and s["pending"]["scored"] is False:
        s, _ = GAME.apply(s, 2, GAME.legal_moves(s, 2)[0])
    assert s["visit"] == 1 or notations(s, 2) == {"take-R-CE"}
    conserved(s)


def test_last_player_withdrawing_without_playing_draws_one_plus_blind() -> None:
    s = blank()
    show(s, "R-VE", "R-GE", "R-ME", "R-PE", "R-CE")
    s["inv"][1] = s["inv"][2] = False
    s["display"] = s["display"][:1]
    s, _ = play(s, 0, "withdraw")
    assert notations(s, 0) == {"take-R-VE"}
    s, ev = play(s, 0, "take-R-VE")
    assert len(s["hands"][0]) == 2  # 1 from the display + 1 blind
    assert any(e.kind == "visit" for e in ev)  # the visit ended
    assert len(s["display"]) == 5


def test_discards_are_reshuffled_when_the_deck_runs_out() -> None:
    s = blank()
    s["discard"], s["deck"] = s["deck"][:-1], s["deck"][-1:]
    s["inv"][1] = s["inv"][2] = False
    s, ev = play(s, 0, "withdraw")  # display empty: no picks; blind card = last deck card
    assert len(s["hands"][0]) == 1
    # end of visit: new display of 5 needs the discard pile
    assert any(e.kind == "reshuffle" for e in ev)
    assert len(s["display"]) == 5 and s["discard"] == []
    conserved(s)


def test_the_last_player_may_keep_playing_unless_the_option_says_no() -> None:
    s = blank()
    give(s, 0, "R-VE", "R-GE")
    s["inv"][1] = s["inv"][2] = False
    assert "R-VE" in notations(s, 0)
    s, _ = play(s, 0, "R-VE")
    assert GAME.to_act(s) == [0]  # still his turn
    s2 = blank(last_player_may_play=False)
    give(s2, 0, "R-VE")
    s2["inv"][1] = s2["inv"][2] = False
    assert notations(s2, 0) == {"withdraw"}
    with pytest.raises(IllegalMove, match="last player"):
        GAME.parse(s2, 0, "R-VE")


def test_one_palace_per_withdrawal_option() -> None:
    s = blank(palace_per_influence_tile=False)
    give(s, 0, "R-VG", "W-M")
    s["inv"][1] = s["inv"][2] = False
    s, _ = play(s, 0, "R-VG+W-M")
    s, _ = play(s, 0, "withdraw")
    assert s["pending"]["palaces"] == 1 and s["infl"][0] == ["vizier", "general", "monk"]


# ----- special cards -----------------------------------------------------------------
def _end_visit_with(s: State) -> tuple[State, list]:
    """Everybody withdraws in turn, taking the first choice; returns at the next visit."""
    events: list = []
    visit = s["visit"]
    while s["visit"] == visit and not s["over"]:
        seat = GAME.to_act(s)[0]
        moves = GAME.legal_moves(s, seat)
        move = next((m for m in moves if m.notation == "withdraw"), moves[0])
        s, ev = GAME.apply(s, seat, move)
        events += ev
    return s, events


def test_pairs_of_influence_tiles_claim_special_cards_from_supply_and_from_players() -> None:
    s = blank()
    s["infl"][0] = ["general"]
    s["stock"]["general"] -= 1
    give(s, 0, "R-GE")
    give(s, 2, "S-E")  # the +1 Elephant card is in seat 2's hand
    s, _ = play(s, 0, "R-GE")
    s, events = _end_visit_with(s)
    assert "{p0} returned two general tiles and claimed the +1 Elephant card from {p2}." in texts(
        events
    )
    se = COMP.specials["elephant"]
    assert se in s["hands"][0] and se not in s["hands"][2] and s["special"]["elephant"] == 0
    assert s["infl"][0] == [] and s["stock"]["general"] == 5 - 1 + 2 - 1
    conserved(s)


def test_special_symbol_cards_count_toward_majorities() -> None:
    s = blank()
    give(s, 0, "R-VE", "S-E")
    give(s, 1, "Y-EE")
    s, _ = play(s, 0, "R-VE+S-E")  # 2 elephants (card + special)
    s, _ = play(s, 1, "Y-EE")  # 2 elephants
    s, ev = play(s, 2, "withdraw")
    while GAME.to_act(s) == [2]:
        s, _ = GAME.apply(s, 2, GAME.legal_moves(s, 2)[0])
    s, ev = play(s, 0, "withdraw")
    assert ev[0].data["won"] == ["vizier"]  # elephant tied
    s2 = blank()
    give(s2, 0, "R-VE", "S-C")
    give(s2, 1, "Y-CE")
    s2["inv"][1] = s2["inv"][2] = False
    s2, _ = play(s2, 0, "R-VE+S-C")
    s2, ev = play(s2, 0, "withdraw")
    assert "mogul" in ev[0].data["won"]


# ----- end of game -------------------------------------------------------------------
def test_hand_scoring() -> None:
    s = blank()
    give(s, 0, "R-VE", "R-GE", "R-ME", "B-VE", "B-GE", "W-E", "W-C", "S-2")
    h = hand_score(s["hands"][0], COMP)
    assert h == {"specials": 1, "white": 2, "colour": "red", "colour_cards": 3, "points": 6}
    # two colours tie: count one of them
    s2 = blank()
    give(s2, 0, "G-VE", "G-GE", "B-VE", "B-GE")
    assert hand_score(s2["hands"][0], COMP)["points"] == 2
    assert hand_score([], COMP)["points"] == 0


def test_game_ends_after_visit_twelve_with_claims_hand_scoring_and_shared_win() -> None:
    s = blank()
    s["visit"] = 11
    assert GAME.province(s) == "AGR"
    s["score"] = [10, 12, 9]
    s["infl"][2] = ["monk"]
    s["stock"]["monk"] -= 1
    give(s, 0, "R-VE", "R-GE")  # hand at the end: red 2
    give(s, 2, "B-ME")
    s, _ = play(s, 0, "withdraw")  # nothing played: no prizes, picks nothing (no display)
    s, _ = play(s, 1, "withdraw")
    s, _ = play(s, 2, "B-ME")
    s, ev = play(s, 2, "withdraw")
    while not s["over"]:
        seat = GAME.to_act(s)[0]
        s, more = GAME.apply(s, seat, GAME.legal_moves(s, seat)[0])
        ev += more
    t = texts(ev)
    # claims happen after visit 12 too, before hand scoring
    assert t.index("claimed the Colour change card") < t.index("for the hand")
    out = GAME.outcome(s)
    assert out is not None and GAME.to_act(s) == []
    assert s["final"][2]["specials"] == 1
    hands = [hand_score(h, COMP)["points"] for h in s["hands"]]
    assert out.scores == s["score"]
    assert all(d["points"] == p for d, p in zip(out.details, hands, strict=True))
    # shared win on equal totals
    s["score"] = [20, 20, 3]
    out = GAME.outcome(s)
    assert out is not None and out.ranks == [1, 1, 3] and "share the win" in out.reason


# ----- clocks, views, errors ---------------------------------------------------------
def test_default_move_withdraws_and_pending_choices_have_no_pass() -> None:
    s = blank()
    give(s, 0, "R-VE")
    assert GAME.default_move(s, 0).notation == "withdraw"
    assert GAME.default_move(s, 1) is None
    show(s, "W-E", "W-C")
    s, _ = play(s, 0, "withdraw")
    assert GAME.legal_moves(s, 0) and GAME.default_move(s, 0) is None


def test_public_view_hides_hands_and_private_view_shows_own() -> None:
    s = GAME.setup(4, 3)
    pub = GAME.view(s, None)
    assert "hand" not in pub and "deck" not in pub
    assert [p["hand_size"] for p in pub["player_info"]] == [6, 6, 6, 6]
    dumped = json.dumps(pub)
    assert '"hands"' not in dumped
    mine = GAME.view(s, 1)
    assert [c["id"] for c in mine["hand"]] == s["hands"][1]
    assert len(pub["display"]) == 7


def test_explanations_are_precise() -> None:
    s = blank()
    give(s, 0, "R-VE")
    with pytest.raises(IllegalMove, match="not a card"):
        GAME.parse(s, 0, "Q-ZZ")
    with pytest.raises(IllegalMove, match="not your turn"):
        GAME.parse(s, 1, "withdraw")
    s["inv"][1] = s["inv"][2] = False
    s, _ = play(s, 0, "R-VE")
    s, _ = play(s, 0, "withdraw")
    with pytest.raises(IllegalMove, match="Place your palace first"):
        GAME.parse(s, 0, "R-VE")
    other = next(p for p in COMP.province_keys if p != GAME.province(s))
    with pytest.raises(IllegalMove, match="not in the province"):
        GAME.parse(s, 0, "palace-" + COMP.city_code(COMP.province_cities[other][0]))


def test_moves_have_short_unique_notations_and_small_steps() -> None:
    s = blank()
    give(s, 0, *[f"{c}-{x}" for c in "RYGB" for x in ("VE", "GE", "ME", "PE", "CE", "EE")])
    give(s, 0, "W-E", "W-V", "W-G", "W-M", "W-P", "W-C", "S-2", "S-X", "S-E", "S-C")
    moves = GAME.legal_moves(s, 0)
    notes = [m.notation for m in moves]
    assert len(notes) == len(set(notes))
    assert all(len(m.notation) <= 80 and len(m.label) <= 100 for m in moves)
    firsts = {m.steps[0].key for m in moves}
    assert len(firsts) <= 25
    for f in firsts:
        seconds = {m.steps[1].key for m in moves if m.steps[0].key == f and len(m.steps) > 1}
        assert len(seconds) <= 25
        for sec in seconds:
            thirds = {m.steps[2].key for m in moves if m.steps[1:2] and m.steps[1].key == sec}
            assert len(thirds) <= 25
    for m in moves[::7]:
        assert GAME.parse(s, 0, m.notation.lower()) == m


# ----- notation and words (issue 17) -------------------------------------------------
def test_card_symbols_may_be_typed_in_any_order_and_pass_means_withdraw() -> None:
    s = blank()
    give(s, 0, "G-PC", "W-E")
    assert GAME.parse(s, 0, "G-CP").notation == "G-PC"
    assert GAME.parse(s, 0, "g-cp + w-e").notation == "G-PC+W-E"
    with pytest.raises(IllegalMove, match=r"You have no green mogul\+elephant"):
        GAME.parse(s, 0, "G-EC")  # G-CE: a real card, just not in this hand
    assert GAME.parse(s, 0, "pass").notation == "withdraw"
    s["inv"][1] = s["inv"][2] = False
    show(s, "R-VE", "R-GE")
    s, _ = play(s, 0, "G-PC")
    s, _ = play(s, 0, "pass")
    while s["pending"]["palaces"] + s["pending"]["crown"]:
        s, _ = GAME.apply(s, 0, GAME.legal_moves(s, 0)[0])
    assert GAME.parse(s, 0, "take-r-ev").notation == "take-R-VE"
    with pytest.raises(IllegalMove, match="Take a card from the display first"):
        GAME.parse(s, 0, "pass")  # only a turn can be passed


def test_a_pair_claimed_by_the_holder_of_the_special_card_says_keeps() -> None:
    s = blank()
    s["infl"][0] = ["general"]
    s["stock"]["general"] -= 1
    give(s, 0, "R-GE", "S-E")  # seat 0 already holds the +1 Elephant card
    s, _ = play(s, 0, "R-GE")
    s, events = _end_visit_with(s)
    said = texts(events)
    assert "{p0} returned two general tiles and keeps the +1 Elephant card." in said
    assert "from {p0}" not in said
    assert s["special"]["elephant"] == 0 and s["hands"][0].count(COMP.specials["elephant"]) == 1
    conserved(s)


def test_plus_one_card_bonus_tile_shows_as_used() -> None:
    s = blank()
    card_tile = next(i for i, b in enumerate(COMP.bonus_tiles) if b.kind == "card")
    points_tile = next(i for i, b in enumerate(COMP.bonus_tiles) if b.code == "+2")
    s["btiles"][1] = [card_tile, points_tile]
    mine = GAME.view(s, None)["player_info"][1]
    assert mine["bonus_tiles"] == ["+1card", "+2"]
    assert mine["bonus_tiles_used"] == ["+1card"]


@pytest.mark.parametrize(("n", "quiet"), [(3, False), (5, False), (4, True)])
def test_apply_never_changes_a_state_it_was_given_over_a_whole_game(n: int, quiet: bool) -> None:
    """``apply`` shares with the state it was given every part the move leaves alone (a
    copy-on-write clone, for speed), so a change in place anywhere would corrupt an earlier
    state: every state of a whole game must still read as it did when it was reached. The
    same for ``next_state`` (``quiet``), the path random playouts and the search take."""
    from rules.rng import Rng

    state = GAME.setup(n, 40 + n)
    rng = Rng.from_seed(n, "no-mutation")
    seen: list[tuple[State, str]] = []
    while not state["over"]:
        seen.append((state, json.dumps(state, sort_keys=True)))
        seat = GAME.to_act(state)[0]
        move = GAME.random_move(state, seat, rng)
        state = GAME.next_state(state, seat, move) if quiet else GAME.apply(state, seat, move)[0]
    assert len(seen) > 150
    for old, dumped in seen:
        assert json.dumps(old, sort_keys=True) == dumped


def test_the_quick_legality_check_agrees_with_the_listed_moves() -> None:
    """``apply`` judges a played card by a check that lists no moves (for speed); over the
    turns of whole games it must accept exactly the notations ``legal_moves`` lists, for
    every single card and pair of cards in the hand, cards not in the hand, off-colour
    plays, malformed notations, and under the option where the last player may only
    withdraw."""
    from rules.rng import Rng

    codes = sorted({c.code for c in COMP.cards})
    checked = 0
    for n, opts in ((3, {}), (4, {"last_player_may_play": False})):
        state = GAME.setup(n, 7 + n, opts)
        rng = Rng.from_seed(n, "legality")
        while not state["over"]:
            seat = GAME.to_act(state)[0]
            if state["pending"] is None:
                legal = {m.notation for m in GAME.legal_moves(state, seat)}
                held = sorted({COMP.cards[c].code for c in state["hands"][seat]})
                others = [codes[rng.below(len(codes))] for _ in range(3)]
                notes = ["withdraw", "take-x", "palace-x", "", "+"]
                notes += [a for a in held + others]
                notes += [f"{a}+{b}" for a in held + others for b in held + others]
                notes += [f"{a}+{a}+{b}" for a in held[:1] for b in held]
                for note in notes:
                    assert GAME._is_legal(state, seat, note) == (note in legal), note
                    checked += 1
            state = GAME.next_state(state, seat, GAME.random_move(state, seat, rng))
    assert checked > 5000


def test_the_cards_a_play_finds_are_the_first_copies_in_the_hand() -> None:
    """``apply`` takes the cards to play from what its legality check found
    (``_turn_play_ids``) instead of looking them up again: for every legal play of whole
    games (locked and unlocked colours, the colour change) they must be the first copies
    of the move's codes in the hand, the cards the old lookup removed."""
    from rules.rng import Rng
    from rules.taj_mahal.moves import turn_play_ids as _turn_play_ids

    checked = 0
    for n in (3, 5):
        state = GAME.setup(n, 70 + n)
        rng = Rng.from_seed(n, "play-ids")
        while not state["over"]:
            seat = GAME.to_act(state)[0]
            if state["pending"] is None:
                hand = state["hands"][seat]
                for move in GAME.legal_moves(state, seat)[1:]:  # every play (not withdraw)
                    want = [
                        next(c for c in hand if COMP.cards[c].code == code)
                        for code in move.notation.split("+")
                    ]
                    got = _turn_play_ids(state["lock"][seat], hand, move.notation)
                    assert got is not None and [c for c in got if c is not None] == want
                    checked += 1
            state = GAME.next_state(state, seat, GAME.random_move(state, seat, rng))
    assert checked > 1000


@pytest.mark.parametrize(
    ("n", "opts"),
    [(3, {}), (5, {}), (4, {"last_player_may_play": False, "palace_per_influence_tile": False})],
)
def test_random_move_is_the_uniform_choice_in_every_phase(n: int, opts: dict) -> None:
    """``random_move`` builds only the move it draws (a turn's play from counts, a palace,
    crown or display pick from the cities or cards it is about): at every decision of whole
    games, from several generator states, it must return ``rng.choice(legal_moves)`` and
    leave the generator where that leaves it, in every phase and with a colour lock and
    without."""
    from rules.rng import Rng

    met: set[str] = set()
    for seed in range(2):
        state = GAME.setup(n, 90 + seed, opts)
        picker = Rng.from_seed(seed, "uniform-every-phase")
        i = 0
        while not state["over"]:
            seat = GAME.to_act(state)[0]
            phase = GAME._phase(state)
            if phase == "turn":
                phase += " locked" if state["lock"][seat] is not None else " free"
            met.add(phase)
            legal = GAME.legal_moves(state, seat)
            for k in range(4):
                fast = Rng.from_seed(i, f"fast{k}")
                slow = Rng.from_seed(i, f"fast{k}")
                assert GAME.random_move(state, seat, fast) == slow.choice(legal)
                assert fast.state == slow.state
            i += 1
            state = GAME.next_state(state, seat, GAME.random_move(state, seat, picker))
    assert met == {"turn free", "turn locked", "palace", "crown", "pick"}
