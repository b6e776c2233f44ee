"""Computer players through the service and the driver: seats in the lobby, whole matches,
moves through ``service.play``, restarts, lost version races, hints and their count, and
an event loop that stays responsive while computers think in worker processes."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from benchmarks.computer_loop import measure
from bot.computers.driver import ComputerDriver
from bot.computers.players import is_computer, move_seed
from bot.matches.errors import BoardChanged, InvalidMove, NotAllowed
from bot.matches.service import MatchService
from rules import get_game
from tests.ai import GATE
from tests.conftest import ALICE, BOB, MALLORY


@pytest.fixture
async def driver(service: MatchService) -> AsyncIterator[ComputerDriver]:
    d = ComputerDriver(service, workers=2)
    yield d
    await d.close()


async def lobby_with_computers(
    service: MatchService, levels: tuple[str, ...], *, seed: int = 5, **settings
) -> int:
    # a short thinking time: these tests are about the plumbing, not the search's strength
    settings = {"think_seconds": 0.05, **settings}
    info = await service.create_match("test-pile", ALICE, {"size": 9}, seed=seed, settings=settings)
    for level in levels:
        await service.add_computer(info.id, ALICE, level)
    return info.id


async def human_moves(service: MatchService, match_id: int) -> bool:
    """Alice plays her first legal move if it is her turn; False when the match is over."""
    info = await service.info(match_id)
    if info.status != "running":
        return False
    if ALICE.id in info.to_act:
        moves = await service.legal_moves(match_id, ALICE)
        await service.play(match_id, ALICE, moves[0].notation)
    return True


async def test_computer_seats_in_the_lobby(service: MatchService) -> None:
    match_id = await lobby_with_computers(service, ("easy", "normal"))
    info = await service.info(match_id)
    assert info.names == ["Alice", "🤖 Ada (easy)", "🤖 Alan (normal)"]
    ids = [s.user_id for s in info.seats]
    assert ids[1:] == ["ai:easy:1", "ai:normal:2"] and all(map(is_computer, ids[1:]))
    assert not is_computer(ALICE.id)
    # refusals change nothing: full lobby, stranger, unknown level
    with pytest.raises(NotAllowed, match="full"):
        await service.add_computer(match_id, ALICE, "strong")
    with pytest.raises(NotAllowed, match="not playing"):
        await service.remove_computer(match_id, MALLORY)
    with pytest.raises(InvalidMove, match="easy, normal, strong"):
        await service.add_computer(match_id, ALICE, "godlike")
    assert (await service.info(match_id)).names == info.names
    # removing takes the latest computer; the next one gets a fresh, distinct name
    _, name = await service.remove_computer(match_id, ALICE)
    assert name == "🤖 Alan (normal)"
    info = await service.add_computer(match_id, ALICE, "strong")
    assert info.names[1:] == ["🤖 Ada (easy)", "🤖 Alan (strong)"]
    assert len(set(s.user_id for s in info.seats)) == 3
    # the last person leaving a lobby of computers closes it
    info = await service.leave(match_id, ALICE)
    assert info.status == "aborted"


async def test_strong_is_offered_only_where_it_was_measured_stronger(
    service: MatchService,
) -> None:
    from rules.ai import levels_for

    assert levels_for(get_game("azul")) == ("easy", "normal", "strong")
    assert levels_for(get_game("pastiche")) == ("easy", "normal", "strong")
    assert levels_for(get_game("taj-mahal")) == ("easy", "normal")
    info = await service.create_match("taj-mahal", ALICE, {}, seed=1)
    with pytest.raises(InvalidMove, match="Taj Mahal has no strong computer player"):
        await service.add_computer(info.id, ALICE, "strong")
    assert (await service.info(info.id)).names == ["Alice"]  # refused: nothing changed
    for game in ("azul", "pastiche"):
        match = await service.create_match(game, ALICE, {}, seed=1)
        added = await service.add_computer(match.id, ALICE, "strong")
        assert added.names[1:] == ["🤖 Ada (strong)"]


async def test_whole_matches_with_computer_seats(
    service: MatchService, driver: ComputerDriver
) -> None:
    """All computers but one person, 2 and 3 seats: every match ends, every computer move
    is a log row of its own seat and id, the log replays (so every move was legal) and the
    turn posts never ping a computer."""
    for levels in (("normal",), ("easy", "strong")):
        match_id = await lobby_with_computers(service, levels)
        await service.start(match_id, ALICE)
        for _ in range(40):
            await driver.settle()
            if not await human_moves(service, match_id):
                break
        info = await service.info(match_id)
        assert info.status == "finished", info.status_text
        rows = await service.store.moves(match_id)
        by_seat = {s.seat: s.user_id for s in info.seats}
        assert any(is_computer(r.user_id) for r in rows)
        assert all(r.user_id == by_seat[r.seat] for r in rows)
        record = await service.export_record(match_id)
        assert [p.get("computer") for p in record["players"]] == [None, *levels]
    assert await service.audit() == []
    notes = await service.store.due_notifications(now=float("inf"), limit=500)
    for note in notes:
        assert not any(is_computer(u) for u in note.payload.get("mentions", []))
        assert not is_computer(str(note.payload.get("user_id", "")))


#: Every game at every player count: one person and computer seats.
EVERY_TABLE = [
    (g, n)
    for g in ("azul", "taj-mahal", "maharani", "pastiche")
    for n in range(get_game(g).min_players, get_game(g).max_players + 1)
]


@pytest.mark.parametrize(("game_id", "players"), EVERY_TABLE)
async def test_computers_finish_every_game_through_the_service(
    game_id: str, players: int, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A real game with one person and ``players - 1`` computer seats (easy and normal
    alternating, the smallest budget: this is about the plumbing and legality, strength is
    the arena's) is played to its end through ``service.play``. Every computer move is the
    search's own choice: the driver never had to replace an illegal or failed decision
    (it would log a warning), and the log replays (audit)."""
    svc = await MatchService.open(tmp_path / "bot.db", render=False)
    drv = ComputerDriver(svc, workers=2)
    try:
        info = await svc.create_match(
            game_id, ALICE, {}, seed=players, max_players=players, settings={"think_seconds": 0.05}
        )
        levels = [("easy", "normal")[k % 2] for k in range(players - 1)]
        for level in levels:
            info = await svc.add_computer(info.id, ALICE, level)
        await svc.start(info.id, ALICE)
        for _ in range(400):
            await drv.settle()
            if not await human_moves(svc, info.id):
                break
        info = await svc.info(info.id)
        assert info.status == "finished", info.status_text
        rows = await svc.store.moves(info.id)
        computer_moves = [r for r in rows if is_computer(r.user_id)]
        assert {r.seat for r in computer_moves} == set(range(players)) - {info.seat_of(ALICE.id)}
        assert await svc.audit() == []
        complaints = [r for r in caplog.records if r.name.startswith("bot.computer")]
        assert [r for r in complaints if r.levelno >= logging.WARNING] == []
    finally:
        await drv.close()
        await svc.close()


