"""The public view of an Azul state (Azul hides nothing, so it is every seat's view)."""

from __future__ import annotations

from rules.azul.board import (
    COLOURS,
    FLOOR_PENALTIES,
    FLOOR_TOTAL,
    MARKER,
    complete_rows,
    printed_colour,
)
from rules.azul.rounds import OFFER, TILING
from rules.base import Game, State, View


def build_view(game: Game, state: State) -> View:
    """Everything is public in Azul, so every seat sees the same view."""
    n = state["players"]
    grey = state["grey"]

    def letters(counts: list[int]) -> list[str]:
        return [COLOURS[k] for k, count in enumerate(counts) for _ in range(count)]

    players = []
    for p in range(n):
        wall = state["wall"][p]
        floor = state["floor"][p]
        players.append(
            {
                "seat": p,
                "score": state["score"][p],
                "lines": [
                    {
                        "size": i + 1,
                        "colour": COLOURS[state["lc"][p][i]] if state["ln"][p][i] else None,
                        "count": state["ln"][p][i],
                    }
                    for i in range(5)
                ],
                "wall": [
                    [COLOURS[wall[r * 5 + c]] if wall[r * 5 + c] >= 0 else None for c in range(5)]
                    for r in range(5)
                ],
                "floor": ["M" if k == MARKER else COLOURS[k] for k in floor],
                "floor_penalty": -FLOOR_TOTAL[len(floor)],
                "has_marker": state["marker"] == p,
                "complete_rows": complete_rows(wall),
            }
        )
    pending = []
    if state["phase"] == TILING:
        for p in game.to_act(state):
            line = state["tnext"][p]
            pending.append(
                {
                    "seat": p,
                    "line": line + 1,
                    "colour": COLOURS[state["lc"][p][line]],
                    "columns": [int(m.notation[4:]) for m in game.legal_moves(state, p)],
                }
            )
    out = game.outcome(state)
    return {
        "game": game.id,
        "player_count": n,
        "grey_wall": grey,
        "round": state["round"],
        "phase": state["phase"],
        "turn": state["turn"] if state["phase"] == OFFER else None,
        "to_act": game.to_act(state),
        "first_player": state["first"],
        "bag": sum(state["bag"]),
        "bag_colours": {COLOURS[k]: state["bag"][k] for k in range(5)},
        "lid": sum(state["lid"]),
        "lid_colours": {COLOURS[k]: state["lid"][k] for k in range(5)},
        "factories": [letters(f) for f in state["fac"]],
        "centre": letters(state["centre"]),
        "marker_in_centre": state["marker"] < 0 and state["phase"] == OFFER,
        "wall_pattern": None
        if grey
        else [[COLOURS[printed_colour(r, c)] for c in range(5)] for r in range(5)],
        "floor_penalties": [-x for x in FLOOR_PENALTIES],
        "players": players,
        "pending": pending,
        "status": game.status(state),
        "outcome": out.to_json() if out else None,
    }
