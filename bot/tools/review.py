"""``python -m bot review MATCH [--db …] [--record FILE] [--json] [--lang xx]``: a finished
match's review on the command line, judged in worker processes as the bot judges it.

From a database it is the bot's own review (``bot/matches/review.py``): cached in the
``reviews`` table, so the bot later serves it at once (and a review the bot made is printed
at once here). From a record file (``python -m bot export``) nothing is read or written but
the file: the match is replayed from the record's seed and moves.

Plain words by default (the review as the console shows it, without pictures); ``--json``
prints, per seat, the moments with ply, move played, better move, expected loss and
confidence, and the averages (:func:`bot.matches.review_words.review_json`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from bot.computers.pool import ComputerPool
from bot.console.plain import plain_text
from bot.matches.review import BadRecord, Review, review_source, source_of_record
from bot.matches.review_words import head_lines, review_json, seat_lines
from render.words.catalogue import t


def read_record(path: Path) -> Any:
    """The record in ``path``; :class:`BadRecord` (its words) when it is no record."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BadRecord(f"not a JSON file ({exc})") from None
    source_of_record(record)  # refuses what cannot be reviewed, before any work
    return record


def printed(review: Review, as_json: bool, lang: str) -> str:
    if as_json:
        return json.dumps(review_json(review, lang), indent=1, ensure_ascii=False)
    lines = head_lines(review, lang)[:1]
    for seat in review.seats:
        lines += ["", *seat_lines(review, seat, lang)]
    return plain_text("\n".join(lines), {})  # the words without Discord's markup


async def _progress(done: int, total: int) -> None:
    if sys.stderr.isatty():
        print(f"\r{done}/{total}", end="" if done < total else "\n", file=sys.stderr)


async def review_record(
    record: Any, *, as_json: bool, lang: str, workers: int, budget_s: float | None
) -> int:
    """The review of an exported record, nothing stored."""
    pool = ComputerPool(workers)
    try:
        review = await review_source(
            source_of_record(record), pool, budget_s=budget_s, progress=_progress
        )
    finally:
        pool.close()
    print(printed(review, as_json, lang))
    return 0


async def review_match(
    service: Any,
    match_id: int,
    *,
    as_json: bool,
    lang: str,
    workers: int,
    budget_s: float | None,
) -> int:
    """The review of a match of the database (cached there, as the bot caches it)."""
    from bot.matches.errors import ServiceError

    pool = ComputerPool(workers)
    try:
        review = await service.review(match_id, pool, progress=_progress, budget_s=budget_s)
    except ServiceError as exc:  # no such match, still running: the command's slip
        print(exc.text(lang), file=sys.stderr)
        return 2
    finally:
        pool.close()
    print(printed(review, as_json, lang))
    return 0


def bad_record(path: Path, why: str, lang: str = "en") -> str:
    return t("review.record_bad", lang, file=path, why=why)
