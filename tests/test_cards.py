"""The bot's posts as cards (bot/discord/cards.py): every card stays within Discord's limits
in every language, whatever a post holds, because the strict local Discord's checks accept
what discord.py sends for it; a run posted before posts were cards is never edited into
one (Discord refuses that edit as it is sent); and the language the end-to-end matches are
played in is the longest localisation.

The bodies are built by discord.py itself (``handle_message_parameters``, what
``channel.send`` and ``message.edit`` send), and checked by the local Discord's own rules
(``tests/fakediscord/limits.py``), offline and in milliseconds.
"""

from __future__ import annotations

import io
import json
import re
from typing import Any

import discord
import pytest
from discord.http import handle_message_parameters

from bot.discord.cards import (
    MOST_COMPONENTS,
    TEXT_LIMIT,
    Card,
    dm_turn_card,
    lobby_card,
    move_controls,
    offer_card,
    picture_card,
    turn_card,
)
from bot.discord.delivery import FOLD_MAX_CHARS
from render.alt_text import Described
from render.words.catalogue import LANGUAGES, messages, t
from render.words.posts import listing
from rules.ai import LEVELS
from rules.registry import game_ids, get_game
from tests.fakediscord.components import walk
from tests.fakediscord.errors import ApiError
from tests.fakediscord.limits import Before, check_message

#: The longest game name, the most people a post names (ten seats) and Discord's longest
#: display names (32 characters): the biggest header any post can have.
GAME = max((get_game(g).name for g in game_ids()), key=len)
NAMES = [f"<@{10**18 + k}>" if k % 2 else f"{'Ł' * 29} {k:02d}" for k in range(10)]
WHEN = "<t:1767225600:R>"


def sent(card: Card, *, edit: bool = False) -> tuple[dict[str, Any], list[tuple[str, int]]]:
    """The JSON body and the files discord.py sends for ``card`` (a new post, or an edit
    that replaces the message's files: ``attachments``)."""
    if edit:
        params = handle_message_parameters(view=card.view, attachments=card.files)
    else:
        params = handle_message_parameters(view=card.view, files=card.files)
    if params.multipart:
        body = json.loads(params.multipart[0]["value"])
    else:
        body = dict(params.payload or {})
    files = [(f.filename or "", 1000) for f in card.files]
    return body, files


def accepted(card: Card) -> dict[str, Any]:
    """``card`` as Discord would keep it: refused here if the local Discord refuses it."""
    body, files = sent(card)
    check_message(body, files)
    components = body["components"]
    assert sum(1 for _ in walk(components)) <= MOST_COMPONENTS
    texts = [c["content"] for _, c in walk(components) if c.get("type") == 10]
    assert sum(map(len, texts)) <= TEXT_LIMIT
    return body


def board(alt_words: int = 1024) -> discord.File:
    """A picture whose description is as long as Discord allows."""
    png = Described(b"\x89PNG fake", "x" * alt_words)
    return discord.File(io.BytesIO(png), filename="match-1-1.png", description=png.alt)


