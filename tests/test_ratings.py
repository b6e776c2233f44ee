"""Ratings: OpenSkill per server and game, people only, rebuilt exactly from the matches."""

from __future__ import annotations

import asyncio
import json

import asyncpg

from bot.__main__ import main
from bot.community import ratings
from bot.computers.players import is_computer
from bot.matches.reports import User
from bot.matches.service import MatchService
from bot.storage.postgres import to_dollar
from tests.conftest import new_postgres_database
from tests.pg_server import PgServer
from tests.ratings_helpers import play_result
from tests.reliability_helpers import PLAYERS

ANN, BEN, CID = "2001", "2002", "2003"


async def _changes(service: MatchService, match_id: int) -> dict[str, tuple[float, ...]]:
    async def read(conn: object) -> list[ratings.Change]:
        return await ratings.match_changes(conn, match_id)

    return {
        c.user_id: (c.before.mu, c.before.sigma, c.after.mu, c.after.sigma)
        for c in await service.store._transaction(read)
    }


async def test_a_known_sequence_of_results_orders_the_leaderboard(
    service: MatchService,
) -> None:
    await play_result(service, {ANN: 3, BEN: 1})
    await play_result(service, {ANN: 3, CID: 1})
    await play_result(service, {BEN: 3, CID: 1})
    await play_result(service, {CID: 1, BEN: 2, ANN: 3})
    board = await ratings.leaderboard(service.store, "100", "test-pile")
    assert [s.name for s in board] == ["Ann", "Ben", "Cid"]
    assert [s.games for s in board] == [3, 3, 3]
    assert board[0].rating.mu > ratings.DEFAULT.mu > board[2].rating.mu
    # every rated game makes the model surer of everyone who played
    assert all(s.rating.sigma < ratings.DEFAULT.sigma for s in board)
    # another server and another game have boards of their own
    assert await ratings.leaderboard(service.store, "999", "test-pile") == []
    assert await ratings.leaderboard(service.store, "100", "azul") == []


async def test_a_tie_moves_equal_ratings_equally(service: MatchService) -> None:
    match_id = await play_result(service, {ANN: 2, BEN: 2})
    changes = await _changes(service, match_id)
    assert changes[ANN] == changes[BEN]
    assert changes[ANN][2] == ratings.DEFAULT.mu  # a draw between equals moves no one's μ


async def test_computer_seats_never_change_a_persons_rating(service: MatchService) -> None:
    """Ann beats Ben in each: alone, with a computer that wins, with one that comes last.
    The people's changes are the same each time, and no computer gets a rating."""
    alone = await play_result(service, {ANN: 3, BEN: 1}, guild_id="1")
    first = await play_result(
        service, {ANN: 2, BEN: 1}, guild_id="2", computers=1, computer_targets=(3,),
        settings={"rated": True},
    )  # fmt: skip
    last = await play_result(
        service, {ANN: 3, BEN: 2}, guild_id="3", computers=1, computer_targets=(1,),
        settings={"rated": True},
    )  # fmt: skip
    expected = await _changes(service, alone)
    assert set(expected) == {ANN, BEN}
    assert await _changes(service, first) == expected
    assert await _changes(service, last) == expected
    for guild in ("2", "3"):
        board = await ratings.leaderboard(service.store, guild, "test-pile")
        assert [s.user_id for s in board] == [ANN, BEN]


async def test_unrated_matches_change_nothing(service: MatchService) -> None:
    # computers seated and "rated" unset: not rated; "rated" off: not rated;
    # one person with computers, even asked to be rated: nobody to rate against
    await play_result(service, {ANN: 3, BEN: 1}, computers=1, computer_targets=(2,))
    await play_result(service, {ANN: 3, BEN: 1}, settings={"rated": False})
    await play_result(
        service, {ANN: 3}, computers=1, computer_targets=(1,), settings={"rated": True}
    )
    assert await ratings.table_rows(service.store) == []


