"""Move generation for Pastiche, one generator per kind of move.

Why per kind: a turn holds several moves (place, bank trades, offers, exchange, completions,
end), and some kinds are numerous (a placement is hex × spot × rotation × what to take; an offer
is partner × any cards given × any cards asked for: see :mod:`rules.pastiche.trade`). ``parse``
decodes a notation's kind and asks only that generator (with filters), so checking one typed
move never builds the thousands of others. Every generator builds its ``Move`` through the same
function, so ``parse(notation) == the move in legal_moves`` by construction.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from functools import cache, lru_cache
from string import Formatter
from typing import Any

from rules.base import Move, Step
from rules.pastiche import board as bd
from rules.pastiche.data import load
from rules.pastiche.words import colour_word, colours_word, painting_word
from rules.words import ENGLISH, Join, Msg, _restore_msg

State = dict[str, Any]
HAND_LIMIT = 8
MAX_STEP_OPTIONS = 25

PLACE_RE = re.compile(r"^h(\d+)([a-z]+-?\d+)r(\d+)([a-z]+)$")
BANK_RE = re.compile(r"^bank([a-z+]+)for([a-z]+)$")


# ----- small helpers ------------------------------------------------------------------------
def hand_size(cards: dict[str, int]) -> int:
    return sum(cards.values())


def order_index() -> dict[str, int]:
    return _order_index()


@cache
def _order_index() -> dict[str, int]:
    return {c: i for i, c in enumerate(load().names)}


def canonical(colours: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Colours sorted in chart order (the order of data/pastiche/palette.json)."""
    idx = _order_index()
    if len(colours) == 2:  # the bank's pairs, listed at every trading step: no sort
        a, b = colours
        return (a, b) if idx.get(a, 99) <= idx.get(b, 99) else (b, a)
    return tuple(sorted(colours, key=lambda c: idx.get(c, 99)))


def lacking(palette: tuple[str, ...], cards: dict[str, int]) -> list[str]:
    return [c for c in palette if cards.get(c, 0) < 1]


def needs(state: State, seat: int) -> Counter[str]:
    """Cards this seat still lacks for the commissions in hand (a colour wanted by both
    hand commissions counts twice): used to rank suggestions, never to restrict moves."""
    p = state["players"][seat]
    comms = load().commissions
    want: dict[str, int] = {}  # a plain dict: Counter.update costs more, same counts
    for cid in p["hand"]:
        for c in comms[cid].palette:
            want[c] = want.get(c, 0) + 1
    cards = p["cards"]
    return Counter({c: n - cards.get(c, 0) for c, n in want.items() if n > cards[c]})


def received(cards: Sequence[str], bank: dict[str, int]) -> tuple[list[str], list[str]]:
    """Split wanted cards into those the bank can give and those it has run out of."""
    n = len(cards)
    if all(bank[c] >= n for c in cards):  # the common case: no stack can run out
        return list(cards), []
    left = dict(bank)
    got: list[str] = []
    short: list[str] = []
    for c in cards:
        if left.get(c, 0) > 0:
            left[c] -= 1
            got.append(c)
        else:
            short.append(c)
    return got, short


def _gain_rank(got: list[str], need: dict[str, int]) -> float:
    """Suggestion order: value of the cards, +2 for each card a hand commission lacks."""
    value = load().value
    total = 0
    for c in got:  # a loop, not sum() over a generator: called for every different yield
        total += value[c]
    if need:
        for c in set(got):
            n = need.get(c)
            if n:  # min(count, 0) adds nothing
                total += 2 * min(got.count(c), n)
    return float(total)


# ----- placements ----------------------------------------------------------------------------
def distinct_rotations(corners: str) -> list[tuple[int, str]]:
    """Rotations 0–5 whose corner strings differ (a symmetric hex repeats itself)."""
    return _distinct_rotations(corners)


