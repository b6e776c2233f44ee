"""The audit after an upgrade (issue 42): games began to record what the last move changed
and where the points came from (``Game.later_keys``). A match whose snapshot an older
version wrote lacks those keys; rebuilt from seed and moves with today's rules it has them.
The audit must not call such a match corrupt, and must still catch a real difference."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.matches.reports import User
from bot.matches.service import MatchService
from rules import get_game

GAMES = [g for g in ("azul", "taj-mahal", "maharani", "pastiche") if get_game(g).later_keys]


def test_the_games_that_record_more_than_before_say_so() -> None:
    assert GAMES == ["azul", "taj-mahal", "maharani", "pastiche"]


@pytest.mark.parametrize("game_id", GAMES)
async def test_a_snapshot_stored_before_the_later_keys_passes_the_audit(
    game_id: str, tmp_path: Path
) -> None:
    later = get_game(game_id).later_keys
    service = await MatchService.open(tmp_path / "older.db", render=False)
    try:
        seats = get_game(game_id).min_players
        users = {f"u:{n}": User(f"u:{n}", n) for n in ["Ann", "Ben", "Cid"][:seats]}
        ann, *others = users.values()
        info = await service.create_match(game_id, ann, {}, max_players=seats, seed=5)
        for other in others:
            await service.join(info.id, other)
        await service.start(info.id, ann)

        async def move() -> None:
            current = await service.info(info.id)
            user = users[current.to_act[0]]
            legal = await service.legal_moves(info.id, user)
            await service.play(info.id, user, legal[0].notation)

        async def stored() -> dict[str, Any]:
            row = await service.store.get_match(info.id)
            assert row is not None and row.state is not None
            return row.state

        async def store(state: dict[str, Any]) -> None:
            await service.store._writer.execute(
                "UPDATE matches SET state = ? WHERE id = ?", (json.dumps(state), info.id)
            )

        await move()
        state = await stored()
        assert set(later) <= set(state)  # today's code records them
        await store({k: v for k, v in state.items() if k not in later})  # as written before
        assert await service.audit() == []
        await move()  # played on by today's code
        assert await service.audit() == []
        state = await stored()
        changed = {k: v for k, v in state.items() if k not in later}
        key = next(k for k, v in changed.items() if isinstance(v, int) and not isinstance(v, bool))
        await store({**state, key: changed[key] + 1})  # a real difference outside the keys
        assert [p.problem for p in await service.audit()] == ["snapshot differs from replay"]
    finally:
        await service.close()
