"""Stats of a player or a server, computed from the stored matches and move log.

Why no counters of our own: seats, results and the log's timestamps already say everything
(who played, who won, when each move landed), and numbers read from them can never drift
from the matches. Reading is one query for the matches, one for their seats and one for
their log rows; the figures are computed here in plain Python (a server has thousands of
matches, not millions).

Decisions where the issue was silent:
- *played* counts matches that started (running, finished or aborted), *finished* those that
  ended with a result, *won* those whose result lists the player among the winners (a
  shared victory counts for each winner);
- a seat that changed hands (``bot/matches/holders.py``: resigned to a computer, handed on to a
  substitute) counts as played for everyone who held it, and as won only for whoever held
  it at the end — so a match handed on counts as played and not won, and breaks a win
  streak; the people met are everyone who held a seat in it;
- *moves* are the game's moves still in force: the log's other rows (a resignation, a
  take-back, a seat handed on, a forfeit, an abort) are events, not moves, and a move taken
  back was taken out of the game;
- *time to move* is measured at the first game move of each of the player's turns (a
  game move whose previous game move was someone else's), from the log row before it
  (the previous player's move, or the take-back, resignation or handover the turn went on
  from): further plies of the same turn (a Taj Mahal palace, a Pastiche trade) would
  otherwise show as seconds-long "moves", and the other rows are no moves at all. A
  match's first move has no such row (a lobby's start time is not logged) and is left out;
- the *longest streak* is the longest run of consecutive wins among the player's finished
  matches in finish order;
- *favourite opponents* are the people (never computer seats) the player met in most
  matches, ties by name.
"""

from __future__ import annotations

import json
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.computers.players import is_computer
from bot.matches.holders import HANDOVER_KINDS, handover_of, holder_history
from bot.storage import Store
from render.words.catalogue import t
from render.words.stamps import discord_time
from rules import get_game

STARTED = ("running", "finished", "aborted")


@dataclass(slots=True)
class MatchFacts:
    """What stats need of one started match."""

    id: int
    game_id: str
    status: str
    #: (user id, name) per seat, in seat order
    seats: list[tuple[str, str]]
    winners: set[str]
    #: the log: (user id, created_at, kind) per row, in ply order ("move" for a game move)
    log: list[tuple[str, float, str]] = field(default_factory=list)
    #: (user id, name) of everyone who held a seat, earlier holders included, in seat
    #: order (filled from the handover rows by :func:`load_facts`)
    held: list[tuple[str, str]] = field(default_factory=list)
    #: when the match was opened (its lobby), for the first match's date
    created_at: float = 0.0

    @property
    def finished_at(self) -> float:
        return self.log[-1][1] if self.log else 0.0

    @property
    def moves(self) -> int:
        """The game moves still in force: each 'undo' row cancels the latest one (as
        :func:`bot.matches.rows.effective_moves` reads the log); other rows are no moves."""
        kept = 0
        for _uid, _at, kind in self.log:
            if kind == "move":
                kept += 1
            elif kind == "undo" and kept:
                kept -= 1
        return kept


@dataclass(slots=True)
class Figures:
    """Counts and move times of one player (or a whole server) in one game or in all."""

    played: int = 0
    finished: int = 0
    won: int = 0
    move_times: list[float] = field(default_factory=list)
    longest_streak: int = 0
    players: set[str] = field(default_factory=set)
    moves: int = 0
    aborted: int = 0
    running: int = 0
    #: when the first of these matches was opened, and the latest move (the player's own
    #: move in a player's figures): dates a reader places at a glance
    first_at: float | None = None
    last_at: float | None = None

    def add_dates(self, match: MatchFacts, user_id: str | None) -> None:
        opened = match.created_at
        self.first_at = opened if self.first_at is None else min(self.first_at, opened)
        moved = [at for uid, at, _ in match.log if user_id is None or uid == user_id]
        if moved:
            self.last_at = max(moved) if self.last_at is None else max(self.last_at, *moved)

    @property
    def average(self) -> float | None:
        return statistics.fmean(self.move_times) if self.move_times else None

    @property
    def median(self) -> float | None:
        return statistics.median(self.move_times) if self.move_times else None


@dataclass(slots=True)
class PlayerStats:
    user_id: str
    name: str
    total: Figures
    by_game: dict[str, Figures]
    #: (name, matches together), most first
    opponents: list[tuple[str, int]]


@dataclass(slots=True)
class ServerStats:
    total: Figures
    by_game: dict[str, Figures]


