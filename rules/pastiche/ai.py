"""What a computer player needs to know about Pastiche (hooks of :mod:`rules.ai.hooks`).

Hidden information: the other players' palette cards and commission cards (their counts are
public), the order of the commission deck and of the hex supply, and the random-number state.
Palette cards are a closed economy (every card is in the bank or in a hand), so the cards
the others hold together are exactly the box minus the bank minus the seat's own; the
determinizer deals that multiset at random into their hands in the public sizes. Commissions
nobody has seen (not in the seat's hand, the gallery or anyone's completed pile) are dealt
into the other hands and the deck; hexes not on the board or in a hand form the supply.

Why the policies look the way they do: a placement offers hundreds of near-equivalent moves
(hex × spot × rotation × what to take), so moves are ranked by what the cards are worth to
this seat's commissions and only the best few are searched; random trading never ends a
turn, so rollouts complete what they can, make only bank trades that fetch a card a hand
commission lacks while giving away nothing it needs (each one shrinks the hand, so they
stop), and end the turn. A rollout lasts two rounds; the evaluation (points as they would
count now, plus progress toward the hand's commissions) scores where it stops. Progress
and exchanges weigh a missing colour by what it costs to fetch (:data:`FETCH_COST`): black,
white, gray and cream come only from the bank, for several cards.

Offers: the search plays the answer before the offerer moves on (the seat the game waits
for moves first, in the search as in a match), with the answering rule of :meth:`_answer`
applied to the sampled hand, so an offer is worth what its likely answer brings. A computer
still makes at most one offer a turn: after a decline the position is the same but for the
offer count, and a person would be asked the same thing again, up to the rules' three times.
The bot waits for a person's answer before the computer's turn goes on
(``MatchService.computer_turn``), so the one offer is really answered.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from rules.ai.hooks import GameAI
from rules.base import Game, Move, State, View
from rules.pastiche import board as bd
from rules.pastiche import moves as mv
from rules.pastiche import scoring as sc
from rules.pastiche import trade as tr
from rules.pastiche.data import load
from rules.pastiche.words import and_list, colour_word, painter_word, painting_word
from rules.rng import Rng
from rules.words import Msg

#: How many placements (by distinct yield) and centre takes the search considers.
TOP_PLACEMENTS = 6
TOP_CENTRE = 2
#: Candidate bank trades and commission exchanges kept for the search.
TOP_BANK = 4
TOP_SWAPS = 2
#: Frontier spots a rollout placement looks at (a random sample; the whole frontier is
#: searched at the root through ``candidates``).
ROLLOUT_SPOTS = 8
#: Share of rollout placements chosen at random among the legal ones, to explore a little.
NOISE = 0.1
#: Rounds a rollout plays before the evaluation scores it (see ``PasticheAI.cutoff``).
ROLLOUT_ROUNDS = 2
#: Cards it takes to fetch one card of a colour no hex gives (rules section 4.3): three
#: identical cards for black or white, yellow and brown for cream, a black and a white (three
#: cards each) for gray. Every hex colour costs one. Why: counting every missing colour as one
#: made a commission short of white look as near as one short of orange; normal then kept
#: The Fifer (red, black, white, gray) for seven turns without completing it. Weighing the
#: missing colours by these costs, in exchanges and in the evaluation, won 138 of 200 games
#: against the equal count at 0.2 s and 14 of 26 at 2 s (docs/computer_players.md, 2026-12-05).
FETCH_COST = {"black": 3, "white": 3, "cream": 2, "gray": 6}


#: (rank, hex slot, cell, rotation, "mix" or the centre colour taken, cards received)
Placement = tuple[float, int, tuple[int, int], int, str, tuple[str, ...]]


def _want(hand: list[str], cards: dict[str, int]) -> Counter[str]:
    """Cards the hand commissions still lack (a colour two of them lack counts twice)."""
    comms = load().commissions
    out: Counter[str] = Counter()
    for cid in hand:
        for c in set(comms[cid].palette):
            if cards.get(c, 0) < 1:
                out[c] += 1
    return out


def _gain(got: list[str] | tuple[str, ...], want: Counter[str]) -> float:
    """Worth of receiving these cards: their value, +3 for each one a hand commission lacks."""
    value = load().value
    total = 0.0
    lacking = dict(want) if want else None
    for c in got:
        total += value[c]
        if lacking and lacking.get(c, 0) > 0:
            lacking[c] -= 1
            total += 3
    return total


def _cost(colour: str) -> int:
    return FETCH_COST.get(colour, 1)


def _missing(cid: str, cards: dict[str, int]) -> list[str]:
    return [c for c in set(load().commissions[cid].palette) if cards.get(c, 0) < 1]


def _lack_count(cid: str, cards: dict[str, int]) -> int:
    """Colours the commission lacks (what a hint says)."""
    return len(_missing(cid, cards))


def _lack_cost(cid: str, cards: dict[str, int]) -> int:
    """What the commission's missing colours cost to fetch, in cards (:data:`FETCH_COST`):
    what the player weighs when it exchanges commissions and how far the evaluation sees
    a commission from done."""
    return sum(_cost(c) for c in _missing(cid, cards))


def _exchange_gains(
    hand: list[str], gallery: list[str], cards: dict[str, int]
) -> list[tuple[int, str, str]]:
    """(what the exchange saves in :func:`_lack_cost`, hand commission, gallery piece) for
    every exchange, hand then gallery order: the search's candidates and the rollout's
    choice read the same figures, each commission's cost worked out once."""
    lack = {cid: _lack_cost(cid, cards) for cid in (*hand, *gallery)}
    return [(lack[h] - lack[g], h, g) for h in hand for g in gallery]


