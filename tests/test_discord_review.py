"""``/review`` through the real discord.py dispatch (recorded stand-in interactions): in
the match's thread a public answer edited with the progress, then the figures and a
message per player with their moments' pictures, each within Discord's limits; from
elsewhere only to the asker, in their language; a running match refused privately. The
judging runs in the computer workers (the fast recording judge: the point is the
plumbing)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord.common import UserError
from bot.discord.flood import Flood, Limits
from tests import review_fakes
from tests.conftest import ALICE, MALLORY
from tests.discord_harness import Call, running
from tests.test_discord_commands import mover, started
from tests.test_discord_replay import finish


def replies(calls: list[Call]) -> list[Call]:
    return [c for c in calls if c.via == "hook"]


def within_limits(call: Call) -> None:
    assert len(call.content) <= 2000 and len(call.files) <= 10, call
    for attachment in call.data.get("attachments") or []:
        assert len(attachment.get("description") or "") <= 1024


async def test_review_in_the_thread_publicly_elsewhere_privately(
    tmp_path: Any, monkeypatch: Any
) -> None:
    async with running(tmp_path, monkeypatch) as h:
        h.bot.computers.pool.reviewer = review_fakes.TARGET
        match_id, thread = await started(h)
        on, _ = await mover(h, match_id)
        await h.slash(on, "play", move="take1", channel=thread)
        refused = replies(await h.slash(MALLORY, "review", channel=thread))
        assert len(refused) == 1 and refused[0].ephemeral
        assert "still being played" in refused[0].content
        await finish(h, match_id)

        calls = await h.slash(MALLORY, "review", channel=thread)
        assert calls[0].callback_type == 5 and not calls[0].ephemeral  # answered at once
        posted = replies(calls)[1:]
        assert "decisions judged: 1 of" in posted[0].content  # the progress, edited in
        for call in posted:
            within_limits(call)
            assert not call.ephemeral
        followups = [c for c in posted if c.method == "POST"]
        assert len(followups) == 2  # a message per player
        text = "\n".join(c.content for c in posted)
        assert f"Review of match #{match_id}" in text and "Alice" in text and "Bob" in text
        files = [f for c in posted for f in c.files]
        assert files and all(f.startswith(f"match-{match_id}-review-seat") for f in files)
        assert h.service._reviews.searches == 1

        # from another channel, by number: only to the asker, in their language, at once
        calls = await h.slash(ALICE, "review", match=match_id, locale="de")
        private = replies(calls)[1:]
        assert calls[0].callback_type == 5 and calls[0].ephemeral  # the edits stay so
        assert all(c.ephemeral for c in private if c.method == "POST")
        assert f"Analyse der Partie #{match_id}" in "\n".join(c.content for c in private)
        assert h.service._reviews.searches == 1  # read from the store


async def test_reviews_hold_flood_slots_of_their_own() -> None:
    flood = Flood(Limits(replays_per_member=1, replays_per_server=3), clock=lambda: 0.0)
    async with flood.replay_slot("7", "1"), flood.replay_slot("7", "1", "reviews"):
        with pytest.raises(UserError) as refused:
            async with flood.replay_slot("7", "1", "reviews"):
                pass
        assert refused.value.key == "flood.reviews_member"
    assert not flood._replays  # nothing left counted
