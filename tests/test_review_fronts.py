"""``/review`` in the console and ``python -m bot review`` (the database's match, a record
file, ``--json``, refusals naming what is allowed). The judging runs the fast recording
judge of tests/review_fakes.py in threads: the point here is the front ends."""

from __future__ import annotations

import asyncio
import functools
import json
from pathlib import Path

import pytest

import bot.tools.review
from bot.__main__ import main
from bot.computers.driver import ComputerDriver
from bot.computers.pool import ComputerPool
from bot.console import Console
from bot.matches.service import MatchService
from tests import review_fakes
from tests.reliability_helpers import on_turn, start_match
from tests.review_helpers import finished_match


async def _two_matches(db: Path) -> tuple[int, int, dict[str, object]]:
    """A finished Azul match (and its record), and a running one."""
    service = await MatchService.open(db, render=False)
    try:
        done = await finished_match(service, "azul")
        running = await start_match(service, "azul")
        user = await on_turn(service, running)
        await service.play(running, user, (await service.legal_moves(running, user))[0].notation)
        return done, running, await service.export_record(done)
    finally:
        await service.close()


def test_the_command_line_review(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(
        bot.tools.review,
        "ComputerPool",
        functools.partial(ComputerPool, processes=False, reviewer=review_fakes.TARGET),
    )
    db = tmp_path / "r.db"
    done, running, record = asyncio.run(_two_matches(db))
    assert main(["review", str(done), "--db", str(db), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["match_id"] == done and len(data["seats"]) == 2
    for seat in data["seats"]:
        assert {"seat", "name", "average_loss", "decisions", "moments"} <= set(seat)
        for moment in seat["moments"]:
            assert {"ply", "played", "best", "loss", "confidence"} <= set(moment)
    assert any(seat["moments"] for seat in data["seats"])
    # the exported record, without a database: the same review (the same seeds)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["review", "--record", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["seats"] == data["seats"]
    assert main(["review", "--record", str(path), "--lang", "pl"]) == 0
    words = capsys.readouterr().out
    assert f"Analiza partii #{done}" in words and "Zagrano: " in words
    # refusals, each naming what is allowed
    for argv, said in [
        (["review"], "give the match's number (MATCH) or --record FILE"),
        (["review", "1", "--record", str(path)], "not both"),
        (["review", "--record", str(tmp_path / "none.json")], "there is no file"),
        (["review", "1", "--lang", "xx"], "choose from"),
        (["review", "x"], "a match number is a whole number"),
    ]:
        assert main(argv) == 2, argv
        assert said in capsys.readouterr().err, argv
    path.write_text(json.dumps({**record, "status": "running"}), encoding="utf-8")
    assert main(["review", "--record", str(path)]) == 2
    assert "cannot be reviewed: the record of a match that is not over" in capsys.readouterr().err
    assert main(["review", str(running), "--db", str(db)]) == 2
    assert "still being played" in capsys.readouterr().err


async def test_the_console_review(tmp_path: Path) -> None:
    service = await MatchService.open(tmp_path / "c.db", render_processes=False)
    driver = ComputerDriver(service, workers=1, processes=False)
    driver.pool.reviewer = review_fakes.TARGET
    try:
        match_id = await finished_match(service, "maharani")
        console = Console(service, tmp_path / "pictures", driver)
        out = await console.run_line(f"carol> /review {match_id}")
        text = "\n".join(out)
        assert f"Review of match #{match_id}" in text and "points lost" in text, text
        saved = sorted((tmp_path / "pictures").glob(f"match-{match_id}-review-*.png"))
        assert saved and all(str(p) in text for p in saved)
        again = await console.run_line(f"carol> /review {match_id} 2")
        assert again[0].startswith("✗")  # one match only
    finally:
        await driver.close()
        await service.close()