async def load_facts(
    store: Store,
    *,
    guild_id: str | None,
    user_id: str | None = None,
    game_id: str | None = None,
    everywhere: bool = False,
) -> list[MatchFacts]:
    """Every started match of a server (``None``: matches outside any server;
    ``everywhere``: of every server, for one person's own stats asked in a DM with the
    bot), optionally only those ``user_id`` sat in and of one game, with seats, winners
    and log times."""
    where = ["status IN ('running','finished','aborted')"]
    kinds = ",".join(f"'{k}'" for k in HANDOVER_KINDS)
    params: list[Any] = []
    if not everywhere:
        where.append("COALESCE(guild_id, '') = ?")
        params.append(guild_id or "")
    if user_id is not None:
        # a seat they handed on lists them no more: matches with a handover are read too
        # and sorted out below, by who held a seat
        where.append(
            "(id IN (SELECT match_id FROM seats WHERE user_id = ?)"
            f" OR id IN (SELECT match_id FROM moves WHERE kind IN ({kinds})))"
        )
        params.append(user_id)
    if game_id is not None:
        where.append("game_id = ?")
        params.append(game_id)
    cur = await store._reader.execute(
        f"SELECT id, game_id, status, result, created_at FROM matches WHERE {' AND '.join(where)}"
        " ORDER BY id",
        params,
    )
    facts: dict[int, MatchFacts] = {}
    results: dict[int, dict[str, Any] | None] = {}
    for mid, gid, status, result, created in await cur.fetchall():
        facts[int(mid)] = MatchFacts(int(mid), gid, status, [], set(), created_at=float(created))
        results[int(mid)] = json.loads(result) if result else None
    ids = list(facts)
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        marks = ",".join("?" * len(chunk))
        cur = await store._reader.execute(
            f"SELECT match_id, user_id, name FROM seats WHERE match_id IN ({marks}) "
            "ORDER BY match_id, seat",
            chunk,
        )
        for mid, uid, name in await cur.fetchall():
            facts[int(mid)].seats.append((uid, name))
        cur = await store._reader.execute(
            "SELECT match_id, user_id, created_at, ply, kind, seat, "
            f"CASE WHEN kind IN ({kinds}) THEN events END FROM moves "
            f"WHERE match_id IN ({marks}) ORDER BY match_id, ply",
            chunk,
        )
        changes: dict[int, list[Any]] = {}
        for mid, uid, created, ply, kind, seat, events in await cur.fetchall():
            facts[int(mid)].log.append((uid, float(created), kind))
            change = handover_of(ply, kind, seat, uid, events) if events else None
            if change is not None:
                changes.setdefault(int(mid), []).append(change)
        for mid in chunk:
            match = facts[mid]
            seen: set[str] = set()
            for holders in holder_history(match.seats, changes.get(mid, [])):
                for h in holders:
                    if h.user_id is not None and h.user_id not in seen:
                        seen.add(h.user_id)
                        match.held.append((h.user_id, h.name))
    if user_id is not None:
        facts = {mid: m for mid, m in facts.items() if _sat(m, user_id)}
    for mid, match in facts.items():
        result = results[mid]
        if match.status == "finished" and result:
            match.winners = {
                match.seats[s][0] for s in result.get("winners", []) if s < len(match.seats)
            }
    return list(facts.values())


def _turn_times(match: MatchFacts, user_id: str | None) -> list[float]:
    """Seconds from the previous log row to each first game move of a turn (by
    ``user_id``, or by any person when None): a game move whose previous game move was
    someone else's. Other rows are never timed (module docstring)."""
    out = []
    mover: str | None = None  # who made the previous game move
    at_before: float | None = None
    for uid, at, kind in match.log:
        if kind == "move":
            counted = uid == user_id if user_id else not is_computer(uid)
            if counted and mover not in (None, uid) and at_before is not None:
                out.append(max(0.0, at - at_before))
            mover = uid
        at_before = at
    return out


def _streak(matches: Sequence[MatchFacts], user_id: str) -> int:
    best = run = 0
    for m in sorted(matches, key=lambda m: (m.finished_at, m.id)):
        run = run + 1 if user_id in m.winners else 0
        best = max(best, run)
    return best


def player_stats(facts: Sequence[MatchFacts], user_id: str, name: str) -> PlayerStats:
    total, by_game = Figures(), dict[str, Figures]()
    opponents: Counter[str] = Counter()
    names: dict[str, str] = {}
    for m in facts:
        if not _sat(m, user_id):
            continue
        for figures in (total, by_game.setdefault(m.game_id, Figures())):
            figures.played += 1
            figures.finished += m.status == "finished"
            figures.won += user_id in m.winners
            figures.move_times += _turn_times(m, user_id)
            figures.add_dates(m, user_id)
        for uid, other in _holders(m):
            if uid != user_id and not is_computer(uid):
                opponents[uid] += 1
                names[uid] = other
        name = next(n for uid, n in _holders(m) if uid == user_id) or name
    finished = [m for m in facts if m.status == "finished"]
    total.longest_streak = _streak([m for m in finished if _sat(m, user_id)], user_id)
    for game_id, figures in by_game.items():
        mine = [m for m in finished if m.game_id == game_id and _sat(m, user_id)]
        figures.longest_streak = _streak(mine, user_id)
    favourites = sorted(opponents.items(), key=lambda kv: (-kv[1], names[kv[0]]))[:3]
    return PlayerStats(
        user_id, name, total, dict(sorted(by_game.items())), [(names[u], n) for u, n in favourites]
    )


