"""English words of the post-game review (``/review``, bot/matches/review.py).

Merged into :data:`render.words.catalogue.MESSAGES` (one catalogue); kept apart so that this
part of the catalogue can grow without touching the main dict.
"""

from __future__ import annotations

REVIEW_WORDS: dict[str, str] = {
    "cmd.review": "Where a finished match was won and lost: each player's three biggest moments",
    "review.running": (
        "Match #{match} is still being played: it can be reviewed once it is over "
        "(a review would judge positions still in play)."
    ),
    "review.empty": "Match #{match} has no moves to review.",
    "review.failed": "The review of match #{match} could not be made. Please try again later.",
    "review.progress": "Reviewing match #{match}: decisions judged: {done} of {total}…",
    "review.head.one": (
        "**Review of match #{match}** ({game}): {n} decision judged, each from what its "
        "player could see then."
    ),
    "review.head.other": (
        "**Review of match #{match}** ({game}): {n} decisions judged, each from what its "
        "player could see then."
    ),
    "review.seat.one": "**{name}**: {loss} points lost per decision on average ({n} decision).",
    "review.seat.other": "**{name}**: {loss} points lost per decision on average ({n} decisions).",
    "review.hints.none": "No hints used.",
    "review.hints.moves": "Hints used at moves {moves}.",
    "review.hints.count.one": "{n} hint used (at which moves was not recorded then).",
    "review.hints.count.other": "{n} hints used (at which moves was not recorded then).",
    "review.no_moments": "No move of theirs lost anything worth showing.",
    "review.moment": "**Move {ply}** · {verdict} · about {loss} points lost ({sure})",
    "review.played": "Played: {move}",
    "review.better": "Better: {move}",
    "review.why": "Why: {reason}",
    "review.verdict.best": "the best move",
    "review.verdict.fine": "fine",
    "review.verdict.inaccuracy": "an inaccuracy",
    "review.verdict.mistake": "a mistake",
    "review.verdict.blunder": "a blunder",
    "review.verdict.forced": "the only move",
    "review.sure.clear": "clearly",
    "review.sure.likely": "probably",
    "review.sure.maybe": "perhaps: close to the search's own noise",
    "review.picture": "Move {ply} of match #{match} as {name} saw it",
    "review.saved": "Move {ply} as {name} saw it: {path}",
    "flood.reviews_member": (
        "Your review is still being made (at most {max} at a time); ask again once it is posted."
    ),
    "flood.reviews_server": (
        "The most reviews this server may have made at once ({max}) are being made; ask "
        "again in a few minutes."
    ),
    "review.record_bad": "{file} cannot be reviewed: {why}",
}
