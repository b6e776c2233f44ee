"""The guided panel composes a Pastiche trade offer pick by pick (whom, cards given, cards
wanted) through the game's ``Composer``, with no game-specific code in the bot: a player who
is not on turn opens the panel, builds a gift to the trading player and plays it; the
trading player accepts it with /play."""

from __future__ import annotations

from tests.discord_harness import running
from tests.test_discord_commands import mover, only, started


async def test_an_idle_player_composes_an_offer_in_the_panel(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        m, thread = await started(h, "pastiche")
        info = await h.service.info(m)
        on, off = await mover(h, m)
        place = next(x for x in await h.service.legal_moves(m, on) if x.notation[0] == "h")
        await h.service.play(m, on, place.notation)
        v = (await h.service.info(m)).version

        panel = only(await h.click(off, f"tp:{m}:{v}", channel=thread))
        assert panel.ephemeral and f"tk:{m}:{v}:0:" in panel.custom_ids
        step = only(await h.click(off, f"tk:{m}:{v}:0:", channel=thread))
        assert step.custom_ids == [f"tc:{m}:{v}:0:"]  # whom: only the player on turn
        step = only(await h.click(off, f"tc:{m}:{v}:0:", channel=thread, values=["0"]))
        select = next(
            c for row in step.data["components"] for c in row["components"] if c["type"] == 3
        )
        assert select["custom_id"] == f"tc:{m}:{v}:0:0" and len(select["options"]) == 4
        assert select["max_values"] == 4  # n cards at once
        gift = select["options"][0]["label"]
        step = only(await h.click(off, select["custom_id"], channel=thread, values=["0"]))
        assert f"tk:{m}:{v}:0:0.0.-" in step.custom_ids  # "None": ask nothing back
        step = only(await h.click(off, f"tk:{m}:{v}:0:0.0.-", channel=thread))
        seat = info.seat_of(on.id)
        assert seat is not None
        notation = f"offer p{seat + 1} {gift} for -"
        assert notation in step.content and f"tn:{m}:{v}:0:0.0.-" in step.custom_ids
        # a forged pick (an option that does not exist) is refused in words
        bad = only(await h.click(off, f"tn:{m}:{v}:0:0.z.-", channel=thread))
        assert bad.ephemeral and "board has changed" in bad.content
        done = only(await h.click(off, f"tn:{m}:{v}:0:0.0.-", channel=thread))
        assert "You played" in done.content
        assert (await h.service.store.moves(m))[-1].notation == notation
        reply = only(await h.slash(on, "play", move="accept 1", channel=thread))
        assert "You played" in reply.content
        state = await h.service.state_at(m)
        assert state["deals"] == [] and state["players"][seat]["cards"][gift] >= 1
        assert not h.errors
