"""The computer players never peek: proven on hundreds of positions a game, and built to
fail on a peek (``tests/peek_mutations.py`` injects peeks into a copy of the code and
checks that these tests catch every one).

Two states with the same view for a seat (``game.view(B, seat) == game.view(A, seat)``)
but different hidden information (other hands, bag and deck order, the random-number
state) must give the seat identical thinking — not only the same chosen move, which a
tiny search often picks by luck alike, but everything the thinking is made of:

- the **determinizations**: a digest of the full states the game's determinizer samples
  from the view for the same seeds;
- the **search statistics**: every root move with its visits and mean value;
- the **moves** of the levels (easy at every position; normal and strong at every
  :data:`FULL_EVERY`-th) and the **hints** (``suggest``: moves, values and reasons).

Each side decides from **its own fresh view, taken right before its own decision**: view
A → decide A, then view B → decide B, for every probe. Why it matters: a peek that
stores the true state in module state when ``view()`` runs and reads it back in the
determinizer is invisible to a test that takes both views before deciding (both decisions
then read the same truth); that is how ``test_hidden_information_does_not_change_decisions``
(tests/test_ai_engine.py) missed one (issue 45).

B is made two ways: by the tests' own redeal of everything the seat cannot see
(``tests/ai_helpers.hidden_variant``, independent of the product's code, so a determinizer
that peeks cannot make B alike), and by the game's determinizer applied to A's view (a
state the product itself calls consistent with the view: its view must be A's view).

Positions come from seeded games at every player count, half played uniformly at random
and half by the game's own rollout policy (greedy on its move ranks), sampled at spread
depths. The numbers compared are never pinned: A is compared with B, so a faster search
that decides identically (issue 45's playout work) changes nothing here.

``TESSERA_PEEK_POSITIONS`` sets the positions per game (default :data:`POSITIONS`; the
mutation proof runs fewer).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bot.computers.driver import ComputerDriver
from bot.computers.players import is_computer, level_of, move_seed
from bot.matches.errors import NotAllowed
from bot.matches.rows import effective_moves
from bot.matches.service import MatchService
from bot.storage import MatchRow
from rules.ai import api, choose_move, suggest
from rules.ai.hooks import ai_for
from rules.ai.search import search
from rules.base import Game, State, View
from rules.registry import get_game
from rules.rng import Rng
from rules.words import Join, Msg, Seat
from tests.ai_helpers import hidden_variant
from tests.conftest import ALICE
from tests.peek_recorder import RECORDS, records

GAMES = ["azul", "taj-mahal", "maharani", "pastiche"]
#: Positions per game, spread over its player counts.
POSITIONS = int(os.environ.get("TESSERA_PEEK_POSITIONS", "200"))
#: Every this many positions also compare normal and the hints (the costly probes) ...
FULL_EVERY = 8
#: ... and every this many strong (normal's search with three times the iterations).
STRONG_EVERY = 32
#: Where a rollout costs most (Pastiche's two rounds of placements), the costly probes
#: run half as often; the cheap ones still run at every position.
COSTLY = {"pastiche": 2}
#: Iterations of the directly compared search: each samples a determinization and rolls
#: it out (the first reuses the root's sample).
SEARCH_ITERATIONS = 3
#: Determinizations digested per probe.
SAMPLES = 3
#: A tiny time budget: the iteration floor (16) of normal and the hints.
BUDGET = 0.001


@pytest.fixture(autouse=True)
def _no_wall_clock_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """The wall-clock safety net is the one documented way a search may stop early and
    differ from its seed's result; on a loaded machine it must not fire here."""
    monkeypatch.setattr(api, "CAP_MARGIN_S", 600.0)


# ----- positions -----------------------------------------------------------------------------
def _played(game: Game, players: int, seed: int, greedy: bool) -> list[State]:
    """The decision points of one seeded game (uniformly random or by the rollout policy)."""
    hooks = ai_for(game)
    state = game.setup(players, seed)
    rng = Rng.from_seed(seed, "peek-play")
    states = []
    for _ in range(5000):
        seats = game.to_act(state)
        if not seats:
            break
        states.append(state)
        seat = seats[rng.below(len(seats))]
        if greedy:
            move = hooks.rollout_move(game, state, seat, rng)
        else:
            move = game.random_move(state, seat, rng)
        state = game.next_state(state, seat, move)
    return states