def texts(body: dict[str, Any]) -> list[str]:
    return [c["content"] for _, c in walk(body["components"]) if c.get("type") == 10]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_turn_post_is_one_card_within_the_limits_whatever_it_holds(lang: str) -> None:
    """The biggest header (ten people named, a deadline), a run as long as delivery lets
    one grow before starting a new post, then a run far longer (a final post with many
    lines): the header stays whole, the newest lines and the picture's note are kept, the
    oldest give way ("…"), and the board keeps its description."""
    to_act = t("post.to_act", lang, mentions=listing(NAMES, lang))
    line = t("post.picture_next", lang) + " " + GAME
    size = FOLD_MAX_CHARS // (len(line) + 5)
    run = [f"{k}. {line}" for k in range(size)]
    assert len("\n".join(run)) <= FOLD_MAX_CHARS
    for lines, cut in ((run, False), ([f"{k}. {line}" for k in range(5 * size)], True)):
        card = turn_card(
            GAME,
            99999,
            lang,
            lines=lines,
            status=t("post.picture_follows", lang) * 3,
            to_act=to_act,
            clock=t("post.clock", lang, when=WHEN),
            note=t("post.picture_follows", lang),
            picture=board(),
            controls=move_controls(99999, 12345, lang, hidden=True, hints=True),
        )
        body = accepted(card)
        (container,) = body["components"]
        assert [c["type"] for c in container["components"]] == [10, 12, 10, 1]
        head, moves = texts(body)
        assert head.startswith(f"### {GAME} ") and to_act in head and WHEN in head
        assert moves.endswith(lines[-1] + "\n" + t("post.picture_follows", lang))
        assert moves.startswith("…") == cut and (lines[0] in moves.split("\n")) != cut
        assert container["components"][1]["items"][0]["description"] == "x" * 1024
        assert [b["custom_id"] for b in container["components"][3]["components"]] == [
            "tp:99999:12345",
            "tw:99999",
            "th:99999",
            "tv:99999",
            "ty:99999",
        ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_other_cards_stay_within_the_limits(lang: str) -> None:
    """The lobby (every computer level), the "your turn" DM, the score chart and a
    substitute vote with its longest words: each one container, accepted as sent."""
    lobby = accepted(lobby_card(GAME, 99999, lang, creator=NAMES[1], low=2, high=5, levels=LEVELS))
    rows = [c for _, c in walk(lobby["components"]) if c.get("type") == 1]
    assert [len(r["components"]) for r in rows] == [3, len(LEVELS) + 1]
    dm = accepted(
        dm_turn_card(
            GAME,
            99999,
            12345,
            lang,
            text=t("dm.turn", lang, match=99999, game=GAME, link="https://discord.com/" + "9" * 60),
            clock=t("post.clock", lang, when=WHEN),
            picture=board(),
            hidden=True,
        )
    )
    dm_ids = [c["custom_id"] for _, c in walk(dm["components"]) if "custom_id" in c]
    assert dm_ids == ["tp:99999:12345", "th:99999"]  # the move controls, in the DM
    chart = t("chart.post", lang, match=99999)
    assert texts(accepted(picture_card(GAME, 99999, lang, text=chart, picture=board())))[
        0
    ].endswith(chart)
    vote = t(
        "sub.vote_post",
        lang,
        by=NAMES[0],
        to=NAMES[2],
        seat=10,
        holder=NAMES[4],
        why=t("sub.why.computer", lang),
        match=99999,
        votes=9,
        needed=9,
        when=WHEN,
    )
    buttons = [
        (f"tu:{a}:99999:9:abcdef01", t(f"btn.sub_{'accept' if a == 'take' else a}", lang), _GREY)
        for a in ("yes", "no", "take", "decline", "withdraw")
    ]
    offer = accepted(
        offer_card(
            GAME, 99999, lang, text=vote, ping=[str(10**18 + k) for k in range(9)], buttons=buttons
        )
    )
    assert vote in "\n".join(texts(offer))


_GREY = discord.ButtonStyle.secondary


def test_a_classic_post_cannot_be_edited_into_a_card() -> None:
    """Why a run posted before posts were cards starts a new post: the edit that turns it
    into a card, as discord.py sends it (no ``content`` field: the old text would stay),
    is refused by Discord (the local Discord's rule: the content must be emptied, which
    would wipe the post under its readers' eyes for a moment of no text at all)."""
    card = turn_card(GAME, 1, "en", lines=["Alice withdrew."], picture=board())
    body, files = sent(card, edit=True)
    classic = Before(0, "Alice withdrew.\nYour move: <@1>", [])
    with pytest.raises(ApiError) as refused:
        check_message(body, files, edit=True, before=classic, attached=[f for f, _ in files])
    assert "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2" in json.dumps(refused.value.body())
    # while a card edited into the next card of its run is accepted
    before = Before(1 << 15, "", body["components"])
    check_message(body, files, edit=True, before=before, attached=[f for f, _ in files])


def test_german_is_the_longest_localisation() -> None:
    """The end-to-end matches (tests/test_e2e_discord.py) are played in the language
    whose words are longest — each game's words (most of a post: its move lines and
    status), and all of them together — so that passing there is the hardest case; the
    tests above check every card in all four languages besides. Counted per message, its
    longest plural form."""
    keys: dict[str, dict[str, int]] = {}
    for lang in LANGUAGES:
        longest: dict[str, int] = {}
        for key, text in (messages(lang) or {}).items():
            base = re.sub(r"\.(zero|one|two|few|many|other)$", "", key)
            longest[base] = max(longest.get(base, 0), len(text))
        keys[lang] = longest
    groups = [g.replace("-", "_") + "." for g in game_ids() if g != "test-pile"]
    groups.append("")  # every message
    for group in groups:
        size = {
            lang: sum(n for k, n in found.items() if k.startswith(group))
            for lang, found in keys.items()
        }
        assert max(size, key=lambda lang: size[lang]) == "de", (group, size)