async def test_the_final_post_shows_each_persons_change(service: MatchService) -> None:
    match_id = await play_result(service, {ANN: 3, BEN: 1})
    cur = await service.store._reader.execute(
        "SELECT payload FROM outbox WHERE match_id = ? AND kind = 'turn' ORDER BY id", (match_id,)
    )
    finals = [p for (raw,) in await cur.fetchall() if (p := json.loads(raw)).get("final")]
    assert len(finals) == 1
    changes = await _changes(service, match_id)
    text = finals[0]["text"]
    assert "Ratings" in text
    ann_mu = changes[ANN][2]
    assert f"Ann: {ann_mu:.1f} ± {changes[ANN][3]:.1f} (+" in text
    assert f"Ben: {changes[BEN][2]:.1f} ± {changes[BEN][3]:.1f} (-" in text


async def test_rebuild_reproduces_the_table_exactly(service: MatchService) -> None:
    for guild in ("100", "200"):
        await play_result(service, {ANN: 3, BEN: 1}, guild_id=guild)
        await play_result(service, {BEN: 3, CID: 2, ANN: 1}, guild_id=guild)
        await play_result(service, {CID: 3, ANN: 3}, guild_id=guild)
        await play_result(service, {ANN: 2, CID: 1}, guild_id=guild, settings={"rated": False})
    before = await ratings.table_rows(service.store)
    assert len(before) == 6 + 2 * 7  # 3 people x 2 servers; 7 changes per server
    assert await ratings.rebuild_all(service.store) == 6
    assert await ratings.table_rows(service.store) == before


async def test_a_late_finisher_is_put_in_finish_order(service: MatchService) -> None:
    """A match whose finish lies before one already applied (two processes finishing at
    once) makes its server and game recompute: the table still equals the rebuild."""
    await play_result(service, {ANN: 3, BEN: 1})
    await play_result(service, {BEN: 3, ANN: 1})

    before = await ratings.table_rows(service.store)

    async def forget_and_catch_up(conn: object) -> None:
        # the ratings as if only the second match had been applied so far
        await conn.execute("DELETE FROM rating_changes")  # type: ignore[attr-defined]
        await conn.execute("DELETE FROM ratings")  # type: ignore[attr-defined]
        matches = await ratings._rated_matches(conn, "100", "test-pile")
        await ratings._write(conn, matches[1:], {})
        await ratings.bring_up_to_date(conn, "100", "test-pile", matches[0].id)

    await service.store._transaction(forget_and_catch_up)
    assert await ratings.table_rows(service.store) == before


async def test_matches_finished_before_ratings_existed_join_at_the_next_one(
    service: MatchService,
) -> None:
    """After an upgrade the rating tables start empty: the board's next rated finish takes
    in every match before it, and the table equals the rebuild."""
    await play_result(service, {ANN: 3, BEN: 1})
    await play_result(service, {BEN: 3, CID: 1})

    async def forget(conn: object) -> None:
        await conn.execute("DELETE FROM rating_changes")  # type: ignore[attr-defined]
        await conn.execute("DELETE FROM ratings")  # type: ignore[attr-defined]

    await service.store._transaction(forget)
    await play_result(service, {CID: 3, ANN: 1}, settings={"rated": False})  # not rated
    assert await ratings.table_rows(service.store) == []
    await play_result(service, {CID: 3, ANN: 1})
    incremental = await ratings.table_rows(service.store)
    assert len(incremental) == 3 + 6
    assert await ratings.rebuild_all(service.store) == 3
    assert await ratings.table_rows(service.store) == incremental


