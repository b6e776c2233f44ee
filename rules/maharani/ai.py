"""What the computer player knows about Maharani (found by ``rules.ai.hooks.ai_for``).

- **Determinizer.** Everything on the table is public; what the view leaves out is the
  bag's contents (only its size is shown) and the random-number state that decides the
  next draws. The contents are knowable: all 60 tiles minus those on the floor, on the
  rondel and set aside. So a full state is rebuilt from the view with that bag (in tile
  order: the draw order comes from the random-number state alone) and a fresh
  random-number state per search iteration.
- **Evaluation** (projected final gold): gold, plus what each seat's workers would earn if
  every unscored quarter were scored now (they only move within their quarter, and a
  stalled game scores unfinished quarters as if complete), plus a little for face-up
  action markers (freedom to place anywhere next turn).
- **Rollouts** stop after one round of turns and use an epsilon-greedy policy on the
  moves' own suggestion rank (bigger same-colour area, a worker for you, no marker spent).
"""

from __future__ import annotations

from rules.ai.hooks import GameAI, rank_greedy
from rules.base import Game, Move, State, View
from rules.maharani import tally
from rules.maharani.data import geometry
from rules.maharani.engine import QUARTER_GOLD, active_side
from rules.maharani.words import colour
from rules.rng import Rng
from rules.words import Msg

#: Chance that a rollout move is uniformly random instead of the best-ranked one.
EPSILON = 0.25
#: Value of one face-up action marker in the evaluation (gold).
MARKER_VALUE = 0.5


def state_from_view(view: View, rng_state: int) -> State:
    """A full state whose view is ``view``, with random-number state ``rng_state``."""
    g = geometry()
    tile_index = {tid: i for i, tid in enumerate(g.tile_ids)}
    board = view["board"]
    tiles = [None if b["tile"] is None else tile_index[b["tile"]] for b in board]
    workers = [None if b["worker"] is None else b["worker"][0] * 2 + b["worker"][1] for b in board]
    rondel = [None if f["tile"] is None else tile_index[f["tile"]] for f in view["rondel"]]
    discarded = [tile_index[t] for t in view["discarded"]]
    seen = {t for t in (*tiles, *rondel, *discarded) if t is not None}
    bag = [t for t in range(len(g.tile_ids)) if t not in seen]
    pending = None
    if view["pending_worker"] is not None:
        pw = view["pending_worker"]
        options: list[list[object]] = []
        for o in pw["options"]:
            if o["kind"] == "move":
                options.append(["move", o["worker_colour"], g.space_by_name[o["from"]]])
            else:
                options.append(["new", o["worker_colour"]])
        pending = {"space": g.space_by_name[pw["space"]], "options": options}
    return {
        "n": view["players"],
        "sides": list(view["sides"]),
        "colours": view["worker_colours"],
        "rng": rng_state,
        "bag": bag,
        "rondel": rondel,
        "tiles": tiles,
        "dirs": [b["arrow"] for b in board],
        "workers": workers,
        "supply": [list(x) for x in view["supply"]],
        "gold": list(view["gold"]),
        "markers": [list(x) for x in view["markers"]],
        "scored": [q["scored"] for q in view["quarters"]],
        "discarded": discarded,
        "turn": view["turn"],
        "turn_no": view["turn_no"],
        "phase": view["phase"],
        "placed": view["placed"],
        "pending": pending,
        "recent": [g.space_by_name[s] for s in view["recent"]],
        "end": view["end"],
        "refresh_as_pass": view.get("refresh_as_pass", True),
        **tally.from_view(view),
    }


