"""One of several bot processes on one PostgreSQL database, for the multi-process test.

It runs what a sharded bot process runs against the store: moves in matches of its own
shards (printing ``ACK match ply`` once ``service.play`` returned) and the real outbox
worker, whose Discord calls go to a stand-in that appends every message it "posts" to a
log file (``SENT nonce channel``). With ``hang_after`` it stops answering after that many
posts, like a process stuck on a dead connection, while still holding its claims.

Arguments: database URL, shards (``1/3``), match ids, log file, hang_after (0: never),
seed, seconds to keep playing.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from types import SimpleNamespace
from typing import Any

from bot.discord.delivery import OutboxWorker
from bot.matches.errors import ServiceError
from bot.matches.reports import User
from bot.matches.service import MatchService
from bot.settings import Settings
from bot.storage import ShardSlice
from render.registry import register_renderer
from rules.registry import register_game
from rules.rng import Rng
from tests.fakegame import GAME as PILE

register_game(PILE)
register_renderer(PILE.id, "tests.fakegame:draw")

USERS = [User("1", "Ann"), User("2", "Ben")]


class FakeDiscord:
    """The client calls the outbox worker makes (channel posts, DM channels), logged."""

    def __init__(
        self,
        settings: Settings,
        service: MatchService,
        shards: ShardSlice,
        log_path: str,
        hang_after: int,
    ) -> None:
        self.settings = settings
        self.service = service
        self.shard_slice = shards
        self.log = open(log_path, "a", encoding="utf-8")  # noqa: SIM115 (lives as long as we)
        self.hang_after = hang_after
        self.sent = 0

    def get_guild(self, guild_id: int) -> None:
        return None

    async def create_dm(self, user: Any) -> Any:
        return self.get_partial_messageable(7_000_000 + int(user.id))  # no server, any shard

    def get_partial_messageable(self, channel_id: int) -> Any:
        async def send(content: str, *, nonce: str, **_: Any) -> Any:
            self.log.write(f"SENT {nonce} {channel_id}\n")
            self.log.flush()
            self.sent += 1
            if self.hang_after and self.sent >= self.hang_after:
                await asyncio.Event().wait()  # never answers: the claim stays with us
            return SimpleNamespace(id=10**12 + self.sent)

        return SimpleNamespace(id=channel_id, send=send)


def _log_retries(log: Any) -> None:
    """Write each retry of an outbox row (``RETRY nonce reason``) beside the sends: a row
    that failed after its send (a database statement timing out on a starved machine) is
    sent again under the same nonce, which Discord keeps once; the test tells such a
    retry from a row claimed twice."""

    class Retries(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.msg == "outbox %s failed (%s); retrying":
                row, reason = record.args  # type: ignore[misc]
                log.write(f"RETRY tx{row} {str(reason).replace(chr(10), ' ')}\n")
                log.flush()

    delivery_log = logging.getLogger("bot.discord.delivery")
    delivery_log.addHandler(Retries())
    delivery_log.setLevel(logging.INFO)


async def main(
    url: str,
    shards: str,
    match_ids: list[int],
    log_path: str,
    hang_after: int,
    seed: int,
    seconds: float,
) -> None:
    settings = Settings(
        _env_file=None,
        database_url=url,
        shards=shards,
        lease_seconds=2.0,  # type: ignore[call-arg]
    )
    service = await MatchService.open(url, render=True, render_workers=1, render_processes=False)
    ids, count = settings.shard_ids() or ((0,), 1)
    bot = FakeDiscord(settings, service, ShardSlice(ids, count), log_path, hang_after)
    worker = OutboxWorker(bot, __import__("time").time)  # type: ignore[arg-type]

    async def deliver() -> None:
        while True:
            await worker.run_once()
            await asyncio.sleep(0.05)

    _log_retries(bot.log)
    delivery = asyncio.create_task(deliver())
    picker = Rng.from_seed(seed)
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    print("READY", flush=True)
    while loop.time() < end:
        match_id = match_ids[picker.below(len(match_ids))]
        info = await service.info(match_id)
        if info.status != "running":
            await asyncio.sleep(0.01)
            continue
        user = next(u for u in USERS if u.id == info.to_act[0])
        legal = await service.legal_moves(match_id, user)
        try:
            await service.play(match_id, user, legal[picker.below(len(legal))].notation)
        except ServiceError:
            continue
        rows = await service.store.moves(match_id, last=1)
        print(f"ACK {match_id} {rows[-1].ply}", flush=True)
    print("IDLE", flush=True)
    await delivery  # deliver until the test stops us


if __name__ == "__main__":
    a = sys.argv[1:]
    asyncio.run(
        main(a[0], a[1], [int(x) for x in a[2].split(",")], a[3], int(a[4]), int(a[5]), float(a[6]))
    )
