"""Who held each seat of a match, from which ply — read from the move log.

Why one module: a seat changes hands (a resignation hands it to a computer player, a
substitute takes it over, the players vote a computer into a deserted seat) in one
transaction with a log row that says so, and three readers need that row: the final
ranking (a seat given up ranks last), the game record (``players[].holders``) and the
ratings (who is rated for a seat played by several people). They all read it here, so
the row's shape is known in one place.

A handover row has kind ``resign``, ``forfeit`` or ``sub`` and, as its first event, the
handover: ``data = {"seat", "name", "user_id", "by", "by_id"}`` — the seat, the holder
until this ply, and the new holder (rows written before ``by_id`` existed lack it).
The event's own kind tells how it happened (``resign``, ``sub.own`` for a seat handed on
by its holder, ``sub.vote`` for a substitute the others voted in).

Who is rated when several people played a seat (documented in docs/discord.md):
- the person holding a seat when the match ends is rated with the seat's rank;
- a person who gave a seat up (resigned, or forfeited on the clock) is rated last,
  below every seat, even when someone later took the seat over (the earliest last);
- a person who handed their seat on, or was replaced after leaving the server, is not
  rated for that match at all: they neither won nor lost it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.computers.players import is_computer

#: Log row kinds that may hand a seat to someone else.
HANDOVER_KINDS = ("resign", "forfeit", "sub")
#: Of those, the ones where the holder gave the seat up (ranked and rated last).
GIVE_UP_KINDS = ("resign", "forfeit")


@dataclass(frozen=True, slots=True)
class Handover:
    """One change of hands: ``seat`` went from (``user_id``, ``name``) to the new holder
    with the log row ``ply``."""

    ply: int
    seat: int
    kind: str
    how: str
    user_id: str
    name: str
    new_name: str
    new_id: str | None

    @property
    def gave_up(self) -> bool:
        return self.kind in GIVE_UP_KINDS


@dataclass(frozen=True, slots=True)
class Holder:
    """Someone who held a seat from log row ``from_ply`` (0: from the start)."""

    user_id: str | None
    name: str
    from_ply: int
    how: str

    @property
    def computer(self) -> bool:
        return self.user_id is not None and is_computer(self.user_id)


def handover_of(
    ply: int, kind: str, seat: int, user_id: str, events: Sequence[dict[str, Any]] | str
) -> Handover | None:
    """The handover a log row records, or None for any other row. ``events`` as stored
    (a list of event dicts, or its JSON text as SQL returns it)."""
    if kind not in HANDOVER_KINDS or not events:
        return None
    if isinstance(events, str):
        events = json.loads(events) or []
        if not events:
            return None
    event = events[0]
    data = event.get("data") or {}
    if "name" not in data:
        return None  # an early end (two-player resign or forfeit): nobody took over
    by_id = data.get("by_id")
    return Handover(
        ply=int(ply),
        seat=int(data.get("seat", seat)),
        kind=kind,
        how=str(event.get("kind") or kind),
        user_id=str(data.get("user_id") or user_id),
        name=str(data["name"]),
        new_name=str(data.get("by") or ""),
        new_id=None if by_id is None else str(by_id),
    )


def handovers(rows: Iterable[Any]) -> list[Handover]:
    """Every handover among move rows (anything with ply, kind, seat, user_id, events),
    in log order."""
    out = []
    for row in rows:
        found = handover_of(row.ply, row.kind, row.seat, row.user_id, row.events)
        if found is not None:
            out.append(found)
    return out


def holder_history(
    seats: Sequence[tuple[str, str]], changes: Sequence[Handover]
) -> list[list[Holder]]:
    """Per seat, everyone who held it, first holder first. ``seats`` are the holders now
    as (user id, name) in seat order; the earlier ones come from the handovers."""
    history: list[list[Holder]] = [[] for _ in seats]
    by_seat: dict[int, list[Handover]] = {}
    for change in changes:
        if 0 <= change.seat < len(seats):
            by_seat.setdefault(change.seat, []).append(change)
    for seat, (uid, name) in enumerate(seats):
        chain = sorted(by_seat.get(seat, []), key=lambda c: c.ply)
        if not chain:
            history[seat] = [Holder(uid, name, 0, "start")]
            continue
        holders = [Holder(chain[0].user_id, chain[0].name, 0, "start")]
        for change, after in zip(chain, [*chain[1:], None], strict=True):
            # the new holder is the next handover's previous one, or the holder now
            new_id, new_name = (after.user_id, after.name) if after else (uid, name)
            holders.append(Holder(new_id, new_name, change.ply, change.how))
        history[seat] = holders
    return history


def given_up(changes: Sequence[Handover]) -> list[Handover]:
    """The handovers in which a seat was given up (resign, forfeit), earliest first."""
    return sorted((c for c in changes if c.gave_up), key=lambda c: c.ply)


def seats_given_up(
    seats: Sequence[tuple[str, str]], changes: Sequence[Handover]
) -> list[tuple[int, str, str]]:
    """(seat, name, kind) of the seats the final ranking puts last, earliest resigner
    first (kind "resign" or "forfeit": the clock ran out): a
    seat whose latest handover was a giving-up (a computer played it out for a person who
    resigned or forfeited). A seat a substitute took over afterwards ranks by its score:
    the substitute played it. The giver-up is still rated last (:func:`rated_people`)."""
    latest: dict[int, Handover] = {}
    for change in sorted(changes, key=lambda c: c.ply):
        latest[change.seat] = change
    return [(c.seat, c.name, c.kind) for c in given_up(changes) if latest.get(c.seat) is c]


def rated_people(
    seats: Sequence[tuple[str, str]],
    ranks: Sequence[int],
    changes: Sequence[Handover],
) -> tuple[list[tuple[str, str, int]], bool]:
    """The people a finished match rates, as (user id, name, rank), and whether every seat
    was first held by a person (the default for ``rated``). See the module doc for who
    is rated; ranks stay the result's, and givers-up rank below every seat."""
    history = holder_history(seats, changes)
    all_people = all(not h[0].computer for h in history)
    people: list[tuple[str, str, int]] = []
    seen: set[str] = set()
    for seat, (uid, name) in enumerate(seats):
        if not is_computer(uid) and uid not in seen:
            seen.add(uid)
            people.append((uid, name, int(ranks[seat])))
    quitters = [c for c in given_up(changes) if not is_computer(c.user_id)]
    base = max((int(r) for r in ranks), default=0)
    for order, change in enumerate(quitters):
        if change.user_id in seen:
            continue
        seen.add(change.user_id)
        people.append((change.user_id, change.name, base + len(quitters) - order))
    return people, all_people


def record_holders(history: Sequence[Holder]) -> list[dict[str, Any]]:
    """One seat's holders as the game record lists them."""
    return [
        {"name": h.name, "from_ply": h.from_ply, "how": h.how}
        | ({"computer": True} if h.computer else {})
        for h in history
    ]
