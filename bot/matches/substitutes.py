"""Substitutes: the rules of handing a seat to someone else while a match runs.

Two ways a seat changes hands (the service commits them; this module decides):

- **Your own seat**: its holder offers it to a person; it changes hands when that person
  accepts. Nobody else votes: it is the holder's seat to give.
- **A deserted seat** — played by a computer since its person resigned, ran out of time or
  was replaced, or held by a person who left the server: the people still seated vote a
  substitute (a person, who must also accept) or a computer player into it. It passes with
  more than half of them (the proposer's vote counts); it fails as soon as half or more
  voted against, since it could no longer pass.

An open offer or vote lives in the match settings (``settings["subs"]``, one per seat,
keyed by the seat number) and is changed only inside the store's settings transaction, so
two clicks at the same moment both count; the handover itself is a versioned commit, so
racing last clicks hand the seat over once. Offers lapse after :data:`SUB_TTL_SECONDS`.
People who left the server are listed in ``settings["left"]`` (user ids).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.computers.players import is_computer
from render.words.catalogue import t
from render.words.stamps import discord_time

#: An offer or vote nobody finished lapses after three days (the thread moves on; a new
#: one can be made at any time).
SUB_TTL_SECONDS = 3 * 24 * 3600


@dataclass(slots=True)
class SubState:
    """An offer or vote after an action on it: ``status`` is ``open``, ``done`` (the
    seat changed hands; ``report`` is that change's turn report when this action made
    it), ``failed`` (voted down), ``declined`` or ``withdrawn``."""

    match: Any
    proposal: dict[str, Any]
    status: str
    votes: int
    needed: int
    report: Any = None


def new_proposal(
    *,
    seat: int,
    kind: str,
    holder: tuple[str, str],
    by: tuple[str, str],
    to: tuple[str, str] | None,
    why: str,
    now: float | None = None,
) -> dict[str, Any]:
    """A fresh offer (``kind="own"``) or vote (``"vote"``); ``to`` None: a computer."""
    return {
        "id": secrets.token_hex(4),
        "seat": seat,
        "kind": kind,
        "why": why,
        "holder": holder[0],
        "holder_name": holder[1],
        "by": by[0],
        "by_name": by[1],
        "to": to[0] if to else None,
        "to_name": to[1] if to else None,
        "yes": [by[0]] if kind == "vote" else [],
        "no": [],
        "accepted": False,
        "at": time.time() if now is None else now,
    }


def voters(seats: Sequence[Any], settings: dict[str, Any]) -> list[str]:
    """Who votes on a substitute: the people seated who have not left the server."""
    left = set(settings.get("left", []))
    return [s.user_id for s in seats if not is_computer(s.user_id) and s.user_id not in left]


def needed(people: Sequence[str]) -> int:
    return len(people) // 2 + 1


def votes_for(proposal: dict[str, Any], people: Sequence[str]) -> int:
    return sum(1 for u in proposal["yes"] if u in people)


def verdict(proposal: dict[str, Any], people: Sequence[str]) -> str:
    """``passed`` (hand the seat over now), ``failed`` (can no longer pass) or ``open``."""
    accepted = proposal["to"] is None or proposal["accepted"]
    if proposal["kind"] == "own":
        return "passed" if accepted else "open"
    against = sum(1 for u in proposal["no"] if u in people)
    if people and 2 * against >= len(people):
        return "failed"
    if 2 * votes_for(proposal, people) > len(people) and accepted:
        return "passed"
    return "open"


def expired(proposal: dict[str, Any], now: float | None = None) -> bool:
    return (time.time() if now is None else now) - float(proposal["at"]) > SUB_TTL_SECONDS


def lapses(proposal: dict[str, Any]) -> str:
    """When an offer or vote lapses, as a Discord timestamp (each reader's own time)."""
    return discord_time(float(proposal["at"]) + SUB_TTL_SECONDS, "R")


def open_proposals(settings: dict[str, Any], now: float | None = None) -> list[dict[str, Any]]:
    """The offers and votes still open, by seat."""
    subs = settings.get("subs", {})
    return [p for _, p in sorted(subs.items()) if not expired(p, now)]


def candidate_name(proposal: dict[str, Any], lang: Any = None) -> str:
    return proposal["to_name"] or t("sub.a_computer", lang)


def post_text(state: SubState, lang: Any = None) -> str:
    """The public words of a new offer or vote (the post its buttons hang under)."""
    p = state.proposal
    to = candidate_name(p, lang)
    if p["kind"] == "own":
        return t(
            "sub.offer_post",
            lang,
            holder=p["holder_name"],
            to=to,
            match=state.match.id,
            game=state.match.game_name,
            when=lapses(p),
        )
    text = t(
        "sub.vote_post",
        lang,
        by=p["by_name"],
        to=to,
        seat=p["seat"] + 1,
        holder=p["holder_name"],
        why=t(f"sub.why.{p['why']}", lang),
        match=state.match.id,
        votes=state.votes,
        needed=state.needed,
        when=lapses(p),
    )
    if p["to"] is not None:
        text += " " + t("sub.vote_post_accept", lang, to=to)
    return text


def answer_text(state: SubState, lang: Any = None, who: str | None = None) -> str:
    """What the person who acted (``who``) is told, privately, about the offer or vote."""
    p = state.proposal
    to = candidate_name(p, lang)
    seat = p["seat"] + 1
    if state.status == "done":
        holder = state.match.seats[p["seat"]].name  # a computer's name is known only now
        return t("sub.done_answer", lang, to=holder, seat=seat, match=state.match.id)
    if state.status in ("failed", "declined", "withdrawn"):
        return t(f"sub.{state.status}_answer", lang, to=to, seat=seat)
    if who is not None and who == p["to"]:  # accepted; the vote has not passed yet
        return t("sub.accepted_early", lang, seat=seat, votes=state.votes, needed=state.needed)
    if p["kind"] == "own":
        return t("sub.offer_open", lang, to=to, when=lapses(p))
    if state.votes >= state.needed:  # passed, waiting for the person to accept
        return t("sub.waiting_accept", lang, to=to, seat=seat)
    return t("sub.vote_open", lang, to=to, seat=seat, votes=state.votes, needed=state.needed)
