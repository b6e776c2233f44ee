"""Fair clocks through the service and the scheduler's reconcile pass (no Discord): a clock
on every decision kind of every game in both modes, one clock per waiting seat, the
Pastiche offer case, forfeits in 3–5 player matches played out by the computer seat, and
away periods pausing clocks. Time is a fake clock shared by the store and the scheduler."""

from __future__ import annotations

import json
import time
import types
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import bot.storage.clock
from bot.computers.driver import ComputerDriver
from bot.computers.players import is_computer, move_seed
from bot.console import Console
from bot.discord.scheduler import Scheduler
from bot.matches import away, clocks
from bot.matches.errors import NotAllowed
from bot.matches.reports import User
from bot.matches.rows import rank_resigned_last
from bot.matches.service import MatchService
from bot.settings import Settings
from render.words.posts import end_summary, result_text
from rules import get_game
from rules.ai import choose_move
from rules.pastiche import moves as pastiche_moves
from rules.rng import Rng
from tests.discord_harness import FakeClock

DAY = 86400.0
USERS = [User(f"40{i}", n) for i, n in enumerate(["Ann", "Bob", "Cid", "Dee", "Eve"], 1)]


@dataclass
class Table:
    service: MatchService
    clock: FakeClock
    scheduler: Scheduler

    async def tick(self) -> dict[str, int]:
        return await self.scheduler.tick()


@pytest.fixture
async def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Table]:
    clock = FakeClock(time.time())
    monkeypatch.setattr(bot.storage.clock, "time", types.SimpleNamespace(time=clock))
    service = await MatchService.open(tmp_path / "clocks.db", render=False)
    settings = Settings(_env_file=None, reminder_hours=0.0)  # type: ignore[call-arg]
    host = types.SimpleNamespace(
        service=service, settings=settings, shard_slice=None, kick=lambda: None
    )
    yield Table(service, clock, Scheduler(host, clock))  # type: ignore[arg-type]
    await service.close()


async def start(
    service: MatchService,
    game_id: str,
    n: int,
    options: dict[str, Any] | None = None,
    action: str = "skip",
    seed: int = 5,
    **more: Any,
) -> int:
    settings = {"clock_days": 1.0, "clock_action": action, "level": "easy", "think_seconds": 0.05}
    settings |= more
    info = await service.create_match(
        game_id, USERS[0], options or {}, max_players=n, seed=seed, settings=settings
    )
    for user in USERS[1:n]:
        await service.join(info.id, user)
    await service.start(info.id, USERS[0])
    return info.id


def kind_of(game_id: str, state: dict[str, Any], seat: int) -> str:
    """The decision kind a waiting seat faces (per game, from its rules)."""
    if game_id == "azul":
        return "draft" if state["phase"] == "offer" else "column"
    if game_id == "taj-mahal":
        return get_game(game_id)._phase(state)  # type: ignore[attr-defined]
    if game_id == "maharani":
        return str(state["phase"])
    return "answer" if seat != state["cur"] else str(state["phase"])


def steer(game_id: str, kind: str, state: dict[str, Any], seat: int, rng: Rng) -> str:
    """A random move, nudged towards the decision kind wanted (an offer for an answer,
    ending a turn with too many cards for Pastiche's discard step)."""
    game = get_game(game_id)
    legal = game.legal_moves(state, seat)
    if game_id == "pastiche" and seat == state["cur"] and state["phase"] == "trade":
        cards = pastiche_moves.hand_size(state["players"][seat]["cards"])
        if kind == "discard" and cards > pastiche_moves.HAND_LIMIT:
            return "end"
        offers = [m for m in legal if m.notation.startswith("offer")]
        if kind == "answer" and offers and not state["deals"]:
            return offers[rng.below(len(offers))].notation
    return legal[rng.below(len(legal))].notation


async def reach(service: MatchService, match_id: int, game_id: str, kind: str) -> int:
    """Play seeded random moves until a seat the game waits for faces ``kind``; its seat."""
    picker = Rng.from_seed(7, game_id + kind)
    for _ in range(1500):
        match = await service.store.get_match(match_id)
        assert match is not None and match.state is not None and match.status == "running"
        game = get_game(game_id)
        waiting = game.waits_for(match.state)
        for seat in waiting:
            if kind_of(game_id, match.state, seat) == kind:
                return seat
        seat = waiting[0]
        user = User(match.seats[seat].user_id, match.seats[seat].name)
        await service.play(match_id, user, steer(game_id, kind, match.state, seat, picker))
    raise AssertionError(f"{kind} never came up")


