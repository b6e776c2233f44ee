"""A visit's moves made: a turn's cards played, a withdrawal and its resolution.

The withdrawal resolves in the engine's order [R]: majorities (strictly more than each
player still in the visit) win the court's prizes -> palaces (one move each) -> crowned
palace -> province tile goods -> palace connections -> played cards to the discard pile,
specials back to the hand; the display picks and the blind card follow
(``rules/taj_mahal/rounds.py``). The full list of rule decisions is in the package
docstring; those implemented here:

* [L] One palace per influence tile won (option ``palace_per_influence_tile``; off: one
  palace per withdrawal in total).
* [R] Colour-change card: the colour lock does not change; with a player's first coloured
  card it sets the lock as usual.
* Fortress bonus tiles are taken and scored when the regular palace is placed, so a goods
  bonus tile scores before the province tile of the same withdrawal ([R] bonus first). A
  crowned palace takes no bonus tile. "+1 card" draws the top deck card.
* [R] A player out of palaces places none (influence tiles are still won).

Every function changes a state ``s`` that ``apply`` has cloned (see
:func:`rules.taj_mahal.state.clone`), copying first whatever else it changes, and adds its
events to ``events`` unless that is None (``next_state``: nobody reads the words, so none
are built and the state changes exactly the same).
"""

from __future__ import annotations

from bisect import insort
from typing import Any

from rules.base import Event, State
from rules.taj_mahal.components import INFLUENCE, Components
from rules.taj_mahal.scoring import (
    goods_owned,
    goods_score,
    majority_wins,
    palace_score,
    symbol_counts,
)
from rules.taj_mahal.state import add_points, card_codes, draw, next_in, own
from rules.taj_mahal.words import listed
from rules.words import Join, Msg, Seat

#: What winning a court prize gives, in words ("the vizier tile", "the crown").
PRIZE_WORDS = {
    p: Msg(f"taj_mahal.prize.{p}")
    for p in ("vizier", "general", "monk", "princess", "mogul", "elephant")
}


def play(
    s: State,
    seat: int,
    cid: int,
    eid: int | None,
    comp: Components,
    events: list[Event] | None,
) -> None:
    """Play card ``cid`` (with extra card ``eid``), as :func:`turn_play_ids` found them."""
    hand = s["hands"][seat]
    played = s["played"][seat]
    hand.remove(cid)
    played.append(cid)
    main = comp.cards[cid]
    extra = None
    if eid is not None:
        hand.remove(eid)
        played.append(eid)
        extra = comp.cards[eid]
    if s["lock"][seat] is None:
        s["lock"] = s["lock"].copy()  # copy before changing (see clone), likewise below
        s["lock"][seat] = main.colour
    if not s["acted"][seat]:
        s["acted"] = s["acted"].copy()
        s["acted"][seat] = True
    if extra is not None and extra.points:
        add_points(s, seat, "special", extra.points)
    known = s.get("known")
    if known is not None and known[seat]:
        _forget(s, seat, cid)
        if eid is not None:
            _forget(s, seat, eid)
    s["last"] = {
        "seat": seat,
        "cards": [cid] if eid is None else [cid, eid],
        "won": [],
        "palaces": [],
        "crown": None,
        "took": [],
    }
    if events is not None:
        if extra is None:
            text = Msg("taj_mahal.ev.play", who=Seat(seat), card=main.name)
        elif extra.points:
            text = Msg(
                "taj_mahal.ev.play_scored",
                who=Seat(seat),
                card=main.name,
                extra=extra.name,
                points=extra.points,
            )
        else:
            text = Msg("taj_mahal.ev.play_with", who=Seat(seat), card=main.name, extra=extra.name)
        cards = [cid] if eid is None else [cid, eid]
        data: dict[str, Any] = {"seat": seat, "cards": cards}
        if extra is not None and extra.points:
            data["sources"] = {"special": extra.points}
        events.append(Event("play", text, data))
    nxt = next_in(s, seat)
    assert nxt is not None
    s["turn"] = nxt


def _forget(s: State, seat: int, cid: int) -> None:
    """``seat`` played card ``cid``: a card of its kind he took from the display is no
    longer known to be in his hand. Which copy is forgotten follows from public facts
    only (the lowest id of that code he is known to hold: a play takes the lowest copy in
    the hand, and the known cards are in the hand), so the view may show the rest."""
    codes = card_codes()
    code = codes[cid]
    for k in s["known"][seat]:  # sorted ids
        if codes[k] == code:
            own(s, "known", seat)
            s["known"][seat].remove(k)
            return


