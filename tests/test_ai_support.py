"""The computer players' parts: rewards, determinizers rebuilding states from views, hint
reasons, and the arena benchmark's arithmetic and command line."""

from __future__ import annotations

import json
from typing import Any

import pytest

from benchmarks.azul_points import tally_game
from bot.__main__ import main
from bot.tools.arena import play_one, seat_of_entries, wilson
from rules.ai import api, suggest
from rules.ai.hooks import ai_for
from rules.ai.rewards import rank_share, rewards
from rules.ai.search import CLOCK_EVERY, search
from rules.azul.ai import state_from_view as azul_state
from rules.maharani.ai import AI as MAHARANI_AI
from rules.maharani.ai import state_from_view as maharani_state
from rules.playout import random_playout
from rules.registry import get_game
from rules.rng import Rng
from tests.ai_helpers import OPEN_PILE


def test_rank_share_and_rewards() -> None:
    assert rank_share([10, 5, 5], 0) == 1.0
    assert rank_share([10, 5, 5], 1) == 0.25
    r = rewards([30, 10], scale=10)
    assert r[0] > 0.8 > 0.2 > r[1]
    # own points count a little: the same margin at higher scores is worth more to both
    high = rewards([60, 40], scale=10)
    assert high[0] > r[0] and high[1] > r[1]
    # the game's own tie-break (ranks) decides the rank share, scores only the margin
    tied = rewards([20, 20], scale=10, ranks=[2, 1])
    assert tied[1] > tied[0]
    # a bigger lead is worth a little more, never more than 1
    assert rewards([40, 10], 10)[0] > rewards([21, 20], 10)[0]
    assert max(rewards([500, 0], 10)) <= 1.0


def test_wilson_interval() -> None:
    low, high = wilson(100, 100)
    assert high == pytest.approx(1.0) and 0.95 < low < 0.97
    low, high = wilson(0, 10)
    assert low == 0.0 and 0.25 < high < 0.35
    low, high = wilson(50, 100)
    assert low < 0.5 < high


