"""Who reads which language: private words (ephemeral replies, /hand, DMs) in the reader's
Discord client language, remembered for what is sent later; public words (lobby lines,
turn posts, their buttons and pictures) in the match's language — the server's when the
match is created, changeable with ``/game settings language:``; the console's ``/lang``.

The Hungarian texts are a small stand-in catalogue put in place by the test: the real
translations are checked by tests/test_catalogues.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.community.preferences import notify_summary
from bot.community.ratings import (
    Change,
    Rating,
    Standing,
    change_lines,
    change_words,
    leaderboard_lines,
)
from bot.console import Console
from bot.matches.pictures import Pictures
from bot.matches.service import MatchService
from render.words.catalogue import MESSAGES, t
from render.words.say import say
from tests.conftest import ALICE, BOB, MALLORY
from tests.discord_harness import Call, Harness, running
from tests.fakediscord.components import walk
from tests.test_discord_commands import only, open_lobby

HU = {
    "hand.caption": "A kezed a #{match}. partiban (csak te látod).",
    "err.not_your_match": "Ez nem a te partid, a gombjai nem neked szólnak.",
    "err.not_creator": "Ezt csak a parti létrehozója vagy egy szerverkezelő módosíthatja.",
    "dm.turn": "Te következel a #{match}. partiban ({game}): {link}",
    "post.to_act": "Te lépsz: {mentions}",
    "btn.play": "Lépek",
    "notify.saved": "Elmentve. {summary}",
    "console.lang_set": "Nyelv: {language}.",
}


@pytest.fixture
def hungarian(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int | None, str]]:
    """A stand-in Hungarian catalogue, and a record of every picture's (seat, language)."""
    monkeypatch.setitem(MESSAGES, "hu", HU)
    drawn: list[tuple[int | None, str]] = []
    original = Pictures._draw

    async def draw(self: Pictures, *args: Any) -> Any:
        drawn.append((args[4], args[6]))  # (match, game, state, names, seat, ply, lang, …)
        return await original(self, *args)

    monkeypatch.setattr(Pictures, "_draw", draw)
    return drawn


def posts_in(h: Harness, channel: int, since: int = 0) -> list[Call]:
    return [
        c
        for c in h.fake.calls[since:]
        if c.via == "rest" and c.method == "POST" and f"/channels/{channel}/messages" in c.url
    ]


def dms(h: Harness, thread: int) -> list[str]:
    """Contents of the messages posted outside the match thread: the direct messages."""
    return [
        c.content  # a classic DM's content, a card's texts
        for c in h.fake.calls
        if c.via == "rest"
        and c.method == "POST"
        and c.url.endswith("/messages")
        and f"/channels/{thread}/" not in c.url
    ]


async def test_a_hungarian_player_in_an_english_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hungarian: list[tuple[int | None, str]]
) -> None:
    async with running(tmp_path, monkeypatch) as h:  # the server's locale: en-US
        match_id, thread = await open_lobby(h, players=2)
        joined = only(await h.click(BOB, f"tl:join:{match_id}", channel=thread, locale="hu"))
        assert not joined.ephemeral and "Bob joined match" in joined.content  # public: English
        saved = only(await h.slash(BOB, "notify", mode="dm", locale="hu"))
        assert saved.content.startswith("Elmentve.")  # private: Hungarian
        assert (await h.service.store.get_user(BOB.id))["locale"] == "hu"  # remembered
        await h.click(ALICE, f"tl:start:{match_id}", channel=thread)
        await h.deliver()
        if (await h.service.info(match_id)).to_act != [BOB.id]:
            await h.slash(ALICE, "play", move="take1", channel=thread)
            await h.deliver()
        posts = posts_in(h, thread)
        assert posts and all("Te lépsz" not in p.content for p in posts)
        assert any("Your move:" in p.content for p in posts)
        assert {lang for seat, lang in hungarian if seat is None} == {"en"}
        # the turn DM, sent later by the outbox: in the language Bob's client had (a card:
        # its title line first, then the sentence with the jump link)
        said = [line for d in dms(h, thread) for line in d.split("\n")]
        assert any(line.startswith(f"Te következel a #{match_id}. partiban") for line in said)

        hand = only(await h.slash(BOB, "hand", channel=thread, locale="hu"))
        assert (
            hand.ephemeral and hand.content == f"A kezed a #{match_id}. partiban (csak te látod)."
        )
        bob_seat = (await h.service.info(match_id)).seat_of(BOB.id)
        assert (bob_seat, "hu") in hungarian  # his hand picture is drawn in Hungarian
        refused = only(await h.click(MALLORY, f"th:{match_id}", channel=thread, locale="hu"))
        assert refused.ephemeral and refused.content == HU["err.not_your_match"]
        refused = only(
            await h.slash(BOB, "game settings", language="hu", channel=thread, locale="hu")
        )
        assert refused.content == HU["err.not_creator"]
        assert (await h.service.info(match_id)).settings["language"] == "en"
        # a later interaction from another client language: remembered, and only that
        await h.slash(BOB, "history moves", channel=thread, locale="pl")
        stored = await h.service.store.get_user(BOB.id)
        assert stored["locale"] == "pl" and stored["notify"] == "dm"