def _holders(match: MatchFacts) -> list[tuple[str, str]]:
    """Everyone who held a seat of ``match`` (the seats now when nobody handed one on)."""
    return match.held or match.seats


def _sat(match: MatchFacts, user_id: str) -> bool:
    """Whether ``user_id`` held a seat of ``match`` at any time."""
    return any(uid == user_id for uid, _ in _holders(match))


def server_stats(facts: Sequence[MatchFacts]) -> ServerStats:
    total, by_game = Figures(), dict[str, Figures]()
    for m in facts:
        for figures in (total, by_game.setdefault(m.game_id, Figures())):
            figures.played += 1
            figures.finished += m.status == "finished"
            figures.aborted += m.status == "aborted"
            figures.running += m.status == "running"
            figures.players |= {uid for uid, _ in _holders(m) if not is_computer(uid)}
            figures.moves += m.moves
            figures.move_times += _turn_times(m, None)
            figures.add_dates(m, None)
    return ServerStats(total, dict(sorted(by_game.items())))


# ----- words -------------------------------------------------------------------------------
def duration(seconds: float | None, lang: str = "en") -> str:
    """A duration as people say it: the two largest units (``3 d 4 h``, ``5 min 2 s``)."""
    if seconds is None:
        return t("stats.none", lang)
    left = round(seconds)
    parts: list[str] = []
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60), ("s", 1)):
        if parts or left >= size or unit == "s":
            parts.append(t(f"stats.unit.{unit}", lang, n=left // size))
            left %= size
        if len(parts) == 2:
            break
    return " ".join(parts)


def _game_name(game_id: str) -> str:
    try:
        return get_game(game_id).name
    except Exception:  # a game no longer installed still has its stats
        return game_id


def _dates(figures: Figures, lang: str) -> str:
    """The first match's day and the latest move's time, as Discord timestamps (each
    reader's own zone and language; the console shows them as UTC dates)."""
    first = discord_time(figures.first_at or 0.0, "D")
    if figures.last_at is None:
        return t("stats.first_only", lang, first=first)
    return t("stats.dates", lang, first=first, last=discord_time(figures.last_at, "R"))


def player_lines(stats: PlayerStats, lang: str = "en", everywhere: bool = False) -> list[str]:
    """``everywhere``: the figures are of every server (the heading says so)."""
    scope = "_everywhere" if everywhere else ""
    if not stats.total.played:
        return [t(f"stats.player.none{scope}", lang, name=stats.name)]
    lines = [t(f"stats.player.head{scope}", lang, name=stats.name)]
    for label, f in [(t("stats.all_games", lang), stats.total)] + [
        (_game_name(g), f) for g, f in stats.by_game.items()
    ]:
        lines.append(
            t(
                "stats.player.line",
                lang,
                game=label,
                played=f.played,
                finished=f.finished,
                won=f.won,
                average=duration(f.average, lang),
                median=duration(f.median, lang),
                streak=f.longest_streak,
            )
        )
    if stats.opponents:
        met = ", ".join(t("stats.opponent", lang, name=n, n=k) for n, k in stats.opponents)
        lines.append(t("stats.opponents", lang, opponents=met))
    return [*lines, _dates(stats.total, lang)]


def server_lines(stats: ServerStats, lang: str = "en") -> list[str]:
    if not stats.total.played:
        return [t("stats.server.none", lang)]
    lines = [t("stats.server.head", lang)]
    for label, f in [(t("stats.all_games", lang), stats.total)] + [
        (_game_name(g), f) for g, f in stats.by_game.items()
    ]:
        lines.append(
            t(
                "stats.server.line",
                lang,
                game=label,
                played=f.played,
                finished=f.finished,
                running=f.running,
                aborted=f.aborted,
                players=len(f.players),
                moves=f.moves,
                median=duration(f.median, lang),
            )
        )
    return [*lines, _dates(stats.total, lang)]


async def player_report(
    store: Store,
    guild_id: str | None,
    user_id: str,
    name: str,
    game_id: str | None = None,
    lang: str = "en",
    *,
    everywhere: bool = False,
) -> list[str]:
    """``/stats`` for one person, in words (``everywhere``: from every server)."""
    facts = await load_facts(
        store, guild_id=guild_id, user_id=user_id, game_id=game_id, everywhere=everywhere
    )
    return player_lines(player_stats(facts, user_id, name), lang, everywhere)


async def server_report(
    store: Store, guild_id: str | None, game_id: str | None = None, lang: str = "en"
) -> list[str]:
    """``/stats server``, in words."""
    facts = await load_facts(store, guild_id=guild_id, game_id=game_id)
    return server_lines(server_stats(facts), lang)