#: (game, players, options, decision kind, the game's own pass or None: the easy move)
KINDS = [
    ("azul", 3, {"grey_wall": True}, "draft", None),
    ("azul", 3, {"grey_wall": True}, "column", None),
    ("taj-mahal", 3, {}, "turn", "withdraw"),
    ("taj-mahal", 3, {}, "pick", None),
    ("taj-mahal", 3, {}, "palace", None),
    ("taj-mahal", 3, {}, "crown", None),
    ("maharani", 3, {}, "first", None),
    ("maharani", 3, {}, "second", "stop"),
    ("maharani", 2, {}, "worker", None),
    ("pastiche", 3, {}, "place", None),
    ("pastiche", 3, {}, "trade", "end"),
    ("pastiche", 3, {}, "answer", "decline"),
    ("pastiche", 3, {}, "discard", "return"),
    ("pastiche", 3, {}, "complete", "end"),
]


async def last_turn_text(service: MatchService) -> str:
    cur = await service.store._reader.execute(
        "SELECT payload FROM outbox WHERE kind = 'turn' ORDER BY id DESC LIMIT 1"
    )
    (payload,) = await cur.fetchone()
    return str(json.loads(payload)["text"])


@pytest.mark.parametrize("mode", ["skip", "forfeit"])
@pytest.mark.parametrize(("game_id", "n", "options", "kind", "passes"), KINDS)
async def test_a_clock_on_each_decision_kind(
    table: Table,
    game_id: str,
    n: int,
    options: dict[str, Any],
    kind: str,
    passes: str | None,
    mode: str,
) -> None:
    service = table.service
    match_id = await start(service, game_id, n, options, mode)
    seat = await reach(service, match_id, game_id, kind)
    before = await service.store.get_match(match_id)
    assert before is not None and before.state is not None
    game = get_game(game_id)
    late = before.seats[seat]

    assert (await table.tick())["expired"] == 0
    table.clock.advance(DAY - 60)
    assert (await table.tick())["expired"] == 0  # not a minute early
    table.clock.advance(120)
    assert (await table.tick())["expired"] == 1
    rows = await service.store.moves(match_id)
    info = await service.info(match_id)
    row = rows[-1]
    # the late seat's own clock ran out (with several waiting since the same moment, as
    # for Azul's columns, the first of them goes first)
    assert row.seat == seat and row.user_id == late.user_id

    if mode == "skip":
        assert row.kind == "move" and row.label.startswith("(out of time)")
        assert "(out of time)" in await last_turn_text(service)
        own = game.default_move(before.state, seat)
        if passes is not None:
            assert own is not None and own.notation.startswith(passes)
            assert row.notation == own.notation
        else:  # no pass in the rules: the easy computer move from the seat's own view
            assert own is None
            easy = choose_move(
                game,
                game.view(before.state, seat),
                seat,
                "easy",
                seed=move_seed(before.seed, before.last_ply, seat, "clock"),
                budget_s=0.05,
            )
            assert row.notation == easy.notation
        assert not (info.result or {}).get("ended_by")  # skipping never forfeits
        assert all(not is_computer(s.user_id) for s in info.seats)
    elif n >= 3:  # forfeit at a table of three: a computer takes the seat, the match goes on
        assert info.status == "running"
        holder = info.seats[seat]
        assert is_computer(holder.user_id) and holder.user_id.split(":")[1] == "easy"
        assert row.kind == "forfeit" and "ran out of time" in row.label
        text = await last_turn_text(service)
        assert f"{late.name} ran out of time" in text and holder.name in text
    else:  # two players: the other wins
        assert info.status == "finished" and info.result is not None
        assert info.result["ranks"][seat] == 2 and "ran out of time" in info.status_text


