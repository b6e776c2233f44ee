"""``/moves`` in the console (issue 41): alike moves on one line (a placement with its
rotations, as the guided panel walks them), every move reachable page by page or by a
text, a refusal for a page that does not exist."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.console import Console
from bot.console.moves import MOVES_PER_PAGE
from bot.matches.reports import User
from bot.matches.service import MatchService
from render.words.catalogue import t, tn


async def _started(service: MatchService, tmp_path: Path, game: str) -> tuple[Console, str]:
    console = Console(service, tmp_path)
    for line in (f"alice> /game new {game}", "bob> /game join", "alice> /game start"):
        await console.run_line(line)
    mover = (await service.info(1)).to_act[0].removeprefix("console:")
    await console.run_line(f"{mover}> /lang en")
    return console, mover


async def test_pastiche_moves_one_line_per_placement_and_every_page(
    service: MatchService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.console.moves.MOVES_PER_PAGE", 4)  # several pages at the start
    console, mover = await _started(service, tmp_path, "pastiche")
    moves = await service.legal_moves(1, User(f"console:{mover}", mover.capitalize()))
    first = await console.run_line(f"{mover}> /moves")
    assert first[0] == tn("console.moves_head", len(moves), "en")
    pages = int(first[-1].split(" of ")[1].split(":")[0])
    assert first[-1] == t("console.moves_page", "en", page=1, pages=pages)
    listed = first[1:-1]
    for page in range(2, pages + 1):
        out = await console.run_line(f"{mover}> /moves {page}")
        assert out[0] == first[0] and out[-1].startswith(f"Page {page} of {pages}")
        listed += out[1:-1]
    assert pages > 1 and len(listed) <= pages * 4
    # every legal move is shown exactly once, and a placement's rotations share a line
    text = "\n".join(listed)
    for move in moves:
        assert text.count(f"· '{move.notation}' ") + text.count(f"  {move.notation} ") == 1
    assert all(line.startswith("  h") for line in listed)  # each line opens with a notation
    placements = {" ".join(m.notation.split()[:2]) for m in moves}
    assert len(listed) == len(placements) < len(moves)
    assert await console.run_line(f"{mover}> /moves {pages + 1}") == [
        "✗ " + tn("console.moves_no_page", pages, "en", page=pages + 1)
    ]
    assert await console.run_line(f"{mover}> /moves 0") == [
        "✗ " + tn("console.moves_no_page", pages, "en", page=0)
    ]


async def test_moves_filter_by_notation_or_label(service: MatchService, tmp_path: Path) -> None:
    console, mover = await _started(service, tmp_path, "azul")
    moves = await service.legal_moves(1, User(f"console:{mover}", mover.capitalize()))
    floor = [m for m in moves if "floor" in str(m.label)]  # to the floor, or 1 to floor
    out = await console.run_line(f"{mover}> /moves floor")
    assert out[0] == tn("console.moves_containing", len(floor), "en", text="floor")
    text = "\n".join(out[1:])
    assert all(f"· '{m.notation}' " in text or f"  {m.notation} " in text for m in floor)
    by_notation = await console.run_line(f"{mover}> /moves f1-")
    assert all("F1-" in line for line in by_notation[1:])
    assert await console.run_line(f"{mover}> /moves unicorn") == [
        t("console.moves_none_contain", "en", text="unicorn")
    ]
    await console.run_line(f"{mover}> /lang de")
    german = await console.run_line(f"{mover}> /moves Boden")
    assert german[0] == tn("console.moves_containing", len(floor), "de", text="Boden")


async def test_azul_moves_group_the_lines_of_one_pick(
    service: MatchService, tmp_path: Path
) -> None:
    console, mover = await _started(service, tmp_path, "azul")
    moves = await service.legal_moves(1, User(f"console:{mover}", mover.capitalize()))
    out = await console.run_line(f"{mover}> /moves")
    picks = {m.notation.rsplit("-", 1)[0] for m in moves}
    assert len(out) - 1 == len(picks) <= MOVES_PER_PAGE  # one page: no page line
    for line in out[1:]:  # a pick's lines together, opening with a notation
        first = line.split()[0]
        pick = first.rsplit("-", 1)[0]
        alike = [m for m in moves if m.notation.rsplit("-", 1)[0] == pick]
        assert all(f"· '{m.notation}' " in line or m.notation == first for m in alike)
