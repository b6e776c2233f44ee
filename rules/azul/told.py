"""Azul's moves told to the table (``Game.tell``): one past-tense sentence per move, in the
third person, built from the move's public event data — the same for a move just made and
for a log row stored long ago (the ``take`` and ``tile`` events have kept this data since
the first version).

- a take: "Bob took 2 blue from factory 3 to line 4 (1 to the floor)." — the source and
  destination kinds each have a sentence of their own, so a language that bends "factory"
  or "line" (Hungarian, Polish) translates whole sentences, not glued parts;
- a grey-wall column: "Bob tiled line 2 (red) in wall column 4: +3."
"""

from __future__ import annotations

from typing import Any

from rules.azul.board import COLOURS
from rules.azul.moves import tiles_words
from rules.azul.words import COLOUR_WORDS
from rules.base import Event, Told
from rules.words import Msg, Seat


def tell(seat: int, notation: str, events: list[Event]) -> Told | None:
    """The sentence of ``seat``'s move: its take, or the wall column it chose."""
    for i, event in enumerate(events):
        data = event.data
        if data.get("seat") != seat:
            continue
        if event.kind == "take":
            return Told(_take(seat, data), (i,))
        if event.kind == "tile" and "column" in data and not data.get("forced"):
            return Told(_column(seat, data), (i,))
    return None


def _take(seat: int, data: dict[str, Any]) -> Msg:
    colour = COLOURS.index(str(data["colour"]))
    line = data.get("line")
    centre = data.get("source") == "C"
    key = "azul.told.take_centre" if centre else "azul.told.take_factory"
    if line is None:
        key += "_floor"
    params: dict[str, Any] = {"who": Seat(seat), "tiles": tiles_words(int(data["count"]), colour)}
    if not centre:
        params["factory"] = int(data["source"])
    lid = int(data.get("lid") or 0)
    if line is not None:
        params["line"] = int(line)
        # what reached the floor: the overflow but for what a full floor sent to the lid
        over = int(data.get("overflow") or 0) - lid
        params["over"] = Msg("azul.told.over", n=over) if over > 0 else ""
    params["lid"] = Msg("azul.told.lid", n=lid) if lid else ""
    params["marker"] = Msg("azul.told.marker") if data.get("marker") else ""
    return Msg(key, **params)


def _column(seat: int, data: dict[str, Any]) -> Msg:
    colour = COLOURS.index(str(data["colour"]))
    return Msg(
        "azul.told.column",
        who=Seat(seat),
        line=int(data["line"]),
        colour=COLOUR_WORDS[colour],
        column=int(data["column"]),
        points=int(data["points"]),
    )
