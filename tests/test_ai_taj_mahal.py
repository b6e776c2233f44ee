"""Taj Mahal computer-player hooks (rules/taj_mahal/ai.py): the determinizer rebuilds a legal
state from a seat's view without peeking, the rollout policy plays legal, finite games, and a
greedy player over ``evaluate`` beats random play.

States come from real games (random or policy playouts), sampled along the way, so every
phase (turns, palaces, crowns, display picks, reshuffles) is met."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator

import pytest

from rules.ai.hooks import ai_for
from rules.base import Move, State
from rules.rng import Rng
from rules.taj_mahal import GAME
from rules.taj_mahal.ai import AI
from rules.taj_mahal.components import components
from rules.taj_mahal.scoring import majority_wins, symbol_counts
from tests.ai_helpers import taj_mahal_variant

COMP = components()
#: State keys the seat cannot see (besides the other hands): sampled by the determinizer.
HIDDEN = {"hands", "deck", "rng", "bonus", "btiles", "pending"}

Policy = Callable[[State, int, Rng], Move]


def random_policy(state: State, seat: int, rng: Rng) -> Move:
    return GAME.random_move(state, seat, rng)


def rollout_policy(state: State, seat: int, rng: Rng) -> Move:
    return AI.rollout_move(GAME, state, seat, rng)


def play(n: int, seed: int, policies: dict[int, Policy], default: Policy) -> Iterator[State]:
    """Yield every state of one game, the final one included."""
    state = GAME.setup(n, seed)
    rng = Rng.from_seed(seed, "test-ai")
    yield state
    while not state["over"]:
        seat = GAME.to_act(state)[0]
        move = policies.get(seat, default)(state, seat, rng)
        state, _ = GAME.apply(state, seat, move)
        yield state


def sampled_states(every: int = 7) -> list[State]:
    out = []
    for n, seed in ((3, 1), (4, 2), (5, 3)):
        for i, state in enumerate(play(n, seed, {}, random_policy)):
            if i % every == 0 or state["pending"] is not None and i % 3 == 0:
                out.append(state)
    return out


STATES = sampled_states()


def test_the_hooks_are_found_by_convention() -> None:
    assert ai_for(GAME) is AI


def test_determinized_states_show_the_seat_exactly_its_view() -> None:
    checked = 0
    for k, state in enumerate(STATES):
        if state["over"]:
            continue
        for seat in range(state["n"]):
            view = GAME.view(state, seat)
            det = AI.determinize(GAME, view, seat, Rng(k * 7 + seat))
            assert GAME.view(det, seat) == view
            # everything public is the real thing, down to the withdrawal bookkeeping
            for key in state.keys() - HIDDEN:
                assert det[key] == state[key], key
            if state["pending"] is not None:
                real, got = dict(state["pending"]), dict(det["pending"])
                real["placed"], got["placed"] = sorted(real["placed"]), sorted(got["placed"])
                assert got == real

            # the same cards exist, the seat's hand as it is, the others' in their sizes
            def cards(s: State) -> Counter[int]:
                c: Counter[int] = Counter(s["deck"] + s["discard"] + s["display"])
                for h in s["hands"] + s["played"]:
                    c.update(h)
                return c

            assert cards(det) == cards(state)
            assert det["hands"][seat] == state["hands"][seat]
            assert [len(h) for h in det["hands"]] == [len(h) for h in state["hands"]]
            assert len(det["deck"]) == len(state["deck"])
            checked += 1
    assert checked > 300


def test_determinized_states_play_on_to_the_end() -> None:
    for k, state in enumerate(STATES[::25]):
        if state["over"]:
            continue
        seat = GAME.to_act(state)[0]
        det = AI.determinize(GAME, GAME.view(state, seat), seat, Rng(k))
        assert {m.notation for m in GAME.legal_moves(det, seat)} == {
            m.notation for m in GAME.legal_moves(state, seat)
        }
        rng = Rng(1000 + k)
        for _ in range(2000):
            if det["over"]:
                break
            who = GAME.to_act(det)[0]
            det, _ = GAME.apply(det, who, GAME.random_move(det, who, rng))
        assert GAME.outcome(det) is not None


def test_different_samples_differ_only_in_what_is_hidden() -> None:
    state = STATES[len(STATES) // 4]
    view = GAME.view(state, 0)
    a = AI.determinize(GAME, view, 0, Rng(1))
    b = AI.determinize(GAME, view, 0, Rng(2))
    assert a["hands"][0] == b["hands"][0]
    assert a["hands"][1:] != b["hands"][1:]
    assert a["deck"] != b["deck"]
    assert GAME.view(a, 0) == GAME.view(b, 0) == view


def test_determinize_ignores_what_the_seat_cannot_see() -> None:
    tried = 0
    for k, state in enumerate(STATES[::9]):
        for seat in range(state["n"]):
            other = taj_mahal_variant(state, seat, Rng(99 + k))
            view = GAME.view(state, seat)
            assert GAME.view(other, seat) == view
            if other["hands"] != state["hands"]:
                tried += 1
            a = AI.determinize(GAME, view, seat, Rng(5))
            b = AI.determinize(GAME, GAME.view(other, seat), seat, Rng(5))
            assert a == b
    assert tried > 20


def test_candidates_are_the_legal_moves() -> None:
    for state in STATES[::11]:
        for seat in GAME.to_act(state):
            moves = AI.candidates(GAME, state, seat)
            assert moves and set(moves) <= set(GAME.legal_moves(state, seat))


@pytest.mark.parametrize("n", [3, 4, 5])
def test_rollout_games_are_legal_and_finish(n: int) -> None:
    steps = 0
    for state in play(n, 40 + n, {}, rollout_policy):
        steps += 1
        if state["over"]:
            break
        seat = GAME.to_act(state)[0]
        move = AI.rollout_move(GAME, state, seat, Rng(steps))
        assert move.notation in {m.notation for m in GAME.legal_moves(state, seat)}
    assert state["over"] and steps < 2000


def turn_position() -> State:
    """Visit 1, seat 0 to play: seat 1 played a red vizier+general card; seat 0 holds a
    yellow elephant+elephant, a green vizier+general, a blue general+princess and a white
    princess."""
    state = GAME.setup(3, 11)
    for seat in range(3):
        state["deck"].extend(state["hands"][seat])
        state["hands"][seat] = []
    state["played"][1] = [take(state, "R-VG")]
    state["lock"][1] = "red"
    state["acted"][1] = True
    state["hands"][0] = sorted(take(state, c) for c in ("Y-EE", "G-VG", "B-GP", "W-P"))
    for seat in (1, 2):
        state["hands"][seat] = sorted(state["deck"].pop() for _ in range(4))
    state["turn"] = 0
    return state


def take(state: State, code: str) -> int:
    cid = next(c for c in state["deck"] if COMP.cards[c].code == code)
    state["deck"].remove(cid)
    return cid


def leads(state: State, seat: int) -> list[str]:
    mine = symbol_counts(state["played"][seat], COMP)
    others = [
        symbol_counts(state["played"][o], COMP)
        for o in range(state["n"])
        if o != seat and state["inv"][o]
    ]
    return majority_wins(mine, others, state["court"])


def test_rollout_plays_for_a_prize_it_can_win_and_withdraws_when_hopeless() -> None:
    state = turn_position()
    picks = Counter(AI.rollout_move(GAME, state, 0, Rng(i)).notation for i in range(40))
    best, count = picks.most_common(1)[0]
    assert count >= 30 and best != "withdraw"
    after, _ = GAME.apply(state, 0, GAME.parse(state, 0, best))
    assert leads(after, 0)  # the card bought a prize nobody else leads
    # two viziers and a general behind, with only a vizier+general card: give up
    state["played"][1].append(take(state, "R-VC"))
    state["court"] = ["vizier", "general"]
    keep = [c for c in state["hands"][0] if COMP.cards[c].code == "G-VG"]
    state["hands"][0] = sorted([*keep, take(state, "Y-VE")])
    picks = Counter(AI.rollout_move(GAME, state, 0, Rng(i)).notation for i in range(40))
    assert picks["withdraw"] >= 30


def test_evaluate_ranks_a_won_elephant_above_nothing() -> None:
    state = turn_position()
    after, _ = GAME.apply(state, 0, GAME.parse(state, 0, "Y-EE"))
    before = AI.evaluate(GAME, state)
    now = AI.evaluate(GAME, after)
    assert before is not None and now is not None
    assert now[0] > before[0]


def test_explain_names_the_prizes_in_words() -> None:
    state = turn_position()
    view = GAME.view(state, 0)
    text = AI.explain(GAME, view, 0, GAME.parse(state, 0, "Y-EE"), 0.62)
    assert "the elephant" in text and "62%" in text
    text = AI.explain(GAME, view, 0, GAME.parse(state, 0, "withdraw"), 0.2)
    assert text.startswith("withdraw now: wins nothing")


def greedy(state: State, seat: int, rng: Rng) -> Move:
    """A stand-in for the search: one determinization, one ply, best ``evaluate`` margin."""
    det = AI.determinize(GAME, GAME.view(state, seat), seat, rng)
    best: tuple[float, Move] | None = None
    for move in AI.candidates(GAME, det, seat):
        after, _ = GAME.apply(det, seat, move)
        e = AI.evaluate(GAME, after)
        assert e is not None
        margin = e[seat] - max(x for o, x in enumerate(e) if o != seat)
        if best is None or margin > best[0]:
            best = (margin, move)
    assert best is not None
    return best[1]


def test_greedy_over_evaluate_beats_random_play() -> None:
    wins = games = 0
    for g in range(9):
        n = 3 + g % 3
        seat = g % n
        *_, final = play(n, 300 + g, {seat: greedy}, random_policy)
        outcome = GAME.outcome(final)
        assert outcome is not None
        wins += outcome.ranks[seat] == 1
        games += 1
    # random play would win about a third of these (1/3 to 1/5 per game)
    assert wins >= 6, f"greedy won {wins} of {games}"


def test_candidates_from_a_sample_are_legal_in_the_real_game() -> None:
    """The search picks its move in a sampled state: it must be a move of the real one."""
    for k, state in enumerate(STATES[::5]):
        for seat in GAME.to_act(state):
            det = AI.determinize(GAME, GAME.view(state, seat), seat, Rng(k))
            assert AI.candidates(GAME, det, seat) == AI.candidates(GAME, state, seat)


def test_rollouts_stop_at_the_end_of_the_visit_they_began_in() -> None:
    """The cut-off hands a rollout to ``evaluate`` once its visit is over (not before, not
    eleven visits later), and a search rollout from mid-visit really stops there."""
    from rules.ai.search import rollout

    states = list(play(3, 5, {}, random_policy))
    start = next(s for s in states if s["visit"] == 2 and s["pending"] is None)
    same = [s for s in states if s["visit"] == 2]
    later = [s for s in states if s["visit"] > 2]
    assert not any(AI.cutoff(GAME, start, s, 1) for s in same)
    assert all(AI.cutoff(GAME, start, s, 1) for s in later)

    reached: list[int] = []
    real = AI.evaluate

    def spy(game: object, state: State) -> list[float] | None:
        reached.append(state["visit"])
        return real(GAME, state)

    AI.evaluate = spy  # type: ignore[method-assign]
    try:
        rewards = rollout(GAME, AI, start, Rng(7))
    finally:
        del AI.evaluate
    assert reached == [3] and len(rewards) == 3
