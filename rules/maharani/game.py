"""The Maharani :class:`~rules.base.Game`: glue between the interface and the engine."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict

from rules.base import (
    NOT_YOUR_TURN,
    OVER_ALREADY,
    Event,
    Game,
    IllegalMove,
    Move,
    Outcome,
    State,
    Told,
    View,
    rank_by,
)
from rules.maharani import engine, tally, told
from rules.maharani.data import geometry
from rules.maharani.engine import QUARTER_GOLD, SIDE_WORDS, WORKER_STYLE, active_side, who
from rules.maharani.moves import PLACEMENT_RE, clean, explain, legal_moves, random_move
from rules.maharani.words import colour, gold
from rules.rng import Rng
from rules.words import Join, Msg


class MaharaniOptions(BaseModel):
    """Match options. Seats: [R] the sources are silent on where two players sit."""

    model_config = ConfigDict(extra="forbid")
    #: 2 players sit on opposite sides (S and N) or adjacent sides (S and W).
    two_player_seats: Literal["opposite", "adjacent"] = "opposite"
    #: House rule: a refresh with every marker face up is allowed, as a pass. Off by the
    #: rulebook; on for every match stored before the rule was read so (migration step),
    #: so their records replay as they were played.
    refresh_as_pass: bool = False


class Maharani(Game):
    id: ClassVar[str] = "maharani"
    name: ClassVar[str] = "Maharani"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    Options: ClassVar[type[BaseModel]] = MaharaniOptions
    has_hidden_information: ClassVar[bool] = False
    #: a snapshot from before issue 42 lacks the gold-by-source tally (rules.maharani.tally)
    #: and one from before the refresh rule lacks ``refresh_as_pass`` (it plays as a pass)
    later_keys: ClassVar[tuple[str, ...]] = ("tally", "results", "refresh_as_pass")
    score_unit: ClassVar[str] = "gold"
    summary: ClassVar[str] = Msg("maharani.summary")
    notation_help: ClassVar[str] = Msg("maharani.notation_help")

    # ----- lifecycle -------------------------------------------------------------------
    def setup(
        self, player_count: int, seed: int, options: BaseModel | dict[str, Any] | None = None
    ) -> State:
        self.check_player_count(player_count)
        opts = self.parse_options(options)
        assert isinstance(opts, MaharaniOptions)
        state, _ = engine.new_state(player_count, seed, opts.two_player_seats, opts.refresh_as_pass)
        return state

    def setup_events(self, state: State) -> list[Event]:
        """The chance outcomes of ``setup`` (the four tiles drawn onto the rondel and the
        random start player), so a record can be checked without our generator."""
        g = geometry()
        drawn = Join(
            "words.comma",
            [
                Msg("maharani.ev.drawn", field=f + 1, colour=colour(g.tile_colour[t]))
                for f, t in enumerate(state["rondel"])
                if t is not None
            ],
        )
        return [
            Event(
                "refill",
                Msg("maharani.ev.rondel_filled", drawn=drawn),
                data={
                    "rondel": [None if t is None else g.tile_ids[t] for t in state["rondel"]],
                    "set_aside": [],
                    "bag": len(state["bag"]),
                },
                reveals=True,
            ),
            Event(
                "start",
                Msg("maharani.ev.start", who=who(state["turn"])),
                data={"seat": state["turn"]},
                reveals=True,
            ),
        ]

    def to_act(self, state: State) -> list[int]:
        return [] if state["phase"] == "over" else [state["turn"]]

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        return legal_moves(state, seat)

    def random_move(self, state: State, seat: int, rng: Rng) -> Move:
        """Uniform over the legal moves, building only the one drawn (same draw as the
        default ``rng.choice(legal_moves)``)."""
        return random_move(state, seat, rng)

    def parse(self, state: State, seat: int, text: str) -> Move:
        """Also accepts ``1-F7-S`` style separators and ``1F7`` when one arrow fits."""
        cleaned = clean(text)
        if cleaned and state["phase"] != "over" and seat == state["turn"]:
            moves = legal_moves(state, seat)
            for move in moves:
                if move.notation.lower() == cleaned:
                    return move
            m = PLACEMENT_RE.match(cleaned)
            if m and m.group(4) is None:
                hits = [mv for mv in moves if mv.notation.lower()[:-1] == cleaned]
                if len(hits) == 1:
                    return hits[0]
        return super().parse(state, seat, text)

    def explain_illegal(self, state: State, seat: int, text: str) -> Msg:
        return explain(state, seat, text)

    def apply(self, state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
        events: list[Event] = []
        return self._apply(state, seat, move, events), events

    def next_state(self, state: State, seat: int, move: Move) -> State:
        """``apply`` building no events (see ``Game.next_state``): random playouts and the
        search call this. The engine's functions take ``events=None`` to mean "nobody reads
        the words": they change the state exactly as before and skip only the words."""
        return self._apply(state, seat, move, None)

    def tell(self, seat: int, notation: str, events: list[Event]) -> Told | None:
        """The move's public sentence (:mod:`rules.maharani.told`)."""
        return told.tell(seat, notation, events)

    def _apply(self, state: State, seat: int, move: Move, events: list[Event] | None) -> State:
        phase = state["phase"]
        if phase == "over":
            raise IllegalMove(OVER_ALREADY)
        if seat != state["turn"]:
            raise IllegalMove(NOT_YOUR_TURN)
        st = engine.copy_state(state)
        key = move.notation.lower()
        if phase == "worker":
            pending = state["pending"]
            for option in pending["options"]:
                c = option[1] + 1
                if key == (f"move{c}" if option[0] == "move" else f"new{c}"):
                    st["phase"] = "first"
                    st["pending"] = None
                    engine.place_worker(st, seat, pending["space"], option, events)
                    engine.continue_turn(st, events)
                    return st
            raise IllegalMove(explain(state, seat, move.notation))
        if key == "refresh" and phase == "first" and engine.may_refresh(state, seat):
            engine.refresh(st, seat, events)
            return st
        if key == "stop" and phase == "second":
            if events is not None:
                events.append(Event("stop", Msg("maharani.ev.stop", who=who(seat))))
            engine.end_turn(st, events)
            return st
        m = PLACEMENT_RE.match(key)
        if m and m.group(4):
            g = geometry()
            field = int(m.group(1))
            space = g.space_by_name.get(f"{m.group(2).upper()}{m.group(3)}")
            d = m.group(4).upper()
            if space is not None and engine.placement_ok(state, seat, field, space, d):
                engine.place_tile(st, seat, field, space, d, events)
                return st
        raise IllegalMove(explain(state, seat, move.notation))

    def default_move(self, state: State, seat: int) -> Move | None:
        """A timed-out player stops after one tile (the rules' pass). Refreshing is no
        default: a table of absent players would refresh forever without placing a tile,
        so the first tile and a pending worker choice have no pass here (the bot makes the
        computer player's easy move for them)."""
        if state["phase"] == "over" or seat != state["turn"]:
            return None
        return next((m for m in legal_moves(state, seat) if m.notation == "stop"), None)

    # ----- information -----------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> View:
        """Everything is public in Maharani, so every seat sees the same view. It carries
        the floor's geometry too, so the picture is drawn from the view alone."""
        g = geometry()
        side = active_side(state)
        board = []
        for s in range(len(g.rows)):
            t = state["tiles"][s]
            w = state["workers"][s]
            board.append(
                {
                    "space": g.space_names[s],
                    "r": g.rows[s],
                    "c": g.cols[s],
                    "q": g.space_quarter[s] + 1,
                    "type": g.space_type[s],
                    "half_pillars": sorted(g.space_sides[s]),
                    "tile": None if t is None else g.tile_ids[t],
                    "colour": None if t is None else g.tile_colour[t],
                    "arrow": state["dirs"][s],
                    "worker": None if w is None else [w // 2, w % 2],
                }
            )
        rondel = []
        for f in range(1, 5):
            t = state["rondel"][f - 1]
            q = g.field_quarter(f, side)
            rondel.append(
                {
                    "field": f,
                    "quarter": q + 1,
                    "animal": g.animals[q],
                    "tile": None if t is None else g.tile_ids[t],
                    "colour": None if t is None else g.tile_colour[t],
                    "type": None if t is None else g.tile_type[t],
                    "half_pillars": None if t is None else list(g.tile_sides[t]),
                    "arrow": side,
                }
            )
        quarters = [
            {
                "q": q + 1,
                "animal": g.animals[q],
                "pos": g.quarter_pos[q],
                "scored": state["scored"][q],
                "empty": engine.empty_count(state, q),
            }
            for q in range(4)
        ]
        pending = state["pending"]
        return {
            "game": self.id,
            "players": state["n"],
            "sides": list(state["sides"]),
            "worker_colours": state["colours"],
            "turn": state["turn"],
            "turn_no": state["turn_no"],
            "to_act": self.to_act(state),
            "arrow": side,
            "phase": state["phase"],
            "placed": state["placed"],
            "gold": list(state["gold"]),
            "supply": [list(x) for x in state["supply"]],
            "markers": [list(x) for x in state["markers"]],
            "quarters": quarters,
            "animals": list(g.animals),
            "colours": list(g.colours),
            "board": board,
            "rondel": rondel,
            "bag": len(state["bag"]),
            "discarded": [g.tile_ids[t] for t in state["discarded"]],
            "recent": [g.space_names[s] for s in state["recent"]],
            "pending_worker": None
            if pending is None
            else {
                "space": g.space_names[pending["space"]],
                "options": [
                    {"kind": o[0], "worker_colour": o[1]}
                    | ({"from": g.space_names[o[2]]} if o[0] == "move" else {})
                    for o in pending["options"]
                ],
            },
            "end": state["end"],
            "refresh_as_pass": state.get("refresh_as_pass", True),
            "quarter_gold": list(QUARTER_GOLD),
            "sources": tally.sources(state, QUARTER_GOLD),
        }

    def outcome(self, state: State) -> Outcome | None:
        if state["phase"] != "over":
            return None
        golds = list(state["gold"])
        ranks = rank_by([(x,) for x in golds])
        winners = [s for s, r in enumerate(ranks) if r == 1]
        reason = Msg("maharani.result.wins", who=who(winners[0]), gold=gold(max(golds)))
        if len(winners) > 1:
            reason = Msg(
                "maharani.result.shared",
                who=Join("words.and", [who(s) for s in winners]),
                gold=gold(max(golds)),
            )
        if state["end"] == "stall":
            reason = Msg("maharani.result.stalled", reason=reason)
        details = [
            {"gold": golds[s], "workers_in_supply": list(state["supply"][s])}
            for s in range(state["n"])
        ]
        return Outcome(golds, ranks, reason, details)

    def scores(self, state: State) -> list[int]:
        return list(state["gold"])

    def status(self, state: State) -> Msg:
        phase = state["phase"]
        if phase == "over":
            stalled = state["end"] == "stall"
            return Msg("maharani.status.over_stall" if stalled else "maharani.status.over")
        seat = state["turn"]
        head = {"turn": state["turn_no"], "done": sum(state["scored"]), "who": who(seat)}
        if phase == "first":
            side = SIDE_WORDS[active_side(state)]
            key = "first" if engine.may_refresh(state, seat) else "first_place"
            return Msg(f"maharani.status.{key}", side=side, **head)
        if phase == "second":
            return Msg("maharani.status.second", **head)
        options = Join(
            "maharani.or",
            [
                Msg(f"maharani.status.option_{o[0]}", style=WORKER_STYLE[o[1]])
                for o in state["pending"]["options"]
            ],
        )
        return Msg("maharani.status.worker", options=options, **head)
