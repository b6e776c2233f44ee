"""The Taj Mahal engine: the :class:`rules.base.Game` the bot, the computer players and the
records use (see the package docstring for the rule decisions, and where each lives).

The rules are in modules by concern, and this class ties them together:

* ``state.py``: the state's layout, the deal, whose decision it is, copy on write;
* ``moves.py``: the legal moves, listed, drawn at random or checked;
* ``visit.py``: a move made: cards played, a withdrawal and its palaces, crown, picks;
* ``rounds.py``: what settles itself after a move, the end of a visit and of the game;
* ``view.py``: the status line and what a seat sees;
* ``explain.py``: why a typed move is not legal; ``notation.py``: typed notation.

Rule decisions held here (the package docstring lists them all):

* Clock runs out (``default_move``): withdraw on a turn; a pending decision (palace
  city, crown city, display card) has no pass (``None``: the bot makes the easy move).
* Commitments (``is_commitment``): withdrawing and playing cards; the palace, crown and
  display decisions after a withdrawal are not commitments.
* Typed notation: card symbols in any order and ``pass`` for ``withdraw``
  (``find_notation``, through ``notation.py``).

Why ``apply`` is one method with its checks inline: it runs at every step of every random
playout, so it finds what a move is about (the cards, the city, the display card) while
checking it and hands that on, without looking anything up twice.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from rules.base import Event, Game, IllegalMove, Move, Outcome, State, Told, View
from rules.rng import Rng
from rules.taj_mahal import rounds, told, visit
from rules.taj_mahal import view as seen
from rules.taj_mahal.components import components
from rules.taj_mahal.explain import explain
from rules.taj_mahal.moves import (
    crown_move,
    palace_move,
    pending_moves,
    random_turn_move,
    take_move,
    turn_moves,
    turn_play_ids,
)
from rules.taj_mahal.notation import NOTATION_HELP, canonical_key
from rules.taj_mahal.rounds import visit_words
from rules.taj_mahal.state import (
    Options,
    city_by_code,
    clone,
    crown_cities,
    deal,
    display_card,
    display_choices,
    free_cities,
    phase,
    province,
    to_act,
    withdraw_only,
)
from rules.words import Join, Msg


class TajMahal(Game):
    id = "taj-mahal"
    name = "Taj Mahal"
    min_players = 3
    max_players = 5
    Options = Options
    has_hidden_information = True
    #: a snapshot from before issue 42 lacks them (``state.py``: kept for the pictures)
    later_keys = ("sources", "known", "last")
    summary = Msg("taj_mahal.summary")
    notation_help = NOTATION_HELP

    # ----- setup ---------------------------------------------------------------------
    def setup(
        self, player_count: int, seed: int, options: BaseModel | dict[str, Any] | None = None
    ) -> State:
        self.check_player_count(player_count)
        opts = self.parse_options(options)
        assert isinstance(opts, Options)
        if not 0 <= opts.first_player < player_count:
            raise IllegalMove(Msg("taj_mahal.no.first_player", last=player_count - 1))
        return deal(player_count, seed, opts)

    def setup_events(self, state: State) -> list[Event]:
        """The chance outcomes of ``setup`` for a game record: the province order and the
        bonus tiles on the fortresses, the cards dealt into each hand (secret) and the
        first display, so a record can be checked without our random-number generator."""
        comp = components()
        order = sorted(state["tiles"], key=state["tiles"].__getitem__)
        provinces = Join(
            "words.comma",
            [
                Msg(
                    "taj_mahal.ev.numbered",
                    number=state["tiles"][p],
                    province=comp.province_label[p],
                )
                for p in order
            ],
        )
        sizes = [len(h) for h in state["hands"]]
        prov = province(state)
        return [
            Event(
                "setup",
                Msg("taj_mahal.ev.setup", provinces=provinces),
                {"tiles": dict(state["tiles"]), "bonus": dict(state["bonus"])},
                reveals=True,
            ),
            Event(
                "deal",
                Msg("taj_mahal.ev.deal", n=sizes[0]),
                {"hand_sizes": sizes},
                {"hands": [list(h) for h in state["hands"]]},
                reveals=True,
            ),
            Event(
                "visit",
                visit_words(state, prov, comp),
                {"visit": 1, "province": prov, "display": list(state["display"])},
                reveals=True,
            ),
        ]

    # ----- whose decision --------------------------------------------------------------
    @staticmethod
    def province(state: State) -> str:
        """Key of the province visited now."""
        return province(state)

    def to_act(self, state: State) -> list[int]:
        return to_act(state)

    def _phase(self, state: State) -> str:
        return phase(state)

    # ----- legal moves ---------------------------------------------------------------
    def palace_cities(self, state: State) -> list[str]:
        """Cities of the current province without a regular palace (a crowned palace alone
        does not block)."""
        return free_cities(state, province(state))

    def crown_cities(self, state: State, seat: int) -> list[str]:
        """Any city of the current province except one already holding his own palace [R]."""
        return crown_cities(state, seat, province(state))

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if seat not in to_act(state):
            return []
        now = phase(state)
        if now == "turn":
            return list(turn_moves(state, seat))
        return pending_moves(state, seat, now)

    def random_move(self, state: State, seat: int, rng: Rng) -> Move:
        """``rng.choice(legal_moves)``, building only the move drawn: on a turn without
        listing the turn's moves (random playouts call this at every decision, see
        :func:`rules.taj_mahal.moves.random_turn_move`), and for the withdrawing seat's
        open decisions from the cities or cards they are about, without asking again whose
        decision it is."""
        pending = state["pending"]
        if not state["over"]:
            if pending is None:
                if seat == state["turn"]:
                    hand, lock = state["hands"][seat], state["lock"][seat]
                    court = state["court"]
                    return random_turn_move(withdraw_only(state), lock, hand, court, rng)
            elif seat == pending["seat"]:
                # the same list, in the same order, as pending_moves builds its moves from
                if pending["palaces"] > 0:
                    cities = free_cities(state, province(state))
                    city = cities[rng.below(len(cities))]
                    return palace_move(city, state["bonus"].get(city))
                if pending["crown"]:
                    cities = crown_cities(state, seat, province(state))
                    return crown_move(cities[rng.below(len(cities))])
                cids = display_choices(state["display"])
                return take_move(cids[rng.below(len(cids))])
        return rng.choice(self.legal_moves(state, seat))

    # ----- apply -----------------------------------------------------------------------
    def apply(self, state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
        events: list[Event] = []
        return self._apply(state, seat, move, events), events

    def next_state(self, state: State, seat: int, move: Move) -> State:
        """``apply`` building no events (see ``Game.next_state``): random playouts and the
        search call this. The rules' functions take ``events=None`` to mean "nobody reads
        the words": they change the state exactly as before and skip only building events."""
        return self._apply(state, seat, move, None)

    def tell(self, seat: int, notation: str, events: list[Event]) -> Told | None:
        """The move's public sentence (:mod:`rules.taj_mahal.told`)."""
        return told.tell(seat, notation, events)

    def _apply(self, state: State, seat: int, move: Move, events: list[Event] | None) -> State:
        """Check the move, then make it on a copy-on-write clone (see
        :func:`rules.taj_mahal.state.clone`).

        Each phase finds what the move is about (the cards played, the city, the display
        card) while checking it, and hands that on, so nothing is looked up twice; the
        province of a palace or crown decision likewise goes on to
        :func:`rules.taj_mahal.rounds.settle`. :meth:`_is_legal` gives the same yes/no
        (``tests/test_taj_mahal_rules.py``)."""
        pending = state["pending"]
        # ``seat not in self.to_act(state)``, without building the list
        if state["over"] or seat != (state["turn"] if pending is None else pending["seat"]):
            raise IllegalMove(Msg("game.not_your_turn"))
        note = move.notation
        comp = components()
        if pending is None:
            if note == "withdraw":
                s = clone(state, seat)
                visit.withdraw(s, seat, comp, events)
                rounds.settle(s, comp, events)
                return s
            play = None
            if not withdraw_only(state):
                play = turn_play_ids(state["lock"][seat], state["hands"][seat], note)
            if play is None:
                raise IllegalMove(self.explain_illegal(state, seat, note))
            s = clone(state, seat)
            visit.play(s, seat, play[0], play[1], comp, events)
            return s  # a play opens no decision: nothing for rounds.settle to settle
        prov = None
        if pending["palaces"] > 0:
            prov = province(state)
            city = city_by_code().get(note[7:]) if note.startswith("palace-") else None
            if city is None or city not in free_cities(state, prov):
                raise IllegalMove(self.explain_illegal(state, seat, note))
            s = clone(state, seat)
            visit.place_palace(s, seat, city, comp, events)
        elif pending["crown"]:
            prov = province(state)
            city = city_by_code().get(note[6:]) if note.startswith("crown-") else None
            if city is None or city not in crown_cities(state, seat, prov):
                raise IllegalMove(self.explain_illegal(state, seat, note))
            s = clone(state, seat)
            visit.place_crown(s, seat, city, comp, events)
        else:
            cid = display_card(state["display"], note[5:]) if note.startswith("take-") else None
            if cid is None:
                raise IllegalMove(self.explain_illegal(state, seat, note))
            s = clone(state, seat)
            visit.take(s, seat, cid, comp, events)
        rounds.settle(s, comp, events, prov)
        return s

    def _is_legal(self, state: State, seat: int, note: str, phase: str | None = None) -> bool:
        """Cheap check that ``note`` is one of ``legal_moves`` (same rules, no Move lists),
        the same checks ``_apply`` makes. ``phase``: ``self._phase(state)`` when the caller
        has it already."""
        if phase is None:
            phase = self._phase(state)
        if phase == "palace":
            city = city_by_code().get(note[7:]) if note.startswith("palace-") else None
            return city is not None and city in self.palace_cities(state)
        if phase == "crown":
            city = city_by_code().get(note[6:]) if note.startswith("crown-") else None
            return city is not None and city in self.crown_cities(state, seat)
        if phase == "pick":
            if not note.startswith("take-"):
                return False
            return display_card(state["display"], note[5:]) is not None
        if note == "withdraw":
            return True
        if withdraw_only(state):
            return False
        return turn_play_ids(state["lock"][seat], state["hands"][seat], note) is not None

    # ----- results and views ------------------------------------------------------------
    def outcome(self, state: State) -> Outcome | None:
        return rounds.outcome(state)

    def scores(self, state: State) -> list[int]:
        return list(state["score"])

    def status(self, state: State) -> str:
        return seen.status(state)

    def view(self, state: State, seat: int | None) -> View:
        return seen.view(state, seat)

    # ----- typed moves, clocks and errors ----------------------------------------------
    def find_notation(self, state: State, seat: int, key: str) -> Move | None:
        """Card symbols in any order (``G-CP`` = ``G-PC``) and ``pass`` for ``withdraw``."""
        return super().find_notation(state, seat, canonical_key(key))

    def is_commitment(self, state: State, seat: int, move: Move) -> bool:
        """Every move of a turn commits: a withdrawal settles the majorities in front of
        everyone (and the decisions it opens follow from it), and a played card came out of
        a hidden hand. The withdrawing player's own follow-up decisions (palace, crown,
        display picks) are not commitments; a "+1 card" draw reveals and is never undone."""
        return seat in to_act(state) and phase(state) == "turn"

    def default_move(self, state: State, seat: int) -> Move | None:
        """Clock ran out: withdraw on a turn (the rules' pass). A pending decision (palace,
        bonus tile, special card) has no pass: ``None``, and the bot makes the computer
        player's easy move for the seat instead of an arbitrary first choice."""
        moves = self.legal_moves(state, seat)
        if not moves or phase(state) != "turn":
            return None
        return next(m for m in moves if m.notation == "withdraw")

    def explain_illegal(self, state: State, seat: int, text: str) -> str:
        return explain(state, seat, text)
