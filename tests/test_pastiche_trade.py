"""Pastiche free trading, from the rulebook (S1): "A játékosok szabadon kereskedhetnek a
paletta kártyákkal … Azt a játékost, akinek a köre van, azt be kell vonni minden olyan
kereskedésbe" — players trade palette cards freely; the player whose turn it is must be part
of every trade. Scenarios: n-for-m, gifts, counter-offers, declines, several open offers,
expiry when the trading step ends, accepts refused against a changed hand, wrong seats, and
an active player who is never blocked."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from rules.base import IllegalMove
from rules.pastiche import GAME
from rules.pastiche import trade as tr
from tests.test_pastiche_rules import check_conservation, fresh, place_any, play, set_cards

State = dict[str, Any]


def trading(n: int = 3, seed: int = 4) -> tuple[State, int, int, int]:
    """The active player ``a`` in the trading step; ``b`` and ``c`` (if any) after them."""
    s = place_any(fresh(n, seed))
    a = s["cur"]
    b, c = (a + 1) % n, (a + 2) % n
    s = set_cards(s, a, green=2, orange=1, brown=1)
    s = set_cards(s, b, red=1, teal=1, black=1)
    if n > 2:
        s = set_cards(s, c, blue=2, white=1)
    return s, a, b, c


def cards(s: State, seat: int) -> dict[str, int]:
    return {k: v for k, v in s["players"][seat]["cards"].items() if v}


def test_the_active_player_must_be_part_of_every_trade() -> None:
    s, a, b, c = trading()
    with pytest.raises(IllegalMove, match="takes part in every trade"):
        play(s, f"offer p{c + 1} red for blue", seat=b)
    # but anyone may offer the player on turn, and they may offer anyone
    s, _ = play(s, f"offer p{a + 1} red for green", seat=b)
    s, _ = play(s, f"offer p{c + 1} orange for blue", seat=a)
    assert [(d["from"], d["to"]) for d in s["deals"]] == [(b, a), (a, c)]


def test_n_for_m_offer_accepted_moves_every_card() -> None:
    s, a, b, _ = trading()
    s, ev = play(s, f"offer p{b + 1} green+green+orange for red+teal")
    assert ev[0].kind == "offer" and ev[0].data["give"] == ["orange", "green", "green"]
    s, ev = play(s, "accept 1", seat=b)
    assert ev[0].kind == "accept"
    assert cards(s, a) == {"red": 1, "teal": 1, "brown": 1}
    assert cards(s, b) == {"orange": 1, "green": 2, "black": 1}
    assert s["deals"] == [] and GAME.to_act(s) == [a]
    check_conservation(s)


def test_gifts_both_ways_and_requests() -> None:
    s, a, b, _ = trading()
    s, _ = play(s, f"offer p{b + 1} brown for -")  # a gift from the active player
    s, _ = play(s, "accept", seat=b)  # the only offer waiting: no number needed
    assert cards(s, b)["brown"] == 1 and "brown" not in cards(s, a)
    s, _ = play(s, f"offer p{a + 1} black for -", seat=b)  # a gift to the active player
    s, _ = play(s, "accept 2")
    assert cards(s, a)["black"] == 1
    s, _ = play(s, f"offer p{a + 1} - for green", seat=b)  # asking for a gift
    s, _ = play(s, "accept 3")
    assert cards(s, b)["green"] == 1
    with pytest.raises(IllegalMove, match="at least one card"):
        play(s, f"offer p{b + 1} - for -")
    with pytest.raises(IllegalMove, match="both sides"):
        play(s, f"offer p{b + 1} green for green+red")
    check_conservation(s)


def test_counter_offer_closes_the_offer_and_opens_one_the_other_way() -> None:
    s, a, b, _ = trading()
    s, _ = play(s, f"offer p{b + 1} green for red+teal")
    s, ev = play(s, "counter 1 teal for green+orange", seat=b)
    assert [e.kind for e in ev] == ["counter", "offer"]
    assert s["deals"] == [
        {"id": 2, "from": b, "to": a, "give": ["teal"], "get": ["orange", "green"]}
    ]
    with pytest.raises(IllegalMove):
        play(s, "accept 1", seat=b)  # the countered offer is gone
    s, _ = play(s, "accept 2")
    assert cards(s, a)["teal"] == 1 and cards(s, b)["orange"] == 1
    check_conservation(s)


def test_decline_changes_nothing_but_the_offer() -> None:
    s, a, b, _ = trading()
    before = copy.deepcopy(s["players"])
    s, _ = play(s, f"offer p{b + 1} green for teal")
    s, ev = play(s, "decline 1", seat=b)
    assert s["players"] == before and s["deals"] == [] and ev[0].kind == "decline"
    assert GAME.to_act(s) == [a]


def test_several_open_offers_wait_for_several_seats() -> None:
    s, a, b, c = trading(4, 5)
    d = (a + 3) % 4
    s = set_cards(s, d, white=1)
    s, _ = play(s, f"offer p{b + 1} green for red")
    s, _ = play(s, f"offer p{c + 1} green for blue")
    s, _ = play(s, f"offer p{a + 1} white for orange", seat=d)
    assert GAME.to_act(s) == [a, b, c]  # the active player first: the clock's seat
    assert sorted(GAME.may_act(s)) == [0, 1, 2, 3]
    assert {m.notation for m in GAME.legal_moves(s, b)} >= {"accept 1", "decline 1"}
    assert "accept 3" in {m.notation for m in GAME.legal_moves(s, a)}
    assert "withdraw 3" in {m.notation for m in GAME.legal_moves(s, d)}
    with pytest.raises(IllegalMove, match="Several offers"):
        play(s, "withdraw")
    # the clock: an answering seat declines its first offer; the player on turn ends
    assert GAME.default_move(s, c).notation == "decline 2"
    assert GAME.default_move(s, a).notation == "end"
    s, _ = play(s, "accept 1", seat=b)  # a's greens: one left, offer 2 still holds
    assert [x["id"] for x in s["deals"]] == [2, 3]
    s, ev = play(s, "accept 2", seat=c)
    assert [x["id"] for x in s["deals"]] == [3] and GAME.to_act(s) == [a]
    check_conservation(s)


@pytest.mark.parametrize("leave", ["end", "swap", "complete"])
def test_every_offer_expires_when_the_trading_step_ends(leave: str) -> None:
    s, a, b, c = trading()
    s, _ = play(s, f"offer p{b + 1} green for red")
    s, _ = play(s, f"offer p{a + 1} blue for orange", seat=c)
    if leave == "end":
        text = "end"
    elif leave == "swap":
        text = f"swap {s['players'][a]['hand'][0]} for {s['gallery'][0]}"
    else:
        from tests.test_pastiche_rules import set_hand

        s = set_hand(s, a, ["P28", s["players"][a]["hand"][1]])  # L'Absinthe: gray + brown
        s = set_cards(s, a, green=2, orange=1, brown=1, gray=1)
        text = "complete P28"
    s, ev = play(s, text)
    lapse = next(e for e in ev if e.kind == "lapse")
    assert lapse.data["ids"] == [1, 2] and s["deals"] == []
    assert GAME.to_act(s) == ([a] if leave != "end" else [(a + 1) % 3])
    with pytest.raises(IllegalMove):
        play(s, "accept 1", seat=b)
    with pytest.raises(IllegalMove):
        play(s, f"offer p{a + 1} blue for orange", seat=c)


def test_accept_refused_when_the_hand_changed_and_nothing_changes() -> None:
    s, a, b, _ = trading()
    s, _ = play(s, f"offer p{b + 1} green for red")
    s, _ = play(s, f"offer p{b + 1} orange for red")
    s, _ = play(s, "accept 2", seat=b)  # b's only red is gone
    before = json.dumps(s, sort_keys=True)
    with pytest.raises(IllegalMove) as err:
        play(s, "accept 1", seat=b)
    assert "no longer hold enough red; nothing was traded" in str(err.value)
    assert json.dumps(s, sort_keys=True) == before
    assert "accept 1" not in {m.notation for m in GAME.legal_moves(s, b)}
    s, _ = play(s, "decline 1", seat=b)  # still answerable


def test_an_offer_lapses_once_its_maker_no_longer_holds_the_cards() -> None:
    s, a, b, c = trading()
    s = set_cards(s, a, green=1, red=1, orange=1)
    s, _ = play(s, f"offer p{b + 1} green for teal")
    s, _ = play(s, f"offer p{c + 1} green for blue")
    s, ev = play(s, "accept 1", seat=b)
    assert ev[-1].kind == "lapse" and ev[-1].data["ids"] == [2] and s["deals"] == []
    # a bank trade spending the offered card lapses it too
    s, _ = play(s, f"offer p{c + 1} orange for blue")
    s, ev = play(s, "bank red+orange for yellow")
    assert ev[-1].kind == "lapse" and s["deals"] == []
    check_conservation(s)


def test_strangers_and_wrong_seats_are_refused_in_words() -> None:
    s, a, b, c = trading()
    s, _ = play(s, f"offer p{b + 1} green for red")
    with pytest.raises(IllegalMove, match="not for you"):
        play(s, "accept 1", seat=c)
    with pytest.raises(IllegalMove, match="not yours"):
        play(s, "withdraw 1", seat=b)
    with pytest.raises(IllegalMove, match="No offer of yours"):
        play(s, "withdraw", seat=b)
    with pytest.raises(IllegalMove, match="not your turn"):
        play(s, "end", seat=c)
    with pytest.raises(IllegalMove, match="You hold only 0 blue"):
        play(s, f"offer p{a + 1} blue+blue+blue for red", seat=b)
    with pytest.raises(IllegalMove, match="not a palette colour"):
        play(s, f"offer p{a + 1} chartreuse for red", seat=b)
    # before the active player trades (still to place a hex), nobody else may move
    t = fresh(3, 4)
    other = (t["cur"] + 1) % 3
    assert GAME.may_act(t) == [t["cur"]] and GAME.legal_moves(t, other) == []
    with pytest.raises(IllegalMove, match="not your turn"):
        play(t, f"offer p{t['cur'] + 1} green for red", seat=other)


def test_the_active_player_is_not_blocked_while_offers_wait() -> None:
    s, a, b, c = trading()
    s = set_cards(s, a, green=4, orange=1)
    s, _ = play(s, f"offer p{b + 1} orange for red")
    s, _ = play(s, f"offer p{a + 1} blue for green", seat=c)
    notes = {m.notation for m in GAME.legal_moves(s, a)}
    assert {"end", "bank green+green+green for black"} <= notes
    s, _ = play(s, "bank green+green+green for black")  # offers still hold
    assert [d["id"] for d in s["deals"]] == [1, 2]
    s, _ = play(s, "accept 2")
    assert cards(s, a) == {"black": 1, "orange": 1, "blue": 1}
    s, ev = play(s, "end")
    assert s["cur"] == b and s["deals"] == []


def test_notation_is_compact_and_any_order_is_accepted() -> None:
    s, a, b, _ = trading()
    move = GAME.parse(s, a, f"offer p{b + 1} orange + 2green for teal+red")
    assert move.notation == f"offer p{b + 1} orange+green+green for red+teal"
    assert GAME.parse(s, a, move.notation) == move
    with pytest.raises(IllegalMove, match="at most 12"):
        play(s, f"offer p{b + 1} green for 13red")


def test_offer_moves_do_not_flood_the_move_list() -> None:
    s, a, b, c = trading(4, 5)
    s["players"][a]["hand"] = ["P28", "P23"]  # lack gray and black: something to ask for
    legal = GAME.legal_moves(s, a)
    offers = [m for m in legal if m.notation.startswith("offer")]
    assert 0 < len(offers) <= 2 * 3
    assert max(m.rank for m in offers) < min(m.rank for m in legal if m not in offers)
    assert all(m.steps[0].key == "offer" for m in offers)  # grouped under one step
    for m in offers:
        assert GAME.parse(s, a, m.notation) == m
    # anything else is accepted by typing it
    GAME.parse(s, a, f"offer p{b + 1} green+brown for red+teal+black")
    # other seats see answers and a few offers to the player on turn, nothing else
    for seat in (b, c):
        assert all(m.notation.startswith("offer p") for m in GAME.legal_moves(s, seat))


def test_offers_per_seat_per_turn_are_capped() -> None:
    s, a, b, _ = trading()
    for i in range(3):
        s, _ = play(s, f"offer p{a + 1} red for green", seat=b)
        s, _ = play(s, f"withdraw {i + 1}", seat=b)
    with pytest.raises(IllegalMove, match="3 offers allowed"):
        play(s, f"offer p{a + 1} red for green", seat=b)
    s, _ = play(s, f"offer p{b + 1} green for red")  # the others keep their own count
    with pytest.raises(IllegalMove, match="already made that offer"):
        play(s, f"offer p{b + 1} green for red")


def test_offers_are_public_in_the_view_and_status() -> None:
    s, a, b, _ = trading()
    s, _ = play(s, f"offer p{b + 1} green+green for red")
    pub = GAME.view(s, None)
    assert pub["offers"] == [
        {"id": 1, "from": a, "to": b, "give": ["green", "green"], "get": ["red"]}
    ]
    assert "offer 1" in GAME.status(s) and "2 green for red" in GAME.status(s)


def test_suggested_answers_are_sensible() -> None:
    s, a, b, _ = trading()
    s["players"][b]["hand"] = ["P28", "P23"]  # b needs gray, brown, black
    s, _ = play(s, f"offer p{b + 1} brown for teal")  # brings a lacking colour for a spare
    assert tr.answer(s, b, s["deals"][0]) == "accept"
    s, _ = play(s, f"offer p{b + 1} green for black")  # takes b's needed black for a spare
    assert tr.answer(s, b, s["deals"][1]) == "decline"


# ----- computer players -----------------------------------------------------------------------
def test_computer_answers_from_its_own_view_and_counters_sensibly() -> None:
    from rules.pastiche.ai import AI
    from rules.rng import Rng

    s, a, b, c = trading()
    s["players"][b]["hand"] = ["P28", "P23"]  # b needs gray, brown, black
    s = set_cards(s, a, green=2, orange=1, brown=1, gray=1)
    s = set_cards(s, b, red=1, teal=1, black=1, orange=2)
    s, _ = play(s, f"offer p{b + 1} orange for teal")  # worth 1 for 2: declined
    assert [m.notation for m in AI.candidates(GAME, s, b)] == ["decline 1"]
    s, _ = play(s, f"offer p{b + 1} green+orange for teal")  # value for value: accepted
    assert [m.notation for m in AI.candidates(GAME, s, b)] == ["decline 1"]  # oldest first
    s, _ = play(s, "decline 1", seat=b)
    assert [m.notation for m in AI.candidates(GAME, s, b)] == ["accept 2"]
    s, _ = play(s, "accept 2", seat=b)
    s, _ = play(s, f"offer p{b + 1} brown for black")  # brings brown, takes the needed black
    (answer,) = AI.candidates(GAME, s, b)
    assert answer.notation.startswith("counter 3 ") and answer.notation.endswith(" for brown")
    assert answer in GAME.legal_moves(s, b)
    # the same decision from any sample of what b cannot see: no peeking
    view = GAME.view(s, b)
    for k in range(5):
        det = AI.determinize(GAME, view, b, Rng(k))
        assert det["players"][a]["cards"]["brown"] >= 1  # an open offer's cards are known
        assert AI.candidates(GAME, det, b) == [answer]
    s, _ = play(s, answer.notation, seat=b)
    assert s["deals"][-1]["from"] == b and s["deals"][-1]["to"] == a


def test_computer_on_turn_makes_a_sensible_legal_offer() -> None:
    from rules.pastiche.ai import AI

    s, a, b, c = trading()
    s["players"][a]["hand"] = ["P28", "P23"]  # lacks gray, black
    s = set_cards(s, a, green=3, orange=3, purple=2)
    offers = [m for m in AI.candidates(GAME, s, a) if m.notation.startswith("offer")]
    assert len(offers) == 1 and offers[0] in GAME.legal_moves(s, a)
    give, get = offers[0].notation.split(" ", 2)[2].split(" for ")
    assert get in ("gray", "black")  # asks for a colour its commissions lack
    value = {"green": 1, "orange": 1, "purple": 1}
    assert sum(value[x] for x in give.split("+")) >= 3  # pays a fair price in spare cards


def test_computer_makes_one_offer_a_turn_however_it_was_answered() -> None:
    """After a declined offer the position is the same but for the offer count, so the search
    could list the same offer again; a person would be asked the same thing up to three
    times."""
    from rules.pastiche.ai import AI

    s, a, b, c = trading()
    s["players"][a]["hand"] = ["P28", "P23"]  # lacks gray, black
    s = set_cards(s, a, green=3, orange=3, purple=2)
    (offer,) = [m for m in AI.candidates(GAME, s, a) if m.notation.startswith("offer")]
    s, _ = play(s, offer.notation, seat=a)
    answerer = s["deals"][-1]["to"]
    s, _ = play(s, f"decline {s['deals'][-1]['id']}", seat=answerer)
    assert s["deals"] == [] and s["made"][a] == 1
    assert offer.notation in {m.notation for m in tr.suggested_offers(s, a)}  # rules allow it
    after = AI.candidates(GAME, s, a)
    assert after and not [m for m in after if m.notation.startswith("offer")]


def test_the_search_answers_an_offer_before_its_maker_moves_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In the search's simulated games the offered player answers first, as the bot's driver
    lets them (``Game.waits_for``): the offer is judged by its answer, not by expiring when
    its maker ends the turn a move later."""
    from rules.ai.search import search
    from rules.pastiche.ai import AI
    from rules.rng import Rng

    s, a, b, c = trading()
    s["players"][a]["hand"] = ["P28", "P23"]  # lacks gray, black: the search lists an offer
    s = set_cards(s, a, green=3, orange=3, purple=2)
    root = AI.candidates(GAME, s, a)
    assert [m for m in root if m.notation.startswith("offer")]
    calls: list[tuple[int, bool]] = []  # (mover, whether the mover's own offer is open)
    answered: list[int] = []  # seats that answered an offer in a simulated game
    real = AI.rollout_move

    def spy(game: object, state: State, seat: int, rng: Rng) -> Any:
        calls.append((seat, any(d["from"] == seat for d in state["deals"])))
        if state["deals"] and seat != state["cur"]:
            answered.append(seat)
        return real(GAME, state, seat, rng)

    monkeypatch.setattr(AI, "rollout_move", spy)
    search(GAME, AI, GAME.view(s, a), a, Rng(1), iterations=3 * len(root))
    assert answered  # an offer was simulated and answered
    assert not [seat for seat, own_offer_open in calls if own_offer_open]


