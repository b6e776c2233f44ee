"""Why a typed Taj Mahal move is not legal, in the player's words.

Separate from the engine because it reads text the player typed (anything at all) and must
answer precisely ("your colour this visit is red") without ever raising itself. Every
answer is a message (``taj_mahal.no.*`` and the shared ``game.*``), said in the language
of whoever typed the move; what the player typed is quoted as typed.

It reads the state through ``rules/taj_mahal/state.py``, as the engine does, and needs
nothing of the engine itself, so the engine can import it (no import cycle).
"""

from __future__ import annotations

from rules.base import State, normalise_notation
from rules.taj_mahal.components import components
from rules.taj_mahal.notation import NOTATION_HELP, card_code
from rules.taj_mahal.state import crown_cities, free_cities, phase, province, to_act
from rules.words import Join, Msg


def _card_by_code(code: str) -> str | None:
    """Canonical code for a typed card code (any case, symbols in any order), or None."""
    return card_code(code)


def _options(notations: list[str]) -> Join:
    return Join("words.comma", notations)


def explain(state: State, seat: int, text: str) -> Msg:
    comp = components()
    shown = text.strip()[:40]
    key = normalise_notation(text)
    if state["over"]:
        return Msg("game.over")
    if seat not in to_act(state):
        return Msg("game.not_your_turn")
    now = phase(state)
    if now == "palace":
        if key.startswith("palace-"):
            city = next((c for c in comp.cities if comp.city_code(c) == key[7:]), None)
            if city is None:
                here = [comp.city_code(c) for c in comp.province_cities[province(state)]]
                return Msg("taj_mahal.no.city", code=key[7:], cities=_options(here))
            if comp.city_province[city] != province(state):
                return Msg("taj_mahal.no.other_province", city=comp.city_label(city))
            if city in state["palace"]:
                return Msg("taj_mahal.no.has_palace", city=comp.city_label(city))
        free = ["palace-" + comp.city_code(c) for c in free_cities(state, province(state))]
        return Msg("taj_mahal.no.palace_first", moves=_options(free))
    if now == "crown":
        if key.startswith("crown-"):
            city = next((c for c in comp.cities if comp.city_code(c) == key[6:]), None)
            if city is None:
                return Msg("taj_mahal.no.city_bare", code=key[6:])
            if comp.city_province[city] != province(state):
                return Msg("taj_mahal.no.other_province", city=comp.city_label(city))
            if state["palace"].get(city) == seat:
                return Msg("taj_mahal.no.own_palace", city=comp.city_label(city))
        free = ["crown-" + comp.city_code(c) for c in crown_cities(state, seat, province(state))]
        return Msg("taj_mahal.no.crown_first", moves=_options(free))
    if now == "pick":
        if key.startswith("take-"):
            code = _card_by_code(key[5:])
            if code is None:
                return Msg("taj_mahal.no.no_card", text=shown)
            return Msg("taj_mahal.no.not_displayed", code=code)
        offer = sorted({"take-" + comp.cards[c].code for c in state["display"]})
        return Msg("taj_mahal.no.take_first", moves=_options(offer))
    # a turn
    if key in ("withdraw", "pass"):
        return Msg("taj_mahal.no.withdraw")
    parts = key.split("+")
    if len(parts) > 2:
        return Msg("taj_mahal.no.too_many")
    codes = [_card_by_code(p) for p in parts]
    for p, c in zip(parts, codes, strict=True):
        if c is None:
            return Msg("taj_mahal.no.not_a_card", text=p[:20], help=NOTATION_HELP)
    cards = [next(x for x in comp.cards if x.code == c) for c in codes]
    hand = state["hands"][seat]
    counts: dict[str, int] = {}
    for cid in hand:
        counts[comp.cards[cid].code] = counts.get(comp.cards[cid].code, 0) + 1
    for card in cards:
        if counts.get(card.code, 0) == 0:
            return Msg("taj_mahal.no.not_in_hand", card=card.name)
    main = cards[0]
    if main.kind != "colour":
        if len(cards) == 2 and cards[1].kind == "colour":
            return Msg("taj_mahal.no.coloured_first")
        return Msg("taj_mahal.no.needs_colour")
    if len(cards) == 2 and cards[1].kind == "colour":
        return Msg("taj_mahal.no.one_colour")
    if sum(state["inv"]) == 1 and not state["opts"]["last_player_may_play"]:
        return Msg("taj_mahal.no.last_player")
    lock = state["lock"][seat]
    if (
        lock is not None
        and main.colour != lock
        and not (len(cards) == 2 and cards[1].special == "colour")
    ):
        return Msg("taj_mahal.no.colour_lock", colour=Msg(f"taj_mahal.colour.{lock}"))
    return Msg("game.not_legal", text=shown, help=NOTATION_HELP)
