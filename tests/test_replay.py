"""Animated replays: one frame per turn plus title and standings, public boards only (also
while the match runs), built in a worker process (never the event loop), cached and
refreshed when the match moves on, and under the upload limit (the ladder of sizes).

The 10 MiB limit on real long matches of every game is measured by
``python -m bot replay-bench`` (seconds per match: too slow for the suite); here the
ladder is proven on fast synthetic frame sequences with a small limit.
"""

from __future__ import annotations

import asyncio
import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageFilter, ImageStat

from bot.matches.replay import NothingToReplay, frames, make_job, replays_of, turn_views
from bot.matches.reports import User
from bot.matches.service import MatchService
from bot.tools.replay_bench import LONG_MATCHES, _stored, long_log
from render.registry import render_image
from render.replay import (
    UPLOAD_LIMIT,
    TooLarge,
    _resized,
    encode,
    fit,
    paletted,
    shared_palette,
)
from rules import get_game
from rules.playout import random_playout
from tests.conftest import ALICE, BOB
from tests.ratings_helpers import play_result

ANN, BEN, CID = "2001", "2002", "2003"


def runs(seats: list[int]) -> int:
    """Turns counted from scratch: runs of the same seat in the log."""
    return sum(1 for i, s in enumerate(seats) if i == 0 or seats[i - 1] != s)


def n_frames(data: bytes) -> int:
    with Image.open(io.BytesIO(data)) as image:
        return int(getattr(image, "n_frames", 1))