async def test_several_seats_each_have_their_own_clock(table: Table) -> None:
    """Azul's grey-wall columns wait for every seat at once; each clock started when its
    seat began waiting, and one running out does not restart the others'."""
    service = table.service
    match_id = await start(service, "azul", 3, {"grey_wall": True})
    await reach(service, match_id, "azul", "column")
    info = await service.info(match_id)
    waiting = [info.seat_of(u) for u in info.waits_for]
    assert len(waiting) >= 2
    started = dict(info.settings["clock"]["since"])
    await table.tick()
    table.clock.advance(DAY / 2)
    first = await waited_person(service, match_id)  # one player chooses in time …
    legal = await service.legal_moves(match_id, USERS[first])
    await service.play(match_id, USERS[first], legal[0].notation)
    after = (await service.info(match_id)).settings["clock"]["since"]
    assert all(after[str(s)] == started[str(s)] for s in waiting if str(s) in after)
    table.clock.advance(DAY / 2 + 1)  # … the others' clocks ran from the round's end
    ply = (await service.store.moves(match_id, last=1))[0].ply
    while (await table.tick())["expired"]:
        pass
    late = {r.seat for r in await service.store.moves(match_id) if r.ply > ply}
    assert late and late <= set(waiting[1:]) | {first}
    assert set(waiting) - {first} <= late


async def test_only_the_answering_players_clock_runs_during_an_offer(table: Table) -> None:
    service = table.service
    match_id = await start(service, "pastiche", 3)
    answering = await reach(service, match_id, "pastiche", "answer")
    match = await service.store.get_match(match_id)
    assert match is not None and match.state is not None
    cur = match.state["cur"]
    info = await service.info(match_id)
    assert match.seats[cur].user_id in info.to_act  # the trading player may still act …
    assert info.waits_for == [match.seats[answering].user_id]  # … but is not waited for
    await table.tick()
    table.clock.advance(DAY + 1)
    assert (await table.tick())["expired"] == 1
    row = (await service.store.moves(match_id))[-1]
    assert row.seat == answering and row.notation.startswith("decline")
    # the trading player's clock resumes where it was paused: not run out, not restarted
    after = await service.info(match_id)
    assert after.waits_for == [match.seats[cur].user_id]
    clock = after.settings["clock"]
    assert clock["used"].get(str(cur), 0) < DAY  # what it used before the offer
    assert (await table.tick())["expired"] == 0


async def test_a_version_mismatch_is_harmless(table: Table) -> None:
    service = table.service
    match_id = await start(service, "azul", 2)
    info = await service.info(match_id)
    with pytest.raises(Exception, match="moved on"):
        await service.expire_turn(match_id, info.version - 1, "skip", 0)
    assert (await service.info(match_id)).version == info.version


FORFEITS = [
    ("azul", 3),
    ("azul", 4),
    ("taj-mahal", 3),
    ("taj-mahal", 4),
    ("taj-mahal", 5),
    ("maharani", 3),
    ("maharani", 4),
    ("pastiche", 3),
    ("pastiche", 4),
]


@pytest.mark.parametrize(("game_id", "n"), FORFEITS)
async def test_forfeit_hands_the_seat_to_a_computer_that_plays_it_out(
    table: Table, game_id: str, n: int
) -> None:
    service = table.service
    match_id = await start(service, game_id, n, action="forfeit", seed=11 + n)
    picker = Rng.from_seed(n, game_id)
    driver = ComputerDriver(service, workers=1, processes=False)
    try:
        # a few moves, then the clock of whoever is waited for runs out
        for _ in range(n):
            await play_someone(service, match_id, picker)
        late_seat = await waited_person(service, match_id)
        late = (await service.info(match_id)).seats[late_seat]
        await table.tick()
        table.clock.advance(DAY + 1)
        assert (await table.tick())["expired"] == 1
        info = await service.info(match_id)
        assert info.status == "running" and is_computer(info.seats[late_seat].user_id)
        for _ in range(5000):  # the others play on; the computer plays the late seat
            await driver.settle()
            if not await play_someone(service, match_id, picker):
                break
        info = await service.info(match_id)
        assert info.status == "finished", info.status_text
        result = info.result
        assert result is not None and result["ranks"][late_seat] == n
        assert result["gave_up"] == [{"seat": late_seat, "name": late.name, "how": "forfeit"}]
        assert f"for {late.name}, who ran out of time" in info.status_text
        rows = await service.store.moves(match_id)
        handed = next(r.ply for r in rows if r.kind == "forfeit")
        assert any(r.seat == late_seat and is_computer(r.user_id) for r in rows if r.ply > handed)
        assert await service.audit() == []
    finally:
        await driver.close()


