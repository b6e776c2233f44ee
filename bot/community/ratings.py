"""Ratings: per server and per game, an OpenSkill (Plackett–Luce) rating of each person.

Why a cache rebuilt from the matches: the stored matches (seats, result, the move log's
times) are the truth; the ``ratings`` and ``rating_changes`` tables are what replaying every
finished, rated match in a fixed order gives. That order is the finish time (the time of the
match's last log row, which never changes afterwards) then the match id, so
``python -m bot ratings --rebuild`` reproduces the table exactly.

When a match finishes, :func:`on_finish` runs inside the commit's own transaction (the
store calls it), so a finished match and its rating change are stored together or not at
all. It applies the rated matches of that server and game finished since the latest one
applied, in order; if the match finished before one already applied (two matches finishing
at once on several bot processes), or it is the board's first rated match (which takes in
the matches finished before ratings existed), it recomputes that server and game from
scratch instead, so the incremental path always equals the rebuild.

Who is rated (decisions where the issue was silent):
- only people: computer seats (``ai:…``) are never rated and never move a person's rating;
  the people are rated among themselves in the result's finishing order (ties stay ties,
  rated as the average of their tie-breaks: :func:`rated_together`; a resigned or
  forfeited seat is ranked last by the result already);
- a seat several people played (resign, substitutes): the holder at the end is rated with
  the seat's rank, a person who resigned or forfeited is rated last, a person who handed
  the seat on (or left and was replaced) is not rated (:mod:`bot.matches.holders`);
- the match setting ``rated``: unset means "rated when every seat started with a person"; ``True``
  rates the people of a match with computers among themselves; ``False`` never rates;
- a match with fewer than two people is not rated (one person against computers would
  only measure the computers, which the first rule forbids);
- the server key is the match's server id, ``""`` for matches outside a server (console).

The leaderboard orders by the conservative estimate μ − 3σ (OpenSkill's ``ordinal``), so a
newcomer with one lucky win does not top players with fifty games.

The SQL of these two tables lives here rather than in ``bot/storage/``: it runs on the
connection of the store's transaction, in SQL both backends accept, like the store's own.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from bot.matches import holders
from bot.matches.holders import HANDOVER_KINDS, Handover
from bot.storage import Notification, Store
from render.words.catalogue import decimal, t, tn

#: The model (μ 25, σ 25/3, Plackett–Luce). Fixed: a rebuild must use the same parameters.
MODEL = PlackettLuce()
#: Advisory lock key of the whole rating table on PostgreSQL ("ratings"): a rebuild holds it
#: exclusively, each finish shares it (and locks its own board, :func:`board_lock_key`).
RATINGS_LOCK_KEY = 0x7261_7469_6E67_73
LEADERBOARD_SIZE = 20


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative estimate the leaderboard sorts by."""
        return self.mu - 3 * self.sigma


DEFAULT = Rating(MODEL.mu, MODEL.sigma)


@dataclass(frozen=True, slots=True)
class RatedMatch:
    """A finished match as the ratings see it: who played (people only) and their rank."""

    id: int
    guild_id: str
    game_id: str
    finished_at: float
    #: (user id, name, rank) of each person, in seat order
    people: tuple[tuple[str, str, int], ...]

    @property
    def key(self) -> tuple[float, int]:
        return (self.finished_at, self.id)


@dataclass(frozen=True, slots=True)
class Change:
    match_id: int
    user_id: str
    name: str
    before: Rating
    after: Rating


@dataclass(frozen=True, slots=True)
class Standing:
    user_id: str
    name: str
    rating: Rating
    games: int


def rated_people(
    seats: Sequence[tuple[str, str]],
    result: dict[str, Any] | None,
    settings: dict[str, Any],
    changes: Sequence[Handover] = (),
) -> tuple[tuple[str, str, int], ...]:
    """The people a finished match rates, as (user id, name, rank); empty when unrated.

    ``seats`` are the holders at the end, (user id, name) in seat order; ``changes`` the
    seats' handovers (resign, substitutes), read by :mod:`bot.matches.holders`, which decides who
    of several holders of a seat is rated; the ranks come from the result."""
    if not result or len(result.get("ranks", ())) != len(seats):
        return ()
    rated = settings.get("rated")
    people, all_people = holders.rated_people(seats, result["ranks"], changes)
    if rated is False or (rated is None and not all_people) or len(people) < 2:
        return ()
    return tuple(people)


