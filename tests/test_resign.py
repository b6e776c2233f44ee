"""Resigning: with two players the other wins; with three or more a computer player takes
the seat and plays it to the end through the computer driver, and the resigner is ranked
last whatever the seat scores. Every real game at every player count from three up."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.computers.driver import ComputerDriver
from bot.computers.players import is_computer
from bot.matches.errors import NotAllowed
from bot.matches.reports import User
from bot.matches.rows import rank_resigned_last
from bot.matches.service import MatchService
from render.words.posts import result_text
from rules import get_game
from rules.rng import Rng
from tests.conftest import ALICE, BOB

USERS = [User(f"30{i}", n) for i, n in enumerate(["Ann", "Bob", "Cid", "Dee", "Eve"], 1)]

#: (game, players, the match's computer level or None for the default): every real game
#: at every count from three up; the level setting is exercised on some, the default on
#: the others
CASES = [
    ("azul", 3, None),
    ("azul", 4, "easy"),
    ("taj-mahal", 3, "easy"),
    ("taj-mahal", 4, "easy"),
    ("taj-mahal", 5, "easy"),
    ("maharani", 3, None),
    ("maharani", 4, None),
    ("pastiche", 3, "easy"),
    ("pastiche", 4, "easy"),  # normal searches many Pastiche decisions: ~40 s here
]


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[MatchService]:
    svc = await MatchService.open(tmp_path / "r.db", render=False)
    yield svc
    await svc.close()


@pytest.fixture
async def driver(service: MatchService) -> AsyncIterator[ComputerDriver]:
    # threads, not processes: these tests are about who holds the seat, not the search
    d = ComputerDriver(service, workers=1, processes=False)
    yield d
    await d.close()


async def start(service: MatchService, game_id: str, n: int, level: str | None) -> int:
    settings = {"think_seconds": 0.05} | ({"level": level} if level else {})
    info = await service.create_match(
        game_id, USERS[0], max_players=n, seed=31 + n, settings=settings
    )
    for user in USERS[1:n]:
        await service.join(info.id, user)
    await service.start(info.id, USERS[0])
    return info.id


async def people_move(service: MatchService, match_id: int, picker: Rng) -> bool:
    """One random legal move by a person whose decision it is; False once the match is
    over or only a computer is waiting."""
    info = await service.info(match_id)
    if info.status != "running":
        return False
    people = [u for u in USERS if u.id in info.to_act]
    if not people:
        return False
    user = people[0]
    legal = await service.legal_moves(match_id, user)
    await service.play(match_id, user, legal[picker.below(len(legal))].notation)
    return True


async def last_turn_post(service: MatchService) -> dict:
    cur = await service.store._reader.execute(
        "SELECT payload FROM outbox WHERE kind = 'turn' ORDER BY id DESC LIMIT 1"
    )
    (payload,) = await cur.fetchone()
    return json.loads(payload)


@pytest.mark.parametrize(("game_id", "n", "level"), CASES)
async def test_resigned_seat_is_played_out_by_a_computer(
    service: MatchService, driver: ComputerDriver, game_id: str, n: int, level: str | None
) -> None:
    match_id = await start(service, game_id, n, level)
    picker = Rng.from_seed(n, game_id)
    for _ in range(2 * n):  # a few moves first: the resign comes mid-game
        await people_move(service, match_id, picker)
    bob = USERS[1]
    report = await service.resign(match_id, bob)

    # the match goes on; the seat is a computer's, at the match's level (default normal)
    info = report.match
    assert info.status == "running"
    holder = info.seats[1]
    assert is_computer(holder.user_id) and holder.user_id.split(":")[1] == (level or "normal")
    assert info.seat_of(bob.id) is None and "Bob" not in info.names
    assert "Bob resigned" in report.lines[0] and holder.name in report.lines[0]
    assert "ranked last" in report.lines[0]
    post = await last_turn_post(service)
    assert "Bob resigned" in post["text"] and not post["final"]
    assert bob.id not in post["mentions"]
    with pytest.raises(NotAllowed):  # Bob no longer plays, nor sees the seat's hand
        await service.play(match_id, bob, "anything")
    if get_game(game_id).has_hidden_information:
        with pytest.raises(NotAllowed):
            await service.hand(match_id, bob)
    resign_ply = (await service.store.moves(match_id, last=1))[0].ply

    # played to the end: people move, the computer driver plays the resigned seat
    for _ in range(5000):
        await driver.settle()
        moved = await people_move(service, match_id, picker)
        if not moved and (await service.info(match_id)).status != "running":
            break
    info = await service.info(match_id)
    assert info.status == "finished", info.status_text
    rows = await service.store.moves(match_id)
    assert any(r.seat == 1 and r.user_id == holder.user_id for r in rows if r.ply > resign_ply)
    result = info.result
    assert result is not None
    assert result["ranks"][1] == n and 1 not in result["winners"]  # last, whatever it scored
    assert sorted(result["ranks"][s] for s in range(n) if s != 1)[0] == 1
    assert result["gave_up"] == [{"seat": 1, "name": "Bob"}]
    assert "for Bob, who resigned" in info.status_text
    record = await service.export_record(match_id)
    assert record["players"][1]["holders"] == [
        {"name": "Bob", "from_ply": 0, "how": "start"},
        {"name": holder.name, "from_ply": resign_ply, "how": "resign", "computer": True},
    ]
    assert record["players"][1]["computer"] == (level or "normal")
    assert await service.audit() == []


async def test_two_players_the_other_wins(service: MatchService) -> None:
    info = await service.create_match("test-pile", ALICE, {"size": 9}, max_players=2)
    await service.join(info.id, BOB)
    await service.start(info.id, ALICE)
    report = await service.resign(info.id, ALICE)
    assert report.match.status == "finished"
    assert report.match.result["winners"] == [1] and report.match.result["ranks"] == [2, 1]
    assert report.lines[0].startswith("Alice resigned — 🏆 Bob wins!")
    assert (await service.info(info.id)).status_text.startswith("Alice resigned — ")


async def test_no_person_left_ends_the_match(service: MatchService) -> None:
    """With only computers left there is nobody to play for: the match ends at once."""
    info = await service.create_match("test-pile", ALICE, {"size": 9})
    await service.add_computer(info.id, ALICE, "easy")
    await service.add_computer(info.id, ALICE, "easy")
    await service.start(info.id, ALICE)
    report = await service.resign(info.id, ALICE)
    assert report.match.status == "finished"
    assert report.match.result["ranks"][0] == 3


async def test_a_second_resign_of_the_match(database: str | Path) -> None:
    """Two people resign one after the other: both seats are played by computers, the
    earlier resigner ranks below the later one, and a computer cannot resign. On both
    storage backends (the seat changes hands inside the move's transaction)."""
    service = await MatchService.open(database, render=False)
    try:
        await second_resign(service)
    finally:
        await service.close()


async def second_resign(service: MatchService) -> None:
    info = await service.create_match("test-pile", USERS[0], {"size": 9}, max_players=3)
    for user in USERS[1:3]:
        await service.join(info.id, user)
    await service.start(info.id, USERS[0])
    first = await service.resign(info.id, USERS[2])
    second = await service.resign(info.id, USERS[1])
    names = second.match.names
    assert names[1] != names[2] and all(is_computer(s.user_id) for s in second.match.seats[1:3])
    assert first.match.seats[2].name == names[2]
    result = rank_resigned_last(
        {"scores": [1, 9, 9, 2], "ranks": [3, 1, 1, 2], "winners": [1, 2], "reason": ""},
        [(2, "Cid"), (1, "Bob")],
    )
    assert result["ranks"] == [2, 3, 4, 1] and result["winners"] == [3]
    text = result_text(result, ["Ann", "🤖 Ada (normal)", "🤖 Alan (normal)", "Dee"])
    assert text.startswith("🏆 Dee wins!") and "(for Cid, who resigned)" in text
    assert "(for Bob, who resigned)" in text and "Ann" in text
    assert json.loads(json.dumps(result)) == result  # plain data, stored as the result
    with pytest.raises(NotAllowed):  # the seat is no longer Bob's to give up
        await service.resign(info.id, USERS[1])
