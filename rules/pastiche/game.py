"""The Pastiche game object: setup, turn phases, apply, views, scoring. See the package
docstring (``rules/pastiche/__init__.py``) for every rule decision."""

from __future__ import annotations

import re
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from rules.base import (
    NOT_YOUR_TURN,
    OVER_ALREADY,
    Composer,
    Event,
    Game,
    IllegalMove,
    Move,
    Outcome,
    Told,
    normalise_notation,
    rank_by,
)
from rules.pastiche import board as bd
from rules.pastiche import moves as mv
from rules.pastiche import rollout, told
from rules.pastiche import scoring as sc
from rules.pastiche import trade as tr
from rules.pastiche.data import load
from rules.pastiche.explain import explain
from rules.pastiche.words import colour_word, colours_word, painter_word, painting_word
from rules.rng import Rng
from rules.words import Join, Msg, Seat

State = dict[str, Any]
GALLERY_SIZE = 4
HAND_COMMISSIONS = 2
HEXES_IN_HAND = 2


class PasticheOptions(BaseModel):
    """Match options."""

    model_config = ConfigDict(extra="forbid")
    #: [ours] how many trade offers each player may make in one turn (counter-offers
    #: included; answered, declined or withdrawn alike): keeps a turn finite and the thread
    #: readable; the rulebook sets no limit.
    max_offers_per_turn: int = Field(default=3, ge=0, le=10)


def _clone(state: State) -> State:
    """Copy every container a move may change (board entries are never mutated in place)."""
    new = dict(state)
    new["players"] = [
        {
            "hexes": list(p["hexes"]),
            "cards": dict(p["cards"]),
            "hand": list(p["hand"]),
            "done": list(p["done"]),
        }
        for p in state["players"]
    ]
    new["bank"] = dict(state["bank"])
    new["gallery"] = list(state["gallery"])
    new["deck"] = list(state["deck"])
    new["supply"] = list(state["supply"])
    new["turns"] = list(state["turns"])
    new["board"] = dict(state["board"])
    new["deals"] = [dict(d) for d in state["deals"]]
    new["made"] = list(state["made"])
    return new


def _commission_json(cid: str) -> dict[str, Any]:
    c = load().commissions[cid]
    return {
        "id": c.id,
        "title": c.title,
        "painter": c.painter,
        "points": c.points,
        "palette": list(c.palette),
    }