@cache
def _distinct_rotations(corners: str) -> list[tuple[int, str]]:
    seen: set[str] = set()
    out: list[tuple[int, str]] = []
    for rot in range(6):
        c = bd.rotate(corners, rot)
        if c not in seen:
            seen.add(c)
            out.append((rot, c))
    return out


def equivalent_rotation(state: State, seat: int, slot: int, rot: int) -> int:
    """The offered rotation that looks exactly like ``rot`` for the hex in ``slot`` (itself
    when the hex has no symmetry); ``rot`` unchanged when the slot or rotation is invalid."""
    hexes = state["players"][seat]["hexes"]
    if not 0 <= slot < len(hexes) or hexes[slot] is None or not 0 <= rot <= 5:
        return rot
    corners = load().hexes[hexes[slot]].corners
    look = bd.rotate(corners, rot)
    return next(r for r, c in distinct_rotations(corners) if c == look)


def spot_groups(spots: list[bd.Cell]) -> dict[bd.Cell, Step]:
    """Cached by the spot list: a state's frontier changes only when a hex is painted."""
    return _spot_groups(tuple(spots))


@lru_cache(maxsize=256)
def _spot_groups(spots: tuple[bd.Cell, ...]) -> dict[bd.Cell, Step]:
    """The coarse step above the spot: its row, or a band of rows, chunked so that no step
    offers more than 25 options (a long thin painting can have many spots in one row)."""
    rows: dict[str, list[bd.Cell]] = {}
    for cell in spots:  # spots come sorted by row, then column
        rows.setdefault(bd.row_name(cell[1]), []).append(cell)
    # (first row, last row, key, label, cells)
    chunks: list[tuple[str, str, str, Msg, list[bd.Cell]]] = []
    for name, cells in rows.items():
        parts = [cells[i : i + MAX_STEP_OPTIONS] for i in range(0, len(cells), MAX_STEP_OPTIONS)]
        for i, part in enumerate(parts):
            suffix = f" part {i + 1}" if len(parts) > 1 else ""
            label = _row_label(name, i, len(parts) > 1)
            chunks.append((name, name, f"row {name}{suffix}", label, part))
    while len(chunks) > MAX_STEP_OPTIONS:  # merge the smallest neighbouring pair of rows
        i = min(range(len(chunks) - 1), key=lambda j: len(chunks[j][4]) + len(chunks[j + 1][4]))
        a, b = chunks[i], chunks[i + 1]
        first, last = a[0], b[1]
        merged = (
            first,
            last,
            f"rows {first}-{last}",
            _rows_label(first, last),
            a[4] + b[4],
        )
        chunks[i : i + 2] = [merged]
    out: dict[bd.Cell, Step] = {}
    for _first, _last, k, label, cells in chunks:
        step = Step(k, label)
        for cell in cells:
            out[cell] = step
    return out


@lru_cache(maxsize=256)
def _row_label(row: str, i: int, split: bool) -> Msg:
    """A spot group's words (cached: each new painting lists its spots afresh, in the
    same few rows): the row, or its part ``i`` (from 0) when the row is ``split``."""
    if split:
        return Msg("pastiche.step.row_part", row=row, part=i + 1)
    return Msg("pastiche.step.row", row=row)


@lru_cache(maxsize=256)
def _rows_label(first: str, last: str) -> Msg:
    return Msg("pastiche.step.rows", first=first, last=last)


@cache
def _hex_step(slot: int, hex_id: str) -> Step:
    hx = load().hexes[hex_id]
    names = load().letter_colour
    centre = colours_word([names[x] for x in hx.centre], "pastiche.sep.or")
    return Step(
        f"h{slot + 1}", Msg("pastiche.step.hex", slot=slot + 1, corners=hx.corners, centre=centre)
    )


@cache
def _rot_step(rot: int) -> Step:
    turn = Msg("pastiche.step.as_drawn") if rot == 0 else Msg("pastiche.step.turned", n=rot)
    return Step(f"r{rot}", Msg("pastiche.step.rotation", rotation=rot, turn=turn))


