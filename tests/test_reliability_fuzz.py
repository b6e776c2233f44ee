"""Bad input, fuzzed with hypothesis through the real command tree and the real dynamic
items: garbage and huge text, unicode, unknown and other servers' matches, negative and
huge numbers, malformed custom ids, moves for a finished match. Every case must get a
private answer in words (no traceback, no "something went wrong"), no unexpected error
may reach the bot's error hook, and a refusal must change nothing in the database.

Each test builds one world (matches of every game, a finished match, another server's
match) and runs the examples against it on its own event loop, so examples cost
milliseconds; ``derandomize=True`` makes every run the same."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.matches.service import MatchService
from rules import get_game
from rules.base import normalise_notation
from tests.conftest import ALICE, BOB, MALLORY
from tests.discord_harness import CHANNEL_ID, GUILD_ID, Harness, running
from tests.reliability_helpers import (
    PLAYERS,
    REAL_GAMES,
    assert_clear_refusal,
    click_in,
    slash_in,
    start_match,
)

OTHER_GUILD = 200
FUZZ = settings(
    max_examples=120,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
    database=None,
)

nasty_text = st.one_of(
    st.text(max_size=40),
    st.text(min_size=200, max_size=3000),
    st.sampled_from(
        [
            "{p0}",
            "{p9}{}",
            "%s%d",
            "\x00",
            "‮take1",
            "ﷺ" * 50,
            "🀄" * 30,
            "take1; DROP TABLE moves",
            "' OR 1=1 --",
            "\\N{BEL}",
            " ",
            "#0",
            "take99999999999999999999999",
            "a/b/c",
        ]
    ),
)
numbers = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, -1, 2**53, -(2**53), 2**63, 2**63 - 1, 2**64, 10**30]),
)


class World:
    """Matches every test runs against; ids and threads by role."""

    def __init__(self) -> None:
        self.threads: dict[str, int] = {}
        self.matches: dict[str, int] = {}


async def build_world(h: Harness) -> World:
    w = World()
    svc = h.service
    thread = 880000
    for i, game_id in enumerate(REAL_GAMES):
        mid = await start_match(svc, game_id, seed=40 + i, guild_id=str(GUILD_ID))
        await svc.set_thread(mid, str(thread + i))
        w.matches[game_id], w.threads[game_id] = mid, thread + i
    # a test-pile match between Alice and Bob (the fuzzing users), running
    info = await svc.create_match("test-pile", ALICE, seed=3, guild_id=str(GUILD_ID))
    await svc.join(info.id, BOB)
    await svc.start(info.id, ALICE)
    await svc.set_thread(info.id, str(thread + 10))
    w.matches["pile"], w.threads["pile"] = info.id, thread + 10
    # a finished one
    info = await svc.create_match("test-pile", ALICE, seed=4, guild_id=str(GUILD_ID))
    await svc.join(info.id, BOB)
    await svc.start(info.id, ALICE)
    await svc.resign(info.id, BOB)
    await svc.set_thread(info.id, str(thread + 11))
    w.matches["finished"], w.threads["finished"] = info.id, thread + 11
    # another server's running match, with Alice and Bob in it too
    info = await svc.create_match("test-pile", ALICE, seed=5, guild_id=str(OTHER_GUILD))
    await svc.join(info.id, BOB)
    await svc.start(info.id, ALICE)
    await svc.set_thread(info.id, str(thread + 20))
    w.matches["foreign"], w.threads["foreign"] = info.id, thread + 20
    await h.deliver()
    return w


async def db_state(svc: MatchService) -> str:
    """Every match row, seat, move and outbox item (users' own preferences excluded)."""
    out = []
    for table, order in (
        ("matches", "id"),
        ("seats", "match_id, seat"),
        ("moves", "match_id, ply"),
        ("outbox", "id"),
    ):
        cur = await svc.store._reader.execute(f"SELECT * FROM {table} ORDER BY {order}")
        rows = [list(r) for r in await cur.fetchall()]
        if table == "matches":
            rows = [r[:-1] for r in rows]  # updated_at
        out.append(rows)
    return json.dumps(out, default=str)


def run_fuzz(
    tmp_path, monkeypatch, body: Callable[[Harness, World, asyncio.AbstractEventLoop], Any]
):
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    cm = running(tmp_path, monkeypatch)
    h = loop.run_until_complete(cm.__aenter__())
    try:
        world = loop.run_until_complete(build_world(h))
        body(h, world, loop)
    finally:
        loop.run_until_complete(cm.__aexit__(None, None, None))
        for task in asyncio.all_tasks(loop):  # discord.py's view timeout helpers
            task.cancel()
        loop.run_until_complete(asyncio.sleep(0))
        loop.close()
        asyncio.set_event_loop(None)


def legal_texts(h: Harness, loop, world: World) -> set[str]:
    """Every legal notation and label of every running match (fuzzed text that happens to
    be a legal move is a move, not bad input)."""
    out: set[str] = set()
    for mid in world.matches.values():
        for p in (*PLAYERS, ALICE, BOB):
            for m in loop.run_until_complete(h.service.legal_moves(mid, p)):
                out |= {normalise_notation(m.notation), normalise_notation(m.label)}
    return out


users = st.sampled_from([ALICE, BOB, MALLORY, *PLAYERS])


def test_fuzz_play_text_in_every_game(tmp_path, monkeypatch) -> None:
    """/play with garbage from the player on turn (each game's parser and its
    explanations), from others, and in a finished match."""

    def body(h: Harness, world: World, loop) -> None:
        legal = legal_texts(h, loop, world)
        roles = st.sampled_from(sorted(world.threads))

        @FUZZ
        @given(role=roles, text=nasty_text, who=st.integers(0, 5))
        def case(role: str, text: str, who: int) -> None:
            if normalise_notation(text) in legal:
                return
            mid = world.matches[role]
            info = loop.run_until_complete(h.service.info(mid))
            if who == 0 and info.to_act:
                uid = info.to_act[0]
                user = next(u for u in (*PLAYERS, ALICE, BOB) if u.id == uid)
            else:
                user = [ALICE, BOB, MALLORY, *PLAYERS][who % 7]
            before = loop.run_until_complete(db_state(h.service))
            calls = loop.run_until_complete(
                h.slash(user, "play", move=text, channel=world.threads[role])
            )
            assert_clear_refusal(calls)
            assert loop.run_until_complete(db_state(h.service)) == before

        case()
        # autocomplete with the same garbage never fails and offers ≤ 25 choices
        for text in ["", "{p0}", "🀄" * 30, "x" * 3000]:
            for role, thread in world.threads.items():
                mid = world.matches[role]
                info = loop.run_until_complete(h.service.info(mid))
                uid = info.to_act[0] if info.to_act else ALICE.id
                user = next(u for u in (*PLAYERS, ALICE, BOB) if u.id == uid)
                choices = loop.run_until_complete(
                    h.autocomplete(user, "play", "move", text, channel=thread)
                )
                assert len(choices) <= 25
                assert all(1 <= len(c["name"]) <= 100 and len(c["value"]) <= 100 for c in choices)

    run_fuzz(tmp_path, monkeypatch, body)


def test_fuzz_match_numbers_and_command_options(tmp_path, monkeypatch) -> None:
    """Commands that take a match number or numeric/text options, with unknown, foreign,
    finished, negative and huge values, from every kind of user and channel."""

    def body(h: Harness, world: World, loop) -> None:
        known = st.sampled_from(
            [world.matches["finished"], world.matches["foreign"], 0, -1, 424242]
        )
        match_numbers = st.one_of(known, numbers)
        channels = st.sampled_from(
            [CHANNEL_ID, world.threads["finished"], world.threads["foreign"], 123456789]
        )
        commands = st.one_of(
            st.tuples(
                st.sampled_from(["game join", "game leave", "game start"]),
                st.fixed_dictionaries({"match": match_numbers}),
            ),
            st.tuples(st.just("game abort"), st.fixed_dictionaries({"match": match_numbers})),
            st.tuples(
                st.just("game settings"),
                st.fixed_dictionaries(
                    {"match": match_numbers},
                    optional={
                        "reminder_hours": st.floats(-1e12, 1e12),
                        "reminder_max": numbers,
                        "clock_days": st.floats(-1e12, 1e12),
                        "clock_action": nasty_text,
                    },
                ),
            ),
            st.tuples(
                st.just("game new"),
                st.fixed_dictionaries(
                    {"game": st.one_of(st.sampled_from(["azul", "pastiche"]), nasty_text)},
                    optional={
                        "players": numbers,
                        "options": st.one_of(
                            nasty_text,
                            st.builds(
                                lambda k, v: f"{k}={v}",
                                st.sampled_from(["size", "variant", "grey_wall", "x"]),
                                st.one_of(
                                    nasty_text,
                                    numbers.map(str),
                                    st.sampled_from(["1e400", "nan", "-inf", "true"]),
                                ),
                            ),
                        ),
                        "clock_days": st.floats(-1e12, 1e12),
                    },
                ),
            ),
            st.tuples(st.just("history moves"), st.fixed_dictionaries({"count": numbers})),
            st.tuples(st.just("rules"), st.fixed_dictionaries({"game": nasty_text})),
            st.tuples(
                st.sampled_from(["board", "hand", "undo", "resign", "play", "game list"]),
                st.just({}),
            ),
            st.tuples(
                st.just("notify"),
                st.fixed_dictionaries(
                    {},
                    optional={
                        "mode": nasty_text,
                        "quiet_from": numbers,
                        "quiet_to": numbers,
                        "utc_offset": st.floats(-1e6, 1e6),
                        "reminder_hours": st.floats(-1e12, 1e12),
                    },
                ),
            ),
        )

        @FUZZ
        @given(command=commands, user=users, channel=channels)
        def case(command: tuple[str, dict[str, Any]], user, channel: int) -> None:
            path, options = command
            before = loop.run_until_complete(db_state(h.service))
            calls = loop.run_until_complete(h.slash(user, path, channel=channel, **options))
            replies = [c for c in calls if c.via == "hook"]
            assert replies, f"{path} {options}: no answer"
            after = loop.run_until_complete(db_state(h.service))
            if path == "game new" and after != before:
                return  # a valid lobby was opened (by chance the options were fine)
            if path in ("game list", "rules", "notify") and replies[-1].content:
                for r in replies:
                    assert "Traceback" not in r.content and "Something went wrong" not in r.content
                assert after == before
                return
            assert_clear_refusal(calls)
            assert after == before, f"{path} {options} by {user.name} changed the database"

        case()

    run_fuzz(tmp_path, monkeypatch, body)


def test_fuzz_substitute_options(tmp_path, monkeypatch) -> None:
    """/game sub with unknown, foreign and finished matches, seats out of range and the
    running matches' seats (held by people who are still members, or lobby computers):
    always a private refusal in words, nothing changed."""

    def body(h: Harness, world: World, loop) -> None:
        match_numbers = st.one_of(
            st.sampled_from([world.matches[k] for k in ("finished", "foreign", "azul")]),
            numbers,
        )
        channels = st.sampled_from(sorted(world.threads.values()) + [CHANNEL_ID, 123456789])
        options = st.fixed_dictionaries(
            {},
            optional={"match": match_numbers, "seat": numbers, "computer": st.booleans()},
        )

        @settings(FUZZ, max_examples=40)
        @given(options=options, user=users, channel=channels)
        def case(options: dict[str, Any], user, channel: int) -> None:
            before = loop.run_until_complete(db_state(h.service))
            calls = loop.run_until_complete(h.slash(user, "game sub", channel=channel, **options))
            assert_clear_refusal(calls)
            assert loop.run_until_complete(db_state(h.service)) == before, options

        case()

    run_fuzz(tmp_path, monkeypatch, body)


def test_fuzz_button_custom_ids(tmp_path, monkeypatch) -> None:
    """Clicks on malformed, stale, foreign and forged custom ids."""

    def body(h: Harness, world: World, loop) -> None:
        legal = legal_texts(h, loop, world)
        ids = st.sampled_from(
            [world.matches[k] for k in ("finished", "foreign", "azul", "pastiche")] + [0, 999999]
        )
        versions = st.one_of(st.integers(0, 40), numbers.map(abs))
        tail = st.one_of(nasty_text, st.sampled_from(["#0", "#99", "#-1", "#1.2.3", "/", "//"]))
        structured = st.builds(
            lambda prefix, m, v, t: {
                "tl": f"tl:{t if len(t) < 8 else 'join'}:{m}",
                "tp": f"tp:{m}:{v}",
                "ts": f"ts:{m}:{v}:{t}",
                "tq": f"tq:{m}:{v}:{t}",
                "tm": f"tm:{m}:{v}:{t}",
                "th": f"th:{m}",
                "tz": f"tz:{m}:{v}",
                "tr": f"tr:{m}:{v}",
                "tu": f"tu:{('take', 'decline', 'withdraw', 'yes', 'no')[v % 5]}:{m}:{v}:"
                + (t.encode().hex() + "00000000")[:8],
            }[prefix][:100],
            st.sampled_from(["tl", "tp", "ts", "tq", "tm", "th", "tz", "tr", "tu"]),
            st.one_of(ids, numbers.map(abs)),
            versions,
            tail,
        )
        garbage = st.one_of(
            st.text(min_size=1, max_size=100),
            st.builds(
                lambda p, t: (p + t)[:100],
                st.sampled_from(["tp:", "tm:", "tl:", "ts:1:", "tm:1:x:", "t"]),
                st.text(max_size=100),
            ),
        )
        custom_ids = st.one_of(structured, garbage).filter(lambda c: 1 <= len(c) <= 100)

        @FUZZ
        @given(
            custom_id=custom_ids,
            user=users,
            channel=st.sampled_from(sorted(world.threads.values())),
            guild=st.sampled_from([GUILD_ID, GUILD_ID, OTHER_GUILD]),
        )
        def case(custom_id: str, user, channel: int, guild: int) -> None:
            move = custom_id.split(":", 3)[-1]
            if custom_id.startswith(("tm:", "ts:", "tq:")) and normalise_notation(move) in legal:
                return
            if custom_id.startswith("tl:join:"):
                return  # joining an open lobby is allowed; lobbies have their own test
            before = loop.run_until_complete(db_state(h.service))
            calls = loop.run_until_complete(
                click_in(h, user, custom_id, guild=guild, channel=channel)
            )
            text = assert_clear_refusal(calls)
            assert text
            assert loop.run_until_complete(db_state(h.service)) == before, custom_id

        case()

    run_fuzz(tmp_path, monkeypatch, body)


async def test_other_servers_match_is_out_of_reach(tmp_path, monkeypatch) -> None:
    """A match number from another server cannot be joined, started, aborted or
    reconfigured from this one, even by someone with Manage Server here."""
    from tests.test_discord_commands import MANAGER

    async with running(tmp_path, monkeypatch) as h:
        lobby = await h.service.create_match("test-pile", ALICE, guild_id=str(OTHER_GUILD))
        await h.service.set_thread(lobby.id, "4444")
        before = await db_state(h.service)
        for user, path, opts in [
            (MALLORY, "game join", {}),
            (ALICE, "game start", {}),
            (MANAGER, "game abort", {}),
            (MANAGER, "game settings", {"clock_days": 1.0}),
            (MALLORY, "game leave", {}),
        ]:
            calls = await slash_in(
                h, user, path, guild=GUILD_ID, channel=CHANNEL_ID, match=lobby.id, **opts
            )
            assert f"#{lobby.id}" in assert_clear_refusal(calls), path
        for cid in (f"tl:join:{lobby.id}", f"tl:start:{lobby.id}"):
            calls = await click_in(h, MALLORY, cid, guild=GUILD_ID, channel=CHANNEL_ID)
            assert_clear_refusal(calls)
        assert await db_state(h.service) == before
        # in its own server it works
        calls = await slash_in(
            h, MALLORY, "game join", guild=OTHER_GUILD, channel=4444, match=lobby.id
        )
        assert "joined" in calls[-1].content
        assert get_game("test-pile").name in (await h.service.info(lobby.id)).game_name