@pytest.mark.parametrize(
    ("game_id", "players", "options"),
    [
        ("azul", 2, None),
        ("azul", 3, {"grey_wall": True}),
        ("maharani", 2, None),
        ("maharani", 4, None),
    ],
)
def test_determinizer_rebuilds_the_state(game_id: str, players: int, options: Any) -> None:
    """The view plus the hidden parts (random-number state, bag order, draw record) give
    back the exact state: guards against state-shape changes in the rules modules."""
    game = get_game(game_id)
    states: list[dict[str, Any]] = []
    random_playout(game, players, 17, options, on_step=lambda old, *_: states.append(old))
    for state in states[:: max(1, len(states) // 15)]:
        seat = game.to_act(state)[0]
        view = game.view(state, seat)
        if game_id == "azul":
            rebuilt = azul_state(view, state["rng"])
            rebuilt["fac_draw"] = state["fac_draw"]
            assert rebuilt == state
        else:
            rebuilt = maharani_state(view, state["rng"])
            assert sorted(rebuilt["bag"]) == sorted(state["bag"])
            assert {**rebuilt, "bag": None} == {**state, "bag": None}


def test_azul_hint_reasons_speak_of_lines_and_points() -> None:
    game = get_game("azul")
    state = game.setup(2, 3)
    seat = game.to_act(state)[0]
    hints = suggest(game, game.view(state, seat), seat, seed=1, budget_s=0.05)
    assert len(hints) == 3
    for h in hints:
        assert "line" in h.reason or "floor" in h.reason
        assert "expected" in h.reason


def test_maharani_hint_reasons_speak_of_gold() -> None:
    game = get_game("maharani")
    state = game.setup(3, 3)
    seat = game.to_act(state)[0]
    hints = suggest(game, game.view(state, seat), seat, seed=1, budget_s=0.05, count=2)
    assert len(hints) == 2
    assert all("gold now" in h.reason for h in hints)


def test_generic_hint_reason_for_a_game_without_hooks() -> None:
    game = OPEN_PILE
    state = game.setup(2, 1)
    seat = game.to_act(state)[0]
    hints = suggest(game, game.view(state, seat), seat, seed=1, budget_s=0.01)
    assert hints and all("simulated games" in h.reason for h in hints)


def test_arena_command(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "azul", "--games", "2", "--seats", "normal,random"]
    assert main([*argv, "--budget", "0.001", "--workers", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    entries = report["entries"]
    assert [e["level"] for e in entries] == ["normal", "random"]
    assert sum(e["win_rate"] for e in entries) == pytest.approx(1.0)
    assert all(e["games"] == 2 and e["moves"] > 0 for e in entries)
    assert report["winner_avg_score"] >= max(e["avg_score"] for e in entries)
    assert main([*argv, "--budget", "0.001", "--workers", "1"]) == 0
    assert "95% interval" in capsys.readouterr().out


def test_arena_without_clock_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    """``--no-clock``: searches stop on iterations only, so two runs play the same games
    (same scores, same winners) whatever the machine's load; the safety net is restored."""
    argv = ["arena", "maharani", "--games", "2", "--seats", "normal,easy", "--budget", "0.001"]
    runs = []
    for _ in range(2):
        assert main([*argv, "--workers", "1", "--no-clock", "--json"]) == 0
        report = json.loads(capsys.readouterr().out)
        assert report["clock"] is False
        runs.append([(e["avg_score"], e["win_rate"]) for e in report["entries"]])
    assert runs[0] == runs[1]
    assert api.CAP_MARGIN_S < 10


def test_arena_observer_sees_every_move_of_the_same_game() -> None:
    """An observer sees each move once, in order (each move starts from the last one's
    state), and watching changes nothing: the game's scores are those played unwatched.
    The Azul points benchmark built on it adds the rules' scoring events per seat entry, and
    they add up to each entry's score (it raises otherwise)."""
    seen: list[tuple[Any, int, Any]] = []

    def observe(before: Any, seat: int, after: Any, _events: list[Any]) -> None:
        seen.append((before, seat, after))

    levels = ["easy", "random"]
    watched = play_one("azul", levels, 1, 101, 0.01, clock=False, observe=observe)
    unwatched = play_one("azul", levels, 1, 101, 0.01, clock=False)
    assert watched.scores == unwatched.scores
    assert len(seen) == sum(len(t) for t in watched.times)
    assert all(seen[k][2] is seen[k + 1][0] for k in range(len(seen) - 1))
    assert get_game("azul").outcome(seen[-1][2]) is not None
    tally = tally_game(levels, 1, 101, 0.01)
    assert tally.parts["score"] == watched.scores
    assert all(tiles > 0 for tiles in tally.parts["wall_tiles"])
    assert tally.parts["floor_items"][1] > 0  # random spills onto its floor


def test_arena_seats_each_entry_where_seat_of_entries_says() -> None:
    """The benches that replay arena games find an entry's seat with ``seat_of_entries``;
    the arena must seat entries there and report each entry's own score and move count,
    read here from the final state and the moves seen, seat by seat. The game's three
    scores differ, so a wrong seat could not pass unnoticed."""
    finals: list[Any] = []
    moves = [0, 0, 0]

    def observe(_before: Any, seat: int, after: Any, _events: list[Any]) -> None:
        finals[:] = [after]
        moves[seat] += 1

    assert seat_of_entries(4, 3) == [1, 2, 0]
    assert sorted(seat_of_entries(7, 4)) == [0, 1, 2, 3]
    result = play_one("azul", ["easy", "random", "random"], 4, 101, 0.01, observe=observe)
    by_seat = get_game("azul").scores(finals[0])
    assert len(set(by_seat)) == 3
    seat_of = seat_of_entries(4, 3)
    assert result.scores == [by_seat[seat_of[e]] for e in range(3)]
    assert [len(t) for t in result.times] == [moves[seat_of[e]] for e in range(3)]


ARENA_PART = ["arena", "maharani", "--seats", "normal,easy", "--budget", "0.001", "--no-clock"]


def _arena_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _table(report: dict[str, Any]) -> tuple[Any, ...]:
    """What a row of the arena table says, without the times (measured anew each run)."""
    entries = [(e["win_rate"], e["win_95"], e["avg_score"], e["games"]) for e in report["entries"]]
    return report["games"], report["indices"], report["winner_avg_score"], entries


def test_arena_plays_a_row_in_parts_and_tallies_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    """A long row is played in parts: ``--first`` plays the same games a whole run plays at
    those indices, ``--record`` keeps each game, and ``arena-tally`` over the parts prints
    the table of one run over all of them (a file tallied twice counts its games once)."""
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    part = _arena_json(
        capsys,
        [*ARENA_PART, "--games", "2", "--first", "2", "--workers", "2", "--record", str(first)],
    )
    assert part["indices"] == "2-3"
    lines = [json.loads(line) for line in first.read_text().splitlines()]
    assert sorted(d["index"] for d in lines) == [2, 3]
    for d in lines:
        alone = play_one("maharani", ["normal", "easy"], d["index"], 1, 0.001, clock=False)
        assert (d["scores"], d["wins"]) == (alone.scores, alone.wins)
        assert [len(t) for t in d["move_ms"]] == [len(t) for t in alone.times]
    _arena_json(capsys, [*ARENA_PART, "--games", "2", "--workers", "1", "--record", str(second)])
    whole = _arena_json(capsys, [*ARENA_PART, "--games", "4", "--workers", "1"])
    tally = _arena_json(capsys, ["arena-tally", str(second), str(first), str(first)])
    assert _table(tally) == _table(whole)
    assert tally["indices"] == "0-3"
    assert tally["cpu_s_per_game"] > 0
    assert main(["arena-tally", str(first)]) == 0
    assert "2 games (2-3)" in capsys.readouterr().out


def test_arena_tally_refuses_what_does_not_add_up(
    capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    """Games of another pairing, one game with two different results, a line that is not a
    recorded game, or no file: each is refused with the file and line, never summed."""
    mine = tmp_path / "mine.jsonl"
    _arena_json(capsys, [*ARENA_PART, "--games", "1", "--workers", "1", "--record", str(mine)])
    line = json.loads(mine.read_text())
    other_seed = tmp_path / "seed.jsonl"
    other_seed.write_text(json.dumps({**line, "seed": 2}) + "\n")
    changed = tmp_path / "changed.jsonl"
    changed.write_text(json.dumps({**line, "scores": [0, 0]}) + "\n")
    broken = tmp_path / "broken.jsonl"
    broken.write_text("normal won\n")
    cases = [
        (
            [mine, other_seed],
            "seed.jsonl, line 1: a different pairing (maharani, 2 players, "
            "seats normal,easy, budget 0.001 s, no clock, seed 2)",
        ),
        ([mine, changed], "game 0 is recorded twice with different results"),
        ([broken], "broken.jsonl, line 1: not a game recorded by `arena --record`"),
        ([tmp_path / "none.jsonl"], "none.jsonl: cannot read it"),
    ]
    for files, why in cases:
        assert main(["arena-tally", *map(str, files)]) == 2
        assert why in capsys.readouterr().out


def test_arena_refuses_bad_seats(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "azul", "--players", "2", "--seats", "normal"]) == 2
    assert "one level per player" in capsys.readouterr().out
    assert main(["arena", "azul", "--seats", "normal,wizard"]) == 2
    assert "Unknown level" in capsys.readouterr().out


def test_wall_clock_cap_stops_a_search_early() -> None:
    """The safety net: a search whose time is up stops at its next clock check, however
    many iterations remain."""
    game = get_game("azul")
    state = game.setup(2, 1)
    seat = game.to_act(state)[0]
    stats = search(
        game, ai_for(game), game.view(state, seat), seat, Rng(1), iterations=10**9, cap_s=0.0
    )
    assert sum(s.visits for s in stats) == CLOCK_EVERY


def test_calibrate_command_reports_each_player_count(capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m bot calibrate`` measures every player count of the game and prints the
    game's current calibration beside the measured rate."""
    argv = ["calibrate", "--games", "maharani", "--positions", "1", "--iterations", "16"]
    assert main([*argv, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["players"] for r in rows] == [2, 3, 4]
    assert all(r["measured_per_s"] > 0 and r["positions"] == 1 for r in rows)
    # the first sampled position of a random game has an empty floor: the table's rate
    assert [r["calibrated_per_s"] for r in rows] == [round(MAHARANI_AI.RATES[n]) for n in (2, 3, 4)]
