"""Free trading between players in Pastiche: offers, answers, counter-offers, expiry.

The rulebook (S1): "A játékosok szabadon kereskedhetnek a paletta kártyákkal … Azt a
játékost, akinek a köre van, azt be kell vonni minden olyan kereskedésbe" — players trade
palette cards freely; the player whose turn it is must be part of every trade.

Why it looks like this (play by post, days between moves):
- An offer is a standing, public proposal ``{id, from, to, give, get}``: ``give`` are the
  maker's cards, ``get`` the cards the maker asks for; either side may be empty (a gift, or a
  request for one) but not both, and no colour is on both sides. Every offer has a number
  that stays unique for the whole match, so a late ``accept 7`` never hits another offer.
- Any player may offer the active player; the active player may offer anyone. Several
  offers may be open at once; each is answered by its receiver (``accept N``,
  ``decline N``, ``counter N <cards> for <cards>``) or withdrawn by its maker
  (``withdraw N``). A counter-offer closes the offer it answers and opens a new one the
  other way, so one side is always the active player.
- Offers are made and answered only during the active player's trading step and all expire
  when it ends (gallery exchange, first completion, end of turn).
- An offer never executes against a changed hand: whenever a maker no longer holds the cards
  they offered (a bank trade, another accepted offer), their offer lapses at once, and
  ``accept`` checks both hands at that moment; it is refused, changing nothing, when the
  receiver no longer holds what was asked. Because open offers always hold, what a maker
  holds is public knowledge the computer may use without peeking.
- The active player is never blocked: ``to_act`` lists them first, then every receiver of an
  open offer (seats the game waits for); the active player may keep trading, exchange,
  complete or end the turn meanwhile, which lets the offers lapse.
- Offer moves are n-for-m, far too many to list: ``parse`` accepts any of them, and
  ``legal_moves`` lists only a few representative ones (a spare card or two for a colour
  a hand commission lacks), ranked below every other move.
- ``max_offers_per_turn`` (default 3) caps how many offers (counter-offers included) each
  seat makes in one turn, so a turn stays finite and nobody floods the thread.

The notation is the same in every language: ``offer p2 green+green for red``,
``offer p1 orange for -`` (``-`` is the empty side), ``2green`` may be typed for
``green+green``, and ``accept``/``decline``/``withdraw`` without a number mean the only
offer it can be.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from typing import Any

from rules.base import Composer, IllegalMove, Move, Pick, Step
from rules.pastiche.data import load
from rules.pastiche.words import colour_word, colours_word
from rules.words import Join, Msg, Seat

State = dict[str, Any]
#: The most cards one side of an offer may name.
MAX_SIDE = 12
EMPTY = "-"
#: How many lacking colours the representative offers ask for.
SUGGEST_WANTS = 2
#: The most cards a suggested offer gives for one card.
SUGGEST_GIVE = 3

#: One digit for the partner (at most 4 players), so ``offer p2 6green`` (typed ``offerp26green``
#: once spaces are gone) still reads as player 2 giving six green.
OFFER_RE = re.compile(r"^offerp(\d)(.+?)for(.+)$")
COUNTER_RE = re.compile(r"^counter(\d+)(.+?)for(.+)$")
_SIDES_RE = re.compile(r"^(.+?)for(.+)$")
ANSWER_RE = re.compile(r"^(accept|decline|withdraw)(\d*)$")
_ITEM_RE = re.compile(r"^(\d*)([a-z]+)$")

Deal = dict[str, Any]


# ----- cards and words ----------------------------------------------------------------------
def _hand_size(cards: dict[str, int]) -> int:
    return sum(cards.values())


def canonical(colours: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    idx = {c: i for i, c in enumerate(load().names)}
    return tuple(sorted(colours, key=lambda c: idx.get(c, 99)))


def side_notation(colours: tuple[str, ...] | list[str]) -> str:
    return "+".join(colours) if colours else EMPTY


def side_words(colours: tuple[str, ...] | list[str]) -> Msg | Join:
    """``2 green + orange``: repeats counted, so a big offer still reads in one line."""
    if not colours:
        return Msg("pastiche.nothing")
    counts = Counter(colours)
    return Join(
        "pastiche.sep.plus",
        [
            Msg("pastiche.cards", n=n, colour=colour_word(c)) if n > 1 else colour_word(c)
            for c, n in counts.items()
        ],
    )


def _label(
    key: str, give: tuple[str, ...] | list[str], get: tuple[str, ...] | list[str], **params: Any
) -> Msg:
    """A trade's label with the cards named; when that is longer than 100 characters (a
    select option's limit; a big offer), with the cards counted instead (the steps still
    name them all). An offer or counter-offer with an empty side is a gift or a request
    for one, and says so (``…_gift``, ``…_request``) rather than "for their nothing"."""
    if key != "pastiche.label.accept" and not (give and get):
        key += "_gift" if give else "_request"
    label = Msg(key, give=side_words(give), get=side_words(get), **params)
    if len(label) <= 100:
        return label
    return Msg(key, give=_counted(give), get=_counted(get), **params)


def _counted(colours: tuple[str, ...] | list[str]) -> Msg:
    return Msg("pastiche.n_cards", n=len(colours)) if colours else Msg("pastiche.nothing")


def parse_side(text: str) -> tuple[str, ...] | Msg:
    """A typed side (``green+2red``, ``-``) as canonical colours, or why it is not one."""
    if text == EMPTY:
        return ()
    out: list[str] = []
    for item in text.split("+"):
        m = _ITEM_RE.match(item)
        if not m:
            return Msg("pastiche.no.not_a_card", item=item)
        if m.group(2) not in load().colour:
            return Msg("pastiche.no.not_a_colour", colour=m.group(2))
        count = int(m.group(1)) if m.group(1) else 1
        if count > MAX_SIDE:
            return Msg("pastiche.no.side_max", n=MAX_SIDE)
        out += [m.group(2)] * count
    if len(out) > MAX_SIDE:
        return Msg("pastiche.no.side_max", n=MAX_SIDE)
    return canonical(out)


def counter_parts(state: State, key: str) -> tuple[int, str, str] | None:
    """``counter 3 2green for red`` loses its spaces (``counter32greenforred``): the offer
    number is the longest open offer's number the digits start with (else all digits)."""
    if not COUNTER_RE.match(key):
        return None
    rest = key[len("counter") :]
    run = re.match(r"\d+", rest)
    assert run is not None
    for ident in sorted((d["id"] for d in state["deals"]), key=lambda i: -len(str(i))):
        if run.group().startswith(str(ident)):
            m = _SIDES_RE.match(rest[len(str(ident)) :])
            if m:
                return ident, m.group(1), m.group(2)
    m = COUNTER_RE.match(key)
    assert m is not None
    return int(m.group(1)), m.group(2), m.group(3)