@cache
def _spot_step(name: str) -> Step:
    return Step(name, Msg("pastiche.step.at", cell=name))


@cache
def _take_step(take: str, words: str) -> Step:
    return Step(take, Msg("pastiche.step.take", cards=words))


@lru_cache(maxsize=1 << 12)
def _mix_take(got: tuple[str, ...], short: tuple[str, ...]) -> tuple[Msg | Join, Step]:
    """What taking a placement's mix says: its words and its take step, in one look-up (met
    once per different yield of a listing). Bounded, unlike :func:`_take_step` (kept for the
    few centre colours): a match's yields are mostly its own, so new ones keep coming."""
    words = yield_words(list(got), list(short))
    return words, Step("mix", Msg("pastiche.step.take", cards=words))


def yield_words(got: list[str], short: list[str]) -> Msg | Join:
    """What a placement's mix gives: ``green, orange``, ``no cards``, and the colours the
    bank is out of."""
    return _yield_words(tuple(got), tuple(short))


@lru_cache(maxsize=1 << 12)
def _yield_words(got: tuple[str, ...], short: tuple[str, ...]) -> Msg | Join:
    """Cached: a hex's corners make few different yields, met at every spot and rotation."""
    words: Msg | Join = colours_word(got) if got else Msg("pastiche.no_cards")
    if short:
        words = Msg("pastiche.yield_short", cards=words, colours=colours_word(sorted(set(short))))
    return words


@lru_cache(maxsize=1 << 14)
def _place_label(slot: int, cell: str, rot: int, words: Msg | Join) -> Msg:
    """Cached: the same placements are listed again for every look at a state (a typed
    label's check, the AI); a miss, the usual case when many matches are listed one after
    another, is made by :func:`_label`."""
    return _label("pastiche.label.place", slot, cell, rot, "cards", words)


@lru_cache(maxsize=1 << 12)
def _centre_label(slot: int, cell: str, rot: int, colour: str) -> Msg:
    return _label("pastiche.label.place_centre", slot, cell, rot, "colour", colour_word(colour))


def _label(key: str, slot: int, cell: str, rot: int, last: str, value: Msg | Join) -> Msg:
    """``Msg(key, slot=slot, cell=cell, rotation=rot, **{last: value})``, the same message
    (text, key, params in that order), made without formatting its template.

    Why: a listing of placements makes a label for every spot, rotation and yield it has not
    seen lately (with many matches listed one after another, most of them), and formatting
    the template was a large part of a label's cost. The text around the last value depends
    on the hex slot, spot and rotation only (few per match), so it is cut once
    (:func:`_text_around`) and each label is that text joined around its value. A template
    whose last parameter is not one plain ``{name}`` field is formatted as usual.
    """
    params = {"slot": slot, "cell": cell, "rotation": rot, last: value}
    around = _text_around(key, last, slot, cell, rot)
    if around is None:
        return Msg(key, **params)
    return _restore_msg(around[0] + value + around[1], key, params)


#: Stands for a message's last parameter while the text around it is worked out.
_HOLE = "\x00"


@lru_cache(maxsize=1 << 12)
def _text_around(key: str, last: str, slot: int, cell: str, rot: int) -> tuple[str, str] | None:
    """The English text of placement label ``key`` before and after its parameter ``last``;
    None when that is not exactly one plain ``{last}`` field (a format spec or a conversion
    would change the value's text)."""
    template = ENGLISH.get(key)
    if template is None:
        return None
    fields = [(f, spec, conv) for _, f, spec, conv in Formatter().parse(template) if f is not None]
    if fields.count((last, "", None)) != 1 or [f for f, _, _ in fields].count(last) != 1:
        return None
    text = template.format(slot=slot, cell=cell, rotation=rot, **{last: _HOLE})
    if text.count(_HOLE) != 1:
        return None
    head, _, tail = text.partition(_HOLE)
    return head, tail


