"""The record of a running match cannot be replayed into anyone's hidden hand.

A replayer is what a curious player would write: rebuild the match from the record's seed
and moves, then read every hand. For a running match it must fail — the record carries
no seed, no random-number state, no secret events and no scores from hidden cards — and
guessing the seed from any number the record does carry rebuilds other hands. Once the
match is over the same replayer rebuilds it exactly.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest

from bot.matches.service import MatchService
from rules import IllegalMove, get_game
from rules.rng import Rng
from tests.reliability_helpers import start_match, user_by_id


def replay(record: dict[str, Any], seed: int | None = None) -> dict[str, Any]:
    """The full state a record leads to (with the record's seed unless one is guessed)."""
    game = get_game(record["game"])
    state = game.setup(
        len(record["players"]), record["seed"] if seed is None else seed, record["options"]
    )
    for mv in record["moves"]:
        if mv["kind"] == "move":
            state, _ = game.apply(state, mv["seat"], game.parse(state, mv["seat"], mv["notation"]))
    return state


def hands(game_id: str, state: dict[str, Any]) -> list[list[Any]]:
    if game_id == "taj-mahal":
        return [sorted(h) for h in state["hands"]]
    return [sorted(p["hand"]) for p in state["players"]]


def numbers(value: Any) -> set[int]:
    """Every integer anywhere in the record: the candidates a seed guesser would try."""
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, dict):
        return set().union(set(), *(numbers(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(set(), *(numbers(v) for v in value))
    return set()


async def play_random(service: MatchService, match_id: int, moves: int, seed: int) -> None:
    picker = Rng.from_seed(seed, "record-test")
    for _ in range(moves):
        info = await service.info(match_id)
        if info.status != "running":
            return
        user = user_by_id(info.to_act[0])
        legal = await service.legal_moves(match_id, user)
        await service.play(match_id, user, legal[picker.below(len(legal))].notation)


@pytest.mark.parametrize(("game_id", "seed"), [("taj-mahal", 424242), ("pastiche", 515151)])
async def test_running_record_cannot_be_replayed_into_hidden_hands(
    tmp_path: Path, game_id: str, seed: int
) -> None:
    service = await MatchService.open(tmp_path / "t.db", render=False)
    try:
        match_id = await start_match(service, game_id, players=3, seed=seed)
        await play_random(service, match_id, 12, seed)
        match = await service.store.get_match(match_id)
        assert match is not None and match.status == "running"
        truth = hands(game_id, match.state)
        record = await service.export_record(match_id)
        blob = json.dumps(record)

        with pytest.raises(KeyError):  # nothing to replay from
            replay(record)
        assert "seed" not in record and "final_scores" not in record
        assert str(seed) not in blob and '"rng"' not in blob
        assert '"secret"' not in blob and '"private"' not in blob
        assert record["hidden_until_over"]
        for guess in sorted(numbers(record))[:200]:
            # a wrong seed deals other hands: the record's moves soon stop fitting
            with contextlib.suppress(IllegalMove):
                assert hands(game_id, replay(record, guess)) != truth, guess

        # the same record once the match is over: it has everything, and replays exactly
        for seat in match.seats:  # a vote of the players (two of three suffice)
            info = await service.abort(match_id, user_by_id(seat.user_id))
            if info.status == "aborted":
                break
        over = await service.export_record(match_id)
        assert over["seed"] == seed and "hidden_until_over" not in over
        assert hands(game_id, replay(over)) == truth
        assert over["final_scores"] == get_game(game_id).scores(match.state)
    finally:
        await service.close()
