"""Typed Taj Mahal notation to the canonical form the legal moves use.

Why: a card's symbols have no natural order, so players type ``G-CP`` as readily as the
canonical ``G-PC``; and ``pass`` is what the Hungarian summary ("passzolni") and most
players call withdrawing. Both are accepted by rewriting the typed key before it is
matched against the legal moves; nothing else changes, so every move keeps one canonical
notation in logs, records and buttons.
"""

from __future__ import annotations

from functools import cache

from rules.taj_mahal.components import components
from rules.words import Msg

#: How to type a move, in words (the engine's ``notation_help``, and said with refusals).
NOTATION_HELP = Msg("taj_mahal.notation_help")

#: Words players use for withdrawing from a visit.
WITHDRAW_WORDS = frozenset({"withdraw", "pass"})


def _unordered(code: str) -> str:
    """``g-cp`` and ``g-pc`` -> the same key: colour, then the symbol letters sorted."""
    head, _, symbols = code.lower().partition("-")
    return f"{head}-{''.join(sorted(symbols))}"


@cache
def _codes() -> dict[str, str]:
    """Unordered key -> canonical card code (lower case), for every card of the game."""
    return {_unordered(c.code): c.code.lower() for c in components().cards}


def card_code(typed: str) -> str | None:
    """The canonical code (as in the data, e.g. ``G-PC``) of a typed card code in any case
    and any symbol order, or None if it names no card."""
    found = _codes().get(_unordered(typed)) if "-" in typed else None
    if found is None:
        return None
    return next(c.code for c in components().cards if c.code.lower() == found)


def canonical_key(key: str) -> str:
    """A normalised typed key (lower case, no spaces) in canonical notation: card codes in
    data symbol order (``r-ev+w-c`` -> ``r-ve+w-c``, ``take-g-cp`` -> ``take-g-pc``) and
    ``pass`` as ``withdraw``. Anything else is returned unchanged."""
    if key in WITHDRAW_WORDS:
        return "withdraw"
    prefix = "take-" if key.startswith("take-") else ""
    parts = key[len(prefix) :].split("+")
    codes = [_codes().get(_unordered(p)) if "-" in p else None for p in parts]
    if any(c is None for c in codes):
        return key
    return prefix + "+".join(c for c in codes if c is not None)
