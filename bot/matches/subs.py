"""Substitutes as the service commits them: offering your own seat, voting a person or
a computer player into a deserted seat, answering, withdrawing, the handover itself, and
the marks of people who left the server.

The rules of offers and votes (who votes, when one passes or lapses) are the pure
functions of ``bot/matches/substitutes.py``; who held a seat when is read with
``bot/matches/holders.py``. This part commits through the core's store and builds the
handover's turn post with ``posts`` (with its away note); it touches nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.computers.players import DEFAULT_LEVEL, is_computer, new_computer
from bot.matches import substitutes
from bot.matches.core import Core
from bot.matches.errors import BoardChanged, NotAllowed
from bot.matches.holders import handovers
from bot.matches.posts import Posts, text_post, turn_post
from bot.matches.reports import Line, TurnReport, User
from bot.matches.rows import events_json, move_row
from bot.matches.substitutes import SubState
from bot.storage import MatchRow, Notification, SeatRow, VersionConflict
from render.words.posts import word
from rules import Event, get_game
from rules.ai import LEVELS


def _candidate(proposal: dict[str, Any]) -> Any:
    """Who a substitute proposal names, as words: a person's name, or "a computer player"."""
    return proposal["to_name"] or word("sub.a_computer")


def sub_note(
    match: MatchRow, said_words: dict[str, Any], mentions: Sequence[str] = ()
) -> Notification:
    """A post about a substitute; its words said in the match's language on delivery.
    ``mentions``: the people asked to vote (named as asked, never as the ones to move)."""
    return Notification(
        "turn",
        {
            "match_id": match.id,
            "ply": None,
            **text_post(said_words),
            "mentions": list(mentions),
            "notice": "asked",
            "final": False,
        },
    )


