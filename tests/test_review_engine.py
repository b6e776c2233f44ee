"""The post-game review's engine (rules/ai/review.py): honest verdicts in every game.

Planted blunders: in each game a position where one move is clearly worse by the rules' own
scoring; the review must call it a mistake or a blunder with a real loss beyond its noise, and
call the clearly good move best (or fine). Small budgets: each judgement takes a fraction of a
CPU second. The positions come from fixed seeds and easy-level play (deterministic: the easy
level of games with an evaluation reads no clock).
"""

from __future__ import annotations

import pytest

from rules.ai import choose_move
from rules.ai.review import (
    LOSSES,
    VERDICTS,
    Judgement,
    average_loss,
    budget_for,
    judge,
    judge_decision,
    moments,
    z_for,
)
from rules.base import Game, IllegalMove, View
from rules.registry import get_game
from rules.words import Msg, from_json
from tests.hookless.games import OPEN_PILE

BUDGET = 0.3


def position(game_id: str, players: int, seed: int, plies: int) -> tuple[Game, View, int]:
    """The view of the seat to act after ``plies`` easy moves from ``seed``'s setup."""
    game = get_game(game_id)
    state = game.setup(players, seed)
    for i in range(plies):
        seat = game.waits_for(state)[0]
        move = choose_move(game, game.view(state, seat), seat, "easy", seed=i)
        state, _ = game.apply(state, seat, move)
    seat = game.waits_for(state)[0]
    return game, game.view(state, seat), seat


#: (game, players, seed, easy plies, the blunder, the clearly better move, why)
PLANTED = [
    # Three yellow from the centre to the floor with the first-player marker: four floor
    # spaces cost 1+1+2+2 points and fill nothing, while factory 4's blue fill line 3.
    ("azul", 2, 4, 2, "C-Y-F", "F4-B-3"),
    # Placing the palace: a free city with no road to the player's palaces, against the
    # city that takes the spice tile (goods count at every elephant visit).
    ("taj-mahal", 3, 2, 70, "palace-gujarat-w", "palace-gujarat-s"),
    # The two-player worker choice: moving a worker off its tile (its old group shrinks)
    # instead of a new worker of the other colour, 4 gold less by the rules' own count.
    # (A pass is no move by the rulebook's reading: a refresh needs a face-down marker.)
    ("maharani", 2, 3, 40, "move1", "new2"),
    # The Sistine Madonna can be completed now (12 points); trading its red and white to
    # the bank breaks it for a blue nobody needs.
    ("pastiche", 2, 2, 15, "bank red+white for blue", "complete P20"),
]


@pytest.mark.parametrize(("game_id", "players", "seed", "plies", "blunder", "better"), PLANTED)
def test_a_planted_blunder_is_found_and_the_good_move_called_good(
    game_id: str, players: int, seed: int, plies: int, blunder: str, better: str
) -> None:
    game, view, seat = position(game_id, players, seed, plies)
    bad = judge(game, view, seat, blunder, seed=11, budget_s=BUDGET)
    assert bad.verdict in ("mistake", "blunder"), bad
    assert bad.loss > 2.0 and bad.loss > 2 * bad.noise
    assert bad.confidence > 0.97
    assert bad.best != blunder and bad.best == bad.top
    assert not bad.forced and bad.candidates >= 2
    good = judge(game, view, seat, better, seed=11, budget_s=BUDGET)
    assert good.verdict in ("best", "fine"), good
    assert good.loss == 0.0 and good.best == better
    # the reasons are the game's own explanations, as stored messages
    assert isinstance(from_json(bad.reason), Msg) and isinstance(from_json(bad.played_reason), Msg)


def test_a_verdict_is_the_same_for_the_same_seed() -> None:
    game, view, seat = position("pastiche", 2, 2, 15)
    first = judge(game, view, seat, "end", seed=5, budget_s=0.1).to_json()
    assert judge(game, view, seat, "end", seed=5, budget_s=0.1).to_json() == first
    game, view, seat = position("taj-mahal", 3, 2, 70)
    first = judge(game, view, seat, "palace-gujarat-n", seed=5, budget_s=0.1).to_json()
    assert judge(game, view, seat, "palace-gujarat-n", seed=5, budget_s=0.1).to_json() == first