def holds(cards: dict[str, int], colours: list[str] | tuple[str, ...]) -> bool:
    return all(cards.get(c, 0) >= n for c, n in Counter(colours).items())


def _missing(cards: dict[str, int], colours: list[str] | tuple[str, ...]) -> list[str]:
    return [c for c, n in Counter(colours).items() if cards.get(c, 0) < n]


# ----- who may trade ------------------------------------------------------------------------
def trading(state: State) -> bool:
    return not state["over"] and state["phase"] == "trade"


def deal(state: State, ident: int) -> Deal | None:
    return next((d for d in state["deals"] if d["id"] == ident), None)


def to_answer(state: State, seat: int) -> list[Deal]:
    return [d for d in state["deals"] if d["to"] == seat]


def own(state: State, seat: int) -> list[Deal]:
    return [d for d in state["deals"] if d["from"] == seat]


def partners(state: State, seat: int) -> list[int]:
    """Whom ``seat`` may offer: anyone else for the active player, else the active player."""
    cur = state["cur"]
    if seat == cur:
        return [q for q in range(state["n"]) if q != seat]
    return [cur]


def offer_problem(
    state: State, seat: int, partner: int, give: tuple[str, ...], get: tuple[str, ...]
) -> Msg | None:
    """Why ``seat`` may not offer this now (player's words), or None when it may."""
    if not trading(state):
        return Msg("pastiche.no.offer_when")
    cur = state["cur"]
    if not 0 <= partner < state["n"] or partner == seat:
        return Msg("pastiche.no.no_player", number=partner + 1)
    if seat != cur and partner != cur:
        return Msg("pastiche.no.offer_cur", who=Seat(cur), number=cur + 1)
    if state["made"][seat] >= state["max_offers"]:
        return Msg("pastiche.no.offers_used", n=state["max_offers"])
    if not give and not get:
        return Msg("pastiche.no.offer_empty")
    both = sorted(set(give) & set(get), key=list(load().names).index)
    if both:
        return Msg("pastiche.no.both_sides", colours=colours_word(both))
    have = state["players"][seat]["cards"]
    for c, n in Counter(give).items():
        if have.get(c, 0) < n:
            return Msg("pastiche.no.hold_only", n=have.get(c, 0), colour=colour_word(c))
    for d in own(state, seat):
        if d["to"] == partner and tuple(d["give"]) == give and tuple(d["get"]) == get:
            return Msg("pastiche.no.offer_twice", id=d["id"])
    return None


