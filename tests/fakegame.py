"""A tiny game used to test the platform without depending on a real game's rules.

Registered at test start-up through the public registries, which also proves that a new
game plugs in without touching ``bot/``. Pile: take 1–3 counters; "draw" takes a secret card
(hidden information + chance); when the pile is empty the game ends; score = counters
taken + the value of your secret cards.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw
from pydantic import BaseModel, ConfigDict, Field

from render.common import encode_png, font  # noqa: F401  (encode_png used by callers)
from rules.base import Event, Game, IllegalMove, Move, Outcome, Step, rank_by
from rules.rng import Rng


class PileOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    size: int = Field(default=9, ge=3, le=30)


class PileGame(Game):
    id = "test-pile"
    name = "Pile"
    min_players = 2
    max_players = 3
    Options = PileOptions
    summary = "Take 1–3 counters; draw secret cards; most points wins."
    notation_help = "Type take1, take2, take3 or draw."
    has_hidden_information = True

    def setup(self, player_count: int, seed: int, options: Any = None) -> dict[str, Any]:
        self.check_player_count(player_count)
        opts = self.parse_options(options)
        rng = Rng.from_seed(seed)
        return {
            "pile": opts.size,
            "turn": rng.below(player_count),
            "taken": [0] * player_count,
            "hands": [[] for _ in range(player_count)],
            "draws": 0,
            "rng": rng.state,
        }

    def to_act(self, state: dict[str, Any]) -> list[int]:
        return [] if state["pile"] == 0 else [state["turn"]]

    def legal_moves(self, state: dict[str, Any], seat: int) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        moves = [
            Move(
                f"take{n}",
                f"take {n} counter{'s' if n > 1 else ''}",
                (Step("take", "take"), Step(str(n), str(n))),
                rank=n,
            )
            for n in range(1, min(3, state["pile"]) + 1)
        ]
        if state["draws"] < 4:
            moves.append(Move("draw", "draw a secret card", (Step("draw", "draw"),)))
        if not state.get("poked"):
            # a move whose words name another seat, as trade offers do in real games
            other = (seat + 1) % len(state["taken"])
            moves.append(Move(f"poke{other + 1}", f"poke {{p{other}}}", (Step("poke", "poke"),)))
        return moves

    def explain_illegal(self, state: dict[str, Any], seat: int, text: str) -> str:
        t = text.strip().lower()
        if t.startswith("take") and t[4:].isdigit():
            return f"You can take 1 to {min(3, state['pile'])} counters, not {t[4:]}."
        return super().explain_illegal(state, seat, text)

    def apply(
        self, state: dict[str, Any], seat: int, move: Move
    ) -> tuple[dict[str, Any], list[Event]]:
        if move.notation not in {m.notation for m in self.legal_moves(state, seat)}:
            raise IllegalMove("That move is not legal now.")
        new = {**state, "taken": list(state["taken"]), "hands": [list(h) for h in state["hands"]]}
        events: list[Event] = []
        if move.notation.startswith("poke"):
            new["poked"] = True
            events.append(Event("poke", f"{{p{seat}}} poked someone."))
        elif move.notation == "draw":
            rng = Rng(new["rng"])
            card = 1 + rng.below(5)
            new["rng"] = rng.state
            new["hands"][seat].append(card)
            new["draws"] += 1
            events.append(
                Event(
                    "draw",
                    f"{{p{seat}}} drew a secret card.",
                    secret={"card": card},
                    private={seat: f"You drew a {card}."},
                    reveals=True,
                )
            )
        else:
            n = int(move.notation[4:])
            new["pile"] -= n
            new["taken"][seat] += n
            events.append(Event("take", f"{{p{seat}}} took {n}.", {"n": n}))
        new["turn"] = (seat + 1) % len(new["taken"])
        return new, events

    def scores(self, state: dict[str, Any]) -> list[int]:
        return [t + sum(h) for t, h in zip(state["taken"], state["hands"], strict=True)]

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        v: dict[str, Any] = {
            "pile": state["pile"],
            "turn": state["turn"],
            "taken": state["taken"],
            "hand_sizes": [len(h) for h in state["hands"]],
        }
        if seat is not None:
            v["hand"] = state["hands"][seat]
            v["seat"] = seat
        return v

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        if state["pile"]:
            return None
        scores = self.scores(state)
        return Outcome(scores, rank_by([(s,) for s in scores]))

    def status(self, state: dict[str, Any]) -> str:
        return f"{state['pile']} counters left; {{p{state['turn']}}} to move."

    def default_move(self, state: dict[str, Any], seat: int) -> Move | None:
        return self.legal_moves(state, seat)[0]


GAME = PileGame()


def draw(view: dict[str, Any], names: list[str], seat: int | None, lang: str = "en") -> Image.Image:
    img = Image.new("RGB", (400, 200), "white")
    d = ImageDraw.Draw(img)
    d.text((10, 10), f"Pile: {view['pile']}", fill="black", font=font(24))
    if seat is not None:
        d.text((10, 60), f"{names[seat]}: {view['hand']}", fill="black", font=font(20))
    if lang != "en":  # shows which language reached the renderer (tests of the plumbing)
        d.text((10, 150), lang, fill="black", font=font(20))
    return img
