"""Maharani's moves told to the table (``Game.tell``): past tense, third person, from the
move's public events.

- a tile: "Bob placed a blue tile from the lion field on H6 (peacock quarter), arrow
  pointing south, turning their lion marker face down: +1 gold; a new worker there:
  +1 gold." — the worker its arrow brought (or the lack of one) and, for a second tile,
  the 2 gold paid, are part of the same sentence, so the picture's one "Last move" line
  says all the move did to that seat;
- a worker chosen (the two-player variant), a refresh, a stop: a sentence each.

The tile comes from the event's data (its colour, field, space, arrow, flipped marker,
gold), which every stored row has; the worker's words from the event's message.
"""

from __future__ import annotations

from typing import Any

from rules.base import Event, Told
from rules.maharani.data import geometry
from rules.maharani.engine import SECOND_TILE_COST, SIDE_WORDS
from rules.maharani.words import a_tile, animal, gold
from rules.words import Msg, Seat


def tell(seat: int, notation: str, events: list[Event]) -> Told | None:
    """The sentence of ``seat``'s move (only the mover acts inside a Maharani move, so
    the events of its kinds are the mover's)."""
    kinds = [e.kind for e in events]
    if "tile" in kinds:
        return _tile(seat, events, kinds.index("tile"))
    if "worker" in kinds:  # a worker chosen after a tile (two-player variant)
        i = kinds.index("worker")
        said = _worker_alone(seat, events[i])
        return Told(said, (i,)) if said is not None else None
    if "refresh" in kinds:
        i = kinds.index("refresh")
        down = int(events[i].data.get("turned_up", 0))
        return Told(Msg("maharani.told.refresh", who=Seat(seat), n=down), (i,))
    if "stop" in kinds:
        return Told(Msg("maharani.told.stop", who=Seat(seat)), (kinds.index("stop"),))
    return None


def _params(event: Event) -> dict[str, Any]:
    return dict(event.text.params) if isinstance(event.text, Msg) else {}


def _tile(seat: int, events: list[Event], i: int) -> Told:
    data = events[i].data
    g = geometry()
    space = str(data["space"])
    target = g.animals[g.space_quarter[g.space_by_name[space]]]
    source = str(data.get("marker") or target)  # a flipped marker: the field's animal
    covered = [i]
    worker: Any = ""
    after = events[i + 1 :]
    for k, event in enumerate(after, i + 1):
        if event.kind == "worker":
            worker = _worker_clause(event)
            covered.append(k)
            break
        if event.kind in ("pay", "refill", "score", "end", "stall"):
            break  # the worker waits for the player's choice (two-player variant)
    paid = next((k for k, e in enumerate(events) if e.kind == "pay"), None)
    if paid is not None:
        covered.append(paid)
    said = Msg(
        "maharani.told.tile_second" if paid is not None else "maharani.told.tile",
        who=Seat(seat),
        tile=a_tile(str(data["colour"])),
        src=animal(source),
        space=space,
        tgt=animal(target),
        side=SIDE_WORDS[str(data["arrow"])],
        marker=Msg("maharani.told.marker", animal=animal(source)) if data.get("marker") else "",
        gold=gold(int(data["gold"])),
        worker=worker,
        cost=gold(SECOND_TILE_COST),
    )
    return Told(said, tuple(sorted(covered)))


def _worker_clause(event: Event) -> Any:
    """What the tile's arrow did: a new worker, a worker moved, or none left."""
    p = _params(event)
    key = getattr(event.text, "key", "")
    if key == "maharani.ev.no_worker":
        return Msg("maharani.told.no_worker")
    amount = gold(int(event.data.get("gold", 0)))
    if key == "maharani.ev.worker_move" and "origin" in p:
        return Msg(
            "maharani.told.worker_moved", style=p.get("style", ""), origin=p["origin"], gold=amount
        )
    return Msg("maharani.told.worker_new", style=p.get("style", ""), gold=amount)


def _worker_alone(seat: int, event: Event) -> Msg | None:
    p = _params(event)
    key = getattr(event.text, "key", "")
    if key == "maharani.ev.no_worker" or "space" not in event.data:
        return None
    style = p.get("style", "")
    amount = gold(int(event.data.get("gold", 0)))
    space = str(event.data["space"])
    if key == "maharani.ev.worker_move" and "origin" in p:
        return Msg(
            "maharani.told.moved_worker",
            who=Seat(seat),
            style=style,
            origin=p["origin"],
            space=space,
            gold=amount,
        )
    return Msg("maharani.told.new_worker", who=Seat(seat), style=style, space=space, gold=amount)