def accept_problem(state: State, seat: int, d: Deal) -> Msg | None:
    """Checks both hands at the moment of accepting: the offer runs only as written."""
    mine = state["players"][seat]["cards"]
    lack = _missing(mine, d["get"])
    if lack:
        return Msg(
            "pastiche.no.accept_short",
            id=d["id"],
            give=side_words(d["get"]),
            colours=colours_word(lack),
        )
    if not holds(state["players"][d["from"]]["cards"], d["give"]):
        # unreachable while the lapse rule holds; kept so a trade never runs short
        return Msg("pastiche.no.maker_short", who=Seat(d["from"]), give=side_words(d["give"]))
    return None


# ----- moves --------------------------------------------------------------------------------
def _offer_steps(partner: int, give: tuple[str, ...], get: tuple[str, ...]) -> tuple[Step, ...]:
    return (
        Step("offer", Msg("pastiche.step.offer")),
        Step(f"p{partner + 1}", Msg("pastiche.step.to", who=Seat(partner))),
        Step(f"give {side_notation(give)}", Msg("pastiche.step.giving", cards=side_words(give))),
        Step(f"for {side_notation(get)}", Msg("pastiche.step.for", cards=side_words(get))),
    )


def offer_move(partner: int, give: tuple[str, ...], get: tuple[str, ...]) -> Move:
    return _offer_move(partner, tuple(give), tuple(get))


# The moves of a trade are cached by what their words depend on (the partner, the cards,
# an offer's id and seats): the search lists a seat's offers and answers at every step
# of its simulated trading, and their words were most of that listing's cost.
@lru_cache(maxsize=1 << 12)
def _offer_move(partner: int, give: tuple[str, ...], get: tuple[str, ...]) -> Move:
    return Move(
        f"offer p{partner + 1} {side_notation(give)} for {side_notation(get)}",
        _label("pastiche.label.offer", give, get, who=Seat(partner)),
        _offer_steps(partner, give, get),
        -1.0,
    )


def _deal_key(d: Deal) -> tuple[int, int, int, tuple[str, ...], tuple[str, ...]]:
    """What a deal's words depend on, hashable (a cache key)."""
    return d["id"], d["from"], d["to"], tuple(d["give"]), tuple(d["get"])


def _deal_of(key: tuple[int, int, int, tuple[str, ...], tuple[str, ...]]) -> Deal:
    return {"id": key[0], "from": key[1], "to": key[2], "give": key[3], "get": key[4]}


def _deal_step(d: Deal) -> Step:
    return Step(
        f"offer {d['id']}",
        Msg(
            "pastiche.step.deal",
            id=d["id"],
            who=Seat(d["from"]),
            give=side_words(d["give"]),
            get=side_words(d["get"]),
        ),
    )


def counter_move(d: Deal, give: tuple[str, ...], get: tuple[str, ...]) -> Move:
    return _counter_move(_deal_key(d), tuple(give), tuple(get))


@lru_cache(maxsize=1 << 12)
def _counter_move(
    key: tuple[int, int, int, tuple[str, ...], tuple[str, ...]],
    give: tuple[str, ...],
    get: tuple[str, ...],
) -> Move:
    d = _deal_of(key)
    return Move(
        f"counter {d['id']} {side_notation(give)} for {side_notation(get)}",
        _label("pastiche.label.counter", give, get, id=d["id"], who=Seat(d["from"])),
        (
            _deal_step(d),
            Step("counter", Msg("pastiche.step.counter")),
            *_offer_steps(d["from"], give, get)[2:],
        ),
        -0.5,
    )


