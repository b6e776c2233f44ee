"""Between decisions: what settles itself after a move, the end of a visit and of the game.

After a withdrawal the engine settles everything that needs no decision and stops at the
withdrawing player's next one (:func:`settle`); when the last player has withdrawn the
visit ends (:func:`end_visit`), and after the last visit the hands score
(:func:`finish`). The rule decisions implemented here (the package docstring lists them
all):

* [R] A crown with no legal city (every city holds his own palace) is lost for that visit.
* 2 display picks (moves; the last player gets the 1 left) -> +1 blind card from the deck
  if he played nothing this visit.
* [R] An unclaimed province tile is out of play after its visit.
* [R] Claims of special cards (pairs of identical influence tiles) happen after visit 12
  too, before hand scoring. Pairs are claimed at the end of a visit only.
* A pair of influence tiles claimed by the player already holding that special card: he
  keeps it (the event says "keeps").
* The start passes to the left (next seat) after every visit.
* [R] Final tie: shared win (equal rank), no tie-breaker.

Like ``visit.py``, these change a state ``apply`` has cloned, copying first what they
change, and build events only when ``events`` is not None.
"""

from __future__ import annotations

from rules.base import Event, Outcome, State, rank_by
from rules.taj_mahal.components import INFLUENCE, Components
from rules.taj_mahal.scoring import hand_score
from rules.taj_mahal.state import (
    SYMBOL_ORDER,
    add_points,
    crown_cities,
    draw,
    free_cities,
    next_in,
    own,
    province,
)
from rules.taj_mahal.visit import score_withdrawal
from rules.taj_mahal.words import listed
from rules.words import Join, Msg, Seat


def visit_words(state: State, prov: str, comp: Components) -> Msg:
    """The event opening a visit: province, its tile's goods, who starts, the display."""
    number = state["visit"] + 1
    return Msg(
        "taj_mahal.ev.visit",
        visit=number,
        province=comp.province_label[prov],
        goods=Join("words.comma", [Msg(f"taj_mahal.good.{g}") for g in comp.tile_goods[number]]),
        who=Seat(state["start"]),
        display=Join("words.comma", [comp.cards[c].name for c in state["display"]]),
    )


def settle(s: State, comp: Components, events: list[Event] | None, prov: str | None = None) -> None:
    """Settle everything that needs no decision, stopping at the next one. ``prov``:
    the province visited, when the caller has looked it up already."""
    p = s["pending"]
    if p is None:
        return
    seat = p["seat"]
    if p["palaces"] > 0:
        if prov is None:
            prov = province(s)
        if free_cities(s, prov):
            return
        p["palaces"] = 0
    if p["crown"]:
        if crown_cities(s, seat, prov or province(s)):
            return
        p["crown"] = False
        if events is not None:
            events.append(Event("crown", Msg("taj_mahal.ev.no_crown", who=Seat(seat))))
    if not p["scored"]:
        p["scored"] = True
        score_withdrawal(s, seat, comp, events)
    if p["picks"] > 0 and s["display"]:
        return
    if p["blind"]:
        p["blind"] = False
        drawn = draw(s, 1, events)
        s["hands"][seat].extend(drawn)
        s["hands"][seat].sort()
        if drawn and events is not None:
            name = comp.cards[drawn[0]].name
            events.append(
                Event(
                    "draw",
                    Msg("taj_mahal.ev.draw", who=Seat(seat)),
                    {"seat": seat},
                    {"card": drawn[0]},
                    {seat: Msg("taj_mahal.ev.you_drew_deck", card=name)},
                    reveals=True,
                )
            )
    s["pending"] = None
    nxt = next_in(s, seat)
    if nxt is not None:
        s["turn"] = nxt
    else:
        end_visit(s, comp, events)


