"""Why a typed Taj Mahal move is not legal, in the player's words.

Separate from the engine because it reads text the player typed (anything at all) and must
answer precisely ("your colour this visit is red") without ever raising itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.base import State, normalise_notation
from rules.taj_mahal.components import components
from rules.taj_mahal.notation import card_code

if TYPE_CHECKING:
    from rules.taj_mahal.game import TajMahal


def _card_by_code(code: str) -> str | None:
    """Canonical code for a typed card code (any case, symbols in any order), or None."""
    return card_code(code)


def explain(game: TajMahal, state: State, seat: int, text: str) -> str:
    comp = components()
    shown = text.strip()[:40]
    key = normalise_notation(text)
    if state["over"]:
        return "This game is over; no more moves can be made."
    if seat not in game.to_act(state):
        return "It is not your turn."
    phase = game._phase(state)
    if phase == "palace":
        if key.startswith("palace-"):
            city = next((c for c in comp.cities if comp.city_code(c) == key[7:]), None)
            if city is None:
                return f"There is no city “{key[7:]}”. Cities here: " + ", ".join(
                    comp.city_code(c) for c in comp.province_cities[game.province(state)]
                )
            if comp.city_province[city] != game.province(state):
                return f"{comp.city_label(city)} is not in the province being visited."
            if city in state["palace"]:
                return f"{comp.city_label(city)} already has a palace."
        free = ", ".join("palace-" + comp.city_code(c) for c in game.palace_cities(state))
        return f"Place your palace first: one of {free}."
    if phase == "crown":
        if key.startswith("crown-"):
            city = next((c for c in comp.cities if comp.city_code(c) == key[6:]), None)
            if city is None:
                return f"There is no city “{key[6:]}”."
            if comp.city_province[city] != game.province(state):
                return f"{comp.city_label(city)} is not in the province being visited."
            if state["palace"].get(city) == seat:
                return f"{comp.city_label(city)} already holds your own palace."
        free = ", ".join("crown-" + comp.city_code(c) for c in game.crown_cities(state, seat))
        return f"Place the crowned palace first: one of {free}."
    if phase == "pick":
        if key.startswith("take-"):
            code = _card_by_code(key[5:])
            if code is None:
                return f"“{shown}” names no card."
            return f"The display has no {code}."
        offer = ", ".join(sorted({"take-" + comp.cards[c].code for c in state["display"]}))
        return f"Take a card from the display first: one of {offer}."
    # a turn
    if key in ("withdraw", "pass"):
        return "You can withdraw now with `withdraw`."
    parts = key.split("+")
    if len(parts) > 2:
        return "Play at most two cards: one coloured card and at most one white or special card."
    codes = [_card_by_code(p) for p in parts]
    for p, c in zip(parts, codes, strict=True):
        if c is None:
            return f"“{p[:20]}” is not a card or move. " + game.notation_help
    cards = [next(x for x in comp.cards if x.code == c) for c in codes]
    hand = state["hands"][seat]
    counts: dict[str, int] = {}
    for cid in hand:
        counts[comp.cards[cid].code] = counts.get(comp.cards[cid].code, 0) + 1
    for c in cards:
        if counts.get(c.code, 0) == 0:
            return f"You have no {c.name} in your hand."
    main = cards[0]
    if main.kind != "colour":
        if len(cards) == 2 and cards[1].kind == "colour":
            return "Write the coloured card first, e.g. R-VE+W-C."
        return "A white or special card can only be played together with a coloured card."
    if len(cards) == 2 and cards[1].kind == "colour":
        return "Only one coloured card per turn (plus at most one white or special card)."
    if sum(state["inv"]) == 1 and not state["opts"]["last_player_may_play"]:
        return "You are the last player in this visit: you can only withdraw."
    lock = state["lock"][seat]
    if (
        lock is not None
        and main.colour != lock
        and not (len(cards) == 2 and cards[1].special == "colour")
    ):
        return (
            f"Your colour this visit is {lock}: play a {lock} card, "
            "or add the colour-change card (+S-X) to play another colour."
        )
    return f"“{shown}” is not a legal move now. " + game.notation_help
