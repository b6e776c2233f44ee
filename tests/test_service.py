"""The match service: authorisation, refusals that change nothing, races, restarts,
snapshot = replay, undo policy, resign/abort, records and the outbox."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot.matches.errors import BoardChanged, InvalidMove, NotAllowed, NotFound
from bot.matches.rows import effective_moves
from bot.matches.service import MatchService
from bot.matches.turns import GATE_READ_SECONDS
from bot.storage import MIGRATIONS
from rules import get_game
from tests.conftest import ALICE, BOB, CAROL, MALLORY


async def started(service: MatchService, players=(ALICE, BOB), seed: int = 3, **options):
    info = await service.create_match(
        "test-pile", players[0], options or None, seed=seed, guild_id="g1", channel_id="c1"
    )
    for p in players[1:]:
        await service.join(info.id, p)
    report = await service.start(info.id, players[0])
    return report.match


def user_of(match, seat):
    return [ALICE, BOB, CAROL][[s.user_id for s in match.seats].index(match.seats[seat].user_id)]


async def on_turn(service: MatchService, match_id: int):
    info = await service.info(match_id)
    uid = info.to_act[0]
    return next(u for u in (ALICE, BOB, CAROL) if u.id == uid), info


async def snapshot(service: MatchService, match_id: int) -> tuple:
    m = await service.store.get_match(match_id)
    return m.version, json.dumps(m.state, sort_keys=True), len(await service.store.moves(match_id))


async def test_lobby_flow_and_start(service: MatchService) -> None:
    info = await service.create_match("test-pile", ALICE, {"size": 5}, max_players=2)
    assert info.status == "lobby" and info.names == ["Alice"]
    with pytest.raises(NotAllowed, match="needs at least 2"):
        await service.start(info.id, ALICE)
    await service.join(info.id, BOB)
    with pytest.raises(NotAllowed, match="already joined"):
        await service.join(info.id, BOB)
    with pytest.raises(NotAllowed, match="full"):
        await service.join(info.id, CAROL)
    with pytest.raises(NotAllowed, match="not playing"):
        await service.start(info.id, MALLORY)
    report = await service.start(info.id, BOB)
    assert report.match.status == "running"
    picture = await report.wait_picture()  # drawn after the commit
    assert picture and picture.startswith(b"\x89PNG")
    assert len(report.match.to_act) == 1
    with pytest.raises(NotAllowed, match="already started"):
        await service.join(info.id, CAROL)


async def test_bad_game_and_options_are_refused(service: MatchService) -> None:
    with pytest.raises(NotFound, match="no game called"):
        await service.create_match("chess", ALICE)
    with pytest.raises(InvalidMove, match="size"):
        await service.create_match("test-pile", ALICE, {"size": 1000})
    with pytest.raises(InvalidMove, match="Pile has no option colour; its options are: size"):
        await service.create_match("test-pile", ALICE, {"colour": "red"})
    with pytest.raises(InvalidMove, match="players: 2–3"):
        await service.create_match("test-pile", ALICE, max_players=9)
    with pytest.raises(NotFound):
        await service.info(424242)


async def test_wrong_turn_stranger_illegal_change_nothing(service: MatchService) -> None:
    match = await started(service)
    mover, info = await on_turn(service, match.id)
    idle = BOB if mover == ALICE else ALICE
    before = await snapshot(service, match.id)
    with pytest.raises(NotAllowed, match="not your turn; waiting for " + mover.name):
        await service.play(match.id, idle, "take1")
    with pytest.raises(NotAllowed, match="not playing in match"):
        await service.play(match.id, MALLORY, "take1")
    with pytest.raises(InvalidMove, match="take 1 to 3 counters, not 7"):
        await service.play(match.id, mover, "take7")
    with pytest.raises(InvalidMove, match="not a legal move"):
        await service.play(match.id, mover, "banana")
    assert await snapshot(service, match.id) == before
    assert await service.store.pending_count() == 1  # only the start post


async def test_play_commits_move_snapshot_and_outbox(service: MatchService) -> None:
    match = await started(service)
    mover, info = await on_turn(service, match.id)
    report = await service.play(match.id, mover, "TAKE 2")
    assert report.lines[0] == f"{mover.name}: take 2 counters"
    assert report.match.version == info.version + 1
    rows = await service.store.moves(match.id)
    assert [(r.notation, r.user_id) for r in rows] == [("take2", mover.id)]
    due = await service.store.due_notifications()
    assert [d.kind for d in due] == ["turn"]  # per-match order: the second waits
    await service.store.mark_sent(due[0].id)
    due = await service.store.due_notifications()
    assert due[0].payload["ply"] == 1 and due[0].payload["mentions"] == report.match.to_act


async def test_racing_moves_apply_exactly_once(service: MatchService) -> None:
    match = await started(service)
    mover, info = await on_turn(service, match.id)
    results = await asyncio.gather(
        *[service.play(match.id, mover, "take1", expected_version=info.version) for _ in range(8)],
        return_exceptions=True,
    )
    ok = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(ok) == 1
    assert all(isinstance(r, BoardChanged | NotAllowed) for r in refused)
    assert len(await service.store.moves(match.id)) == 1


async def test_two_services_on_one_file_never_both_apply(database: str | Path) -> None:
    a = await MatchService.open(database, render=False)
    b = await MatchService.open(database, render=False)
    try:
        match = await started(a)
        mover, info = await on_turn(a, match.id)
        results = await asyncio.gather(
            a.play(match.id, mover, "take1"),
            b.play(match.id, mover, "take2"),
            return_exceptions=True,
        )
        assert sum(not isinstance(r, Exception) for r in results) == 1
        assert len(await a.store.moves(match.id)) == 1
    finally:
        await a.close()
        await b.close()


async def test_restart_continues_and_audit_matches(database: str | Path) -> None:
    path = database
    svc = await MatchService.open(path, render=False)
    match = await started(svc)
    mover, _ = await on_turn(svc, match.id)
    await svc.play(match.id, mover, "draw")
    await svc.close()

    svc = await MatchService.open(path, render=False)
    try:
        assert await svc.store.schema_version() == len(MIGRATIONS)
        mover, _ = await on_turn(svc, match.id)
        await svc.play(match.id, mover, "take3")
        assert await svc.audit() == []
        m = await svc.store.get_match(match.id)
        rebuilt = await svc.state_at(match.id, ply=2)
        assert rebuilt == m.state
    finally:
        await svc.close()


async def test_audit_reports_a_tampered_snapshot(service: MatchService) -> None:
    match = await started(service)
    mover, _ = await on_turn(service, match.id)
    await service.play(match.id, mover, "take1")
    row = await service.store.get_match(match.id)
    assert row is not None and row.state is not None
    tampered = json.dumps({**row.state, "pile": 99})
    await service.store._writer.execute(
        "UPDATE matches SET state = ? WHERE id = ?", (tampered, match.id)
    )
    problems = await service.audit()
    assert [(p.match_id, p.problem) for p in problems] == [
        (match.id, "snapshot differs from replay")
    ]


async def test_full_game_to_result_and_record(service: MatchService) -> None:
    match = await started(service, seed=11, size=4)
    while True:
        mover, info = await on_turn(service, match.id)
        report = await service.play(match.id, mover, "take1")
        if report.finished:
            break
    assert report.match.status == "finished"
    assert "wins" in report.lines[-1] or "Shared victory" in report.lines[-1]
    with pytest.raises(NotAllowed, match="over"):
        await service.play(match.id, mover, "take1")
    record = await service.export_record(match.id)
    assert record["format"] == "tessera-record/1"
    assert record["result"]["scores"] == get_game("test-pile").scores(
        (await service.store.get_match(match.id)).state
    )
    # an independent replay of the record reaches the same final scores
    game = get_game(record["game"])
    state = game.setup(len(record["players"]), record["seed"], record["options"])
    for mv in record["moves"]:
        state, _ = game.apply(state, mv["seat"], game.parse(state, mv["seat"], mv["notation"]))
    assert game.scores(state) == record["final_scores"]


async def test_record_of_running_match_hides_secrets(service: MatchService) -> None:
    match = await started(service)
    mover, _ = await on_turn(service, match.id)
    report = await service.play(match.id, mover, "draw")
    assert report.private[mover.id][0].startswith("You drew a ")
    record = await service.export_record(match.id)
    ev = record["moves"][0]["events"][0]
    assert "secret" not in ev and "private" not in ev
    assert "drew a secret card" in ev["text"]
    # the public turn post carries no secret either; the owner gets a DM item
    posts = await service.store.due_notifications(limit=50)
    assert all("You drew" not in json.dumps(p.payload) for p in posts if p.kind == "turn")


async def test_hand_is_only_for_its_owner(service: MatchService) -> None:
    match = await started(service)
    mover, _ = await on_turn(service, match.id)
    await service.play(match.id, mover, "draw")
    png, view = await service.hand(match.id, mover)
    assert png.startswith(b"\x89PNG") and len(view["hand"]) == 1
    with pytest.raises(NotAllowed):
        await service.hand(match.id, MALLORY)


async def test_undo_own_move_needs_consent_when_turn_passed(service: MatchService) -> None:
    match = await started(service, players=(ALICE, BOB, CAROL))
    mover, _ = await on_turn(service, match.id)
    await service.play(match.id, mover, "take1")
    others = [u for u in (ALICE, BOB, CAROL) if u != mover]
    next_player, _ = await on_turn(service, match.id)
    with pytest.raises(NotAllowed, match="only take back your own move"):
        await service.undo(match.id, next_player)
    info = await service.undo(match.id, mover)
    assert info.settings["undo"]["seat"] == info.seat_of(mover.id)
    with pytest.raises(NotAllowed, match="other players must agree"):
        await service.answer_undo(match.id, mover, True)
    await service.answer_undo(match.id, others[0], True)
    assert len(effective_moves(await service.store.moves(match.id))) == 1
    report = await service.answer_undo(match.id, others[1], True)
    assert "took back" in report.lines[0]
    assert effective_moves(await service.store.moves(match.id)) == []
    assert await service.audit() == []
    again, _ = await on_turn(service, match.id)
    assert again == mover


async def test_undo_refused_after_a_reveal_and_request_lapses(service: MatchService) -> None:
    match = await started(service)
    mover, _ = await on_turn(service, match.id)
    await service.play(match.id, mover, "draw")
    with pytest.raises(NotAllowed, match="came to light"):
        await service.undo(match.id, mover)
    other, _ = await on_turn(service, match.id)
    await service.play(match.id, other, "take1")
    await service.undo(match.id, other)  # turn passed: a request
    await service.play(match.id, mover, "take1")  # a new move cancels it
    with pytest.raises(NotAllowed, match="no open request"):
        await service.answer_undo(match.id, mover, True)


async def test_resign_and_abort_permissions(service: MatchService) -> None:
    match = await started(service)
    with pytest.raises(NotAllowed):
        await service.resign(match.id, MALLORY)
    with pytest.raises(NotAllowed, match="Only the players"):
        await service.abort(match.id, MALLORY)
    info = await service.abort(match.id, BOB)  # a running match: one vote of two
    assert info.status == "running" and info.settings["abort_votes"] == [BOB.id]
    report = await service.resign(match.id, BOB)
    assert report.match.status == "finished"
    assert report.match.result["winners"] == [report.match.seat_of(ALICE.id)]
    assert await service.audit() == []
    other = await started(service, seed=4)
    with pytest.raises(NotAllowed, match="give a reason"):
        await service.abort(other.id, MALLORY, is_admin=True)
    info = await service.abort(other.id, MALLORY, is_admin=True, reason="spam")
    assert info.status == "aborted" and info.status_text.endswith("(Mallory): spam")


async def test_clock_expiry_skips_or_forfeits(service: MatchService) -> None:
    match = await started(service)
    mover, info = await on_turn(service, match.id)
    report = await service.expire_turn(match.id, info.version, "skip")
    assert "(out of time)" in report.lines[0]
    with pytest.raises(BoardChanged):
        await service.expire_turn(match.id, info.version, "skip")
    late, info = await on_turn(service, match.id)
    report = await service.expire_turn(match.id, info.version, "forfeit")
    assert report.match.status == "finished"
    assert late.id not in [report.match.seats[w].user_id for w in report.match.result["winners"]]


async def test_history_in_words(service: MatchService) -> None:
    match = await started(service)
    mover, _ = await on_turn(service, match.id)
    await service.play(match.id, mover, "take2")
    assert await service.history(match.id) == [f"1. {mover.name}: take 2 counters"]


async def test_expired_lobby_cannot_be_joined(service: MatchService, monkeypatch) -> None:
    info = await service.create_match("test-pile", ALICE)
    import bot.matches.lobby as lobby_module

    monkeypatch.setattr(lobby_module, "LOBBY_TTL_SECONDS", -1)
    with pytest.raises(NotAllowed, match="expired"):
        await service.join(info.id, BOB)


async def test_outbox_retry_keeps_per_match_order(service: MatchService) -> None:
    match = await started(service)
    mover, _ = await on_turn(service, match.id)
    await service.play(match.id, mover, "take1")
    first = (await service.store.due_notifications())[0]
    await service.store.mark_failed(first.id, "503", retry_at=first.due_at + 3600)
    assert await service.store.due_notifications() == []  # the later post waits its turn
    due = await service.store.due_notifications(now=first.due_at + 3601)
    assert [d.id for d in due] == [first.id]


async def test_move_words_name_players_instead_of_seats(service: MatchService) -> None:
    match = await started(service)
    mover, _ = await on_turn(service, match.id)
    other = BOB if mover == ALICE else ALICE
    labels = [m.label for m in await service.legal_moves(match.id, mover)]
    assert f"poke {other.name}" in labels and not any("{p" in lb for lb in labels)
    report = await service.play(match.id, mover, f"Poke {other.name}")  # the label as shown
    assert report.lines[0] == f"{mover.name}: poke {other.name}"
    assert (await service.history(match.id)) == [f"1. {mover.name}: poke {other.name}"]


async def test_azul_through_the_service_explains_illegal_moves(service: MatchService) -> None:
    """The real game behind the service: a refusal names the rule and changes nothing."""
    info = await service.create_match("azul", ALICE, {"grey_wall": False}, max_players=2, seed=9)
    await service.join(info.id, BOB)
    await service.start(info.id, ALICE)
    mover, _ = await on_turn(service, info.id)
    first = (await service.legal_moves(info.id, mover))[0]
    source, colour, _line = first.notation.split("-")
    await service.play(info.id, mover, f"{source}-{colour}-1")
    other, _ = await on_turn(service, info.id)
    await service.play(info.id, other, (await service.legal_moves(info.id, other))[-1].notation)
    before = await snapshot(service, info.id)
    # line 1 holds the first colour: another colour cannot go there
    names = {"B": "blue", "Y": "yellow", "R": "red", "K": "black", "W": "white"}
    legal = await service.legal_moves(info.id, mover)
    again = next(m for m in legal if m.notation.split("-")[1] != colour)
    src, col, _ = again.notation.split("-")
    held = names[colour]
    with pytest.raises(InvalidMove, match=f"Line 1 already holds {held}; it only takes {held}"):
        await service.play(info.id, mover, f"{src}-{col}-1")
    with pytest.raises(InvalidMove, match="is not a move"):
        await service.play(info.id, mover, "X9-Q-7")
    assert await snapshot(service, info.id) == before
    assert await service.audit() == []


async def test_snapshot_and_its_ply_are_read_together(service: MatchService) -> None:
    match = await started(service)
    for _ in range(2):
        mover, _ = await on_turn(service, match.id)
        await service.play(match.id, mover, "take1")
    row = await service.store.get_match(match.id)
    assert row.last_ply == 2
    # the cached current picture is keyed by that ply, and equals a fresh drawing of it
    assert await service.picture(match.id) == await service.picture(match.id, 2)


async def test_listing_matches_carries_every_seat_in_order(service: MatchService) -> None:
    first = await started(service, players=(ALICE, BOB, CAROL))
    second = await started(service, players=(BOB, ALICE), seed=8)
    listed = {m.id: m.names for m in await service.list_matches(guild_id="g1")}
    assert listed == {first.id: ["Alice", "Bob", "Carol"], second.id: ["Bob", "Alice"]}
    rows = await service.store.list_matches(statuses=("running",))
    assert [service.describe(r).names for r in rows] == [
        (await service.info(r.id)).names for r in rows
    ]


async def test_legal_moves_are_listed_once_per_match_version(
    service: MatchService, monkeypatch
) -> None:
    """Each click of the button panel asks for the moves again: the service lists them once
    per match version; a move or an undo (a new version) lists them afresh. ``turn_for``
    hands them over as the rules list them (labels unsaid), ``legal_moves`` named."""
    match = await started(service, players=(ALICE, BOB, CAROL))
    game = get_game("test-pile")
    real = game.legal_moves
    calls: list[int] = []

    def counting(state, seat):
        calls.append(seat)
        return real(state, seat)

    monkeypatch.setattr(game, "legal_moves", counting)
    mover, _ = await on_turn(service, match.id)
    first = await service.legal_moves(match.id, mover)
    info, again = await service.turn_for(match.id, mover)
    assert [m.notation for m in again] == [m.notation for m in first] and len(calls) == 1
    stored = await service.store.get_match(match.id)
    assert again == real(stored.state, stored.seat_of(mover.id))  # the rules' own moves
    assert any("{p" in m.label for m in again) and not any("{p" in m.label for m in first)
    again.clear()  # a caller's list is its own: the remembered one is untouched
    assert await service.legal_moves(match.id, mover) == first and len(calls) == 1
    assert (await service.turn_for(match.id, mover))[1] != [] and len(calls) == 1

    await service.play(match.id, mover, first[0].notation)
    following, _ = await on_turn(service, match.id)
    stored = await service.store.get_match(match.id)
    seat = stored.seat_of(following.id)
    listed = len(calls)  # play itself consults the rules: count from here
    moves = await service.legal_moves(match.id, following)
    assert len(calls) == listed + 1
    assert [m.notation for m in moves] == [m.notation for m in real(stored.state, seat)]
    assert await service.legal_moves(match.id, following) == moves and len(calls) == listed + 1

    await service.undo(match.id, mover)
    for other in (u for u in (ALICE, BOB, CAROL) if u != mover):
        await service.answer_undo(match.id, other, True)
    listed = len(calls)
    back = await service.legal_moves(match.id, mover)
    assert len(calls) == listed + 1 and back == first


async def test_a_play_after_its_gate_reuses_the_gates_read(
    service: MatchService, monkeypatch
) -> None:
    """A button's click reads the match in its gate (``turn_for``) and plays at that
    version: the play takes the gate's read instead of reading again. When that read was
    overtaken (the board moved on meanwhile), the answer is the fresh read's: the button
    is stale, and nothing is applied twice."""
    match = await started(service)
    reads: list[int] = []
    real = service.store.get_match

    async def counting(match_id: int):
        reads.append(match_id)
        return await real(match_id)

    monkeypatch.setattr(service.store, "get_match", counting)
    mover, _ = await on_turn(service, match.id)
    reads.clear()
    info, moves = await service.turn_for(match.id, mover)
    report = await service.play(match.id, mover, "take1", expected_version=info.version)
    assert reads == [match.id] and report.match.version == info.version + 1
    assert (await service.store.moves(match.id))[-1].notation == "take1"

    # the gate reads at v, another move lands (typed: no version), then the click plays
    mover, _ = await on_turn(service, match.id)
    info, _ = await service.turn_for(match.id, mover)
    await service.play(match.id, mover, "take2")
    before = await snapshot(service, match.id)
    reads.clear()
    with pytest.raises(BoardChanged, match="since that button was made"):
        await service.play(match.id, mover, "take1", expected_version=info.version)
    assert reads == [match.id]  # the overtaken read, then a fresh one
    assert await snapshot(service, match.id) == before
    # a read serves one play: a second click at the same version reads afresh
    reads.clear()
    with pytest.raises(BoardChanged, match="since that button was made"):
        await service.play(match.id, mover, "take1", expected_version=info.version)
    assert reads == [match.id]
    # and only for a few seconds: a play long after its gate reads the match again
    mover, _ = await on_turn(service, match.id)
    now = [1000.0]
    monkeypatch.setattr(service._turns, "_clock", lambda: now[0])
    info, _ = await service.turn_for(match.id, mover)
    now[0] += GATE_READ_SECONDS + 1
    reads.clear()
    await service.play(match.id, mover, "take1", expected_version=info.version)
    assert reads == [match.id]  # its own read (a fresh gate's read would have served)
