"""No tofu, ever: every character a picture draws is one the bundled fonts have.

- the fonts' character table (read from their ``cmap``, render/glyphs.py) is what Pillow
  really draws: a character in it draws a glyph, one outside draws the .notdef box;
- every catalogue text in every language (the .po files included) is in both fonts, but for
  the emoji of our own texts that pictures replace with a symbol of the fonts (🤖 → ⚙,
  🏆 → ★) and the few Discord posts that are never drawn (Discord draws their emoji);
- player names as Discord allows them (accented Latin, Polish and Hungarian letters, Greek,
  Cyrillic, CJK, emoji, fancy Unicode letters) and computer names in every language are
  drawn with characters the fonts have, and still show something;
- every game's pictures, drawn with such names, give every text to a font that replaces
  what it lacks (render.common.CachedFont), so none reaches Pillow as tofu.
"""

from __future__ import annotations

import contextlib
import unicodedata
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from PIL import ImageDraw, ImageFont

from render.common import CachedFont, font
from render.glyphs import COMPUTER_TEXT, MISSING, SUBSTITUTES, drawable, font_characters
from render.registry import get_drawer
from render.words.catalogue import LANGUAGES, messages, t
from rules import get_game
from rules.ai import LEVELS
from rules.playout import random_playout

#: Discord posts that carry emoji and are never drawn in a picture (Discord draws them).
POSTS_WITH_EMOJI = {"post.clock", "remind.dm", "remind.post", "chart.post"}
POST_FAMILIES_WITH_EMOJI = ("replay.posted.",)

#: Names as players really choose them on Discord.
NAMES = [
    "Zoë",
    "François",
    "Łucja Wiśniewska",
    "Gergő Ősz",
    "Žofie Šťastná",
    "Ørjan",
    "Şule Ağaoğlu",
    "Nguyễn Văn An",
    "Ζωή Παπαδοπούλου",
    "Юлия Смирнова",
    "Đorđe",
    "山田太郎",
    "김민준",
    "Taro 山田",
    "Kasia 🌸",
    "🔥Tom🔥",
    "👨\u200d👩\u200d👧 family",
    "🇭🇺 Bence",
    "❤️ Bob",
    "👍🏽",
    "𝓙𝓸𝓱𝓷",
    "Ｔａｒｏ",
    "สมชาย",
    "x_X -=[Pro]=-",
    "a\u200bb",
]
#: The first names bot/computers/players.py gives computer players.
COMPUTER_FIRST_NAMES = ["Ada", "Alan", "Grace", "Kurt", "Emmy", "Claude", "Edsger", "Barbara"]


def computer_names() -> list[str]:
    return [
        t("ai.name", lang, name=first, level=level)
        for lang in LANGUAGES
        for first in COMPUTER_FIRST_NAMES
        for level in LEVELS
    ]


FONTS = [font(20), font(20, bold=True)]


@cache
def _raw(path: str) -> ImageFont.FreeTypeFont:
    """The font as Pillow draws it, without our replacements."""
    return ImageFont.truetype(path, 20)


def _mask(path: str, char: str) -> tuple[tuple[int, int], bytes]:
    mask = _raw(path).getmask(char)
    return mask.size, bytes(mask)


def _draws_a_glyph(path: str, char: str) -> bool:
    """Whether Pillow draws ``char`` with a glyph of its own (not the .notdef box)."""
    return _mask(path, char) != _mask(path, "\U0010fffd")  # a private-use code: no font has it


def _visible(char: str) -> bool:
    return unicodedata.category(char)[0] in "LNPS"


