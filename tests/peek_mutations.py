"""Peeks of our own, to prove the never-peeks tests (tests/test_never_peeks.py) catch them.

Each :class:`Mutation` is a peek written as source patches: it is applied to a *copy* of
the code (``rules/``, ``bot/`` and what the tests need, in a temporary folder; the
product code is never edited), the never-peeks tests run against the copy in a
subprocess, and they must fail — with the words that say why, so a mutation that merely
broke the code does not count. The unmutated copy must pass the same tests.

    python -m tests.peek_mutations            # each peek against the tests that catch it
    python -m tests.peek_mutations --full     # each peek against the whole never-peeks file
    python -m tests.peek_mutations --list     # the peeks and what catches each
    python -m tests.peek_mutations --only reversible-seed

``tests/test_peek_mutations.py`` runs the first form in the suite. A patch whose anchor is
gone (the product code changed under it) stops the run with the mutation's name: update
the patch, do not drop the mutation.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: What the copy holds: the code, its data and words, and the tests with their config.
COPIED = ("rules", "bot", "render", "data", "locale", "tests", "benchmarks", "pyproject.toml")
TESTS = "tests/test_never_peeks.py"
#: Positions per game of the reduced runs (the suite's): enough to meet every peek below.
REDUCED_POSITIONS = 24


@dataclass(frozen=True)
class Patch:
    """Replace ``old`` (which must occur exactly once) by ``new`` in ``path``; an empty
    ``old`` appends ``new`` to the file."""

    path: str
    old: str
    new: str


@dataclass(frozen=True)
class Mutation:
    name: str
    #: the peek, in words
    peek: str
    patches: tuple[Patch, ...]
    #: the never-peeks tests (node ids under tests/test_never_peeks.py) that catch it
    caught_by: tuple[str, ...]
    #: words the failure must contain: the test failed for this peek, not for a typo
    says: str
    #: extra environment for the tests' run
    env: dict[str, str] = field(default_factory=dict)


def _thinking(game: str) -> str:
    return f"test_hidden_information_never_reaches_the_thinking[{game}]"


def _workers(game: str) -> str:
    return f"test_workers_receive_the_view_the_public_log_and_a_one_way_seed[{game}]"


def _code(text: str) -> str:
    """Injected source, written indented here for reading."""
    return "\n\n" + textwrap.dedent(text)


def _stash_view(game_class: str, store: str = "PEEK_TRUTH") -> str:
    """A game's view() that keeps the true state it was given in module state."""
    return _code(
        f"""
        {store}: dict[str, Any] = {{}}
        _real_view = {game_class}.view


        def _peek_view(self, state, seat):
            {store}["state"] = state
            return _real_view(self, state, seat)


        {game_class}.view = _peek_view
        """
    )


