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
from bot.matches.rows import effective_moves, label_words_of, move_row, tell_row
from bot.storage import MatchRow, MoveRow, Notification, VersionConflict
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


def undoable(moves: list[MoveRow], seat: int) -> list[MoveRow]:
    """The log rows ``seat``'s undo takes back, latest first: their own latest move
    together with the computer moves that followed it (a take-back against an engine).

    Refused when another person has moved since (their move is not yours to take back)
    or when anything random or hidden came to light in those rows (``Event.reveals``:
    tiles drawn, cards dealt): taking that back would let you play again knowing it."""
    if not moves:
        raise NotAllowed.said("svc.no_undo")
    taken: list[MoveRow] = []
    for row in reversed(moves):
        taken.append(row)
        if not is_computer(row.user_id):
            break
    last = taken[-1]
    if is_computer(last.user_id) or last.seat != seat:
        raise NotAllowed.said("svc.undo_own")
    if any(e.get("reveals") for row in taken for e in row.events):
        raise NotAllowed.said("svc.undo_revealed")
    return taken


def move_words(row: MoveRow, names: list[str]) -> Any:
    """A log row's move as words (its label's), or its stored English with the names."""
    taken = label_words_of(row.events)
    return fill_names(row.label, names) if taken is None else taken


def told_move(game: Game, row: MoveRow, names: list[str]) -> Any:
    """A log row's move as the table read it (its told sentence, "Ann took 2 blue …"),
    or, where the game cannot tell it, :func:`move_words` (an undo request quotes it)."""
    told = tell_row(game, row)
    return move_words(row, names) if told is None else told


