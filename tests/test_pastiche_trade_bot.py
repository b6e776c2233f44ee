"""Free trading in Pastiche through the match service: a player who is not on turn may
offer the trading player a trade (``Game.may_act``), the seats answering offers are pinged
as seats the game waits for, a computer answers an offer made to it before the turn moves
on, and the clock still belongs to the player on turn."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.computers.driver import ComputerDriver
from bot.matches.errors import NotAllowed
from bot.matches.reports import User
from bot.matches.service import MatchService
from rules.pastiche import GAME
from tests.conftest import ALICE, BOB

SEED = 1  # Alice (seat 0) starts, with 2 or 3 players


@pytest.fixture
async def driver(service: MatchService) -> AsyncIterator[ComputerDriver]:
    d = ComputerDriver(service, workers=1)
    yield d
    await d.close()


async def _trading_match(service: MatchService, *, computer: bool) -> int:
    """Alice, Bob and a computer (or Bob only); Alice has placed her hex and trades."""
    assert GAME.setup(3 if computer else 2, SEED)["start"] == 0
    info = await service.create_match(
        "pastiche", ALICE, {}, seed=SEED, settings={"think_seconds": 0.05}
    )
    await service.join(info.id, BOB)
    if computer:
        await service.add_computer(info.id, ALICE, "normal")
    await service.start(info.id, ALICE)
    assert await _place_a_hex(service, info.id, ALICE)
    return info.id


async def _place_a_hex(service: MatchService, match_id: int, user: User) -> bool:
    """Play ``user``'s first listed hex placement, if placing is what is left to do."""
    moves = await service.legal_moves(match_id, user)
    place = next((m for m in moves if m.notation[0] == "h"), None)
    if place is not None:
        await service.play(match_id, user, place.notation)
    return place is not None


async def test_an_idle_player_offers_the_trading_player(service: MatchService) -> None:
    match_id = await _trading_match(service, computer=False)
    state = await service.state_at(match_id)
    bob_card = next(c for c, n in state["players"][1]["cards"].items() if n)
    report = await service.play(match_id, BOB, f"offer p1 {bob_card} for -")
    assert any("(offer 1)" in line for line in report.lines)  # told to the table
    info = await service.info(match_id)
    assert info.to_act == [ALICE.id]  # the offer waits for Alice, who is on turn anyway
    await service.play(match_id, ALICE, "accept 1")
    # Alice offers Bob: now the game waits for Bob's answer too, Alice first (her clock)
    alice_card = next(
        c for c, n in (await service.state_at(match_id))["players"][0]["cards"].items() if n
    )
    await service.play(match_id, ALICE, f"offer p2 {alice_card} for -")
    info = await service.info(match_id)
    assert info.to_act == [ALICE.id, BOB.id]
    await service.play(match_id, ALICE, "end")  # not blocked: the offer expires
    info = await service.info(match_id)
    assert info.to_act == [BOB.id]
    with pytest.raises(NotAllowed, match="not your turn"):
        await service.play(match_id, ALICE, f"offer p2 {alice_card} for -")


async def test_a_computer_answers_an_offer_before_the_turn_moves_on(
    service: MatchService, driver: ComputerDriver
) -> None:
    match_id = await _trading_match(service, computer=True)
    state = await service.state_at(match_id)
    gift = next(c for c, n in state["players"][0]["cards"].items() if n)
    await service.play(match_id, ALICE, f"offer p3 {gift} for -")
    turn = await service.computer_turn(match_id)
    assert turn is not None and turn.seat == 2  # the computer owes an answer
    report = await driver.play_turn(match_id)
    assert report is not None
    after = await service.state_at(match_id)
    assert after["deals"] == [] and after["players"][2]["cards"][gift] >= 1  # a gift: accepted
    assert after["cur"] == 0 and await service.computer_turn(match_id) is None


