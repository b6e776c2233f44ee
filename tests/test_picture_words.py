"""Words in pictures come from the one catalogue (render.words.catalogue), in the viewer's language.

Every ``pic.*`` key the renderers use exists in English; an unknown language draws the
English picture byte for byte; a translated word really reaches the picture (and English
stays as it was: no cached layer bleeds between languages); the service keys its picture
cache by language and the render workers get it; the Discord front end asks for the
server's language for public pictures and the user's for private ones.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from PIL import Image, ImageChops

import bot.discord.i18n
from bot.matches.render_pool import RenderPool
from bot.matches.service import MatchService
from render.registry import render_png
from render.words import catalogue as i18n
from render.words.catalogue import MESSAGES, picture_language, t
from rules import get_game
from rules.playout import random_playout
from rules.taj_mahal.components import components
from tests.conftest import ALICE, BOB, CAROL
from tests.discord_harness import running

ROOT = Path(__file__).resolve().parent.parent
NAMES = ["Ágnes", "Bálint", "Csilla", "Dániel"]

#: One word per game (public and, where there is one, private picture) that a test
#: language changes; every one of them is drawn on the picture chosen below.
CHANGED = {
    ("azul", None): "pic.azul.floor",  # part of the cached static layer
    ("taj-mahal", None): "pic.taj.specials",
    ("taj-mahal", 0): "pic.taj.hand_head.other",
    ("maharani", None): "pic.maharani.title",
    ("pastiche", None): "pic.pastiche.bank",
    ("pastiche", 0): "pic.pastiche.commissions",
}


#: prefixes that ``word()`` completes with a name from the game data
WORD_PREFIXES = {"pic.taj.colour", "pic.maharani.animal", "pic.maharani.colour"}


def used_keys() -> set[str]:
    """Every ``"pic.…"`` literal in the renderers (``t("pic.…")``, and keys chosen before
    the call, ``key = "pic.a" if … else "pic.b"``), with the f-string families expanded."""
    keys: set[str] = set()
    pattern = re.compile(r"""["'](pic\.[A-Za-z0-9_.]+)(\{?)""")
    for path in (ROOT / "render").rglob("*.py"):
        if path.name == "english_pictures.py":
            continue
        source = path.read_text(encoding="utf-8")
        counted = set(re.findall(r"""\btn\(\s*["'](pic\.[A-Za-z0-9_.]+)["']""", source))
        for key in counted:  # tn("pic.x", n): the plural forms pic.x.one / pic.x.other
            keys |= {f"{key}.one", f"{key}.other"}
        for key, family in pattern.findall(source):
            if not family and key not in WORD_PREFIXES and key not in counted:
                keys.add(key)
    keys |= {f"pic.azul.colour.{c}" for c in "BYRKW"}
    keys |= {f"pic.azul.shape.{s}" for s in ("circle", "triangle", "diamond", "square", "star")}
    keys |= {f"pic.maharani.side.{s}" for s in "NESW"}
    keys |= {f"pic.pastiche.verb.{p}" for p in ("place", "trade", "complete", "discard")}
    # names from game data, looked up with word(): every one our data holds is in English
    keys |= {f"pic.taj.colour.{c}" for c in (*components().colours, "white", "special")}
    view = get_game("maharani").view(get_game("maharani").setup(2, 1), None)
    keys |= {f"pic.maharani.animal.{a}" for a in view["animals"]}
    keys |= {f"pic.maharani.colour.{c}" for c in view["colours"]}
    return keys


def test_every_picture_key_used_exists_in_english() -> None:
    keys = used_keys()
    assert len([k for k in keys if k.startswith("pic.")]) > 100
    assert all(k.startswith("pic.") for k in keys), sorted(k for k in keys if "pic." not in k)
    missing = sorted(k for k in keys if k not in MESSAGES["en"])
    assert missing == []
    # and the catalogue holds no picture word that nothing draws (a stale key)
    unused = sorted(k for k in MESSAGES["en"] if k.startswith("pic.") and k not in keys)
    assert unused == []


def test_one_catalogue_for_bot_and_pictures() -> None:
    assert bot.discord.i18n.MESSAGES is MESSAGES
    assert t("btn.join") == "Join" and t("pic.azul.floor") == "floor"
    assert picture_language("pt-BR") == "en"  # a language we lack: English pictures
    assert picture_language(discord.Locale.british_english) == "en"


_STATES: dict[str, dict[str, Any]] = {}


