"""Why a typed Pastiche move is not legal, in plain words.

Kept apart from the game object because it is long and only runs on the error path.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING, Any

from rules.base import normalise_notation
from rules.pastiche import board as bd
from rules.pastiche import moves as mv
from rules.pastiche import trade as tr
from rules.pastiche.data import load

if TYPE_CHECKING:
    from rules.pastiche.game import Pastiche

State = dict[str, Any]


def _shown(text: str) -> str:
    return text.strip()[:40] or "that"


def explain(game: Pastiche, state: State, seat: int, text: str) -> str:
    help_ = "Type /help or see the move list for the notation."
    if state["over"]:
        return "This game is over; no more moves can be made."
    if seat not in game.may_act(state):
        return "It is not your turn."
    key = normalise_notation(text)
    why = tr.explain(state, seat, key)
    if why is not None:
        return why
    cur = state["cur"]
    if seat != cur:
        waiting = tr.to_answer(state, seat)
        answer = (
            f" Offer {waiting[0]['id']} waits for your answer: `accept {waiting[0]['id']}`, "
            f"`decline {waiting[0]['id']}` or `counter {waiting[0]['id']} … for …`."
            if waiting
            else ""
        )
        return (
            f"It is not your turn ({{p{cur}}} is playing); while they trade you may offer "
            f"them cards, e.g. `offer p{cur + 1} green for red`.{answer}"
        )
    phase = state["phase"]
    data = load()
    p = state["players"][seat]
    if phase == "discard":
        if key.startswith("return"):
            colour = key[len("return") :]
            if colour not in data.colour:
                return f"“{colour}” is not a palette colour."
            return f"You hold no {colour} card to return."
        extra = mv.hand_size(p["cards"]) - mv.HAND_LIMIT
        return f"First return {extra} card(s) to the bank: `return <colour>` or `return auto`."
    if m := mv.PLACE_RE.match(key):
        return _explain_place(state, seat, m)
    if phase == "place":
        return (
            "First place one of your hexes, e.g. "
            + _example_place(state, seat)
            + ". "
            + (_hint_place(state, seat))
        )
    if key.startswith("bank"):
        return _explain_bank(state, seat, key)
    if key.startswith("swap"):
        if phase != "trade":
            return "The gallery exchange comes before completing and only once a turn."
        return "Swap a hand commission for a gallery card: `swap <hand id> for <gallery id>`."
    if key.startswith("complete"):
        return _explain_complete(state, seat, key[len("complete") :])
    if key.startswith("return"):
        return "Cards go back only when you end your turn holding more than 8."
    return f"“{_shown(text)}” is not a Pastiche move. {help_}"


def _example_place(state: State, seat: int) -> str:
    """A placement that is legal right now (a free spot next to the painting), so the hint
    never suggests a painted cell."""
    slot = next((i for i, h in enumerate(state["players"][seat]["hexes"]) if h), 0)
    spot = state["spots"][0] if state["spots"] else None
    cell = bd.cell_name((spot[0], spot[1])) if spot else "m12"
    return f"`h{slot + 1} {cell} r0 mix`"


def _hint_place(state: State, seat: int) -> str:
    slots = [str(i + 1) for i, h in enumerate(state["players"][seat]["hexes"]) if h]
    return f"Your hexes: {', '.join(slots) or 'none'}."


def _explain_place(state: State, seat: int, m: re.Match[str]) -> str:
    data = load()
    if state["phase"] != "place":
        return "You have already placed your hex this turn."
    p = state["players"][seat]
    slot = int(m.group(1)) - 1
    if not 0 <= slot < len(p["hexes"]) or p["hexes"][slot] is None:
        return f"You have no hex {slot + 1}. " + _hint_place(state, seat)
    cell = bd.parse_cell(m.group(2))
    if cell is None:
        return (
            f"“{m.group(2)}” is not a cell name (a row letter and a column number), e.g. "
            + _example_place(state, seat)
            + "."
        )
    name = bd.cell_name(cell)
    if bd.key(cell) in state["board"]:
        return f"{name} is already painted; an empty spot: " + _example_place(state, seat) + "."
    if not any(bd.key(n) in state["board"] for n in bd.neighbours(cell)):
        return f"{name} does not touch the painting: a hex must share a side with it."
    rot = int(m.group(3))
    if rot > 5:
        return f"Rotation {rot} does not exist: use 0 to 5."
    take = m.group(4)
    hx = data.hexes[p["hexes"][slot]]
    centre = [data.letter_colour[x] for x in hx.centre]
    if take in centre:
        return f"The bank has no {take} left."
    if take != "mix":
        return (
            f"End the move with `mix` (the mixed cards) or the centre colour "
            f"({' or '.join(centre)}), not “{take}”."
        )
    return "That placement is not available."


def _explain_bank(state: State, seat: int, key: str) -> str:
    data = load()
    if state["phase"] != "trade":
        return "Trading is over for this turn: trades come before the exchange and completions."
    m = mv.BANK_RE.match(key)
    if not m:
        return "Bank trades look like `bank green+green+green for black`."
    give = m.group(1).split("+")
    target = m.group(2)
    for c in [*give, target]:
        if c not in data.colour:
            return f"“{c}” is not a palette colour."
    have = state["players"][seat]["cards"]
    for c, n in Counter(give).items():
        if have[c] < n:
            return f"You hold only {have[c]} {c}."
    if state["bank"][target] <= 0:
        return f"The bank has no {target} left."
    if target in give:
        return f"Trading {' + '.join(give)} for {target} would only lose cards."
    g = sorted(give)
    groups = {c.name: c.group for c in data.colours}
    if len(give) == 3 and len(set(give)) == 1:
        return f"Three identical cards buy black, white, a secondary or a tertiary, not {target}."
    if g == sorted(["yellow", "brown"]):
        return "Yellow + brown buys cream only."
    if g == sorted(["black", "white"]):
        return "Black + white buys gray only."
    if len(give) == 2 and any(groups[c] == "primary" for c in give):
        return "A primary + any card buys another primary only."
    return (
        "The bank rates are: 3 identical cards → black/white/secondary/tertiary; "
        "yellow + brown → cream; black + white → gray; primary + any card → a primary."
    )


def _explain_complete(state: State, seat: int, ident: str) -> str:
    data = load()
    p = state["players"][seat]
    if not ident:  # `complete` without a name: say which ones can be completed
        can = [m.steps[1] for m in mv.complete_moves(state, seat)]
        if not can:
            return (
                "You cannot complete any commission now: your palette cards cover none of "
                "the commissions in your hand or in the gallery."
            )
        listed = ", ".join(f"{s.key} ({s.label})" for s in can)
        example = f"`complete {can[0].key}`"
        return f"Complete which commission? You can complete: {listed}. Type e.g. {example}."
    match = [c for c in data.commission_ids if c.lower() == ident]
    if not match:
        return f"There is no commission “{ident.upper()}”."
    cid = match[0]
    com = data.commissions[cid]
    if cid not in p["hand"] and cid not in state["gallery"]:
        return f"{com.title} is neither in your hand nor in the gallery."
    lack = mv.lacking(com.palette, p["cards"])
    if lack:
        return f"To complete {com.title} you still lack {', '.join(lack)}."
    return f"{com.title} cannot be completed now."
