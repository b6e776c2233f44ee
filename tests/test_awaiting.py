"""Which running matches wait for a person, across every server (``MatchService.awaiting``,
``/game list``'s first lines), on both backends, and that the read stays on the indexes."""

from __future__ import annotations

from typing import Any

from bot.matches.reports import User
from bot.matches.service import MatchService
from bot.storage import is_postgres_url

ANN, BEN, CID = User("3001", "Ann"), User("3002", "Ben"), User("3003", "Cid")


async def started(
    service: MatchService, guild: str, *players: User, awaited: User, **settings: Any
) -> int:
    """A Pile match of ``players`` in ``guild``, moved on until it waits for ``awaited``."""
    info = await service.create_match(
        "test-pile", players[0], guild_id=guild, channel_id="1", settings=settings or None
    )
    for p in players[1:]:
        await service.join(info.id, p)
    await service.start(info.id, players[0])
    for _ in range(3):
        info = await service.info(info.id)
        if info.to_act == [awaited.id]:
            return info.id
        mover = next(p for p in players if p.id in info.to_act)
        await service.play(info.id, mover, "take1")
    raise AssertionError("the match never waited for " + awaited.name)


async def test_the_matches_waiting_for_a_person_in_every_server(service: MatchService) -> None:
    here = await started(service, "100", ANN, BEN, awaited=ANN)
    there = await started(service, "200", BEN, ANN, awaited=ANN, clock_days=2)
    theirs = await started(service, "100", ANN, CID, awaited=CID)  # Ann plays, Cid is awaited
    await started(service, "100", BEN, CID, awaited=BEN)  # not Ann's match
    lobby = await service.create_match("test-pile", ANN, guild_id="200", channel_id="1")
    found = await service.awaiting(ANN.id)
    # the match with a clock first (its deadline is the soonest), then the longest wait
    assert [a.match.id for a in found] == [there, here]
    clocked, free = found
    assert free.deadline is None and clocked.match.guild_id == "200"
    assert clocked.deadline is not None
    assert abs(clocked.deadline - (clocked.since + 2 * 86400)) < 1e-6
    assert [a.match.id for a in await service.awaiting(CID.id)] == [theirs]
    # a default clock from the bot's settings, for matches that set none
    found = await service.awaiting(ANN.id, default_clock_days=1)
    assert [a.match.id for a in found] == [here, there]  # one day is sooner than two
    assert all(a.deadline is not None for a in found)
    assert lobby.id not in [a.match.id for a in found]
    assert await service.awaiting("nobody") == []


async def test_the_read_uses_the_seats_index(service: MatchService) -> None:
    """The statement ``awaiting`` runs reaches the person's matches through the
    ``seats_user`` index, on a server with thousands of running matches (the planners
    are told the tables' sizes: ``ANALYZE``), rather than walking every running match."""
    await started(service, "100", ANN, BEN, awaited=ANN)
    store = service.store
    now = store.now()

    async def crowd(conn: Any) -> None:  # 3,000 running matches of other people
        await conn.executemany(
            "INSERT INTO matches (game_id, options, seed, status, creator_id, guild_id, "
            "max_players, settings, created_at, updated_at) "
            "VALUES ('test-pile', '{}', 1, 'running', ?, '100', 2, '{}', ?, ?)",
            [(f"crowd{i}", now, now) for i in range(3000)],
        )
        await conn.execute(
            "INSERT INTO seats (match_id, seat, user_id, name, joined_at) "
            "SELECT id, 0, creator_id, 'x', created_at FROM matches WHERE creator_id LIKE 'crowd%'"
        )
        await conn.execute("ANALYZE")

    await store._transaction(crowd)
    reader = store._reader
    seen: list[tuple[str, tuple[Any, ...]]] = []

    class Recording:
        async def execute(self, sql: str, params: Any = ()) -> Any:
            seen.append((sql, tuple(params)))
            return await reader.execute(sql, params)

    store._reader = Recording()  # type: ignore[assignment]
    try:
        assert len(await service.awaiting(ANN.id)) == 1
    finally:
        store._reader = reader
    (sql, params), *_ = [(s, p) for s, p in seen if "FROM matches" in s]
    if is_postgres_url(str(store.path)):
        from bot.storage.postgres import to_dollar

        rows = await reader._target.fetch("EXPLAIN " + to_dollar(sql), *params)  # type: ignore[union-attr]
    else:
        rows = await reader.execute("EXPLAIN QUERY PLAN " + sql, params)
        rows = await rows.fetchall()
    text = "\n".join(str(r[-1]) for r in rows)
    assert "seats_user" in text, text