def test_a_forced_move_is_no_decision() -> None:
    game = get_game("taj-mahal")
    game, view, seat = position("taj-mahal", 3, 2, 4)  # one move left: withdraw
    j = judge(game, view, seat, "withdraw", seed=1, budget_s=BUDGET)
    assert (j.verdict, j.forced, j.loss, j.candidates) == ("forced", True, 0.0, 1)


def test_an_illegal_move_is_refused() -> None:
    game, view, seat = position("azul", 2, 3, 0)
    with pytest.raises(IllegalMove):
        judge(game, view, seat, "F9-Z-9", seed=1, budget_s=BUDGET)


def test_the_worker_call_gives_json_that_reads_back() -> None:
    game, view, seat = position("azul", 2, 3, 0)
    data = judge_decision("azul", "rules.azul:GAME", view, seat, "F3-K-F", seed=2, budget_s=0.05)
    j = Judgement.from_json(data)
    assert j.to_json() == data
    assert j.verdict in VERDICTS and j.played == "F3-K-F"
    with pytest.raises(ValueError, match="verdict is one of"):
        Judgement.from_json({**data, "verdict": "awful"})
    with pytest.raises(ValueError, match="no field ply; fields: seat"):
        Judgement.from_json({**data, "ply": 3})
    with pytest.raises(ValueError, match="forced is a bool"):
        Judgement.from_json({**data, "forced": 1})
    with pytest.raises(ValueError, match="seat is a int"):
        Judgement.from_json({**data, "seat": True})
    with pytest.raises(ValueError, match="is not the game"):
        judge_decision("maharani", "rules.azul:GAME", view, seat, "F3-K-F", seed=2, budget_s=0.05)


def _j(seat: int, verdict: str, loss: float, played: str = "x") -> Judgement:
    return Judgement(
        seat, played, "y" if verdict in LOSSES else played, loss, 0.5, 0.99, verdict, "", "", 3,
        verdict == "forced",
    )  # fmt: skip


def test_moments_are_each_seats_biggest_losses_beyond_the_noise() -> None:
    judged = [
        _j(0, "mistake", 3.0, "a"),
        _j(0, "blunder", 7.0, "b"),
        _j(0, "fine", 0.0, "c"),
        _j(0, "inaccuracy", 1.5, "d"),
        _j(0, "mistake", 3.0, "e"),
        _j(1, "best", 0.0),
        _j(1, "forced", 0.0),
    ]
    found = moments(judged, per_seat=3)
    assert [j.played for j in found[0]] == ["b", "a", "e"]  # equal losses: the earlier first
    assert found[1] == []
    # forced moves are not decisions: seat 1 lost nothing in its one decision
    assert average_loss(judged) == {0: round(14.5 / 5, 3), 1: 0.0}


def test_a_match_budget_is_spread_over_its_decisions() -> None:
    game = get_game("azul")
    assert budget_for(game, 60) * 60 == pytest.approx(min(60 * 2.0, 100.0), rel=0.01)
    assert budget_for(game, 1) == 2.0  # capped per decision
    assert budget_for(game, 100_000) == 0.05  # and never nothing


def test_a_game_without_hooks_is_reviewed_from_its_rules_alone() -> None:
    """No evaluation: the alternatives come from a short search, the rollouts play to the
    end and the margin is the final score's."""
    game = OPEN_PILE
    state = game.setup(2, 3)
    seat = game.to_act(state)[0]
    view = game.view(state, seat)
    first = judge(game, view, seat, "take1", seed=4, budget_s=0.05)
    assert first.verdict in VERDICTS and first.candidates >= 2
    assert judge(game, view, seat, "take1", seed=4, budget_s=0.05) == first


def test_few_samples_ask_for_a_wider_gap() -> None:
    assert z_for(6) == pytest.approx(2.5)
    assert 2.0 < z_for(300) < 2.01
