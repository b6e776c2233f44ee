"""A match's record and history, rebuilt from seed and log: the log rows in words
(``/history``), the independent record of a match (``export_record``), the state after
any ply (``state_at``), the audit of every snapshot, and who gave a seat up.

Reads only: the core (the match, the store) and the pure helpers of ``rows`` and
``holders``; it changes nothing stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.computers.players import is_computer, level_of
from bot.matches.core import Core
from bot.matches.errors import NotAllowed, no_play_key
from bot.matches.holders import handovers, holder_history, record_holders, seats_given_up
from bot.matches.rows import LABEL_EVENT, effective_moves, row_said
from bot.storage import MatchRow, MoveRow
from render.words.catalogue import t
from rules import Game, get_game

RECORD_FORMAT = "tessera-record/1"


@dataclass(slots=True)
class AuditProblem:
    match_id: int
    problem: str


def same_state(game: Game, rebuilt: dict[str, Any], stored: dict[str, Any]) -> bool:
    """Whether a snapshot equals the state rebuilt from seed and moves. A snapshot from
    before the game recorded its :attr:`~rules.base.Game.later_keys` (one of them missing
    or ``None``) is compared without them: the older version could not write them, and
    everything both versions know must still agree exactly."""
    older = any(stored.get(k) is None for k in game.later_keys)
    if not older:
        return rebuilt == stored
    known = set(game.later_keys)
    return {k: v for k, v in rebuilt.items() if k not in known} == {
        k: v for k, v in stored.items() if k not in known
    }


def replay_moves(match: MatchRow, game: Game, moves: list[MoveRow]) -> dict[str, Any]:
    state = game.setup(len(match.seats), match.seed, match.options)
    for row in moves:
        move = game.parse(state, row.seat, row.notation)
        state, _ = game.apply(state, row.seat, move)
    return state


def hints_used(match: MatchRow) -> list[int]:
    used = match.settings.get("hints_used", {})
    return [int(used.get(str(s.seat), 0)) for s in match.seats]


def hint_plies(match: MatchRow) -> dict[str, list[int]]:
    """The moves each seat asked a hint at (``{"seat": [ply, …]}``; recorded since the
    post-game review, so an older match has none and only its counts)."""
    plies = match.settings.get("hint_plies", {})
    return {str(k): sorted(int(p) for p in v) for k, v in plies.items()}


class Records:
    """The history, record, past states and audit of matches, and who gave seats up."""

    def __init__(self, core: Core) -> None:
        self._core = core
        self._store = core.store

    async def state_at(self, match_id: int, ply: int | None = None) -> dict[str, Any]:
        """The game state after ``ply`` log rows (None: now), rebuilt from seed + log."""
        match = await self._core.load(match_id)
        game = get_game(match.game_id)
        if match.state is None:  # a lobby, or one closed before it started
            raise NotAllowed.said(no_play_key(match.status, False), match=match_id)
        if ply is None:
            return match.state
        rows = [r for r in await self._store.moves(match_id) if r.ply <= ply]
        return replay_moves(match, game, effective_moves(rows))

    async def history(self, match_id: int, last: int = 15, lang: Any = None) -> list[str]:
        """The latest ``last`` log rows in ``lang`` (None: English): the reader's for a
        private answer, the match's for a public one. A move is its public sentence, as
        the turn post told it ("12. Bob took 2 blue from factory 3 to line 4."), never the
        mover's button label; other rows (take-backs, resignations, substitutes) say what
        happened (:func:`~bot.matches.rows.row_said`). Rows stored before labels were kept
        as words, whose events the game cannot tell, show their English label."""
        match = await self._core.load(match_id)
        if match.state is None and match.status != "lobby":  # closed before it started
            raise NotAllowed.said(no_play_key(match.status, False), match=match_id)
        game = get_game(match.game_id)
        names = match.names
        return [
            f"{row.ply}. {row_said(game, row, names, lang)}"
            for row in await self._store.moves(match_id, last=last)
        ]

    async def export_record(self, match_id: int) -> dict[str, Any]:
        """Everything needed to replay and check the match independently — once it is over.

        While the match runs the record holds only what every player has seen: no seed
        (seed + moves replay the whole deal and deck order, every hidden hand included),
        no random-number state, no secret chance outcomes (cards drawn into hands), no
        private words and no scores computed from the hidden state. The record of a
        finished (or aborted) match has all of it.
        """
        match = await self._core.load(match_id)
        if match.state is None:  # no deal yet, or never: nothing to record (nor seats to deal)
            raise NotAllowed.said(no_play_key(match.status, False), match=match_id)
        game = get_game(match.game_id)
        over = match.status in ("finished", "aborted")
        moves = []
        rows = await self._store.moves(match_id)
        #: who held each seat from which ply (resign, substitutes: see bot/matches/holders.py)
        held = holder_history([(s.user_id, s.name) for s in match.seats], handovers(rows))
        for row in rows:
            kept = [e for e in row.events if e.get("kind") != LABEL_EVENT]  # not a game event
            events = (
                kept
                if over
                else [{k: v for k, v in e.items() if k not in ("secret", "private")} for e in kept]
            )
            moves.append(
                {
                    "ply": row.ply,
                    "kind": row.kind,
                    "seat": row.seat,
                    "notation": row.notation,
                    "label": row.label,
                    "events": events,
                    "at": row.created_at,
                }
            )
        setup_state = game.setup(len(match.seats), match.seed, match.options)
        setup_events = [e.to_json(include_secret=over) for e in game.setup_events(setup_state)]
        return {
            "format": RECORD_FORMAT,
            "match_id": match.id,
            "game": match.game_id,
            "game_name": game.name,
            "options": match.options,
            "players": [
                {"seat": s.seat, "name": s.name}
                | ({"computer": level_of(s.user_id)} if is_computer(s.user_id) else {})
                | {"holders": record_holders(held[s.seat])}
                for s in match.seats
            ],
            "text_placeholders": "{pN} in a text is the name of players[N]",
            "status": match.status,
            "end_reason": match.end_reason,
            "setup_events": setup_events,
            "moves": moves,
            "result": match.result,
        } | (
            {
                "seed": match.seed,
                "final_scores": game.scores(match.state) if match.state is not None else None,
                "hints_used": hints_used(match),
                "hint_plies": hint_plies(match),
            }
            if over
            else {"hidden_until_over": t("record.hidden", None)}
        )

    async def audit(self) -> list[AuditProblem]:
        """Rebuild every started match from seed + moves and compare with its snapshot."""
        problems: list[AuditProblem] = []
        for match_id in await self._store.all_match_ids():
            match = await self._core.load(match_id)
            if match.state is None:
                continue
            game = get_game(match.game_id)
            try:
                rebuilt = replay_moves(
                    match, game, effective_moves(await self._store.moves(match_id))
                )
            except Exception as exc:
                problems.append(AuditProblem(match_id, f"replay failed: {exc}"))
                continue
            if not same_state(game, rebuilt, match.state):
                problems.append(AuditProblem(match_id, "snapshot differs from replay"))
        return problems

    async def resigned(self, match: MatchRow) -> list[tuple[int, str, str]]:
        """(seat, name, how) of everyone who gave up a seat a computer played on (how
        "resign", or "forfeit" when the clock ran out), earliest first (read by
        :mod:`bot.matches.holders`, like the record and the ratings)."""
        if not any(is_computer(s.user_id) for s in match.seats):
            return []  # a resigned seat is always held by a computer: most matches skip this
        changes = handovers(await self._store.moves(match.id))
        return seats_given_up([(s.user_id, s.name) for s in match.seats], changes)
