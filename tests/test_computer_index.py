"""The computer-turn index (``computer_turns``, bot/storage/computer_turns.py) agrees with a
full scan of every running match, on both backends, after random play: people's and
computers' moves, undo (with the computer moves it takes back), clocks running out (skip
and forfeit: a seat handed to a computer), resigns, a person voted into a computer's seat
and matches starting. After every step the index holds every match that waits for a
computer (no change can slip past it); once the driver has judged the changed rows, it
holds exactly those. And the migration step fills it for matches already running."""

from __future__ import annotations

import random
from pathlib import Path

from bot.computers.driver import ComputerDriver, _waits_for_computer
from bot.computers.players import is_computer
from bot.matches.errors import ServiceError
from bot.matches.reports import User
from bot.matches.service import MatchService
from bot.storage import open_store
from bot.storage.computer_turns import COMPUTER_TURNS_SQLITE
from bot.storage.migrations import MIGRATIONS
from tests.conftest import ALICE, BOB, CAROL

PEOPLE = (ALICE, BOB, CAROL)
#: people who may be voted into a seat a computer plays
NEWCOMERS = [User(str(2001 + n), f"New{n}") for n in range(40)]


async def _truly_due(service: MatchService) -> set[int]:
    """The full scan the index replaces: every running match, judged by the rules."""
    rows = await service.store.list_matches(statuses=("running",), limit=100_000)
    return {r.id for r in rows if _waits_for_computer(service.describe(r))}


async def _indexed(driver: ComputerDriver) -> tuple[set[int], set[int]]:
    """(due rows, every row) of the index."""
    due = {m.match_id for m in await driver.index.due(100_000)}
    return due, due | {m.match_id for m in await driver.index.unjudged(None, 100_000)}


async def _new_match(service: MatchService, rng: random.Random, seed: int) -> int:
    # a third of the tables are people only: their first computer comes by a resign or a
    # clock (the seat changes hands after the version: only the seat's change can mark it)
    people = rng.choice((1, 2, 3))
    computers = 0 if people == 3 else 3 - people if rng.random() < 0.7 else 2 - people or 1
    info = await service.create_match(
        "test-pile",
        ALICE,
        {"size": rng.randint(8, 20)},
        max_players=people + computers,
        seed=seed,
        guild_id=str(rng.randint(1, 9) << 22),
    )
    for person in PEOPLE[1:people]:
        await service.join(info.id, person)
    for _ in range(computers):
        await service.add_computer(info.id, ALICE, "easy")
    await service.start(info.id, ALICE)
    return info.id


async def _step(service: MatchService, rng: random.Random, match_id: int) -> None:
    """One random thing happening to a match (refusals are part of random play)."""
    info = await service.info(match_id)
    if info.status != "running":
        return
    seats = {s.user_id: s for s in info.seats}
    people = [User(u, s.name) for u, s in seats.items() if not is_computer(u)]
    action = rng.choices(
        ["move", "computer", "undo", "skip", "forfeit", "resign", "sub"],
        weights=[6, 6, 3, 1, 1, 1, 2],
    )[0]
    try:
        if action == "move" and info.to_act and not is_computer(info.to_act[0]):
            user = User(info.to_act[0], seats[info.to_act[0]].name)
            moves = await service.legal_moves(match_id, user)
            await service.play(match_id, user, rng.choice(moves).notation)
        elif action == "computer":
            # a computer's move as the driver would play it (no search: any legal move)
            turn = await service.computer_turn(match_id)
            if turn is not None:
                _, moves = await service.turn_for(match_id, turn.user)
                notation = rng.choice(moves).notation
                await service.play(match_id, turn.user, notation, expected_version=turn.version)
        elif action == "undo" and people:
            asker = rng.choice(people)
            result = await service.undo(match_id, asker)
            if not hasattr(result, "moves"):  # a request the others answer
                for other in people:
                    if other.id != asker.id:
                        await service.answer_undo(match_id, other, True)
        elif action in ("skip", "forfeit"):
            await service.expire_turn(match_id, info.version, action)
        elif action == "resign" and people:
            await service.resign(match_id, rng.choice(people))
        elif action == "sub" and people:
            deserted = [s.seat for s in info.seats if is_computer(s.user_id)]
            if deserted:
                seat, new = rng.choice(deserted), NEWCOMERS.pop()
                state = await service.propose_sub(match_id, people[0], seat, new)
                for voter in people[1:]:
                    state = await service.vote_sub(
                        match_id, voter, seat, state.proposal["id"], True
                    )
                await service.answer_sub(match_id, new, seat, state.proposal["id"], True)
    except ServiceError:
        pass


async def test_the_index_agrees_with_a_full_scan_after_random_play(
    database: str | Path,
) -> None:
    rng = random.Random(44)
    service = await MatchService.open(database, render=False)
    driver = ComputerDriver(service, workers=1, processes=False)
    try:
        matches = [await _new_match(service, rng, seed) for seed in range(6)]
        seen_due = 0
        for step in range(160):
            if step % 40 == 39:
                matches.append(await _new_match(service, rng, 100 + step))
            await _step(service, rng, rng.choice(matches))
            truth = await _truly_due(service)
            _, marked = await _indexed(driver)
            assert truth <= marked, f"step {step}: a change slipped past the index"
            if rng.random() < 0.5:  # the driver looks now (or only later: stale verdicts)
                await driver.judge_marked()
                due, marked = await _indexed(driver)
                assert due == marked == truth, f"step {step}"
                seen_due += len(truth)
        await driver.judge_marked()
        due, marked = await _indexed(driver)
        assert due == marked == await _truly_due(service)
        assert seen_due  # the walk did meet computer turns pending
        # the walk did take moves back, run clocks out, resign and vote people in
        kinds = {r.kind for m in matches for r in await service.store.moves(m)}
        assert {"move", "undo", "forfeit", "resign", "sub"} <= kinds
    finally:
        await driver.close()
        await service.close()


async def test_the_migration_fills_the_index_for_running_matches(tmp_path: Path) -> None:
    """A database from before the index: the step marks every running match with a
    computer seat (and no other) for the driver to judge."""
    db = tmp_path / "old.db"
    service = await MatchService.open(db, render=False)
    rng = random.Random(5)
    ids = [await _new_match(service, rng, seed) for seed in range(8)]
    with_computers = {
        m for m in ids if any(is_computer(s.user_id) for s in (await service.info(m)).seats)
    }
    assert 0 < len(with_computers) < len(ids)  # and tables of people only
    await service.close()
    store = await open_store(db)  # forget the index, as a database of the old schema
    await store._writer.execute("DROP TABLE computer_turns")
    before = MIGRATIONS.index(COMPUTER_TURNS_SQLITE)  # the schema just before the step
    await store._writer.execute(f"PRAGMA user_version = {before}")
    await store.close()

    service = await MatchService.open(db, render=False)  # migrates
    driver = ComputerDriver(service, workers=1, processes=False)
    try:
        _, marked = await _indexed(driver)
        assert marked == with_computers
        assert set(await driver.pending()) == await _truly_due(service)
    finally:
        await driver.close()
        await service.close()
