"""What the stored rows of a match mean: the moves still in force (undo rows cancel
moves), the label words a move row keeps, what a move did in the public's words (its told
sentence), the end of a match in words, and its final ranking.

The final ranking is one value: :func:`final_result` computes it once, in the transaction
that ends the match (a last move: ``turns.py``; a match ended early: ``seats.py``), and it
is stored as the match's ``result``. Every surface reads that stored value and never the
game's own outcome, which knows nothing of a seat given up: the result text
(``render.words.posts.result_text``), the final picture and the replay's last board
(:func:`picture_end` puts its ranks into the view they are drawn from), the replay's
standings, the score chart, the game record and the ratings (``bot/community/ratings.py``).
``tests/test_rankings_agree.py`` reads all of them back for every game and ending.

Pure functions of stored rows: no I/O, no service state. Read by the service's parts,
the animated replays (``bot/matches/replay.py``) and the score chart.
"""

from __future__ import annotations

from typing import Any

from bot.storage import MatchRow, MoveRow, NewMove
from render.words.catalogue import t
from render.words.posts import end_summary
from render.words.say import say
from rules import Event, Game, Told
from rules.base import fill_names, rank_by
from rules.words import is_words, to_json


def match_ending(match: MatchRow, lang: Any = None) -> dict[str, Any] | None:
    """What a picture of ``match`` says of its end in ``lang`` (see :func:`end_summary`);
    shared by the board pictures and the replays."""
    return end_summary(
        match.status,
        match.result,
        match.end_reason,
        match.names,
        lang,
        match.settings.get("end_words"),
    )


def final_ranking(match: MatchRow) -> dict[str, Any] | None:
    """The stored final ranking of a finished match — ``{"ranks", "winners"}``, the ranks
    per seat (shared places repeat) — or None (running, aborted, no result)."""
    result = match.result
    if match.status != "finished" or not result:
        return None
    ranks = [int(r) for r in result.get("ranks", ())]
    if len(ranks) != len(match.seats):
        return None
    return {"ranks": ranks, "winners": [int(s) for s in result["winners"]]}


def picture_end(match: MatchRow, lang: Any = None) -> dict[str, Any]:
    """What the service adds to the public view of an ended match for its picture (and
    the replay's last board): ``ended`` (:func:`match_ending`: what happened, where the
    board would say whose turn it is) and ``ranking`` (:func:`final_ranking`: the places
    the picture draws). Why the service's ranking and not the view's own outcome: the game
    does not know who gave a seat up, so its outcome ranks a resigned seat by its score
    while the result ranks it last (``render.common.ended_view`` applies both)."""
    extra: dict[str, Any] = {}
    ending = match_ending(match, lang)
    if ending:
        extra["ended"] = ending
    ranking = final_ranking(match)
    if ranking:
        extra["ranking"] = ranking
    return extra


