"""The numbers of a match's score chart, from replaying its log (seed + moves).

Why a replay and not scores saved along the way: the log is the truth (the snapshot is a
cache of it, the audit proves it), so the chart equals the game by construction and needs
no new bookkeeping that could drift.

What a point on the chart is (the issue asks "per game, what a round means"): the scores
after each *turn*, a turn being the run of consecutive log moves by one seat (a Taj Mahal
visit's card and palace choices, a Pastiche turn's place–trade–fulfil steps are one turn;
in Azul every pick from a display is one). That needs no per-game code, so a fifth game
gets its chart for free; Azul's lines step at the wall tiling, which is where its points
really change. Point 0 is the start. Undone moves are not in the chart (the log's 'undo'
rows cancel them); a resignation or forfeit adds no move, so the last point is the score
at that moment.
"""

from __future__ import annotations

import asyncio
from typing import Any

from bot.matches.rows import effective_moves, final_ranking
from bot.storage import MatchRow, MoveRow, Store
from render.alt_text import Described, chart_alt
from render.chart import ScoreChart, draw_score_chart
from render.words.catalogue import t
from rules import get_game


def turn_scores(match: MatchRow, rows: list[MoveRow]) -> tuple[list[int], list[list[int]]]:
    """(the log ply each point stands at, the scores at each point), replayed."""
    game = get_game(match.game_id)
    state: dict[str, Any] = game.setup(len(match.seats), match.seed, match.options)
    plies, scores = [0], [list(game.scores(state))]
    moves = effective_moves(rows)
    for i, row in enumerate(moves):
        state, _ = game.apply(state, row.seat, game.parse(state, row.seat, row.notation))
        if i + 1 == len(moves) or moves[i + 1].seat != row.seat:
            plies.append(row.ply)
            scores.append(list(game.scores(state)))
    return plies, scores


def chart_of(match: MatchRow, rows: list[MoveRow], lang: str = "en") -> ScoreChart:
    """The chart's numbers: the scores replayed from the log, the places of the match's
    final ranking as stored (``bot/matches/rows.final_ranking``), never ranked again from
    the scores (a seat given up is last whatever its line says)."""
    game = get_game(match.game_id)
    _, scores = turn_scores(match, rows)
    title = t("chart.title", lang, match=match.id, game=game.name, unit=game.score_unit)
    ranking = final_ranking(match)
    return ScoreChart(title, match.names, scores, ranking["ranks"] if ranking else None)


async def chart_png(store: Store, match_id: int, lang: str = "en") -> Described | None:
    """The chart picture of a finished match (None for a match that is not finished), with
    its description in words (``render.alt_text.chart_alt``); replayed and drawn off the
    event loop."""
    match = await store.get_match(match_id)
    if match is None or match.status != "finished":
        return None
    rows = await store.moves(match_id)

    def drawn() -> Described:
        chart = chart_of(match, rows, lang)
        game = get_game(match.game_id)
        alt = chart_alt(
            match.id, game.name, chart.names, chart.scores, chart.ranks, game.score_unit, lang
        )
        return Described(draw_score_chart(chart, lang), alt)

    return await asyncio.to_thread(drawn)
