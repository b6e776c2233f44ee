"""What the table decides together: ending a match (a vote of the seated people, or
at once by a lobby's creator or a server manager) and taking a move back (at once while
it is still your turn and nothing was seen, else with the others' consent).

It commits through the core's store, builds its posts with ``posts``, has the final
board drawn by ``pictures`` and rebuilds the state before a move with ``records``'
:func:`~bot.matches.records.replay_moves`.
"""

from __future__ import annotations

from typing import Any

from bot.computers.players import is_computer
from bot.matches.clocks import clocked
from bot.matches.core import Core
from bot.matches.errors import BoardChanged, NotAllowed
from bot.matches.pictures import Pictures
from bot.matches.posts import Posts, folds, people, text_post, turn_post
from bot.matches.records import replay_moves
from bot.matches.reports import MatchInfo, TurnReport, User
from bot.matches.rows import effective_moves, label_words_of, move_row
from bot.storage import MatchRow, MoveRow, Notification, VersionConflict
from render.words.catalogue import t
from render.words.posts import listing_word, word
from rules import Game, IllegalMove
from rules.base import fill_names

#: A server manager's reason for aborting is posted; longer text is cut here.
ABORT_REASON_MAX = 300


def is_commitment(game: Game, before: dict[str, Any], last: MoveRow) -> bool:
    """Whether log row ``last``, played from ``before``, is a commitment the other
    players have seen (the game decides: ``Game.is_commitment``)."""
    try:
        move = game.parse(before, last.seat, last.notation)
    except IllegalMove:  # cannot happen for a stored move; be safe: ask everyone
        return True
    return game.is_commitment(before, last.seat, move)


def undoable(moves: list[MoveRow], seat: int) -> MoveRow:
    if not moves:
        raise NotAllowed.said("svc.no_undo")
    last = moves[-1]
    if last.seat != seat:
        raise NotAllowed.said("svc.undo_own")
    if any(e.get("reveals") for e in last.events):
        raise NotAllowed.said("svc.undo_revealed")
    return last


