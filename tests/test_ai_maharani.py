"""Maharani's computer players keep the game moving: they do not pass (refresh with every
marker face up) while they can place a tile. Before, where every placement helped the other
player, two searches both ranked the pass first and passed to each other for ever; the
position is an arena game of strong against normal, rebuilt from its recorded moves."""

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


def _before_the_pass() -> dict[str, Any]:
    state = GAME.setup(2, LOOP["game_seed"])
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
    state = GAME.setup(2, 5)
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