def place_moves(
    state: State,
    seat: int,
    slot_only: int | None = None,
    cell_only: bd.Cell | None = None,
    rot_only: int | None = None,
) -> list[Move]:
    """Every placement with what it yields, best first (value of the cards, plus a bonus for
    cards your hand commissions still lack); ties in the order listed (slot, spot, rotation,
    mix before the centre colours).

    Why it is built this way: the button panel lists a new state's moves at every version
    (hundreds of placements, a large share of a bot process's CPU under load), and the
    labels' caches miss across matches, so the per-move work is kept to building the move:
    - a yield's words, rank, take step and rank bucket are worked out once per different
      yield (few occur among a turn's hundreds of placements);
    - notations are a prefix per (slot, spot) joined to a tail per (rotation, take);
    - instead of sorting (rank, move) pairs, moves go straight into one list per rank, and
      the lists are joined from the highest rank down: the very order a stable sort by rank,
      reversed, gives (equal ranks keep the order listed), without the pairs or the sort;
    - moves are made by :func:`_move` (see there).
    """
    data = load()
    p = state["players"][seat]
    board = state["board"]
    bank = state["bank"]
    spots = [(q, r) for q, r in state["spots"]]
    groups = spot_groups(spots)
    need = needs(state, seat)
    if cell_only is not None:
        spots = [c for c in spots if c == cell_only]
    cells = [
        (bd.cell_name(c), bd.dabs_at(board, c), groups[c], _spot_step(bd.cell_name(c)))
        for c in spots
    ]
    # rank -> the moves of that rank, in the order listed
    buckets: dict[float, list[Move]] = {}
    # what a yield gives (its words, take step and rank's bucket) depends on the yield, the
    # bank and the needs only, and few different yields occur among a turn's placements
    gives: dict[tuple[str, ...], tuple[Msg | Join, Step, float, list[Move]]] = {}
    for slot, hex_id in enumerate(p["hexes"]):
        if hex_id is None or (slot_only is not None and slot != slot_only):
            continue
        hx = data.hexes[hex_id]
        hstep = _hex_step(slot, hex_id)
        centre = [
            (c, _gain_rank([c], need), _take_step(c, colour_word(c)))
            for c in (data.letter_colour[x] for x in hx.centre)
            if bank[c] > 0
        ]
        centre_buckets = [buckets.setdefault(crank, []) for _, crank, _ in centre]
        # per rotation: its corners, step, the mix's notation tail, and per centre colour
        # (notation tail, colour, rank, take step, bucket)
        rots = [
            (
                rot,
                corners,
                _rot_step(rot),
                f"{rot} mix",
                [
                    (f"{rot} {c}", c, crank, cstep, cbucket)
                    for (c, crank, cstep), cbucket in zip(centre, centre_buckets, strict=True)
                ],
            )
            for rot, corners in distinct_rotations(hx.corners)
            if rot_only is None or rot == rot_only
        ]
        for name, others, gstep, sstep in cells:
            head = f"h{slot + 1} {name} r"
            for rot, corners, rstep, mix_tail, takes in rots:
                mix = bd.placement_yield(corners, others)
                given = gives.get(mix)
                if given is None:
                    got, short = received(mix, bank)
                    words, tstep = _mix_take(tuple(got), tuple(short))
                    rank = _gain_rank(got, need)
                    given = gives[mix] = (words, tstep, rank, buckets.setdefault(rank, []))
                words, tstep, rank, bucket = given
                bucket.append(
                    _move(
                        head + mix_tail,
                        _place_label(slot + 1, name, rot, words),
                        (hstep, gstep, sstep, rstep, tstep),
                        rank,
                    )
                )
                for tail, colour, crank, cstep, cbucket in takes:
                    cbucket.append(
                        _move(
                            head + tail,
                            _centre_label(slot + 1, name, rot, colour),
                            (hstep, gstep, sstep, rstep, cstep),
                            crank,
                        )
                    )
    out: list[Move] = []
    for rank in sorted(buckets, reverse=True):
        out += buckets[rank]
    return out


