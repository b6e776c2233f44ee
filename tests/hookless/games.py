"""Pile variants without computer-player hooks (see the package docstring for why they live
here): an open Pile that proves a game gets a computer player from its rules alone, and a
hidden-information Pile that proves a game needing a determinizer says so instead of
peeking."""

from __future__ import annotations

import copy
from typing import Any

from rules.base import Move, View
from tests.fakegame import PileGame


class OpenPileGame(PileGame):
    """Pile without secret cards: a game with no hidden information and no AI hooks, to
    prove that a fifth game gets a computer player from its rules alone. Its view is the
    state without the (unused) random-number state."""

    id = "test-open-pile"
    name = "Open pile"
    has_hidden_information = False

    def legal_moves(self, state: dict[str, Any], seat: int) -> list[Move]:
        return [m for m in super().legal_moves(state, seat) if m.notation != "draw"]

    def view(self, state: dict[str, Any], seat: int | None) -> View:
        return {k: copy.deepcopy(v) for k, v in state.items() if k != "rng"}


#: Not registered: the registry is process-wide and other tests (crash safety) walk every
#: registered game in child processes that would not know it.
OPEN_PILE = OpenPileGame()


class HooklessPileGame(PileGame):
    """Pile (secret cards) with no determinizer."""

    id = "test-hookless-pile"


HOOKLESS_PILE = HooklessPileGame()
