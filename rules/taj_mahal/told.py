"""Taj Mahal's moves told to the table (``Game.tell``).

Every kind of move already has a public event that says it in the past tense and the third
person ("Bob played red princess+mogul with white elephant.", "Bob withdrew and won the
crown.", "Bob placed a palace on Sind west.", "Bob placed the crowned palace on …",
"Bob drew 1 card from the display: …"), so that event's words are the move's sentence.
What the rules keep hidden stays out by construction: a card drawn from the deck is told
only privately (``Event.private``), and :meth:`rules.base.Game.tell` reads public events
only.
"""

from __future__ import annotations

from rules.base import Event, Told

#: The event kinds that are a move of their own (in ``visit.py``).
MOVE_KINDS = frozenset({"play", "withdraw", "palace", "crown", "take"})


def tell(seat: int, notation: str, events: list[Event]) -> Told | None:
    """The first public event of ``seat``'s move that says the move itself."""
    for i, event in enumerate(events):
        if event.kind in MOVE_KINDS and event.data.get("seat") == seat and event.text:
            return Told(event.text, (i,))
    return None
