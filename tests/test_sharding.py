"""TESSERA_SHARDS: which shards a process runs, and the client that runs them."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest
from pydantic import ValidationError

from bot.discord.client import ShardedTesseraBot, TesseraBot, make_bot
from bot.matches.service import MatchService
from bot.settings import Settings, parse_shards
from bot.storage import ShardSlice


@pytest.mark.parametrize(
    ("text", "parsed"),
    [("0-3/8", ((0, 1, 2, 3), 8)), ("5/8", ((5,), 8)), ("1,4-5/6", ((1, 4, 5), 6))],
)
def test_shard_ranges(text: str, parsed: tuple[tuple[int, ...], int]) -> None:
    assert parse_shards(text) == parsed


@pytest.mark.parametrize("text", ["8/8", "0-3", "a-b/4", "3-1/4", "0/0", "-1/4"])
def test_bad_shard_settings_are_refused_at_start(text: str) -> None:
    with pytest.raises(ValidationError):
        Settings(_env_file=None, shards=text)  # type: ignore[call-arg]


def test_a_database_url_must_be_postgresql() -> None:
    with pytest.raises(ValidationError):
        Settings(_env_file=None, database_url="mysql://x/y")  # type: ignore[call-arg]
    url = "postgresql://u@127.0.0.1:5432/t"
    assert Settings(_env_file=None, database_url=url).database == url  # type: ignore[call-arg]
    assert Settings(_env_file=None).database == Path("tessera.db")  # type: ignore[call-arg]


async def test_sharded_process_runs_discord_py_sharded_client(tmp_path: Path) -> None:
    service = await MatchService.open(tmp_path / "s.db", render=False)
    try:
        plain = make_bot(Settings(_env_file=None), service)  # type: ignore[call-arg]
        assert type(plain) is TesseraBot and plain.shard_slice is None
        bot = make_bot(Settings(_env_file=None, shards="2-3/8"), service)  # type: ignore[call-arg]
        assert isinstance(bot, ShardedTesseraBot)
        assert isinstance(bot, discord.AutoShardedClient)
        assert bot.shard_ids == [2, 3] and bot.shard_count == 8
        assert bot.shard_slice == ShardSlice((2, 3), 8)
        # a server on shard 3 of 8 is this process's; one on shard 4 is not
        assert bot.shard_slice.owns(str((8 * 100 + 3) << 22))
        assert not bot.shard_slice.owns(str((8 * 100 + 4) << 22))
    finally:
        await service.close()
