"""The picture follows the move: ``service.play`` answers once the move is committed, the
public picture is drawn behind it, a match's older picture still waiting for a worker is
dropped for its newest state, and a turn post carries the board of the state it describes
or says that the next post shows it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bot.matches.reports import User
from bot.matches.service import MatchService
from render.words.catalogue import t
from tests.conftest import ALICE, BOB
from tests.discord_harness import running


async def _started(service: MatchService) -> int:
    info = await service.create_match("test-pile", ALICE, max_players=2, seed=1)
    await service.join(info.id, BOB)
    report = await service.start(info.id, ALICE)
    await report.wait_picture()
    return info.id


async def _mover(service: MatchService, match_id: int) -> User:
    info = await service.info(match_id)
    return ALICE if info.to_act == [ALICE.id] else BOB


def _gate(service: MatchService) -> tuple[asyncio.Event, list[Any]]:
    """Hold every picture handed to the pool until the gate opens; record what was drawn."""
    gate = asyncio.Event()
    drawn: list[Any] = []
    submit = service._pool._submit

    def held(game_id: str, view: dict[str, Any], *args: Any) -> Any:
        executor, future = submit(game_id, view, *args)

        async def after_gate() -> Any:
            await gate.wait()
            drawn.append(view)
            return await future

        return executor, asyncio.ensure_future(after_gate())

    service._pool._submit = held  # type: ignore[method-assign]
    return gate, drawn


async def test_play_answers_before_the_picture_is_drawn(tmp_path: Path) -> None:
    service = await MatchService.open(tmp_path / "f.db", render_workers=1, render_processes=False)
    try:
        match_id = await _started(service)
        gate, drawn = _gate(service)
        user = await _mover(service, match_id)
        legal = await service.legal_moves(match_id, user)
        report = await service.play(match_id, user, legal[0].notation)
        # committed and answered while the picture is still held at the gate
        assert (await service.info(match_id)).version == report.match.version
        assert report.picture is None and report.picture_task is not None
        await asyncio.sleep(0.05)
        assert not report.picture_task.done()
        gate.set()
        png = await report.wait_picture()
        assert png is not None and png.startswith(b"\x89PNG")
        # the picture shows that move: its header band names it (the view carried it)
        assert drawn[-1]["last_move"] == f"{user.name}: {legal[0].label}"
        assert png == await service.picture(match_id)  # cached: the same picture
    finally:
        await service.close()


async def test_a_backed_up_queue_keeps_only_the_newest_picture(tmp_path: Path) -> None:
    service = await MatchService.open(tmp_path / "q.db", render_workers=1, render_processes=False)
    try:
        match_id = await _started(service)
        gate, drawn = _gate(service)
        reports = []
        for _ in range(5):
            user = await _mover(service, match_id)
            legal = await service.legal_moves(match_id, user)
            reports.append(await service.play(match_id, user, legal[0].notation))
            await asyncio.sleep(0)  # let the picture task queue up
        gate.set()
        pictures = [await r.wait_picture() for r in reports]
        # one worker has 2 slots: at most two pictures were already drawing when the queue
        # backed up; every other older one was dropped, and the newest is always drawn
        assert pictures[-1] is not None
        assert len(drawn) <= 3
        assert sum(p is None for p in pictures) == 5 - len(drawn) >= 2
        assert service.render_stats.dropped == 5 - len(drawn)
        newest = reports[-1].ply
        assert await service.turn_picture(match_id, newest) == pictures[-1]
        assert await service.turn_picture(match_id, newest - 1) is None  # moved on
    finally:
        await service.close()


async def test_turn_posts_carry_the_newest_board_or_say_it_follows(tmp_path, monkeypatch) -> None:
    from tests.test_discord_commands import mover, started

    async with running(tmp_path, monkeypatch) as h:
        match_id, thread = await started(h)
        for _ in range(2):  # two moves before the outbox runs (e.g. Discord was slow)
            on, _off = await mover(h, match_id)
            await h.service.play(match_id, on, "draw")
        await h.deliver()
        posts = [
            c
            for c in h.fake.calls
            if c.path == "/channels/{channel_id}/messages" and f"/{thread}/" in c.url
        ]
        older, newer = posts[-2:]
        note = t("post.picture_next")
        assert note in older.content and older.files == []
        assert note not in newer.content
        last = len(await h.service.store.moves(match_id))
        assert newer.files == [f"match-{match_id}-{last}.png"]