class Subs:
    """Offers and votes on seats, and the handovers they end in."""

    def __init__(self, core: Core, posts: Posts) -> None:
        self._core = core
        self._store = core.store
        self._posts = posts

    def _sub_state(
        self, match: MatchRow, proposal: dict[str, Any], status: str, report: Any = None
    ) -> SubState:
        people = substitutes.voters(match.seats, match.settings)
        return SubState(
            self._core.describe(match),
            proposal,
            status,
            substitutes.votes_for(proposal, people),
            substitutes.needed(people),
            report,
        )

    async def _check_candidate(self, match: MatchRow, new: User) -> None:
        """A person who may take a seat of ``match``: not seated in it already, and not
        someone who gave up a seat of it (resigned or forfeited)."""
        if is_computer(new.id):
            raise NotAllowed.said("sub.bot")
        if match.seat_of(new.id) is not None:
            raise NotAllowed.said("sub.already_seated", name=new.name, match=match.id)
        changes = handovers(await self._store.moves(match.id))
        if any(c.gave_up and c.user_id == new.id for c in changes):
            raise NotAllowed.said("sub.gave_up_before", name=new.name)

    async def offer_seat(self, match_id: int, user: User, new: User) -> SubState:
        """Offer your own seat to ``new``; it changes hands when they accept
        (:meth:`answer_sub`). A new offer replaces your earlier one."""
        match = await self._core.load(match_id)
        self._core.running(match)
        seat = self._core.seat(match, user)
        if new.id == user.id:
            raise NotAllowed.said("sub.self")
        await self._check_candidate(match, new)
        proposal = substitutes.new_proposal(
            seat=seat,
            kind="own",
            holder=(user.id, user.name),
            by=(user.id, user.name),
            to=(new.id, new.name),
            why="own",
        )

        def mutate(settings: dict[str, Any], _version: int) -> dict[str, Any]:
            subs = dict(settings.get("subs", {}))
            subs[str(seat)] = proposal
            # whoever offers their seat is evidently still here
            left = [u for u in settings.get("left", []) if u != user.id]
            return {**settings, "subs": subs, "left": left}

        match.settings = await self._store.update_settings(match_id, mutate)
        return self._sub_state(match, proposal, "open")

    async def propose_sub(self, match_id: int, user: User, seat: int, new: User | None) -> SubState:
        """Open a vote to put ``new`` (None: a computer player at the match's level) into
        ``seat`` (0-based), which must be deserted: played by a computer since its person
        gave it up or was replaced, or held by a person who left the server. The
        proposer's vote counts at once. Your own seat: an offer (:meth:`offer_seat`)."""
        match = await self._core.load(match_id)
        self._core.running(match)
        self._core.seat(match, user)
        people = substitutes.voters(match.seats, match.settings)
        if user.id not in people:
            raise NotAllowed.said("sub.not_voter", match=match.id)
        if not 0 <= seat < len(match.seats):
            raise NotAllowed.said("sub.no_seat", seat=seat + 1, n=len(match.seats))
        holder = match.seats[seat]
        if holder.user_id == user.id:
            if new is None:
                raise NotAllowed.said("sub.own_computer")
            return await self.offer_seat(match_id, user, new)
        changes = [c for c in handovers(await self._store.moves(match.id)) if c.seat == seat]
        if is_computer(holder.user_id):
            if not changes:  # the table seated it in the lobby
                raise NotAllowed.said("sub.seat_chosen", seat=seat + 1)
            why = "gave_up" if changes[-1].gave_up else "computer"
            held_by = (changes[-1].user_id, changes[-1].name)
        elif holder.user_id in match.settings.get("left", []):
            why, held_by = "left", (holder.user_id, holder.name)
        else:
            raise NotAllowed.said("sub.seat_taken", name=holder.name, seat=seat + 1)
        if new is not None:
            await self._check_candidate(match, new)
        proposal = substitutes.new_proposal(
            seat=seat,
            kind="vote",
            holder=(holder.user_id, held_by[1]),
            by=(user.id, user.name),
            to=(new.id, new.name) if new else None,
            why=why,
        )

        def mutate(settings: dict[str, Any], _version: int) -> dict[str, Any]:
            subs = dict(settings.get("subs", {}))
            old = subs.get(str(seat))
            if old and not substitutes.expired(old):
                raise NotAllowed.said(
                    "sub.vote_already_open", seat=seat + 1, to=substitutes.candidate_name(old)
                )
            subs[str(seat)] = proposal
            return {**settings, "subs": subs}

        match.settings = await self._store.update_settings(match_id, mutate)
        if substitutes.verdict(proposal, people) == "passed":  # the only person seated
            return await self._complete_sub(match_id, proposal, user)
        return self._sub_state(match, proposal, "open")

    async def _change_sub(
        self, match_id: int, user: User, seat: int, proposal_id: str | None, change: Any
    ) -> tuple[MatchRow, dict[str, Any], str]:
        """Apply ``change(proposal, people)`` to the open offer or vote of ``seat`` in one
        settings transaction (two clicks at the same moment both count); ``change``
        returns the changed proposal (or raises a refusal). Returns the match, the
        proposal and its verdict — ``failed``, ``declined`` and ``withdrawn`` remove it."""
        match = await self._core.load(match_id)
        self._core.running(match)
        people = substitutes.voters(match.seats, match.settings)
        out: list[Any] = []

        def mutate(settings: dict[str, Any], _version: int) -> dict[str, Any]:
            subs = dict(settings.get("subs", {}))
            proposal = subs.get(str(seat))
            if (
                proposal is None
                or (proposal_id is not None and proposal["id"] != proposal_id)
                or substitutes.expired(proposal)
            ):
                raise NotAllowed.said("sub.no_offer")
            proposal, status = change(dict(proposal), people)
            if status in ("failed", "declined", "withdrawn"):
                subs.pop(str(seat))
            else:
                subs[str(seat)] = proposal
            out[:] = [proposal, status]
            return {**settings, "subs": subs}

        match.settings = await self._store.update_settings(match_id, mutate)
        return match, out[0], out[1]

    async def _after_change(
        self,
        match: MatchRow,
        proposal: dict[str, Any],
        status: str,
        user: User,
        note: dict[str, Any] | None,
    ) -> SubState:
        if status == "passed":
            return await self._complete_sub(match.id, proposal, user)
        if note:
            await self._store.enqueue(match.id, [sub_note(match, note)])
        return self._sub_state(match, proposal, status)

    async def vote_sub(
        self, match_id: int, user: User, seat: int, proposal_id: str | None, yes: bool
    ) -> SubState:
        """A seated person's vote on the substitute proposed for ``seat``."""

        def change(p: dict[str, Any], people: list[str]) -> tuple[dict[str, Any], str]:
            if p["kind"] != "vote":
                raise NotAllowed.said("sub.no_vote_own", holder=p["holder_name"])
            if user.id not in people:
                raise NotAllowed.said("sub.not_voter", match=match_id)
            if user.id in p["yes"] or user.id in p["no"]:
                raise NotAllowed.said("sub.already_voted")
            side = "yes" if yes else "no"
            p[side] = [*p[side], user.id]
            return p, substitutes.verdict(p, people)

        match, p, status = await self._change_sub(match_id, user, seat, proposal_id, change)
        people = substitutes.voters(match.seats, match.settings)
        words = {
            "open": "sub.voted_for" if yes else "sub.voted_against",
            "failed": "sub.failed_post",
        }.get(status)
        note = None
        if words:
            note = word(
                words,
                name=user.name,
                to=_candidate(p),
                seat=seat + 1,
                votes=substitutes.votes_for(p, people),
                needed=substitutes.needed(people),
            )
        return await self._after_change(match, p, status, user, note)

    async def answer_sub(
        self, match_id: int, user: User, seat: int, proposal_id: str | None, accept: bool
    ) -> SubState:
        """The proposed person takes the seat (once a vote on it has passed) or declines."""

        def change(p: dict[str, Any], people: list[str]) -> tuple[dict[str, Any], str]:
            if user.id != p["to"]:
                raise NotAllowed.said("sub.not_for_you", name=substitutes.candidate_name(p))
            if not accept:
                return p, "declined"
            p["accepted"] = True
            return p, substitutes.verdict(p, people)

        match, p, status = await self._change_sub(match_id, user, seat, proposal_id, change)
        note = word("sub.declined_post", to=user.name, seat=seat + 1, match=match_id)
        return await self._after_change(match, p, status, user, note if not accept else None)

    async def withdraw_sub(
        self, match_id: int, user: User, seat: int, proposal_id: str | None
    ) -> SubState:
        """Whoever made an offer or opened a vote takes it back."""

        def change(p: dict[str, Any], people: list[str]) -> tuple[dict[str, Any], str]:
            if user.id != p["by"]:
                raise NotAllowed.said("sub.not_proposer", name=p["by_name"])
            return p, "withdrawn"

        match, p, status = await self._change_sub(match_id, user, seat, proposal_id, change)
        note = word("sub.withdrawn_post", name=user.name, seat=seat + 1)
        return await self._after_change(match, p, status, user, note)

    async def open_subs(self, match_id: int) -> list[dict[str, Any]]:
        """The offers and votes of a match still open (for the front ends' choices)."""
        match = await self._core.load(match_id)
        return substitutes.open_proposals(match.settings)

    async def _complete_sub(self, match_id: int, proposal: dict[str, Any], user: User) -> SubState:
        """Hand the seat over as ``proposal`` says, in one versioned commit. Racing last
        clicks each try it; the one that finds the seat already changed hands reports the
        handover as done instead of doing it twice."""
        seat = proposal["seat"]
        for _ in range(5):  # a move landing between the read and the commit: look again
            match = await self._core.load(match_id)
            self._core.running(match)
            holder = match.seats[seat]
            if holder.user_id != proposal["holder"]:
                await self._drop_sub(match_id, proposal, None)
                taken = holder.user_id == proposal["to"] or (
                    proposal["to"] is None and is_computer(holder.user_id)
                )
                if taken:  # another click handed it over a moment ago
                    return self._sub_state(match, proposal, "done")
                raise NotAllowed.said("sub.no_offer")
            if proposal["to"] is None:
                level = match.settings.get("level", DEFAULT_LEVEL)
                uid, name = new_computer(
                    level if level in LEVELS else DEFAULT_LEVEL,
                    [(s.user_id, s.name) for s in match.seats],
                )
            else:
                if match.seat_of(proposal["to"]) is not None:
                    raise NotAllowed.said(
                        "sub.already_seated", name=proposal["to_name"], match=match_id
                    )
                uid, name = proposal["to"], proposal["to_name"]
            try:
                report = await self._hand_seat(match, seat, uid, name, proposal["kind"], user)
            except BoardChanged:
                continue
            await self._drop_sub(match_id, proposal, uid)
            state = self._sub_state(match, proposal, "done", report)
            state.match = report.match  # the seats after the handover
            return state
        raise BoardChanged.said("sub.busy")

    async def _drop_sub(self, match_id: int, proposal: dict[str, Any], holder: str | None) -> None:
        """Forget a finished offer or vote; the new holder (``holder``) is present."""

        def mutate(settings: dict[str, Any], _version: int) -> dict[str, Any]:
            subs = dict(settings.get("subs", {}))
            if subs.get(str(proposal["seat"]), {}).get("id") == proposal["id"]:
                subs.pop(str(proposal["seat"]))
            left = [u for u in settings.get("left", []) if u != holder]
            return {**settings, "subs": subs, "left": left}

        await self._store.update_settings(match_id, mutate)

    async def _hand_seat(
        self, match: MatchRow, seat: int, uid: str, name: str, how: str, user: User
    ) -> TurnReport:
        """The seat goes to (``uid``, ``name``) in one transaction with the log row that
        says who held it until when (read back by :mod:`bot.matches.holders`). The seat's hand
        goes with it: views, /hand and private messages follow the seat's holder."""
        assert match.state is not None
        old = match.seats[seat]
        # the words name the seat's old and new holders, no seat: said without names
        text = word(f"sub.done_{how}", old=old.name, new=name, seat=seat + 1)
        label = word("sub.label", old=old.name, new=name, seat=seat + 1)
        new_row = SeatRow(seat, uid, name)
        after = replace(match, seats=[new_row if s.seat == seat else s for s in match.seats])
        after.preferences = await self._holder_preferences(match, seat, uid)
        game = get_game(match.game_id)
        said: list[Line] = [text, *await self._posts.away_lines(after, game, match.state)]
        ply = match.last_ply + 1
        event = Event(
            f"sub.{how}",
            "",
            {"seat": seat, "name": old.name, "user_id": old.user_id, "by": name, "by_id": uid},
        )
        try:
            version = await self._store.commit(
                match.id,
                expected_version=match.version,
                status="running",
                state=match.state,
                moves=[move_row("sub", seat, user.id, "sub", label, events_json([event]))],
                notifications=[turn_post(after, match.state, said, ply=ply, named=False)],
                seats=[new_row],
            )
        except VersionConflict:
            raise BoardChanged.said("sub.busy") from None
        after.version = version
        after.last_ply = ply
        return await self._posts.report(after, said, ply=ply, named=False)

    async def _holder_preferences(
        self, match: MatchRow, seat: int, uid: str
    ) -> dict[int, dict[str, Any]]:
        """The seats' preferences once ``seat`` is ``uid``'s (who is away, for the
        handover's post): the new holder's are read, a computer has none."""
        prefs = dict(
            match.preferences
            if match.preferences is not None
            else await self._store.seat_preferences(match.id)
        )
        prefs.pop(seat, None)
        if not is_computer(uid):
            prefs[seat] = (await self._store.get_user(uid))["settings"]
        return prefs

    async def set_left(self, match_id: int, user_id: str, left: bool = True) -> bool:
        """Mark (or unmark) a seated person as gone from the server; True when this
        changed the mark. Their seat may then be voted on (:meth:`propose_sub`)."""
        changed: list[bool] = []

        def mutate(settings: dict[str, Any], _version: int) -> dict[str, Any]:
            marks = list(settings.get("left", []))
            if left and user_id not in marks:
                marks.append(user_id)
                changed.append(True)
            elif not left and user_id in marks:
                marks.remove(user_id)
                changed.append(True)
            return {**settings, "left": marks}

        await self._store.update_settings(match_id, mutate)
        return bool(changed)

    async def player_left(self, guild_id: str, user_id: str) -> list[int]:
        """A member left the server: in each running match of that server where they
        hold a seat, mark them gone and tell the thread the others may vote a substitute
        or a computer player in. Returns those matches."""
        rows = await self._store.list_matches(
            guild_id=guild_id, user_id=user_id, statuses=("running",)
        )
        out = []
        for match in rows:
            seat = match.seat_of(user_id)
            if seat is None or not await self.set_left(match.id, user_id):
                continue
            text = word("sub.left_post", name=match.seats[seat].name, seat=seat + 1)
            people = [u for u in substitutes.voters(match.seats, match.settings) if u != user_id]
            await self._store.enqueue(match.id, [sub_note(match, text, people)])
            out.append(match.id)
        return out
