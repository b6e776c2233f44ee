"""The lobby's game options as a form (issue 43: Discord's newest inputs where they help).

- the strict local Discord refuses a form as Discord would (title, five fields, Labels and
  their children, no disabled inputs, a required select that may be left empty) and lets a
  member submit only what the form offers;
- every shipped game's form, in every language and at the most seats, is one Discord takes;
- the service: only the lobby's creator, only before the start, every value read by its
  spec and the whole set by the game; a refusal changes nothing;
- end to end, the real bot: the lobby's **Game options** button, a refusal for anyone but
  the creator, the form with the values now, the submit posted in the thread, the match
  started with the options chosen, and the button refused once it has started.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.console import Console
from bot.discord.options_form import options_form
from bot.matches.errors import ServiceError
from bot.matches.reports import User
from bot.matches.service import MatchService
from render.words.catalogue import t
from rules import get_game
from rules.registry import game_ids
from tests.conftest import ALICE, BOB
from tests.fakediscord import FakeDiscord, Interaction, Message, NotOffered
from tests.fakediscord.botproc import BotProcess
from tests.fakediscord.errors import ApiError
from tests.fakediscord.modals import check_modal, fields, submit_data

SHIPPED = [g for g in game_ids() if type(get_game(g)).__module__.startswith("rules.")]


def _form(**changes: Any) -> dict[str, Any]:
    select = {
        "type": 3,
        "custom_id": "grey_wall",
        "options": [
            {"label": "Yes", "value": "on"},
            {"label": "No", "value": "off", "default": True},
        ],
    }
    form = {
        "custom_id": "tf:1",
        "title": "Azul: the game's options",
        "components": [{"type": 18, "label": "Grey wall variant", "component": select}],
    }
    form.update(changes)
    return form


def _refused(form: dict[str, Any]) -> dict[str, Any]:
    with pytest.raises(ApiError) as caught:
        check_modal(form)
    assert (caught.value.status, caught.value.code) == (400, 50035)
    return caught.value.errors or {}


# ----- the strict local Discord ---------------------------------------------------------------
def test_fakediscord_refuses_what_discord_refuses_in_a_form() -> None:
    check_modal(_form())  # the form above is one Discord takes
    assert "title" in _refused(_form(title="x" * 46))["data"]
    assert "components" in _refused(_form(components=[]))["data"]
    label = _form()["components"][0]
    assert "components" in _refused(_form(components=[label] * 6))["data"]
    long_label = {**label, "label": "x" * 46}
    assert "label" in _refused(_form(components=[long_label]))["data"]["components"]["0"]
    button = {"type": 2, "style": 1, "label": "Go", "custom_id": "go"}
    assert _refused(_form(components=[button]))["data"]["components"]["0"]["type"]
    in_row = {"type": 1, "components": [label["component"]]}  # a select belongs in a Label
    assert _refused(_form(components=[in_row]))["data"]["components"]["0"]["type"]
    wrapped = {**label, "component": button}
    assert _refused(_form(components=[wrapped]))["data"]["components"]["0"]["component"]
    disabled = {**label, "component": {**label["component"], "disabled": True}}
    assert "disabled" in str(_refused(_form(components=[disabled])))
    optional_min = {**label, "component": {**label["component"], "min_values": 0}}
    assert "min_values" in str(_refused(_form(components=[optional_min])))


def test_a_member_submits_only_what_the_form_offers() -> None:
    form = _form()
    kept = submit_data(form, {})  # untouched: the preset value
    assert kept == {
        "custom_id": "tf:1",
        "components": [
            {
                "type": 18,
                "id": 2,
                "component": {"type": 3, "id": 1, "custom_id": "grey_wall", "values": ["off"]},
            }
        ],
    }
    assert submit_data(form, {"grey_wall": "on"})["components"][0]["component"]["values"] == ["on"]
    with pytest.raises(AssertionError, match="not among the options"):
        submit_data(form, {"grey_wall": "maybe"})


# ----- every shipped game's form ---------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "hu", "de", "pl"])
async def test_every_games_form_is_one_discord_takes(service: MatchService, lang: str) -> None:
    long_names = [User(str(2000 + k), "Ż" * 32) for k in range(5)]
    for game_id in SHIPPED:
        game = get_game(game_id)
        info = await service.create_match(game_id, long_names[0], max_players=game.max_players)
        for user in long_names[1 : game.max_players]:
            info = await service.join(info.id, user)
        form = options_form(info, lang).to_dict()
        check_modal(form)
        # one select per option, each with the value now chosen
        names = [f["custom_id"] for f in fields(form)]
        assert names == list(game.Options.model_fields), (game_id, names)
        for field in fields(form):
            assert sum(bool(o.get("default")) for o in field["options"]) == 1, field


# ----- the service ----------------------------------------------------------------------------
async def test_only_the_creator_sets_the_options_before_the_start(service: MatchService) -> None:
    info = await service.create_match("azul", ALICE, max_players=2)
    await service.join(info.id, BOB)
    version = (await service.info(info.id)).version

    with pytest.raises(ServiceError) as caught:
        await service.set_game_options(info.id, BOB, {"grey_wall": "on"})
    assert caught.value.text("en") == t("options.creator_only", "en")
    with pytest.raises(ServiceError) as caught:
        await service.set_game_options(info.id, ALICE, {"grey_wall": "maybe"})
    assert "grey_wall=maybe is not allowed" in caught.value.text("en")
    with pytest.raises(ServiceError) as caught:
        await service.set_game_options(info.id, ALICE, {"gray_wall": "on"})
    assert "grey_wall" in caught.value.text("en")  # the game names its options
    same = await service.info(info.id)
    assert same.options == {"grey_wall": False} and same.version == version

    changed = await service.set_game_options(info.id, ALICE, {"grey_wall": "on"})
    assert changed.options == {"grey_wall": True}
    assert (await service.info(info.id)).options == {"grey_wall": True}  # stored
    await service.start(info.id, ALICE)
    with pytest.raises(ServiceError) as caught:
        await service.options_form_for(info.id, ALICE)
    assert "already started" in caught.value.text("en")
    with pytest.raises(ServiceError):
        await service.set_game_options(info.id, ALICE, {"grey_wall": "off"})
    assert (await service.info(info.id)).options == {"grey_wall": True}


# ----- end to end ----------------------------------------------------------------------------
@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as f:
        yield f


async def _done(fake: FakeDiscord, inter: Interaction) -> Interaction:
    def answered() -> bool:
        if inter.modal is not None:
            return True
        return bool(inter.replies) and not any(m.loading for m in inter.replies)

    await fake.until(answered, 60)
    return inter


async def test_the_lobby_form_end_to_end(fake: FakeDiscord, tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    bot = await BotProcess(
        fake.api, db, token=fake.token, sync=True, outbox_poll_seconds=0.5
    ).start()
    try:
        await fake.until(lambda: fake.identifies and fake.commands.get(None), 90)
        ann, ben = fake.member("Ann"), fake.member("Ben")
        opened = await _done(fake, await fake.slash(ann, "game new", game="azul", players=2))
        thread = int(re.findall(r"<#(\d+)>", opened.replies[-1].content)[0])
        lobby: Message = fake.posts(thread)[0]
        match = int(lobby.custom_ids[0].split(":")[2])
        assert f"tg:{match}" in lobby.custom_ids
        assert lobby.labels()[f"tg:{match}"] == "Game options"

        refused = await _done(fake, await fake.click(ben, lobby, f"tg:{match}"))
        assert refused.modal is None
        assert refused.replies[-1].content == t("options.creator_only", "en")
        assert refused.replies[-1].ephemeral

        form = await _done(fake, await fake.click(ann, lobby, f"tg:{match}"))
        assert form.modal is not None and form.modal["title"] == "Azul: the game's options"
        (field,) = fields(form.modal)
        assert [o["value"] for o in field["options"] if o.get("default")] == ["off"]
        with pytest.raises(NotOffered):  # only on Ann's screen
            await fake.submit(ben, form, {"grey_wall": "on"})
        sent = await _done(fake, await fake.submit(ann, form, {"grey_wall": "on"}))
        said = sent.replies[-1]
        assert said.content == (
            f"Ann changed the game's options of match #{match} — grey wall variant: on."
        )
        assert not said.ephemeral and said.channel_id == thread

        await _done(fake, await fake.click(ben, lobby, f"tl:join:{match}"))
        await _done(fake, await fake.slash(ann, "game start", thread))
        with sqlite3.connect(db) as conn:
            (options,) = conn.execute(
                "SELECT options FROM matches WHERE id = ?", (match,)
            ).fetchone()
        assert json.loads(options) == {"grey_wall": True}
        late = await _done(fake, await fake.click(ann, lobby, f"tg:{match}"))
        assert late.modal is None and "already started" in late.replies[-1].content
    finally:
        await bot.stop()


async def test_the_console_twin(service: MatchService, tmp_path: Path) -> None:
    console = Console(service, tmp_path)

    async def run(line: str) -> list[str]:
        return await console.run_line(line)

    await run("alice> /game new taj-mahal players=3")
    assert await run("alice> /game options") == [
        "the last player left in a visit may play on: on, a palace for each tile won at the "
        "court: on, seat 1 starts the first visit"
    ]
    refused = await run("bob> /game options match=1 first_player=1")
    assert refused == ["✗ " + t("options.creator_only", "en")]
    said = await run("alice> /game options first_player=2 last_player_may_play=off")
    assert said == [
        "Alice changed the game's options of match #1 — the last player left in a visit may "
        "play on: off, a palace for each tile won at the court: on, seat 3 starts the first visit."
    ]
    assert (await service.info(1)).options["first_player"] == 2
