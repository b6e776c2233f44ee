"""Who sits where in a league round: pure functions of the players, the earlier rounds and
the league's seed (no I/O, no clock; the same inputs give the same round in every process).

The rules (the package docstring, :mod:`bot.community.leagues`, says them for players):

- **Order.** Players come in *seed order*: the people who signed up, sorted by id and
  shuffled with the league's seed (sign-up time gives no advantage). A Swiss round ranks
  them by points, then seed order.
- **Two-player round robin** (the circle method): the roster at the start, in seed order,
  padded with a *gap* when odd; player ``n-1`` stays, the others rotate one place per
  round, so over ``n-1`` rounds (``n`` when odd) everyone meets everyone once. Whoever is
  paired with the gap has a bye (``fill="bye"``) or plays a computer (``fill="computer"``);
  so does whoever is paired with someone who has left the league.
- **Two-player Swiss**: score groups top down, each player paired with the nearest below
  not yet met (backtracking when a later player would be left without a partner; a repeat
  only when no pairing without one exists), avoiding pairs who both need the same seat
  (both moved first twice more often than second, or both second) where possible. With an
  odd count, the bye (or the computer opponent) goes to the lowest-ranked player with the
  fewest byes (computer games) so far — nobody gets a second before everyone had one.
- **Who moves first** (two players; seat 0 moves first): the player who moved first less
  often than second (times first minus times second, chess's colour difference); equal,
  the one who moved second last time; equal, the higher ranked on odd rounds and the
  lower ranked on even ones — so colours alternate as in chess.
- **Tables of k ≥ 3**: tables of ``k`` seats. ``fill="computer"``: as many tables as needed
  and the empty seats given to computers, spread one per table from the lowest table up
  (so a table has at most one computer more than another); ``fill="bye"``: only full tables,
  and the ``n mod k`` left over sit the round out (the byes' rule above). A round is built
  by local search: tables filled from a starting order, then people swapped between tables
  while that lowers the cost — a pair that already met ``c`` times costs ``c²`` (so two
  pairs meeting a second time beat one pair meeting a third), and, in a Swiss round only,
  far less than any repeat, the spread of ranks at a table. Swiss starts from the ranking
  (the top ``k`` together…) and from a few seeded orders, keeping the cheapest; round robin
  at tables (there is no exact round robin for most ``n`` and ``k``) from seeded orders
  only, so each round adds the fewest repeat meetings given every earlier round and every
  pair meets about equally often; over :func:`default_rounds` rounds
  (``ceil((n-1)/(k-1))``, the fewest in which a player can meet everyone) most pairs meet
  once (9 players at tables of 3: every pair exactly once). Seat order at a table: who sat
  first least often, then who sat furthest back on average, first; computer seats last.
- **Who begins** is the seating's choice: the league opens each match with a seed under
  which seat 0 moves first (games that draw their first player: Azul, Maharani, Pastiche).
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

#: A seat at a table: a player's id, or None for a computer.
Seat = str | None

#: Nodes the two-player Swiss search may visit per repeat allowance before allowing more
#: repeats (a bound: pairings without repeats are found in a few hundred at league sizes).
SEARCH_BUDGET = 20_000
#: Starting orders tried for a round-robin round at tables.
RESTARTS = 6
#: Improvement passes over all pairs of tables.
PASSES = 30


@dataclass(frozen=True, slots=True)
class Table:
    """A table of a round: seat 0 moves first; None is a computer seat."""

    seats: tuple[Seat, ...]

    @property
    def people(self) -> tuple[str, ...]:
        return tuple(s for s in self.seats if s is not None)


@dataclass(frozen=True, slots=True)
class Pairing:
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()


@dataclass(slots=True)
class History:
    """What the earlier rounds say about each player (built by :func:`history`)."""

    meets: Counter[frozenset[str]] = field(default_factory=Counter)
    firsts: Counter[str] = field(default_factory=Counter)
    #: the seats each player held, in round order (0 = moved first)
    positions: dict[str, list[int]] = field(default_factory=dict)
    #: whether the player moved first in their latest match
    last_first: dict[str, bool] = field(default_factory=dict)
    byes: Counter[str] = field(default_factory=Counter)
    #: matches a player had a computer at the table
    computer_games: Counter[str] = field(default_factory=Counter)

    def met(self, a: str, b: str) -> int:
        return self.meets[frozenset((a, b))]

    def balance(self, uid: str) -> int:
        """Times first minus times not first (chess's colour difference)."""
        return 2 * self.firsts[uid] - len(self.positions.get(uid, []))


def history(rounds: Sequence[Pairing]) -> History:
    """The meetings, seats and byes of the rounds played so far."""
    h = History()
    for rnd in rounds:
        for table in rnd.tables:
            people = table.people
            for a, b in itertools.combinations(people, 2):
                h.meets[frozenset((a, b))] += 1
            for pos, uid in enumerate(table.seats):
                if uid is None:
                    continue
                h.positions.setdefault(uid, []).append(pos)
                h.last_first[uid] = pos == 0
                if pos == 0:
                    h.firsts[uid] += 1
                if len(people) < len(table.seats):
                    h.computer_games[uid] += 1
        for uid in rnd.byes:
            h.byes[uid] += 1
    return h


def seed_order(user_ids: Sequence[str], seed: int) -> list[str]:
    """The players' seed order: sorted, then shuffled by the league's seed."""
    order = sorted(set(user_ids))
    random.Random(f"league-seed:{seed}").shuffle(order)
    return order


def default_rounds(format: str, players: int, k: int) -> int:
    """The rounds a league plays when none were chosen.

    Round robin, two players: ``n-1`` (``n`` when odd: everyone has one bye). Round
    robin at tables of ``k``: ``ceil((n-1)/(k-1))``, the fewest in which one can meet
    everyone. Swiss: ``ceil(log2 n)`` for two players (as chess Swisses), and
    ``ceil(log_k n) + 1`` at tables of ``k`` (a table has one winner of ``k``; one more
    round lets the leaders meet); at least 1, and never more than a round robin's."""
    n = max(players, 2)
    full = _full_cycle(n, k)
    if format == "round-robin":
        return full
    swiss = math.ceil(math.log2(n)) if k == 2 else math.ceil(math.log(n) / math.log(k) - 1e-9) + 1
    return max(1, min(swiss, full))


def _full_cycle(n: int, k: int) -> int:
    """A round robin's rounds: ``n-1`` pairs rounds (``n`` when odd), else the fewest
    rounds at tables of ``k`` in which one can meet everyone."""
    if k == 2:
        return n - 1 if n % 2 == 0 else n
    return max(1, math.ceil((n - 1) / (k - 1)))


def max_rounds(format: str, players: int, k: int) -> int:
    """The most rounds a league of ``players`` may play: a two-player round robin is one
    cycle; any other league may repeat meetings, up to three times its default."""
    if format == "round-robin" and k == 2:
        return default_rounds(format, players, k)
    return 3 * default_rounds("round-robin", players, k)


# ----- two players ------------------------------------------------------------------------
def _order_pair(a: str, b: str, h: History, higher_first: bool) -> tuple[str, str]:
    """(first, second) by the colour rule of the module docstring; ``a`` ranks higher."""
    fa, fb = h.balance(a), h.balance(b)
    if fa != fb:
        return (a, b) if fa < fb else (b, a)
    la, lb = h.last_first.get(a), h.last_first.get(b)
    if la is not None and lb is not None and la != lb:
        return (b, a) if la else (a, b)
    return (a, b) if higher_first else (b, a)


def _versus_computer(uid: str, h: History) -> Table:
    """A person against a computer: they move first when they moved first less often
    than second."""
    games = len(h.positions.get(uid, []))
    first = h.firsts[uid] * 2 <= games
    return Table((uid, None) if first else (None, uid))


def _sit_out(ranked: Sequence[str], count: int, tally: Counter[str]) -> list[str]:
    """``count`` players to sit out (a bye) or play a computer: the lowest-ranked among
    those with the fewest so far."""
    if count <= 0:
        return []
    bottom_up = list(reversed(ranked))
    chosen = sorted(bottom_up, key=lambda u: (tally[u], bottom_up.index(u)))[:count]
    return chosen


def circle_pairs(roster: Sequence[str], round_no: int) -> list[tuple[Seat, Seat]]:
    """Round ``round_no`` (1-based) of the circle method over ``roster`` (None pads an
    odd roster): the last stays, the others rotate."""
    players: list[Seat] = list(roster)
    if len(players) % 2:
        players.append(None)
    m = len(players)
    if m < 2:
        return []
    fixed, rest = players[-1], players[:-1]
    shift = (round_no - 1) % (m - 1)
    rot = rest[shift:] + rest[:shift]
    pairs: list[tuple[Seat, Seat]] = [(rot[0], fixed)]
    pairs += [(rot[i], rot[m - 1 - i]) for i in range(1, m // 2)]
    return pairs


def round_robin_two(
    roster: Sequence[str], active: set[str], round_no: int, fill: str, h: History
) -> Pairing:
    """A two-player round-robin round: the circle method's pairs, colours by the rule, a
    partner missing (the gap, or someone who left) giving a bye or a computer opponent."""
    tables: list[Table] = []
    byes: list[str] = []
    rank = {u: i for i, u in enumerate(roster)}
    for a, b in circle_pairs(roster, round_no):
        present = [u for u in (a, b) if u is not None and u in active]
        if len(present) == 2:
            x, y = sorted(present, key=rank.__getitem__)
            tables.append(Table(_order_pair(x, y, h, round_no % 2 == 1)))
        elif present and fill == "computer":
            tables.append(_versus_computer(present[0], h))
        elif present:
            byes.append(present[0])
    return Pairing(tuple(tables), tuple(byes))


def swiss_two(ranked: Sequence[str], round_no: int, fill: str, h: History) -> Pairing:
    """A two-player Swiss round over ``ranked`` (best first)."""
    people = list(ranked)
    byes: list[str] = []
    tables: list[Table] = []
    if len(people) % 2:
        tally = h.byes if fill == "bye" else h.computer_games
        (odd,) = _sit_out(people, 1, tally)
        people.remove(odd)
        if fill == "bye":
            byes.append(odd)
        else:
            tables.append(_versus_computer(odd, h))
    pairs = _pair_without_repeats(people, h)
    rank = {u: i for i, u in enumerate(ranked)}
    ordered = [
        Table(_order_pair(a, b, h, round_no % 2 == 1))
        for a, b in (sorted(p, key=rank.__getitem__) for p in pairs)
    ]
    ordered.sort(key=lambda t: min(rank[u] for u in t.people))
    return Pairing(tuple(ordered + tables), tuple(byes))


def _pair_without_repeats(people: list[str], h: History) -> list[tuple[str, str]]:
    """Pairs of ``people`` (ranked, even count): top down, each with the nearest not yet
    met; the fewest repeats allowed that still pairs everyone."""
    most = max((h.met(a, b) for a, b in itertools.combinations(people, 2)), default=0)
    for allowed in range(most + 1):
        for strict in (True, False):
            budget = [SEARCH_BUDGET]
            found = _search(people, h, allowed, strict, budget)
            if found is not None:
                return found
    # unreachable: with every repeat allowed, the first candidate always fits
    return [(people[i], people[i + 1]) for i in range(0, len(people), 2)]


def _clash(a: str, b: str, h: History) -> bool:
    """Both moved first (or second) twice more often than the other way: whoever of them
    yields would be three apart (chess pairs such players only when nothing else works)."""
    ba, bb = h.balance(a), h.balance(b)
    return (ba >= 2 and bb >= 2) or (ba <= -2 and bb <= -2)


def _search(
    people: list[str], h: History, allowed: int, strict: bool, budget: list[int]
) -> list[tuple[str, str]] | None:
    """Depth first: the top player with each partner in ranking order (``allowed``
    repeats at most; ``strict``: no colour clash), the rest paired the same way."""
    if not people:
        return []
    budget[0] -= 1
    if budget[0] < 0:
        return None
    top, rest = people[0], people[1:]
    for i, other in enumerate(rest):
        if h.met(top, other) > allowed or (strict and _clash(top, other, h)):
            continue
        found = _search(rest[:i] + rest[i + 1 :], h, allowed, strict, budget)
        if found is not None:
            return [(top, other), *found]
        if budget[0] < 0:
            return None
    return None


# ----- tables of three and more -----------------------------------------------------------
def _table_sizes(n: int, k: int, fill: str) -> tuple[list[int], int]:
    """(people per table, how many sit out) for ``n`` people at tables of ``k``."""
    if fill == "bye":
        return [k] * (n // k), n % k
    count = math.ceil(n / k)
    computers = count * k - n
    sizes = [k] * count
    for i in range(computers):  # one per table, from the lowest up
        sizes[count - 1 - (i % count)] -= 1
    return sizes, 0


def _table_cost(table: Sequence[str], h: History, pos: Mapping[str, int], spread: bool) -> int:
    """Repeats weigh more than any spread of ranks: a Swiss round first avoids repeat
    meetings, then keeps tables of near ranks. A pair that met ``c`` times costs ``c²``,
    so two pairs meeting a second time are preferred to one pair meeting a third."""
    repeats = sum(h.met(a, b) ** 2 for a, b in itertools.combinations(table, 2))
    cost = repeats * 1_000_000
    if spread and table:
        ranks = [pos[u] for u in table]
        cost += max(ranks) - min(ranks)
    return cost


def _improve(tables: list[list[str]], h: History, pos: Mapping[str, int], spread: bool) -> int:
    """Swap people between tables while that lowers the total cost; returns the cost."""
    costs = [_table_cost(t, h, pos, spread) for t in tables]
    for _ in range(PASSES):
        better = False
        for a, b in itertools.combinations(range(len(tables)), 2):
            for i, j in itertools.product(range(len(tables[a])), range(len(tables[b]))):
                ta = [*tables[a][:i], tables[b][j], *tables[a][i + 1 :]]
                tb = [*tables[b][:j], tables[a][i], *tables[b][j + 1 :]]
                ca, cb = _table_cost(ta, h, pos, spread), _table_cost(tb, h, pos, spread)
                if ca + cb < costs[a] + costs[b]:
                    tables[a], tables[b], costs[a], costs[b] = ta, tb, ca, cb
                    better = True
        if not better:
            break
    return sum(costs)


def _seat_order(people: Sequence[str], computers: int, h: History, rng: random.Random) -> Table:
    """Seat order at a table of three or more: who sat first least often, then who sat
    furthest back on average, first (a seeded draw breaks what is left); computers last."""
    noise = {u: rng.random() for u in people}

    def key(u: str) -> tuple[int, float, float]:
        seats = h.positions.get(u, [])
        mean = sum(seats) / len(seats) if seats else 0.0
        return (h.firsts[u], -mean, noise[u])

    return Table((*sorted(people, key=key), *([None] * computers)))


def tables_round(
    ranked: Sequence[str],
    k: int,
    round_no: int,
    fill: str,
    h: History,
    *,
    swiss: bool,
    seed: int,
) -> Pairing:
    """A round at tables of ``k`` ≥ 3 (Swiss when ``swiss``, else round robin)."""
    rng = random.Random(f"league-round:{seed}:{round_no}")
    people = list(ranked)
    sizes, out = _table_sizes(len(people), k, fill)
    byes = _sit_out(people, out, h.byes)
    people = [u for u in people if u not in byes]
    pos = {u: i for i, u in enumerate(people)}
    # Swiss starts from the ranking (tables of near ranks), then from seeded orders like
    # a round robin's, in case swapping from the ranking gets stuck with repeats
    starts = [people] if swiss else []
    starts += [rng.sample(people, len(people)) for _ in range(RESTARTS)]
    best: tuple[int, list[list[str]]] | None = None
    for order in starts:
        tables, at = [], 0
        for size in sizes:
            tables.append(order[at : at + size])
            at += size
        cost = _improve(tables, h, pos, swiss)
        if best is None or cost < best[0]:
            best = (cost, tables)
    chosen = best[1] if best else []
    if swiss:  # the top table first
        chosen.sort(key=lambda t: min(pos[u] for u in t))
    seated = tuple(_seat_order(t, k - len(t), h, rng) for t in chosen)
    return Pairing(seated, tuple(byes))


def seat_round(
    *,
    format: str,
    k: int,
    fill: str,
    round_no: int,
    roster: Sequence[str],
    active: Sequence[str],
    points: Mapping[str, float],
    past: Sequence[Pairing],
    seed: int,
) -> Pairing:
    """Round ``round_no`` (1-based) of a league.

    ``roster``: everyone who started the league, in seed order (the two-player round
    robin's fixed schedule); ``active``: those still in it (a subset, any order);
    ``points``: each player's points so far (Swiss ranks by them, then seed order);
    ``past``: the rounds before this one, as played (seats as first opened)."""
    h = history(past)
    seed_rank = {u: i for i, u in enumerate(roster)}
    here = sorted(set(active), key=lambda u: seed_rank.get(u, len(seed_rank)))
    if format == "swiss":
        here.sort(key=lambda u: -points.get(u, 0.0))  # stable: seed order within a score
    if k == 2:
        if format == "round-robin":
            return round_robin_two(roster, set(here), round_no, fill, h)
        return swiss_two(here, round_no, fill, h)
    return tables_round(here, k, round_no, fill, h, swiss=format == "swiss", seed=seed)
