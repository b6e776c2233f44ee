"""Pastiche computer-player hooks (rules/pastiche/ai.py): the determinizer rebuilds a legal
state from a seat's view without peeking, candidates are a small legal subset that keeps the
obvious moves, the rollout policy plays legal, finite games, and a greedy player over
``evaluate`` beats random play.

States come from real games played by a mix of the rollout policy and uniformly random
moves (random moves make trade offers, so open offers and answers are met too)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator

import pytest

from rules.ai.hooks import ai_for
from rules.ai.search import rollout
from rules.base import Move, State
from rules.pastiche import GAME
from rules.pastiche import board as bd
from rules.pastiche import moves as mv
from rules.pastiche import scoring as sc
from rules.pastiche.ai import AI, ROLLOUT_ROUNDS
from rules.pastiche.data import load
from rules.rng import Rng
from tests.ai_helpers import pastiche_variant

DATA = load()
#: State keys holding what some seat cannot see (checked per player below).
HIDDEN = {"rng", "supply", "deck", "players"}

Policy = Callable[[State, int, Rng], Move]


def random_policy(state: State, seat: int, rng: Rng) -> Move:
    return GAME.random_move(state, seat, rng)


def mixed_policy(state: State, seat: int, rng: Rng) -> Move:
    """Mostly the rollout policy, one move in four uniformly random."""
    if rng.below(4) == 0:
        return GAME.random_move(state, seat, rng)
    return AI.rollout_move(GAME, state, seat, rng)


def play(n: int, seed: int, policies: dict[int, Policy], default: Policy) -> Iterator[State]:
    """Yield every state of one game, the final one included."""
    state = GAME.setup(n, seed)
    rng = Rng.from_seed(seed, "test-ai")
    yield state
    for _ in range(5000):
        if state["over"]:
            return
        seats = GAME.to_act(state)
        seat = seats[rng.below(len(seats))]
        move = policies.get(seat, default)(state, seat, rng)
        state, _ = GAME.apply(state, seat, move)
        yield state
    raise AssertionError("the game did not end")


def sampled_states() -> list[State]:
    out = []
    for n, seed in ((2, 1), (3, 2), (4, 3)):
        for i, state in enumerate(play(n, seed, {}, mixed_policy)):
            if i % 5 == 0 or state["deals"]:
                out.append(state)
    return out


STATES = sampled_states()


def test_the_hooks_are_found_by_convention() -> None:
    assert ai_for(GAME) is AI


def test_determinized_states_show_the_seat_exactly_its_view() -> None:
    """Exact for every running game; once it is over the view's final outcome lists every
    hand's usable points, which the determinizer does not rebuild (nothing is decided then)."""
    checked = 0
    for k, state in enumerate(STATES):
        if state["over"]:
            continue
        for seat in range(state["n"]):
            view = GAME.view(state, seat)
            det = AI.determinize(GAME, view, seat, Rng(k * 5 + seat))
            assert GAME.view(det, seat) == view
            for key in state.keys() - HIDDEN:
                assert det[key] == state[key], key
            for o, (real, got) in enumerate(zip(state["players"], det["players"], strict=True)):
                assert got["hexes"] == real["hexes"] and got["done"] == real["done"]
                assert sum(got["cards"].values()) == sum(real["cards"].values())
                assert len(got["hand"]) == len(real["hand"])
                if o == seat:
                    assert got == real

            # the same palette cards, commissions and hexes exist as in the real state
            def box(s: State) -> tuple[Counter[str], Counter[str], Counter[str]]:
                cards: Counter[str] = Counter(s["bank"])
                comms: Counter[str] = Counter(s["deck"] + s["gallery"])
                hexes: Counter[str] = Counter(s["supply"] + [h[0] for h in s["board"].values()])
                for p in s["players"]:
                    cards.update(p["cards"])
                    comms.update(p["hand"] + p["done"])
                    hexes.update(h for h in p["hexes"] if h is not None)
                return cards, comms, hexes

            assert box(det) == box(state)
            checked += 1
    assert checked > 150


