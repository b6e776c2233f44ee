"""The public view of an Azul state (Azul hides nothing, so it is every seat's view)."""

from __future__ import annotations

from typing import Any

from rules.azul import last_turn
from rules.azul.board import (
    BONUS_COLOUR,
    BONUS_COLUMN,
    BONUS_ROW,
    COLOURS,
    FLOOR_PENALTIES,
    FLOOR_TOTAL,
    MARKER,
    complete_rows,
    printed_colour,
)
from rules.azul.rounds import FLOOR_LOST, FLOOR_SPARED, OFFER, TILING, WALL_POINTS
from rules.base import Game, State, View


def build_view(game: Game, state: State) -> View:
    """Everything is public in Azul, so every seat sees the same view.

    Beyond the table: each player's ``points`` by source (see :func:`_points`), and
    ``last_turn``, what the last move put on the table (``None`` before the first move):
    ``seat`` (who moved); ``source`` (the factory number or ``"C"`` it emptied of a colour,
    ``None`` after a column choice or once the factories were refilled); ``line`` (the
    pattern line, 1-based, the take went to; ``None``: the floor) with ``line_slots``
    ``[from, to]``, the indices of its new tiles counted from the right end; ``floor_slots``
    ``[[seat, from, to], ...]``, new items of floor lines (indices into ``floor``);
    ``wall_cells`` ``[[seat, row, column, points], ...]``, tiles placed on walls (0-based
    indices into ``wall``) and the placement points each scored. Only what is still on the
    table is listed (see :mod:`rules.azul.last_turn`)."""
    n = state["players"]
    grey = state["grey"]

    def letters(counts: list[int]) -> list[str]:
        return [COLOURS[k] for k, count in enumerate(counts) for _ in range(count)]

    tally = state.get("tally")
    bonus = state.get("bonus")
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
                **_points(tally[p] if tally else None, bonus[p] if bonus else None),
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
        "last_turn": last_turn.to_view(state.get("last")),
    }


def _points(tally: list[int] | None, bonus: list[int] | None) -> dict[str, Any]:
    """A seat's points by source, as the rules score them (the picture's final arithmetic):
    ``points`` adds up to the score at every moment (the end bonuses are 0 before the end);
    ``None`` for a game saved before the sources were kept. ``floor_spared``: floor penalty
    points that a score of 0 could not pay."""
    if tally is None:
        return {"points": None, "floor_spared": 0}
    rows, columns, colours = bonus[:3] if bonus else (0, 0, 0)
    return {
        "points": {
            "wall": tally[WALL_POINTS],
            "floor": -tally[FLOOR_LOST],
            "rows": rows * BONUS_ROW,
            "columns": columns * BONUS_COLUMN,
            "colours": colours * BONUS_COLOUR,
        },
        "floor_spared": tally[FLOOR_SPARED],
    }