_new_object = object.__new__
#: ``Move`` as its slots' owner: reading a field on the class gives the slot's descriptor,
#: which mypy knows only as the field's type (hence ``Any``, for these four lines only).
_MOVE_SLOTS: Any = Move
_set_notation = _MOVE_SLOTS.notation.__set__
_set_label = _MOVE_SLOTS.label.__set__
_set_steps = _MOVE_SLOTS.steps.__set__
_set_rank = _MOVE_SLOTS.rank.__set__


def _move(notation: str, label: str, steps: tuple[Step, ...], rank: float) -> Move:
    """``Move(notation, label, steps, rank)``, the same object, made about three times faster.

    Why: a listing of placements makes hundreds of moves, and a frozen dataclass's
    ``__init__`` sets each field through ``object.__setattr__`` (the price of being frozen),
    which made building the moves the largest single cost of listing them. This sets the
    four slots directly. ``Move`` has no ``__post_init__`` and exactly these four fields:
    tests/test_pastiche_rules.py checks both, so this cannot silently drift from ``Move``.
    """
    move = _new_object(Move)
    _set_notation(move, notation)
    _set_label(move, label)
    _set_steps(move, steps)
    _set_rank(move, rank)
    return move


def placement_takes(
    state: State, seat: int, slot: int, cell: bd.Cell, rot: int, need: Counter[str]
) -> list[tuple[float, str]]:
    """(rank, take) of the placements ``place_moves(state, seat, slot, cell, rot)`` lists
    (``need`` is ``needs(state, seat)``), in its order, without building their moves: the
    rollout ranks a few sampled placements and builds only the one it plays."""
    data = load()
    bank = state["bank"]
    hx = data.hexes[state["players"][seat]["hexes"][slot]]
    corners = bd.rotate(hx.corners, rot)
    got, _short = received(bd.placement_yield(corners, bd.dabs_at(state["board"], cell)), bank)
    out = [(_gain_rank(got, need), 0, "mix")]
    for c in (data.letter_colour[x] for x in hx.centre):
        if bank[c] > 0:
            out.append((_gain_rank([c], need), len(out), c))
    out.sort(key=lambda t: (-t[0], t[1]))
    return [(rank, take) for rank, _, take in out]


# ----- bank trades -----------------------------------------------------------------------------
_BANK = Step("bank", Msg("pastiche.step.bank"))


def three_for_one_targets() -> tuple[str, ...]:
    """What three identical cards buy: black, white, any secondary or tertiary."""
    return _three_targets()


@cache
def _three_targets() -> tuple[str, ...]:
    return tuple(c.name for c in load().colours if c.group in ("shade", "secondary", "tertiary"))


def primaries() -> tuple[str, ...]:
    return _primaries()


@cache
def _primaries() -> tuple[str, ...]:
    return tuple(c.name for c in load().colours if c.group == "primary")


def bank_trades(cards: dict[str, int], bank: dict[str, int]) -> list[tuple[tuple[str, ...], str]]:
    """(cards given, card received) for every bank trade the rates allow now.

    Trades whose received card is among the given ones are left out: they only lose cards.
    """
    out: list[tuple[tuple[str, ...], str]] = []
    for colour in load().names:
        if cards.get(colour, 0) >= 3:
            for t in three_for_one_targets():
                if t != colour and bank[t] > 0:
                    out.append(((colour,) * 3, t))
    if cards.get("yellow", 0) and cards.get("brown", 0) and bank["cream"] > 0:
        out.append((canonical(["yellow", "brown"]), "cream"))
    if cards.get("black", 0) and cards.get("white", 0) and bank["gray"] > 0:
        out.append((canonical(["black", "white"]), "gray"))
    seen: set[tuple[tuple[str, ...], str]] = set()
    for prim in primaries():
        if not cards.get(prim, 0):
            continue
        for pen in load().names:
            if cards.get(pen, 0) < (2 if pen == prim else 1):
                continue
            give = canonical([prim, pen])
            for t in primaries():
                if t in give or bank[t] <= 0 or (give, t) in seen:
                    continue
                seen.add((give, t))
                out.append((give, t))
    return out