def accept_move(d: Deal) -> Move:
    return _accept_move(_deal_key(d))


@lru_cache(maxsize=1 << 10)
def _accept_move(key: tuple[int, int, int, tuple[str, ...], tuple[str, ...]]) -> Move:
    d = _deal_of(key)
    return Move(
        f"accept {d['id']}",
        _label("pastiche.label.accept", d["give"], d["get"], id=d["id"]),
        (_deal_step(d), Step("accept", Msg("pastiche.step.accept"))),
        0.5,
    )


def decline_move(d: Deal) -> Move:
    return _decline_move(_deal_key(d))


@lru_cache(maxsize=1 << 10)
def _decline_move(key: tuple[int, int, int, tuple[str, ...], tuple[str, ...]]) -> Move:
    d = _deal_of(key)
    return Move(
        f"decline {d['id']}",
        Msg("pastiche.label.decline", id=d["id"], who=Seat(d["from"])),
        (_deal_step(d), Step("decline", Msg("pastiche.step.decline"))),
        0.4,
    )


def withdraw_move(d: Deal) -> Move:
    return _withdraw_move(_deal_key(d))


@lru_cache(maxsize=1 << 10)
def _withdraw_move(key: tuple[int, int, int, tuple[str, ...], tuple[str, ...]]) -> Move:
    d = _deal_of(key)
    return Move(
        f"withdraw {d['id']}",
        Msg("pastiche.label.withdraw", id=d["id"], who=Seat(d["to"])),
        (
            Step("withdraw", Msg("pastiche.step.withdraw")),
            Step(str(d["id"]), Msg("pastiche.step.offer_id", id=d["id"])),
        ),
        0.0,
    )


def moves(state: State, seat: int) -> list[Move]:
    """Every answer and withdrawal open to ``seat``, plus a few representative offers and
    counter-offers (any other offer is accepted through ``parse``)."""
    if not trading(state):
        return []
    out: list[Move] = []
    for d in to_answer(state, seat):
        if accept_problem(state, seat, d) is None:
            out.append(accept_move(d))
        out.append(decline_move(d))
        counter = suggested_counter(state, seat, d)
        if counter is not None:
            out.append(counter)
    out += [withdraw_move(d) for d in own(state, seat)]
    out += suggested_offers(state, seat)
    return out


def find(state: State, seat: int, key: str) -> Move | None:
    """The trade move ``key`` (normalised notation) names, if ``seat`` may make it now."""
    if not trading(state):
        return None
    if m := ANSWER_RE.match(key):
        verb, num = m.group(1), m.group(2)
        pool = own(state, seat) if verb == "withdraw" else to_answer(state, seat)
        if num:
            d = next((x for x in pool if x["id"] == int(num)), None)
        else:
            d = pool[0] if len(pool) == 1 else None
        if d is None:
            return None
        if verb == "withdraw":
            return withdraw_move(d)
        if verb == "decline":
            return decline_move(d)
        return accept_move(d) if accept_problem(state, seat, d) is None else None
    if m := OFFER_RE.match(key):
        give, get = parse_side(m.group(2)), parse_side(m.group(3))
        if isinstance(give, Msg) or isinstance(get, Msg):
            return None
        partner = int(m.group(1)) - 1
        if offer_problem(state, seat, partner, give, get) is not None:
            return None
        return offer_move(partner, give, get)
    if parts := counter_parts(state, key):
        d = deal(state, parts[0])
        give, get = parse_side(parts[1]), parse_side(parts[2])
        if d is None or d["to"] != seat or isinstance(give, Msg) or isinstance(get, Msg):
            return None
        if offer_problem(state, seat, d["from"], give, get) is not None:
            return None
        return counter_move(d, give, get)
    return None


