"""``python -m bot demo GAME``: a whole game with random legal moves, through the real
service (storage, outbox, pictures), so a newcomer sees Tessera work in seconds.

Writes ``OUT/turn-NNNN.png`` for every turn post, ``OUT/hand-<name>.png`` (private
pictures at the start, for games with hands), ``OUT/record.json`` and ``OUT/demo.db``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from bot.matches import option_table
from bot.matches.reports import User
from bot.matches.service import MatchService
from rules import get_game
from rules.rng import Rng

NAMES = ["Alice", "Bob", "Carol", "Dénes", "Łucja"]


def read_options(game_id: str, raw_options: list[str]) -> dict[str, Any]:
    """``--option name=value`` words read by each option's kind, as ``/game new`` reads
    them (bot/matches/option_table.py): ``grey_wall=1`` is refused, not taken for true. A
    name the game lacks is left for the game to refuse (it lists its options)."""
    words = dict(option.partition("=")[::2] for option in raw_options)
    return option_table.read_game_options(game_id, words)


async def run_demo(
    game_id: str, players: int | None, seed: int, out: Path, raw_options: list[str]
) -> int:
    game = get_game(game_id)
    n = players or max(game.min_players, min(3, game.max_players))
    options = read_options(game_id, raw_options)
    out.mkdir(parents=True, exist_ok=True)
    db = out / "demo.db"
    for suffix in ("", "-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    started = time.perf_counter()
    service = await MatchService.open(db)
    try:
        users = [User(f"demo:{i}", NAMES[i]) for i in range(n)]
        info = await service.create_match(game_id, users[0], options, max_players=n, seed=seed)
        for u in users[1:]:
            await service.join(info.id, u)
        await service.start(info.id, users[0])
        if game.has_hidden_information:
            for u in users:
                png, _ = await service.hand(info.id, u)
                (out / f"hand-{u.name.lower()}.png").write_bytes(png)
        picker = Rng.from_seed(seed, "demo")
        by_id = {u.id: u for u in users}
        moves = pictures = 0
        while True:
            # deliver the outbox as a front end would, right after each change, so every
            # picture is the current board (already drawn by the move) and needs no replay
            while due := await service.store.due_notifications(now=float("inf")):
                for item in due:
                    if item.kind == "turn" and item.payload.get("ply") is not None:
                        ply = item.payload["ply"]
                        png = await service.picture(info.id, ply)
                        (out / f"turn-{ply:04d}.png").write_bytes(png)
                        pictures += 1
                    await service.store.mark_sent(item.id)
            current = await service.info(info.id)
            if current.status != "running":
                break
            user = by_id[current.to_act[picker.below(len(current.to_act))]]
            _, legal = await service.turn_for(info.id, user)
            await service.play(info.id, user, legal[picker.below(len(legal))].notation)
            moves += 1
        record = await service.export_record(info.id)
        (out / "record.json").write_text(
            json.dumps(record, indent=1, ensure_ascii=False), encoding="utf-8"
        )
        final = await service.info(info.id)
    finally:
        await service.close()
    print(final.status_text)
    print(
        f"{moves} moves, {pictures} pictures in {time.perf_counter() - started:.1f} s; "
        f"record: {out / 'record.json'}"
    )
    return 0
