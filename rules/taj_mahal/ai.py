"""What a computer player needs to know about Taj Mahal (hooks of :mod:`rules.ai.hooks`).

Hidden information in Taj Mahal: the other players' hands (their sizes, the special cards
each holds and the cards each took from the display are public), the order of the draw pile
and the random-number state. Everything else the view shows, the discard pile's cards
included. The determinizer therefore deals the ordinary cards nobody can see (the 96
ordinary cards minus the seat's own hand, every card on the table, the display, the discard
pile and the cards known to be in a hand) at random into the other hands, beside what each
is known to hold, and the draw pile, in the sizes the view shows.

Why the policies look the way they do: a visit is an auction of the court prizes, so the
rollout asks "which prizes do I lead now, and which card would make me lead more?", plays
while a card buys a lead worth more than the card, and withdraws otherwise; that keeps
playouts short (nobody burns a hand on a lost cause) and close to how people play.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from rules.ai.hooks import GameAI
from rules.base import Game, Move, State, View
from rules.rng import Rng
from rules.taj_mahal.components import INFLUENCE, Card, components
from rules.taj_mahal.scoring import goods_owned, hand_score, majority_wins, symbol_counts
from rules.taj_mahal.words import listed
from rules.words import Msg

#: Rough worth (points) of a court prize to the player who takes it: an influence tile
#: brings a palace (connections, maybe a bonus tile) and counts toward a special card.
PRIZE_VALUE = {"vizier": 2.5, "general": 2.5, "monk": 2.5, "princess": 2.5, "mogul": 2.0}
#: Rough worth of keeping one card in hand (end-of-game point, fuel for later visits).
CARD_VALUE = 1.1
#: Worth of a palace still to be placed by a withdrawing player (connections, bonus tile).
PALACE_VALUE = 2.0
#: Share of a prize's worth counted for leading it while the visit goes on.
LEAD_SHARE = 0.7
#: Share of rollout turns played uniformly at random, so playouts explore a little.
NOISE = 0.1

#: Court prizes in hint words (the elephant's names the goods it brings: see ``explain``).
PRIZE_NAMES = {
    p: Msg(f"taj_mahal.hint.prize.{p}") for p in ("vizier", "general", "monk", "princess", "mogul")
}


@cache
def _by_code() -> dict[str, Card]:
    return {c.code: c for c in components().cards}


@cache
def _code_by_city() -> dict[str, str]:
    comp = components()
    return {comp.city_code(c): c for c in comp.cities}


def _move_cards(note: str) -> list[Card]:
    """The cards a play move (``R-VE`` or ``R-VE+W-C``) puts on the table."""
    cards = _by_code()
    return [cards[code] for code in note.split("+")]


def _best(moves: list[Move], values: list[float], rng: Rng) -> Move:
    """The move of highest value, ties broken at random."""
    top = max(values)
    best = [m for m, v in zip(moves, values, strict=True) if v >= top - 1e-9]
    return best[0] if len(best) == 1 else rng.choice(best)


class TajMahalAI(GameAI):
    """Determinizer, rollout policy, evaluation and hint words for Taj Mahal."""

    # No strong level (``offers_strong`` stays off): one strong player against two normal
    # won 34.5 of 81 games at 0.1 s (43 %, interval 32-53 %, the even share 33 %).

    #: Search iterations per second of CPU by player count (``python -m bot calibrate``,
    #: 2026-12-03 on a loaded machine, 3 runs: 3p 1,500-1,900, 4p 1,700-2,050, 5p
    #: 1,050-1,380; set below the lowest): the normal level's budget becomes this many
    #: iterations. Rollouts end with their visit, so an iteration is ~10x cheaper than the
    #: whole-game rollouts of the first calibration (190/135/125). Lowered on 2026-12-03
    #: after the rules began to speak in messages (idle machine: 3p 1,269, 4p 1,190,
    #: 5p 927 per CPU second).
    RATES = {3: 1150.0, 4: 1100.0, 5: 850.0}

    def iteration_rate(self, game: Game, view: View) -> float:
        return self.RATES.get(view["players"], 125.0)

    # ----- sampling what the seat cannot see --------------------------------------------------
    def determinize(self, game: Game, view: View, seat: int, rng: Rng) -> State:
        comp = components()
        n = view["players"]
        info = view["player_info"]
        played = [[c["id"] for c in p["played"]] for p in info]
        mine = sorted(c["id"] for c in view["hand"])
        display = [c["id"] for c in view["display"]]
        discard = [c["id"] for c in view["discard"]]
        known = [[c["id"] for c in p["known"]] for p in info]
        seen = set(mine) | set(display) | set(discard) | {c for pl in played for c in pl}
        seen |= {c for k in known for c in k}
        pool = [c for c in comp.deck if c not in seen]
        rng.shuffle(pool)
        hands: list[list[int]] = []
        for s in range(n):
            if s == seat:
                hands.append(mine)
                continue
            # Special cards are public: their holder keeps them in hand unless played now.
            # and the cards he took from the display (not played since) are still there
            held = [
                comp.specials[sid]
                for sid, owner in view["specials"].items()
                if owner == s and comp.specials[sid] not in played[s]
            ] + known[s]
            k = info[s]["hand_size"] - len(held)
            hands.append(sorted(held + pool[:k]))
            del pool[:k]
        deck = pool
        if len(deck) != view["deck_size"] or len(discard) != view["discard_size"]:
            raise ValueError("the view's card counts do not add up to the deck")
        state: State = {
            "n": n,
            "opts": dict(view["options"]),
            "rng": rng.next64(),
            "visit": view["visit"] - 1,
            "tiles": dict(view["province_tiles"]),
            "bonus": {},
            "palace": dict(view["palaces"]),
            "crowned": dict(view["crowned"]),
            "left": [p["palaces_left"] for p in info],
            "court": list(view["court"]),
            "stock": dict(view["influence_stock"]),
            "infl": [list(p["influence"]) for p in info],
            "ptiles": [list(p["province_tiles"]) for p in info],
            "btiles": [[] for _ in range(n)],
            "hands": hands,
            "played": played,
            "lock": [p["colour"] for p in info],
            "inv": [p["in_visit"] for p in info],
            "acted": [p["played_this_visit"] for p in info],
            "turn": view["turn"],
            "start": view["start"],
            "deck": deck,
            "discard": discard,
            "display": display,
            "special": dict(view["specials"]),
            "score": [p["score"] for p in info],
            "pending": None,
            "over": view["over"],
            "final": view["final"],
            "sources": [dict(p["points"] or {}) for p in info],
            "known": known,
            "last": self._last(view),
        }
        self._bonus_tiles(view, state)
        if view["pending"] is not None:
            state["pending"] = self._pending(view, state)
        return state

    @staticmethod
    def _last(view: View) -> dict[str, Any] | None:
        """The latest turn as the state keeps it (card ids), from the view's."""
        last = view["last"]
        if last is None:
            return None
        return {
            **last,
            "cards": [c["id"] for c in last["cards"]],
            "took": [c["id"] for c in last["took"]],
            "won": list(last["won"]),
            "palaces": list(last["palaces"]),
        }

    @staticmethod
    def _bonus_tiles(view: View, state: State) -> None:
        """Bonus tiles are shown by code; identical tiles are interchangeable, so give each
        shown tile a distinct index of its code in a fixed order."""
        comp = components()
        free: dict[str, list[int]] = {}
        for i, tile in enumerate(comp.bonus_tiles):
            free.setdefault(tile.code, []).append(i)
        for city, tile in view["bonus"].items():
            state["bonus"][city] = free[tile["code"]].pop(0)
        for s, p in enumerate(view["player_info"]):
            state["btiles"][s] = [free[code].pop(0) for code in p["bonus_tiles"]]

    @staticmethod
    def _pending(view: View, state: State) -> dict[str, Any]:
        """The withdrawing player's open decisions, rebuilt from public facts: palaces go
        only to the visited province, the province tile is his when the elephant left the
        court and nobody holds that tile yet, scoring happened once the picks began."""
        comp = components()
        p = view["pending"]
        seat = p["seat"]
        number = view["visit"]
        placed = [
            c
            for c in comp.province_cities[view["province"]]
            if state["palace"].get(c) == seat or state["crowned"].get(c) == seat
        ]
        scored = view["phase"] == "pick"
        if scored:  # the tile, if he won it, already lies in front of him
            won_tile = number in state["ptiles"][seat]
        else:
            taken = any(number in tiles for tiles in state["ptiles"])
            won_tile = "elephant" not in state["court"] and not taken
        return {
            "seat": seat,
            "palaces": p["palaces"],
            "crown": p["crown"],
            "placed": placed,
            "ptile": number if won_tile else None,
            "scored": scored,
            "picks": p["picks"],
            "blind": not state["acted"][seat],
        }

    # ----- the search's moves -------------------------------------------------------------------
    def candidates(self, game: Game, state: State, seat: int) -> list[Move]:
        """Every legal move: a Taj Mahal decision rarely offers more than thirty."""
        return game.legal_moves(state, seat)

    def rollout_move(self, game: Game, state: State, seat: int, rng: Rng) -> Move:
        moves = game.legal_moves(state, seat)
        if len(moves) == 1:
            return moves[0]
        pending = state["pending"]
        if pending is None:
            if rng.below(1000) < NOISE * 1000:
                return rng.choice(moves)
            return self._turn_choice(state, seat, moves, rng)
        values = [self._decision_value(state, seat, m) for m in moves]
        return _best(moves, values, rng)

    def _turn_choice(self, state: State, seat: int, moves: list[Move], rng: Rng) -> Move:
        """Play the card that buys the most lead for its cost, or withdraw when none pays."""
        if len(state["hands"][seat]) <= 1:
            return moves[0]  # withdraw: keep the last card for the end
        gains = self._play_gains(state, seat, moves[1:])
        if max(gains) <= 0:
            return moves[0]
        return _best(moves[1:], gains, rng)

    # ----- heuristics ---------------------------------------------------------------------------
    @staticmethod
    def _prize_values(state: State, seat: int) -> dict[str, float]:
        """What each prize still in the court is worth to ``seat`` now."""
        comp = components()
        out = {p: PRIZE_VALUE[p] for p in state["court"] if p in PRIZE_VALUE}
        if state["left"][seat] <= 0:
            for p in INFLUENCE:
                if p in out:
                    out[p] = 1.0
        if "elephant" in state["court"]:
            owned = goods_owned(state["ptiles"][seat], state["btiles"][seat], comp)
            goods = comp.tile_goods[state["visit"] + 1]
            out["elephant"] = float(sum(1 + owned.get(g, 0) for g in goods))
        return out

    def _play_gains(self, state: State, seat: int, plays: list[Move]) -> list[float]:
        """For each play: lead value it gains minus what its cards are worth in hand."""
        comp = components()
        values = self._prize_values(state, seat)
        mine = symbol_counts(state["played"][seat], comp)
        others = [
            symbol_counts(state["played"][o], comp)
            for o in range(state["n"])
            if o != seat and state["inv"][o]
        ]
        top = {p: max((o.get(p, 0) for o in others), default=0) for p in values}
        before = sum(v for p, v in values.items() if mine.get(p, 0) > top[p])
        out = []
        for move in plays:
            after = dict(mine)
            cost = 0.0
            for card in _move_cards(move.notation):
                for sym in card.symbols:
                    after[sym] = after.get(sym, 0) + 1
                if card.kind != "special":  # specials come back to the hand
                    cost += CARD_VALUE
                cost -= card.points
            lead = sum(v for p, v in values.items() if after.get(p, 0) > top[p])
            out.append(lead - before - cost)
        return out

    @staticmethod
    def _decision_value(state: State, seat: int, move: Move) -> float:
        """Worth of a palace, crown or display pick (the withdrawing player's decisions)."""
        comp = components()
        note = move.notation
        if note.startswith("take-"):
            card = _by_code()[note[5:]]
            if card.kind != "colour":
                return 1.5
            held = [comp.cards[c].colour for c in state["hands"][seat]]
            return 1.0 + 0.2 * held.count(card.colour) + 0.1 * len(card.symbols)
        city = _code_by_city()[note.split("-", 1)[1]]
        mine = {c for c, o in state["palace"].items() if o == seat}
        mine |= {c for c, o in state["crowned"].items() if o == seat}
        value = float(sum(1 for nb in comp.neighbours[city] if nb in mine))
        b = state["bonus"].get(city)
        if note.startswith("palace-") and b is not None:
            tile = comp.bonus_tiles[b]
            if tile.kind == "good":
                owned = goods_owned(state["ptiles"][seat], state["btiles"][seat], comp)
                value += 1 + owned.get(tile.good or "", 0)
            else:
                value += tile.value * (1.0 if tile.kind == "points" else CARD_VALUE)
        return value

    def evaluate(self, game: Game, state: State) -> list[float] | None:
        """Score so far, plus the hand's end-of-game points, plus what the hand and the
        influence tiles may still earn in the visits left, plus the prizes each player
        still in the visit leads now (discounted: others may still outbid) and the open
        palaces of a withdrawing player.

        Why the hand's end-of-game points count in full from the first visit, though the
        hand will change: counted in proportion to the visits played, one such seat won
        21 % of 198 games against two of these (a third is even; ``python -m
        benchmarks.taj_mahal_eval phase``). Cards of one colour kept for the end are worth
        more than the visits they would buy, except against opponents who spread palaces
        very widely (the one game in 174 normal lost to random: docs/computer_players.md)."""
        if state["over"]:
            return [float(x) for x in state["score"]]
        comp = components()
        left = (comp.setup.visits - state["visit"]) / comp.setup.visits
        counts = [symbol_counts(state["played"][s], comp) for s in range(state["n"])]
        pending = state["pending"]
        out = []
        for s in range(state["n"]):
            specials = [c for c in state["played"][s] if comp.cards[c].kind == "special"]
            hand = state["hands"][s] + specials
            points = int(hand_score(hand, comp)["points"])  # type: ignore[call-overload]
            value = (
                state["score"][s]
                + points
                + 0.6 * left * len(hand)
                + 0.5 * len(state["infl"][s])
                + 0.4 * left * min(state["left"][s], 12)
            )
            if pending is not None and pending["seat"] == s:
                value += PALACE_VALUE * (pending["palaces"] + pending["crown"])
                if pending["ptile"] is not None and not pending["scored"]:
                    owned = goods_owned(state["ptiles"][s], state["btiles"][s], comp)
                    value += sum(1 + owned.get(g, 0) for g in comp.tile_goods[pending["ptile"]])
            elif state["inv"][s] and counts[s]:
                others = [counts[o] for o in range(state["n"]) if o != s and state["inv"][o]]
                values = self._prize_values(state, s)
                value += LEAD_SHARE * sum(
                    values[p] for p in majority_wins(counts[s], others, values)
                )
            out.append(value)
        return out

    def cutoff(self, game: Game, start: State, state: State, depth: int) -> bool:
        """Stop a rollout once the visit it began in is over (the evaluation takes over).

        Why: a rollout to the end of the game plays up to eleven more visits whose outcome
        has little to do with the move being judged, and its noise drowned the signal of
        the few rollouts a root move gets (normal lost to the greedy easy level). The end of
        the visit is where the move's effect is settled: prizes won, palaces placed, cards
        spent and picked; :meth:`evaluate` values the rest (hand, tiles, palaces left)."""
        return state["visit"] != start["visit"]

    # ----- hint words ---------------------------------------------------------------------------
    def explain(self, game: Game, view: View, seat: int, move: Move, value: float) -> str:
        comp = components()
        note = move.notation
        tail = Msg("taj_mahal.hint.tail", percent=round(100 * value))
        info = view["player_info"]
        court = list(view["court"])
        others = [
            symbol_counts([c["id"] for c in p["played"]], comp)
            for o, p in enumerate(info)
            if o != seat and p["in_visit"]
        ]
        mine = symbol_counts([c["id"] for c in info[seat]["played"]], comp)
        goods = view["tile_goods"][str(view["visit"])]
        owned = info[seat]["goods"]
        elephant = Msg(
            "taj_mahal.hint.prize.elephant",
            goods=listed([Msg(f"taj_mahal.good.{g}") for g in goods]),
            points=sum(1 + owned.get(g, 0) for g in goods),
        )

        def named(prizes: list[str]) -> list[str]:
            return [elephant if p == "elephant" else PRIZE_NAMES[p] for p in prizes]

        if note == "withdraw":
            won = named(majority_wins(mine, others, court))
            what = (
                Msg("taj_mahal.hint.wins", prizes=listed(won))
                if won
                else Msg("taj_mahal.hint.wins_nothing")
            )
            key = (
                "taj_mahal.hint.withdraw"
                if info[seat]["played_this_visit"]
                else "taj_mahal.hint.withdraw_idle"
            )
            return Msg(key, what=what, tail=tail)
        if note.startswith(("palace-", "crown-")):
            city = _code_by_city()[note.split("-", 1)[1]]
            mine_cities = {c for c, o in view["palaces"].items() if o == seat}
            mine_cities |= {c for c, o in view["crowned"].items() if o == seat}
            links = sum(1 for nb in comp.neighbours[city] if nb in mine_cities)
            parts: list[str] = []
            bonus = view["bonus"].get(city)
            if note.startswith("palace-") and bonus is not None:
                # named from the data by its code: a view may have been stored as plain JSON
                tile = next(b.name for b in comp.bonus_tiles if b.code == bonus["code"])
                parts.append(Msg("taj_mahal.hint.takes_tile", tile=tile))
            if links:
                parts.append(Msg("taj_mahal.hint.joins", n=links))
            reason = listed(parts) if parts else Msg("taj_mahal.hint.free_city")
            return Msg("taj_mahal.hint.city", city=comp.city_label(city), reason=reason, tail=tail)
        if note.startswith("take-"):
            card = _by_code()[note[5:]]
            return Msg("taj_mahal.hint.take", card=card.name, tail=tail)
        cards = _move_cards(note)
        after = dict(mine)
        for card in cards:
            for sym in card.symbols:
                after[sym] = after.get(sym, 0) + 1
        leads = named(majority_wins(after, others, court))
        count = Msg("taj_mahal.hint.cards", n=len(cards))
        if leads:
            return Msg("taj_mahal.hint.leads", prizes=listed(leads), cards=count, tail=tail)
        return Msg("taj_mahal.hint.builds", cards=count, tail=tail)


AI = TajMahalAI()
