"""The league service's smaller promises: every wrong value refused in words naming what is
allowed (in every language), signing up and leaving, who may start and cancel, a sign-up
that closes with too few players, the reads the front end needs, and the migration step
(found by its content: its number changes at merges)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.community.leagues import Leagues
from bot.matches.errors import ServiceError
from bot.matches.reports import User
from bot.matches.service import MatchService
from bot.storage import migrations, postgres_migrations
from bot.storage.leagues import LEAGUES_POSTGRES, LEAGUES_SQLITE
from render.words.catalogue import LANGUAGES

MANAGER = User("900", "Mona")
ANN, BEN, CID, DEE = (User(str(3000 + i), n) for i, n in enumerate(("Ann", "Ben", "Cid", "Dee")))


@pytest.fixture
async def leagues(tmp_path: Path) -> AsyncIterator[Leagues]:
    svc = await MatchService.open(tmp_path / "a.db", render=False)
    yield Leagues(svc)
    await svc.close()


def new(**changes: Any) -> dict[str, Any]:
    return {
        "server_id": "77",
        "channel_id": "88",
        "creator": MANAGER,
        "game_id": "azul",
        "format": "swiss",
        **changes,
    }


async def refused(call: Any, key: str) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        await call
    assert caught.value.key == key, caught.value
    for lang in LANGUAGES:  # said in every language, every placeholder filled
        text = caught.value.text(lang)
        assert text and "{" not in text, (lang, text)
    return caught.value


@pytest.mark.parametrize(
    ("changes", "key", "named"),
    [
        ({"game_id": "chess"}, "league.bad_game", "taj-mahal"),
        ({"format": "knockout"}, "league.bad_format", "round-robin, swiss"),
        ({"fill": "ghost"}, "league.bad_fill", "computer, bye"),
        ({"players_per_table": 5}, "league.bad_table", "4"),
        ({"game_id": "taj-mahal", "players_per_table": 2}, "league.bad_table", "3"),
        ({"players_per_table": 2.0}, "league.bad_table", "2"),
        ({"rounds": 0}, "league.bad_rounds", "30"),
        ({"rounds": 2.5}, "league.bad_rounds", "30"),
        ({"days_per_move": 0}, "league.bad_days", "0.25"),
        ({"days_per_move": float("nan")}, "league.bad_days", "30"),
        ({"signup_days": -1}, "league.bad_signup", "60"),
        ({"language": "fr"}, "league.bad_language", "hu"),
        ({"rated": "yes"}, "league.bad_rated", "yes"),
        ({"hints": 1}, "league.bad_hints", "yes"),
        ({"name": "x" * 61}, "league.bad_name", "60"),
        ({"creator": User("ai:normal:1", "Ada")}, "league.computer", "Computer"),
    ],
)
async def test_every_wrong_value_is_refused_naming_what_is_allowed(
    leagues: Leagues, changes: dict[str, Any], key: str, named: str
) -> None:
    error = await refused(leagues.create(**new(**changes)), key)
    assert named in str(error)
    assert await leagues.list("77") == []  # nothing was created


async def test_signing_up_leaving_and_who_may_start(leagues: Leagues) -> None:
    league = await leagues.create(**new(name="Winter cup", signup_days=0))
    assert league.signup_until is None and league.name == "Winter cup"
    assert (league.players_per_table, league.rounds, league.days_per_move) == (2, None, 3.0)
    for p in (ANN, BEN):
        league = await leagues.join(league.id, p)
    await refused(leagues.join(league.id, ANN), "league.joined")
    await refused(leagues.join(league.id, User("ai:easy:1", "Ada")), "league.computer")
    await refused(leagues.leave(league.id, CID), "league.not_in")
    await refused(leagues.start(league.id, ANN, manager=False), "league.manager_only")
    error = await refused(leagues.start(league.id, MANAGER, manager=False), "league.too_few")
    assert "3 players" in str(error) and "2 have" in str(error)
    league = await leagues.leave(league.id, BEN)  # in sign-up: simply gone
    assert [p.name for p in league.players] == ["Ann"]
    for p in (BEN, CID, DEE):
        await leagues.join(league.id, p)
    assert [x.id for x in await leagues.leagues_of(CID.id)] == [league.id]
    rnd = await leagues.start(league.id, ANN, manager=True)  # a manager may
    assert rnd.round == 1 and len(rnd.tables) == 2
    await refused(leagues.join(league.id, User("7", "Late")), "league.not_signup")
    await refused(leagues.start(league.id, MANAGER, manager=True), "league.not_signup")
    found = await leagues.league_of_match(rnd.tables[1].match_id)
    assert found is not None and (found.league.id, found.round, found.table) == (league.id, 1, 2)
    assert await leagues.league_of_match(10**6) is None
    remembered = await leagues.remember(league.id, signup_message="123")
    assert remembered.settings == {"hints": False, "signup_message": "123"}
    # cancelled: the matches go on as ordinary matches; the league is over
    await refused(leagues.cancel(league.id, BEN, manager=False), "league.manager_only")
    cancelled = await leagues.cancel(league.id, MANAGER, manager=False)
    assert cancelled.status == "cancelled"
    assert (await leagues._service.info(rnd.tables[0].match_id)).status == "running"
    await refused(leagues.cancel(league.id, MANAGER, manager=True), "league.over")
    await refused(leagues.leave(league.id, ANN), "league.over")
    assert await leagues.list("77") == []  # cancelled ones are left out
    assert [x.id for x in await leagues.list("77", statuses=("cancelled",))] == [league.id]
    await refused(leagues.standings(999), "league.none")


async def test_a_sign_up_that_closes_with_too_few_players_is_cancelled(
    leagues: Leagues,
) -> None:
    store = leagues._service.store
    league = await leagues.create(**new(game_id="taj-mahal", players_per_table=4, signup_days=2))
    for p in (ANN, BEN, CID):
        await leagues.join(league.id, p)
    assert league.signup_until is not None
    assert await leagues.advance(league.signup_until - 1) == []
    (done,) = await leagues.advance(league.signup_until)
    assert (done.event, done.league.status) == ("cancelled", "cancelled")
    cur = await store._reader.execute("SELECT payload FROM outbox WHERE kind = 'league'")
    posts = [json.loads(r[0]) for r in await cur.fetchall()]
    assert [(p["event"], p.get("players"), p.get("needed")) for p in posts] == [
        ("signup", None, None),
        ("cancelled", 3, 4),
    ]
    assert "needed 4 players and 3 signed up" in posts[1]["text"]
    assert await leagues.advance(league.signup_until + 86400) == []


async def test_the_sign_up_closes_at_its_deadline(leagues: Leagues, monkeypatch: Any) -> None:
    league = await leagues.create(**new(signup_days=1))
    assert league.signup_until is not None
    monkeypatch.setattr(leagues._service.store, "now", lambda: league.signup_until)
    await refused(leagues.join(league.id, ANN), "league.closed")


def test_the_migration_step_is_in_both_lists_at_the_same_place_and_reruns(
    tmp_path: Path,
) -> None:
    at = migrations.MIGRATIONS.index(LEAGUES_SQLITE)
    assert postgres_migrations.MIGRATIONS.index(LEAGUES_POSTGRES) == at
    conn = sqlite3.connect(tmp_path / "m.db")
    for step in migrations.MIGRATIONS[: at + 1]:
        conn.executescript(step)
    conn.executescript(LEAGUES_SQLITE)  # again: IF NOT EXISTS, so it may move at a merge
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"leagues", "league_players", "league_matches", "league_byes"} <= tables
    conn.close()


async def test_a_member_who_leaves_the_server_leaves_its_leagues(leagues: Leagues) -> None:
    running = await leagues.create(**new(signup_days=0))
    for p in (ANN, BEN, CID, DEE):
        await leagues.join(running.id, p)
    rnd = await leagues.start(running.id, MANAGER, manager=True)
    waiting = await leagues.create(**new(game_id="taj-mahal"))
    await leagues.join(waiting.id, ANN)
    elsewhere = await leagues.create(**new(server_id="78"))
    await leagues.join(elsewhere.id, ANN)
    assert sorted(await leagues.member_left("77", ANN)) == [running.id, waiting.id]
    assert [x.id for x in await leagues.leagues_of(ANN.id)] == [elsewhere.id]
    after = await leagues.info(running.id)
    assert [p.user_id for p in after.players if not p.active] == [ANN.id]
    (mine,) = [t for t in rnd.tables if any(s.user_id == ANN.id for s in t.seats)]
    match = await leagues._service.info(mine.match_id)
    assert match.status == "finished"  # two players: resigned, the other won
    assert (await leagues.info(waiting.id)).players == []
