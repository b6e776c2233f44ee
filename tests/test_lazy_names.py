"""The front ends say a move's words only where they show them. Why: Pastiche lists about
270 moves a turn and a click of the guided panel shows a handful; saying every label of
every move (in English, then again in the reader's language) was most of a click's CPU in
the bot's process. These tests count which of the rules' label objects get said during
clicks and autocomplete on a real Pastiche match, and that the rules list the moves once
per match version however many clicks ask."""

from __future__ import annotations

from typing import Any

import pytest

import bot.discord.cogs.play as play_cog
import bot.discord.panel as panel
import bot.matches.turns as turns_module
import render.words.say as words
from render.words.say import say
from rules.registry import get_game
from tests.discord_harness import running
from tests.test_discord_commands import mover, only, started


class Sayings:
    """Records every saying of one of the listed moves' label objects, wherever it
    happens: ``say`` is replaced in render.words.say (``said``, ``in_language`` and the
    service's naming call it there) and in the modules that imported it by name."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, moves: list[Any]) -> None:
        self.labels = {id(x): x for m in moves for x in (m.label, *(s.label for s in m.steps))}
        self.said: list[Any] = []
        real = words.say

        def counting(value: Any, lang: Any = None, names: list[str] | None = None) -> str:
            if self.labels.get(id(value)) is value:
                self.said.append(value)
            return real(value, lang, names)

        for module in (words, panel, play_cog, turns_module):
            monkeypatch.setattr(module, "say", counting)

    def take(self) -> list[Any]:
        out, self.said = self.said, []
        return out


async def test_panel_clicks_say_only_the_shown_choices(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        m, thread = await started(h, "pastiche")
        on, _ = await mover(h, m)
        info, legal = await h.service.turn_for(m, on)
        v, names = info.version, info.names
        assert len(legal) > 100 and all(len(x.steps) == 5 for x in legal)
        game = get_game("pastiche")
        listings: list[int] = []
        real_list = game.legal_moves
        monkeypatch.setattr(
            game, "legal_moves", lambda s, seat: listings.append(seat) or real_list(s, seat)
        )
        sayings = Sayings(monkeypatch, legal)

        def firsts(depth: int, prefix: list[str]) -> list[Any]:
            """The label objects of the distinct next steps after ``prefix``."""
            seen: dict[str, Any] = {}
            for x in legal:
                if [s.key for s in x.steps[:depth]] == prefix:
                    seen.setdefault(x.steps[depth].key, x.steps[depth].label)
            return list(seen.values())

        # the panel in German: the first step's choices, each said once, in German
        root = only(await h.click(on, f"tp:{m}:{v}", channel=thread, locale="de"))
        shown = firsts(0, [])
        assert sayings.take() == shown and len(shown) < 10
        buttons = [c["label"] for row in root.data["components"] for c in row["components"]]
        assert [say(x, "de", names) for x in shown] == buttons[: len(shown)]

        # down the path: the path so far and the next step's choices, nothing else
        target = legal[len(legal) // 2]
        keys = [s.key for s in target.steps]
        for depth in range(1, 5):
            step = only(await h.click(on, f"ts:{m}:{v}:" + "/".join(keys[:depth]), channel=thread))
            path = [s.label for s in target.steps[:depth]]
            assert sayings.take() == path + firsts(depth, keys[:depth])
        step = only(await h.click(on, f"ts:{m}:{v}:" + "/".join(keys), channel=thread))
        # the path, and the one move it completes on its Play button
        assert sayings.take() == [s.label for s in target.steps] + [target.label]
        assert f"tm:{m}:{v}:{target.notation}" in step.custom_ids

        # the last click finds its move by notation and says only that one: for the
        # reply, and (when the rules' parse hands back the same label) for the log's line
        done = await h.click(on, f"tm:{m}:{v}:{target.notation}", channel=thread)
        assert "You played" in only(done).content
        said = sayings.take()
        assert said[0] is target.label and all(x is target.label for x in said)
        assert len(said) <= 2
        assert listings == []  # the version's listing was remembered for every click
        assert (await h.service.store.moves(m))[-1].notation == target.notation
        assert not h.errors


async def test_autocomplete_says_only_the_choices_it_returns(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        m, thread = await started(h, "pastiche")
        on, _ = await mover(h, m)
        info, legal = await h.service.turn_for(m, on)
        sayings = Sayings(monkeypatch, legal)
        choices = await h.autocomplete(on, "play", "move", "", channel=thread, locale="pl")
        said = sayings.take()
        by_notation = {x.notation: x for x in legal}
        assert len(choices) == 25 and said == [by_notation[c["value"]].label for c in choices]
        assert [c["name"] for c in choices] == [say(x, "pl", info.names) for x in said]
        # typed words are matched in the reader's language: each label said once, in it
        typed = await h.autocomplete(
            on, "play", "move", choices[3]["name"], channel=thread, locale="pl"
        )
        assert typed[0] == choices[3] and len(sayings.take()) == len(legal)