def explain(state: State, seat: int, key: str) -> Msg | None:
    """Why a typed trade move is refused, or None when ``key`` is no trade move."""
    m = ANSWER_RE.match(key)
    o = OFFER_RE.match(key)
    c = counter_parts(state, key)
    if not (m or o or c or key.startswith(("offer", "counter"))):
        return None
    if not trading(state):
        return Msg("pastiche.no.trade_when")
    if m:
        verb, num = m.group(1), m.group(2)
        pool = own(state, seat) if verb == "withdraw" else to_answer(state, seat)
        other = deal(state, int(num)) if num else None
        if other is not None and other not in pool:
            if verb == "withdraw":
                return Msg("pastiche.no.not_yours", id=num, who=Seat(other["from"]))
            return Msg("pastiche.no.not_for_you", id=num, who=Seat(other["to"]))
        if not pool:
            none = "pastiche.no.none_open" if verb == "withdraw" else "pastiche.no.none_waiting"
            return Msg(none)
        if not num and len(pool) > 1:
            ids = Join("words.comma", [f"`{verb} {d['id']}`" for d in pool])
            return Msg("pastiche.no.which_offer", ids=ids)
        d = next((x for x in pool if x["id"] == int(num)), None) if num else pool[0]
        if d is None:
            bare = "not_yours_bare" if verb == "withdraw" else "not_for_you_bare"
            return Msg(f"pastiche.no.{bare}", id=num)
        problem = accept_problem(state, seat, d)
        return problem or Msg("pastiche.no.answer_now")
    if o:
        give, get = parse_side(o.group(2)), parse_side(o.group(3))
        for side in (give, get):
            if isinstance(side, Msg):
                return side
        assert not isinstance(give, Msg) and not isinstance(get, Msg)
        problem = offer_problem(state, seat, int(o.group(1)) - 1, give, get)
        return problem or Msg("pastiche.no.offer_now")
    if c:
        d = deal(state, c[0])
        if d is None or d["to"] != seat:
            return Msg("pastiche.no.counter_waiting", id=c[0])
        give, get = parse_side(c[1]), parse_side(c[2])
        for side in (give, get):
            if isinstance(side, Msg):
                return side
        assert not isinstance(give, Msg) and not isinstance(get, Msg)
        problem = offer_problem(state, seat, d["from"], give, get)
        return problem or Msg("pastiche.no.counter_now")
    return Msg("pastiche.no.offer_form")


# ----- what an offer is worth to a seat (its own view only) ----------------------------------
def _needed(hand: list[str]) -> Counter[str]:
    """How many of each colour the hand commissions use together."""
    comms = load().commissions
    out: Counter[str] = Counter()
    for cid in hand:
        out.update(set(comms[cid].palette))
    return out


def worth(
    cards: dict[str, int], hand: list[str], receive: tuple[str, ...], pay: tuple[str, ...]
) -> float:
    """Value of receiving ``receive`` and paying ``pay`` for this hand: card values, plus 3
    for each card that fills a colour a hand commission lacks (minus 3 for each one paid
    away that leaves such a colour short)."""
    value = load().value
    need = _needed(hand)
    held = Counter({c: n for c, n in cards.items() if n})
    total = 0.0
    for c in pay:
        total -= value[c]
        if held[c] <= need[c]:
            total -= 3
        held[c] -= 1
    for c in receive:
        total += value[c]
        if held[c] < need[c]:
            total += 3
        held[c] += 1
    return total


def spares(cards: dict[str, int], hand: list[str]) -> list[str]:
    """Cards beyond what the hand commissions use, cheapest first (chart order on ties)."""
    data = load()
    need = _needed(hand)
    out: list[str] = []
    for c in sorted(data.names, key=lambda c: (data.value[c], data.names.index(c))):
        out += [c] * max(0, cards.get(c, 0) - need[c])
    return out


def _pay_with(spare: list[str], target: float, avoid: set[str]) -> tuple[str, ...] | None:
    """The cheapest spare cards (at most ``SUGGEST_GIVE``) worth at least ``target``."""
    value = load().value
    give: list[str] = []
    for c in spare:
        if c in avoid:
            continue
        give.append(c)
        if sum(value[x] for x in give) >= target or len(give) == SUGGEST_GIVE:
            break
    if not give or sum(value[x] for x in give) < target:
        return None
    return canonical(give)


def lacking(cards: dict[str, int], hand: list[str]) -> list[str]:
    """Colours a hand commission lacks, most wanted (then most valuable) first."""
    data = load()
    need = _needed(hand)
    short = [c for c in data.names if need[c] and cards.get(c, 0) < need[c]]
    return sorted(short, key=lambda c: (-(need[c] - cards.get(c, 0)), -data.value[c]))