def final_result(
    game: Game,
    state: dict[str, Any],
    given_up: list[tuple[int, str]] | list[tuple[int, str, str]],
    ended_by: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The match's final result — its one ranking — when it ends in ``state``: the game's
    own outcome when the game is over, else (``ended_by``: the words of what ended it
    early, "Bob resigned") the current scores; either way with the seats ``given_up``
    ranked last (:func:`rank_resigned_last`). Stored as the match's ``result`` in the
    transaction that ends it, and read from there by every surface (module docstring)."""
    if ended_by is None:
        outcome = game.outcome(state)
        if outcome is None:
            raise ValueError("final_result of a game that is not over, without ended_by")
        result: dict[str, Any] = outcome.to_json()
        if is_words(result["reason"]):  # stored with its words, for any language
            result["reason_msg"] = to_json(result["reason"])
    else:
        scores = game.scores(state)
        ranks = rank_by([(scores[s],) for s in range(len(scores))])
        result = {
            "scores": scores,
            "ranks": ranks,
            "winners": [s for s, r in enumerate(ranks) if r == 1],
            "reason": "",
            "details": [],
        }
    result = rank_resigned_last(result, given_up)
    if ended_by is not None:
        result["ended_by"] = stored_english(ended_by)
        result["ended_by_words"] = ended_by
    return result


def effective_moves(rows: list[MoveRow]) -> list[MoveRow]:
    """The game moves still in force: 'undo' rows cancel the latest game move before them."""
    kept: list[MoveRow] = []
    for row in rows:
        if row.kind == "move":
            kept.append(row)
        elif row.kind == "undo" and kept:
            kept.pop()
    return kept


def events_json(events: list[Event]) -> list[dict[str, Any]]:
    return [e.to_json(include_secret=True) for e in events]


#: The kind of the entry a move row's events end with when its label is words: the label's
#: message (``msg``), so /history and the picture's band can say the move in any language.
#: Not an event of the game: records leave it out (:meth:`MatchService.export_record`).
LABEL_EVENT = "label"


def label_event(label_words: Any) -> list[dict[str, Any]]:
    if label_words is None:
        return []
    return [{"kind": LABEL_EVENT, "text": "", "data": {}, "msg": label_words}]


def stored_english(words: Any, names: list[str] | None = None) -> str:
    """The English a stored row or post keeps beside its words, said from them where it is
    written (with ``names`` where the words name seats; a legacy English label with
    ``{pN}`` gets the names filled in).

    Why a stored copy stays although the words could be said again: rows and posts written
    before words were kept hold only the English, so readers (``/history``, records, audit,
    delivery, the console) read that column; a bot of the previous version sharing the same
    PostgreSQL during an upgrade reads it too; and logs and records are English."""
    return say(words, None, names)


def move_row(
    kind: str,
    seat: int,
    user_id: str,
    notation: str,
    label: Any,
    events: list[dict[str, Any]],
    names: list[str] | None = None,
) -> NewMove:
    """A move row of ``label`` (the rules' words, their JSON form, or a legacy English
    label with ``{pN}``): the ``label`` column in English (:func:`stored_english`; a
    message of the rules is said through the English cache of ``render.words.say``) and,
    when the label is words, the trailing :func:`label_event` that keeps them."""
    english = stored_english(label, names)
    return NewMove(kind, seat, user_id, notation, english, events + label_event(words_of(label)))


def words_of(label: Any) -> dict[str, Any] | None:
    """A label's words in their JSON form (None: a legacy English label)."""
    if is_words(label):
        words: dict[str, Any] = to_json(label)
        return words
    return label if isinstance(label, dict) else None


def label_words_of(events: list[dict[str, Any]]) -> Any:
    """The label's words a move row keeps (None for a row stored before, or a legacy label)."""
    for e in reversed(events):
        if e.get("kind") == LABEL_EVENT and "msg" in e:
            return e["msg"]
    return None


def rank_resigned_last(
    result: dict[str, Any], resigned: list[tuple[int, str]] | list[tuple[int, str, str]]
) -> dict[str, Any]:
    """The result with the seats given up (``(seat, name)`` or ``(seat, name, how)``,
    earliest first; ``how`` is "forfeit" for a seat whose clock ran out) ranked below
    everyone else whatever they scored — the earliest resigner last — and the others in
    the game's own order among themselves; winners follow the new ranks. The resigners'
    names are kept in the result, since a resigned seat's holder has changed."""
    if not resigned:
        return result
    order = list(dict.fromkeys(entry[0] for entry in resigned))
    ranks = result["ranks"]
    keys = [(0, order.index(s)) if s in order else (1, -ranks[s]) for s in range(len(ranks))]
    new_ranks = rank_by(keys)
    names = {entry[0]: entry[1] for entry in resigned}
    forfeits = {entry[0] for entry in resigned if entry[2:] == ("forfeit",)}
    return {
        **result,
        "ranks": new_ranks,
        "winners": [s for s, r in enumerate(new_ranks) if r == 1],
        "gave_up": [
            {"seat": s, "name": names[s], **({"how": "forfeit"} if s in forfeits else {})}
            for s in order
        ],
    }


#: The label words of a move the bot made for a seat whose clock ran out.
TIMED_LABEL = "clock.timed_label"


def told_words(told: Told | None, label_words: Any) -> Any:
    """A move's public sentence in its stored form (:func:`rules.words.to_json`; a game
    still writing English: its English with ``{pN}``), marked "(out of time)" where the
    label says the bot made the move for a late seat; None when the game did not tell the
    move."""
    if told is None:
        return None
    words: Any = to_json(told.words)
    if isinstance(label_words, dict) and label_words.get("key") == TIMED_LABEL:
        return {"key": "clock.timed_told", "params": {"told": words}}
    return words


def tell_events(game: Game, seat: int, notation: str, events: list[Event], label_words: Any) -> Any:
    """:func:`told_words` of a move with these public events (None: the game cannot tell
    it — data of an older version it no longer reads, words kept only in English)."""
    try:
        told = game.tell(seat, notation, events)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return None
    return told_words(told, label_words)


def tell_row(game: Game, row: MoveRow) -> Any:
    """The public sentence of a stored move row, from its public events (the same words
    the turn post said when it was made; a row stored before sentences existed is told
    from its events alike). None for a row that is no game move, or whose events the
    game cannot tell (an old row whose events kept only English)."""
    if row.kind != "move":
        return None
    events = [Event.from_public_json(e) for e in row.events if e.get("kind") != LABEL_EVENT]
    return tell_events(game, row.seat, row.notation, events, label_words_of(row.events))


def row_label(row: MoveRow, names: list[str], lang: Any) -> str:
    """Today's words of a log row: "Bob: <label>" for a move (the label words, or the
    English label of a row stored before words were kept), else its label."""
    kept = label_words_of(row.events)
    label = fill_names(row.label, names) if kept is None else say(kept, lang, names)
    if row.kind != "move":
        return label
    if 0 <= row.seat < len(names):
        return f"{names[row.seat]}: {label}"
    return f"{t('history.seat', lang, seat=row.seat + 1)}: {label}"


def row_said(game: Game, row: MoveRow, names: list[str], lang: Any) -> str:
    """What a log row did, for the public: a move's told sentence ("Bob took 2 blue from
    factory 3 to line 4.") in ``lang``; where the game cannot tell it, :func:`row_label`."""
    told = tell_row(game, row)
    return say(told, lang, names) if told is not None else row_label(row, names, lang)
