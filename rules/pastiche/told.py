"""Pastiche's moves told to the table (``Game.tell``): past tense, third person, from the
move's public events.

Most moves already have such an event (painting a hex, a bank trade, the gallery exchange,
a completed commission, an answer to an offer, cards returned), and its words are the
sentence. The others get one here: an offer ("Cid offered Bob purple as a gift (offer
1)."), a counter-offer (the answer and the new offer in one sentence) and the end of a
turn ("Ann ended the turn and drew a new hex."), which today's events only tell in
pieces or not at all. What stays hidden stays out: a commission drawn is told only to its
drawer (``Event.private``), and tell reads public events only.
"""

from __future__ import annotations

from typing import Any

from rules.base import Event, Told
from rules.pastiche.trade import side_words
from rules.words import Msg, Seat

#: Event kinds whose own words are the sentence of the move that made them.
SAID_AS_IS = ("place", "bank", "swap", "complete", "accept", "decline", "withdraw")


def tell(seat: int, notation: str, events: list[Event]) -> Told | None:
    kinds = [e.kind for e in events]
    head = notation.strip().lower().split(" ")[0]
    if "counter" in kinds and "offer" in kinds:
        i, k = kinds.index("counter"), kinds.index("offer")
        return Told(_offer(seat, events[k].data, answered=events[i].data.get("id")), (i, k))
    if "offer" in kinds and head == "offer":
        k = kinds.index("offer")
        return Told(_offer(seat, events[k].data), (k,))
    if head in ("end", "endauto"):
        return _end(seat, events, kinds)
    for i, event in enumerate(events):
        if event.kind in SAID_AS_IS and event.text:
            return Told(event.text, (i,))
    if "return" in kinds:  # the cards given back in the return step
        i = kinds.index("return")
        return Told(events[i].text, (i,))
    return None


def _offer(seat: int, data: dict[str, Any], answered: Any = None) -> Msg:
    give, get = list(data.get("give") or []), list(data.get("get") or [])
    kind = "offer" if give and get else "gift" if give else "request"
    params: dict[str, Any] = {
        "who": Seat(seat),
        "partner": Seat(int(data["to"])),
        "give": side_words(give),
        "get": side_words(get),
        "id": int(data["id"]),
    }
    if answered is not None:
        return Msg(f"pastiche.told.counter_{kind}", answered=int(answered), **params)
    return Msg(f"pastiche.told.{kind}", **params)


def _end(seat: int, events: list[Event], kinds: list[str]) -> Told:
    if "discard" in kinds:  # more than 8 cards: the return step comes first
        i = kinds.index("discard")
        extra = int(getattr(events[i].text, "params", {}).get("n", 0)) or 1
        return Told(Msg("pastiche.told.end_must_return", who=Seat(seat), n=extra), (i,))
    covered = []
    key = "pastiche.told.end"
    params: dict[str, Any] = {"who": Seat(seat)}
    if "return" in kinds:
        i = kinds.index("return")
        covered.append(i)
        key += "_return"
        params["cards"] = side_words(list(events[i].data.get("cards") or []))
    if "hex" in kinds:
        covered.append(kinds.index("hex"))
        key += "_hex"
    return Told(Msg(key, **params), tuple(covered))