def _bank_kind(give: tuple[str, ...]) -> Step:
    if len(give) == 3:
        return Step("3same", Msg("pastiche.step.bank_three"))
    if set(give) == {"yellow", "brown"}:
        return Step("yellow+brown", Msg("pastiche.step.bank_cream"))
    if set(give) == {"black", "white"}:
        return Step("black+white", Msg("pastiche.step.bank_gray"))
    return Step("primary+any", Msg("pastiche.step.bank_primary"))


def bank_terms(give: tuple[str, ...], target: str, need: Counter[str]) -> tuple[int, int]:
    """What a bank trade does for the hand's commissions: (1 if it gets a card one of
    them lacks, how many given cards one of them wants). Its move's rank follows."""
    return min(1, need.get(target, 0)), sum(1 for c in give if need.get(c, 0) > 0)


def bank_rank(gain: int, spent: int) -> float:
    return 1.0 + 3 * gain - spent


def bank_move(give: tuple[str, ...], target: str, need: Counter[str]) -> Move:
    return _bank_move(give, target, *bank_terms(give, target, need))


@lru_cache(maxsize=1 << 12)
def _bank_move(give: tuple[str, ...], target: str, gain: int, spent: int) -> Move:
    """The bank-trade Move; cached since the same trades recur every trading step."""
    kind = _bank_kind(give)
    mid: tuple[Step, ...]
    if len(give) == 3:
        mid = (Step(f"3 {give[0]}", Msg("pastiche.step.give_three", colour=colour_word(give[0]))),)
    elif kind.key == "primary+any":
        prim = next(c for c in give if c in primaries())
        pen = give[1] if give[0] == prim else give[0]
        mid = (
            Step(f"give {prim}", Msg("pastiche.step.give", colour=colour_word(prim))),
            Step(f"and {pen}", Msg("pastiche.step.and", colour=colour_word(pen))),
        )
    else:
        mid = ()
    rank = bank_rank(gain, spent)
    return Move(
        f"bank {'+'.join(give)} for {target}",
        Msg(
            "pastiche.label.bank",
            give=colours_word(give, "pastiche.sep.plus"),
            colour=colour_word(target),
        ),
        (_BANK, kind, *mid, Step(target, Msg("pastiche.step.get", colour=colour_word(target)))),
        rank,
    )


def bank_moves(state: State, seat: int) -> list[Move]:
    need = needs(state, seat)
    p = state["players"][seat]
    return [bank_move(g, t, need) for g, t in bank_trades(p["cards"], state["bank"])]


# ----- commissions ---------------------------------------------------------------------------
#: Labels stay within 100 characters (a select option's limit): a longer one is said
#: shorter (the steps still hold every detail), never cut in the middle of a word.
MAX_LABEL = 100


def complete_moves(state: State, seat: int) -> list[Move]:
    comms = load().commissions
    p = state["players"][seat]
    out: list[Move] = []
    for where, ids in (("hand", p["hand"]), ("gallery", state["gallery"])):
        for cid in ids:
            if not lacking(comms[cid].palette, p["cards"]):
                out.append(_complete_move(cid, where))
    return out


@lru_cache(maxsize=1 << 10)
def _complete_move(cid: str, where: str) -> Move:
    """Cached: a completion's words depend on the commission and where it lies only, and
    the search lists a seat's completions at every step of its simulated turns."""
    c = load().commissions[cid]
    place = Msg(f"pastiche.where.{where}")
    title = painting_word(cid)
    return Move(
        f"complete {cid}",
        _complete_label(title, c.points, place, c.palette),
        (
            Step("complete", Msg("pastiche.step.complete")),
            Step(
                cid,
                Msg("pastiche.step.commission", title=title, points=c.points, where=place),
            ),
        ),
        10.0 + c.points,
    )