def state_of(game_id: str) -> dict[str, Any]:
    """A mid-game state with a little of everything on the board (cached per game)."""
    if game_id not in _STATES:
        game = get_game(game_id)
        states: list[dict[str, Any]] = []
        random_playout(game, 3, 5, on_step=lambda *a: states.append(a[3]))
        _STATES[game_id] = states[len(states) // 3]
    return _STATES[game_id]


def picture(game_id: str, seat: int | None, lang: str = "en") -> bytes:
    game = get_game(game_id)
    return render_png(game_id, game.view(state_of(game_id), seat), NAMES[:3], seat, lang)


@pytest.mark.parametrize(("game_id", "seat"), sorted(CHANGED, key=str))
def test_unknown_language_draws_the_english_picture(game_id: str, seat: int | None) -> None:
    english = picture(game_id, seat)
    assert picture(game_id, seat, "zz") == english
    assert picture(game_id, seat, "en-GB") == english


@pytest.fixture
def test_language() -> Iterator[str]:
    """A language "xx" where one picture word per game is changed (the rest falls back)."""
    MESSAGES["xx"] = {key: "»" + MESSAGES["en"][key] + " XX«" for key in CHANGED.values()}
    try:
        yield "xx"
    finally:
        del MESSAGES["xx"]


@pytest.mark.parametrize(("game_id", "seat"), sorted(CHANGED, key=str))
def test_a_translated_word_reaches_the_picture(
    game_id: str, seat: int | None, test_language: str
) -> None:
    english = picture(game_id, seat)
    translated = picture(game_id, seat, test_language)
    assert translated != english
    a = Image.open(io.BytesIO(english)).convert("RGB")
    b = Image.open(io.BytesIO(translated)).convert("RGB")
    assert a.size != b.size or ImageChops.difference(a, b).getbbox() is not None
    # English is drawn as before: no cached layer of "xx" leaks into it
    assert picture(game_id, seat) == english
    assert picture(game_id, seat, test_language) == translated


def test_word_falls_back_to_the_data_name() -> None:
    assert i18n.word("pic.maharani.animal", "lion") == "Lion"
    assert i18n.word("pic.maharani.animal", "unicorn") == "unicorn"


async def test_render_workers_get_the_language() -> None:
    """Worker processes draw in the language they are asked for (the test game writes the
    language it was given on its picture)."""
    pool = RenderPool(1)
    try:
        view = get_game("test-pile").view(get_game("test-pile").setup(2, 1), None)
        english, _ = await pool.render("test-pile", view, ["Ann", "Bo"], None)
        same, _ = await pool.render("test-pile", view, ["Ann", "Bo"], None, "en")
        hungarian, _ = await pool.render("test-pile", view, ["Ann", "Bo"], None, "hu")
    finally:
        pool.close()
    assert english == same and hungarian != english


async def _taj_match(service: MatchService) -> int:
    info = await service.create_match("taj-mahal", ALICE, seed=4, guild_id="g", channel_id="c")
    for user in (BOB, CAROL):
        await service.join(info.id, user)
    await service.start(info.id, ALICE)
    return info.id


async def test_service_pictures_are_cached_per_language(tmp_path, test_language) -> None:
    # threads, so the test language added in this process is seen by the renderer
    service = await MatchService.open(tmp_path / "t.db", render_processes=False)
    try:
        match_id = await _taj_match(service)
        english = await service.picture(match_id)
        translated = await service.picture(match_id, lang=test_language)
        assert translated != english
        assert await service.picture(match_id, lang="en-GB") == english  # shares the cache
        assert await service.picture(match_id) == english
        to_act = (await service.info(match_id)).to_act[0]
        user = next(u for u in (ALICE, BOB, CAROL) if u.id == to_act)
        mine, _ = await service.hand(match_id, user)
        mine_xx, _ = await service.hand(match_id, user, test_language)
        assert mine != mine_xx
    finally:
        await service.close()


def _spy(h: Any, monkeypatch: Any) -> list[tuple[str, Any]]:
    """Record the language of every picture the front end asks the service for."""
    asked: list[tuple[str, Any]] = []
    picture, hand = h.service.picture, h.service.hand
    turn_picture = h.service.turn_picture

    async def spy_picture(match_id: int, ply: int | None = None, lang: str = "en") -> bytes:
        asked.append(("picture", lang))
        return await picture(match_id, ply, lang)

    async def spy_turn_picture(match_id: int, ply: int, lang: str = "en") -> bytes | None:
        asked.append(("picture", lang))  # the turn post's picture
        return await turn_picture(match_id, ply, lang)

    async def spy_hand(match_id: int, user: Any, lang: str = "en") -> Any:
        asked.append(("hand", lang))
        return await hand(match_id, user, lang)

    monkeypatch.setattr(h.service, "picture", spy_picture)
    monkeypatch.setattr(h.service, "turn_picture", spy_turn_picture)
    monkeypatch.setattr(h.service, "hand", spy_hand)
    return asked


async def test_public_pictures_in_the_server_language_private_in_the_user_language(
    tmp_path, monkeypatch
) -> None:
    from tests.test_discord_commands import mover, started

    monkeypatch.setitem(MESSAGES, "de", {"btn.play": "Zug machen"})  # German is spoken
    async with running(tmp_path, monkeypatch) as h:
        h.guild_locale = "de"  # the match is opened in a German server: its language
        match_id, thread = await started(h)
        assert (await h.service.info(match_id)).settings["language"] == "de"
        asked = _spy(h, monkeypatch)
        on, off = await mover(h, match_id)
        # the turn post: the server's language, from the gateway's guild cache
        guild = SimpleNamespace(preferred_locale=discord.Locale.german)
        monkeypatch.setattr(h.bot, "get_guild", lambda gid: guild)
        await h.slash(on, "play", move="draw", channel=thread, locale="pl")
        await h.deliver()
        assert ("picture", "de") in asked
        asked.clear()
        await h.slash(off, "board", channel=thread, locale="hu")
        assert asked == [("picture", "de")]
        asked.clear()
        await h.slash(off, "hand", channel=thread, locale="hu")
        assert asked == [("hand", "hu")]
        asked.clear()
        await h.click(on, f"th:{match_id}", channel=thread, locale="pl")
        assert asked == [("hand", "pl")]
        # a match from before languages were stored, in a server the bot does not know
        # (not cached): English
        await h.service.update_settings(match_id, language=None)
        asked.clear()
        monkeypatch.setattr(h.bot, "get_guild", lambda gid: None)
        on, off = await mover(h, match_id)
        await h.slash(on, "play", move="draw", channel=thread)
        await h.deliver()
        assert asked and all(lang.startswith("en") for _, lang in asked)
