"""The picture pool: worker processes draw exactly what the registry draws in-process, a
renderer registered at run time works there too, a dead worker costs one picture (never a
move), and ``python -m bot load`` runs end to end on a small database."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from bot.matches.render_pool import RenderPool
from bot.tools.loadtest import run_load
from render import render_png
from rules import get_game
from tests.conftest import ALICE, BOB


async def test_worker_picture_equals_in_process_picture() -> None:
    game = get_game("azul")
    view = game.view(game.setup(2, 5), None)
    pool = RenderPool(1)
    try:
        png, busy = await pool.render("azul", view, ["Ann", "Bo"], None)
    finally:
        pool.close()
    assert png == render_png("azul", view, ["Ann", "Bo"], None)
    assert busy > 0 and pool.worker_maxrss_kb > 0


async def test_runtime_registered_renderer_and_a_killed_worker(tmp_path: Path) -> None:
    from bot.matches.service import MatchService

    service = await MatchService.open(tmp_path / "p.db", render_workers=1)
    try:
        info = await service.create_match("test-pile", ALICE, max_players=2, seed=1)
        await service.join(info.id, BOB)
        report = await service.start(info.id, ALICE)  # the test game's renderer, in a worker
        picture = await report.wait_picture()  # drawn after the commit
        assert picture and picture.startswith(b"\x89PNG")
        executor = service._pool._executor
        assert executor is not None
        for pid in list(executor._processes):  # type: ignore[attr-defined]
            os.kill(pid, signal.SIGKILL)
        # the next picture may fail (the pool broke under it) but the move stands,
        # and the one after is drawn by a fresh pool
        for _ in range(2):
            current = await service.info(info.id)
            user = ALICE if current.to_act == [ALICE.id] else BOB
            legal = await service.legal_moves(info.id, user)
            played = await service.play(info.id, user, legal[0].notation)
            assert played.ply > 0
            picture = await played.wait_picture()  # None: the pool broke under it
        assert picture and picture.startswith(b"\x89PNG")
    finally:
        await service.close()


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
async def test_load_command_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert await run_load(matches=40, seconds=1.0, rate=0.0, as_json=False) == 0
    out = capsys.readouterr().out
    assert "moves/s" in out and "service.play: p50" in out and "event-loop lag" in out
