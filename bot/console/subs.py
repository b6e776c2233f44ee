"""``/game sub`` in the console: hand your seat on, vote a substitute into a deserted seat,
answer an offer or a vote (the console's stand-in for the buttons under Discord's post).

Why names are checked here: a word that is no answer is a person's name, and
``/game sub acept`` (a typo of ``accept``) offered the seat to a player called "Acept"
(issue 41). A name must be someone this console knows, as Discord's ``new`` option is a
member of the server; ``match=N`` names the match, as Discord's ``match`` option does.
"""

from __future__ import annotations

from typing import Any

from bot.console.session import Session
from bot.matches import substitutes
from bot.matches.errors import ServiceError
from bot.matches.reports import MatchInfo
from render.words.catalogue import t

#: The words that answer an offer or a vote (each with an optional seat number).
ANSWERS = ("accept", "decline", "yes", "no", "withdraw")


async def game_sub(s: Session, args: list[str]) -> list[str]:
    """``/game sub [match=N] <name>`` offers your seat; ``/game sub seat=N <name>|computer``
    opens a vote on a seat given up; ``accept``/``decline``, ``yes``/``no`` and
    ``withdraw`` (each with an optional seat number) answer; alone it lists what is open."""
    given, rest = s.named(args, ("match", "seat"), positional=len(args))
    if len(rest) > 2:
        raise ServiceError.said("console.sub_usage")
    match_id = s.match_number(given["match"]) if "match" in given else s.need_match()
    info = await s.service.info(match_id)  # an unknown match is refused before anything
    words = [w.lower() for w in rest]
    if not words and "seat" not in given:
        open_now = await s.service.open_subs(match_id)
        if not open_now:
            return [t("console.sub_none", s.lang)]
        return [substitutes.post_text(open_state(info, p), s.lang) for p in open_now]
    if words and words[0] in ANSWERS:
        if "seat" in given:
            raise ServiceError.said("console.sub_usage")
        seat = await answer_seat(s, match_id, words[0], words[1:])
        if words[0] in ("accept", "decline"):
            state = await s.service.answer_sub(match_id, s.me, seat, None, words[0] == "accept")
        elif words[0] == "withdraw":
            state = await s.service.withdraw_sub(match_id, s.me, seat, None)
        else:
            state = await s.service.vote_sub(match_id, s.me, seat, None, words[0] == "yes")
        return [substitutes.answer_text(state, s.lang, s.me.id)]
    if len(rest) != 1:
        raise ServiceError.said("console.sub_usage")
    if "seat" not in given:
        if words[0] == "computer":
            raise ServiceError.said("sub.computer_needs_seat")
        state = await s.service.offer_seat(match_id, s.me, await s.player(rest[0]))
    else:
        number = given["seat"]
        if not number.isdigit() or not 1 <= int(number) <= 10:
            raise ServiceError.said("err.bad_number", name="seat", low=1, high=10)
        new = None if words[0] == "computer" else await s.player(rest[0])
        state = await s.service.propose_sub(match_id, s.me, int(number) - 1, new)
    if state.status == "done":
        return [substitutes.answer_text(state, s.lang, s.me.id)]
    return [substitutes.post_text(state, s.lang), *howto(s, state.proposal)]


def howto(s: Session, proposal: dict[str, Any]) -> list[str]:
    """The console's stand-in for the buttons under the post: what to type."""
    lines = []
    if proposal["to"] is not None:
        typed = proposal["to"].removeprefix("console:")
        lines.append(t("console.sub_answer", s.lang, typed=typed))
    if proposal["kind"] == "vote":
        lines.append(t("console.sub_vote", s.lang, seat=proposal["seat"] + 1))
    return lines


def open_state(info: MatchInfo, proposal: dict[str, Any]) -> substitutes.SubState:
    people = substitutes.voters(info.seats, info.settings)
    return substitutes.SubState(
        info,
        proposal,
        "open",
        substitutes.votes_for(proposal, people),
        substitutes.needed(people),
    )


async def answer_seat(s: Session, match_id: int, action: str, rest: list[str]) -> int:
    """The seat an answer is about: given, else the one open offer or vote it fits."""
    if rest:
        if not rest[0].isdigit():
            raise ServiceError.said("console.sub_usage")
        return int(rest[0]) - 1
    me = s.me.id
    mine = {
        "accept": lambda p: p["to"] == me,
        "decline": lambda p: p["to"] == me,
        "withdraw": lambda p: p["by"] == me,
    }.get(action, lambda p: p["kind"] == "vote")
    fitting = [p for p in await s.service.open_subs(match_id) if mine(p)]
    if len(fitting) != 1:
        raise ServiceError.said("console.sub_which" if fitting else "sub.no_offer")
    return int(fitting[0]["seat"])