def taken_back(game: Game, row: MoveRow, asker: str, names: list[str]) -> dict[str, Any]:
    """The line of one move taken back, for the table: the move told in the public's
    words ("Taken back by Ann: Ann took 2 blue …"; :func:`~bot.matches.rows.tell_row`),
    never the mover's button label ("End your turn"), which a game that cannot tell the
    move still quotes. ``asker``: who took it back (a computer's move goes with theirs)."""
    told = tell_row(game, row)
    mine = not is_computer(row.user_id)
    if told is not None:
        return word("undo.took_back" if mine else "undo.took_back_answer", name=asker, told=told)
    move = move_words(row, names)
    if mine:
        return word("undo.taken_back", name=asker, move=move)
    return word("undo.taken_back_answer", name=names[row.seat], move=move)


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

        A ``reason`` is never dropped: the vote's post shows it, and so does the end of a
        lobby closed or a match ended with it (a player's reason was silently ignored).
        """
        match = await self._core.load(match_id)
        if match.status in ("finished", "aborted"):  # a lobby closed unstarted never ran
            key = "svc.closed_unstarted" if match.state is None else "svc.already_over"
            raise NotAllowed.said(key, match=match_id)
        reason = (reason or "").strip()[:ABORT_REASON_MAX] or None
        if match.status == "lobby":
            if user.id != match.creator_id and not is_admin:
                raise NotAllowed.said("abort.lobby_creator")
            closed = (
                word("end.aborted_by_reason", name=user.name, reason=reason)
                if reason
                else word("end.aborted_by", name=user.name)
            )
            return await self._end_aborted(match, user, closed)
        seated = match.seat_of(user.id) is not None
        if is_admin and reason:
            words = word("end.aborted_manager", name=user.name, reason=reason)
            return await self._end_aborted(match, user, words)
        if not seated:
            raise NotAllowed.said("abort.not_seated" if is_admin else "abort.vote_only")
        return await self._vote_abort(match_id, user, reason)

    async def _vote_abort(self, match_id: int, user: User, reason: str | None) -> MatchInfo:
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
                    await self._announce_vote(match, user, voters, people, reason)
                    return await self._core.info(match_id)
            voters = [u for u in decided[-1] if u in people]
            names = listing_word([s.name for s in match.seats if s.user_id in voters])
            ended = (
                word("end.aborted_vote_reason", names=names, reason=reason)
                if reason
                else word("end.aborted_vote", names=names)
            )
            try:
                return await self._end_aborted(match, user, ended)
            except BoardChanged:
                current = await self._core.info(match_id)
                if current.status == "aborted":  # another last vote ended it: fine
                    return current
        raise BoardChanged.said("svc.changed")

    async def _announce_vote(
        self, match: MatchRow, user: User, voters: list[str], people: list[str], reason: str | None
    ) -> None:
        needed = len(people) // 2 + 1
        vote = {"name": user.name, "match": match.id, "votes": len(voters), "needed": needed}
        if reason:
            said = word("abort.vote_post_reason", reason=reason, **vote)
        else:
            said = word("abort.vote_post", **vote)
        asked = [u for u in people if u not in voters]
        await self._store.enqueue(match.id, [notice(match.id, said, asked, "asked")])

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
        """Take back your own latest move, with the computer moves that followed it.

        Allowed only while nothing random or hidden came to light since and no other
        person has moved since (:func:`undoable`), and the game is not over. Computer
        seats consent at once (they have no preference), so against computers alone it
        happens at once. While you are still the one to act and no computer has answered,
        it happens at once too unless the move is a commitment the others have seen.
        Otherwise the other people must agree: the request is posted (pinging them once;
        asking again is refused) and each answers with :meth:`answer_undo`. Returns the
        report of the undone position, or the match info with the open request.
        """
        match = await self._core.load(match_id)
        game, state = self._core.running(match)
        seat = self._core.seat(match, user)
        moves = effective_moves(await self._store.moves(match_id))
        taken = undoable(moves, seat)
        others = people_seats(match, seat)
        if not others:
            return await self._do_undo(match, game, user, taken)
        seen = len(taken) > 1  # the others saw the computers answer it
        if not seen and seat in game.to_act(state):
            # still your turn: alone, unless the move is a commitment the others have seen
            before = replay_moves(match, game, moves[:-1])
            seen = is_commitment(game, before, taken[0])
            if not seen:
                return await self._do_undo(match, game, user, taken, before=before)
        open_request = match.settings.get("undo")
        if (
            open_request
            and open_request.get("version") == match.version
            and open_request.get("seat") == seat
        ):
            raise NotAllowed.said("undo.already_asked")
        request = {
            "seat": seat,
            "ply": taken[-1].ply,
            "version": match.version,
            "consents": [],
        }
        await self._store.update_settings(match_id, lambda st, _v: {**st, "undo": request})
        names = match.names
        if len(taken) > 1:
            key = "undo.request_computers"
        else:
            key = "undo.request_seen" if seen else "undo.request"
        said = word(key, name=names[seat], move=told_move(game, taken[-1], names))
        asked = [match.seats[s].user_id for s in others]
        await self._store.enqueue(match_id, [notice(match_id, said, asked, "asked", names)])
        return await self._core.info(match_id)

    async def answer_undo(self, match_id: int, user: User, agree: bool) -> TurnReport | MatchInfo:
        """``user``'s answer to the open undo request. Every other person must agree
        (computer seats are not asked); one refusal ends the request, and the refusal is
        posted for everyone, naming the requester so they learn it."""
        match = await self._core.load(match_id)
        game, _ = self._core.running(match)
        seat = self._core.seat(match, user)
        agreed: dict[str, Any] = {}
        refused: dict[str, Any] = {}

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
                refused.update(request)
                return settings
            consents = sorted({*request["consents"], seat})
            if set(consents) >= set(people_seats(match, request["seat"])):
                settings.pop("undo")
                agreed.update(request)
            else:
                settings["undo"] = {**request, "consents": consents}
            return settings

        settings = await self._store.update_settings(match_id, mutate)
        if refused:
            asker = match.seats[refused["seat"]]
            said = word("undo.refused_post", name=user.name, asker=asker.name)
            await self._store.enqueue(match_id, [notice(match_id, said, [asker.user_id], "told")])
        if not agreed:
            return await self._core.info(match_id)
        match.settings = settings
        if match.version != agreed["version"]:
            raise BoardChanged.said("svc.undo_changed")
        asker = match.seats[agreed["seat"]]
        taken = undoable(effective_moves(await self._store.moves(match_id)), agreed["seat"])
        return await self._do_undo(match, game, User(asker.user_id, asker.name), taken)

    async def _do_undo(
        self,
        match: MatchRow,
        game: Game,
        user: User,
        taken: list[MoveRow],
        *,
        before: dict[str, Any] | None = None,
    ) -> TurnReport:
        """Take back the rows ``taken`` (latest first: :func:`undoable`), one undo row
        each, in one commit. ``before``: the state before them, when the caller already
        rebuilt it (the commit's version check guards against a log that moved on)."""
        rows = await self._store.moves(match.id)
        state = before
        if state is None:
            state = replay_moves(match, game, effective_moves(rows)[: -len(taken)])
        names = match.names
        # in the order it happened: the requester's take-back, then the computer moves it
        # took with it as they were played (the log's and /history's order too; an undo
        # row cancels the latest move in force whichever it names, so the order is free)
        in_order = list(reversed(taken))
        lines: list[Any] = [taken_back(game, row, user.name, names) for row in in_order]
        undo_rows = [
            move_row("undo", row.seat, user.id, "undo", line, [], names)
            for row, line in zip(in_order, lines, strict=True)
        ]
        mine = taken[-1]
        ply = len(rows) + len(taken)
        assert match.state is not None
        said: list[Any] = lines + await self._posts.away_lines(match, game, state)
        post = turn_post(
            match,
            state,
            said,
            ply=ply,
            was_acting=people(match, game.to_act(match.state)),
            fold=folds(game, match.state, state, mine.seat),
        )
        try:
            await self._store.commit(
                match.id,
                expected_version=match.version,
                status="running",
                state=state,
                moves=undo_rows,
                notifications=[post],
                settings_update=clocked(game, match.state, state, match.version, len(taken)),
            )
        except VersionConflict:
            raise BoardChanged.said("svc.undo_changed") from None
        match.state = state
        match.version += len(taken)
        return await self._posts.report(match, said, ply=ply)


def people_seats(match: MatchRow, seat: int) -> list[int]:
    """The seats other than ``seat`` held by people: the ones an undo request asks
    (computer seats have no preference and consent at once)."""
    return [s.seat for s in match.seats if s.seat != seat and not is_computer(s.user_id)]


def notice(
    match_id: int,
    said: dict[str, Any],
    mentions: list[str],
    how: str,
    names: list[str] | None = None,
) -> Notification:
    """A post about a decision of the table (a request, a vote, a refusal), not a turn
    post: ``notice`` tells delivery and the console how to name ``mentions`` — "asked"
    (their answer is asked) or "told" (they are told) — never as the ones to move.
    ``names``: the match's, where ``said`` names seats (a told move)."""
    return Notification(
        "turn",
        {
            "match_id": match_id,
            "ply": None,
            **text_post(said, names),
            "mentions": mentions,
            "notice": how,
            "final": False,
        },
    )
