"""Child process for the crash-safety test: plays random legal moves in several matches
and prints ``ACK match ply notation`` after each ``service.play`` returned (i.e. after the
move was acknowledged), until it is killed."""

from __future__ import annotations

import asyncio
import sys

from bot.matches.reports import User
from bot.matches.service import MatchService
from render.registry import register_renderer
from rules.registry import register_game
from rules.rng import Rng
from tests.fakegame import GAME as PILE

register_game(PILE)
register_renderer(PILE.id, "tests.fakegame:draw")

USERS = [User("u0", "Ann"), User("u1", "Ben"), User("u2", "Cid")]


async def main(db: str, games: list[str], seed: int) -> None:
    service = await MatchService.open(db, render=False)
    picker = Rng.from_seed(seed)
    running = [m.id for m in await service.list_matches() if m.status == "running"]
    while True:
        if len(running) < 4:
            game_id = games[picker.below(len(games))]
            from rules import get_game

            n = get_game(game_id).min_players
            info = await service.create_match(
                game_id, USERS[0], max_players=n, seed=picker.below(10**9)
            )
            for u in USERS[1:n]:
                await service.join(info.id, u)
            await service.start(info.id, USERS[0])
            running.append(info.id)
            continue
        match_id = running[picker.below(len(running))]
        info = await service.info(match_id)
        if info.status != "running":
            running.remove(match_id)
            continue
        user = next(u for u in USERS if u.id == info.to_act[0])
        legal = await service.legal_moves(match_id, user)
        notation = legal[picker.below(len(legal))].notation
        await service.play(match_id, user, notation)
        rows = await service.store.moves(match_id, last=1)
        print(f"ACK {match_id} {rows[-1].ply} {notation}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2].split(","), int(sys.argv[3])))