class Votes:
    """Abort votes and undo requests: the decisions a match's players take together."""

    def __init__(self, core: Core, posts: Posts, pictures: Pictures) -> None:
        self._core = core
        self._store = core.store
        self._posts = posts
        self._pictures = pictures

    async def abort(
        self, match_id: int, user: User, *, is_admin: bool = False, reason: str | None = None
    ) -> MatchInfo:
        """End a match that nobody will finish.

        A lobby: its creator (or a server manager) closes it at once. A running match
        belongs to everyone who has played it for days, so the seated people vote: each
        ``abort`` by one of them is a vote, and the match ends once more than half of the
        people still seated have voted (computer seats do not vote; a vote stays until the
        match ends). A server manager may end any match at once for moderation, with a
        reason that the final post shows. The returned info carries the open vote in
        ``settings["abort_votes"]`` while the match goes on.
        """
        match = await self._core.load(match_id)
        if match.status in ("finished", "aborted"):
            raise NotAllowed.said("svc.already_over", match=match_id)
        reason = (reason or "").strip()[:ABORT_REASON_MAX] or None
        if match.status == "lobby":
            if user.id != match.creator_id and not is_admin:
                raise NotAllowed.said("abort.lobby_creator")
            return await self._end_aborted(match, user, word("end.aborted_by", name=user.name))
        seated = match.seat_of(user.id) is not None
        if is_admin and reason:
            words = word("end.aborted_manager", name=user.name, reason=reason)
            return await self._end_aborted(match, user, words)
        if not seated:
            raise NotAllowed.said("abort.not_seated" if is_admin else "abort.vote_only")
        return await self._vote_abort(match_id, user)

    async def _vote_abort(self, match_id: int, user: User) -> MatchInfo:
        """Count ``user``'s vote in one transaction (two votes at the same moment both
        count), then end the match if the votes are a majority. Racing last votes each
        try the one commit; the loser finds the match already aborted."""
        decided: list[list[str]] = []

        def mutate(settings: dict[str, Any], _version: int) -> dict[str, Any]:
            votes = list(settings.get("abort_votes", []))
            if user.id in votes:
                raise NotAllowed.said("abort.already_voted")
            votes.append(user.id)
            decided.append(votes)
            return {**settings, "abort_votes": votes}

        for _ in range(5):  # a move landing between the vote and the commit: look again
            match = await self._core.load(match_id)
            if match.status != "running":
                raise NotAllowed.said("svc.already_over", match=match_id)
            people = [s.user_id for s in match.seats if not is_computer(s.user_id)]
            if not decided:
                settings = await self._store.update_settings(match_id, mutate)
                voters = [u for u in settings["abort_votes"] if u in people]
                if 2 * len(voters) <= len(people):
                    await self._announce_vote(match, user, voters, people)
                    return await self._core.info(match_id)
            voters = [u for u in decided[-1] if u in people]
            names = listing_word([s.name for s in match.seats if s.user_id in voters])
            try:
                return await self._end_aborted(match, user, word("end.aborted_vote", names=names))
            except BoardChanged:
                current = await self._core.info(match_id)
                if current.status == "aborted":  # another last vote ended it: fine
                    return current
        raise BoardChanged.said("svc.changed")

    async def _announce_vote(
        self, match: MatchRow, user: User, voters: list[str], people: list[str]
    ) -> None:
        needed = len(people) // 2 + 1
        vote = {"name": user.name, "match": match.id, "votes": len(voters), "needed": needed}
        await self._store.enqueue(
            match.id,
            [
                Notification(
                    "turn",
                    {
                        "match_id": match.id,
                        "ply": None,
                        **text_post(word("abort.vote_post", **vote)),
                        "mentions": [u for u in people if u not in voters],
                        "final": False,
                    },
                )
            ],
        )

    async def _end_aborted(self, match: MatchRow, user: User, said: dict[str, Any]) -> MatchInfo:
        """Abort now. A running match gets a log row, so its final post carries a picture
        of its own (the board, with ``said`` where the turn marks were). ``said``: who
        ended it and how, as words; kept in the match settings (``end_words``) so the
        status and pictures say it in any language (``end_reason`` keeps the English)."""
        running = match.status == "running" and match.state is not None
        ply = match.last_ply + 1 if running else None
        seat = match.seat_of(user.id)
        row = move_row("abort", -1 if seat is None else seat, user.id, "abort", said, [])
        english = row.label  # the row's English, also the match's English end_reason
        post = word("end.aborted_post", match=match.id, words=said)
        try:
            await self._store.commit(
                match.id,
                expected_version=match.version,
                status="aborted",
                state=match.state,
                moves=[row] if running else (),
                end_reason=english,
                settings_update=lambda settings, _now: {**settings, "end_words": said},
                notifications=[
                    Notification(
                        "turn",
                        {
                            "match_id": match.id,
                            "ply": ply,
                            **text_post(post),
                            "mentions": [],
                            "final": True,
                        },
                    )
                ],
            )
        except VersionConflict:
            raise BoardChanged.said("svc.changed") from None
        match.status, match.end_reason = "aborted", english
        match.settings = {**match.settings, "end_words": said}
        if running and ply is not None and self._core.render_enabled:
            match.last_ply = ply
            self._core.spawn(self._pictures.picture_behind(match, ply))
        return await self._core.info(match.id)

    async def undo(self, match_id: int, user: User) -> TurnReport | MatchInfo:
        """Take back your own last move.

        Allowed only while nothing random or hidden came to light in it and the game is not
        over. While you are still the one to act it happens at once; otherwise the others
        must agree: the request is stored and each of them answers with :meth:`answer_undo`.
        Returns the report of the undone position, or the match info with the open request.
        """
        match = await self._core.load(match_id)
        game, state = self._core.running(match)
        seat = self._core.seat(match, user)
        moves = effective_moves(await self._store.moves(match_id))
        last = undoable(moves, seat)
        others = [s.seat for s in match.seats if s.seat != seat]
        if not others:
            return await self._do_undo(match, game, user, last)
        seen = False
        if seat in game.to_act(state):
            # still your turn: alone, unless the move is a commitment the others have seen
            before = replay_moves(match, game, moves[:-1])
            seen = is_commitment(game, before, last)
            if not seen:
                return await self._do_undo(match, game, user, last, before=before)
        request = {"seat": seat, "ply": last.ply, "version": match.version, "consents": []}
        await self._store.update_settings(match_id, lambda st, _v: {**st, "undo": request})
        names = match.names
        await self._store.enqueue(
            match_id,
            [
                Notification(
                    "turn",
                    {
                        "match_id": match_id,
                        "ply": None,
                        "text": t(
                            "undo.request_seen" if seen else "undo.request",
                            None,
                            name=names[seat],
                            move=fill_names(last.label, names),
                        ),
                        "mentions": [match.seats[s].user_id for s in others],
                        "final": False,
                    },
                )
            ],
        )
        return await self._core.info(match_id)

    async def answer_undo(self, match_id: int, user: User, agree: bool) -> TurnReport | MatchInfo:
        match = await self._core.load(match_id)
        game, _ = self._core.running(match)
        seat = self._core.seat(match, user)
        others = {s.seat for s in match.seats}
        agreed: dict[str, Any] = {}

        def mutate(settings: dict[str, Any], version: int) -> dict[str, Any]:
            # Decided inside the write transaction: two consents given at the same moment
            # must both count (a read-then-write would let one overwrite the other).
            request = settings.get("undo")
            if not request or request["version"] != version:
                raise NotAllowed.said("svc.no_request")
            if seat == request["seat"]:
                raise NotAllowed.said("svc.own_request")
            if not agree:
                settings.pop("undo")
                return settings
            consents = sorted({*request["consents"], seat})
            if set(consents) >= others - {request["seat"]}:
                settings.pop("undo")
                agreed.update(request)
            else:
                settings["undo"] = {**request, "consents": consents}
            return settings

        settings = await self._store.update_settings(match_id, mutate)
        if not agreed:
            return await self._core.info(match_id)
        match.settings = settings
        if match.version != agreed["version"]:
            raise BoardChanged.said("svc.undo_changed")
        asker = match.seats[agreed["seat"]]
        last = undoable(effective_moves(await self._store.moves(match_id)), agreed["seat"])
        return await self._do_undo(match, game, User(asker.user_id, asker.name), last)

    async def _do_undo(
        self,
        match: MatchRow,
        game: Game,
        user: User,
        last: MoveRow,
        *,
        before: dict[str, Any] | None = None,
    ) -> TurnReport:
        """Take ``last`` back. ``before``: the state before it, when the caller already
        rebuilt it (the commit's version check guards against a log that moved on)."""
        rows = await self._store.moves(match.id)
        state = before
        if state is None:
            state = replay_moves(match, game, effective_moves(rows)[:-1])
        taken = label_words_of(last.events)
        text = word("undo.taken_back", name=user.name, move=last.label if taken is None else taken)
        ply = len(rows) + 1
        assert match.state is not None
        post = turn_post(
            match,
            state,
            [text],
            ply=ply,
            was_acting=people(match, game.to_act(match.state)),
            fold=folds(game, match.state, state, last.seat),
        )
        try:
            await self._store.commit(
                match.id,
                expected_version=match.version,
                status="running",
                state=state,
                moves=[move_row("undo", last.seat, user.id, "undo", text, [], match.names)],
                notifications=[post],
                settings_update=clocked(game, match.state, state, match.version, 1),
            )
        except VersionConflict:
            raise BoardChanged.said("svc.undo_changed") from None
        match.state = state
        match.version += 1
        return await self._posts.report(match, [text], ply=ply)