def suggested_offers(state: State, seat: int) -> list[Move]:
    """A few sensible offers from ``seat``'s own view: the cheapest spare cards worth as much
    as a colour a hand commission lacks, to each possible partner holding cards (most
    cards first); last, a gift of the cheapest spare card (gifts are part of the rules)."""
    if not trading(state) or state["made"][seat] >= state["max_offers"]:
        return []
    p = state["players"][seat]
    value = load().value
    spare = spares(p["cards"], p["hand"])
    who = sorted(
        (q for q in partners(state, seat) if _hand_size(state["players"][q]["cards"]) > 0),
        key=lambda q: (-_hand_size(state["players"][q]["cards"]), q),
    )
    out: list[Move] = []
    for want in lacking(p["cards"], p["hand"])[:SUGGEST_WANTS]:
        give = _pay_with(spare, value[want], {want})
        if give is None:
            continue
        for q in who:
            if offer_problem(state, seat, q, give, (want,)) is None:
                out.append(offer_move(q, give, (want,)))
    if spare and who:  # and a gift: the cheapest spare card, to whoever holds fewest cards
        gift = (spare[0],)
        if offer_problem(state, seat, who[-1], gift, ()) is None:
            out.append(offer_move(who[-1], gift, ()))
    return out


def answer(state: State, seat: int, d: Deal) -> str:
    """The sensible answer to an offer from the receiver's own view: accept what is worth at
    least as much as it costs (gifts always), else ``decline``."""
    p = state["players"][seat]
    ok = accept_problem(state, seat, d) is None
    if ok and worth(p["cards"], p["hand"], tuple(d["give"]), tuple(d["get"])) >= 0:
        return "accept"
    return "decline"


def suggested_counter(state: State, seat: int, d: Deal) -> Move | None:
    """When an offer brings a card this seat lacks but asks too much (or what it cannot
    give): keep their cards, pay with spare cards worth what they asked instead."""
    if answer(state, seat, d) == "accept":
        return None
    p = state["players"][seat]
    get = tuple(d["give"])
    if not get or worth(p["cards"], p["hand"], get, ()) <= sum(load().value[c] for c in get):
        return None  # nothing they give fills a lack
    target = max(1, sum(load().value[c] for c in d["get"]))
    give = _pay_with(spares(p["cards"], p["hand"]), target, set(get))
    if give is None or offer_problem(state, seat, d["from"], give, get) is not None:
        return None
    return counter_move(d, give, get)


# ----- applying -----------------------------------------------------------------------------
def apply(state: State, seat: int, key: str, events: list[Any] | None, event: Any) -> None:
    """Apply a trade move (already checked by :func:`find`) to the cloned ``state``.
    ``event`` is the Event class (passed in to keep this module free of the game module);
    ``events`` None: nobody reads the words (``Game.next_state``), only the state changes."""
    if m := ANSWER_RE.match(key):
        verb, num = m.group(1), m.group(2)
        pool = own(state, seat) if verb == "withdraw" else to_answer(state, seat)
        d = next(x for x in pool if x["id"] == int(num)) if num else pool[0]
        state["deals"] = [x for x in state["deals"] if x["id"] != d["id"]]
        data = {"id": d["id"], "from": d["from"], "to": d["to"]}
        if verb == "withdraw":
            if events is not None:
                events.append(
                    event("withdraw", Msg("pastiche.ev.withdraw", who=Seat(seat), id=d["id"]), data)
                )
        elif verb == "decline":
            if events is not None:
                events.append(
                    event("decline", Msg("pastiche.ev.decline", who=Seat(seat), id=d["id"]), data)
                )
        else:
            a, b = state["players"][d["from"]]["cards"], state["players"][seat]["cards"]
            for c in d["give"]:
                a[c] -= 1
                b[c] += 1
            for c in d["get"]:
                b[c] -= 1
                a[c] += 1
            if events is not None:
                events.append(
                    event(
                        "accept",
                        Msg(
                            "pastiche.ev.accept",
                            who=Seat(seat),
                            id=d["id"],
                            maker=Seat(d["from"]),
                            give=side_words(d["give"]),
                            get=side_words(d["get"]),
                        ),
                        {**data, "give": list(d["give"]), "get": list(d["get"])},
                    )
                )
            lapse_short(state, events, event)
        return
    if parts := counter_parts(state, key):
        countered = deal(state, parts[0])
        assert countered is not None
        state["deals"] = [x for x in state["deals"] if x["id"] != countered["id"]]
        give, get = parse_side(parts[1]), parse_side(parts[2])
        assert not isinstance(give, Msg) and not isinstance(get, Msg)
        if events is not None:
            events.append(
                event(
                    "counter",
                    Msg("pastiche.ev.counter", who=Seat(seat), id=countered["id"]),
                    {"id": countered["id"], "from": countered["from"], "to": countered["to"]},
                )
            )
        _open(state, seat, countered["from"], give, get, events, event)
        return
    m = OFFER_RE.match(key)
    assert m is not None
    give, get = parse_side(m.group(2)), parse_side(m.group(3))
    assert not isinstance(give, Msg) and not isinstance(get, Msg)
    _open(state, seat, int(m.group(1)) - 1, give, get, events, event)


