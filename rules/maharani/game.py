"""The Maharani :class:`~rules.base.Game`: glue between the interface and the engine."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict

from rules.base import Event, Game, IllegalMove, Move, Outcome, State, View, rank_by
from rules.maharani import engine
from rules.maharani.data import geometry
from rules.maharani.engine import QUARTER_GOLD, SIDE_WORDS, WORKER_STYLE, active_side, who
from rules.maharani.moves import PLACEMENT_RE, clean, explain, legal_moves, random_move
from rules.rng import Rng


class MaharaniOptions(BaseModel):
    """Match options. Seats: [R] the sources are silent on where two players sit."""

    model_config = ConfigDict(extra="forbid")
    #: 2 players sit on opposite sides (S and N) or adjacent sides (S and W).
    two_player_seats: Literal["opposite", "adjacent"] = "opposite"


class Maharani(Game):
    id: ClassVar[str] = "maharani"
    name: ClassVar[str] = "Maharani"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    Options: ClassVar[type[BaseModel]] = MaharaniOptions
    has_hidden_information: ClassVar[bool] = False
    score_unit: ClassVar[str] = "gold"
    summary: ClassVar[str] = (
        "Lay mosaic tiles in the four palace quarters. The rondel turns to you; take a tile into "
        "its own quarter free, or elsewhere by flipping that quarter's action marker.\n"
        "Gold: 1 per tile in the same-colour area you extend. If the tile's arrow points at you, "
        "a worker goes on it (moved if you already have one on that colour there) and earns "
        "1 per worker in its group.\n"
        "A second tile costs 2 gold. Or spend the turn refreshing your markers.\n"
        "A finished quarter pays its workers 4/6/9/13/18/24 for 1-6 workers. "
        "Most gold after the fourth quarter wins."
    )
    notation_help: ClassVar[str] = (
        "Moves: 1F7S = tile on rondel field 1 to space F7 with its arrow pointing S; "
        "refresh; stop (no second tile); new1/new2/move1/move2 (2-player worker choice)."
    )

    # ----- lifecycle -------------------------------------------------------------------
    def setup(
        self, player_count: int, seed: int, options: BaseModel | dict[str, Any] | None = None
    ) -> State:
        self.check_player_count(player_count)
        opts = self.parse_options(options)
        assert isinstance(opts, MaharaniOptions)
        state, _ = engine.new_state(player_count, seed, opts.two_player_seats)
        return state

    def setup_events(self, state: State) -> list[Event]:
        """The chance outcomes of ``setup`` (the four tiles drawn onto the rondel and the
        random start player), so a record can be checked without our generator."""
        g = geometry()
        drawn = ", ".join(
            f"{f + 1}: {g.tile_colour[t]}" for f, t in enumerate(state["rondel"]) if t is not None
        )
        return [
            Event(
                "refill",
                f"Rondel filled ({drawn}).",
                data={
                    "rondel": [None if t is None else g.tile_ids[t] for t in state["rondel"]],
                    "set_aside": [],
                    "bag": len(state["bag"]),
                },
                reveals=True,
            ),
            Event(
                "start",
                f"{who(state['turn'])} starts; the rondel points at them.",
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

    def explain_illegal(self, state: State, seat: int, text: str) -> str:
        return explain(state, seat, text)

    def apply(self, state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
        phase = state["phase"]
        if phase == "over":
            raise IllegalMove("This game is over; no more moves can be made.")
        if seat != state["turn"]:
            raise IllegalMove("It is not your turn.")
        st = engine.copy_state(state)
        events: list[Event] = []
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
                    return st, events
            raise IllegalMove(explain(state, seat, move.notation))
        if key == "refresh" and phase == "first":
            engine.refresh(st, seat, events)
            return st, events
        if key == "stop" and phase == "second":
            events.append(Event("stop", f"{who(seat)} places no second tile."))
            engine.end_turn(st, events)
            return st, events
        m = PLACEMENT_RE.match(key)
        if m and m.group(4):
            g = geometry()
            field = int(m.group(1))
            space = g.space_by_name.get(f"{m.group(2).upper()}{m.group(3)}")
            d = m.group(4).upper()
            if space is not None and engine.placement_ok(state, seat, field, space, d):
                engine.place_tile(st, seat, field, space, d, events)
                return st, events
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
            "quarter_gold": list(QUARTER_GOLD),
        }

    def outcome(self, state: State) -> Outcome | None:
        if state["phase"] != "over":
            return None
        gold = list(state["gold"])
        ranks = rank_by([(x,) for x in gold])
        winners = [s for s, r in enumerate(ranks) if r == 1]
        reason = f"{who(winners[0])} wins with {max(gold)} gold."
        if len(winners) > 1:
            reason = (
                "Shared victory: "
                + " and ".join(who(s) for s in winners)
                + f" have {max(gold)} gold each (Maharani has no tie-breaker)."
            )
        if state["end"] == "stall":
            reason += " The game stopped early: no rondel tile fit any empty space."
        details = [
            {"gold": gold[s], "workers_in_supply": list(state["supply"][s])}
            for s in range(state["n"])
        ]
        return Outcome(gold, ranks, reason, details)

    def scores(self, state: State) -> list[int]:
        return list(state["gold"])

    def status(self, state: State) -> str:
        phase = state["phase"]
        if phase == "over":
            early = " (stopped early: no tile fits)" if state["end"] == "stall" else ""
            return "Game over." + early
        seat = state["turn"]
        done = sum(state["scored"])
        head = f"Turn {state['turn_no']} · {done}/4 quarters scored · "
        if phase == "first":
            side = active_side(state)
            return head + (
                f"{who(seat)} to place a tile or refresh (the rondel's arrow points to "
                f"{who(seat)}'s side, {SIDE_WORDS[side]})."
            )
        if phase == "second":
            return head + f"{who(seat)} may place a second tile for 2 gold, or stop."
        pending = state["pending"]
        styles = " or ".join(f"{o[0]} {WORKER_STYLE[o[1]]}" for o in pending["options"])
        return head + f"{who(seat)} chooses a worker: {styles}."
