"""A recording thinker for the never-peeks service test (tests/test_never_peeks.py): put in
the computer workers by target (``ComputerDriver(chooser="tests.peek_recorder:choose",
suggester="tests.peek_recorder:suggest")``), it writes every call's arguments, exactly as
the worker received them, to a file, then thinks as the real one does.

Where the records go: :data:`RECORDS` ``/<pid of the test process>``. The workers start from
a forkserver that was started before the test (it does not see a later environment), and
several test runs may share the machine, so a worker finds its test's folder among its
own ancestors: itself (threads), its forkserver, and the forkserver's parent.
"""

from __future__ import annotations

import itertools
import os
import pickle
import tempfile
from pathlib import Path
from typing import Any

from rules.registry import get_game

RECORDS = Path(tempfile.gettempdir()) / f"tessera-peek-records-{os.getuid()}"
_calls = itertools.count()


def _parent(pid: int) -> int:
    """The parent of process ``pid`` (Linux's /proc; 0 when unknown)."""
    if pid == os.getpid():
        return os.getppid()
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0
    return int(stat.rsplit(")", 1)[1].split()[1])


def folder() -> Path | None:
    """The records folder of the test this process thinks for, if one is waiting."""
    pid = os.getpid()
    for _ in range(4):
        here = RECORDS / str(pid)
        if here.is_dir():
            return here
        pid = _parent(pid)
        if pid <= 1:
            break
    return None


def _record(kind: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    where = folder()
    if where is None:
        raise RuntimeError("no test is recording: tests.peek_recorder is for tests only")
    game = args[0] if args else None
    entry = {
        "kind": kind,
        "pid": os.getpid(),
        # the game object itself is the registry's (it carries no match); only its
        # identity is kept
        "game_id": getattr(game, "id", None),
        "game_is_registered": game is not None and game is get_game(getattr(game, "id", "")),
        "args": args[1:],
        "kwargs": kwargs,
    }
    name = f"{kind}-{os.getpid()}-{next(_calls)}"
    part = where / f".{name}"
    part.write_bytes(pickle.dumps(entry))
    part.rename(where / f"{name}.pickle")


def choose(*args: Any, **kwargs: Any) -> Any:
    """Records the call, then chooses as ``rules.ai.choose_move``."""
    from rules.ai import choose_move

    _record("choose", args, kwargs)
    return choose_move(*args, **kwargs)


def suggest(*args: Any, **kwargs: Any) -> Any:
    """Records the call, then suggests as ``rules.ai.suggest``."""
    from rules.ai import suggest as real

    _record("suggest", args, kwargs)
    return real(*args, **kwargs)


def records(where: Path) -> list[dict[str, Any]]:
    """Every call recorded in ``where``."""
    return [pickle.loads(p.read_bytes()) for p in sorted(where.glob("*.pickle"))]
