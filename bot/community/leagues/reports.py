"""What the league service hands the front ends: a league (:class:`LeagueInfo`), a round
just opened or a league just ended (:class:`RoundInfo`), and the standings
(:class:`Standings`). Plain data, no I/O."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: The formats a league may have.
FORMATS = ("round-robin", "swiss")
#: How a round fills seats when the players do not fill whole tables.
FILLS = ("computer", "bye")
#: A league's statuses, in the order they come.
STATUSES = ("signup", "running", "finished", "cancelled")


@dataclass(frozen=True, slots=True)
class LeaguePlayer:
    """A person signed up for a league; ``left_at`` once they left a running league (a
    sign-up taken back before the start is simply gone)."""

    user_id: str
    name: str
    joined_at: float
    left_at: float | None = None

    @property
    def active(self) -> bool:
        return self.left_at is None


@dataclass(slots=True)
class LeagueInfo:
    """A league as the front ends show it."""

    id: int
    server_id: str | None
    channel_id: str | None
    creator_id: str
    name: str
    game_id: str
    game_name: str
    #: "round-robin" or "swiss"
    format: str
    players_per_table: int
    #: the rounds planned: as chosen, or (None) decided at the start from the players
    rounds: int | None
    days_per_move: float
    #: when the sign-up closes and the league starts by itself (None: a manager starts it)
    signup_until: float | None
    rated: bool
    #: the language of its posts and matches (None: the server's)
    language: str | None
    #: "computer" or "bye"
    fill: str
    #: "signup", "running", "finished" or "cancelled"
    status: str
    #: the round being played (0 before the start)
    round: int
    seed: int
    created_at: float
    #: everyone signed up, in sign-up order (those who left a running league included)
    players: list[LeaguePlayer] = field(default_factory=list)
    #: the league's further choices (``hints``) and the front end's bookkeeping (the
    #: sign-up post's message id…): :meth:`Leagues.remember`
    settings: dict[str, Any] = field(default_factory=dict)
    #: the fewest sign-ups the league starts with
    min_players: int = 3
    #: the most sign-ups it takes
    max_players: int = 64

    @property
    def hints(self) -> bool:
        """Whether the league's matches allow hints (off unless chosen)."""
        return bool(self.settings.get("hints", False))

    @property
    def active_players(self) -> list[LeaguePlayer]:
        """Those still in the league (who get new pairings)."""
        return [p for p in self.players if p.active]

    def player(self, user_id: str) -> LeaguePlayer | None:
        return next((p for p in self.players if p.user_id == user_id), None)


@dataclass(frozen=True, slots=True)
class TableSeat:
    """A seat of a league match: a person (a league player) or a computer (``ai:…``)."""

    seat: int
    user_id: str
    name: str


@dataclass(frozen=True, slots=True)
class TableInfo:
    """One table of a round: its match and its seats in seat order (seat 0 moves first)."""

    table: int
    match_id: int
    seats: tuple[TableSeat, ...]


@dataclass(slots=True)
class RoundInfo:
    """What :meth:`Leagues.start` or :meth:`Leagues.advance` did to one league.

    ``event``: "round" (round ``round`` was opened: its ``tables`` and ``byes``),
    "final" (the last round ended: the league is finished, no tables) or "cancelled"
    (the sign-up closed with too few players)."""

    league: LeagueInfo
    event: str
    round: int
    tables: list[TableInfo] = field(default_factory=list)
    #: the people who sit this round out (each scores a bye)
    byes: list[LeaguePlayer] = field(default_factory=list)

    @property
    def match_ids(self) -> list[int]:
        return [t.match_id for t in self.tables]


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the standings (see :mod:`bot.community.leagues.standings`)."""

    rank: int
    user_id: str
    name: str
    points: float
    #: sum of the points of everyone met (Buchholz)
    buchholz: float
    #: the sum of the player's game scores in their league matches
    game_score: float
    #: points won at tables shared with the others tied on points and Buchholz
    head_to_head: float
    #: matches finished (a bye not included)
    played: int
    byes: int
    #: False once the player left the league
    active: bool = True


@dataclass(slots=True)
class Standings:
    league: LeagueInfo
    #: the round being played (or the last one, once finished)
    round: int
    status: str
    rows: list[StandingRow]
    #: matches of the league still being played
    open_matches: int = 0


@dataclass(frozen=True, slots=True)
class LeagueMatch:
    """Which league, round and table a match belongs to."""

    league: LeagueInfo
    round: int
    table: int
    match_id: int