def rate(table: dict[str, Rating], match: RatedMatch) -> list[Change]:
    """One match's changes from the current ``table`` (which is updated in place)."""
    befores = [table.get(uid, DEFAULT) for uid, _, _ in match.people]
    afters = rated_together(befores, [rank for _, _, rank in match.people])
    changes = []
    for (uid, name, _), before, rating in zip(match.people, befores, afters, strict=True):
        table[uid] = rating
        changes.append(Change(match.id, uid, name, before, rating))
    return changes


def rated_together(befores: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """The ratings after one match of people rated ``befores`` who finished ``ranks``.

    A shared place is rated as the average over every order of the people sharing it (a
    tie is each of its tie-breaks, equally likely), not with the model's own ties: the
    Plackett–Luce of OpenSkill 6 counts every tied team as the team itself in its sums
    (openskill.py issues #155 and #173), so a place below a shared first place gained
    *more* than the co-winners (ranks 1, 1, 3, 4: +1.14, +1.14, +1.42, −2.30) — the
    ratings contradicted the ranking every other surface shows. Averaged, equals sharing
    a place move alike and a better place never gains less. Matches without a shared
    place are rated by the model as before (the same numbers, so a rebuild keeps them);
    at most 5! orders (a five-way tie)."""
    groups = [[i for i, r in enumerate(ranks) if r == v] for v in sorted(set(ranks))]
    if all(len(g) == 1 for g in groups):
        return _model_rate(befores, ranks)
    moved = [[0.0, 0.0] for _ in befores]
    orders = 0
    for order in itertools.product(*(itertools.permutations(g) for g in groups)):
        strict = [0] * len(ranks)
        for place, seat in enumerate(itertools.chain.from_iterable(order), start=1):
            strict[seat] = place
        for i, after in enumerate(_model_rate(befores, strict)):
            moved[i][0] += after.mu - befores[i].mu
            moved[i][1] += after.sigma - befores[i].sigma
        orders += 1
    return [
        Rating(b.mu + mu / orders, b.sigma + sigma / orders)
        for b, (mu, sigma) in zip(befores, moved, strict=True)
    ]


def _model_rate(befores: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in befores]
    new = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [Rating(float(after.mu), float(after.sigma)) for (after,) in new]


# ----- reading the matches ------------------------------------------------------------------
async def _rated_matches(
    conn: Any,
    guild_id: str | None = None,
    game_id: str | None = None,
    *,
    match_id: int | None = None,
    since: float | None = None,
) -> list[RatedMatch]:
    """Every finished match that rates someone (of one server and game, or all; or just
    ``match_id``; ``since``: only those changed at or after that time, which includes every
    match that finished then), in the order ratings are applied."""
    where = "m.status = 'finished'"
    params: list[str | int | float] = []
    if guild_id is not None and game_id is not None:
        where += " AND COALESCE(m.guild_id, '') = ? AND m.game_id = ?"
        params = [guild_id, game_id]
    if match_id is not None:
        where += " AND m.id = ?"
        params.append(match_id)
    if since is not None:  # a match's updated_at is never before its finish
        where += " AND m.updated_at >= ?"
        params.append(since)
    cur = await conn.execute(
        "SELECT m.id, COALESCE(m.guild_id, ''), m.game_id, m.settings, m.result, "
        "(SELECT MAX(created_at) FROM moves WHERE moves.match_id = m.id), m.updated_at "
        f"FROM matches m WHERE {where}",
        params,
    )
    rows = list(await cur.fetchall())
    seats: dict[int, list[tuple[str, str]]] = {}
    changes: dict[int, list[Handover]] = {}
    ids = [int(r[0]) for r in rows]
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        cur = await conn.execute(
            "SELECT match_id, user_id, name FROM seats WHERE match_id IN "
            f"({','.join('?' * len(chunk))}) ORDER BY match_id, seat",
            chunk,
        )
        for match_id, uid, name in await cur.fetchall():
            seats.setdefault(int(match_id), []).append((uid, name))
        # Seats that changed hands (resign, substitutes): bot/matches/holders.py reads the rows.
        cur = await conn.execute(
            "SELECT match_id, ply, kind, seat, user_id, events FROM moves WHERE kind IN "
            f"({','.join('?' * len(HANDOVER_KINDS))}) "
            f"AND match_id IN ({','.join('?' * len(chunk))}) ORDER BY match_id, ply",
            [*HANDOVER_KINDS, *chunk],
        )
        for match_id, ply, kind, seat, uid, events in await cur.fetchall():
            found = holders.handover_of(ply, kind, seat, uid, events)
            if found is not None:
                changes.setdefault(int(match_id), []).append(found)
    out = []
    for mid, guild, game, settings, result, last_move, updated in rows:
        people = rated_people(
            seats.get(int(mid), []),
            json.loads(result) if result else None,
            json.loads(settings),
            changes.get(int(mid), []),
        )
        if people:
            finished = float(last_move if last_move is not None else updated)
            out.append(RatedMatch(int(mid), guild, game, finished, people))
    return sorted(out, key=lambda m: m.key)


async def _table(conn: Any, guild_id: str, game_id: str) -> dict[str, Rating]:
    cur = await conn.execute(
        "SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND game_id = ?",
        (guild_id, game_id),
    )
    return {r[0]: Rating(float(r[1]), float(r[2])) for r in await cur.fetchall()}


async def _write(conn: Any, matches: Sequence[RatedMatch], table: dict[str, Rating]) -> list:
    """Apply ``matches`` in order to ``table``, storing each change and each new rating."""
    all_changes: list[Change] = []
    for match in matches:
        changes = rate(table, match)
        all_changes += changes
        await conn.executemany(
            "INSERT INTO rating_changes (match_id, user_id, guild_id, game_id, finished_at, "
            "mu_before, sigma_before, mu_after, sigma_after) VALUES (?,?,?,?,?,?,?,?,?)",
            [
                (
                    match.id,
                    c.user_id,
                    match.guild_id,
                    match.game_id,
                    match.finished_at,
                    c.before.mu,
                    c.before.sigma,
                    c.after.mu,
                    c.after.sigma,
                )
                for c in changes
            ],
        )
        await conn.executemany(
            "INSERT INTO ratings (guild_id, game_id, user_id, name, mu, sigma, games, "
            "updated_at) VALUES (?,?,?,?,?,?,1,?) ON CONFLICT (guild_id, game_id, user_id) "
            "DO UPDATE SET name = excluded.name, mu = excluded.mu, sigma = excluded.sigma, "
            "games = ratings.games + 1, updated_at = excluded.updated_at",
            [
                (match.guild_id, match.game_id, c.user_id, c.name, c.after.mu, c.after.sigma,
                 match.finished_at)
                for c in changes
            ],
        )  # fmt: skip
    return all_changes


async def _recompute(conn: Any, guild_id: str, game_id: str) -> None:
    await conn.execute(
        "DELETE FROM rating_changes WHERE guild_id = ? AND game_id = ?", (guild_id, game_id)
    )
    await conn.execute(
        "DELETE FROM ratings WHERE guild_id = ? AND game_id = ?", (guild_id, game_id)
    )
    await _write(conn, await _rated_matches(conn, guild_id, game_id), {})


async def bring_up_to_date(conn: Any, guild_id: str, game_id: str, match_id: int) -> None:
    """Rate ``match_id``, which just finished, on its server and game (see module doc).

    The usual case reads only the matches finished since the board's latest rated one
    (normally just this one), so a finish costs the same on a server with ten thousand
    matches. The board is recomputed from all its matches when this match finished before
    one already rated (two finishing at once), and for the board's first rated match (which
    takes in any matches finished before ratings existed)."""
    this = await _rated_matches(conn, match_id=match_id)
    if not this:
        return  # not rated: nothing on the board changes
    cur = await conn.execute(
        "SELECT finished_at, match_id FROM rating_changes WHERE guild_id = ? AND game_id = ? "
        "ORDER BY finished_at DESC, match_id DESC LIMIT 1",
        (guild_id, game_id),
    )
    last = await cur.fetchone()
    if last is None:
        await _recompute(conn, guild_id, game_id)
        return
    last_key = (float(last[0]), int(last[1]))
    if this[0].key < last_key:
        await _recompute(conn, guild_id, game_id)
        return
    recent = await _rated_matches(conn, guild_id, game_id, since=last_key[0])
    cur = await conn.execute(
        "SELECT DISTINCT match_id FROM rating_changes WHERE guild_id = ? AND game_id = ? "
        "AND finished_at >= ?",
        (guild_id, game_id, last_key[0]),
    )
    applied = {int(r[0]) for r in await cur.fetchall()}
    pending = [m for m in recent if m.id not in applied]
    if any(m.key < last_key for m in pending):
        await _recompute(conn, guild_id, game_id)
    elif pending:
        await _write(conn, pending, await _table(conn, guild_id, game_id))


def change_lines(changes: Sequence[Change], lang: str = "en") -> list[str]:
    """The final post's lines: each person's new rating and its change."""
    lines = [t("rating.head", lang)]
    for c in changes:
        delta = c.after.ordinal - c.before.ordinal
        lines.append(
            t(
                "rating.change",
                lang,
                name=c.name,
                mu=decimal(c.after.mu, lang),
                sigma=decimal(c.after.sigma, lang),
                delta=decimal(delta, lang, sign=True),
            )
        )
    return lines


def change_words(changes: Sequence[Change]) -> list[dict[str, Any]]:
    """:func:`change_lines` as stored words (docs/words.md), for any language."""
    out: list[dict[str, Any]] = [{"key": "rating.head", "params": {}}]
    for c in changes:
        delta = c.after.ordinal - c.before.ordinal
        params = {
            "name": c.name,
            "mu": {"decimal": round(c.after.mu, 1)},
            "sigma": {"decimal": round(c.after.sigma, 1)},
            "delta": {"decimal": round(delta, 1), "sign": True},
        }
        out.append({"key": "rating.change", "params": params})
    return out


async def match_changes(conn: Any, match_id: int) -> list[Change]:
    """The rating changes one match caused (none when it was not rated)."""
    cur = await conn.execute(
        "SELECT c.user_id, COALESCE(r.name, c.user_id), c.mu_before, c.sigma_before, "
        "c.mu_after, c.sigma_after FROM rating_changes c LEFT JOIN ratings r ON "
        "r.guild_id = c.guild_id AND r.game_id = c.game_id AND r.user_id = c.user_id "
        "WHERE c.match_id = ? ORDER BY c.user_id",
        (match_id,),
    )
    return [
        Change(match_id, r[0], r[1], Rating(r[2], r[3]), Rating(r[4], r[5]))
        for r in await cur.fetchall()
    ]


def board_lock_key(guild_id: str, game_id: str) -> int:
    """The advisory lock key of one board (a server and a game), a signed 64-bit number.

    Why one lock per board and not one for every rating: a finish reads its board's latest
    change and writes after it, so two finishes on one board must take turns, but boards
    never touch each other. With one lock for all, every finishing match of every process
    waited for the others' transactions: 0.13-0.31 s per finish on average under ``python
    -m bot load --processes 3`` (one server per match; ``pg_stat_statements``), 0.01 ms
    with a lock per board. Two boards that share a key (a hash: 1 in 2**64) only take
    turns needlessly."""
    digest = hashlib.blake2b(f"{guild_id}\0{game_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


async def on_finish(
    store: Store, conn: Any, match_id: int, notifications: list[Notification]
) -> list[Notification]:
    """The store's finish hook: update the ratings and add the changes to the final post."""
    cur = await conn.execute(
        "SELECT COALESCE(guild_id, ''), game_id FROM matches WHERE id = ?", (match_id,)
    )
    row = await cur.fetchone()
    if row is None:
        return notifications
    if store._RATINGS_BOARD_LOCK:
        await conn.execute(
            store._RATINGS_BOARD_LOCK, (RATINGS_LOCK_KEY, board_lock_key(row[0], row[1]))
        )
    await bring_up_to_date(conn, row[0], row[1], match_id)
    changes = await match_changes(conn, match_id)
    if not changes:
        return notifications
    lines = "\n".join(change_lines(changes))
    words = change_words(changes)  # said in the match's language on delivery
    out = []
    for note in notifications:
        if note.kind == "turn" and note.payload.get("final"):
            payload = {
                **note.payload,
                "text": f"{note.payload.get('text', '')}\n{lines}",
                "rating_words": words,
            }
            note = Notification(note.kind, payload, note.due_at)
        out.append(note)
    return out


# ----- the match setting -------------------------------------------------------------------
class _MovedOn(Exception):
    """The match's version changed between reading its status and writing the setting."""


async def set_rated(store: Store, match_id: int, rated: bool) -> bool:
    """Set a match's ``rated`` setting while it has not ended; False (nothing written) once
    it has. Whether a match is rated is read by the transaction that finishes it, so a
    change after that would make the rating table differ from ``ratings --rebuild``: the
    write happens only if the match's version is still the one whose status was checked
    (every move, and the finish, bumps the version), retried while moves land between."""
    for _ in range(20):
        match = await store.get_match(match_id)
        if match is None:
            raise LookupError(match_id)
        if match.status in ("finished", "aborted"):
            return False
        seen = match.version

        def mutate(settings: dict[str, Any], version: int, seen: int = seen) -> dict[str, Any]:
            if version != seen:
                raise _MovedOn
            return {**settings, "rated": rated}

        try:
            await store.update_settings(match_id, mutate)
        except _MovedOn:
            continue
        return True
    raise _MovedOn  # twenty moves in a row landed in between: not a human-paced match


# ----- reading and rebuilding --------------------------------------------------------------
async def leaderboard(
    store: Store, guild_id: str | None, game_id: str, limit: int = LEADERBOARD_SIZE
) -> list[Standing]:
    """The top ``limit`` people of a server and game, best conservative estimate first."""
    cur = await store._reader.execute(
        "SELECT user_id, name, mu, sigma, games FROM ratings WHERE guild_id = ? AND game_id = ?",
        (guild_id or "", game_id),
    )
    rows = [
        Standing(r[0], r[1], Rating(float(r[2]), float(r[3])), int(r[4]))
        for r in await cur.fetchall()
    ]
    rows.sort(key=lambda s: (-s.rating.ordinal, s.user_id))
    return rows[:limit]


def leaderboard_lines(board: Sequence[Standing], game_name: str, locale: str = "en") -> list[str]:
    """The leaderboard in words (shared with the console)."""
    if not board:
        return [t("leaderboard.empty", locale, game=game_name)]
    lines = [t("leaderboard.head", locale, game=game_name)]
    for n, s in enumerate(board, 1):
        lines.append(
            tn(
                "leaderboard.line",
                s.games,
                locale,
                rank=n,
                name=s.name,
                mu=decimal(s.rating.mu, locale),
                sigma=decimal(s.rating.sigma, locale),
            )
        )
    return lines


async def table_rows(store: Store) -> list[tuple[Any, ...]]:
    """Every stored rating and change, in a fixed order (for comparing two states)."""
    cur = await store._reader.execute(
        "SELECT guild_id, game_id, user_id, name, mu, sigma, games, updated_at FROM ratings "
        "ORDER BY guild_id, game_id, user_id"
    )
    rows = [tuple(r) for r in await cur.fetchall()]
    cur = await store._reader.execute(
        "SELECT match_id, user_id, mu_before, sigma_before, mu_after, sigma_after "
        "FROM rating_changes ORDER BY match_id, user_id"
    )
    return rows + [tuple(r) for r in await cur.fetchall()]


async def rebuild_all(store: Store) -> int:
    """Recompute every rating from the stored matches in one transaction; returns the
    number of rated matches."""

    async def work(conn: Any) -> int:
        if store._RATINGS_LOCK:
            await conn.execute(store._RATINGS_LOCK, (RATINGS_LOCK_KEY,))
        await conn.execute("DELETE FROM rating_changes")
        await conn.execute("DELETE FROM ratings")
        matches = await _rated_matches(conn)
        boards: dict[tuple[str, str], list[RatedMatch]] = {}
        for m in matches:
            boards.setdefault((m.guild_id, m.game_id), []).append(m)
        for board in boards.values():
            await _write(conn, board, {})
        return len(matches)

    result: int = await store._transaction(work)
    return result


async def run_ratings(db: Any, *, rebuild: bool) -> int:
    """``python -m bot ratings [--rebuild]``: print every server's and game's table."""
    from bot.storage import open_store

    store = await open_store(db)
    try:
        if rebuild:
            print(f"rebuilt from {await rebuild_all(store)} rated match(es)")
        cur = await store._reader.execute(
            "SELECT DISTINCT guild_id, game_id FROM ratings ORDER BY guild_id, game_id"
        )
        for guild_id, game_id in await cur.fetchall():
            print(f"server {guild_id or '-'} · {game_id}")
            for n, s in enumerate(await leaderboard(store, guild_id, game_id, 10**9), 1):
                print(
                    f"  {n}. {s.name} ({s.user_id}) {s.rating.mu:.2f} ± {s.rating.sigma:.2f} "
                    f"· {s.games} {'game' if s.games == 1 else 'games'}"
                )
    finally:
        await store.close()
    return 0
