"""Random full Taj Mahal games for 3, 4 and 5 players with invariants checked at every step:
components conserved, scores never fall, 12 visits then the end, no hand in public."""

from __future__ import annotations

import json

import pytest

from rules.base import Event, Move, State
from rules.playout import random_playout, replay
from rules.taj_mahal import GAME
from tests.test_taj_mahal_rules import conserved


def _public_is_private_minus_hand(state: State) -> None:
    pub = GAME.view(state, None)
    assert "hand" not in pub and "hands" not in json.dumps(pub)
    for seat in range(state["n"]):
        mine = GAME.view(state, seat)
        assert [c["id"] for c in mine["hand"]] == state["hands"][seat]
        # which of his cards he may still play this visit: his own, from his hand
        assert set(mine["playable"]["cards"]) <= set(state["hands"][seat])
        rest = {k: v for k, v in mine.items() if k not in ("hand", "seat", "playable")}
        assert rest == pub


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_games_keep_every_invariant(players: int) -> None:
    for seed in range(3):
        visits_started = 0

        def check(
            old: State, seat: int, move: Move, new: State, events: list[Event], seed: int = seed
        ) -> None:
            nonlocal visits_started
            conserved(new)
            assert all(b >= a for a, b in zip(old["score"], new["score"], strict=True))
            assert new["visit"] in (old["visit"], old["visit"] + 1)
            for ev in events:
                if ev.kind == "visit":
                    visits_started += 1
                if ev.kind == "draw":  # a hidden deck card: public words never name it
                    assert ev.text.endswith("drew 1 card from the deck.")
                    assert ev.secret and ev.private
                json.dumps(ev.to_json(include_secret=False))
            if seed == 0 and new["n"] == players and len(new["deck"]) % 5 == 0:
                _public_is_private_minus_hand(new)

        final, log = random_playout(GAME, players, seed, on_step=check)
        assert final["over"] and final["visit"] == 11 and visits_started == 11
        assert GAME.to_act(final) == []
        out = GAME.outcome(final)
        assert out is not None and out.scores == final["score"]
        assert all(p["in_visit"] is False for p in GAME.view(final, None)["player_info"])
        assert replay(GAME, players, seed, None, log) == final


def test_default_moves_alone_finish_a_game() -> None:
    """Everyone's clock runs out every time: withdrawing on turns (and any choice where
    the rules give no pass, made by the bot) still ends the game."""
    state = GAME.setup(4, 9)
    for _ in range(2000):
        seats = GAME.to_act(state)
        if not seats:
            break
        move = GAME.default_move(state, seats[0]) or GAME.legal_moves(state, seats[0])[0]
        state, _ = GAME.apply(state, seats[0], move)
        conserved(state)
    assert state["over"]
