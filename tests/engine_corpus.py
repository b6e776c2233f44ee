"""Digests of many random games, to prove an optimised engine behaves exactly as before.

Why: speed work rewrites the hot paths of the rules (legal moves, apply). The promise is
*identical behaviour*: the same legal moves in the same order with the same notation, label,
steps and rank, the same events, states, views and outcomes. ``tests/data/engine_digests.json``
was written by the engine *before* the speed work (``python -m tests.engine_corpus --write``);
``tests/test_engine_equivalence.py`` recomputes the digests with today's engine and compares.

The driver plays uniformly among ``legal_moves`` (the policy of ``random_playout`` before
Pastiche got its own rollout policy), so it walks the same games whatever ``random_move``
does, and it hashes every legal-move list it draws from. Each cell keeps three digests, so
a later *wording* change (labels, event texts, status lines) or a deliberate view change
shows up as exactly that and can be re-recorded knowingly, without hiding a play change:

- ``play``: states, who acts, legal notations / step keys / ranks, the choice, event kinds,
  data and secrets, outcomes' scores and ranks;
- ``words``: move and step labels, event texts and private texts, status lines, reasons;
- ``views``: every seat's view and the spectator's, at every ``VIEW_EVERY``-th decision;
- ``playout`` (Azul, Taj Mahal, Maharani): ``random_playout``'s logs and final states, so a
  faster ``random_move`` must draw exactly the move the uniform choice drew.

``python -m tests.engine_corpus [--full]`` prints the comparison (``--full``: the large
corpus, 200 games per cell, for evidence; the test runs the small one). After a deliberate
change of words (or of views, or of a rule), ``--accept words`` (``views``, ``play``;
``--only TEXT`` to limit the cells) re-records just those digests, and only in cells whose
other digests still match, so a wording fix cannot hide a change of play.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any

from rules import get_game
from rules.base import Move
from rules.playout import random_playout
from rules.rng import Rng

DATA = Path(__file__).parent / "data" / "engine_digests.json"
VIEW_EVERY = 9
MAX_DECISIONS = 20_000

#: (game, options) variants; every player count of each game is played.
VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("azul", {}),
    ("azul", {"grey_wall": True}),
    ("taj-mahal", {}),
    ("taj-mahal", {"last_player_may_play": False, "palace_per_influence_tile": False}),
    ("maharani", {}),
    ("maharani", {"two_player_seats": "adjacent"}),
    ("pastiche", {}),
]

#: Games whose random playouts stay uniform over ``legal_moves`` (Pastiche has its own
#: rollout policy, checked by its own tests).
UNIFORM_PLAYOUTS = {"azul", "taj-mahal", "maharani"}

#: games per (variant, player count): the test's small corpus and the evidence corpus.
SMALL = {"azul": 6, "taj-mahal": 3, "maharani": 4, "pastiche": -120}
FULL = {"azul": 200, "taj-mahal": 200, "maharani": 200, "pastiche": 12}


def _dump(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _move_play(m: Move) -> list[Any]:
    return [m.notation, [s.key for s in m.steps], m.rank]


def _move_words(m: Move) -> list[Any]:
    return [m.label, [s.label for s in m.steps]]


def cell_key(game_id: str, options: dict[str, Any], players: int) -> str:
    return f"{game_id} {_dump(options).decode()} {players}p"


def digest_cell(game_id: str, options: dict[str, Any], players: int, games: int) -> dict[str, str]:
    """Play ``games`` seeded games (seeds 0..games-1) and return the digests. A negative
    ``games`` means one game cut after ``-games`` decisions (Pastiche in the small corpus:
    a uniformly random Pastiche game is long, the full corpus plays whole ones)."""
    limit = MAX_DECISIONS
    if games < 0:
        games, limit = 1, -games
    game = get_game(game_id)
    play, words, views = hashlib.sha256(), hashlib.sha256(), hashlib.sha256()
    for seed in range(games):
        state = game.setup(players, seed, options)
        picker = Rng.from_seed(seed, "playout")
        play.update(_dump(state))
        for step in range(limit):
            seats = game.to_act(state)
            play.update(_dump(seats))
            if step % VIEW_EVERY == 0:
                for who in [None, *range(players)]:
                    views.update(_dump(game.view(state, who)))
                words.update(_dump(game.status(state)))
                play.update(_dump(game.scores(state)))
                for other in range(players):
                    if other not in seats:
                        play.update(_dump([_move_play(m) for m in game.legal_moves(state, other)]))
            if not seats:
                break
            seat = seats[picker.below(len(seats))]
            legal = game.legal_moves(state, seat)
            play.update(_dump([_move_play(m) for m in legal]))
            words.update(_dump([_move_words(m) for m in legal]))
            index = picker.below(len(legal))
            move = legal[index]
            play.update(_dump([seat, index]))
            if step % VIEW_EVERY == 0:
                parsed = game.parse(state, seat, move.notation)
                play.update(_dump(_move_play(parsed)))
                words.update(_dump(_move_words(parsed)))
            new_state, events = game.apply(state, seat, move)
            for ev in events:
                play.update(_dump([ev.kind, ev.data, ev.secret, ev.reveals]))
                words.update(_dump([ev.text, {str(k): v for k, v in ev.private.items()}]))
            play.update(_dump(new_state))
            state = new_state
        else:
            if limit == MAX_DECISIONS:
                raise RuntimeError(f"{game_id} seed {seed}: no end within {MAX_DECISIONS}")
            continue  # a game cut short has no outcome yet
        outcome = game.outcome(state)
        assert outcome is not None
        play.update(_dump([outcome.scores, outcome.ranks, outcome.details]))
        words.update(_dump(outcome.reason))
    digests = {"play": play.hexdigest(), "words": words.hexdigest(), "views": views.hexdigest()}
    if game_id in UNIFORM_PLAYOUTS:
        digests["playout"] = playout_digest(game_id, options, players, games)
    return digests


def playout_digest(game_id: str, options: dict[str, Any], players: int, games: int) -> str:
    """``random_playout``'s logs and final states: for games whose ``random_move`` must
    draw exactly what ``rng.choice(legal_moves)`` drew (a faster sampler may not change it)."""
    game = get_game(game_id)
    h = hashlib.sha256()
    for seed in range(games):
        final, log = random_playout(game, players, seed, options)
        h.update(_dump([final, log]))
    return h.hexdigest()


def cells(sizes: dict[str, int]) -> list[tuple[str, dict[str, Any], int, int]]:
    out = []
    for game_id, options in VARIANTS:
        game = get_game(game_id)
        for players in range(game.min_players, game.max_players + 1):
            out.append((game_id, options, players, sizes[game_id]))
    return out


def compute(sizes: dict[str, int], *, verbose: bool = False) -> dict[str, dict[str, str]]:
    result: dict[str, dict[str, str]] = {}
    for game_id, options, players, games in cells(sizes):
        t0 = time.perf_counter()
        key = cell_key(game_id, options, players)
        result[key] = {"games": str(games), **digest_cell(game_id, options, players, games)}
        if verbose:
            print(f"{key}: {games} games in {time.perf_counter() - t0:.1f} s", flush=True)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="record the whole reference file")
    parser.add_argument("--full", action="store_true", help="only the large corpus")
    parser.add_argument(
        "--accept",
        default="",
        metavar="PARTS",
        help="re-record these digests (comma-separated: words,views,play) where every other "
        "digest of the cell still matches, e.g. after a deliberate wording change",
    )
    parser.add_argument("--only", default="", help="only cells whose key contains this text")
    args = parser.parse_args()
    accept = {p for p in args.accept.split(",") if p}
    stored = json.loads(DATA.read_text()) if DATA.exists() else {}
    if args.write:
        sets = ["small", "full"]
    elif args.full:
        sets = ["full"]
    elif accept:
        sets = ["small", "full"]
    else:
        sets = ["small"]
    failures = 0
    for name in sets:
        sizes = FULL if name == "full" else SMALL
        wanted = [c for c in cells(sizes) if args.only in cell_key(*c[:3])]
        for game_id, options, players, games in wanted:
            key = cell_key(game_id, options, players)
            got = {"games": str(games), **digest_cell(game_id, options, players, games)}
            want = stored.setdefault(name, {}).get(key)
            if args.write:
                stored[name][key] = got
                print(f"{name} {key}: recorded", flush=True)
                continue
            if want == got:
                print(f"{name} {key}: same", flush=True)
                continue
            differing = {p for p in got if want is None or want.get(p) != got[p]}
            if accept and differing <= accept:
                stored[name][key] = got
                print(f"{name} {key}: re-recorded {', '.join(sorted(differing))}", flush=True)
                continue
            failures += 1
            print(f"{name} {key}: DIFFERENT in {', '.join(sorted(differing))}", flush=True)
    if args.write or accept:
        DATA.parent.mkdir(exist_ok=True)
        DATA.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