async def play_someone(service: MatchService, match_id: int, picker: Rng) -> bool:
    """One move by a person the game waits for — the game's pass where it has one (short
    games: these tests are about the late seat), else a random legal move; False when no
    person is waited for."""
    info = await service.info(match_id)
    if info.status != "running":
        return False
    people = [u for u in USERS if u.id in info.waits_for]
    if not people:
        return False
    match = await service.store.get_match(match_id)
    assert match is not None and match.state is not None
    seat = info.seat_of(people[0].id)
    assert seat is not None
    own = get_game(match.game_id).default_move(match.state, seat)
    if own is None:
        legal = await service.legal_moves(match_id, people[0])
        own = legal[picker.below(len(legal))]
    await service.play(match_id, people[0], own.notation)
    return True


async def waited_person(service: MatchService, match_id: int) -> int:
    info = await service.info(match_id)
    seat = info.seat_of(info.waits_for[0])
    assert seat is not None
    return seat


async def test_away_pauses_the_clock_which_resumes_with_the_time_left(table: Table) -> None:
    service = table.service
    match_id = await start(service, "azul", 2)
    on = await waited_person(service, match_id)
    uid = (await service.info(match_id)).seats[on].user_id
    await table.tick()
    table.clock.advance(0.75 * DAY)  # a quarter of the day left
    await service.go_away(uid, 3)
    table.clock.advance(2.9 * DAY)  # the deadline passes while away: nothing happens
    assert (await table.tick())["expired"] == 0
    listed = await service.list_matches()
    assert f"{USERS[on].name} is away until" in listed[0].status_text
    table.clock.advance(0.1 * DAY + 1)  # back: 0.25 day left
    assert (await table.tick())["expired"] == 0
    table.clock.advance(0.25 * DAY - 120)
    assert (await table.tick())["expired"] == 0
    table.clock.advance(240)
    assert (await table.tick())["expired"] == 1


async def test_back_early_resumes_the_clock(table: Table) -> None:
    service = table.service
    match_id = await start(service, "azul", 2, reminder_hours=6.0, reminder_max=5)
    on = await waited_person(service, match_id)
    uid = (await service.info(match_id)).seats[on].user_id
    await table.tick()
    await service.go_away(uid, 5)
    table.clock.advance(2 * DAY)
    assert (await table.tick())["reminders"] == 0  # no reminders while away
    await service.come_back(uid)
    assert (await table.tick())["reminders"] == 1  # back: reminded again
    with pytest.raises(NotAllowed, match="not away"):
        await service.come_back(uid)
    assert (await table.tick())["expired"] == 0  # two days away did not count
    table.clock.advance(DAY + 1)
    assert (await table.tick())["expired"] == 1


async def test_the_turn_post_says_the_player_to_act_is_away(table: Table) -> None:
    service = table.service
    match_id = await start(service, "azul", 2)
    on = await waited_person(service, match_id)
    other = USERS[1 - on]
    await service.go_away(other.id, 4)
    legal = await service.legal_moves(match_id, USERS[on])
    report = await service.play(match_id, USERS[on], legal[0].notation)
    assert report.match.waits_for == [other.id]
    assert f"{other.name} is away until" in await last_turn_text(service)


# ----- pure parts --------------------------------------------------------------------------
def test_away_at_most_14_days_in_any_30() -> None:
    now = 1_000_000_000.0
    prefs: dict[str, Any] = {}
    assert away.days_left(prefs, now) == 14
    with pytest.raises(away.AwayRefused) as refused:
        away.go_away(prefs, 15, now)
    assert refused.value.days_left == 14
    prefs = away.go_away(prefs, 10, now)
    assert away.away_until(prefs, now + 1) == now + 10 * DAY
    back = away.come_back(prefs, now + 6 * DAY)  # back after six days
    assert back is not None and away.away_until(back, now + 6 * DAY) is None
    assert away.days_left(back, now + 6 * DAY) == 8  # 6 used in the last 30
    with pytest.raises(away.AwayRefused) as refused:
        away.go_away(back, 9, now + 6 * DAY)
    assert refused.value.days_left == 8
    later = away.go_away(back, 8, now + 6 * DAY)
    assert away.days_left(later, now + 14 * DAY) == 0
    # the old days leave the window as it slides on: a day more on day 29 would make
    # 15 in the 30 days from day 0; from day 30 on a new 14 fit
    assert away.days_left(later, now + 29 * DAY) == 0
    assert away.days_left(later, now + 30 * DAY) == 14
    assert away.days_left(back, now + 10 * DAY) == 8
    assert away.come_back({}, now) is None


