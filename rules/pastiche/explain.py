"""Why a typed Pastiche move is not legal, in plain words.

Kept apart from the game object because it is long and only runs on the error path. The
engine answers "the game is over" and "not your turn" itself (it knows who may act) and
asks here only about a seat that may move, so this module needs nothing of the engine and
the engine can import it (no import cycle).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from rules.base import normalise_notation
from rules.pastiche import board as bd
from rules.pastiche import moves as mv
from rules.pastiche import trade as tr
from rules.pastiche.data import load
from rules.pastiche.words import colour_word, colours_word, painting_word
from rules.words import Join, Msg, Seat

State = dict[str, Any]


def _shown(text: str) -> str:
    return text.strip()[:40] or "that"


def explain(state: State, seat: int, text: str) -> Msg:
    """Why ``text`` is no legal move of ``seat``, who may move now (the game is not over)."""
    key = normalise_notation(text)
    why = tr.explain(state, seat, key)
    if why is not None:
        return why
    cur = state["cur"]
    if seat != cur:
        waiting = tr.to_answer(state, seat)
        answer = Msg("pastiche.no.waiting", id=waiting[0]["id"]) if waiting else ""
        return Msg("pastiche.no.not_your_turn", who=Seat(cur), number=cur + 1, answer=answer)
    phase = state["phase"]
    data = load()
    p = state["players"][seat]
    if phase == "discard":
        if key.startswith("return"):
            colour = key[len("return") :]
            if colour not in data.colour:
                return Msg("pastiche.no.not_a_colour", colour=colour)
            return Msg("pastiche.no.none_to_return", colour=colour_word(colour))
        extra = mv.hand_size(p["cards"]) - mv.HAND_LIMIT
        return Msg("pastiche.no.return_first", n=extra)
    if m := mv.PLACE_RE.match(key):
        return _explain_place(state, seat, m)
    if phase == "place":
        return Msg(
            "pastiche.no.place_first",
            example=_example_place(state, seat),
            hexes=_hint_place(state, seat),
        )
    if key.startswith("bank"):
        return _explain_bank(state, seat, key)
    if key.startswith("swap"):
        if phase != "trade":
            return Msg("pastiche.no.swap_order")
        return Msg("pastiche.no.swap_form")
    if key.startswith("complete"):
        return _explain_complete(state, seat, key[len("complete") :])
    if key.startswith("return"):
        return Msg("pastiche.no.return_when")
    return Msg("pastiche.no.not_a_move", text=_shown(text), help=Msg("pastiche.no.help"))


def _example_place(state: State, seat: int) -> str:
    """A placement that is legal right now (a free spot next to the painting), so the hint
    never suggests a painted cell."""
    slot = next((i for i, h in enumerate(state["players"][seat]["hexes"]) if h), 0)
    spot = state["spots"][0] if state["spots"] else None
    cell = bd.cell_name((spot[0], spot[1])) if spot else "m12"
    return f"`h{slot + 1} {cell} r0 mix`"


def _hint_place(state: State, seat: int) -> Msg:
    slots = [str(i + 1) for i, h in enumerate(state["players"][seat]["hexes"]) if h]
    listed = Join("words.comma", slots) if slots else Msg("pastiche.no.none")
    return Msg("pastiche.no.your_hexes", slots=listed)


def _explain_place(state: State, seat: int, m: re.Match[str]) -> Msg:
    data = load()
    if state["phase"] != "place":
        return Msg("pastiche.no.placed")
    p = state["players"][seat]
    slot = int(m.group(1)) - 1
    if not 0 <= slot < len(p["hexes"]) or p["hexes"][slot] is None:
        return Msg("pastiche.no.no_hex", slot=slot + 1, hexes=_hint_place(state, seat))
    cell = bd.parse_cell(m.group(2))
    if cell is None:
        return Msg("pastiche.no.not_a_cell", cell=m.group(2), example=_example_place(state, seat))
    name = bd.cell_name(cell)
    if bd.key(cell) in state["board"]:
        return Msg("pastiche.no.painted", cell=name, example=_example_place(state, seat))
    if not any(bd.key(n) in state["board"] for n in bd.neighbours(cell)):
        return Msg("pastiche.no.not_touching", cell=name)
    rot = int(m.group(3))
    if rot > 5:
        return Msg("pastiche.no.rotation", rotation=rot)
    take = m.group(4)
    hx = data.hexes[p["hexes"][slot]]
    centre = [data.letter_colour[x] for x in hx.centre]
    if take in centre:
        return Msg("pastiche.no.bank_out", colour=colour_word(take))
    if take != "mix":
        return Msg("pastiche.no.take", colours=colours_word(centre, "pastiche.sep.or"), take=take)
    return Msg("pastiche.no.placement")


def _explain_bank(state: State, seat: int, key: str) -> Msg:
    data = load()
    if state["phase"] != "trade":
        return Msg("pastiche.no.bank_over")
    m = mv.BANK_RE.match(key)
    if not m:
        return Msg("pastiche.no.bank_form")
    give = m.group(1).split("+")
    target = m.group(2)
    for c in [*give, target]:
        if c not in data.colour:
            return Msg("pastiche.no.not_a_colour", colour=c)
    have = state["players"][seat]["cards"]
    for c, n in Counter(give).items():
        if have[c] < n:
            return Msg("pastiche.no.hold_only", n=have[c], colour=colour_word(c))
    if state["bank"][target] <= 0:
        return Msg("pastiche.no.bank_out", colour=colour_word(target))
    if target in give:
        return Msg(
            "pastiche.no.bank_loses",
            give=colours_word(give, "pastiche.sep.plus"),
            colour=colour_word(target),
        )
    g = sorted(give)
    groups = {c.name: c.group for c in data.colours}
    if len(give) == 3 and len(set(give)) == 1:
        return Msg("pastiche.no.bank_three", colour=colour_word(target))
    if g == sorted(["yellow", "brown"]):
        return Msg("pastiche.no.bank_cream")
    if g == sorted(["black", "white"]):
        return Msg("pastiche.no.bank_gray")
    if len(give) == 2 and any(groups[c] == "primary" for c in give):
        return Msg("pastiche.no.bank_primary")
    return Msg("pastiche.no.bank_rates")


def _explain_complete(state: State, seat: int, ident: str) -> Msg:
    data = load()
    p = state["players"][seat]
    if not ident:  # `complete` without a name: say which ones can be completed
        can = [m.steps[1] for m in mv.complete_moves(state, seat)]
        if not can:
            return Msg("pastiche.no.complete_none")
        listed = Join(
            "words.comma",
            [Msg("pastiche.no.complete_item", id=s.key, label=s.label) for s in can],
        )
        example = f"`complete {can[0].key}`"
        return Msg("pastiche.no.complete_which", listed=listed, example=example)
    match = [c for c in data.commission_ids if c.lower() == ident]
    if not match:
        return Msg("pastiche.no.no_commission", id=ident.upper())
    cid = match[0]
    com = data.commissions[cid]
    title = painting_word(cid)
    if cid not in p["hand"] and cid not in state["gallery"]:
        return Msg("pastiche.no.not_held", title=title)
    lack = mv.lacking(com.palette, p["cards"])
    if lack:
        return Msg("pastiche.no.lacking", title=title, colours=colours_word(lack))
    return Msg("pastiche.no.cannot_complete", title=title)