def test_determinized_states_play_on_to_the_end() -> None:
    for k, state in enumerate(STATES[::20]):
        if state["over"]:
            continue
        seat = GAME.to_act(state)[0]
        det = AI.determinize(GAME, GAME.view(state, seat), seat, Rng(k))
        rng = Rng(1000 + k)
        for _ in range(3000):
            if det["over"]:
                break
            seats = GAME.to_act(det)
            who = seats[rng.below(len(seats))]
            det, _ = GAME.apply(det, who, AI.rollout_move(GAME, det, who, rng))
        assert GAME.outcome(det) is not None


def test_different_samples_differ_only_in_what_is_hidden() -> None:
    state = STATES[len(STATES) // 5]
    view = GAME.view(state, 0)
    a = AI.determinize(GAME, view, 0, Rng(1))
    b = AI.determinize(GAME, view, 0, Rng(2))
    assert a["players"][0] == b["players"][0]
    assert [p["hand"] for p in a["players"][1:]] != [p["hand"] for p in b["players"][1:]]
    assert a["supply"] != b["supply"]
    assert GAME.view(a, 0) == GAME.view(b, 0) == view


def test_determinize_ignores_what_the_seat_cannot_see() -> None:
    tried = 0
    for k, state in enumerate(STATES[::7]):
        if state["over"]:
            continue
        for seat in range(state["n"]):
            other = pastiche_variant(state, seat, Rng(77 + k))
            view = GAME.view(state, seat)
            assert GAME.view(other, seat) == view
            if other["players"] != state["players"]:
                tried += 1
            a = AI.determinize(GAME, view, seat, Rng(3))
            b = AI.determinize(GAME, GAME.view(other, seat), seat, Rng(3))
            assert a == b
    assert tried > 20


def test_candidates_are_few_legal_moves() -> None:
    placements = 0
    for state in STATES[::3]:
        for seat in GAME.to_act(state):
            legal = GAME.legal_moves(state, seat)
            moves = AI.candidates(GAME, state, seat)
            assert moves and set(moves) <= set(legal)
            assert len(moves) <= 16
            if state["phase"] == "place" and seat == state["cur"] and not state["deals"]:
                placements += 1
                assert len(legal) > 3 * len(moves)
    assert placements >= 8


def completable_position() -> tuple[State, str, str]:
    """Seat 0 to place, holding every colour of a hand commission but one, which a legal
    placement mixes (and which is not the most valuable card on offer)."""
    for seed in range(1, 40):
        state = GAME.setup(2, seed)
        seat = state["cur"]
        yields: Counter[str] = Counter()
        for hex_id in state["players"][seat]["hexes"]:
            hx = DATA.hexes[hex_id]
            for q, r in state["spots"]:
                others = bd.dabs_at(state["board"], (q, r))
                for _rot, corners in mv.distinct_rotations(hx.corners):
                    yields.update(set(bd.placement_yield(corners, others)))
        for colour, _ in yields.most_common():
            cid = next((c for c in state["deck"] if colour in DATA.commissions[c].palette), None)
            if cid is None:
                continue
            p = state["players"][seat]
            state["deck"].remove(cid)
            state["deck"].append(p["hand"][0])
            p["hand"][0] = cid
            for c in DATA.commissions[cid].palette:
                if c != colour and p["cards"][c] == 0:
                    p["cards"][c] += 1
                    state["bank"][c] -= 1
            if p["cards"][colour] == 0:
                return state, cid, colour
    raise AssertionError("no position found")


def test_candidates_keep_the_placement_that_completes_a_commission() -> None:
    state, cid, colour = completable_position()
    seat = state["cur"]
    moves = AI.candidates(GAME, state, seat)
    giving = [m for m in moves if colour in m.label.split("→")[-1]]
    assert giving, [m.label for m in moves]
    after, _ = GAME.apply(state, seat, giving[0])
    assert f"complete {cid}" in {m.notation for m in AI.candidates(GAME, after, seat)}
    # the rollout policy takes the card and completes the painting too
    move = AI.rollout_move(GAME, state, seat, Rng(4))
    after, _ = GAME.apply(state, seat, move)
    assert after["players"][seat]["cards"][colour] > 0
    assert AI.rollout_move(GAME, after, seat, Rng(4)).notation == f"complete {cid}"


@pytest.mark.parametrize("n", [2, 3, 4])
def test_rollout_games_are_legal_and_finish(n: int) -> None:
    for step, state in enumerate(play(n, 50 + n, {}, mixed_policy)):
        if state["over"]:
            break
        for seat in GAME.to_act(state):
            move = AI.rollout_move(GAME, state, seat, Rng(step))
            assert move.notation in {m.notation for m in GAME.legal_moves(state, seat)}
    assert state["over"]
    # the policy alone never trades endlessly: a whole game is a few moves per turn
    alone = list(play(n, 60 + n, {}, lambda s, seat, r: AI.rollout_move(GAME, s, seat, r)))
    turns = sum(alone[-1]["turns"])
    assert alone[-1]["over"] and len(alone) < 5 * turns


def test_a_search_rollout_stops_after_two_rounds_and_is_scored_by_evaluate(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The search's own rollout (``rules.ai.search.rollout``) hands the state to ``evaluate``
    once every player has had two more turns, or earlier at the game's end; rollouts to
    the end of the game were noise that decided normal's moves (rules/pastiche/ai.py)."""
    scored: list[State] = []
    real = AI.evaluate

    def spy(game: object, state: State) -> list[float] | None:
        scored.append(state)
        return real(GAME, state)

    monkeypatch.setattr(AI, "evaluate", spy)
    cut = ended = 0
    for k, start in enumerate(STATES):
        if start["over"]:
            continue
        scored.clear()
        rewards = rollout(GAME, AI, start, Rng(k))
        assert len(rewards) == start["n"] and all(0.0 <= r <= 1.0 for r in rewards)
        if scored:  # cut off: exactly two rounds later, the game still running
            turns = sum(scored[-1]["turns"]) - sum(start["turns"])
            assert turns == ROLLOUT_ROUNDS * start["n"] and not scored[-1]["over"]
            cut += 1
        else:  # the game ended within the two rounds (outcome scores it, not evaluate)
            ended += 1
    assert cut > 20 and ended > 0  # both paths were exercised


def greedy(state: State, seat: int, rng: Rng) -> Move:
    """A stand-in for the search: one determinization, one ply, best ``evaluate`` margin
    (ending the turn wins ties, so the greedy player never dithers)."""
    det = AI.determinize(GAME, GAME.view(state, seat), seat, rng)
    best: tuple[float, Move] | None = None
    for move in AI.candidates(GAME, det, seat):
        after, _ = GAME.apply(det, seat, move)
        e = AI.evaluate(GAME, after)
        assert e is not None
        margin = e[seat] - max(x for o, x in enumerate(e) if o != seat)
        margin += 0.5 if move.notation.startswith("end") else 0.0
        if best is None or margin > best[0]:
            best = (margin, move)
    assert best is not None
    return best[1]


def test_greedy_over_evaluate_beats_random_play() -> None:
    wins = 0
    for g in range(4):
        seat = g % 2
        *_, final = play(2, 50 + g, {seat: greedy}, random_policy)
        outcome = GAME.outcome(final)
        assert outcome is not None
        wins += outcome.ranks[seat] == 1
    assert wins == 4


def test_explain_says_what_a_move_earns() -> None:
    state, cid, colour = completable_position()
    seat = state["cur"]
    view = GAME.view(state, seat)
    move = next(m for m in AI.candidates(GAME, state, seat) if colour in m.label.split("→")[-1])
    text = AI.explain(GAME, view, seat, move, 0.7)
    assert colour in text and DATA.commissions[cid].title in text and "70%" in text
    after, _ = GAME.apply(state, seat, move)
    done = GAME.parse(after, seat, f"complete {cid}")
    text = AI.explain(GAME, GAME.view(after, seat), seat, done, 0.9)
    assert text.startswith(f"completes {DATA.commissions[cid].title}")
    assert f"+{DATA.commissions[cid].points}" in text


def test_candidates_from_a_sample_are_legal_in_the_real_game() -> None:
    """The search picks its move in a sampled state: it must be a move of the real one,
    whatever the sample dealt to the others."""
    for k, state in enumerate(STATES[::4]):
        for seat in GAME.to_act(state):
            det = AI.determinize(GAME, GAME.view(state, seat), seat, Rng(k))
            assert AI.candidates(GAME, det, seat) == AI.candidates(GAME, state, seat)


def _move_commission(state: State, cid: str, to: list[str], slot: int) -> None:
    """Put commission ``cid`` at ``to[slot]``, and the one there where ``cid`` was, so every
    commission stays in exactly one place."""
    places = [state["deck"], state["gallery"]] + [p["hand"] for p in state["players"]]
    source = next(place for place in places if cid in place)
    i = source.index(cid)
    source[i], to[slot] = to[slot], cid


def _holding(state: State, seat: int, hand: list[str], cards: list[str]) -> State:
    """``state`` with ``seat`` holding these commissions and exactly these palette cards
    (the bank gives and takes the difference)."""
    p = state["players"][seat]
    for slot, cid in enumerate(hand):
        _move_commission(state, cid, p["hand"], slot)
    for colour, k in list(p["cards"].items()):
        state["bank"][colour] += k
        p["cards"][colour] = 0
    for colour in cards:
        state["bank"][colour] -= 1
        p["cards"][colour] += 1
    return state


def test_a_held_white_counts_as_more_progress_than_two_hex_colours() -> None:
    """White comes only from the bank, for three identical cards; amber and green come from
    hexes. Holding the white of Luncheon of the Boating Party (white, blue, vermilion,
    amber, green, black) is worth more than holding its amber and green, though both hands
    are worth the same at the final count (3 points of usable cards)."""
    values = {}
    for name, cards in (("white", ["white"]), ("amber+green", ["amber", "green"])):
        state = GAME.setup(2, 7)
        seat = state["cur"]
        state = _holding(state, seat, ["P11", "P28"], cards)
        p = state["players"][seat]
        assert sc.breakdown(p["done"], p["hand"], p["cards"]).total == 3
        value = AI.evaluate(GAME, state)
        assert value is not None
        values[name] = value[seat]
    assert values["white"] > values["amber+green"]


def test_a_commission_short_of_dear_colours_is_exchanged() -> None:
    """The Fifer (red, black, white, gray) held with its red and black lacks two colours, as
    Mont Sainte-Victoire (green, olive, teal, violet, amber) does with three of its five;
    but white and gray cost nine cards at the bank, violet and amber two from the hexes.
    The computer player offers to exchange the first for the second, and a hint still
    counts colours."""
    state = GAME.setup(2, 7)
    seat = state["cur"]
    place = next(m for m in GAME.legal_moves(state, seat) if m.notation.startswith("h"))
    state, _ = GAME.apply(state, seat, place)
    assert state["phase"] == "trade"
    state = _holding(state, seat, ["P05", "P28"], ["red", "black", "green", "olive", "teal"])
    _move_commission(state, "P32", state["gallery"], 0)
    notations = {m.notation for m in AI.candidates(GAME, state, seat)}
    assert "swap P05 for P32" in notations
    swap = next(m for m in GAME.legal_moves(state, seat) if m.notation == "swap P05 for P32")
    text = AI.explain(GAME, GAME.view(state, seat), seat, swap, 0.6)
    assert "lacks 2" in text and text.count("lacks 2") == 2