class Pastiche(Game):
    id: ClassVar[str] = "pastiche"
    name: ClassVar[str] = "Pastiche"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    Options: ClassVar[type[BaseModel]] = PasticheOptions
    has_hidden_information: ClassVar[bool] = True
    #: a snapshot from before issue 42 lacks the commissions the last turn completed
    later_keys: ClassVar[tuple[str, ...]] = ("fresh",)
    summary: ClassVar[str] = Msg("pastiche.summary")
    notation_help: ClassVar[str] = Msg("pastiche.notation_help")

    # ----- setup ------------------------------------------------------------------------------
    def setup(
        self, player_count: int, seed: int, options: BaseModel | dict[str, Any] | None = None
    ) -> State:
        self.check_player_count(player_count)
        opts = self.parse_options(options)
        assert isinstance(opts, PasticheOptions)
        data = load()
        rng = Rng.from_seed(seed, "pastiche")
        supply = list(data.hex_ids)
        rng.shuffle(supply)
        deck = list(data.commission_ids)
        rng.shuffle(deck)
        start = rng.below(player_count)
        gallery = [deck.pop() for _ in range(GALLERY_SIZE)]
        bank = {c.name: c.count for c in data.colours}
        players = []
        for _ in range(player_count):
            cards = {c: 0 for c in data.names}
            for c in data.starting_hand:
                cards[c] += 1
                bank[c] -= 1
            players.append(
                {
                    "hexes": [supply.pop() for _ in range(HEXES_IN_HAND)],
                    "cards": cards,
                    "hand": [deck.pop() for _ in range(HAND_COMMISSIONS)],
                    "done": [],
                }
            )
        return {
            "n": player_count,
            "rng": rng.state,
            "start": start,
            "cur": start,
            "phase": "place",
            "turns": [0] * player_count,
            "supply": supply,
            "deck": deck,
            "gallery": gallery,
            "bank": bank,
            "players": players,
            "board": bd.start_board(),
            "spots": [[q, r] for q, r in bd.frontier(bd.start_board())],
            "last": None,
            "fresh": [],
            "deals": [],
            "deal_id": 1,
            "made": [0] * player_count,
            "max_offers": opts.max_offers_per_turn,
            "end": None,
            "over": False,
        }

    def setup_events(self, state: State) -> list[Event]:
        """The chance outcomes of ``setup``: the start player, the gallery, the hexes dealt
        (public) and the commission cards dealt into each hand (secret), so a record can be
        checked without our random-number generator."""
        players = state["players"]
        return [
            Event(
                "deal",
                Msg(
                    "pastiche.ev.deal",
                    who=Seat(state["start"]),
                    gallery=Join("words.comma", [painting_word(c) for c in state["gallery"]]),
                    hexes=Msg("pastiche.n_hexes", n=len(players[0]["hexes"])),
                    commissions=Msg("pastiche.n_commissions", n=len(players[0]["hand"])),
                ),
                {
                    "start": state["start"],
                    "gallery": list(state["gallery"]),
                    "hexes": [list(q["hexes"]) for q in players],
                },
                {"hands": [list(q["hand"]) for q in players]},
                reveals=True,
            )
        ]

    # ----- whose move -------------------------------------------------------------------------
    def to_act(self, state: State) -> list[int]:
        if state["over"]:
            return []
        cur = state["cur"]
        waiting = sorted({d["to"] for d in state["deals"]} - {cur})
        return [cur, *waiting]

    def waits_for(self, state: State) -> list[int]:
        """While the player on turn waits for answers to their own offers (and owes none),
        only the answering players' clocks run: the trading player is not late then.

        The answering players come first, the player on turn last: an answer should land
        before the turn moves on (the bot's driver, the search and the arena all move the
        seats in this order, so it is written here once). That matters only when the player
        on turn has an offer of their own open and owes an answer to someone else's."""
        seats = self.to_act(state)
        if not seats:
            return []
        cur = state["cur"]
        answering = [s for s in seats if s != cur]
        deals = state["deals"]
        cur_waits = any(d["from"] == cur for d in deals) and not any(d["to"] == cur for d in deals)
        return answering if answering and cur_waits else [*answering, cur]

    def may_act(self, state: State) -> list[int]:
        """While the player on turn trades, everyone may make them an offer."""
        if state["over"]:
            return []
        if state["phase"] == "trade":
            cur, n = state["cur"], state["n"]
            return [(cur + i) % n for i in range(n)]
        return self.to_act(state)

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if state["over"] or seat not in self.may_act(state):
            return []
        if seat != state["cur"]:
            return tr.moves(state, seat)
        phase = state["phase"]
        if phase == "place":
            return mv.place_moves(state, seat)
        if phase == "discard":
            return mv.return_moves(state, seat)
        out: list[Move] = []
        if phase == "trade":
            out += mv.bank_moves(state, seat)
            out += mv.swap_moves(state, seat)
        out += mv.complete_moves(state, seat)
        out += mv.end_moves(state, seat)
        out += tr.moves(state, seat)
        return out

    def composers(self, state: State, seat: int) -> list[Composer]:
        """An offer composed pick by pick (partner, cards given, cards wanted)."""
        if state["over"] or seat not in self.may_act(state):
            return []
        return tr.composers(state, seat)

    def compose(self, state: State, seat: int, key: str, chosen: list[list[str]]) -> str:
        return tr.compose(state, seat, key, chosen)

    def random_move(self, state: State, seat: int, rng: Rng) -> Move:
        """The rollout policy of :mod:`rules.pastiche.rollout` (samples a placement instead
        of listing hundreds, completes when it can, trades a little); uniform over
        ``legal_moves`` where that policy has nothing to say."""
        move = rollout.random_move(state, seat, rng)
        return move if move is not None else rng.choice(self.legal_moves(state, seat))

    def find_notation(self, state: State, seat: int, key: str) -> Move | None:
        """The legal move whose normalised notation is ``key``, building only its kind."""
        if state["over"] or seat not in self.may_act(state):
            return None
        if key.startswith(("offer", "counter", "accept", "decline", "withdraw")):
            return tr.find(state, seat, key)
        if seat != state["cur"]:
            return None
        if state["phase"] == "place":
            m = mv.PLACE_RE.match(key)
            if not m:
                return None
            cell = bd.parse_cell(m.group(2))
            if cell is None:
                return None
            slot, rot = int(m.group(1)) - 1, int(m.group(3))
            same = mv.equivalent_rotation(state, seat, slot, rot)
            if same != rot:  # a symmetric hex: r3 may look exactly like r0, the one offered
                key = key[: m.start(3)] + str(same) + key[m.end(3) :]
                rot = same
            cands = mv.place_moves(state, seat, slot, cell, rot)
        elif state["phase"] == "discard":
            cands = mv.return_moves(state, seat)
        elif key.startswith("bank"):
            m = mv.BANK_RE.match(key)
            if m:  # any order of the given colours may be typed
                key = f"bank{'+'.join(mv.canonical(m.group(1).split('+')))}for{m.group(2)}"
            cands = mv.bank_moves(state, seat) if state["phase"] == "trade" else []
        elif key.startswith("swap"):  # only swaps' notations start so: list no others
            cands = mv.swap_moves(state, seat) if state["phase"] == "trade" else []
        elif key.startswith("complete"):
            cands = mv.complete_moves(state, seat)
        else:  # "end", "end auto" (or nothing legal)
            cands = mv.end_moves(state, seat)
        for move in cands:
            if normalise_notation(move.notation) == key:
                return move
        return None

    # ----- apply ------------------------------------------------------------------------------
    def apply(self, state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
        events: list[Event] = []
        return self._apply(state, seat, move, events), events

    def next_state(self, state: State, seat: int, move: Move) -> State:
        """``apply`` building no events (see ``Game.next_state``): random playouts and the
        search call this. ``events=None`` below means "nobody reads the words": every
        helper changes the state exactly as in ``apply`` and skips only the events' words
        (``tests/test_engine_equivalence.py`` compares the two over whole games)."""
        return self._apply(state, seat, move, None)

    def _apply(self, state: State, seat: int, move: Move, events: list[Event] | None) -> State:
        key = normalise_notation(move.notation)
        if self.find_notation(state, seat, key) is None:
            raise IllegalMove(self.explain_illegal(state, seat, move.notation))
        s = _clone(state)
        if key.startswith(("offer", "counter", "accept", "decline", "withdraw")):
            tr.apply(s, seat, key, events, Event)
            return s
        phase = s["phase"]
        if phase == "place":
            self._place(s, seat, key, events)
        elif phase == "discard":
            self._return(s, seat, key, events)
        elif key.startswith("bank"):
            self._bank(s, seat, key, events)
        elif key.startswith("swap"):
            self._swap(s, seat, key, events)
        elif key.startswith("complete"):
            self._complete(s, seat, key, events)
        elif key in ("end", "endauto"):
            self._lapse(s, events)
            if key == "endauto" or mv.hand_size(s["players"][seat]["cards"]) <= mv.HAND_LIMIT:
                self._give_back(s, seat, mv.auto_returns(s, seat), events)
                self._finish_turn(s, seat, events)
            else:
                s["phase"] = "discard"
                if events is not None:
                    extra = mv.hand_size(s["players"][seat]["cards"]) - mv.HAND_LIMIT
                    events.append(
                        Event("discard", Msg("pastiche.ev.must_return", who=Seat(seat), n=extra))
                    )
        else:  # pragma: no cover - _find accepted it, so one branch above handles it
            raise IllegalMove(self.explain_illegal(state, seat, move.notation))
        return s

    def tell(self, seat: int, notation: str, events: list[Event]) -> Told | None:
        """The move's public sentence (:mod:`rules.pastiche.told`)."""
        return told.tell(seat, notation, events)

    def _place(self, s: State, seat: int, key: str, events: list[Event] | None) -> None:
        data = load()
        m = mv.PLACE_RE.match(key)
        assert m is not None
        slot, rot, take = int(m.group(1)) - 1, int(m.group(3)), m.group(4)
        cell = bd.parse_cell(m.group(2))
        assert cell is not None
        p = s["players"][seat]
        hex_id = p["hexes"][slot]
        corners = bd.rotate(data.hexes[hex_id].corners, rot)
        others = bd.dabs_at(s["board"], cell)
        if take == "mix":
            got, short = mv.received(bd.placement_yield(corners, others), s["bank"])
        else:
            got, short = [take], []
        for c in got:
            s["bank"][c] -= 1
            p["cards"][c] += 1
        p["hexes"][slot] = None
        k = bd.key(cell)
        s["board"][k] = [hex_id, rot, corners]
        s["spots"] = bd.grow_frontier(s["spots"], s["board"], cell)
        s["last"] = k
        s["fresh"] = []  # the commissions of the turn before no longer are the latest
        s["phase"] = "trade"
        if events is None:  # nobody reads the words
            return
        name = bd.cell_name(cell)
        what: Msg | Join = colours_word(got) if got else Msg("pastiche.no_cards")
        if take != "mix":
            what = Msg("pastiche.from_centre", colour=colour_word(take))
        if short:
            out = colours_word(sorted(set(short)))
            what = Msg("pastiche.ev.place_short", cards=what, colours=out)
        events.append(
            Event(
                "place",
                Msg(
                    "pastiche.ev.place",
                    who=Seat(seat),
                    slot=slot + 1,
                    cell=name,
                    rotation=rot,
                    cards=what,
                ),
                {"cell": name, "hex": hex_id, "rotation": rot, "cards": got, "short": short},
            )
        )

    def _bank(self, s: State, seat: int, key: str, events: list[Event] | None) -> None:
        m = mv.BANK_RE.match(key)
        assert m is not None
        give, target = m.group(1).split("+"), m.group(2)
        p = s["players"][seat]
        for c in give:
            p["cards"][c] -= 1
            s["bank"][c] += 1
        s["bank"][target] -= 1
        p["cards"][target] += 1
        if events is not None:
            events.append(
                Event(
                    "bank",
                    Msg(
                        "pastiche.ev.bank",
                        who=Seat(seat),
                        give=colours_word(give, "pastiche.sep.plus"),
                        colour=colour_word(target),
                    ),
                    {"give": give, "get": target},
                )
            )
        tr.lapse_short(s, events, Event)

    def _lapse(self, s: State, events: list[Event] | None) -> None:
        """Open offers expire once the active player leaves the trading step."""
        tr.lapse_all(s, events, Event)

    def _swap(self, s: State, seat: int, key: str, events: list[Event] | None) -> None:
        self._lapse(s, events)
        m = re.match(r"^swap([a-z0-9]+)for([a-z0-9]+)$", key)
        assert m is not None
        p = s["players"][seat]
        h = next(c for c in p["hand"] if c.lower() == m.group(1))
        g = next(c for c in s["gallery"] if c.lower() == m.group(2))
        p["hand"][p["hand"].index(h)] = g
        s["gallery"][s["gallery"].index(g)] = h
        s["phase"] = "complete"
        if events is None:
            return
        events.append(
            Event(
                "swap",
                Msg(
                    "pastiche.ev.swap",
                    who=Seat(seat),
                    gave=painting_word(h),
                    took=painting_word(g),
                ),
                {"gave": h, "took": g},
                reveals=True,
            )
        )

    def _complete(self, s: State, seat: int, key: str, events: list[Event] | None) -> None:
        self._lapse(s, events)
        data = load()
        p = s["players"][seat]
        cid = next(c for c in p["hand"] + s["gallery"] if "complete" + c.lower() == key)
        com = data.commissions[cid]
        for c in com.palette:
            p["cards"][c] -= 1
            s["bank"][c] += 1
        p["done"].append(cid)
        s["fresh"] = [*s.get("fresh", []), cid]  # replaced, never edited: _clone shares it
        s["phase"] = "complete"
        before = sc.commission_points(p["done"][:-1])
        if events is not None:
            events.append(
                Event(
                    "complete",
                    Msg(
                        "pastiche.ev.complete",
                        who=Seat(seat),
                        title=painting_word(cid),
                        painter=painter_word(com.painter),
                        n=com.points,
                        paid=colours_word(com.palette),
                    ),
                    {"commission": cid, "paid": list(com.palette)},
                    reveals=True,
                )
            )
        if cid in s["gallery"]:
            i = s["gallery"].index(cid)
            if s["deck"]:
                new = s["deck"].pop()
                s["gallery"][i] = new
                if events is not None:
                    events.append(
                        Event(
                            "refill",
                            Msg("pastiche.ev.gallery_refill", title=painting_word(new)),
                            {"commission": new},
                            reveals=True,
                        )
                    )
            else:
                del s["gallery"][i]
                if events is not None:
                    events.append(Event("refill", Msg("pastiche.ev.gallery_shrinks")))
        else:
            p["hand"].remove(cid)
            if s["deck"]:
                new = s["deck"].pop()
                p["hand"].append(new)
                if events is not None:
                    events.append(
                        Event(
                            "draw",
                            Msg("pastiche.ev.draw", who=Seat(seat)),
                            secret={"seat": seat, "commission": new},
                            private={seat: Msg("pastiche.ev.drew", title=painting_word(new))},
                            reveals=True,
                        )
                    )
        threshold = sc.THRESHOLD[s["n"]]
        total = before + com.points
        if s["end"] is None and total >= threshold:
            s["end"] = "trigger"
            if events is None:
                return
            last = (s["start"] - 1) % s["n"]
            tail = (
                Msg("pastiche.ev.trigger_last")
                if seat == last
                else Msg("pastiche.ev.trigger_until", who=Seat(last))
            )
            events.append(
                Event(
                    "trigger",
                    Msg(
                        "pastiche.ev.trigger",
                        who=Seat(seat),
                        n=total,
                        threshold=threshold,
                        tail=tail,
                    ),
                )
            )

    def _give_back(
        self, s: State, seat: int, colours: list[str], events: list[Event] | None
    ) -> None:
        if not colours:
            return
        p = s["players"][seat]
        for c in colours:
            p["cards"][c] -= 1
            s["bank"][c] += 1
        if events is None:
            return
        events.append(
            Event(
                "return",
                Msg("pastiche.ev.return", who=Seat(seat), cards=colours_word(colours)),
                {"cards": colours},
            )
        )

    def _return(self, s: State, seat: int, key: str, events: list[Event] | None) -> None:
        colour = key[len("return") :]
        colours = mv.auto_returns(s, seat) if colour == "auto" else [colour]
        self._give_back(s, seat, colours, events)
        if mv.hand_size(s["players"][seat]["cards"]) <= mv.HAND_LIMIT:
            self._finish_turn(s, seat, events)

    def _finish_turn(self, s: State, seat: int, events: list[Event] | None) -> None:
        """Step 6 (draw back to two hexes), the end checks, and the next player's start."""
        p = s["players"][seat]
        drawn: list[str] = []
        for i, h in enumerate(p["hexes"]):
            if h is None and s["supply"]:
                p["hexes"][i] = s["supply"].pop()
                drawn.append(p["hexes"][i])
        if drawn and events is not None:
            events.append(
                Event(
                    "hex",
                    Msg("pastiche.ev.hex", who=Seat(seat)),
                    {"hexes": drawn},
                    reveals=True,
                )
            )
        s["turns"][seat] += 1
        s["made"] = [0] * s["n"]
        s["deals"] = []
        n = s["n"]
        nobody_has_hex = all(h is None for q in s["players"] for h in q["hexes"])
        if s["end"] is None and not s["supply"] and nobody_has_hex:
            s["end"] = "hexes"
            if events is not None:
                events.append(Event("hexes", Msg("pastiche.ev.hexes_out")))
        if s["end"] is not None and seat == (s["start"] - 1) % n:
            s["over"] = True
            s["phase"] = "over"
            if events is not None:  # the outcome is read, never stored, by the state
                out = self.outcome(s)
                assert out is not None
                events.append(Event("over", Msg("pastiche.ev.over"), {"outcome": out.to_json()}))
            return
        nxt = (seat + 1) % n
        s["cur"] = nxt
        if any(h is not None for h in s["players"][nxt]["hexes"]):
            s["phase"] = "place"
        else:
            s["phase"] = "trade"
            s["fresh"] = []  # no placement starts this turn: its completions start afresh
            if events is not None:
                events.append(Event("nohex", Msg("pastiche.ev.no_hex", who=Seat(nxt))))

    # ----- views ------------------------------------------------------------------------------
    def _board_json(self, state: State) -> list[dict[str, Any]]:
        data = load()
        out = []
        for k, (hex_id, rot, corners) in state["board"].items():
            cell = bd.unkey(k)
            hx = data.hexes.get(hex_id)
            out.append(
                {
                    "q": cell[0],
                    "r": cell[1],
                    "name": bd.cell_name(cell),
                    "hex": hex_id,
                    "rotation": rot,
                    "corners": corners,
                    "centre": hx.centre if hx else "",
                    "start": hx is None,
                }
            )
        return out

    def _hex_json(self, hex_id: str | None) -> dict[str, Any] | None:
        if hex_id is None:
            return None
        hx = load().hexes[hex_id]
        return {"id": hx.id, "corners": hx.corners, "centre": hx.centre}

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        data = load()
        seats = []
        for i, p in enumerate(state["players"]):
            seats.append(
                {
                    "seat": i,
                    "cards": mv.hand_size(p["cards"]),
                    "commissions": len(p["hand"]),
                    "hexes": [self._hex_json(h) for h in p["hexes"]],
                    "done": [_commission_json(c) for c in p["done"]],
                    "commission_points": sc.commission_points(p["done"]),
                    "bonus": sc.painter_bonus(p["done"]),
                    "score": sc.commission_points(p["done"]) + sc.painter_bonus(p["done"]),
                    "turns": state["turns"][i],
                }
            )
        last = bd.cell_name(bd.unkey(state["last"])) if state["last"] else None
        v: dict[str, Any] = {
            "game": self.id,
            "players": state["n"],
            "start": state["start"],
            "current": state["cur"],
            "phase": state["phase"],
            "to_act": self.to_act(state),
            "round": state["turns"][state["start"]] + (0 if state["over"] else 1),
            "threshold": sc.THRESHOLD[state["n"]],
            "end": state["end"],
            "last_seat": (state["start"] - 1) % state["n"],
            "over": state["over"],
            "board": self._board_json(state),
            "last": last,
            "fresh": list(state.get("fresh", [])),
            "spots": [bd.cell_name((q, r)) for q, r in state["spots"]],
            "spot_cells": [[q, r] for q, r in state["spots"]],
            "bank": dict(state["bank"]),
            "gallery": [_commission_json(c) for c in state["gallery"]],
            "deck": len(state["deck"]),
            "supply": len(state["supply"]),
            "seats": seats,
            "offers": [dict(d) for d in state["deals"]],
            "offers_made": list(state["made"]),
            "next_offer": state["deal_id"],
            "max_offers": state["max_offers"],
            "colours": [{"name": c.name, "group": c.group, "value": c.value} for c in data.colours],
        }
        if state["over"]:
            out = self.outcome(state)
            assert out is not None
            v["outcome"] = out.to_json()
        if seat is not None and 0 <= seat < state["n"]:
            v["me"] = self._private(state, seat)
        return v

    def _private(self, state: State, seat: int) -> dict[str, Any]:
        data = load()
        p = state["players"][seat]
        cards = p["cards"]
        hand = []
        for cid in p["hand"]:
            j = _commission_json(cid)
            j["lack"] = mv.lacking(data.commissions[cid].palette, cards)
            hand.append(j)
        gallery_lack = {
            cid: mv.lacking(data.commissions[cid].palette, cards) for cid in state["gallery"]
        }
        dabs = [((q, r), bd.dabs_at(state["board"], (q, r))) for q, r in state["spots"]]
        hexes: list[dict[str, Any] | None] = []
        for slot, hex_id in enumerate(p["hexes"]):
            if hex_id is None:
                hexes.append(None)
                continue
            hx = data.hexes[hex_id]
            rots = []
            for rot, corners in mv.distinct_rotations(hx.corners):
                best: tuple[int, int, str, list[str]] = (-1, 0, "", [])
                for cell, others in dabs:
                    got, _ = mv.received(bd.placement_yield(corners, others), state["bank"])
                    val = sum(data.value[c] for c in got)
                    if (val, len(got)) > best[:2]:
                        best = (val, len(got), bd.cell_name(cell), got)
                rots.append(
                    {"rotation": rot, "corners": corners, "best_spot": best[2], "best": best[3]}
                )
            hexes.append({"slot": slot + 1, "id": hex_id, "centre": hx.centre, "rotations": rots})
        return {
            "seat": seat,
            "cards": dict(cards),
            "hand": hand,
            "gallery_lack": gallery_lack,
            "hexes": hexes,
            "usable": sc.usable_points(cards, p["hand"]),
        }

    # ----- results ----------------------------------------------------------------------------
    def _breakdowns(self, state: State) -> list[sc.Breakdown]:
        return [sc.breakdown(p["done"], p["hand"], p["cards"]) for p in state["players"]]

    def outcome(self, state: State) -> Outcome | None:
        if not state["over"]:
            return None
        parts = self._breakdowns(state)
        ranks = rank_by([b.key() for b in parts])
        why = Msg("pastiche.result.goal" if state["end"] == "trigger" else "pastiche.result.hexes")
        ties = sc.tie_reason(parts)
        return Outcome(
            scores=[b.total for b in parts],
            ranks=ranks,
            reason=Msg("pastiche.result.ties", why=why, ties=ties) if ties else why,
            details=[b.to_json() for b in parts],
        )

    def scores(self, state: State) -> list[int]:
        if state["over"]:
            return [b.total for b in self._breakdowns(state)]
        return [
            sc.commission_points(p["done"]) + sc.painter_bonus(p["done"]) for p in state["players"]
        ]

    def status(self, state: State) -> str:
        if state["over"]:
            return Msg("pastiche.status.over")
        cur = state["cur"]
        rnd = state["turns"][cur] + 1  # the round the player on turn is playing
        offers: Msg | str = ""
        if state["deals"]:
            listed = [
                Msg(
                    "pastiche.status.offer",
                    id=d["id"],
                    maker=Seat(d["from"]),
                    give=tr.side_words(d["give"]),
                    get=tr.side_words(d["get"]),
                    taker=Seat(d["to"]),
                )
                for d in state["deals"]
            ]
            offers = Msg("pastiche.status.offers", offers=Join("pastiche.sep.dot", listed))
        end: Msg | str = ""
        if state["end"] == "trigger":
            end = Msg("pastiche.status.final", who=Seat((state["start"] - 1) % state["n"]))
        elif state["end"] == "hexes":
            end = Msg("pastiche.status.hexes_out")
        return Msg(
            f"pastiche.status.{state['phase']}", round=rnd, who=Seat(cur), offers=offers, end=end
        )

    def is_commitment(self, state: State, seat: int, move: Move) -> bool:
        """An answer to an offer (accept, decline, counter) commits: the offer's maker has
        seen it and may already act on it. So does showing palette cards from the hidden
        hand to the bank (a bank trade, a card returned over the hand limit). An offer
        not yet answered is no commitment: taking it back is like withdrawing it."""
        key = normalise_notation(move.notation)
        if key.startswith(("accept", "decline", "counter", "bank")):
            return True
        return state["phase"] == "discard" and seat == state["cur"] and key.startswith("return")

    def default_move(self, state: State, seat: int) -> Move | None:
        """Clock ran out: a seat that only owes answers declines the first offer waiting for
        it; the player on turn ends the turn (returning the least useful cards over 8, see
        ``moves.auto_returns``; open offers expire); a hex must still be placed by its owner."""
        if state["over"] or seat not in self.to_act(state):
            return None
        if seat != state["cur"]:
            first = tr.to_answer(state, seat)[0]
            return self.find_notation(state, seat, f"decline{first['id']}")
        phase = state["phase"]
        if phase == "place":
            return None
        if phase == "discard":
            return self.find_notation(state, seat, "returnauto")
        n = mv.hand_size(state["players"][seat]["cards"])
        return self.find_notation(state, seat, "endauto" if n > mv.HAND_LIMIT else "end")

    # ----- errors in words --------------------------------------------------------------------
    def explain_illegal(self, state: State, seat: int, text: str) -> str:
        if state["over"]:
            return OVER_ALREADY
        if seat not in self.may_act(state):
            return NOT_YOUR_TURN
        return explain(state, seat, text)
