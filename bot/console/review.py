"""The console's ``/review [match]``: a finished match's review (bot/matches/review.py) in
the reader's language, each moment's picture — the position as that seat saw it — written
as a file beside the console's other pictures, as Discord attaches it."""

from __future__ import annotations

import sys

from bot.console.session import Session
from bot.matches.review_words import figure_line, head_lines, moment_lines, picture_name
from render.words.catalogue import t


async def _progress(done: int, total: int) -> None:
    """Decisions judged so far, on the terminal only (the answer comes when it is done)."""
    if sys.stderr.isatty():
        print(f"\r… {done}/{total}", end="" if done < total else "\r", file=sys.stderr)


async def review(s: Session, args: list[str]) -> list[str]:
    """``/review [match]``: the match named, else the match looked at."""
    match_id = s.match_named("review", args)
    made = await s.service.review(
        match_id,
        s.computers.pool,
        progress=_progress,
        budget_s=s.settings.review_seconds or None,
    )
    pictures = await s.service.review_pictures(made, s.lang)
    lines = head_lines(made, s.lang)[:1]
    s.picture_dir.mkdir(parents=True, exist_ok=True)
    for seat in made.seats:
        lines.append(figure_line(seat, s.lang))
        if not seat.moments:
            lines.append(t("review.no_moments", s.lang))
        for moment in seat.moments:
            lines += moment_lines(moment, made.names, s.lang)
            for kind, png in pictures.get((seat.seat, moment.ply), []):
                path = s.picture_dir / picture_name(made, seat.seat, moment.ply, kind)
                path.write_bytes(png)
                lines.append(t("review.saved", s.lang, ply=moment.ply, name=seat.name, path=path))
    return lines
