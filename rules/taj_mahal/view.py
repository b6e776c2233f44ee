"""What players see of a Taj Mahal game: the status line and the view of one seat.

The view is the only thing the pictures, the posts and the computer players read (its
keys are a contract with ``render/taj_mahal/`` and ``rules/taj_mahal/ai.py``); it holds
everything public plus the seat's own hand, never another seat's hand or the deck order.

Everything the table shows face up is in it, so a player who comes back after three days
sees what he would see at the table: the discard pile's cards (face up by the rules, in
the order they were laid on it), the cards each player took from the display and has not
played since (``known``), the last turn (``last``: the cards played, or the prizes won,
palaces placed, crown and display cards taken), and each seat's points by the rulebook's
sources (``points``, summing to its score). A seat's own view also says which cards of its
hand it may still play this visit (``playable``), by the same rule as its legal moves.
"""

from __future__ import annotations

from typing import Any

from rules.base import State, View
from rules.taj_mahal.components import components
from rules.taj_mahal.moves import turn_moves_of
from rules.taj_mahal.rounds import outcome
from rules.taj_mahal.scoring import goods_owned
from rules.taj_mahal.state import phase, province, to_act, withdraw_only
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
    known = state.get("known") or [[] for _ in range(state["n"])]
    sources = state.get("sources")
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
                "known": [card(c) for c in known[s]],
                # None for a state stored before the breakdown was kept
                "points": dict(sources[s]) if sources else None,
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
        "discard": [card(c) for c in state["discard"]],
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
        "last": _last(state, card),
        "over": state["over"],
        "final": state["final"],
        "status": status(state),
    }
    if seat is not None and 0 <= seat < state["n"]:
        out["seat"] = seat
        out["hand"] = [card(c) for c in state["hands"][seat]]
        out["playable"] = playable(state, seat)
    return out


def _last(state: State, card: Any) -> dict[str, Any] | None:
    """The latest turn as the table saw it (cards as the view shows them), or None."""
    last = state.get("last")
    if last is None:
        return None
    return {
        "seat": last["seat"],
        "cards": [card(c) for c in last["cards"]],
        "won": list(last["won"]),
        "palaces": list(last["palaces"]),
        "crown": last["crown"],
        "took": [card(c) for c in last["took"]],
    }


def playable(state: State, seat: int) -> dict[str, list[int]]:
    """Which cards of ``seat``'s hand he may still play this visit, by the rule of his
    legal moves (:func:`rules.taj_mahal.moves.turn_moves_of`): ``cards`` the ids of those
    a play may use, ``with_change`` those of another colour than his lock, playable only
    together with the colour-change card. Both empty once he has withdrawn from the visit
    (or when the last player may only withdraw, ``last_player_may_play`` off).

    Why the rules say it and not the picture: the colour lock, the colour change and
    "a white or special card only beside a coloured card" are rules; a picture that
    worked them out again could tell a player a card is playable when it is not."""
    if state["over"] or not state["inv"][seat] or withdraw_only(state):
        return {"cards": [], "with_change": []}
    comp = components()
    hand = state["hands"][seat]
    lock = state["lock"][seat]
    codes: set[str] = set()
    for move in turn_moves_of(False, lock, tuple(hand), tuple(state["court"])):
        codes.update(move.notation.split("+"))
    usable = [c for c in hand if comp.cards[c].code in codes]
    other = [c for c in usable if comp.cards[c].kind == "colour" and comp.cards[c].colour != lock]
    return {"cards": usable, "with_change": other if lock is not None else []}
