"""Who a computer player is: its seat identity, its name, its level and its seeds.

Why in the seat columns and not a new table: a computer seat is an ordinary seat whose
``user_id`` is ``ai:<level>:<n>`` (no Discord id is ever made of letters, so it can never be
mistaken for a person) and whose name says what it is ("🤖 Ada (normal)"). The store, the
log and the record need no change: the log rows of a computer's moves carry that id, and a
restart finds every computer seat again by reading the seats.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

from render.words.catalogue import t
from rules.ai import LEVELS, levels_for
from rules.base import Game

#: Every computer seat's user id starts with this.
COMPUTER_PREFIX = "ai:"
DEFAULT_LEVEL = "normal"
#: Seconds a computer may think per move unless the match says otherwise.
DEFAULT_BUDGET_S = 2.0
#: First names of computing pioneers: a match gives each computer seat a different one.
NAMES = (
    "Ada",
    "Alan",
    "Grace",
    "Kurt",
    "Emmy",
    "Claude",
    "Edsger",
    "Barbara",
    "Donald",
    "Hedy",
)


def is_computer(user_id: str) -> bool:
    """True for a seat held by a computer player (never for a person's id)."""
    return user_id.startswith(COMPUTER_PREFIX)


def level_of(user_id: str) -> str:
    """The level of a computer seat's id ``ai:<level>:<n>``."""
    parts = user_id.split(":")
    return parts[1] if len(parts) == 3 and parts[1] in LEVELS else DEFAULT_LEVEL


def level_refusal(game: Game | None, level: str) -> tuple[str, dict[str, Any]] | None:
    """Why a new computer seat may not have ``level`` in ``game``, as a catalogue key and
    its values (None: it may). Unknown levels first; then strong where the game does not
    offer it (``rules.ai.levels_for``). ``game`` None: only the level is checked (the
    caller names an unknown game itself). The service, ``/game new`` and the console all
    ask here, each raising or printing it in its own way."""
    if level not in LEVELS:
        return "ai.bad_level", {"levels": ", ".join(LEVELS)}
    if game is not None and level not in levels_for(game):
        offered = ", ".join(levels_for(game))
        return "ai.level_not_offered", {"level": level, "game": game.name, "levels": offered}
    return None


def new_computer(level: str, seated: Iterable[tuple[str, str]]) -> tuple[str, str]:
    """(user id, name) for a new computer seat at ``level`` beside ``seated`` (user id,
    name) pairs: the id's number and the first name are the first ones not taken, so
    two computers in one match never share either."""
    seated = list(seated)
    numbers = {
        int(uid.rsplit(":", 1)[1])
        for uid, _ in seated
        if is_computer(uid) and uid.rsplit(":", 1)[1].isdigit()
    }
    n = next(i for i in range(1, len(numbers) + 2) if i not in numbers)
    names = " ".join(name for _, name in seated)
    first = next((f for f in NAMES if f" {f} " not in f" {names} "), f"{NAMES[0]} {n}")
    return f"{COMPUTER_PREFIX}{level}:{n}", t("ai.name", None, name=first, level=level)


def move_seed(match_seed: int, ply: int, seat: int, purpose: str = "move") -> int:
    """The seed of one computer decision, from the match seed, the ply and the seat only:
    the same match replayed makes the same computer moves (audit, determinism), and two
    bot processes racing for the same turn compute the same move."""
    digest = hashlib.blake2b(f"{purpose}:{match_seed}:{ply}:{seat}".encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "big") >> 2
