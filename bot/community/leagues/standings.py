"""A league's standings, recounted from its matches' stored results every time (pure: the
service reads the rows, this counts; nothing is kept that could drift from the matches).

- **Points per match** by final place at a table of ``k`` seats (computers count as seats):
  ``k - place`` — 1 for a two-player win, 0 for a loss —, a shared place split evenly
  (the points of the places the tied seats cover, averaged): a two-player draw is ½ each,
  three tied at the top of a table of three 1 each. The place is the seat's rank in the
  match's result, so a resigned or forfeited seat (ranked last by the result, even when a
  computer played it out) scores last place, and a seat a substitute finished is still its
  league player's.
- **A bye** scores 1 in a two-player league (a win, as in chess) and ``(k-1)/2`` at tables of
  ``k`` (the average of a table's points: neither reward nor penalty).
- A match aborted by its players scores nothing and does not count as played; a match
  still running counts for nothing yet.
- **Order**: points; then *Buchholz* (the sum of the current points of every league
  player met, once per finished match: opponents who did well make points worth more);
  then the *game score* (the sum of one's own in-game scores); then *head-to-head* (points
  won in matches shared with another of those still tied); then seed order (the league's
  draw). Rows equal on everything but the seed share their rank.
- *Played*: finished matches (byes not included).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class TableResult:
    """One league match as standings see it: its league player per seat (None for a
    computer seat) and, once finished, its stored result (``ranks`` and ``scores`` per
    seat); ``result`` None: still running, or aborted."""

    round: int
    entrants: tuple[str | None, ...]
    result: Mapping[str, Any] | None


@dataclass(frozen=True, slots=True)
class Line:
    """One player's counted standing, before its rank."""

    user_id: str
    points: float
    buchholz: float
    game_score: float
    head_to_head: float
    played: int
    byes: int


def place_points(ranks: Sequence[int]) -> list[float]:
    """Points per seat for a result's ``ranks`` (competition ranking, 1 best): ``k -
    place``, a shared place split over the places it covers."""
    k = len(ranks)
    out = []
    for r in ranks:
        tied = sum(1 for x in ranks if x == r)
        places = range(r, r + tied)
        out.append(sum(k - p for p in places) / tied)
    return out


def bye_points(k: int) -> float:
    """What a bye scores at tables of ``k``."""
    return 1.0 if k == 2 else (k - 1) / 2


def _finished(t: TableResult) -> bool:
    ranks = t.result.get("ranks") if t.result else None
    return isinstance(ranks, list) and len(ranks) == len(t.entrants)


def count(
    players: Sequence[str],
    tables: Sequence[TableResult],
    byes: Mapping[int, Sequence[str]],
    k: int,
) -> list[Line]:
    """Each player's points and tie-breaks, ordered as the module docstring says;
    ``players`` in seed order (the last tie-break)."""
    points = dict.fromkeys(players, 0.0)
    score = dict.fromkeys(players, 0.0)
    played = dict.fromkeys(players, 0)
    bye_count = dict.fromkeys(players, 0)
    won: list[tuple[tuple[str, ...], dict[str, float]]] = []  # (people, their points)
    for t in tables:
        if not _finished(t):
            continue
        assert t.result is not None
        got = place_points(list(t.result["ranks"]))
        scores = list(t.result.get("scores") or [0] * len(t.entrants))
        here: dict[str, float] = {}
        for seat, uid in enumerate(t.entrants):
            if uid is None or uid not in points:
                continue
            points[uid] += got[seat]
            here[uid] = got[seat]
            played[uid] += 1
            value = scores[seat] if seat < len(scores) else 0
            score[uid] += float(value) if isinstance(value, int | float) else 0.0
        won.append((tuple(here), here))
    for rnd_byes in byes.values():
        for uid in rnd_byes:
            if uid in points:
                points[uid] += bye_points(k)
                bye_count[uid] += 1
    buchholz = dict.fromkeys(players, 0.0)
    for people, _ in won:
        for uid in people:
            buchholz[uid] += sum(points[o] for o in people if o != uid)
    seed = {u: i for i, u in enumerate(players)}

    def key3(u: str) -> tuple[float, float, float]:
        return (-points[u], -buchholz[u], -score[u])

    groups: dict[tuple[float, float, float], list[str]] = {}
    for u in players:
        groups.setdefault(key3(u), []).append(u)
    h2h = dict.fromkeys(players, 0.0)
    for group in groups.values():
        if len(group) < 2:
            continue
        members = set(group)
        for people, got_here in won:
            for uid in people:
                if uid in members and any(o in members for o in people if o != uid):
                    h2h[uid] += got_here[uid]
    ordered = sorted(players, key=lambda u: (*key3(u), -h2h[u], seed[u]))
    return [
        Line(u, points[u], buchholz[u], score[u], h2h[u], played[u], bye_count[u]) for u in ordered
    ]


def ranks(lines: Sequence[Line]) -> list[int]:
    """Competition ranks of ordered ``lines``: equal on everything but the seed, equal rank."""
    out: list[int] = []
    for i, line in enumerate(lines):
        if i and _same(lines[i - 1], line):
            out.append(out[-1])
        else:
            out.append(i + 1)
    return out


def _same(a: Line, b: Line) -> bool:
    return (a.points, a.buchholz, a.game_score, a.head_to_head) == (
        b.points,
        b.buchholz,
        b.game_score,
        b.head_to_head,
    )
