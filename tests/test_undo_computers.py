"""Issue 41, undo beside computers: a person takes back their latest move together with
the computer moves that followed it (computer seats consent at once, people are asked),
refused once something came to light or another person moved since; requests and
refusals are told to everyone involved, asking twice pings once, and none of these posts
reads or pings as a turn post."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.computers.players import is_computer
from bot.console import Console
from bot.matches.errors import NotAllowed
from bot.matches.reports import TurnReport
from bot.matches.rows import effective_moves
from bot.matches.service import MatchService
from tests.conftest import ALICE, BOB

PEOPLE = (ALICE, BOB)


async def match_with(service: MatchService, seats: tuple[str, ...], seed: int = 3) -> int:
    """A started Pile match created by Alice; ``seats`` after hers: "bob" or "computer"."""
    info = await service.create_match(
        "test-pile", ALICE, {"size": 20}, seed=seed, guild_id="g1", channel_id="c1"
    )
    for seat in seats:
        if seat == "bob":
            await service.join(info.id, BOB)
        else:
            await service.add_computer(info.id, ALICE, "easy")
    await service.start(info.id, ALICE)
    return info.id


async def computers_move(service: MatchService, match_id: int, notation: str = "take1") -> int:
    """Every computer turn due now, each playing ``notation``; how many were played."""
    played = 0
    while (turn := await service.computer_turn(match_id)) is not None:
        await service.play(match_id, turn.user, notation, expected_version=turn.version)
        played += 1
    return played


async def until_to_act(service: MatchService, match_id: int, user: Any) -> None:
    """Computers and the other person take 1 until ``user`` is to move."""
    for _ in range(10):
        info = await service.info(match_id)
        if user.id in info.to_act:
            return
        if await computers_move(service, match_id):
            continue
        other = next(p for p in PEOPLE if p.id in info.to_act)
        await service.play(match_id, other, "take1")
    raise AssertionError("never came to move")


async def pending(service: MatchService) -> list[Any]:
    """The turn-kind posts queued since last asked (each match's queue in order)."""
    out: list[Any] = []
    while due := await service.store.due_notifications(now=float("inf"), limit=100):
        for item in due:
            await service.store.mark_sent(item.id)
            if item.kind == "turn":
                out.append(item.payload)
    return out


async def test_undo_takes_back_the_computer_answer_too(service: MatchService) -> None:
    match_id = await match_with(service, ("computer",))
    await until_to_act(service, match_id, ALICE)
    before = len(effective_moves(await service.store.moves(match_id)))
    await service.play(match_id, ALICE, "take2")
    assert await computers_move(service, match_id) == 1
    result = await service.undo(match_id, ALICE)
    assert isinstance(result, TurnReport)
    rows = effective_moves(await service.store.moves(match_id))
    assert len(rows) == before
    info = await service.info(match_id)
    assert info.to_act == [ALICE.id]
    assert "undo" not in info.settings
    assert any("Alice took back" in line for line in result.lines)
    assert any("computer's answer" in line for line in result.lines)
    assert await service.audit() == []
    # the match goes on from there: Alice moves again and the computer answers
    await service.play(match_id, ALICE, "take1")
    assert await computers_move(service, match_id) == 1
    assert await service.audit() == []


async def test_undo_refused_once_a_computer_move_revealed_something(
    service: MatchService,
) -> None:
    match_id = await match_with(service, ("computer",))
    await until_to_act(service, match_id, ALICE)
    await service.play(match_id, ALICE, "take1")
    assert await computers_move(service, match_id, "draw") == 1  # a secret card drawn
    rows = await service.store.moves(match_id)
    with pytest.raises(NotAllowed, match="came to light"):
        await service.undo(match_id, ALICE)
    assert await service.store.moves(match_id) == rows


async def test_undo_refused_when_another_person_moved_since(service: MatchService) -> None:
    match_id = await match_with(service, ("bob", "computer"))
    await until_to_act(service, match_id, ALICE)
    await service.play(match_id, ALICE, "take1")
    for _ in range(3):  # computers, then Bob
        await computers_move(service, match_id)
        if BOB.id in (await service.info(match_id)).to_act:
            await service.play(match_id, BOB, "take1")
            break
    await computers_move(service, match_id)
    rows = await service.store.moves(match_id)
    with pytest.raises(NotAllowed, match="only take back your own move"):
        await service.undo(match_id, ALICE)
    assert await service.store.moves(match_id) == rows
    assert "undo" not in (await service.info(match_id)).settings


@pytest.mark.parametrize("seats", [("computer", "bob"), ("bob", "computer")])
async def test_the_other_person_is_asked_and_the_computer_not_waited_for(
    service: MatchService, seats: tuple[str, ...]
) -> None:
    match_id = await match_with(service, seats)
    await until_to_act(service, match_id, ALICE)
    before = len(effective_moves(await service.store.moves(match_id)))
    await service.play(match_id, ALICE, "take1")
    await computers_move(service, match_id)
    await pending(service)
    info = await service.undo(match_id, ALICE)
    assert not isinstance(info, TurnReport)
    assert info.settings["undo"]["seat"] == info.seat_of(ALICE.id)
    [request] = await pending(service)
    assert request["mentions"] == [BOB.id]  # the computer seat is not asked
    report = await service.answer_undo(match_id, BOB, True)  # Bob's consent is enough
    assert isinstance(report, TurnReport)
    assert len(effective_moves(await service.store.moves(match_id))) == before
    assert (await service.info(match_id)).to_act == [ALICE.id]
    assert await service.audit() == []


async def test_a_refusal_reaches_the_requester_and_asking_twice_pings_once(
    service: MatchService,
) -> None:
    match_id = await match_with(service, ("bob",))
    await until_to_act(service, match_id, ALICE)
    await service.play(match_id, ALICE, "take1")  # Bob is to move: a request
    await pending(service)
    await service.undo(match_id, ALICE)
    with pytest.raises(NotAllowed, match="already asked"):
        await service.undo(match_id, ALICE)
    posts = await pending(service)
    assert len(posts) == 1 and posts[0]["mentions"] == [BOB.id]
    await service.answer_undo(match_id, BOB, False)
    [refusal] = await pending(service)
    assert refusal["mentions"] == [ALICE.id]
    assert "Bob refused Alice's request" in refusal["text"]
    assert refusal.get("notice") == "told"
    assert "undo" not in (await service.info(match_id)).settings


async def test_undo_and_abort_posts_are_not_turn_posts(
    service: MatchService, tmp_path: Path
) -> None:
    console = Console(service, tmp_path / "pics")
    for line in ("alice> /game new test-pile size=20", "bob> /game join", "alice> /game start"):
        await console.run_line(line)
    if (await service.info(1)).to_act != ["console:alice"]:
        await console.run_line("bob> /play take1")
    await console.run_line("alice> /play take1")
    await console.deliver()
    out = await console.run_line("alice> /undo")
    out += await console.deliver()
    assert any("asks to take back" in o for o in out), out
    assert not any("your turn" in o for o in out), out
    assert any("Bob: your answer is asked" in o for o in out), out
    out = await console.run_line("alice> /undo")  # asking again: refused, nothing posted
    out += await console.deliver()
    assert out == ["✗ You have already asked; the others were told and answer with /undo."]
    out = await console.run_line("bob> /undo no")
    out += await console.deliver()
    assert any("Bob refused Alice's request" in o for o in out), out
    assert not any("your turn" in o for o in out), out
    out = await console.run_line("alice> /game abort")  # a vote of one of two: Bob is asked
    out += await console.deliver()
    assert any("Bob: your answer is asked" in o for o in out), out
    assert not any("your turn" in o for o in out), out


async def test_computer_seats_are_never_asked(service: MatchService) -> None:
    match_id = await match_with(service, ("computer",))
    info = await service.info(match_id)
    assert any(is_computer(s.user_id) for s in info.seats)
    await until_to_act(service, match_id, ALICE)
    await service.play(match_id, ALICE, "take1")
    await computers_move(service, match_id)
    result = await service.undo(match_id, ALICE)  # nobody to ask: at once
    assert isinstance(result, TurnReport)
    assert "undo" not in (await service.info(match_id)).settings