MUTATIONS: tuple[Mutation, ...] = (
    Mutation(
        "view-shares-the-truth",
        "Taj Mahal's view() keeps the true state in module state, and the determinizer deals "
        "the true hidden hands and draw pile from it (the peek the old test missed: it took "
        "the second state's view before both decisions)",
        (
            Patch("rules/taj_mahal/game.py", "", _stash_view("TajMahal")),
            Patch(
                "rules/taj_mahal/ai.py",
                "",
                _code(
                    """
                    from rules.taj_mahal.game import PEEK_TRUTH

                    _real_determinize = TajMahalAI.determinize


                    def _peek_determinize(self, game, view, seat, rng):
                        state = _real_determinize(self, game, view, seat, rng)
                        truth = PEEK_TRUTH.get("state")
                        if truth is not None and truth["n"] == state["n"]:
                            state["hands"] = [list(h) for h in truth["hands"]]
                            state["deck"] = list(truth["deck"])
                        return state


                    TajMahalAI.determinize = _peek_determinize
                    """
                ),
            ),
        ),
        (_thinking("taj-mahal"),),
        "determinizations differ",
    ),
    Mutation(
        "snapshot-to-the-worker",
        "the driver hands the match's stored snapshot (the full state) to the worker along "
        "with the view, and choose_move accepts it",
        (
            Patch(
                "bot/computers/driver.py",
                "                history=turn.history,\n"
                "            )\n"
                "        except Exception:\n"
                "            log.exception(\n"
                '                "computer player failed',
                "                history=turn.history,\n"
                "                snapshot=(await self.service.store.get_match(turn.match_id))\n"
                "                .state,\n"
                "            )\n"
                "        except Exception:\n"
                "            log.exception(\n"
                '                "computer player failed',
            ),
            Patch(
                "bot/computers/pool.py",
                "        history: Sequence[tuple[int, str]],\n    ) -> str:\n",
                "        history: Sequence[tuple[int, str]],\n"
                "        snapshot: Any = None,\n"
                "    ) -> str:\n",
            ),
            Patch(
                "bot/computers/pool.py",
                "                list(history),\n"
                "            )\n"
                "        )\n\n"
                "    async def suggest(",
                "                list(history),\n"
                "                snapshot,\n"
                "            )\n"
                "        )\n\n"
                "    async def suggest(",
            ),
            Patch(
                "bot/computers/pool.py",
                "    history: list[tuple[int, str]],\n) -> str:\n",
                "    history: list[tuple[int, str]],\n    snapshot: Any = None,\n) -> str:\n",
            ),
            Patch(
                "bot/computers/pool.py",
                "seed=seed, budget_s=budget_s, history=history\n",
                "seed=seed, budget_s=budget_s, history=history,\n        snapshot=snapshot\n",
            ),
            Patch(
                "rules/ai/api.py",
                "    history: Sequence[tuple[int, str]] = (),\n) -> Move:\n",
                "    history: Sequence[tuple[int, str]] = (),\n"
                "    snapshot: object = None,\n"
                ") -> Move:\n",
            ),
        ),
        (_workers("azul"),),
        "received 3 + ['budget_s', 'history', 'seed', 'snapshot']",
    ),
    Mutation(
        "reversible-seed",
        "a decision's seed is the match seed with the ply and seat mixed in by exclusive-or "
        "(whoever knows the ply and seat gets the match seed back, and with it the deal)",
        (
            Patch(
                "bot/computers/players.py",
                '    return int.from_bytes(digest.digest(), "big") >> 2\n',
                "    del digest\n"
                "    return (match_seed ^ (ply << 8) ^ seat ^ len(purpose)) & ((1 << 62) - 1)\n",
            ),
        ),
        (_workers("azul"),),
        "a simple step from the match seed",
    ),
    Mutation(
        "seed-xor-hash",
        "a subtler reversible seed: the match seed exclusive-or a hash of ply and seat (it "
        "looks random, but the hash of the ply and seat is known, so it undoes)",
        (
            Patch(
                "bot/computers/players.py",
                '    digest = hashlib.blake2b(f"{purpose}:{match_seed}:{ply}:{seat}".encode(), '
                "digest_size=8)\n",
                '    digest = hashlib.blake2b(f"{purpose}:{ply}:{seat}".encode(), digest_size=8)\n'
                "    return match_seed ^ (int.from_bytes(digest.digest(), 'big') >> 2)\n",
            ),
        ),
        (_workers("azul"),),
        "barely changes it",
    ),
    Mutation(
        "view-leaks-the-chance",
        "Maharani's view carries the random-number state (the bag's future draws) under an "
        "innocent key, and the determinizer uses it",
        (
            Patch(
                "rules/maharani/game.py",
                "",
                _code(
                    """
                    _real_view = Maharani.view


                    def _peek_view(self, state, seat):
                        out = _real_view(self, state, seat)
                        out["layout_version"] = state["rng"]
                        return out


                    Maharani.view = _peek_view
                    """
                ),
            ),
            Patch(
                "rules/maharani/ai.py",
                "",
                _code(
                    """
                    _real_determinize = MaharaniAI.determinize


                    def _peek_determinize(self, game, view, seat, rng):
                        state = _real_determinize(self, game, view, seat, rng)
                        if "layout_version" in view:
                            state["rng"] = view["layout_version"]
                        return state


                    MaharaniAI.determinize = _peek_determinize
                    """
                ),
            ),
        ),
        (_thinking("maharani"),),
        "the view changed with the hidden information",
    ),
    Mutation(
        "rollouts-read-the-chance",
        "Azul's determinizer is honest, but its rollouts draw their chance from the true "
        "random-number state kept by view() (only the search's statistics show it)",
        (
            Patch("rules/azul/game.py", "", _stash_view("Azul")),
            Patch(
                "rules/azul/ai.py",
                "",
                _code(
                    """
                    from rules.azul.game import PEEK_TRUTH

                    _real_rollout_move = AzulAI.rollout_move


                    def _peek_rollout_move(self, game, state, seat, rng):
                        truth = PEEK_TRUTH.get("state")
                        if truth is not None:
                            rng = Rng(rng.next64() ^ truth["rng"])
                        return _real_rollout_move(self, game, state, seat, rng)


                    AzulAI.rollout_move = _peek_rollout_move
                    """
                ),
            ),
        ),
        (_thinking("azul"),),
        "search statistics differ",
    ),
    Mutation(
        "first-truth-cache",
        "Pastiche's view() files the true state under the view's content, first one kept, "
        "and the determinizer deals the others' hidden cards from it: within one process "
        "both states of a test read the same truth, so only the test that decides the "
        "second state in another process sees it",
        (
            Patch(
                "rules/pastiche/game.py",
                "",
                _code(
                    """
                    import json as _json

                    PEEK_FIRST: dict[str, Any] = {}
                    _real_view = Pastiche.view


                    def _peek_view(self, state, seat):
                        out = _real_view(self, state, seat)
                        key = _json.dumps([seat, out], sort_keys=True, default=str)
                        PEEK_FIRST.setdefault(key, state)
                        return out


                    Pastiche.view = _peek_view
                    """
                ),
            ),
            Patch(
                "rules/pastiche/ai.py",
                "",
                _code(
                    """
                    import json as _json

                    from rules.pastiche.game import PEEK_FIRST

                    _real_determinize = PasticheAI.determinize


                    def _peek_determinize(self, game, view, seat, rng):
                        state = _real_determinize(self, game, view, seat, rng)
                        key = _json.dumps([seat, view], sort_keys=True, default=str)
                        truth = PEEK_FIRST.get(key)
                        if truth is not None:
                            state["players"] = [dict(p) for p in truth["players"]]
                            state["deck"] = list(truth["deck"])
                        return state


                    PasticheAI.determinize = _peek_determinize
                    """
                ),
            ),
        ),
        ("test_the_same_view_decides_alike_in_another_process",),
        "decided in separate processes",
    ),
)