@cache
def positions(game_id: str, total: int) -> list[tuple[int, State]]:
    """``total`` (player count, state) decision points spread over the player counts,
    seeded games and depths."""
    game = get_game(game_id)
    counts = list(range(game.min_players, game.max_players + 1))
    per_count = math.ceil(total / len(counts))
    out: list[tuple[int, State]] = []
    for players in counts:
        need = per_count
        k = 0
        while need > 0:
            states = _played(game, players, 1000 * players + k, greedy=k % 2 == 1)
            take = min(need, max(1, math.ceil(per_count / 2)), len(states))
            stride = len(states) / take
            offset = Rng.from_seed(k, "peek-offset").below(max(1, int(stride)))
            picked = [states[min(len(states) - 1, int(offset + i * stride))] for i in range(take)]
            out += [(players, s) for s in picked]
            need -= take
            k += 1
    return out[:total]


# ----- what is compared ----------------------------------------------------------------------
def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=repr)
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def _outcome(think: Callable[[], Any]) -> Any:
    """A probe's result, or the refusal it raised (both sides must refuse alike)."""
    try:
        return think()
    except ValueError as exc:
        return ("refused", type(exc).__name__, str(exc))


Probe = Callable[[Game, View, int, int], Any]


def determinizations(game: Game, view: View, seat: int, key: int) -> Any:
    hooks = ai_for(game)
    return [
        _digest(hooks.determinize(game, view, seat, Rng.from_seed(key + i, "peek-det")))
        for i in range(SAMPLES)
    ]


def search_statistics(game: Game, view: View, seat: int, key: int) -> Any:
    hooks = ai_for(game)
    rng = Rng.from_seed(key, "peek-search")
    stats = search(game, hooks, view, seat, rng, iterations=SEARCH_ITERATIONS)
    return [(s.move.notation, s.visits, s.value) for s in stats]


def level(name: str) -> Probe:
    def decide(game: Game, view: View, seat: int, key: int) -> Any:
        move = choose_move(game, view, seat, name, seed=key, budget_s=BUDGET)
        return move.notation

    decide.__name__ = f"{name} move"
    return decide


def hints(game: Game, view: View, seat: int, key: int) -> Any:
    found = suggest(game, view, seat, seed=key, budget_s=BUDGET)
    return [(h.move.notation, h.value, repr(h.reason)) for h in found]


CHEAP: list[Probe] = [determinizations, search_statistics, level("easy")]
FULL: list[Probe] = [level("normal"), hints]
STRONG: list[Probe] = [level("strong")]


def probes_at(game_id: str, index: int) -> list[Probe]:
    """What is compared at the ``index``-th position: the cheap probes everywhere, the
    costly ones at every :data:`FULL_EVERY`-th and strong at every :data:`STRONG_EVERY`-th
    (less often in the :data:`COSTLY` games)."""
    probes = list(CHEAP)
    slower = COSTLY.get(game_id, 1)
    if index % (FULL_EVERY * slower) == 0:
        probes += FULL
    if index % (STRONG_EVERY * slower) == 0:
        probes += STRONG
    return probes


def _frozen(view: View) -> str:
    return json.dumps(view, sort_keys=True)


def compare(game: Game, a: State, b: State, seat: int, key: int, probes: list[Probe]) -> str:
    """Run each probe on A from A's fresh view, then on B from B's fresh view; returns what
    differed ("" when nothing did). Each view is taken right before its own probe."""
    for probe in probes:
        view_a = game.view(a, seat)
        frozen_a = _frozen(view_a)
        mine = _outcome(lambda: probe(game, view_a, seat, key))  # noqa: B023 (run at once)
        view_b = game.view(b, seat)
        if _frozen(view_b) != frozen_a:
            return "the view changed with the hidden information"
        theirs = _outcome(lambda: probe(game, view_b, seat, key))  # noqa: B023 (run at once)
        if mine != theirs:
            name = getattr(probe, "__name__", "probe").replace("_", " ")
            return f"{name} differ: {mine!r:.200} against {theirs!r:.200}"
    return ""


def _cases(game_id: str) -> Iterator[tuple[int, int, State, int]]:
    game = get_game(game_id)
    for index, (players, state) in enumerate(positions(game_id, POSITIONS)):
        for seat in game.to_act(state):
            yield index, players, state, seat