def test_those_who_owe_an_answer_come_before_the_player_on_turn() -> None:
    """The player on turn has an offer open and owes an answer to another's: the game waits
    for both, the answering player first. ``waits_for`` is the one place that order is
    written (the bot's driver, the search and the arena move seats in it), so an answer
    lands before the turn moves on."""
    s, a, b, c = trading()
    s, _ = play(s, f"offer p{c + 1} orange for blue")  # a, on turn, offers c
    s, _ = play(s, f"offer p{a + 1} red for green", seat=b)  # b offers a
    assert set(GAME.to_act(s)) == {a, c}
    assert GAME.waits_for(s) == [c, a]
    s, _ = play(s, f"decline {s['deals'][-1]['id']}")  # a answers b: a now only waits
    assert GAME.waits_for(s) == [c]
    s, _ = play(s, f"decline {s['deals'][0]['id']}", seat=c)
    assert GAME.waits_for(s) == [a]


# ----- the picture ------------------------------------------------------------------------------
def test_open_offers_show_in_the_public_picture() -> None:
    from render.pastiche import draw
    from render.pastiche.public import _offers

    s, a, b, c = trading()
    names = ["Ann", "Ben", "Cy"]
    plain = draw(GAME.view(s, None), names, None)
    s, _ = play(s, f"offer p{b + 1} green+green+orange for red+teal")
    s, _ = play(s, f"offer p{a + 1} blue for -", seat=c)
    view = GAME.view(s, None)
    assert "me" not in view  # offers are public; hands are not
    shown = draw(view, names, None)
    assert shown.height > plain.height  # the offers take room in the right column
    # every offer is drawn, one block each
    from PIL import Image, ImageDraw

    scratch = ImageDraw.Draw(Image.new("RGB", (600, 900)))
    one = _offers(scratch, 0, 0, 500, {"offers": view["offers"][:1]}, names, "en")
    two = _offers(scratch, 0, 0, 500, {"offers": view["offers"]}, names, "en")
    assert two > one > 30


def test_big_offers_read_in_one_line() -> None:
    s, a, b, _ = trading()
    s = set_cards(s, a, green=6, orange=4, brown=2)
    move = GAME.parse(s, a, f"offer p{b + 1} 6green+4orange+2brown for red+teal+black+white")
    assert "4 orange + 6 green + 2 brown" in move.label and len(move.label) <= 100
    # counts typed right after a number still read right
    s, _ = play(s, move.notation)
    counter = GAME.parse(s, b, "counter 1 1teal for 2 green")
    assert counter.notation == "counter 1 teal for green+green"
