"""What players see of a Taj Mahal game: the status line and the view of one seat.

The view is the only thing the pictures, the posts and the computer players read (its
keys are a contract with ``render/taj_mahal/`` and ``rules/taj_mahal/ai.py``); it holds
everything public plus the seat's own hand, never another seat's hand or the deck order.
"""

from __future__ import annotations

from typing import Any

from rules.base import State, View
from rules.taj_mahal.components import components
from rules.taj_mahal.rounds import outcome
from rules.taj_mahal.scoring import goods_owned
from rules.taj_mahal.state import phase, province, to_act
from rules.words import Msg, Seat


def status(state: State) -> str:
    """One line on where the game stands: the visit, its province and who decides what."""
    comp = components()
    if state["over"]:
        out = outcome(state)
        return Msg("taj_mahal.status.over", reason=out.reason if out else "")
    said = {
        "visit": state["visit"] + 1,
        "visits": comp.setup.visits,
        "province": comp.province_label[province(state)],
        "who": Seat(to_act(state)[0]),
    }
    now = phase(state)
    if now == "turn":
        return Msg("taj_mahal.status.turn", **said)
    p = state["pending"]
    if now == "palace":
        return Msg("taj_mahal.status.palace", **said, n=p["palaces"])
    if now == "crown":
        return Msg("taj_mahal.status.crown", **said)
    k = min(p["picks"], len(state["display"]))
    return Msg("taj_mahal.status.pick", **said, n=k)


def view(state: State, seat: int | None) -> View:
    """What ``seat`` may see (everything public, and his own hand; ``None``: a spectator)."""
    comp = components()

    def card(cid: int) -> dict[str, Any]:
        c = comp.cards[cid]
        return {
            "id": cid,
            "code": c.code,
            "name": c.name,
            "kind": c.kind,
            "colour": c.colour,
            "symbols": list(c.symbols),
        }

    prov = province(state)
    players = []
    for s in range(state["n"]):
        players.append(
            {
                "score": state["score"][s],
                "hand_size": len(state["hands"][s]),
                "played": [card(c) for c in state["played"][s]],
                "colour": state["lock"][s],
                "in_visit": state["inv"][s],
                "played_this_visit": state["acted"][s],
                "influence": list(state["infl"][s]),
                "province_tiles": list(state["ptiles"][s]),
                "bonus_tiles": [comp.bonus_tiles[b].code for b in state["btiles"][s]],
                # "+1 card" tiles are set aside once used (rules 9.1): draw them as used
                "bonus_tiles_used": [
                    comp.bonus_tiles[b].code
                    for b in state["btiles"][s]
                    if comp.bonus_tiles[b].kind == "card"
                ],
                "goods": goods_owned(state["ptiles"][s], state["btiles"][s], comp),
                "palaces_left": state["left"][s],
                "specials": [sid for sid, o in state["special"].items() if o == s],
            }
        )
    p = state["pending"]
    out: View = {
        "players": state["n"],
        # Match options are public settings; a computer player's determinizer needs them
        # to rebuild a state whose moves follow the same rules.
        "options": dict(state["opts"]),
        "visit": state["visit"] + 1,
        "visits": comp.setup.visits,
        "province": prov,
        "province_tiles": dict(state["tiles"]),
        "tile_goods": {str(k): list(v) for k, v in comp.tile_goods.items()},
        "bonus": {
            c: {
                "code": comp.bonus_tiles[b].code,
                "kind": comp.bonus_tiles[b].kind,
                "name": comp.bonus_tiles[b].name,
            }
            for c, b in state["bonus"].items()
        },
        "palaces": dict(state["palace"]),
        "crowned": dict(state["crowned"]),
        "court": list(state["court"]),
        "court_tile": state["visit"] + 1 if "elephant" in state["court"] else None,
        "influence_stock": dict(state["stock"]),
        "specials": dict(state["special"]),
        "display": [card(c) for c in state["display"]],
        "deck_size": len(state["deck"]),
        "discard_size": len(state["discard"]),
        "turn": state["turn"],
        "start": state["start"],
        "to_act": to_act(state),
        "phase": "over" if state["over"] else phase(state),
        "pending": None
        if p is None
        else {
            "seat": p["seat"],
            "palaces": p["palaces"],
            "crown": p["crown"],
            "picks": p["picks"] if p["scored"] else 2,
        },
        "player_info": players,
        "over": state["over"],
        "final": state["final"],
        "status": status(state),
    }
    if seat is not None and 0 <= seat < state["n"]:
        out["seat"] = seat
        out["hand"] = [card(c) for c in state["hands"][seat]]
    return out
