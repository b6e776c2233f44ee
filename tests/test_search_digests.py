"""The computer players decide exactly as they did before the search's speed work.

Why digests: making the search faster (moves whose words are built only when read, a
``next_state`` that builds no events) must not change a single decision. So for a few
positions per game and player count, spread over a seeded random game, this hashes what a
computer player computes there — the search's root statistics (every root move's notation
and label, visits and mean value, in the order the search ranks them), the normal level's
chosen move, the easy and random levels' moves and the hint's reason in words — and
compares the hash with the one recorded by the code *before* that work (:data:`DIGESTS`).
A later change that alters a decision, a label or a reason fails here; if the change is
meant to alter decisions, record the new digests with ``python -m tests.test_search_digests``
and say why in the commit.

Kept lean: a few positions, a small iteration count (the rollouts still run whole games).
The budget of the levels that take one is large, so the wall-clock safety net of a loaded
machine never cuts a search short (the iteration count alone decides).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from rules import get_game
from rules.ai.api import _unavoided, choose_move
from rules.ai.hooks import ai_for
from rules.ai.search import search
from rules.playout import random_playout
from rules.rng import Rng

#: (game, players) -> positions taken from one seeded random game, and search iterations.
CASES: dict[tuple[str, int], tuple[int, int]] = {
    ("azul", 2): (6, 80),
    ("azul", 4): (4, 60),
    ("taj-mahal", 3): (6, 80),
    ("taj-mahal", 5): (4, 60),
    ("maharani", 2): (6, 80),
    ("maharani", 4): (4, 60),
    ("pastiche", 2): (6, 60),
    ("pastiche", 4): (4, 40),
}

#: Recorded before the speed work (``python -m tests.test_search_digests``); Maharani's
#: again after its rule change (a refresh needs a face-down marker: the pass is gone from
#: the legal moves, so its searches and random games changed; the speed work had been
#: checked against the old digests first).
DIGESTS: dict[str, str] = {
    "azul-2": "32f6c2818dc3c284ce669c89916f19c70cd0eef9f2b386bf195aa0c3dc7839fd",
    "azul-4": "599e7e3fb12d6b2eab1f86107acded50613107ca766d64a8fb5e7bffe20942dd",
    "taj-mahal-3": "c64006db92d4b812c680c7db773d6504071451d55ae51ad559e2cc071dcf88e6",
    "taj-mahal-5": "9d149384f3e1b109503bb4a411b9c8a6476be7ab28bc8540de16ddc0301d9cd6",
    "maharani-2": "0b2d06d2d505aad65c4b9b58b0977944851033ce9b78f641ccc3b0f9c2478388",
    "maharani-4": "da2ea8d91f3d4c5d7b3d0fc513869b2b520025d66543939f990ea705d602ce35",
    "pastiche-2": "b4b2f826e4716d6215e3e674adc87563c9d10f4399d51c739e7285e945d90265",
    "pastiche-4": "fb0793a202e2575bded771c45e02d7e19c9935108443f0c9e90902a44f988ac6",
}


def _positions(game_id: str, players: int, count: int) -> list[tuple[dict[str, Any], int]]:
    """(state, seat to decide) at ``count`` decisions spread over one seeded random game."""
    game = get_game(game_id)
    seen: list[dict[str, Any]] = []
    random_playout(game, players, 45, on_step=lambda old, *_: seen.append(old))
    # decisions worth a search: three moves or more
    states = [s for s in seen if len(game.legal_moves(s, game.to_act(s)[0])) >= 3]
    picked = []
    for k in range(count):
        state = states[(2 * k + 1) * len(states) // (2 * count)]
        picked.append((state, game.to_act(state)[0]))
    return picked


def decisions(game_id: str, players: int) -> list[dict[str, Any]]:
    """What a computer player computes at each position (the digest's input, readable)."""
    game = get_game(game_id)
    hooks = ai_for(game)
    count, iterations = CASES[(game_id, players)]
    out = []
    for k, (state, seat) in enumerate(_positions(game_id, players, count)):
        view = game.view(state, seat)
        stats = search(game, hooks, view, seat, Rng.from_seed(k, "digest"), iterations=iterations)
        chosen = _unavoided(game, hooks, view, seat, [s.move for s in stats])
        top = stats[0]
        out.append(
            {
                "root": [
                    [s.move.notation, str(s.move.label), s.visits, repr(s.value)] for s in stats
                ],
                "chosen": chosen.notation,
                "reason": str(hooks.explain(game, view, seat, top.move, top.value)),
                "random": choose_move(game, view, seat, "random", seed=k).notation,
                "easy": choose_move(game, view, seat, "easy", seed=k, budget_s=1e6).notation
                if hooks.evaluate(game, state) is not None
                else None,
            }
        )
    return out


def digest(game_id: str, players: int) -> str:
    text = json.dumps(decisions(game_id, players), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.mark.parametrize(("game_id", "players"), list(CASES), ids=[f"{g}-{p}" for g, p in CASES])
def test_search_decides_as_recorded(game_id: str, players: int) -> None:
    assert digest(game_id, players) == DIGESTS[f"{game_id}-{players}"]


if __name__ == "__main__":  # record: prints the table to paste into DIGESTS
    for g, p in CASES:
        print(f'    "{g}-{p}": "{digest(g, p)}",', flush=True)