class StaleMutation(Exception):
    """A patch's anchor is no longer in the code: the mutation must be updated."""


def copy_code(dest: Path) -> Path:
    """A copy of the worktree's code and tests in ``dest`` (caches left out)."""
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(
                source, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
            )
        elif source.exists():
            shutil.copy2(source, dest / name)
    return dest


def apply(mutation: Mutation, root: Path) -> None:
    """Apply ``mutation``'s patches to the copy at ``root``."""
    for patch in mutation.patches:
        path = root / patch.path
        text = path.read_text()
        if not patch.old:
            text += patch.new
        elif text.count(patch.old) != 1:
            raise StaleMutation(
                f"{mutation.name}: {patch.path} holds {text.count(patch.old)} copies of "
                f"{patch.old[:60]!r}, not one"
            )
        else:
            text = text.replace(patch.old, patch.new)
        path.write_text(text)


@dataclass(frozen=True)
class Outcome:
    passed: bool
    output: str
    seconds: float

    @property
    def errors(self) -> str:
        """The failures' own words (pytest's ``E`` lines), not the tests' source that a
        traceback quotes: a mutation must fail *for its peek*."""
        return "\n".join(line for line in self.output.splitlines() if line.startswith("E "))

    @property
    def failed(self) -> list[str]:
        """The names of the tests that failed (pytest's summary lines)."""
        return [
            line.split("::", 1)[1].split(" - ")[0]
            for line in self.output.splitlines()
            if line.startswith("FAILED ") and "::" in line
        ]

    def catches(self, mutation: Mutation) -> bool:
        return not self.passed and mutation.says in self.errors


def run_tests(root: Path, selection: Sequence[str], positions: int | None) -> Outcome:
    """The never-peeks tests ``selection`` (node names; empty: the whole file) run on the
    copy at ``root`` in a subprocess that imports the copy's code only."""
    nodes = [f"{TESTS}::{name}" for name in selection] or [TESTS]
    env = {**os.environ, "PYTHONPATH": str(root)}
    if positions is not None:
        env["TESSERA_PEEK_POSITIONS"] = str(positions)
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", *nodes],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    return Outcome(done.returncode == 0, done.stdout + done.stderr, time.monotonic() - started)


def check_clean(selection: Sequence[str], positions: int | None) -> Outcome:
    with tempfile.TemporaryDirectory(prefix="tessera-peek-") as tmp:
        return run_tests(copy_code(Path(tmp)), selection, positions)


def check_mutation(mutation: Mutation, *, full: bool = False) -> Outcome:
    """Run the tests against a copy with ``mutation`` applied: its catching tests at the
    reduced size, or with ``full`` the whole file at its own size."""
    with tempfile.TemporaryDirectory(prefix="tessera-peek-") as tmp:
        root = copy_code(Path(tmp))
        apply(mutation, root)
        if full:
            return run_tests(root, (), None)
        return run_tests(root, mutation.caught_by, REDUCED_POSITIONS)


def union(mutations: Sequence[Mutation]) -> list[str]:
    return list(dict.fromkeys(name for m in mutations for name in m.caught_by))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--full", action="store_true", help="run the whole never-peeks file")
    parser.add_argument("--list", action="store_true", help="list the peeks and exit")
    parser.add_argument("--only", action="append", default=[], help="this peek only")
    args = parser.parse_args(argv)
    chosen = [m for m in MUTATIONS if not args.only or m.name in args.only]
    if args.list or not chosen:
        for m in MUTATIONS:
            print(f"{m.name}: {m.peek}\n    caught by {', '.join(m.caught_by)}")
        return 0 if chosen else 2
    positions = None if args.full else REDUCED_POSITIONS
    clean = check_clean(() if args.full else union(chosen), positions)
    print(f"unmutated copy: {'passed' if clean.passed else 'FAILED'} ({clean.seconds:.1f} s)")
    ok = clean.passed
    if not clean.passed:
        print(clean.output[-3000:])
    for m in chosen:
        got = check_mutation(m, full=args.full)
        caught = got.catches(m)
        ok &= caught
        verdict = "caught" if caught else "NOT CAUGHT"
        print(f"{m.name}: {verdict} ({got.seconds:.1f} s)")
        if not caught:
            print(got.output[-3000:])
            continue
        print("    " + next(x for x in got.errors.splitlines() if m.says in x).strip()[:160])
        for failed in got.failed:
            print(f"    failed: {failed}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
