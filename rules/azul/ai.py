"""What the computer player knows about Azul (found by ``rules.ai.hooks.ai_for``).

- **Determinizer.** Azul hides nothing on the table, but the view is not the state: it
  shows the bag and lid as colour counts, not the random-number state that decides the
  next rounds' factories (nor the draw order of the current ones, kept for the record). So
  a full state is rebuilt from the view and given a fresh random-number state: each
  search iteration then sees a different, equally likely future draw.
- **Evaluation** (projected final score): the score, plus the placement points of every
  full pattern line (tiled at the round's end), a little credit for partly filled lines,
  minus the floor penalty, plus the end bonuses weighted by how complete each row, column
  and colour is (squared, so a nearly full column counts much more than a started one).
- **Rollouts** stop when the round ends (the evaluation then scores a clean state: floors
  cleared, lines tiled) and use an epsilon-greedy policy on the moves' own suggestion rank
  (tiles placed, lines filled, floor overflow), which avoids the random player's habit of
  dumping tiles on the floor at a fraction of a search's cost.
"""

from __future__ import annotations

from typing import Any

from rules.ai.hooks import GameAI, rank_greedy
from rules.azul import last_turn
from rules.azul.board import (
    BONUS_COLOUR,
    BONUS_COLUMN,
    BONUS_ROW,
    COLOURS,
    FLOOR_TOTAL,
    MARKER,
    legal_grey_columns,
    placement_points,
    printed_column,
)
from rules.azul.moves import FLOOR, PARSED, parse_column, tiles_words
from rules.azul.rounds import OFFER, OVER, TILING
from rules.base import Game, Move, State, View
from rules.rng import Rng
from rules.words import Msg

#: Chance that a rollout move is uniformly random instead of the best-ranked one.
EPSILON = 0.2
#: Credit per tile already in a pattern line that is not full yet.
PARTIAL_LINE_CREDIT = 0.5


def _counts(letters: list[str]) -> list[int]:
    return [letters.count(c) for c in COLOURS]


def state_from_view(view: View, rng_state: int) -> State:
    """A full state whose view is ``view``, with random-number state ``rng_state``."""
    n = view["player_count"]
    players = view["players"]
    index = COLOURS.index
    phase = view["phase"]
    lc: list[list[int]] = []
    ln: list[list[int]] = []
    walls: list[list[int]] = []
    rows: list[list[int]] = []
    floors: list[list[int]] = []
    marker = -1
    for p in players:
        lc.append([index(line["colour"]) if line["count"] else -1 for line in p["lines"]])
        ln.append([line["count"] for line in p["lines"]])
        wall = [-1 if c is None else index(c) for row in p["wall"] for c in row]
        walls.append(wall)
        rows.append([sum(1 << k for k in wall[r * 5 : r * 5 + 5] if k >= 0) for r in range(5)])
        floors.append([MARKER if x == "M" else index(x) for x in p["floor"]])
        if p["has_marker"]:
            marker = p["seat"]
    factories = [_counts(f) if f else [] for f in view["factories"]]
    centre = _counts(view["centre"])
    tnext = None
    if phase == TILING:
        tnext = [5] * n
        for item in view["pending"]:
            tnext[item["seat"]] = item["line"] - 1
    end = None
    bonus = None
    if phase == OVER and view["outcome"]:
        end = "row"
        bonus = [
            [d["rows"], d["columns"], d["colours"], d["bonus"]] for d in view["outcome"]["details"]
        ]
    return {
        "players": n,
        "grey": view["grey_wall"],
        "round": view["round"],
        "phase": phase,
        "first": view["first_player"],
        "turn": view["turn"] if phase == OFFER else -1,
        "marker": marker,
        "bag": [view["bag_colours"][c] for c in COLOURS],
        "lid": [view["lid_colours"][c] for c in COLOURS],
        "fac": factories,
        "centre": centre,
        "left": sum(map(sum, factories)) + sum(centre),
        "lc": lc,
        "ln": ln,
        "wall": walls,
        "rows": rows,
        "floor": floors,
        "score": [p["score"] for p in players],
        "tnext": tnext,
        "end": end,
        "bonus": bonus,
        "rng": rng_state,
        "fac_draw": ["".join(f) for f in view["factories"]],
        "last": last_turn.from_view(view.get("last_turn")),
        "tally": _tally(players),
    }


def _tally(players: list[dict[str, Any]]) -> list[list[int]] | None:
    """``state["tally"]`` back from the players' ``points`` (see ``rules.azul.view``)."""
    if any(p.get("points") is None for p in players):
        return None
    return [[p["points"]["wall"], -p["points"]["floor"], p["floor_spared"]] for p in players]