def difference(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference per channel (0–255) of two same-sized pictures."""
    return sum(ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB"))).mean)


async def test_built_in_a_worker_process_cached_and_refreshed(tmp_path: Path) -> None:
    service = await MatchService.open(tmp_path / "r.db", render_workers=1)
    try:
        finished = await play_result(service, {ANN: 3, BEN: 1, CID: 2})
        replays = replays_of(service)
        first, second = await asyncio.gather(replays.get(finished), replays.get(finished))
        assert first is second and replays.builds == 1  # two askers share one build
        assert first.pid != os.getpid()  # drawn and encoded in a worker process
        rows = await service.store.moves(finished)
        turns = runs([r.seat for r in rows if r.kind == "move"])
        assert first.turns == turns == 3
        assert n_frames(first.data) == turns + 2  # title, one per turn, standings
        assert first.format in ("webp", "gif") and first.filename.endswith(first.format)
        assert await replays.get(finished) is first and replays.builds == 1  # cached

        # a running match: its replay follows the match as it moves on
        info = await service.create_match("test-pile", ALICE, max_players=2, seed=3)
        await service.join(info.id, BOB)
        await service.start(info.id, ALICE)
        with pytest.raises(NothingToReplay):
            await replays.get(info.id)
        users = {ALICE.id: ALICE, BOB.id: BOB}
        for notation in ("draw", "take1"):
            now = await service.info(info.id)
            await service.play(info.id, users[now.to_act[0]], notation)
        early = await replays.get(info.id)
        assert early.turns == 2 and replays.builds == 2
        now = await service.info(info.id)
        await service.play(info.id, users[now.to_act[0]], "take1")
        later = await replays.get(info.id)
        assert later.turns == 3 and replays.builds == 3 and n_frames(later.data) == 5
        assert replays.cached(info.id, 2, "running", "en") is None  # the stale one is gone
    finally:
        await service.close()


async def test_frames_are_the_public_pictures_while_the_match_runs(tmp_path: Path) -> None:
    """Taj Mahal (hidden hands, several plies per visit), 45 plies into a 3-player match:
    every turn frame is drawn from the spectator's view after that turn — never a seat's —
    and looks like the public picture; the last frame shows no scores."""
    game = get_game("taj-mahal")
    _final, log = random_playout(game, 3, 11)
    log = log[:45]
    service = await MatchService.open(tmp_path / "t.db", render=False)
    try:
        match_id = await _stored(service, "taj-mahal", 3, 11, log)
        match = await service.store.get_match(match_id)
        rows = await service.store.moves(match_id)
    finally:
        await service.close()
    assert match is not None and match.status == "running"
    job = make_job(match, rows, width=480)
    views = turn_views(job)
    seats = [seat for seat, _ in log]
    assert len(views) == runs(seats) < len(log)  # a visit's plies are one turn

    def shown(view: dict) -> dict:
        return {k: v for k, v in view.items() if k != "last_move"}

    state = game.setup(3, 11, None)
    turn, secret_views = 0, 0
    for i, (seat, notation) in enumerate(log):
        state, _ = game.apply(state, seat, game.parse(state, seat, notation))
        if i + 1 == len(log) or log[i + 1][0] != seat:
            assert shown(views[turn]) == game.view(state, None)
            for s in range(3):
                if game.view(state, s) != game.view(state, None):  # s holds a hidden hand
                    secret_views += 1
                    assert shown(views[turn]) != game.view(state, s)
            turn += 1
    assert secret_views  # hands were hidden all along: the checks above had work to do
    assert all(v["last_move"].startswith(tuple(match.names)) for v in views)

    images = frames(job)
    assert len(images) == len(views) + 2
    for view, image in zip(views[::6], images[1:-1:6], strict=True):
        picture = fit(render_image("taj-mahal", view, match.names, None), 480, image.height)
        # the same picture, in 256 colours (the band now tells the turn's moves on a few
        # rows of text, whose antialiased edges cost the shared palette a little: 4.05 at
        # most here, 3.95 before with one row)
        assert difference(image, picture) < 4.25


def noise_frames(count: int, size: tuple[int, int]) -> list[Image.Image]:
    """Frames that change everywhere, smooth enough for lower qualities to pay off."""
    base = Image.effect_noise(size, 90).convert("RGB").filter(ImageFilter.GaussianBlur(1.5))
    return [base.rotate(i * 7) for i in range(count)]


def test_a_long_animation_is_reduced_until_it_fits() -> None:
    rgb = noise_frames(160, (200, 120))  # a long match's frame count, small and fast
    palette = shared_palette(rgb[::20])
    frames_ = [paletted(f, palette) for f in rgb]  # as the replay holds them
    ms = [100] * len(frames_)
    tries: list[tuple[str, int, int, int]] = []
    roomy = encode(frames_, ms, 1 << 40, webp=True, on_attempt=lambda *a: tries.append(a))
    assert roomy.attempts == 1 and roomy.format == "webp" and n_frames(roomy.data) == 160
    limit = int(len(roomy.data) * 0.7)  # the first step cannot fit
    tries.clear()
    fitted = encode(frames_, ms, limit, webp=True, on_attempt=lambda *a: tries.append(a))
    assert fitted.attempts > 1 and len(fitted.data) <= limit < tries[0][3]
    assert fitted.quality < roomy.quality and n_frames(fitted.data) == 160
    with pytest.raises(TooLarge):
        encode(frames_[:20], ms[:20], 2_000, webp=True)
    smaller = _resized(frames_[:3], 100)  # a narrower step keeps the shared palette
    assert [f.size for f in smaller] == [(100, 60)] * 3
    assert all(f.mode == "P" and f.getpalette() == frames_[0].getpalette() for f in smaller)


def test_gif_when_animated_webp_cannot_be_written() -> None:
    frames_ = noise_frames(30, (160, 90))
    out = encode(frames_, [200] * 30, 10 * 1024 * 1024, webp=False)
    assert out.format == "gif" and out.data.startswith(b"GIF8")
    with Image.open(io.BytesIO(out.data)) as gif:
        assert gif.n_frames == 30 and gif.info.get("duration") == 200


async def test_console_saves_the_replay(tmp_path: Path) -> None:
    from bot.console import Console, turns

    service = await MatchService.open(tmp_path / "c.db", render_processes=False)
    try:
        match_id = await play_result(service, {ANN: 2, BEN: 1})
        console = Console(service, tmp_path / "pictures")
        console.current, console.user = match_id, User(ANN, "Ann")
        [line] = await turns.history(console, ["replay"])
        path = tmp_path / "pictures" / f"match-{match_id}-replay.webp"
        assert str(path) in line and n_frames(path.read_bytes()) == 2 + 2
    finally:
        await service.close()


def test_command_line_writes_the_replay(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    from bot.__main__ import main

    db = tmp_path / "cli.db"

    async def finished() -> int:
        service = await MatchService.open(db, render=False)
        try:
            return await play_result(service, {ANN: 1, BEN: 2})
        finally:
            await service.close()

    match_id = asyncio.run(finished())
    out = tmp_path / "replay.gif"  # the suffix follows the format written
    assert main(["replay", str(match_id), "--db", str(db), "--out", str(out)]) == 0
    written = out.with_suffix(".webp")
    assert n_frames(written.read_bytes()) == 4
    assert str(written) in capsys.readouterr().out
    assert main(["replay", "99", "--db", str(db), "--out", str(out)]) == 2
    assert main(["replay", "1", "--db", str(tmp_path / "none.db"), "--out", str(out)]) == 2


@pytest.mark.parametrize(("game_id", "players", "seeds", "least"), LONG_MATCHES)
async def test_the_longest_matches_of_each_game_fit_discords_upload_limit(
    tmp_path: Path, game_id: str, players: int, seeds: int, least: int
) -> None:
    """The real thing, not a synthetic sequence: the longest match the benchmark finds per
    game (Pastiche ≥ 300 plies under a trading policy) is replayed into a file under
    Discord's 10 MiB, with one frame per turn plus the title and the standings."""
    seed, log = long_log(game_id, players, seeds, least)
    assert len(log) >= least
    service = await MatchService.open(tmp_path / "long.db", render=False)
    try:
        match_id = await _stored(service, game_id, players, seed, log)
        replay = await replays_of(service).get(match_id)
        seats = [seat for seat, _ in log]
        turns = 1 + sum(1 for a, b in zip(seats, seats[1:], strict=False) if a != b)
        assert replay.turns == turns and replay.frames == turns + 2
        assert len(replay.data) <= UPLOAD_LIMIT
        Image.open(io.BytesIO(replay.data)).seek(replay.frames - 1)  # every frame is there
    finally:
        await service.close()