async def test_an_answer_owed_to_the_player_on_turn_comes_first_even_when_they_owe_one(
    service: MatchService, driver: ComputerDriver
) -> None:
    """Alice, on turn, has offered the computer and owes Bob an answer: the computer's answer
    comes first, in the order the game gives (``Game.waits_for``), then Alice's."""
    match_id = await _trading_match(service, computer=True)
    state = await service.state_at(match_id)
    gift = next(c for c, n in state["players"][0]["cards"].items() if n)
    bob_card = next(c for c, n in state["players"][1]["cards"].items() if n)
    await service.play(match_id, ALICE, f"offer p3 {gift} for -")
    await service.play(match_id, BOB, f"offer p1 {bob_card} for -")
    info = await service.info(match_id)
    computer = info.seats[2].user_id
    assert info.waits_for == [computer, ALICE.id]
    turn = await service.computer_turn(match_id)
    assert turn is not None and turn.seat == 2
    assert await driver.play_turn(match_id) is not None
    after = await service.info(match_id)
    assert after.waits_for == [ALICE.id] and await service.computer_turn(match_id) is None


async def test_the_console_trades_between_named_users(service: MatchService, tmp_path) -> None:
    from bot.console import Console

    console = Console(service, tmp_path / "pics")
    for line in ("alice> /game new pastiche", "bob> /game join", "alice> /game start"):
        await console.run_line(line)
    match_id = console.current
    assert match_id is not None
    info = await service.info(match_id)
    users = {"alice": User("console:alice", "Alice"), "bob": User("console:bob", "Bob")}
    on = "alice" if info.to_act == ["console:alice"] else "bob"
    off = "bob" if on == "alice" else "alice"
    place = next(m for m in await service.legal_moves(match_id, users[on]) if m.notation[0] == "h")
    await console.run_line(f"{on}> /play {place.notation}")
    moves = await console.run_line(f"{off}> /moves")
    assert any("Compose an offer" in line for line in moves)  # may offer; not all listed
    state = await service.state_at(match_id)
    seat_on, seat_off = info.seat_of(users[on].id), info.seat_of(users[off].id)
    assert seat_on is not None and seat_off is not None
    card = next(c for c, n in state["players"][seat_off]["cards"].items() if n)
    out = await console.run_line(f"{off}> /play offer p{seat_on + 1} {card} for -")
    assert any("(offer 1)" in line for line in out), out  # told to the table
    out = await console.run_line(f"{on}> /play accept 1")
    assert any("accepted offer 1" in line for line in out), out


async def _end_turn(service: MatchService, match_id: int, user: User) -> None:
    """Place a hex if that is still to do, then end the turn (``end auto`` over the hand
    limit)."""
    await _place_a_hex(service, match_id, user)
    moves = await service.legal_moves(match_id, user)
    ends = {m.notation for m in moves if m.notation in ("end", "end auto")}
    await service.play(match_id, user, "end auto" if "end auto" in ends else "end")


async def test_a_computer_on_turn_waits_for_a_persons_answer_to_its_offer(
    service: MatchService, driver: ComputerDriver
) -> None:
    """Before, the computer ended its turn the moment after offering, so the offer expired
    before the person it was made to could answer."""
    match_id = await _trading_match(service, computer=True)
    await _end_turn(service, match_id, ALICE)
    await _end_turn(service, match_id, BOB)
    info = await service.info(match_id)
    computer = next(User(s.user_id, s.name) for s in info.seats if s.seat == 2)
    assert info.to_act == [computer.id]
    assert await _place_a_hex(service, match_id, computer)  # as the driver would
    state = await service.state_at(match_id)
    give = next(c for c, n in state["players"][2]["cards"].items() if n)
    want = next(c for c, n in state["players"][0]["cards"].items() if n and c != give)
    await service.play(match_id, computer, f"offer p1 {give} for {want}")

    info = await service.info(match_id)
    assert info.to_act == [computer.id, ALICE.id] and info.waits_for == [ALICE.id]
    assert await service.computer_turn(match_id) is None  # it waits for Alice's answer
    assert match_id not in await driver.pending()
    assert await driver.settle() == 0
    assert (await service.state_at(match_id))["deals"]  # the offer still stands for Alice

    await service.play(match_id, ALICE, "decline 1")
    turn = await service.computer_turn(match_id)
    assert turn is not None and turn.seat == 2  # answered: its turn goes on
    assert match_id in await driver.pending()