def _projected(state: State, p: int) -> float:
    """Seat ``p``'s projected final score (see the module docstring)."""
    score = state["score"][p]
    if state["phase"] == OVER:
        return float(score)
    wall = list(state["wall"][p])
    value = float(score)
    lc, ln = state["lc"][p], state["ln"][p]
    grey = state["grey"]
    for i in range(5):
        n = ln[i]
        if not n:
            continue
        k = lc[i]
        if n == i + 1:
            if grey:
                cols = legal_grey_columns(wall, i, k)
                if not cols:
                    continue
                col = cols[0]
            else:
                col = printed_column(i, k)
            wall[i * 5 + col] = k
            value += placement_points(wall, i, col)
        else:
            value += PARTIAL_LINE_CREDIT * n
    value -= FLOOR_TOTAL[len(state["floor"][p])]
    if value < 0:
        value = 0.0
    bonus = 0.0
    for r in range(5):
        filled = sum(1 for c in range(5) if wall[r * 5 + c] >= 0)
        bonus += BONUS_ROW * (filled / 5) ** 2
    for c in range(5):
        filled = sum(1 for r in range(5) if wall[r * 5 + c] >= 0)
        bonus += BONUS_COLUMN * (filled / 5) ** 2
    for k in range(5):
        bonus += BONUS_COLOUR * (wall.count(k) / 5) ** 2
    return value + bonus


class AzulAI(GameAI):
    #: Iterations per second by player count, measured with ``python -m bot arena`` on this
    #: 2-core machine nearly idle (one worker; 2 players at a 1 s budget: mean ~0.6 s,
    #: p95 ~0.97 s per move). Rollouts end with the round, so the cost grows with the
    #: number of players. On a loaded machine moves take longer, up to the safety net.
    RATES = {2: 1900.0, 3: 1300.0, 4: 880.0}
    score_scale = 12.0
    #: Strong (three times the iterations) beat normal in 60 of 80 games at 0.1 s
    #: (75 %, interval 65-83 %; docs/computer_players.md, "Does more time buy strength"),
    #: and in 27.5 of 40 at the real 2 s (69 %, 53-81 %; "At the real budget").
    offers_strong = True
    # Reward shares: the generic ones (``GameAI.reward_weights``). More own score (0.5, 0.15,
    # 0.35) lifted two normal players' scores and won 27 of 40 games against the generic
    # shares at 0.2 s, but only 8 of 20 at the real 2 s (``benchmarks/reward_shares.py``;
    # docs/computer_players.md, "Azul's reward shares"), so it was not adopted.

    def iteration_rate(self, game: Game, view: View) -> float:
        return self.RATES.get(view["player_count"], 1000.0)

    def determinize(self, game: Game, view: View, seat: int, rng: Rng) -> State:
        return state_from_view(view, rng.next64())

    def rollout_move(self, game: Game, state: State, seat: int, rng: Rng) -> Move:
        return rank_greedy(game.legal_moves(state, seat), rng, EPSILON)

    def evaluate(self, game: Game, state: State) -> list[float] | None:
        return [_projected(state, p) for p in range(state["players"])]

    def cutoff(self, game: Game, start: State, state: State, depth: int) -> bool:
        return state["round"] != start["round"]

    def explain(self, game: Game, view: View, seat: int, move: Move, value: float) -> Msg:
        state = state_from_view(view, 0)
        chance = Msg("azul.hint.rating", rating=round(100 * value))
        try:
            after, _ = game.apply(state, seat, move)
        except ValueError:
            return chance
        gain = _projected(after, seat) - _projected(state, seat)
        words = _describe(state, seat, move)
        return Msg("azul.hint.reason", move=words, gain=f"{gain:+.0f}", rating=chance)


def _describe(state: State, seat: int, move: Move) -> str:
    """The move in a few words: what it fills and what it costs on the floor."""
    column = parse_column(move.notation)
    if state["phase"] == TILING and column is not None:
        return Msg("azul.hint.column", line=state["tnext"][seat] + 1, column=column + 1)
    parsed = PARSED.get(move.notation)
    if parsed is None:
        return move.label
    src, colour, dest = parsed
    pile: Any = state["centre"] if src == 9 else state["fac"][src]
    count = pile[colour]
    tiles = tiles_words(count, colour)
    marker = src == 9 and state["marker"] < 0
    tail = Msg("azul.hint.marker") if marker else ""
    if dest == FLOOR:
        return Msg("azul.hint.drop", tiles=tiles, marker=tail)
    room = dest + 1 - state["ln"][seat][dest]
    over = max(0, count - room)
    what: Msg
    if count >= room:
        what = Msg("azul.hint.fills", line=dest + 1)
    else:
        what = Msg("azul.hint.adds", tiles=tiles, line=dest + 1, n=room - count)
    loss = Msg("azul.hint.loss", n=over) if over else Msg("azul.hint.no_loss")
    return Msg("azul.hint.move", what=what, loss=loss, marker=tail)


AI = AzulAI()