async def test_computer_moves_are_reproducible(tmp_path: Path) -> None:
    """The same match (seed) with the same person's moves gets the same computer moves:
    the computer's seed is derived from match seed, ply and seat only."""
    logs = []
    for run in range(2):
        svc = await MatchService.open(tmp_path / f"r{run}.db", render=False)
        drv = ComputerDriver(svc, workers=1)
        try:
            match_id = await lobby_with_computers(svc, ("normal", "normal"), seed=11)
            await svc.start(match_id, ALICE)
            for _ in range(40):
                await drv.settle()
                if not await human_moves(svc, match_id):
                    break
            logs.append([(r.seat, r.notation) for r in await svc.store.moves(match_id)])
        finally:
            await drv.close()
            await svc.close()
    assert logs[0] == logs[1] and len(logs[0]) > 3
    assert move_seed(11, 3, 1) == move_seed(11, 3, 1) != move_seed(11, 3, 2)


async def test_restart_picks_up_a_pending_computer_turn(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    svc = await MatchService.open(db, render=False)
    match_id = await lobby_with_computers(svc, ("easy",))
    await svc.start(match_id, ALICE)
    await human_moves(svc, match_id)  # now the computer is to act, and the bot "dies"
    assert any(is_computer(u) for u in (await svc.info(match_id)).to_act)
    plies = len(await svc.store.moves(match_id))
    await svc.close()

    svc = await MatchService.open(db, render=False)
    drv = ComputerDriver(svc, workers=1)
    try:
        assert await drv.pending() == [match_id]
        runner = asyncio.create_task(drv.run_forever(interval=3600))  # sweeps at start
        for _ in range(500):
            if len(await svc.store.moves(match_id)) > plies:
                break
            await asyncio.sleep(0.01)
        runner.cancel()
        rows = await svc.store.moves(match_id)
        assert is_computer(rows[plies].user_id) and rows[plies].ply == plies + 1
        assert await drv.pending() == []
    finally:
        await drv.close()
        await svc.close()


async def test_a_stale_computer_move_loses_the_race_and_is_recomputed(
    service: MatchService, driver: ComputerDriver
) -> None:
    """Two drivers (two bot processes) decide the same turn: one commit wins, the other
    fails on the version check, and replaying a stale decision never applies twice."""
    match_id = await lobby_with_computers(service, ("normal", "normal"))
    await service.start(match_id, ALICE)
    await human_moves(service, match_id)
    other = ComputerDriver(service, workers=1)
    try:
        turn = await service.computer_turn(match_id)
        assert turn is not None
        stale = await driver.pool.choose(
            turn.game_id,
            turn.view,
            turn.seat,
            turn.level,
            seed=turn.seed,
            budget_s=turn.budget_s,
            history=turn.history,
        )
        await other.play_turn(match_id)  # the other process was faster
        before = await service.store.moves(match_id)
        with pytest.raises(BoardChanged):
            await service.play(match_id, turn.user, stale, expected_version=turn.version)
        assert await service.store.moves(match_id) == before

        # the driver itself: a decision overtaken while thinking is recomputed
        decide = driver._decide
        raced: list[object] = []
        still: list[bool] = []  # after the overtaking move, is a computer still to act?

        async def overtaken(t):
            notation = await decide(t)
            if not raced:
                raced.append(await other.play_turn(match_id))
                still.append(await service.computer_turn(match_id) is not None)
            return notation

        driver._decide = overtaken  # type: ignore[method-assign]
        if (await service.computer_turn(match_id)) is None:
            await human_moves(service, match_id)
        plies = len(await service.store.moves(match_id))
        await driver.play_turn(match_id)
        rows = await service.store.moves(match_id)
        assert raced and raced[0] is not None
        assert [r.ply for r in rows] == list(range(1, len(rows) + 1))
        # the overtaking move, then (recomputed) the next computer's move if one was due
        assert len(rows) == plies + 1 + int(still[0])
        assert all(is_computer(r.user_id) for r in rows[plies:])
        assert await service.audit() == []
    finally:
        await other.close()


async def test_hints_counted_private_while_running_listed_when_over(
    service: MatchService, driver: ComputerDriver
) -> None:
    match_id = await lobby_with_computers(service, ("easy",))
    await service.start(match_id, ALICE)
    await driver.settle()
    version, hints = await driver.hints(match_id, ALICE)
    legal = {m.notation for m in await service.legal_moves(match_id, ALICE)}
    assert len(hints) == 3 and all(h.move.notation in legal and h.reason for h in hints)
    assert version == (await service.info(match_id)).version
    record = await service.export_record(match_id)
    assert "hints_used" not in record and "hints" not in str(record["moves"])
    with pytest.raises(NotAllowed, match="not playing"):
        await driver.hints(match_id, MALLORY)
    await service.play(match_id, ALICE, hints[0].move.notation, expected_version=version)
    if (await service.info(match_id)).to_act == [ALICE.id]:
        with pytest.raises(NotAllowed, match="not your turn|own decisions"):
            await driver.hints(match_id, BOB)
    for _ in range(40):
        await driver.settle()
        info = await service.info(match_id)
        if info.status != "running":
            break
        await driver.hints(match_id, ALICE)
        await human_moves(service, match_id)
    record = await service.export_record(match_id)
    assert record["status"] == "finished"
    used = record["hints_used"]
    assert used[1] == 0 and used[0] >= 2


async def test_hints_off_refuses_with_a_reason(
    service: MatchService, driver: ComputerDriver
) -> None:
    match_id = await lobby_with_computers(service, ("easy",), hints=False)
    await service.start(match_id, ALICE)
    await driver.settle()
    with pytest.raises(NotAllowed, match="Hints are turned off"):
        await driver.hints(match_id, ALICE)
    assert "hints_used" not in (await service.info(match_id)).settings


async def test_computers_think_in_worker_processes_while_the_loop_serves_people(
    service: MatchService,
) -> None:
    """Four matches wait for a computer seat whose thinking does not finish until the test
    opens a gate. Meanwhile, on the same event loop, two people create, start and play a
    match of their own: that only works if the thinking is off the loop (on the loop the
    gate would never open and the thinker gives up after a minute, failing the test). The
    thinkers write their process ids: never the bot's own process, so not threads either
    (a Python search in a thread holds the GIL and takes the loop's time). No clock is
    asserted: the gate, not a timing, decides the order."""
    shutil.rmtree(GATE, ignore_errors=True)
    GATE.mkdir()
    drv = ComputerDriver(service, workers=2, chooser="tests.ai:gated_choose_move")
    try:
        ids = []
        for n in range(4):
            info = await service.create_match(
                "test-pile", ALICE, {"size": 9}, seed=n, settings={"think_seconds": 0.05}
            )
            await service.add_computer(info.id, ALICE, "normal")
            await service.start(info.id, ALICE)
            await human_moves(service, info.id)
            ids.append(info.id)
        assert sorted(await drv.pending()) == ids
        settling = asyncio.create_task(drv.settle())

        async def thinkers() -> list[Path]:
            while len(found := list(GATE.glob("thinking-*"))) < 2:
                await asyncio.sleep(0.01)
            return found

        await asyncio.wait_for(thinkers(), 60)  # both workers are inside a search now
        people = await service.create_match("test-pile", ALICE, {"size": 9}, seed=9)
        await service.join(people.id, BOB)
        await service.start(people.id, ALICE)
        started = (await service.info(people.id)).version
        for who in (ALICE, BOB):
            if who.id in (await service.info(people.id)).to_act:
                moves = await service.legal_moves(people.id, who)
                await service.play(people.id, who, moves[0].notation)
        assert (await service.info(people.id)).version > started  # a move was played
        assert not settling.done()  # the computers are still thinking, gate closed
        (GATE / "open").touch()
        assert await asyncio.wait_for(settling, 60) == 4
        pids = {int(f.name.split("-")[1]) for f in GATE.glob("thinking-*")}
        assert pids and os.getpid() not in pids
    finally:
        await drv.close()


async def test_the_loop_benchmark_plays_people_and_computers_side_by_side() -> None:
    """``python -m benchmarks.computer_loop`` (the README's loop-lag figure with computers
    thinking) keeps working: in a short run at a tiny budget both the people and the
    computers move and a finished match is replaced. Its timings are printed by the
    benchmark, never asserted here."""
    args = argparse.Namespace(
        seconds=6.0, budget=0.02, ai_workers=2, games="test-pile,test-pile", no_pictures=True
    )
    report = await measure(args)
    assert report["people_play_ms"]["moves"] > 0 and report["computer_moves"] > 0
    assert report["matches_finished"] > 0
    assert report["loop_lag_ms"]["ticks"] > 0


def test_every_game_and_level_is_known_to_the_computer_pool() -> None:
    from rules.ai import LEVELS
    from rules.registry import game_ids, game_target

    assert LEVELS == ("easy", "normal", "strong")
    for gid in game_ids():
        assert get_game(gid).id == gid and ":" in game_target(gid)


async def test_console_plays_against_computers_and_takes_hints(
    service: MatchService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.console import Console

    # a fixed match seed
    monkeypatch.setattr("bot.matches.lobby.secrets.randbits", lambda bits: 5)

    console = Console(service, tmp_path / "pics", ComputerDriver(service, workers=1))
    try:
        out = await console.run_line("alice> /game new test-pile bots=3 size=5")
        assert "computer seats left beside you: 2" in out[0]
        out = await console.run_line("alice> /game new test-pile bots=1 level=godlike")
        assert "easy, normal, strong" in out[0]
        out = await console.run_line("alice> /game new taj-mahal bots=1 level=strong")
        assert "Taj Mahal has no strong computer player" in out[0]
        assert await service.list_matches() == []  # refusals made nothing
        await console.run_line("alice> /game new test-pile bots=1 level=easy size=12")
        await service.update_settings(console.current or 0, think_seconds=0.05)
        out = await console.run_line("alice> /game bot strong")
        assert "🤖 Alan (strong) takes a seat" in out[0]
        out = await console.run_line("alice> /game unbot")
        assert out == [f"🤖 Alan (strong) left match #{console.current}."]
        out = await console.run_line("alice> /game start")
        # the computer moved by itself when it was its turn; now it is Alice's
        assert (await service.info(console.current or 0)).to_act == ["console:alice"]
        assert console.current is not None
        rows = await service.store.moves(console.current)
        if rows:
            assert rows[0].user_id == "ai:easy:1" and "🤖 Ada (easy):" in "\n".join(out)
        out = await console.run_line("alice> /hint")
        assert out[0].startswith("(private to Alice)") and len(out) == 5
        notation = out[2].split("[")[1].split("]")[0]
        plies = len(rows)
        out = await console.run_line("alice> /hint 2")
        rows = await service.store.moves(console.current)
        assert rows[plies].notation == notation and rows[plies].user_id == "console:alice"
        assert rows[plies + 1].user_id == "ai:easy:1"  # and the computer answered
        assert "pick" not in " ".join(out)
        out = await console.run_line("alice> /hint 2")
        assert "Type /hint first" in out[0]
    finally:
        await console.computers.close()


async def test_a_broken_search_never_hangs_a_match(
    service: MatchService, caplog: pytest.LogCaptureFixture
) -> None:
    """A search that fails or names an illegal move is logged, and the seat plays one of its
    own legal moves instead; a failed hint is a polite refusal, not counted."""
    drv = ComputerDriver(
        service,
        workers=1,
        chooser="tests.ai:broken_choose_move",
        suggester="tests.ai:broken_suggest",
    )
    try:
        match_id = await lobby_with_computers(service, ("normal", "easy"))
        await service.start(match_id, ALICE)
        for _ in range(40):
            await drv.settle()
            info = await service.info(match_id)
            if info.status != "running":
                break
            with pytest.raises(NotAllowed, match="No hint could be found"):
                await drv.hints(match_id, ALICE)
            await human_moves(service, match_id)
        assert (await service.info(match_id)).status == "finished"
        assert await service.audit() == []
        assert "hints_used" not in (await service.info(match_id)).settings
        messages = " ".join(r.getMessage() for r in caplog.records)
        assert "computer player failed" in messages and "illegal move" in messages
    finally:
        await drv.close()
