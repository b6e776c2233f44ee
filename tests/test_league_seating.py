"""League seating (bot/community/leagues/seating.py), property by property over many league
sizes, table sizes and seeds: everyone seated once a round, no repeat pairings where none is
needed, fair byes, who moves first alternating, the same round for the same seed."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from bot.community.leagues import seating, standings
from bot.community.leagues.seating import Pairing


def play_league(
    fmt: str, n: int, k: int, fill: str, seed: int, rounds: int | None = None, leave: int = 0
) -> tuple[list[str], list[Pairing], list[set[str]]]:
    """Seat every round of a league with random results (the first ``leave`` players of the
    roster leave after round 1); returns the roster, the rounds and who was active in each."""
    roster = seating.seed_order([f"p{i:02}" for i in range(n)], seed)
    rng = random.Random(seed)
    past: list[Pairing] = []
    actives: list[set[str]] = []
    points: dict[str, float] = {}
    active = list(roster)
    for r in range(1, (rounds or seating.default_rounds(fmt, n, k)) + 1):
        if r == 2 and leave:
            active = active[leave:]
        pairing = seating.seat_round(
            format=fmt,
            k=k,
            fill=fill,
            round_no=r,
            roster=roster,
            active=active,
            points=points,
            past=past,
            seed=seed,
        )
        past.append(pairing)
        actives.append(set(active))
        for table in pairing.tables:
            ranks = list(range(1, len(table.seats) + 1))
            rng.shuffle(ranks)
            for uid, got in zip(table.seats, standings.place_points(ranks), strict=True):
                if uid is not None:
                    points[uid] = points.get(uid, 0.0) + got
        for uid in pairing.byes:
            points[uid] = points.get(uid, 0.0) + standings.bye_points(k)
    return roster, past, actives


def check_round(pairing: Pairing, active: set[str], k: int, fill: str, left: int = 0) -> None:
    """One round's seats; ``left``: players gone (a two-player round robin gives whoever
    was to meet one of them a bye)."""
    seated = [u for t in pairing.tables for u in t.people]
    assert sorted(seated + list(pairing.byes)) == sorted(active), "each active player once"
    for table in pairing.tables:
        assert len(table.seats) == k
        assert table.people, "no table of computers only"
    computers = [len(t.seats) - len(t.people) for t in pairing.tables]
    if fill == "bye":
        assert computers == [0] * len(computers)
        assert len(pairing.byes) < k or k == 2 and len(pairing.byes) <= 1 + left
    else:
        assert not pairing.byes
        assert max(computers, default=0) - min(computers, default=0) <= 1


def check_byes_fair(past: list[Pairing], actives: list[set[str]]) -> None:
    """Whoever sits out had no more byes than anyone who plays: nobody gets a second
    before everyone still in the league had one."""
    had: Counter[str] = Counter()
    for rnd, active in zip(past, actives, strict=True):
        playing = active - set(rnd.byes)
        if rnd.byes and playing:
            assert max(had[u] for u in rnd.byes) <= min(had[u] for u in playing)
        for uid in rnd.byes:
            had[uid] += 1


SIZES = [(n, k) for k in (2, 3, 4, 5) for n in range(max(3, k), 15)]


@pytest.mark.parametrize("fill", ["computer", "bye"])
@pytest.mark.parametrize("fmt", ["swiss", "round-robin"])
def test_every_round_seats_everyone_once_in_tables_of_its_size(fmt: str, fill: str) -> None:
    for n, k in SIZES:
        for seed in (n, 100 + n):
            rounds = 2 + seed % 3 if fmt == "swiss" else None
            _, past, actives = play_league(fmt, n, k, fill, seed, rounds, 1 if n > k + 1 else 0)
            for pairing, active in zip(past, actives, strict=True):
                check_round(pairing, active, k, fill, n - len(active) if fmt != "swiss" else 0)
            if fmt == "swiss" or k > 2:  # a two-player round robin's byes: its schedule's
                check_byes_fair(past, actives)


@pytest.mark.parametrize("n", range(2, 17))
def test_two_player_round_robin_meets_everyone_once_and_alternates_first(n: int) -> None:
    for fill in ("bye", "computer"):
        roster, past, _ = play_league("round-robin", n, 2, fill, seed=n)
        h = seating.history(past)
        assert all(h.met(a, b) == 1 for a, b in itertools.combinations(roster, 2))
        assert len(past) == (n - 1 if n % 2 == 0 else n)
        for uid in roster:  # colours as in chess: never more than two apart
            assert abs(h.balance(uid)) <= 2
            # odd: one round each without a person opposite (a bye or a computer)
            assert h.byes[uid] + h.computer_games[uid] == n % 2


@pytest.mark.parametrize("n", range(3, 25))
def test_two_player_swiss_never_repeats_a_pairing_and_alternates_first(n: int) -> None:
    for seed in range(3):
        roster, past, _ = play_league("swiss", n, 2, "bye", seed)
        h = seating.history(past)
        assert max(h.meets.values()) == 1
        assert all(abs(h.balance(u)) <= 2 for u in roster)
        assert max(h.byes.values(), default=0) <= 1


def test_a_swiss_bye_goes_to_the_lowest_ranked_without_one() -> None:
    roster = ["a", "b", "c", "d", "e"]
    points = {"a": 2, "b": 2, "c": 1, "d": 1, "e": 0}
    earlier = Pairing((seating.Table(("a", "b")),), ("e",))
    pairing = seating.seat_round(
        format="swiss", k=2, fill="bye", round_no=2, roster=roster, active=roster,
        points=points, past=[earlier], seed=1,
    )  # fmt: skip
    assert pairing.byes == ("d",)  # e, the lowest, had one already
    assert {frozenset(t.people) for t in pairing.tables} & {frozenset(("a", "b"))} == set()


@pytest.mark.parametrize(
    ("fmt", "n", "k", "most"),
    [
        ("swiss", 9, 3, 1),  # 9 at tables of 3 over 3 rounds: nobody meets twice
        ("round-robin", 9, 3, 1),  # 4 rounds: every pair exactly once
        ("round-robin", 16, 4, 2),
        ("round-robin", 8, 4, 2),
        ("swiss", 12, 4, 2),
        ("round-robin", 15, 3, 2),
    ],
)
def test_tables_of_three_and_more_spread_the_meetings(fmt: str, n: int, k: int, most: int) -> None:
    for seed in range(3):
        roster, past, _ = play_league(fmt, n, k, "bye", seed)
        h = seating.history(past)
        meets = [h.met(a, b) for a, b in itertools.combinations(roster, 2)]
        assert max(meets) <= most
        if (fmt, n, k) == ("round-robin", 9, 3):
            assert set(meets) == {1}
        firsts = [h.firsts[u] for u in roster]
        assert max(firsts) - min(firsts) <= 2  # moving first goes round


def test_the_same_seed_seats_the_same_rounds_and_another_seed_others() -> None:
    for fmt, k in (("swiss", 2), ("round-robin", 3), ("swiss", 4)):
        a = play_league(fmt, 11, k, "computer", seed=5)[1]
        assert a == play_league(fmt, 11, k, "computer", seed=5)[1]
        assert a != play_league(fmt, 11, k, "computer", seed=6)[1]


def test_default_rounds() -> None:
    assert seating.default_rounds("round-robin", 8, 2) == 7
    assert seating.default_rounds("round-robin", 9, 2) == 9
    assert seating.default_rounds("round-robin", 9, 3) == 4
    assert seating.default_rounds("swiss", 8, 2) == 3
    assert seating.default_rounds("swiss", 9, 3) == 3
    assert seating.default_rounds("swiss", 3, 3) == 1  # one table: one round robin round
    assert seating.max_rounds("round-robin", 8, 2) == 7
    assert seating.max_rounds("swiss", 8, 2) == 21


def test_circle_method_pairs_and_the_gap() -> None:
    assert seating.circle_pairs(["a", "b", "c"], 1) == [("a", None), ("b", "c")]
    rounds = [seating.circle_pairs(list("abcdef"), r) for r in range(1, 6)]
    pairs = [frozenset(p) for rnd in rounds for p in rnd]
    assert len(pairs) == len(set(pairs)) == 15