def _colours(items: list[str]) -> Any:
    """``green``, ``green and red``, ``green, orange and red`` in words."""
    return and_list([colour_word(c) for c in items])


class PasticheAI(GameAI):
    """Determinizer, pruned candidates, rollout policy, evaluation and hint words."""

    #: Strong (three times the iterations) beat normal in 60 of 80 games at 0.1 s (75 %,
    #: interval 64-83 %; docs/computer_players.md, "Strong against normal in Pastiche
    #: again"), so it is offered. The player before FETCH_COST had won 48 of 80 (60 %,
    #: 49-70 %), not shown stronger, and strong was withdrawn from 2026-12-04 to 12-05.
    offers_strong = True

    #: Search iterations per second of CPU by player count. A rollout lasts
    #: :data:`ROLLOUT_ROUNDS` rounds, so it grows with the players (``python -m bot
    #: calibrate`` on 2026-12-04: 441 / 238 / 188 at 2 / 3 / 4 players. At 300 for two
    #: players, arena moves at 2 s had a p95 of 2.47 s on the shared machine, above the
    #: 1.2 × budget the issue allows, so the table is set at about 57 % of the measured rate).
    RATES = {2: 250.0, 3: 140.0, 4: 110.0}

    def iteration_rate(self, game: Game, view: View) -> float:
        return self.RATES.get(view["players"], min(self.RATES.values()))

    # ----- sampling what the seat cannot see --------------------------------------------------
    def determinize(self, game: Game, view: View, seat: int, rng: Rng) -> State:
        data = load()
        n = view["players"]
        me = view["me"]
        seats = view["seats"]
        bank = dict(view["bank"])
        # Palette cards: box minus bank minus mine is what the others hold between them.
        loose: list[str] = []
        for colour in data.colours:
            k = colour.count - bank[colour.name] - me["cards"][colour.name]
            loose.extend([colour.name] * k)
        rng.shuffle(loose)
        # Open offers are public and always hold (an offer lapses once its maker no longer
        # holds what it offers): those cards are known to be in their makers' hands.
        pledged: list[Counter[str]] = [Counter() for _ in range(n)]
        for d in view["offers"]:
            if d["from"] != seat:
                have = Counter(d["give"])
                pledged[d["from"]] |= have
        for q in range(n):
            for c, k in pledged[q].items():
                for _ in range(k):
                    loose.remove(c)
        # Commissions nobody has seen.
        seen = {c["id"] for c in me["hand"]} | {c["id"] for c in view["gallery"]}
        for s in seats:
            seen |= {c["id"] for c in s["done"]}
        unseen = [c for c in data.commission_ids if c not in seen]
        rng.shuffle(unseen)
        players: list[dict[str, Any]] = []
        for i, s in enumerate(seats):
            if i == seat:
                cards = dict(me["cards"])
                hand = [c["id"] for c in me["hand"]]
            else:
                cards = {c: 0 for c in data.names}
                cards.update(pledged[i])
                rest = s["cards"] - sum(pledged[i].values())
                for c in loose[:rest]:
                    cards[c] += 1
                del loose[:rest]
                hand = unseen[: s["commissions"]]
                del unseen[: s["commissions"]]
            players.append(
                {
                    "hexes": [h["id"] if h else None for h in s["hexes"]],
                    "cards": cards,
                    "hand": hand,
                    "done": [c["id"] for c in s["done"]],
                }
            )
        if loose or len(unseen) != view["deck"]:
            raise ValueError("the view's card counts do not add up to the box")
        board = {
            bd.key((b["q"], b["r"])): [b["hex"], b["rotation"], b["corners"]] for b in view["board"]
        }
        used = {b["hex"] for b in view["board"]}
        used |= {h for p in players for h in p["hexes"] if h is not None}
        supply = [h for h in data.hex_ids if h not in used]
        rng.shuffle(supply)
        if len(supply) != view["supply"]:
            raise ValueError("the view's hex counts do not add up to the box")
        last = view["last"]
        last_cell = bd.parse_cell(last) if last else None
        return {
            "n": n,
            "rng": rng.next64(),
            "start": view["start"],
            "cur": view["current"],
            "phase": view["phase"],
            "turns": [s["turns"] for s in seats],
            "supply": supply,
            "deck": unseen,
            "gallery": [c["id"] for c in view["gallery"]],
            "bank": bank,
            "players": players,
            "board": board,
            "spots": [list(c) for c in view["spot_cells"]],
            "last": bd.key(last_cell) if last_cell else None,
            "fresh": list(view["fresh"]),
            "deals": [dict(d) for d in view["offers"]],
            "deal_id": view["next_offer"],
            "made": list(view["offers_made"]),
            "max_offers": view["max_offers"],
            "end": view["end"],
            "over": view["over"],
        }

    # ----- the search's moves -------------------------------------------------------------------
    def candidates(self, game: Game, state: State, seat: int) -> list[Move]:
        if state["over"] or seat not in game.to_act(state):
            return []
        answer = self._answer(state, seat)
        if answer is not None:  # answer offers first: their makers wait for it
            return [answer]
        if seat != state["cur"]:
            return []
        phase = state["phase"]
        if phase == "place":
            return self._place_candidates(state, seat)
        if phase == "discard":
            return [m for m in mv.return_moves(state, seat) if m.notation == "return auto"]
        out = mv.complete_moves(state, seat)
        if phase == "trade":
            out += self._trade_candidates(state, seat)
        ends = mv.end_moves(state, seat)
        out.append(ends[-1])  # "end", or "end auto" when over the hand limit
        return out

    def _ranked_placements(
        self, state: State, seat: int, spots: list[list[int]] | None = None
    ) -> list[Placement]:
        """Every placement on ``spots`` (default: the whole frontier), ranked by what its
        cards are worth to this seat: mixes per hex, cell and rotation, then the centre
        primaries (their spot does not change what they give)."""
        data = load()
        p = state["players"][seat]
        board = state["board"]
        bank = state["bank"]
        want = _want(p["hand"], p["cards"])
        spots = state["spots"] if spots is None else spots
        dabs = [((q, r), bd.dabs_at(board, (q, r))) for q, r in spots]
        memo: dict[tuple[str, ...], tuple[float, tuple[str, ...]]] = {}
        short = {c for c, k in bank.items() if k < 6}  # a yield has at most 6 cards
        out: list[Placement] = []
        for slot, hex_id in enumerate(p["hexes"]):
            if hex_id is None:
                continue
            hx = data.hexes[hex_id]
            rots = mv.distinct_rotations(hx.corners)
            for cell, others in dabs:
                for rot, corners in rots:
                    cards = bd.placement_yield(corners, others)
                    known = memo.get(cards)
                    if known is None:
                        if short.isdisjoint(cards):  # the common case: the bank has them all
                            got = cards
                        else:
                            got = tuple(mv.received(list(cards), bank)[0])
                        known = memo[cards] = (_gain(got, want), got)
                    out.append((known[0], slot, cell, rot, "mix", known[1]))
            cell = (state["spots"][0][0], state["spots"][0][1])
            for x in hx.centre:
                colour = data.letter_colour[x]
                if bank[colour] > 0:
                    out.append((_gain([colour], want), slot, cell, 0, colour, (colour,)))
        return out

    def _place_candidates(self, state: State, seat: int) -> list[Move]:
        """The best few placements with distinct yields and the best centre takes, as the
        very moves ``legal_moves`` lists."""
        ranked = sorted(self._ranked_placements(state, seat), key=lambda t: -t[0])
        chosen: list[tuple[int, tuple[int, int], int, str]] = []
        yields: set[tuple[str, ...]] = set()
        centres = 0
        for _rank, slot, cell, rot, take, got in ranked:
            if take == "mix":
                key = tuple(sorted(got))
                if len(yields) >= TOP_PLACEMENTS or key in yields:
                    continue
                yields.add(key)
            else:
                if centres >= TOP_CENTRE:
                    continue
                centres += 1
            chosen.append((slot, cell, rot, take))
        return [self._place_move(state, seat, *c) for c in chosen]

    @staticmethod
    def _place_move(
        state: State, seat: int, slot: int, cell: tuple[int, int], rot: int, take: str
    ) -> Move:
        """The legal ``Move`` for one placement (built by the rules' own generator)."""
        notation = f"h{slot + 1} {bd.cell_name(cell)} r{rot} {take}"
        for m in mv.place_moves(state, seat, slot, cell, rot):
            if m.notation == notation:
                return m
        raise AssertionError(f"placement {notation} is not legal")

    def _trade_candidates(self, state: State, seat: int) -> list[Move]:
        p = state["players"][seat]
        want = _want(p["hand"], p["cards"])
        gallery_want = _want(state["gallery"], p["cards"])
        out: list[Move] = []
        trades = []
        for give, target in mv.bank_trades(p["cards"], state["bank"]):
            if not (want.get(target) or gallery_want.get(target)):
                continue
            after = Counter(p["cards"])
            after.subtract(give)
            lost = sum(1 for c in set(give) if after[c] < 1 and _needed(p["hand"], c))
            rank = 3 * bool(want.get(target)) + bool(gallery_want.get(target)) - 2 * lost
            trades.append((rank, give, target))
        trades.sort(key=lambda t: -t[0])
        need = mv.needs(state, seat)
        out += [mv.bank_move(g, t, need) for _, g, t in trades[:TOP_BANK]]
        swaps = [t for t in _exchange_gains(p["hand"], state["gallery"], p["cards"]) if t[0] > 0]
        swaps.sort(key=lambda t: -t[0])
        legal_swaps = {m.notation: m for m in mv.swap_moves(state, seat)}
        out += [legal_swaps[f"swap {h} for {g}"] for _, h, g in swaps[:TOP_SWAPS]]
        if state["made"][seat] == 0:  # one offer a turn (why: the module docstring)
            offers = [m for m in tr.suggested_offers(state, seat) if not m.notation.endswith("-")]
            if offers:  # the best of the few sensible offers the rules list (never a gift)
                out.append(offers[0])
        return out

    @staticmethod
    def _answer(state: State, seat: int) -> Move | None:
        """The sensible answer to the first offer waiting for this seat (from its own view:
        accept what is worth what it costs, counter when their cards fill a lack but the
        price is wrong, else decline)."""
        waiting = tr.to_answer(state, seat)
        if not waiting:
            return None
        d = waiting[0]
        if tr.answer(state, seat, d) == "accept":
            return tr.accept_move(d)
        return tr.suggested_counter(state, seat, d) or tr.decline_move(d)

    # ----- rollouts -----------------------------------------------------------------------------
    def rollout_move(self, game: Game, state: State, seat: int, rng: Rng) -> Move:
        p = state["players"][seat]
        waiting = tr.to_answer(state, seat)
        if waiting:
            d = waiting[0]
            if tr.answer(state, seat, d) == "accept":
                return tr.accept_move(d)
            return tr.decline_move(d)
        phase = state["phase"]
        if phase == "place":
            return self._rollout_place(state, seat, rng)
        if phase == "discard":
            return Move("return auto", "return auto")
        completes = mv.complete_moves(state, seat)
        if completes:
            return max(completes, key=lambda m: m.rank)
        if phase == "trade":
            want = _want(p["hand"], p["cards"])
            for give, target in mv.bank_trades(p["cards"], state["bank"]):
                if want.get(target) and not any(_needed(p["hand"], c) for c in give):
                    return mv.bank_move(give, target, Counter())
            gains = _exchange_gains(p["hand"], state["gallery"], p["cards"])
            best = max(gains, key=lambda t: t[0], default=None)  # the first of the best
            if best is not None and best[0] >= 2:
                return Move(f"swap {best[1]} for {best[2]}", "swap")
        if mv.hand_size(p["cards"]) > mv.HAND_LIMIT:
            return Move("end auto", "end auto")
        return Move("end", "end")

    def _rollout_place(self, state: State, seat: int, rng: Rng) -> Move:
        spots = state["spots"]
        if len(spots) > ROLLOUT_SPOTS:
            spots = list(spots)
            rng.shuffle(spots)
            spots = spots[:ROLLOUT_SPOTS]
        ranked = self._ranked_placements(state, seat, spots)
        if rng.below(1000) < NOISE * 1000:
            pick = rng.choice(ranked)
        else:
            top = max(t[0] for t in ranked)
            pick = rng.choice([t for t in ranked if t[0] == top])
        _rank, slot, cell, rot, take, _got = pick
        notation = f"h{slot + 1} {bd.cell_name(cell)} r{rot} {take}"
        return Move(notation, notation)

    # ----- evaluation ---------------------------------------------------------------------------
    def cutoff(self, game: Game, start: State, state: State, depth: int) -> bool:
        """Stop a rollout once every player has had :data:`ROLLOUT_ROUNDS` more turns (the
        evaluation takes over).

        Why: a rollout to the end plays some fifty more turns of a crude policy, whose luck
        (which hexes come, which commissions are drawn) drowns the move being judged; with
        the few rollouts a root move gets, normal then picked moves by noise (it declined
        a commission it could complete, and traded the same two colours back and forth).
        Two rounds let the move's effect show (the cards it brought used or not, the
        other player's reply) and cost a seventh of a full rollout, so a 2 s move searches
        500 iterations instead of 60 at two players. One round was too short: it lost more
        to easy than rollouts to the end did (docs/computer_players.md)."""
        return sum(state["turns"]) - sum(start["turns"]) >= ROLLOUT_ROUNDS * state["n"]

    def evaluate(self, game: Game, state: State) -> list[float] | None:
        """Points as the final scoring would count them now, plus progress toward the
        commissions in hand (the share of their colours held, each weighed by what it costs
        to fetch (:data:`FETCH_COST`), squared: the last cards are the hard ones)."""
        if state["over"]:
            return [float(x) for x in game.scores(state)]
        comms = load().commissions
        out = []
        for p in state["players"]:
            part = sc.breakdown(p["done"], p["hand"], p["cards"])
            progress = 0.0
            for cid in p["hand"]:
                total = sum(_cost(c) for c in set(comms[cid].palette))
                have = total - _lack_cost(cid, p["cards"])
                progress += comms[cid].points * (have / total) ** 2
            out.append(part.total + 0.5 * progress + 0.1 * mv.hand_size(p["cards"]))
        return out

    # ----- hint words ---------------------------------------------------------------------------
    def explain(self, game: Game, view: View, seat: int, move: Move, value: float) -> Msg:
        data = load()
        comms = data.commissions
        tail = Msg("pastiche.hint.tail", percent=round(100 * value))
        me = view["me"]
        cards: dict[str, int] = me["cards"]
        hand = [c["id"] for c in me["hand"]]
        want = _want(hand, cards)
        note = move.notation
        if note.startswith("complete "):
            cid = note.split()[1]
            c = comms[cid]
            gain = c.points
            done = [d["id"] for d in view["seats"][seat]["done"]]
            bonus = sc.painter_bonus([*done, cid]) - sc.painter_bonus(done)
            extra = (
                Msg("pastiche.hint.pair", painter=painter_word(c.painter), bonus=bonus)
                if bonus
                else ""
            )
            return Msg(
                "pastiche.hint.complete",
                title=painting_word(cid),
                extra=extra,
                points=gain + bonus,
                tail=tail,
            )
        if note.startswith("h"):
            m = mv.PLACE_RE.match(note.replace(" ", ""))
            if m is not None:
                got = self._view_yield(view, seat, m) if m.group(4) == "mix" else [m.group(4)]
                helps = sorted({c for c in got if want.get(c)})
                what = _colours(got) if got else Msg("pastiche.no_cards")
                if m.group(4) != "mix":
                    what = Msg("pastiche.from_centre", colour=what)
                worth = sum(data.value[c] for c in got)
                why = (
                    Msg(
                        "pastiche.hint.paint_why",
                        colours=_colours(helps),
                        titles=_lacking_titles(hand, cards, helps),
                    )
                    if helps
                    else ""
                )
                return Msg("pastiche.hint.paint", cards=what, worth=worth, why=why, tail=tail)
        if note.startswith("bank "):
            target = note.split(" for ")[-1]
            why = (
                Msg("pastiche.hint.lacks", titles=_lacking_titles(hand, cards, [target]))
                if want.get(target)
                else ""
            )
            return Msg("pastiche.hint.bank", colour=colour_word(target), why=why, tail=tail)
        if note.startswith("swap "):
            _, h, _, g = note.split()
            return Msg(
                "pastiche.hint.swap",
                gave=painting_word(h),
                gave_lacks=_lack_count(h, cards),
                took=painting_word(g),
                took_lacks=_lack_count(g, cards),
                tail=tail,
            )
        if note.startswith(("offer ", "counter ")):
            asked = [c for c in note.split(" for ")[-1].split("+") if c in data.colour]
            helps = [c for c in asked if want.get(c)]
            why = (
                Msg("pastiche.hint.lacks", titles=_lacking_titles(hand, cards, helps))
                if helps
                else ""
            )
            key = "pastiche.hint.counter" if note.startswith("counter") else "pastiche.hint.offer"
            what = _colours(asked) if asked else Msg("pastiche.nothing")
            return Msg(key, cards=what, why=why, tail=tail)
        if note.startswith("accept"):
            return Msg("pastiche.hint.accept", tail=tail)
        if note.startswith("decline"):
            return Msg("pastiche.hint.decline", tail=tail)
        if note.startswith("return"):
            return Msg("pastiche.hint.return", tail=tail)
        if note.startswith("withdraw"):
            return Msg("pastiche.hint.withdraw", tail=tail)
        return Msg("pastiche.hint.end", tail=tail)

    @staticmethod
    def _view_yield(view: View, seat: int, m: Any) -> list[str]:
        """Cards a typed placement would mix, computed from the public board in the view."""
        data = load()
        slot = int(m.group(1)) - 1
        cell = bd.parse_cell(m.group(2))
        hexes = view["seats"][seat]["hexes"]
        if cell is None or not 0 <= slot < len(hexes) or hexes[slot] is None:
            return []
        board = {
            bd.key((b["q"], b["r"])): [b["hex"], b["rotation"], b["corners"]] for b in view["board"]
        }
        corners = bd.rotate(data.hexes[hexes[slot]["id"]].corners, int(m.group(3)))
        got, _ = mv.received(
            list(bd.placement_yield(corners, bd.dabs_at(board, cell))), view["bank"]
        )
        return got


def _lacking_titles(hand: list[str], cards: dict[str, int], colours: list[str]) -> Any:
    """Titles of the hand commissions that lack any of these colours, in words."""
    comms = load().commissions
    titles: list[object] = [
        painting_word(cid)
        for cid in hand
        if any(c in comms[cid].palette and cards.get(c, 0) < 1 for c in colours)
    ]
    return and_list(titles) if titles else Msg("pastiche.hint.your_commissions")


def _needed(hand: list[str], colour: str) -> bool:
    """Whether a hand commission uses this colour at all (held or not)."""
    comms = load().commissions
    return any(colour in comms[cid].palette for cid in hand)


AI = PasticheAI()
