"""Pure scoring helpers for Taj Mahal, on plain state pieces.

Kept apart from the move engine so the worked examples of the rulebook (goods, palace
connections, majorities, end-of-game hands) can be tested directly on small inputs.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.taj_mahal.components import Components

#: Where points come from, by the rulebook's scoring: palaces and their connections when a
#: player withdraws (9.3), goods of province and goods bonus tiles (9.2), the points of
#: bonus tiles (9.1: +2 and the Taj Mahal's +4), the +2 Points special card when played
#: (3.4), and the cards left in hand at the end (11). Every point scored has one source.
SOURCES: tuple[str, ...] = ("palaces", "goods", "bonus", "special", "hand")


def symbol_counts(cards: Iterable[int], comp: Components) -> dict[str, int]:
    """How many of each symbol these played cards show (specials add their one symbol)."""
    out: dict[str, int] = {}
    by_id = comp.cards
    for cid in cards:
        for s in by_id[cid].symbols:
            out[s] = out.get(s, 0) + 1
    return out


def majority_wins(
    mine: dict[str, int], others: list[dict[str, int]], prizes: Iterable[str]
) -> list[str]:
    """Prizes (symbols) still in the court where ``mine`` is strictly above every other
    player still in the visit (so at least 1). Ties win nothing."""
    won = []
    for prize in prizes:
        n = mine.get(prize, 0)
        if n > 0:
            for o in others:  # a loop, not all(...): this runs at every withdrawal
                if o.get(prize, 0) >= n:
                    break
            else:
                won.append(prize)
    return won


def goods_owned(
    province_tiles: Iterable[int], bonus_tiles: Iterable[int], comp: Components
) -> dict[str, int]:
    """Copies of each good on the tiles a player holds (province and goods bonus tiles)."""
    out: dict[str, int] = {}
    for t in province_tiles:
        for g in comp.tile_goods[t]:
            out[g] = out.get(g, 0) + 1
    for b in bonus_tiles:
        good = comp.bonus_tiles[b].good
        if good is not None:
            out[good] = out.get(good, 0) + 1
    return out


def goods_score(new_goods: Iterable[str], owned_before: dict[str, int]) -> list[int]:
    """Points per good of a newly gained tile: 1 for the good + 1 per earlier copy."""
    return [1 + owned_before.get(g, 0) for g in new_goods]


def palace_score(
    my_cities: set[str], placed_here: Iterable[str], comp: Components
) -> tuple[int, list[str]]:
    """Connection points for palaces placed in the current province this withdrawal.

    Components of the player's own palace cities along roads that touch a palace placed
    now; score = number of distinct provinces in them (the current one included).
    Other players' palaces neither help nor block. Returns (points, provinces, sorted).
    """
    start = [c for c in placed_here if c in my_cities]
    if not start:
        return 0, []
    seen = set(start)
    todo = list(start)
    while todo:
        for n in comp.neighbours[todo.pop()]:
            if n in my_cities and n not in seen:
                seen.add(n)
                todo.append(n)
    provinces = sorted({comp.city_province[c] for c in seen})
    return len(provinces), provinces


def hand_score(hand: Iterable[int], comp: Components) -> dict[str, object]:
    """End-of-game points for a hand: 1 per special, 1 per white, 1 per card of the one
    colour held most (ties: any one of them, same number)."""
    specials = whites = 0
    per_colour: dict[str, int] = {}
    for cid in hand:
        card = comp.cards[cid]
        if card.kind == "special":
            specials += 1
        elif card.kind == "white":
            whites += 1
        else:
            per_colour[card.colour or ""] = per_colour.get(card.colour or "", 0) + 1
    best = max(per_colour.values(), default=0)
    colour = next((c for c in comp.colours if per_colour.get(c, 0) == best), None) if best else None
    return {
        "specials": specials,
        "white": whites,
        "colour": colour,
        "colour_cards": best,
        "points": specials + whites + best,
    }