def test_ratings_rebuild_command(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    import asyncio

    db = tmp_path / "r.db"

    async def fill() -> list[tuple[object, ...]]:
        svc = await MatchService.open(db, render=False)
        try:
            await play_result(svc, {ANN: 3, BEN: 1})
            await play_result(svc, {BEN: 3, CID: 1})
            return await ratings.table_rows(svc.store)
        finally:
            await svc.close()

    before = asyncio.run(fill())
    assert main(["--db", str(db), "ratings", "--rebuild"]) == 0
    out = capsys.readouterr().out
    assert "rebuilt from 2 rated match(es)" in out
    assert main(["--db", str(db), "ratings"]) == 0
    out = capsys.readouterr().out
    assert "1. Ann (2001)" in out and "2. Ben (2002)" in out and "test-pile" in out

    async def after() -> list[tuple[object, ...]]:
        svc = await MatchService.open(db, render=False)
        try:
            return await ratings.table_rows(svc.store)
        finally:
            await svc.close()

    assert asyncio.run(after()) == before


async def test_a_resigner_whose_seat_played_on_is_rated_last(service: MatchService) -> None:
    """Three people; Cid resigns before anyone moves and a computer plays his seat to the
    end. The match is still rated among the people, with Cid last (the computer's score
    does not count for him), and the rebuild agrees."""
    ann, ben, cid = (next(p for p in PLAYERS if p.id == u) for u in (ANN, BEN, CID))
    info = await service.create_match(
        "test-pile", ann, {"size": 9}, max_players=3, guild_id="7", seed=3
    )
    await service.join(info.id, ben)
    await service.join(info.id, cid)
    await service.start(info.id, ann)
    await service.resign(info.id, cid)
    while (info := await service.info(info.id)).status == "running":
        uid = info.to_act[0]
        holder = next(s for s in info.seats if s.user_id == uid)
        who = next((p for p in PLAYERS if p.id == uid), None)
        if is_computer(uid):  # the computer's seat, played here without a driver
            who = User(uid, holder.name)
        assert who is not None
        moves = await service.legal_moves(info.id, who)
        await service.play(info.id, who, moves[0].notation)
    changes = await _changes(service, info.id)
    assert set(changes) == {ANN, BEN, CID}
    board = await ratings.leaderboard(service.store, "7", "test-pile")
    assert board[-1].user_id == CID and board[-1].name == cid.name
    before = [(s.user_id, s.rating) for s in board]
    await ratings.rebuild_all(service.store)
    again = await ratings.leaderboard(service.store, "7", "test-pile")
    assert [(s.user_id, s.rating) for s in again] == before


async def _waiting_for_advisory_lock(conn: asyncpg.Connection, key: int) -> bool:
    """Whether some session waits for the advisory lock ``key`` (its two 32-bit halves)."""
    unsigned = key & 0xFFFF_FFFF_FFFF_FFFF
    return bool(
        await conn.fetchval(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
            "AND classid::bigint = $1 AND objid::bigint = $2",
            unsigned >> 32,
            unsigned & 0xFFFF_FFFF,
        )
    )


async def test_finishes_wait_only_for_their_own_board_on_postgres(postgres: PgServer) -> None:
    """A finish on one server goes through while another process is inside a finish on
    a second server (one lock for every board made it wait); a finish on the same board
    waits for it, and so does a rebuild of every rating."""
    url = await new_postgres_database(postgres)
    service = await MatchService.open(url)
    other = await asyncpg.connect(url)
    watcher = await asyncpg.connect(url)
    try:
        busy = ratings.board_lock_key("100", "test-pile")
        assert busy != ratings.board_lock_key("200", "test-pile")
        assert busy != ratings.board_lock_key("100", "azul")
        tx = other.transaction()
        await tx.start()  # another process, inside its finish on server 100's board
        await other.execute(
            to_dollar(service.store._RATINGS_BOARD_LOCK), ratings.RATINGS_LOCK_KEY, busy
        )
        # server 200: not held up (an endless wait here fails the test by its timeout)
        await asyncio.wait_for(play_result(service, {ANN: 2, BEN: 1}, guild_id="200"), 60)
        assert [s.games for s in await ratings.leaderboard(service.store, "200", "test-pile")] == [
            1,
            1,
        ]
        same = asyncio.create_task(play_result(service, {ANN: 1, BEN: 2}, guild_id="100"))
        while not await _waiting_for_advisory_lock(watcher, busy):
            assert not same.done()
            await asyncio.sleep(0.01)
        rebuild = asyncio.create_task(ratings.rebuild_all(service.store))
        while not await _waiting_for_advisory_lock(watcher, ratings.RATINGS_LOCK_KEY):
            assert not rebuild.done()
            await asyncio.sleep(0.01)
        assert await ratings.leaderboard(service.store, "100", "test-pile") == []
        await tx.rollback()
        await same
        assert await rebuild == 2
        board = await ratings.leaderboard(service.store, "100", "test-pile")
        assert [(s.name, s.games) for s in board] == [("Ben", 1), ("Ann", 1)]
    finally:
        await other.close()
        await watcher.close()
        await service.close()