@pytest.mark.parametrize("fnt", FONTS, ids=["regular", "bold"])
def test_the_character_table_is_what_pillow_draws(fnt: CachedFont) -> None:
    with open(fnt.path, "rb") as handle:
        table = font_characters(handle.read())
    assert table == fnt.characters
    sample = {chr(c) for c in range(0x21, 0x7F)} | set("őűłśżąęßäöüΩЖ→✓✗▶◀★⚙")
    sample |= {c for name in NAMES for c in name}
    sample |= {c for lang in LANGUAGES for text in messages(lang).values() for c in text}  # type: ignore[union-attr]
    wrong = [
        c
        for c in sorted(sample)
        if _visible(c) and (ord(c) in table) != _draws_a_glyph(str(fnt.path), c)
    ]
    assert wrong == []
    assert not _draws_a_glyph(str(fnt.path), "山") and not _draws_a_glyph(str(fnt.path), "🤖")


def _drawn_key(key: str) -> bool:
    return key not in POSTS_WITH_EMOJI and not key.startswith(POST_FAMILIES_WITH_EMOJI)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalogue_text_is_in_both_fonts(lang: str) -> None:
    table = messages(lang)
    assert table
    lacking = {
        (key, c)
        for key, text in table.items()
        if _drawn_key(key)
        for c in text
        if c != "\n"
        for fnt in FONTS
        if ord(c) not in fnt.characters
        and not (c in SUBSTITUTES and ord(SUBSTITUTES[c]) in fnt.characters)
    }
    assert lacking == set()


@pytest.mark.parametrize("fnt", FONTS, ids=["regular", "bold"])
def test_names_draw_without_tofu_and_never_empty(fnt: CachedFont) -> None:
    path = str(fnt.path)
    for name in NAMES + computer_names():
        shown = drawable(name, fnt.characters)
        assert [c for c in shown if ord(c) not in fnt.characters] == [], name
        assert [c for c in shown if _visible(c) and not _draws_a_glyph(path, c)] == [], name
        assert any(_visible(c) for c in shown), name
        if all(ord(c) in fnt.characters for c in name):
            assert shown == name  # nothing a font has is ever replaced
    assert drawable("🤖 Ada (normal)", fnt.characters) == f"{COMPUTER_TEXT} Ada (normal)"
    assert drawable("山田 Taro", fnt.characters) == f"{MISSING * 2} Taro"
    assert drawable("Kasia 🌸", fnt.characters) == "Kasia"
    assert drawable("𝓙𝓸𝓱𝓷", fnt.characters) == "John"
    assert drawable("👨\u200d👩\u200d👧", fnt.characters) == MISSING


@contextlib.contextmanager
def _recording() -> Iterator[list[tuple[str, Any]]]:
    drawn: list[tuple[str, Any]] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        drawn.append((str(text), kwargs.get("font", args[1] if len(args) > 1 else None)))
        return original(self, xy, text, *args, **kwargs)

    ImageDraw.ImageDraw.text = text  # type: ignore[method-assign]
    try:
        yield drawn
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]


PICTURE_NAMES = ["🤖 Ada (normal)", "山田太郎", "Kasia 🌸", "🤖 Alan (hard)", "Ζωή"]


@pytest.mark.parametrize("game_id", ["azul", "taj-mahal", "maharani", "pastiche"])
def test_pictures_give_every_text_to_a_font_that_replaces_what_it_lacks(game_id: str) -> None:
    game = get_game(game_id)
    players = min(4, game.max_players)
    states: list[Any] = []
    final, _ = random_playout(game, players, 11, on_step=lambda *a: states.append(a[3]))
    names = PICTURE_NAMES[:players]
    draw = get_drawer(game_id)
    with _recording() as drawn:
        for lang, state in (("en", states[len(states) // 2]), ("pl", final)):
            view = game.view(state, None)
            view["last_move"] = f"{names[0]}: 🏆 {names[1]}"
            draw(view, names, None, lang)
            if game.has_hidden_information:
                draw(game.view(state, 0), names, 0, lang)
    assert drawn
    for text, fnt in drawn:
        assert isinstance(fnt, CachedFont), (text, fnt)
        shown = drawable(text, fnt.characters)
        assert {c for c in shown if c != "\n" and ord(c) not in fnt.characters} == set(), text
    texts = " ".join(text for text, _ in drawn)
    assert "山田太郎" in texts and "Ada" in texts  # the names really were drawn
