"""Random legal playouts: used by the property tests, ``python -m bot demo`` and the
benchmarks. Pure, like the rest of ``rules``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from rules.base import Event, Game, Move, State
from rules.rng import Rng

#: Safety net: no game of ours needs anywhere near this many decisions.
MAX_DECISIONS = 20_000

StepHook = Callable[[State, int, Move, State, list[Event]], None]


def random_playout(
    game: Game,
    player_count: int,
    seed: int,
    options: BaseModel | dict[str, Any] | None = None,
    *,
    move_seed: int | None = None,
    on_step: StepHook | None = None,
) -> tuple[State, list[tuple[int, str]]]:
    """Play a whole game choosing uniformly among legal moves.

    Returns the final state and the (seat, notation) log. ``on_step`` sees every
    transition (old state, seat, move, new state, events) so tests can check invariants;
    without it nobody reads the events, so the moves go through ``game.next_state``, which
    a game may implement without building any words (same states, less work).
    Raises RuntimeError if the game fails to end, which is itself a rule bug.
    """
    state = game.setup(player_count, seed, options)
    picker = Rng.from_seed(seed if move_seed is None else move_seed, "playout")
    log: list[tuple[int, str]] = []
    for _ in range(MAX_DECISIONS):
        seats = game.to_act(state)
        if not seats:
            if game.outcome(state) is None:
                raise RuntimeError(f"{game.id}: nobody to act but the game has no outcome")
            return state, log
        seat = seats[picker.below(len(seats))]
        try:
            move = game.random_move(state, seat, picker)
        except ValueError:  # Rng.choice of no moves
            raise RuntimeError(f"{game.id}: seat {seat} must act but has no legal move") from None
        if on_step is None:  # nobody reads the events: the game may skip their words
            new_state = game.next_state(state, seat, move)
        else:
            new_state, events = game.apply(state, seat, move)
            on_step(state, seat, move, new_state, events)
        log.append((seat, move.notation))
        state = new_state
    raise RuntimeError(f"{game.id}: game did not end within {MAX_DECISIONS} decisions")


def replay(
    game: Game,
    player_count: int,
    seed: int,
    options: BaseModel | dict[str, Any] | None,
    log: list[tuple[int, str]],
) -> State:
    """Rebuild a state from seed + move log (notation), checking every move is legal."""
    state = game.setup(player_count, seed, options)
    for seat, notation in log:
        move = game.parse(state, seat, notation)
        state, _ = game.apply(state, seat, move)
    return state
