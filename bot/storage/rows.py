"""The row types the store hands out and takes in, and the shard arithmetic on server ids.

Why a module of their own: the SQLite store, the PostgreSQL store, the rest of the bot and
the tests all speak in these rows; keeping them apart from any SQL lets every one of those
import them without importing a backend.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class VersionConflict(Exception):
    """The match moved on since the state this change was computed from."""


@dataclass(slots=True)
class SeatRow:
    seat: int
    user_id: str
    name: str


class Seated:
    """Names and seat look-up for anything that carries a match's ``seats``."""

    __slots__ = ()
    seats: list[SeatRow]

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def seat_of(self, user_id: str) -> int | None:
        """The seat ``user_id`` holds, or None for a stranger."""
        return next((s.seat for s in self.seats if s.user_id == user_id), None)


@dataclass(slots=True)
class MatchRow(Seated):
    id: int
    game_id: str
    options: dict[str, Any]
    seed: int
    status: str
    creator_id: str
    guild_id: str | None
    channel_id: str | None
    thread_id: str | None
    max_players: int
    version: int
    state: dict[str, Any] | None
    result: dict[str, Any] | None
    end_reason: str | None
    settings: dict[str, Any]
    created_at: float
    updated_at: float
    #: Rows in the move log when ``state`` was read (the ply the snapshot stands at).
    last_ply: int = 0
    seats: list[SeatRow] = field(default_factory=list)
    #: ``settings`` as the stored text it was read from: a commit may check that the
    #: settings are still these (:meth:`Store.commit`'s ``settings_seen``).
    settings_text: str = "{}"
    #: The seat holders' preferences (``users.settings``) by seat, read with the seats
    #: (:meth:`Store.seat_preferences` as of the same snapshot); None where not read.
    preferences: dict[int, dict[str, Any]] | None = None
    #: The seat holders' user rows by user id, as :meth:`Store.get_user` gives them (its
    #: defaults for someone who never set anything), read with the seats: a turn post
    #: knows how each person it names wants to be told without a read per person.
    users: dict[str, dict[str, Any]] | None = None


@dataclass(slots=True)
class MoveRow:
    ply: int
    kind: str
    seat: int
    user_id: str
    notation: str
    label: str
    events: list[dict[str, Any]]
    created_at: float


@dataclass(slots=True)
class OutboxRow:
    id: int
    match_id: int | None
    kind: str
    payload: dict[str, Any]
    attempts: int
    created_at: float
    due_at: float
    #: When a claim of this row was first made, if an earlier claim (this one excluded)
    #: may have sent it: a re-send then looks for the message first (None: first claim).
    tried_at: float | None = None


@dataclass(slots=True)
class NewMove:
    kind: str
    seat: int
    user_id: str
    notation: str
    label: str
    events: list[dict[str, Any]]


@dataclass(slots=True)
class Remembered:
    """A post's bookkeeping in its match's settings (which message is the turn post),
    written with the post's mark as sent (:meth:`Store.settle_sent`): ``settings`` replace
    ``seen``, the stored text they were computed from, only if that text is still stored."""

    outbox_id: int
    match_id: int
    seen: str
    settings: dict[str, Any]


@dataclass(slots=True)
class Notification:
    kind: str
    payload: dict[str, Any]
    due_at: float | None = None
    #: What the row announces, unique in the outbox: queueing it again is a no-op.
    key: str | None = None


def guild_key(guild_id: str | None) -> int | None:
    """The server id as a number (Discord snowflake), from which its shard follows; None for
    no server (direct messages, the console) or an id that is not a snowflake."""
    if guild_id and guild_id.isascii() and guild_id.isdigit() and int(guild_id) < 2**63:
        return int(guild_id)
    return None


@dataclass(frozen=True, slots=True)
class ShardSlice:
    """The shards one bot process runs: ``ids`` out of ``count``. Discord puts a server on
    shard ``(server_id >> 22) % count``; work without a server (DMs) belongs to any."""

    ids: tuple[int, ...]
    count: int

    def owns(self, guild_id: str | None) -> bool:
        key = guild_key(guild_id)
        return key is None or (key >> 22) % self.count in self.ids

    def clause(self, column: str) -> tuple[str, list[Any]]:
        """SQL (both backends) that keeps the rows of these shards, and its parameters."""
        marks = ",".join("?" * len(self.ids))
        return (
            f" AND ({column} IS NULL OR ({column} >> 22) % ? IN ({marks}))",
            [self.count, *self.ids],
        )