def test_clock_map_follows_who_is_waited_for() -> None:
    # Bob (1) on turn; he offers to Ann (0): his clock pauses with what he used
    m = clocks.next_clock(None, ([], []), ([1], [1]), 100.0, 2)
    assert m == {"v": 2, "since": {"1": 100.0}, "used": {}}
    m = clocks.next_clock(m, ([1], [1]), ([1, 0], [0]), 130.0, 3)
    assert m["since"] == {"0": 130.0} and m["used"] == {"1": 30.0}
    # Ann answers: Bob's clock runs again with what it had used
    m = clocks.next_clock(m, ([1, 0], [0]), ([1], [1]), 200.0, 4)
    assert m["since"] == {"1": 200.0} and m["used"] == {"1": 30.0}
    start, used = clocks.seat_start(m, 1, 0.0)
    assert clocks.used_time(start, used, [], 210.0) == 40.0
    assert clocks.deadline(m, [1], 0.0, 100.0) == 270.0  # what the turn post shows
    assert clocks.deadline(m, [], 50.0, 100.0) == 150.0  # nobody timed: from the move
    # his own further moves keep his start; leaving to_act clears everything
    m = clocks.next_clock(m, ([1], [1]), ([1], [1]), 300.0, 5)
    assert m["since"] == {"1": 200.0}
    m = clocks.next_clock(m, ([1], [1]), ([2], [2]), 400.0, 6)
    assert m == {"v": 6, "since": {"2": 400.0}, "used": {}}
    # away time does not count; while away the clock is looked at when they are back
    assert clocks.used_time(400.0, 0.0, [(450.0, 500.0)], 600.0) == 150.0
    assert clocks.runs_out_at(400.0, 0.0, [(450.0, 500.0)], 1000.0, 460.0) == 500.0
    assert clocks.runs_out_at(400.0, 0.0, [(450.0, 500.0)], 1000.0, 600.0) == 1450.0


@pytest.mark.parametrize("game_id", ["azul", "taj-mahal", "maharani", "pastiche"])
def test_the_picture_band_says_who_is_away(game_id: str) -> None:
    from tests.picture_probe import draw_probed

    game = get_game(game_id)
    state = game.setup(3, 4)
    view = {**game.view(state, None), "away": {"1": 1_800_000_000.0}}
    _, probe = draw_probed(game_id, view, ["Ann", "Bob", "Cid"], None, "en")
    assert any("Bob away until 15 Jan" in x.text for x in probe.band_texts())
    _, plain = draw_probed(game_id, game.view(state, None), ["Ann", "Bob", "Cid"], None, "en")
    assert not any("away" in x.text for x in plain.band_texts())


async def test_console_away_and_back(table: Table, tmp_path: Path) -> None:
    service = table.service
    driver = ComputerDriver(service, workers=1, processes=False)
    console = Console(service, tmp_path, computers=driver)
    try:
        assert "You are away until" in (await console.run_line("alice> /notify away 3"))[0]
        table.clock.advance(2 * DAY)
        out = await console.run_line("alice> /notify away 13")
        limit = "You can be away at most 14 days in any 30 days; you have 12 days left now."
        assert out == [f"✗ {limit}"]
        assert "Welcome back" in (await console.run_line("alice> /notify back"))[0]
        assert "not away" in (await console.run_line("alice> /notify back"))[0]
        assert "/notify away <days>" in (await console.run_line("alice> /notify away"))[0]
    finally:
        await driver.close()


def test_the_end_words_say_who_ran_out_of_time() -> None:
    result = {"scores": [5, 9, 7], "ranks": [2, 1, 3], "winners": [1], "reason": ""}
    result = rank_resigned_last(result, [(2, "Cid", "forfeit")])
    names = ["Ann", "Bob", "🤖 Ada (easy)"]
    assert result["gave_up"] == [{"seat": 2, "name": "Cid", "how": "forfeit"}]
    assert "🤖 Ada (easy) (for Cid, who ran out of time)" in result_text(result, names)
    end = end_summary("finished", result, None, names)
    assert end is not None and end["text"] == "Game over — Bob wins (Cid ran out of time)"
    both = rank_resigned_last(result, [(0, "Ann"), (2, "Cid", "forfeit")])
    end = end_summary("finished", both, None, names)
    assert end is not None and "(Ann and Cid resigned or ran out of time)" in end["text"]


