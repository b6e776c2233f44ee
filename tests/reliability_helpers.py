"""Helpers shared by the reliability tests (races, fuzzing, secrecy, Discord failures)."""

from __future__ import annotations

import json
from typing import Any

from bot.matches.reports import User
from bot.matches.service import MatchService
from rules import get_game
from tests.discord_harness import Call, Harness

REAL_GAMES = ("azul", "taj-mahal", "maharani", "pastiche")
PLAYERS = [User("2001", "Ann"), User("2002", "Ben"), User("2003", "Cid"), User("2004", "Dee")]


async def start_match(
    service: MatchService,
    game_id: str,
    *,
    players: int | None = None,
    seed: int = 7,
    guild_id: str = "100",
) -> int:
    n = players or get_game(game_id).min_players
    info = await service.create_match(
        game_id, PLAYERS[0], max_players=n, seed=seed, guild_id=guild_id, channel_id="500"
    )
    for p in PLAYERS[1:n]:
        await service.join(info.id, p)
    await service.start(info.id, PLAYERS[0])
    return info.id


def user_by_id(uid: str) -> User:
    return next(u for u in PLAYERS if u.id == uid)


async def on_turn(service: MatchService, match_id: int) -> User:
    info = await service.info(match_id)
    return user_by_id(info.to_act[0])


async def db_snapshot(service: MatchService, match_id: int) -> tuple[Any, ...]:
    """Everything a refusal must leave untouched."""
    m = await service.store.get_match(match_id)
    assert m is not None
    cur = await service.store._reader.execute("SELECT COUNT(*) FROM outbox")
    (outbox,) = await cur.fetchone()  # type: ignore[misc]
    return (
        m.version,
        m.status,
        json.dumps(m.state, sort_keys=True),
        json.dumps(m.settings, sort_keys=True),
        [(s.seat, s.user_id) for s in m.seats],
        len(await service.store.moves(match_id)),
        outbox,
    )


def hook_replies(calls: list[Call]) -> list[Call]:
    return [c for c in calls if c.via == "hook"]


def interaction_ids(calls: list[Call]) -> list[str]:
    """Interaction ids of the initial responses (callbacks) in these calls, in order."""
    return [c.url.split("/interactions/")[1].split("/")[0] for c in calls if c.callback_type]


def words(call: Call) -> str:
    return call.content


def assert_clear_refusal(calls: list[Call]) -> str:
    """The interaction was answered, privately, with words and no traceback."""
    replies = hook_replies(calls)
    assert replies, f"no answer at all: {calls}"
    texts = [r.content for r in replies if r.content]
    assert texts, f"an answer without words: {replies}"
    last = replies[-1]
    assert last.ephemeral, f"a refusal must be private: {last.content!r}"
    for text in texts:
        assert "Traceback" not in text and 'File "' not in text, text
        assert "Something went wrong" not in text, text
    return texts[-1]


async def slash_in(
    h: Harness, user: User, path: str, *, guild: int, channel: int, **options: Any
) -> list[Call]:
    """Like Harness.slash, but from another guild (a second server the bot is in)."""
    command, data, opts = h._command(path)
    opts.extend(h._options(command, {k: v for k, v in options.items() if v is not None}))
    payload = h._base(user, channel, 2, "en-US")
    payload["guild_id"] = str(guild)
    payload["channel"]["guild_id"] = str(guild)
    payload["data"] = data
    return await h._feed(payload)


async def click_in(
    h: Harness, user: User, custom_id: str, *, guild: int, channel: int
) -> list[Call]:
    payload = h._base(user, channel, 3, "en-US")
    payload["guild_id"] = str(guild)
    payload["channel"]["guild_id"] = str(guild)
    payload["data"] = {"custom_id": custom_id, "component_type": 2}
    components, flags = h._components_with(custom_id, None)
    payload["message"] = message = h.fake.message(channel, {"content": "", "flags": flags})
    message["components"] = components
    return await h._feed(payload)