@pytest.mark.parametrize("game_id", GAMES)
def test_hidden_information_never_reaches_the_thinking(game_id: str) -> None:
    """Hundreds of positions, each seat to act, B redealt by the tests (every probe) and
    by the game's determinizer (views, determinizations, easy's move)."""
    game = get_game(game_id)
    hooks = ai_for(game)
    failures: list[str] = []
    checked = redealt = 0
    for index, players, a, seat in _cases(game_id):
        key = 7919 * index + seat
        rng = Rng.from_seed(key, "peek-redeal")
        where = f"{game_id} {players}p position {index} seat {seat}"
        ours = hidden_variant(game_id, a, seat, rng)
        assert ours != a, f"{where}: the tests' redeal changed nothing"
        if differs := compare(game, a, ours, seat, key, probes_at(game_id, index)):
            failures.append(f"{where}, redealt by the tests: {differs}")
        theirs = hooks.determinize(game, game.view(a, seat), seat, rng)
        redealt += theirs != a
        if differs := compare(game, a, theirs, seat, key, [determinizations, level("easy")]):
            failures.append(f"{where}, redealt by the determinizer: {differs}")
        checked += 1
    assert not failures, (
        f"{len(failures)} of {checked} decisions differ between two states with the same "
        "view (a peek at hidden information):\n" + "\n".join(failures[:10])
    )
    assert checked >= POSITIONS
    # the determinizer really redeals (nearly always; a few positions hide nothing new)
    assert redealt >= checked // 2


# ----- across processes ----------------------------------------------------------------------
#: Positions per game decided in separate processes (each costs little; the processes do).
ACROSS = 4


def _side(spec: list[dict[str, Any]]) -> list[Any]:
    """One side's results: every position decided from its own fresh view in this
    process (the child runs it for B, the test for A)."""
    out = []
    for item in spec:
        game = get_game(item["game"])
        view = game.view(item["state"], item["seat"])
        row: list[Any] = [_frozen(view)]
        for probe in CHEAP + FULL:
            row.append(_outcome(lambda: probe(game, view, item["seat"], item["key"])))  # noqa: B023
        out.append(row)
    return json.loads(json.dumps(out, default=repr))


def test_the_same_view_decides_alike_in_another_process(tmp_path: Path) -> None:
    """The one defence against a peek that keeps the *first* truth it saw for a view (a
    cache keyed by the view's content, filled by ``view()``): in one process both sides
    would read the same truth. Here the B sides are decided in a fresh process that never
    saw A, and the A sides here, which never saw B."""
    spec_a: list[dict[str, Any]] = []
    spec_b: list[dict[str, Any]] = []
    for game_id in GAMES:
        for n, (index, _players, a, seat) in enumerate(_cases(game_id)):
            if n >= ACROSS:
                break
            key = 104729 * index + seat
            b = hidden_variant(game_id, a, seat, Rng.from_seed(key, "peek-across"))
            spec_a.append({"game": game_id, "state": a, "seat": seat, "key": key})
            spec_b.append({"game": game_id, "state": b, "seat": seat, "key": key})
    (tmp_path / "b.json").write_text(json.dumps(spec_b))
    root = Path(__file__).resolve().parent.parent
    code = (
        "import json, sys\n"
        "from rules.ai import api\n"
        "api.CAP_MARGIN_S = 600.0\n"
        "from tests.test_never_peeks import _side\n"
        "spec = json.load(open(sys.argv[1]))\n"
        "json.dump(_side(spec), open(sys.argv[2], 'w'))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(root)}
    subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "b.json"), str(tmp_path / "out.json")],
        check=True,
        cwd=root,
        env=env,
        timeout=300,
    )
    theirs = json.loads((tmp_path / "out.json").read_text())
    mine = _side(spec_a)
    differ = [
        f"{s['game']} seat {s['seat']} key {s['key']}"
        for s, x, y in zip(spec_a, mine, theirs, strict=True)
        if x != y
    ]
    assert not differ, (
        "decisions differ between two states with the same view, decided in separate "
        f"processes (a peek at hidden information): {differ}"
    )


# ----- through the service -------------------------------------------------------------------
#: The computer levels beside Alice and the match seed, per game: strong where offered.
TABLES = {
    "azul": (("strong", "easy"), 0x2D4F_1A6B_93C7_5E01),
    "taj-mahal": (("normal", "easy"), 0x1B77_04E2_C915_AA3D),
    "maharani": (("easy", "normal"), 0x3A01_F5D8_6C42_0B97),
    "pastiche": (("normal", "easy"), 0x0E6C_B230_7D19_F4A5),
}
#: Alice's turns per match, each with a hint (the computers move in between).
ALICE_TURNS = 5
THINK = 0.01
#: What a worker call may receive besides the game: positional, then keyword arguments.
CALLS = {
    "choose": (("view", "seat", "level"), {"seed", "budget_s", "history"}),
    "suggest": (("view", "seat"), {"seed", "budget_s", "count", "history"}),
}
SEED_BITS = 62
#: The rules' word values a view may hold besides messages (see rules/words.py).
WORDS = (Seat, Join)