def _complete_label(title: Msg, points: int, where: Msg, palette: tuple[str, ...]) -> Msg:
    label = Msg(
        "pastiche.label.complete",
        title=title,
        points=points,
        where=where,
        palette=colours_word(palette),
    )
    if len(label) <= MAX_LABEL:
        return label
    return Msg("pastiche.label.complete_short", title=title, points=points, where=where)


def _swap_label(hand: Msg, gallery: Msg) -> Msg:
    label = Msg("pastiche.label.swap", hand=hand, gallery=gallery)
    if len(label) <= MAX_LABEL:
        return label
    return Msg("pastiche.label.swap_short", hand=hand, gallery=gallery)


def swap_moves(state: State, seat: int) -> list[Move]:
    return [_swap_move(h, g) for h in state["players"][seat]["hand"] for g in state["gallery"]]


@lru_cache(maxsize=1 << 12)
def _swap_move(h: str, g: str) -> Move:
    """Cached: a swap's words depend on the two commissions only, and building them (six
    messages) was a share of every trading step's listing."""
    th, tg = painting_word(h), painting_word(g)
    return Move(
        f"swap {h} for {g}",
        _swap_label(th, tg),
        (
            Step("swap", Msg("pastiche.step.swap")),
            Step(h, Msg("pastiche.step.give_commission", title=th)),
            Step(g, Msg("pastiche.step.take_commission", title=tg)),
        ),
        0.2,
    )


# ----- ending the turn -----------------------------------------------------------------------
def end_moves(state: State, seat: int) -> list[Move]:
    return list(_end_moves(max(0, hand_size(state["players"][seat]["cards"]) - HAND_LIMIT)))


@lru_cache(maxsize=64)
def _end_moves(extra: int) -> tuple[Move, ...]:
    """Cached by the cards over the hand limit (the only thing their words depend on): every
    simulated turn of the search ends with one."""
    if not extra:
        end = Msg("pastiche.label.end")
        return (Move("end", end, (Step("end", end),), 1.0),)
    return (
        Move(
            "end",
            Msg("pastiche.label.end_choose", n=extra),
            (Step("end", Msg("pastiche.step.end_choose")),),
            1.0,
        ),
        Move(
            "end auto",
            Msg("pastiche.label.end_auto", n=extra),
            (Step("end auto", Msg("pastiche.step.end_auto")),),
            0.9,
        ),
    )


def auto_returns(state: State, seat: int) -> list[str]:
    """The documented default for the hand limit: return first the cards that no hand
    commission can use (lowest value first), then the least valuable of the rest; ties go
    by chart order. Deterministic, and it never throws away usable scoring cards first."""
    data = load()
    p = state["players"][seat]
    cards = dict(p["cards"])
    want: Counter[str] = Counter()
    for cid in p["hand"]:
        want.update(data.commissions[cid].palette)
    idx = _order_index()
    out: list[str] = []
    while hand_size(cards) > HAND_LIMIT:
        held = [c for c in data.names if cards[c] > 0]
        c = min(
            held,
            key=lambda c: (cards[c] <= want.get(c, 0), data.value[c], idx[c]),
        )
        cards[c] -= 1
        out.append(c)
    return out


def return_moves(state: State, seat: int) -> list[Move]:
    p = state["players"][seat]
    extra = hand_size(p["cards"]) - HAND_LIMIT
    out = [_return_move(c) for c in load().names if p["cards"][c] > 0]
    out.append(_return_auto(extra))
    return out


@cache
def _return_move(c: str) -> Move:
    """Cached, like the other moves whose words depend on little (here the colour)."""
    return Move(
        f"return {c}",
        Msg("pastiche.label.return", colour=colour_word(c)),
        (Step(c, Msg("pastiche.step.return", colour=colour_word(c))),),
        0.0,
    )


@lru_cache(maxsize=64)
def _return_auto(extra: int) -> Move:
    return Move(
        "return auto",
        Msg("pastiche.label.return_auto", n=extra),
        (Step("auto", Msg("pastiche.step.return_auto")),),
        1.0,
    )
