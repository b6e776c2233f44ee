"""The score chart: its numbers are the scores of the replayed log, and it is posted once
after the final result."""

from __future__ import annotations

import io
import random
from pathlib import Path

from PIL import Image

from bot.matches.score_chart import chart_of, chart_png, turn_scores
from bot.matches.service import MatchService
from render.chart import ScoreChart, Swing, draw_score_chart, largest_swing
from rules import get_game
from tests.ratings_helpers import play_result
from tests.reliability_helpers import on_turn, start_match

ANN, BEN, CID = "2001", "2002", "2003"


async def test_chart_values_equal_the_scores_of_the_replayed_log(tmp_path: Path) -> None:
    """A real game (Taj Mahal: multi-ply turns) played at random: chart points equal the
    scores of the states the service rebuilds at those plies (every 4th point and the last:
    each rebuild replays the log), and the last one the result. SQLite only: this is about
    the replay, not the backend."""
    service = await MatchService.open(tmp_path / "c.db", render=False)
    try:
        await _check_taj_mahal(service)
    finally:
        await service.close()


async def _check_taj_mahal(service: MatchService) -> None:
    match_id = await start_match(service, "taj-mahal", players=3, seed=5)
    rng = random.Random(8)
    while (await service.info(match_id)).status == "running":
        user = await on_turn(service, match_id)
        await service.play(
            match_id, user, rng.choice(await service.legal_moves(match_id, user)).notation
        )
    match = await service.store.get_match(match_id)
    assert match is not None and match.result is not None
    rows = await service.store.moves(match_id)
    plies, scores = turn_scores(match, rows)
    game = get_game("taj-mahal")
    assert plies[0] == 0 and plies[-1] == rows[-1].ply
    assert len(plies) < len(rows)  # several plies make one turn
    for ply, expected in list(zip(plies, scores, strict=True))[::4] + [(plies[-1], scores[-1])]:
        assert game.scores(await service.state_at(match_id, ply)) == expected
    assert scores[-1] == match.result["scores"]
    assert chart_of(match, rows).scores == scores
    png = await chart_png(service.store, match_id)
    assert png is not None
    image = Image.open(io.BytesIO(png))
    assert image.size == (1000, 560) and len(png) < 400_000


async def test_a_known_match_charts_known_points(service: MatchService) -> None:
    match_id = await play_result(service, {ANN: 3, BEN: 1, CID: 2})
    match = await service.store.get_match(match_id)
    assert match is not None
    chart = chart_of(match, await service.store.moves(match_id))
    # seat order Ann, Ben, Cid; Ann starts: one turn each
    assert chart.scores == [[0, 0, 0], [3, 0, 0], [3, 1, 0], [3, 1, 2]]
    assert chart.swing == Swing(index=1, seat=0, change=3)  # the last turn is the end's
    assert chart.end == Swing(index=3, seat=2, change=2)
    assert chart.title == f"Match #{match_id} · Pile: scores after every turn"


def test_the_largest_swing_counts_turns_and_the_end_is_marked_apart() -> None:
    """The last turn holds the end-of-game scoring (Azul's bonuses: +20 here), so the
    largest swing is of the turns before it; the end is its own mark."""
    chart = ScoreChart("t", ["Ann", "Ben"], [[0, 0], [2, 0], [2, 7], [5, 7], [25, 12]])
    assert chart.swing == Swing(2, 1, 7)
    assert chart.end == Swing(4, 0, 20)
    assert ScoreChart("t", ["Ann"], [[0], [4]]).swing is None  # one turn: the end only
    assert ScoreChart("t", ["Ann"], [[0], [4]]).end == Swing(1, 0, 4)
    assert ScoreChart("t", ["Ann"], [[0]]).end is None


def test_largest_swing_counts_losses_and_keeps_the_earliest_of_equals() -> None:
    assert largest_swing([[0, 0], [0, 0]]) is None
    assert largest_swing([[0, 0], [2, 0], [2, -5], [7, -5]]) == Swing(2, 1, -5)
    assert largest_swing([[0], [4], [8]]) == Swing(1, 0, 4)


def test_the_chart_draws_each_player_in_their_colour() -> None:
    chart = ScoreChart("t", ["Ann", "Ben"], [[0, 0], [5, 1], [6, 9]])
    image = Image.open(io.BytesIO(draw_score_chart(chart))).convert("RGB")
    colours = {c for _, c in image.getcolors(1 << 16) or []}
    from render.common import HIGHLIGHT, player_colour

    for hex_colour in (player_colour(0), player_colour(1), HIGHLIGHT):
        rgb = tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
        assert any(sum(abs(a - b) for a, b in zip(c, rgb, strict=True)) < 12 for c in colours)


async def test_the_chart_is_queued_after_the_final_post_only(service: MatchService) -> None:
    match_id = await play_result(service, {ANN: 3, BEN: 1})
    cur = await service.store._reader.execute(
        "SELECT kind FROM outbox WHERE match_id = ? ORDER BY id", (match_id,)
    )
    kinds = [k for (k,) in await cur.fetchall()]
    assert kinds[-2:] == ["turn", "chart"] and kinds.count("chart") == 1
