"""Every Maharani match stored before the refresh rule (a refresh needs a face-down marker)
keeps the old reading: a migration step gives it the house rule ``refresh_as_pass``, so a
record holding a pass still replays (audit, history, replays, reviews all rebuild from the
record). Without the step the same record no longer replays, which the test shows first."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import asyncpg

from bot.matches.service import MatchService
from bot.storage import migrations, postgres_migrations
from tests.conftest import ALICE, BOB


async def _sql(database: str | Path, *statements: str) -> None:
    if isinstance(database, Path):
        async with aiosqlite.connect(database) as conn:
            for statement in statements:
                await conn.execute(statement)
            await conn.commit()
        return
    conn = await asyncpg.connect(database)
    try:
        for statement in statements:
            await conn.execute(statement)
    finally:
        await conn.close()


def _step(scripts: list[str]) -> int:
    """The refresh step's number (found by content: parallel work may append others)."""
    return next(i for i, s in enumerate(scripts, start=1) if "refresh_as_pass" in s)


async def test_matches_stored_before_keep_the_pass(database: str | Path) -> None:
    service = await MatchService.open(database, render=False)
    old = await service.create_match(
        "maharani", ALICE, seed=3, options={"refresh_as_pass": True}, guild_id="g"
    )
    await service.join(old.id, BOB)
    await service.start(old.id, ALICE)
    info = await service.info(old.id)
    first = ALICE if info.to_act[0] == ALICE.id else BOB
    await service.play(old.id, first, "refresh")  # a pass, as the old reading allowed
    azul = await service.create_match("azul", ALICE, seed=3, guild_id="g")
    await service.close()
    # the database as the code before the rule wrote it: no such option, no such step
    strip_lite = "json_remove(options, '$.refresh_as_pass')"
    strip_pg = "(options::jsonb - 'refresh_as_pass')::text"
    lite = isinstance(database, Path)
    before = _step(migrations.MIGRATIONS if lite else postgres_migrations.MIGRATIONS) - 1
    await _sql(
        database,
        f"UPDATE matches SET options = {strip_lite if lite else strip_pg}",
        f"PRAGMA user_version = {before}"
        if lite
        else f"DELETE FROM schema_version WHERE version > {before}",
    )
    service = await MatchService.open(database, render=False)  # migrates
    try:
        assert await service.audit() == []  # the record with the pass replays
        assert (await service.info(old.id)).options["refresh_as_pass"] is True
        assert "refresh_as_pass" not in (await service.info(azul.id)).options
        new = await service.create_match("maharani", ALICE, seed=3, guild_id="g")
        assert (await service.info(new.id)).options["refresh_as_pass"] is False
    finally:
        await service.close()


async def test_without_the_step_the_old_record_would_not_replay(tmp_path: Path) -> None:
    database = tmp_path / "t.db"
    service = await MatchService.open(database, render=False)
    match = await service.create_match(
        "maharani", ALICE, seed=3, options={"refresh_as_pass": True}, guild_id="g"
    )
    await service.join(match.id, BOB)
    await service.start(match.id, ALICE)
    info = await service.info(match.id)
    await service.play(match.id, ALICE if info.to_act[0] == ALICE.id else BOB, "refresh")
    await service.close()
    await _sql(database, "UPDATE matches SET options = json_remove(options, '$.refresh_as_pass')")
    service = await MatchService.open(database, render=False)  # the step has run already
    try:
        problems = await service.audit()
        assert [p.match_id for p in problems] == [match.id]
        assert "nothing to refresh" in problems[0].problem
    finally:
        await service.close()