def end_visit(s: State, comp: Components, events: list[Event] | None) -> None:
    """Everyone has withdrawn: special cards claimed, the display discarded, then the next
    visit opened (its start seat, the court refilled, a new display) or the game finished."""
    # 1. pairs of influence tiles claim special cards (after visit 12 too [R]). Most
    # visits end without a pair, and then the claims and their copies are skipped.
    for infl in s["infl"]:
        if len(set(infl)) < len(infl):
            _claim_specials(s, comp, events)
            break
    s["discard"] = s["discard"] + s["display"]  # a new list: see clone
    s["display"] = []
    if s["visit"] + 1 >= comp.setup.visits:
        finish(s, comp, events)
        return
    s["visit"] += 1
    s["start"] = (s["start"] + 1) % s["n"]
    s["turn"] = s["start"]
    s["inv"] = [True] * s["n"]
    s["acted"] = [False] * s["n"]
    s["lock"] = [None] * s["n"]
    s["court"] = s["court"].copy()  # copy before changing (see clone), likewise the stock
    s["stock"] = s["stock"].copy()
    for kind in INFLUENCE:
        if kind not in s["court"] and s["stock"][kind] > 0:
            s["stock"][kind] -= 1
            s["court"].append(kind)
    for prize in ("mogul", "elephant"):
        if prize not in s["court"]:
            s["court"].append(prize)
    s["court"].sort(key=SYMBOL_ORDER.__getitem__)
    s["display"] = draw(s, comp.display_size(s["n"]), events)
    if events is None:
        return
    prov = province(s)
    events.append(
        Event(
            "visit",
            visit_words(s, prov, comp),
            {"visit": s["visit"] + 1, "province": prov, "display": list(s["display"])},
            reveals=True,
        )
    )


def _claim_specials(s: State, comp: Components, events: list[Event] | None) -> None:
    """Every pair of identical influence tiles a seat holds goes back to the stock and
    claims that kind's special card, seat by seat (:func:`end_visit`, when a pair exists)."""
    for key in ("infl", "hands", "stock", "special"):
        own(s, key)
    for seat in range(s["n"]):
        for kind in INFLUENCE:
            if s["infl"][seat].count(kind) >= 2:
                s["infl"][seat].remove(kind)
                s["infl"][seat].remove(kind)
                s["stock"][kind] += 2
                sid = comp.special_for_kind[kind]
                cid = comp.specials[sid]
                holder = s["special"][sid]
                if holder is not None:
                    s["hands"][holder].remove(cid)
                s["hands"][seat].append(cid)
                s["hands"][seat].sort()
                s["special"][sid] = seat
                if events is None:
                    continue
                said = {
                    "who": Seat(seat),
                    "kind": Msg(f"taj_mahal.symbol.{kind}"),
                    "card": comp.cards[cid].name,
                }
                if holder == seat:
                    told = Msg("taj_mahal.ev.keeps", **said)
                elif holder is not None:
                    told = Msg("taj_mahal.ev.claim_from", **said, holder=Seat(holder))
                else:
                    told = Msg("taj_mahal.ev.claim", **said)
                events.append(
                    Event(
                        "claim",
                        told,
                        {"seat": seat, "special": sid, "from": holder},
                    )
                )


def finish(s: State, comp: Components, events: list[Event] | None) -> None:
    """After the last visit: every hand scores (:func:`rules.taj_mahal.scoring.hand_score`)
    and the game is over."""
    final = []
    for seat in range(s["n"]):
        h = hand_score(s["hands"][seat], comp)
        add_points(s, seat, "hand", int(h["points"]))  # type: ignore[call-overload]
        final.append(h)
        if events is None:
            continue
        events.append(
            Event(
                "hand",
                Msg(
                    "taj_mahal.ev.hand",
                    who=Seat(seat),
                    points=h["points"],
                    specials=h["specials"],
                    white=h["white"],
                    n=h["colour_cards"],
                    colour=Msg(f"taj_mahal.colour.{h['colour']}")
                    if h["colour"]
                    else Msg("taj_mahal.coloured"),
                ),
                {
                    "seat": seat,
                    **h,
                    "hand": list(s["hands"][seat]),
                    "sources": {"hand": h["points"]},
                },
                reveals=True,
            )
        )
    s["final"] = final
    s["over"] = True
    s["pending"] = None
    if events is None:
        return
    out = outcome(s)
    assert out is not None
    events.append(
        Event("end", Msg("taj_mahal.ev.end", reason=out.reason), {"scores": list(s["score"])})
    )


def outcome(state: State) -> Outcome | None:
    """The result once the game is over: the higher score ranks first; equal scores share
    the rank [R] (no tie-breaker)."""
    if not state["over"]:
        return None
    scores = list(state["score"])
    ranks = rank_by([(x,) for x in scores])
    winners = [i for i, r in enumerate(ranks) if r == 1]
    best = scores[winners[0]]
    # n: the family's form (and number) by the score; points: the same, for a reader of
    # the words stored before these were families (one form with {points})
    if len(winners) > 1:
        who = listed([Seat(w) for w in winners])
        reason = Msg("taj_mahal.result.shared", who=who, n=best, points=best)
    else:
        reason = Msg("taj_mahal.result.wins", who=Seat(winners[0]), n=best, points=best)
    details = [dict(h) for h in state["final"] or []]
    return Outcome(scores, ranks, reason, details)