def projected(state: State) -> list[float]:
    """Every seat's projected final gold (see the module docstring)."""
    n = state["n"]
    values = [float(x) for x in state["gold"]]
    if state["phase"] == "over":
        return values
    g = geometry()
    workers = state["workers"]
    top = len(QUARTER_GOLD) - 1
    for q in range(4):
        if state["scored"][q]:
            continue
        counts: dict[int, int] = {}
        for s in g.quarter_spaces[q]:
            w = workers[s]
            if w is not None:
                counts[w] = counts.get(w, 0) + 1
        for code, k in counts.items():
            values[code // 2] += QUARTER_GOLD[min(k, top)]
    for seat in range(n):
        values[seat] += MARKER_VALUE * sum(1 for m in state["markers"][seat] if m)
    return values


class MaharaniAI(GameAI):
    #: Iterations per second by player count on an empty floor, measured with
    #: ``python -m bot arena`` on this 2-core machine nearly idle (one worker; 2 players at
    #: a 1 s budget: mean ~0.8 s, p95 ~1.08 s per move; 3–4 players less certain).
    RATES = {2: 640.0, 3: 360.0, 4: 300.0}
    #: How much faster iterations get as the floor fills (fewer placements to list and
    #: shortlist): the rate grows by this factor times the filled fraction.
    FILL_SPEEDUP = 2.0
    score_scale = 10.0
    #: Strong (three times the iterations) beat normal in 55.5 of 80 games at 0.1 s
    #: (69 %, interval 59-78 %; docs/computer_players.md, "Does more time buy strength").
    #: At the real budget (6 s against 2 s) it won 22 of 40 (55 %, 40-69 %): not shown
    #: stronger there, kept by the rule written before those games (2026-12-05).
    offers_strong = True

    def iteration_rate(self, game: Game, view: View) -> float:
        board = view["board"]
        filled = sum(1 for b in board if b["tile"] is not None) / len(board)
        return self.RATES.get(view["players"], 250.0) * (1.0 + self.FILL_SPEEDUP * filled)

    def determinize(self, game: Game, view: View, seat: int, rng: Rng) -> State:
        return state_from_view(view, rng.next64())

    def avoids(self, game: Game, view: View, seat: int, move: Move) -> bool:
        """A refresh with every marker already face up is a pass where the match plays the
        house rule ``refresh_as_pass`` (by the rulebook it is no move at all; every match
        stored before that reading has it, ``docs/maharani.md``). A computer player does
        not pass while it can place a tile: where every placement helps the opponent more
        than waiting, two searches both rank the pass first and pass to each other for
        ever (seen in the arena: a game of strong against normal stood at 75 to 73 gold
        for hundreds of refreshes)."""
        return move.notation == "refresh" and all(view["markers"][seat])

    def rollout_move(self, game: Game, state: State, seat: int, rng: Rng) -> Move:
        return rank_greedy(game.legal_moves(state, seat), rng, EPSILON)

    def evaluate(self, game: Game, state: State) -> list[float] | None:
        return projected(state)

    def cutoff(self, game: Game, start: State, state: State, depth: int) -> bool:
        return state["turn_no"] - start["turn_no"] >= state["n"]

    def explain(self, game: Game, view: View, seat: int, move: Move, value: float) -> Msg:
        state = state_from_view(view, 0)
        rating = Msg("maharani.hint.rating", rating=round(100 * value))
        try:
            after, _ = game.apply(state, seat, move)
        except ValueError:
            return rating
        gold = after["gold"][seat] - state["gold"][seat]
        gain = projected(after)[seat] - projected(state)[seat]
        return Msg(
            "maharani.hint.reason",
            move=_describe(state, seat, move),
            gold=f"{gold:+d}",
            gain=f"{gain:+.0f}",
            rating=rating,
        )


def _describe(state: State, seat: int, move: Move) -> str:
    key = move.notation.lower()
    if key == "refresh":
        down = sum(1 for m in state["markers"][seat] if not m)
        return Msg("maharani.hint.refresh", n=down) if down else Msg("maharani.hint.pass")
    if key == "stop":
        return Msg("maharani.hint.stop")
    if key.startswith(("new", "move")):
        return move.label
    g = geometry()
    field = int(key[0])
    tile = state["rondel"][field - 1]
    space = g.space_by_name.get(key[1:-1].upper())
    if tile is None or space is None:
        return move.label
    worker = Msg("maharani.hint.worker") if key[-1].upper() == active_side(state) else ""
    return Msg(
        "maharani.hint.place",
        colour=colour(g.tile_colour[tile]),
        space=g.space_names[space],
        worker=worker,
    )


AI = MaharaniAI()