async def test_the_match_language_is_the_servers_and_can_be_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hungarian: list[tuple[int | None, str]]
) -> None:
    async with running(tmp_path, monkeypatch) as h:
        h.guild_locale = "hu"  # a Hungarian server: its new matches speak Hungarian
        hu_match, _ = await open_lobby(h)
        assert (await h.service.info(hu_match)).settings["language"] == "hu"
        h.guild_locale = "en-US"
        match_id, thread = await open_lobby(h, players=2)
        await h.click(BOB, f"tl:join:{match_id}", channel=thread)
        await h.click(ALICE, f"tl:start:{match_id}", channel=thread)
        await h.deliver()
        reply = only(await h.slash(ALICE, "game settings", language="hu", channel=thread))
        assert "posts and pictures in Hungarian" in reply.content  # Alice reads English
        refused = only(await h.slash(ALICE, "game settings", language="tlh", channel=thread))
        assert "language=tlh is not allowed: language takes one of en, de, hu, pl" in (
            refused.content
        )
        mover = (await h.service.info(match_id)).to_act[0]
        since, drawn = len(h.fake.calls), len(hungarian)
        await h.slash(ALICE if mover == ALICE.id else BOB, "play", move="take1", channel=thread)
        await h.deliver()
        post = posts_in(h, thread, since)[-1]
        assert "Te lépsz:" in post.content
        labels = [c["label"] for _, c in walk(post.payload["components"]) if c.get("type") == 2]
        assert "Lépek" in labels
        assert {lang for seat, lang in hungarian[drawn:] if seat is None} == {"hu"}


async def test_console_lang(service: MatchService, tmp_path: Path, hungarian: Any) -> None:
    console = Console(service, tmp_path / "pics")
    assert (await console.run_line("alice> /lang xx"))[0].startswith("✗ Type /lang and one of")
    assert await console.run_line("alice> /lang hu") == ["Nyelv: hu."]
    assert (await service.store.get_user("console:alice"))["locale"] == "hu"
    await console.run_line("alice> /game new test-pile")
    assert (await service.info(1)).settings["language"] == "hu"


@pytest.mark.parametrize("lang", [None, "hu", "de", "pl"])
def test_the_notify_summary_says_the_reminders_as_a_phrase(lang: str | None) -> None:
    """Without hours of their own a player's reminders follow each match; the summary says
    so in words (it once read "reminders every match default h")."""
    default = notify_summary({"notify": "mention", "settings": {}}, lang)
    own = notify_summary({"notify": "mention", "settings": {"reminder_hours": 12}}, lang)
    assert t("notify.reminders_default", lang) in default and "12" not in default
    assert t("notify.reminders_every", lang, hours="12") in own


@pytest.mark.parametrize(("lang", "mu", "delta"), [(None, "27.4", "+3.9"), ("hu", "27,4", "+3,9")])
def test_ratings_are_written_as_the_language_writes_numbers(
    lang: str | None, mu: str, delta: str
) -> None:
    """A rating is a number in a sentence: a decimal comma in Hungarian, German and Polish,
    both when said at once and when said later from the stored words."""
    before, after = Rating(25.0, 8.0), Rating(27.4, 7.5)
    change = Change(1, "1001", "Alice", before, after)
    said_now = change_lines([change], lang or "en")[1]
    said_later = say(change_words([change])[1], lang)
    assert said_now == said_later
    assert f"Alice: {mu} ± " in said_now and f"({delta})" in said_now
    board = leaderboard_lines([Standing("1001", "Alice", after, 3)], "Azul", lang or "en")
    assert f"{mu} ± " in board[1]
