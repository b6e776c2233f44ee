"""A post-game review said in a language (every front end's words), and as JSON.

The review itself is language-free (:mod:`bot.matches.review`): verdicts are keys, moves
and reasons message JSON. Here they become the reader's words: one block for the match
(:func:`head_lines`), one per seat (:func:`seat_lines`) — a Discord message each, so every
seat's pictures travel with its words — and the JSON of ``python -m bot review --json``
(:func:`review_json`).
"""

from __future__ import annotations

from typing import Any

from bot.matches.review import Moment, Review, SeatReview
from render.words.catalogue import decimal, t, tn
from render.words.posts import listing
from render.words.say import say
from rules.words import from_json

#: How sure a verdict is, in words: the engine's confidence (0..1, the probability that the
#: played move is really worse) at or above each bound. A loss is reported only beyond two
#: noises (0.977, ``rules.ai.review.Z``): "perhaps" is a gap close to that, "probably"
#: beyond about 2.3 noises, "clearly" beyond about 2.9.
SURE = ((0.998, "review.sure.clear"), (0.99, "review.sure.likely"), (0.0, "review.sure.maybe"))


def sure_key(confidence: float) -> str:
    return next(key for bound, key in SURE if confidence >= bound)


def _words(value: Any, lang: str, names: list[str]) -> str:
    return say(from_json(value), lang, names)


def head_lines(review: Review, lang: str) -> list[str]:
    """The match's line, then each seat's figure."""
    lines = [tn("review.head", review.judged, lang, match=review.match_id, game=review.game_name)]
    lines += [figure_line(s, lang) for s in review.seats]
    return lines


def figure_line(seat: SeatReview, lang: str) -> str:
    """ "Alice: 1.2 points lost per decision on average (24 decisions). Hints …"."""
    figure = tn(
        "review.seat", seat.decisions, lang, name=seat.name, loss=decimal(seat.average_loss, lang)
    )
    return f"{figure} {hints_words(seat, lang)}"


def hints_words(seat: SeatReview, lang: str) -> str:
    if seat.hint_plies:
        return t("review.hints.moves", lang, moves=listing([str(p) for p in seat.hint_plies], lang))
    if seat.hints_used:
        return tn("review.hints.count", seat.hints_used, lang)
    return t("review.hints.none", lang)


def moment_lines(moment: Moment, names: list[str], lang: str) -> list[str]:
    j = moment.judgement
    lines = [
        t(
            "review.moment",
            lang,
            ply=moment.ply,
            verdict=t(f"review.verdict.{j.verdict}", lang),
            loss=decimal(j.loss, lang),
            sure=t(sure_key(j.confidence), lang),
        ),
        t("review.played", lang, move=_words(moment.played_words, lang, names)),
    ]
    if j.best != j.played:
        lines.append(t("review.better", lang, move=_words(moment.best_words, lang, names)))
    if j.reason:
        lines.append(t("review.why", lang, reason=_words(j.reason, lang, names)))
    return lines


def seat_lines(review: Review, seat: SeatReview, lang: str) -> list[str]:
    """A seat's figure, then its biggest moments (or that there were none)."""
    lines = [figure_line(seat, lang)]
    if not seat.moments:
        lines.append(t("review.no_moments", lang))
    for moment in seat.moments:
        lines += moment_lines(moment, review.names, lang)
    return lines


def picture_words(review: Review, seat: SeatReview, ply: int, lang: str) -> str:
    """A moment's picture described (its alt text)."""
    return t("review.picture", lang, ply=ply, match=review.match_id, name=seat.name)


def picture_name(review: Review, seat: int, ply: int, kind: str = "") -> str:
    """``match-12-review-seat1-move24.png`` (``…-board.png``: the public board beside a
    hand)."""
    part = f"-{kind}" if kind else ""
    return f"match-{review.match_id}-review-seat{seat + 1}-move{ply}{part}.png"


def review_json(review: Review, lang: str = "en") -> dict[str, Any]:
    """Per seat: the moments with ply, move played, better move, expected loss and
    confidence (notation and words), and the average loss per decision."""
    return {
        "match_id": review.match_id,
        "game": review.game_id,
        "decisions": review.judged,
        "budget_s": review.budget_s,
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "decisions": s.decisions,
                "average_loss": round(s.average_loss, 3),
                "hints_used": s.hints_used,
                "hint_plies": s.hint_plies,
                "moments": [
                    {
                        "ply": m.ply,
                        "played": m.judgement.played,
                        "played_words": _words(m.played_words, lang, review.names),
                        "best": m.judgement.best,
                        "best_words": _words(m.best_words, lang, review.names),
                        "loss": round(m.judgement.loss, 3),
                        "noise": round(m.judgement.noise, 3),
                        "confidence": round(m.judgement.confidence, 3),
                        "verdict": m.judgement.verdict,
                        "reason": (
                            _words(m.judgement.reason, lang, review.names)
                            if m.judgement.reason
                            else None
                        ),
                    }
                    for m in s.moments
                ],
            }
            for s in review.seats
        ],
    }
