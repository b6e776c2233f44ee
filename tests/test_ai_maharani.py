"""Maharani's computer players keep the game moving: they do not pass (refresh with every
marker face up) while they can place a tile. Before, where every placement helped the other
player, two searches both ranked the pass first and passed to each other for ever; the
position is an arena game of strong against normal, rebuilt from its recorded moves. That
game was played when a refresh with every marker up was a pass: today that is the house
rule ``refresh_as_pass`` (by the rulebook there is no such move, last test)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.tools.arena import move_seed
from rules.ai.api import _unavoided, choose_move, iterations_for
from rules.ai.hooks import ai_for
from rules.ai.search import search
from rules.maharani import GAME
from rules.maharani.ai import MaharaniAI
from rules.rng import Rng

LOOP = json.loads((Path(__file__).parent / "data" / "maharani_pass_loop.json").read_text())


def _before_the_pass(**options: Any) -> dict[str, Any]:
    state = GAME.setup(2, LOOP["game_seed"], {"refresh_as_pass": True, **options})
    for notation in LOOP["moves"][:-1]:
        seat = GAME.waits_for(state)[0]
        state, _ = GAME.apply(state, seat, GAME.parse(state, seat, notation))
    return state


def test_normal_places_a_tile_where_its_search_ranks_the_pass_first() -> None:
    state = _before_the_pass()
    seat = GAME.waits_for(state)[0]
    view = GAME.view(state, seat)
    assert state["phase"] == "first" and all(state["markers"][seat])
    legal = {m.notation for m in GAME.legal_moves(state, seat)}
    assert "refresh" in legal and len(legal) > 1  # the rules allow the pass; tiles fit
    hooks = ai_for(GAME)
    seed = move_seed(LOOP["game_seed"], LOOP["ply"], seat)
    stats = search(
        GAME,
        hooks,
        view,
        seat,
        Rng.from_seed(seed, f"ai:{seat}:normal"),
        iterations=iterations_for(GAME, hooks, view, 0.1),
    )
    assert stats[0].move.notation == LOOP["moves"][-1] == "refresh"  # what it played before
    best_placement = next(s.move for s in stats if s.move.notation != "refresh")
    assert _unavoided(GAME, hooks, view, seat, [s.move for s in stats]) == best_placement
    move = choose_move(GAME, view, seat, "normal", seed=seed, budget_s=0.1)
    assert move.notation != "refresh" and move.notation in legal


def test_easy_places_a_tile_even_where_its_evaluation_prefers_the_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An evaluation that counts gold against its owner makes the pass easy's best move;
    easy still places a tile, the best placement by that evaluation."""
    state = GAME.setup(2, 5, {"refresh_as_pass": True})
    seat = GAME.waits_for(state)[0]
    view = GAME.view(state, seat)
    monkeypatch.setattr(MaharaniAI, "evaluate", lambda self, game, st: [-g for g in st["gold"]])
    move = choose_move(GAME, view, seat, "easy", seed=1)
    assert move.notation != "refresh"
    assert move.notation in {m.notation for m in GAME.legal_moves(state, seat)}
    monkeypatch.setattr(MaharaniAI, "avoids", lambda self, game, view, seat, move: False)
    assert choose_move(GAME, view, seat, "easy", seed=1).notation == "refresh"  # unless it avoids


def test_a_refresh_that_turns_markers_up_is_not_avoided() -> None:
    state = _before_the_pass()
    seat = GAME.waits_for(state)[0]
    view = GAME.view(state, seat)
    refresh = next(m for m in GAME.legal_moves(state, seat) if m.notation == "refresh")
    assert ai_for(GAME).avoids(GAME, view, seat, refresh)
    view["markers"][seat][0] = False
    assert not ai_for(GAME).avoids(GAME, view, seat, refresh)


def test_by_the_rulebook_the_pass_is_no_move_and_a_table_of_refreshers_ends() -> None:
    """Without the house rule nobody can pass: in the arena's position the refresh is not
    offered, and a table that refreshes whenever it may (the worst case: 400 passes in a
    row were seen before) still ends, each seat placing a tile at least every other turn."""
    state = GAME.setup(2, LOOP["game_seed"])
    assert "refresh" not in {m.notation for m in GAME.legal_moves(state, state["turn"])}
    for players in (2, 3, 4):
        state = GAME.setup(players, 11)
        rng = Rng.from_seed(11, "refreshers")
        turns_without_a_tile = [0] * players
        for _ply in range(2000):
            if not GAME.to_act(state):
                break
            seat = GAME.to_act(state)[0]
            legal = GAME.legal_moves(state, seat)
            refresh = [m for m in legal if m.notation == "refresh"]
            move = refresh[0] if refresh else legal[rng.below(len(legal))]
            placed = sum(t is not None for t in state["tiles"])
            state, _ = GAME.apply(state, seat, move)
            if move.notation == "refresh":
                assert sum(t is not None for t in state["tiles"]) == placed
                turns_without_a_tile[seat] += 1
                assert turns_without_a_tile[seat] == 1  # never two refreshes in a row
            elif state["phase"] != "worker":
                turns_without_a_tile[seat] = 0
        assert GAME.outcome(state) is not None, players