def _plain(value: Any) -> bool:
    """Plain data only: JSON's types and the rules' words (a message and its parameters),
    never a subclass or an object that could carry the state along unseen."""
    if type(value) is dict:
        return all(type(k) is str and _plain(v) for k, v in value.items())
    if type(value) is list:
        return all(_plain(v) for v in value)
    if type(value) is Msg:
        return all(_plain(v) for v in value.params.values())
    return type(value) in (str, int, float, bool, type(None)) or type(value) in WORDS


def _bits(x: int) -> int:
    return bin(x).count("1")


def _near(a: int, b: int) -> bool:
    """Whether ``b`` is a simple step from ``a``: a few bits flipped, or a small sum away."""
    return _bits(a ^ b) < 12 or abs(a - b) < 1 << 40 or abs((a - b) % (1 << 64)) < 1 << 40


def seed_problems(match_seed: int, seen: list[tuple[int, int, int, str]]) -> list[str]:
    """What in the seeds a worker got (seed, ply, seat, purpose) would let it find the
    match seed (and so replay the deal): the seed must be the documented one-way
    derivation (:func:`bot.computers.players.move_seed` of the match seed, ply and seat),
    no simple step from the match seed, no simple step from another decision's seed, and
    flipping any one bit of the match seed must change about half of its bits (a sum or
    an exclusive-or with something of ply and seat, however mixed, would flip one)."""
    problems = []
    mask = (1 << 64) - 1
    for seed, ply, seat, purpose in seen:
        if seed != move_seed(match_seed, ply, seat, purpose):
            problems.append(f"ply {ply} seat {seat}: not move_seed(match seed, ply, seat)")
        steps = {ply, seat, ply * 16 + seat, (ply << 8) | seat, (seat << 32) | ply}
        simple = {f(match_seed, x) & mask for x in steps for f in (int.__add__, int.__xor__)}
        for salt in (f"{purpose}:{ply}:{seat}", f"ai:{ply}:{seat}", f"{ply}:{seat}", ""):
            simple.add(Rng.from_seed(match_seed, salt).next64())
            simple.add(Rng.from_seed(match_seed, salt).state)
        if seed in simple or _near(match_seed, seed):
            problems.append(f"ply {ply} seat {seat}: the seed is a simple step from the match seed")
        if seed >= 1 << 64:
            problems.append(
                f"ply {ply} seat {seat}: the seed is wider than 64 bits (room to carry more)"
            )
    for i, (first, *_) in enumerate(seen):
        for second, ply, seat, _purpose in seen[i + 1 :]:
            if first != second and _near(first, second):
                problems.append(f"ply {ply} seat {seat}: two decisions' seeds a simple step apart")
    for seed, ply, seat, purpose in seen[:4]:
        for bit in range(SEED_BITS):
            flipped = move_seed(match_seed ^ (1 << bit), ply, seat, purpose)
            if _bits(flipped ^ seed) < 12:
                problems.append(f"ply {ply} seat {seat}: flipping bit {bit} barely changes it")
                break
    return problems


def _replayed(game: Game, players: int, seed: int, options: Any, log: list[Any]) -> list[State]:
    """The true state before each logged move and after the last (from seed and log)."""
    state = game.setup(players, seed, options)
    states = [state]
    for seat, notation in log:
        state, _ = game.apply(state, seat, game.parse(state, seat, notation))
        states.append(state)
    return states