def _open(
    state: State,
    seat: int,
    partner: int,
    give: tuple[str, ...],
    get: tuple[str, ...],
    events: list[Any] | None,
    event: Any,
) -> None:
    ident = state["deal_id"]
    state["deal_id"] = ident + 1
    state["made"] = list(state["made"])
    state["made"][seat] += 1
    d = {"id": ident, "from": seat, "to": partner, "give": list(give), "get": list(get)}
    state["deals"] = [*state["deals"], d]
    if events is None:
        return
    events.append(
        event(
            "offer",
            Msg(
                "pastiche.ev.offer",
                id=ident,
                who=Seat(seat),
                partner=Seat(partner),
                give=side_words(give),
                get=side_words(get),
            ),
            dict(d),
        )
    )


def lapse_short(state: State, events: list[Any] | None, event: Any) -> None:
    """Offers whose makers no longer hold what they offered lapse at once."""
    keep: list[Deal] = []
    for d in state["deals"]:
        if holds(state["players"][d["from"]]["cards"], d["give"]):
            keep.append(d)
        elif events is not None:
            events.append(
                event(
                    "lapse",
                    Msg(
                        "pastiche.ev.lapse",
                        id=d["id"],
                        who=Seat(d["from"]),
                        give=side_words(d["give"]),
                    ),
                    {"ids": [d["id"]]},
                )
            )
    state["deals"] = keep


def lapse_all(state: State, events: list[Any] | None, event: Any) -> None:
    """The active player's trading step is over: every open offer expires."""
    if state["deals"] and events is not None:
        ids = [d["id"] for d in state["deals"]]
        listed = Join("words.comma", [str(i) for i in ids])
        events.append(
            event(
                "lapse",
                Msg("pastiche.ev.expired", n=len(ids), ids=listed),
                {"ids": ids},
            )
        )
    state["deals"] = []


# ----- the guided panel: an offer built pick by pick ---------------------------------------
def composers(state: State, seat: int) -> list[Composer]:
    """ "Compose an offer": the partner, the cards to give (one option per card held), the
    cards wanted (one option per colour) — any n for m, as typed notation allows."""
    if not trading(state) or state["made"][seat] >= state["max_offers"]:
        return []
    names = load().names
    held = [c for c in names for _ in range(state["players"][seat]["cards"].get(c, 0))]
    held = held[:25]  # a select holds 25 options; more cards are rare and can be typed
    who = partners(state, seat)
    picks = (
        Pick("to", Msg("pastiche.compose.whom"), tuple(Step(f"p{q + 1}", Seat(q)) for q in who)),
        Pick(
            "give",
            Msg("pastiche.compose.give"),
            tuple(Step(c, colour_word(c)) for c in held),
            0,
            len(held),
        ),
        Pick(
            "get",
            Msg("pastiche.compose.get"),
            tuple(Step(c, colour_word(c)) for c in names),
            0,
            len(names),
        ),
    )
    return [Composer("offer", Msg("pastiche.compose.offer"), picks)]


def compose(state: State, seat: int, key: str, chosen: list[list[str]]) -> str:
    if key != "offer" or len(chosen) != 3 or len(chosen[0]) != 1:
        raise IllegalMove(Msg("pastiche.no.compose"))
    give, get = canonical(chosen[1]), canonical(chosen[2])
    return f"offer {chosen[0][0]} {side_notation(give)} for {side_notation(get)}"