def withdraw(s: State, seat: int, comp: Components, events: list[Event] | None) -> None:
    """``seat`` leaves the visit: the court prizes he wins by majority over the players still
    in it (influence tiles, the crown, the province tile), and the decisions this opens
    (the ``pending`` record: palaces, crown, display picks, the blind card if he played
    nothing), which :func:`rules.taj_mahal.rounds.settle` and his next moves settle."""
    played, inv = s["played"], s["inv"]
    mine = symbol_counts(played[seat], comp)
    others = []
    for o in range(s["n"]):
        if o != seat and inv[o]:
            others.append(symbol_counts(played[o], comp))
    won = majority_wins(mine, others, s["court"])
    s["inv"] = inv = inv.copy()  # copy before changing (see clone), likewise the court
    inv[seat] = False
    s["court"] = s["court"].copy()
    palaces = 0
    for prize in won:
        s["court"].remove(prize)
        if prize in INFLUENCE:
            if not palaces:  # the first influence tile won: copy before changing
                own(s, "infl", seat)
            s["infl"][seat].append(prize)
            palaces += 1
    if not s["opts"]["palace_per_influence_tile"]:
        palaces = min(palaces, 1)
    palaces = min(palaces, s["left"][seat])
    crown = "mogul" in won and s["left"][seat] > palaces
    ptile = s["visit"] + 1 if "elephant" in won else None
    s["last"] = {
        "seat": seat,
        "cards": [],
        "won": list(won),
        "palaces": [],
        "crown": None,
        "took": [],
    }
    if events is not None:
        prizes = listed([PRIZE_WORDS[p] for p in won]) if won else Msg("taj_mahal.nothing")
        key = "taj_mahal.ev.withdraw" if s["acted"][seat] else "taj_mahal.ev.withdraw_idle"
        text = Msg(key, who=Seat(seat), prizes=prizes)
        events.append(Event("withdraw", text, {"seat": seat, "won": won}))
    s["pending"] = {
        "seat": seat,
        "palaces": palaces,
        "crown": crown,
        "placed": [],
        "ptile": ptile,
        "scored": False,
        "picks": 2,
        "blind": not s["acted"][seat],
    }


def place_palace(
    s: State,
    seat: int,
    city: str,
    comp: Components,
    events: list[Event] | None,
) -> None:
    """The withdrawing ``seat`` places a palace in ``city``, taking and scoring the city's
    bonus tile (if any) at once: a goods tile before the province tile [R]."""
    p = s["pending"]
    own(s, "palace")
    s["palace"][city] = seat
    s["left"] = s["left"].copy()  # copy before changing (see clone), likewise the score
    s["left"][seat] -= 1
    p["palaces"] -= 1
    p["placed"].append(city)
    last = s.get("last")
    if last is not None:  # a new dict: the state before shares the old one (see clone)
        s["last"] = {**last, "palaces": [*last["palaces"], city]}
    b = s["bonus"].get(city)
    if b is not None:  # the city's bonus tile leaves the map: copy before changing
        own(s, "bonus")
        del s["bonus"][city]
    points = 0  # what the bonus tile scored
    drawn: list[int] = []  # what it drew
    if b is not None:
        tile = comp.bonus_tiles[b]
        if tile.kind == "points":
            points = tile.value
        elif tile.kind == "good":
            before = goods_owned(s["ptiles"][seat], s["btiles"][seat], comp)
            points = goods_score([tile.good or ""], before)[0]
        else:
            drawn = draw(s, tile.value, events)
            s["hands"][seat].extend(drawn)
            s["hands"][seat].sort()
        add_points(s, seat, "goods" if tile.kind == "good" else "bonus", points)
        own(s, "btiles", seat)
        s["btiles"][seat].append(b)
    if events is not None:
        events.append(_palace_event(seat, city, b, points, drawn, comp))


def place_crown(
    s: State, seat: int, city: str, comp: Components, events: list[Event] | None
) -> None:
    """The withdrawing ``seat`` crowns a palace in ``city`` (no bonus tile for a crown)."""
    p = s["pending"]
    own(s, "crowned")
    s["crowned"][city] = seat
    s["left"] = s["left"].copy()  # copy before changing (see clone)
    s["left"][seat] -= 1
    p["crown"] = False
    p["placed"].append(city)
    last = s.get("last")
    if last is not None:
        s["last"] = {**last, "crown": city}
    if events is None:
        return
    owner = s["palace"].get(city)
    where = {"who": Seat(seat), "city": comp.city_label(city)}
    if owner is not None:
        text = Msg("taj_mahal.ev.crown_beside", **where, owner=Seat(owner))
    else:
        text = Msg("taj_mahal.ev.crown", **where)
    events.append(
        Event(
            "crown",
            text,
            {"seat": seat, "city": city},
        )
    )