def call_problems(
    game_id: str, row: MatchRow, log: list[tuple[int, str]], calls: list[dict[str, Any]]
) -> list[str]:
    """What in the recorded worker calls of a match went beyond the seat's knowledge."""
    game = get_game(game_id)
    states = _replayed(game, len(row.seats), row.seed, row.options, log)
    assert states[-1] == row.state  # the replay is the match
    kinds = [c["kind"] for c in calls]
    computer_moves = sum(is_computer(row.seats[s].user_id) for s, _ in log)
    assert kinds.count("choose") >= computer_moves > 0 and "suggest" in kinds, kinds
    problems: list[str] = []
    seeds = []
    for call in calls:
        where = f"{game_id} {call['kind']}"
        positional, keywords = CALLS[call["kind"]]
        args, kwargs = call["args"], call["kwargs"]
        if call["game_id"] != game_id or not call["game_is_registered"]:
            problems.append(f"{where}: the game object is not the registry's {game_id}")
        if len(args) != len(positional) or set(kwargs) != keywords:
            problems.append(f"{where}: received {len(args)} + {sorted(kwargs)}")
            continue
        got = dict(zip(positional, args, strict=True), **kwargs)
        history = got["history"]
        ply = len(history)
        seat = got["seat"]
        if type(history) is not list or [tuple(h) for h in history] != log[:ply]:
            problems.append(f"{where} at ply {ply}: not the public log so far")
        if ply >= len(states) or type(seat) is not int or not 0 <= seat < len(row.seats):
            problems.append(f"{where}: ply {ply} or seat {seat!r} is not the match's")
            continue
        state = states[ply]
        if not _plain(got["view"]):
            problems.append(f"{where} ply {ply} seat {seat}: a view of more than data")
        elif got["view"] != game.view(state, seat):
            problems.append(f"{where} ply {ply} seat {seat}: not the seat's view")
        if got["budget_s"] != THINK:
            problems.append(f"{where}: budget {got['budget_s']!r}")
        user = row.seats[seat].user_id
        if call["kind"] == "choose":
            purpose = "move"
            if not (is_computer(user) and seat in game.waits_for(state)):
                problems.append(f"{where} ply {ply}: seat {seat} was not due")
            if got["level"] != level_of(user):
                problems.append(f"{where}: level {got['level']!r}")
        else:
            purpose = "hint"
            if user != ALICE.id or seat not in game.to_act(state) or got["count"] != 3:
                problems.append(f"{where} ply {ply}: a hint not asked for")
        seed = got["seed"]
        if type(seed) is not int:
            problems.append(f"{where}: a seed of type {type(seed).__name__}")
            continue
        seeds.append((seed, ply, seat, purpose))
    return problems + seed_problems(row.seed, seeds)


async def _play(service: MatchService, driver: ComputerDriver, game_id: str) -> int:
    """A match of ``game_id``: Alice and the computer seats of :data:`TABLES`, Alice taking
    a hint at each of her first :data:`ALICE_TURNS` turns (and playing it)."""
    levels, seed = TABLES[game_id]
    info = await service.create_match(
        game_id, ALICE, {}, seed=seed, settings={"think_seconds": THINK}
    )
    for level_name in levels:
        await service.add_computer(info.id, ALICE, level_name)
    await service.start(info.id, ALICE)
    for _ in range(ALICE_TURNS):
        await driver.settle()
        info = await service.info(info.id)
        if info.status != "running":
            break
        if ALICE.id in info.to_act:
            try:
                _, found = await driver.hints(info.id, ALICE)
                notation = found[0].move.notation
            except NotAllowed:  # no hint now (e.g. an answer only): her first move
                notation = (await service.legal_moves(info.id, ALICE))[0].notation
            await service.play(info.id, ALICE, notation)
    await driver.settle()
    return info.id


@pytest.mark.parametrize("game_id", GAMES)
async def test_workers_receive_the_view_the_public_log_and_a_one_way_seed(
    game_id: str, tmp_path: Path
) -> None:
    """A match with computer seats and hints through the real service, with a recording
    thinker in the real worker processes: every call received exactly
    ``game.view(state, seat)`` of the true state at that moment (plain data), the public
    log so far, a seed from which the match seed cannot be recovered (``seed_problems``),
    the level and budget — and nothing else: no further argument, no state, no snapshot."""
    where = RECORDS / str(os.getpid())
    shutil.rmtree(where, ignore_errors=True)
    where.mkdir(parents=True)
    service = await MatchService.open(tmp_path / "t.db")
    driver = ComputerDriver(
        service,
        workers=2,
        chooser="tests.peek_recorder:choose",
        suggester="tests.peek_recorder:suggest",
    )
    try:
        match_id = await _play(service, driver, game_id)
        row = await service.store.get_match(match_id)
        assert row is not None and row.state is not None
        rows = await service.store.moves(match_id)
        log = [(r.seat, r.notation) for r in effective_moves(rows)]
        problems = call_problems(game_id, row, log, records(where))
        assert not problems, "a worker received more than the seat may know:\n" + "\n".join(
            problems[:12]
        )
    finally:
        await driver.close()
        await service.close()
        shutil.rmtree(where, ignore_errors=True)
