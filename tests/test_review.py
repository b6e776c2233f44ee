"""The post-game review's service part (bot/matches/review.py): every decision of a
finished match judged in the computer workers from the seat's own view, with a seed the
match seed cannot be recovered from; refused while the match runs; cached in the store
(a second review, or one after a restart, searches nothing); two at once share one
search; the words in every language. The engine's own judging is tested with the engine
(the worker here runs the fast recording judge of tests/review_fakes.py)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from bot.computers.pool import ComputerPool
from bot.matches.errors import NotAllowed
from bot.matches.review import BadRecord, review_seed, source_of_record
from bot.matches.review_words import head_lines, review_json, seat_lines
from bot.matches.service import MatchService
from bot.storage.migrations import MIGRATIONS
from bot.storage.postgres_migrations import MIGRATIONS as PG_MIGRATIONS
from bot.storage.reviews import REVIEWS_POSTGRES, REVIEWS_SQLITE
from render.words.catalogue import LANGUAGES
from rules import get_game
from tests import review_fakes
from tests.reliability_helpers import REAL_GAMES, on_turn, start_match
from tests.review_helpers import CountingJudge, finished_match, play_out


def test_the_reviews_table_is_a_step_of_both_migration_lists() -> None:
    assert REVIEWS_SQLITE in MIGRATIONS and REVIEWS_POSTGRES in PG_MIGRATIONS


async def test_each_game_judged_in_the_workers_from_the_seats_view(tmp_path: Path) -> None:
    review_fakes.RECORD_DIR.mkdir(exist_ok=True)
    service = await MatchService.open(tmp_path / "r.db", render_processes=False)
    pool = ComputerPool(2, reviewer=review_fakes.TARGET)
    try:
        for game_id in REAL_GAMES:
            match_id = await finished_match(service, game_id)
            match = await service.store.get_match(match_id)
            assert match is not None and match.status == "finished"
            seen: list[tuple[int, int]] = []

            async def progress(done: int, total: int, seen: list[tuple[int, int]] = seen) -> None:
                seen.append((done, total))

            review = await service.review(match_id, pool, progress=progress)
            moves = [r for r in await service.store.moves(match_id) if r.kind == "move"]
            assert review.searched and review.judged == len(moves) == seen[-1][1]
            assert [d for d, _ in seen] == list(range(1, len(moves) + 1))
            seeds = {review_seed(match.seed, r.ply, r.seat): r for r in moves}
            assert len(seeds) == len(moves) and match.seed not in seeds
            for seed, row in seeds.items():  # each judged in a worker, with its own seed
                pid, seat, played = (review_fakes.RECORD_DIR / str(seed)).read_text().split("\t")
                assert int(pid) != os.getpid() and (int(seat), played) == (row.seat, row.notation)
            for seat in review.seats:
                assert len(seat.moments) <= 3 and seat.decisions > 0
                assert all(m.judgement.seat == seat.seat for m in seat.moments)
            # the pictures: each moment as its seat saw it (the seat's own picture)
            if game_id == "pastiche":
                pictures = await service.review_pictures(review, "de")
                shown = {(s.seat, m.ply) for s in review.seats for m in s.moments}
                assert set(pictures) == shown and shown
                for drawn in pictures.values():  # the public board, then the seat's hand
                    assert [kind for kind, _ in drawn] == ["board", ""]
                    assert all(p.startswith(b"\x89PNG") and p.alt for _, p in drawn)
                    assert drawn[1][1].alt.startswith("Deine Hand")  # the seat's own
    finally:
        pool.close()
        await service.close()


async def test_a_running_match_is_refused_and_a_review_is_cached(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    service = await MatchService.open(db, render=False)
    judge = CountingJudge()
    try:
        running = await start_match(service, "azul")
        user = await on_turn(service, running)
        await service.play(running, user, (await service.legal_moves(running, user))[0].notation)
        with pytest.raises(NotAllowed) as refused:
            await service.review(running, judge)
        assert "still being played" in str(refused.value) and not judge.calls

        match_id = await finished_match(service, "maharani")
        # two asking at once: one search
        judge.gate.clear()
        both = asyncio.gather(service.review(match_id, judge), service.review(match_id, judge))
        await asyncio.sleep(0.05)
        judge.gate.set()
        first, second = await both
        calls = len(judge.calls)
        assert calls == first.judged and [first.searched, second.searched] == [True, False]
        assert review_json(first) == review_json(second)
        again = await service.review(match_id, judge)
        assert len(judge.calls) == calls and not again.searched
        # each decision was judged from exactly the seat's view then (and nothing else)
        game, match = get_game("maharani"), await service.store.get_match(match_id)
        assert match is not None
        given = {seed: view for (_, _, _, seed), view in zip(judge.calls, judge.views, strict=True)}
        state = await service.state_at(match_id, 0)
        for row in [r for r in await service.store.moves(match_id) if r.kind == "move"]:
            assert given[review_seed(match.seed, row.ply, row.seat)] == game.view(state, row.seat)
            state, _ = game.apply(state, row.seat, game.parse(state, row.seat, row.notation))
        # a bigger budget than the stored review's makes it again
        bigger = await service.review(match_id, judge, budget_s=first.budget_s * 2)
        assert bigger.searched and len(judge.calls) == 2 * calls
    finally:
        await service.close()
    restarted = await MatchService.open(db, render=False)  # another process, after a restart
    try:
        later = await restarted.review(match_id, judge)
        assert len(judge.calls) == 2 * calls and review_json(later) == review_json(bigger)
    finally:
        await restarted.close()


async def test_the_review_in_words_in_every_language(tmp_path: Path) -> None:
    service = await MatchService.open(tmp_path / "w.db", render=False)
    try:
        match_id = await start_match(service, "azul")
        first = (await service.info(match_id)).to_act[0]
        seat = next(s.seat for s in (await service.info(match_id)).seats if s.user_id == first)
        await service.count_hint(match_id, seat)  # a hint for the first decision (ply 1)
        await play_out(service, match_id)
        review = await service.review(match_id, CountingJudge())
        assert review.seats[seat].hint_plies == [1] and review.seats[1 - seat].hints_used == 0
        assert "Hints used at moves 1." in "\n".join(head_lines(review, "en"))
        # the exported record carries the moves too: a review of the file says the same
        record = await service.export_record(match_id)
        assert record["hint_plies"] == {str(seat): [1]}
        source = source_of_record(record)
        assert source.hint_plies == {seat: [1]} and source.hints_used[seat] == 1
        with pytest.raises(BadRecord, match="hint_plies must map each seat"):
            source_of_record({**record, "hint_plies": {"0": "x"}})
        assert any(s.moments for s in review.seats)
        for lang in LANGUAGES:
            lines = head_lines(review, lang)
            for seat in review.seats:
                lines += seat_lines(review, seat, lang)
            text = "\n".join(lines)
            assert f"#{match_id}" in text and "review." not in text, (lang, text)
        english = "\n".join(seat_lines(review, review.seats[0], "en"))
        assert "points lost" in english and "Played: " in english
        data = review_json(review)
        moment = next(m for s in data["seats"] for m in s["moments"])
        assert set(moment) >= {"ply", "played", "best", "loss", "confidence"}
    finally:
        await service.close()