HOUR = DAY / 24


async def reminded(service: MatchService, match_id: int) -> set[str]:
    """The users the scheduler has reminded in their current wait."""
    return set((await service.store.get_schedule(match_id))["sent"])


async def test_reminders_skip_the_trader_who_waits_for_answers(table: Table) -> None:
    service = table.service
    match_id = await start(service, "pastiche", 3, reminder_hours=6.0, reminder_max=5)
    answering = await reach(service, match_id, "pastiche", "answer")
    info = await service.info(match_id)
    trader = [u for u in info.to_act if u not in info.waits_for]
    assert trader  # the trading player may act but is not waited for
    await table.tick()
    table.clock.advance(6 * HOUR + 1)
    assert (await table.tick())["reminders"] == 1
    assert await reminded(service, match_id) == {USERS[answering].id}


async def test_reminders_are_not_restarted_by_another_seats_move(table: Table) -> None:
    """Azul's grey-wall columns wait for every seat at once: a reminder is due 6 hours
    after a seat began waiting, however many others chose their column meanwhile."""
    service = table.service
    match_id = await start(
        service, "azul", 3, {"grey_wall": True}, reminder_hours=6.0, reminder_max=5
    )
    await reach(service, match_id, "azul", "column")
    info = await service.info(match_id)
    assert len(info.waits_for) >= 2
    await table.tick()
    table.clock.advance(5 * HOUR)
    first = await waited_person(service, match_id)
    legal = await service.legal_moves(match_id, USERS[first])
    await service.play(match_id, USERS[first], legal[0].notation)
    still = (await service.info(match_id)).waits_for
    assert set(still) - {USERS[first].id}  # others still wait (and maybe the mover too)
    assert (await table.tick())["reminders"] == 0
    table.clock.advance(HOUR + 1)
    assert (await table.tick())["reminders"] == len(still)
    assert await reminded(service, match_id) == set(still)
    table.clock.advance(HOUR)
    assert (await table.tick())["reminders"] == 0  # the next one 6 hours after this one


async def test_heads_up_goes_to_the_player_after_the_seat_waited_for(table: Table) -> None:
    service = table.service
    for user in USERS[:4]:
        await service.store.set_user(user.id, settings={"heads_up": True})
    match_id = await start(service, "pastiche", 4)
    await reach(service, match_id, "pastiche", "answer")
    info = await service.info(match_id)
    n = len(info.seats)
    waiting = [info.seat_of(u) for u in info.waits_for]
    want = {info.seats[(s + 1) % n].user_id for s in waiting if s is not None} - set(info.to_act)
    assert (await table.tick())["headsup"] == len(want)
    rows = await service.store.due_notifications(now=table.clock.now + 1, limit=100)
    assert {r.payload["user_id"] for r in rows if r.kind == "headsup"} == want


async def test_mute_lasts_while_the_seat_keeps_waiting(table: Table) -> None:
    """ "Mute for this turn" is clicked at one version; another seat's move does not
    un-mute it, a new wait of the same seat does."""
    service = table.service
    match_id = await start(
        service, "azul", 3, {"grey_wall": True}, reminder_hours=6.0, reminder_max=5
    )
    await reach(service, match_id, "azul", "column")
    info = await service.info(match_id)
    first = await waited_person(service, match_id)
    others = [u for u in info.waits_for if u != USERS[first].id]
    assert others
    muted = next(u for u in USERS if u.id == others[0])
    await service.mute_turn(match_id, muted, info.version)
    await table.tick()
    legal = await service.legal_moves(match_id, USERS[first])
    await service.play(match_id, USERS[first], legal[0].notation)
    assert muted.id in (await service.info(match_id)).waits_for
    table.clock.advance(6 * HOUR + 1)
    await table.tick()
    assert muted.id not in await reminded(service, match_id)
    assert await reminded(service, match_id)  # the others were reminded