def take(s: State, seat: int, cid: int, comp: Components, events: list[Event] | None) -> None:
    """Take display card ``cid`` (as :func:`display_card` found it) into the hand."""
    s["display"] = s["display"].copy()  # copy before changing (see clone)
    s["display"].remove(cid)
    insort(s["hands"][seat], cid)  # hands stay sorted
    s["pending"]["picks"] -= 1
    if "known" in s:  # taken face up: everyone saw it go into this hand
        own(s, "known", seat)
        insort(s["known"][seat], cid)
    last = s.get("last")
    if last is not None:
        s["last"] = {**last, "took": [*last["took"], cid]}
    if events is None:
        return
    name = comp.cards[cid].name
    events.append(
        Event(
            "take",
            Msg("taj_mahal.ev.take", who=Seat(seat), card=name),
            {"seat": seat, "card": cid},
            {"card": cid},
            {seat: Msg("taj_mahal.ev.you_took", card=name)},
        )
    )


def _palace_event(
    seat: int, city: str, b: int | None, points: int, drawn: list[int], comp: Components
) -> Event:
    """The event of a palace placed in ``city``, with what its bonus tile ``b`` (if any)
    gave: ``points`` scored or the cards ``drawn`` (told only to the placing seat)."""
    where = {"who": Seat(seat), "city": comp.city_label(city)}
    data: dict[str, Any] = {"seat": seat, "city": city}
    if b is None:
        return Event("palace", Msg("taj_mahal.ev.palace", **where), data)
    tile = comp.bonus_tiles[b]
    data["bonus"] = b
    if points:
        data["sources"] = {"goods" if tile.kind == "good" else "bonus": points}
    if tile.kind == "points":
        text = Msg("taj_mahal.ev.palace_points", **where, tile=tile.name, points=points)
        return Event("palace", text, data)
    if tile.kind == "good":
        good = Msg(f"taj_mahal.good.{tile.good}")
        text = Msg("taj_mahal.ev.palace_good", **where, good=good, points=points)
        return Event("palace", text, data)
    text = Msg("taj_mahal.ev.palace_card", **where, tile=tile.name, n=len(drawn))
    cards = listed([comp.cards[c].name for c in drawn]) or Msg("taj_mahal.nothing")
    private: dict[int, str] = {seat: Msg("taj_mahal.ev.you_drew", cards=cards)}
    return Event("palace", text, data, {"drawn": drawn}, private, reveals=True)


def score_withdrawal(s: State, seat: int, comp: Components, events: list[Event] | None) -> None:
    """Once the withdrawing ``seat``'s palaces are placed: the province tile's goods, then
    his connected palaces; his played cards go to the discard pile, specials back to the
    hand."""
    p = s["pending"]
    parts: list[Msg] = []  # the words of each part, only when someone reads them
    total = 0
    sources: dict[str, int] = {}
    if p["ptile"] is not None:
        goods = comp.tile_goods[p["ptile"]]
        before = goods_owned(s["ptiles"][seat], s["btiles"][seat], comp)
        pts = goods_score(goods, before)
        own(s, "ptiles", seat)
        s["ptiles"][seat].append(p["ptile"])
        total += sum(pts)
        sources["goods"] = sum(pts)
        if events is not None:
            each = [
                Msg("taj_mahal.ev.score_good", good=Msg(f"taj_mahal.good.{g}"), points=v)
                for g, v in zip(goods, pts, strict=True)
            ]
            goods_words = Join("taj_mahal.plus", each)
            parts.append(Msg("taj_mahal.ev.score_goods", goods=goods_words))
    if p["placed"]:
        mine = {c for c, o in s["palace"].items() if o == seat}
        mine |= {c for c, o in s["crowned"].items() if o == seat}
        pts_p, provinces = palace_score(mine, p["placed"], comp)
        total += pts_p
        sources["palaces"] = pts_p
        if events is not None:
            names = Join("words.comma", [comp.province_label[x] for x in provinces])
            parts.append(Msg("taj_mahal.ev.score_palaces", points=pts_p, provinces=names))
    for source, points in sources.items():
        add_points(s, seat, source, points)
    if total and events is not None:
        events.append(
            Event(
                "score",
                Msg(
                    "taj_mahal.ev.score",
                    who=Seat(seat),
                    points=total,
                    parts=Join("words.semicolon", parts),
                ),
                {"seat": seat, "points": total, "sources": sources},
            )
        )
    own(s, "discard")
    for cid in s["played"][seat]:
        if comp.cards[cid].kind == "special":
            s["hands"][seat].append(cid)
        else:
            s["discard"].append(cid)
    s["hands"][seat].sort()
    s["played"][seat] = []
