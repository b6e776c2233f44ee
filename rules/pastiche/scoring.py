"""Final scoring (rules §5): commission points, usable palette cards, painter bonus, ties.

Kept free of game-state plumbing (plain ids and card counts in, numbers out) so the rulebook's
worked example can be checked directly with the cards it names.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rules.pastiche.data import load
from rules.words import Msg, Seat

#: Painter bonus by the two cards' point sum [C S1]: (lowest sum, highest sum, bonus).
BONUS_TABLE: tuple[tuple[int, int, int], ...] = ((15, 17, 3), (18, 22, 4), (23, 27, 5), (28, 31, 6))
#: End trigger: completed commission points by player count [C S1].
THRESHOLD: dict[int, int] = {2: 45, 3: 40, 4: 35}


def painter_bonus_for(pair_sum: int) -> int:
    for low, high, bonus in BONUS_TABLE:
        if low <= pair_sum <= high:
            return bonus
    return 0


def commission_points(done: Iterable[str]) -> int:
    comms = load().commissions
    return sum(comms[c].points for c in done)


def painter_bonus(done: Iterable[str]) -> int:
    """Bonus for every painter whose two commissions this player completed."""
    comms = load().commissions
    by_painter: dict[str, list[int]] = {}
    for cid in done:
        by_painter.setdefault(comms[cid].painter, []).append(comms[cid].points)
    return sum(painter_bonus_for(sum(pts)) for pts in by_painter.values() if len(pts) >= 2)


def usable_points(cards: Mapping[str, int], hand: Iterable[str]) -> int:
    """Value of palette cards usable toward the commissions still in hand, each card once:
    for each colour, min(cards held, hand commissions needing it) × value."""
    data = load()
    need: Counter[str] = Counter()
    for cid in hand:
        need.update(data.commissions[cid].palette)
    return sum(min(cards.get(c, 0), n) * data.value[c] for c, n in need.items())


@dataclass(frozen=True, slots=True)
class Breakdown:
    commissions: int
    usable: int
    bonus: int
    completed: int

    @property
    def total(self) -> int:
        return self.commissions + self.usable + self.bonus

    def key(self) -> tuple[int, int, int, int]:
        """Higher is better: total, then the three tie-breakers in rulebook order."""
        return (self.total, self.completed, self.usable, self.bonus)

    def to_json(self) -> dict[str, int]:
        return {
            "commissions": self.commissions,
            "usable": self.usable,
            "bonus": self.bonus,
            "completed": self.completed,
            "total": self.total,
        }


def breakdown(done: list[str], hand: list[str], cards: Mapping[str, int]) -> Breakdown:
    return Breakdown(
        commissions=commission_points(done),
        usable=usable_points(cards, hand),
        bonus=painter_bonus(done),
        completed=len(done),
    )


def tie_reason(parts: list[Breakdown]) -> Msg | str:
    """Words for every tie on total that a tie-breaker settled (or left shared); "" when
    no total was tied."""
    keys = ("pastiche.tie.completed", "pastiche.tie.usable", "pastiche.tie.bonus")
    notes: list[Msg] = []
    n = len(parts)
    for i in range(n):
        for j in range(i + 1, n):
            a, b = parts[i], parts[j]
            if a.total != b.total:
                continue
            ka, kb = a.key()[1:], b.key()[1:]
            for idx, key in enumerate(keys):
                if ka[idx] != kb[idx]:
                    win, lose = (i, j) if ka[idx] > kb[idx] else (j, i)
                    notes.append(
                        Msg(
                            key,
                            winner=Seat(win),
                            loser=Seat(lose),
                            total=a.total,
                            high=max(ka[idx], kb[idx]),
                            low=min(ka[idx], kb[idx]),
                        )
                    )
                    break
            else:
                notes.append(Msg("pastiche.tie.shared", first=Seat(i), second=Seat(j)))
    if not notes:
        return ""
    said = notes[0]
    for note in notes[1:]:
        said = Msg("pastiche.tie.more", first=said, then=note)
    return said
