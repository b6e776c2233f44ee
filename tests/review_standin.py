"""A stand-in for ``rules.ai.review`` (issue 45's review engine, written by another helper
at the same time) with the agreed interface, used only while the real module is absent:
tests/conftest.py puts it in ``sys.modules`` then. Never product code."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class Judgement:
    seat: int
    played: str
    best: str
    loss: float
    noise: float
    confidence: float
    verdict: str
    reason: dict[str, Any] | None
    played_reason: dict[str, Any] | None
    candidates: int
    forced: bool

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Judgement:
        return cls(**data)


def judge(
    game: Any, view: dict, seat: int, played: str, *, seed: int, budget_s: float
) -> Judgement:
    return Judgement(seat, played, played, 0.0, 0.0, 1.0, "best", None, None, 1, False)


def moments(judgements: Any, per_seat: int = 3) -> dict[int, list[Judgement]]:
    out: dict[int, list[Judgement]] = {}
    for j in sorted(judgements, key=lambda j: -j.loss):
        if j.loss > 0 and not j.forced and len(out.setdefault(j.seat, [])) < per_seat:
            out[j.seat].append(j)
    return out


def average_loss(judgements: Any) -> dict[int, float]:
    sums: dict[int, list[float]] = {}
    for j in judgements:
        sums.setdefault(j.seat, []).append(j.loss)
    return {s: sum(v) / len(v) for s, v in sums.items()}


def budget_for(game: Any, decisions: int) -> float:
    return 60.0 / max(1, decisions) / 2
