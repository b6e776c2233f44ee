"""A button's move does its work once. Why: under load every repeated piece of a move's
work is CPU the bot processes pay per move (docs/performance.md). The gate's read lists the
legal moves, so the play that follows takes its move from that listing instead of listing
the moves again to parse the notation; the status line of a match is said where it is shown
(the turn post), not each time the match is described."""

from __future__ import annotations

from typing import Any

import pytest

from bot.matches.service import MatchService
from render.words.say import say
from rules import get_game
from tests.conftest import ALICE, BOB


async def test_a_button_play_lists_once_and_says_the_status_once(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = await MatchService.open(tmp_path / "t.db", render=False)
    try:
        info = await service.create_match("azul", ALICE, None, seed=5)
        await service.join(info.id, BOB)
        await service.start(info.id, ALICE)
        game = get_game("azul")
        real_list, real_status = game.legal_moves, game.status
        listings: list[int] = []
        statuses: list[Any] = []
        monkeypatch.setattr(
            game, "legal_moves", lambda s, seat: listings.append(seat) or real_list(s, seat)
        )
        monkeypatch.setattr(game, "status", lambda s: statuses.append(s) or real_status(s))

        before = await service.info(info.id)
        user = ALICE if before.to_act == [ALICE.id] else BOB
        gate, legal = await service.turn_for(info.id, user)
        assert len(listings) == 1 and statuses == []  # the gate lists; says no status
        move = legal[len(legal) // 2]
        report = await service.play(info.id, user, move.notation, expected_version=gate.version)
        assert len(listings) == 1  # the play took the gate's move: no second listing
        assert len(statuses) == 1  # the turn post's status line, not yet the answer's

        # the answer's line, said when asked, is the post's: the same state's status
        for row in await service.store.due_notifications():  # the start's post
            await service.store.mark_sent(row.id)
        (post,) = await service.store.due_notifications()
        assert post.payload["ply"] == report.ply
        assert report.match.status_text == post.payload["status"]
        assert len(statuses) == 2 and statuses[1] is statuses[0]
        assert report.match.status_text == say(real_status(statuses[0]), None, report.match.names)

        # a typed play (not a listed notation as it stands) is still parsed by the rules
        user = ALICE if report.match.to_act == [ALICE.id] else BOB
        _, legal = await service.turn_for(info.id, user)
        typed = f" {legal[0].notation.lower()} "
        await service.play(info.id, user, typed)
        assert len(listings) == 3  # the gate's, then the parse's own
    finally:
        await service.close()
