"""Hungarian's definite article before a name (issue 41, "a(z) Azul"): "az" before a vowel
sound, "a" before a consonant. A translation writes "a(z) {game}" where the name is not
known when it is written; the catalogue picks the article when the name is one whose sound
it knows (a game's name, an option's name) and keeps "a(z)" before any other (a player's
name, a word someone typed).
"""

from __future__ import annotations

import re
import string

import pytest

from render.words.articles import hungarian_article
from render.words.catalogue import messages, t, tn
from rules import get_game
from rules.registry import game_ids

#: "a(z)" right before a placeholder: the translations that leave the article to the name.
ARTICLE_BEFORE = re.compile(r"\b[Aa]\(z\) \{([a-z_]+)\}")

EXPECTED = {"Azul": "az", "Taj Mahal": "a", "Maharani": "a", "Pastiche": "a", "Pile": "a"}


def test_the_article_of_each_game_is_the_one_its_name_sounds_with() -> None:
    assert {get_game(g).name: hungarian_article(get_game(g).name) for g in game_ids()} == EXPECTED


def test_the_article_of_an_option_name_and_of_an_unknown_word() -> None:
    assert hungarian_article("hints") == "a"
    assert hungarian_article("options") == "az"
    assert hungarian_article("think_seconds") == "a"
    for unknown in ("Éva", "Yvette", "Bob", "„x”", "5", ""):
        assert hungarian_article(unknown) is None


def hungarian_keys() -> list[str]:
    return sorted(k for k, text in (messages("hu") or {}).items() if ARTICLE_BEFORE.search(text))


def test_the_hungarian_catalogue_leaves_the_article_to_names() -> None:
    assert {"post.begins", "ai.level_not_offered", "options.bad_value"} <= set(hungarian_keys())


@pytest.mark.parametrize("game", sorted(EXPECTED))
@pytest.mark.parametrize("key", hungarian_keys())
def test_no_hungarian_text_says_a_z_before_a_known_name(key: str, game: str) -> None:
    text = (messages("hu") or {})[key]
    names = {n for _, n, _, _ in string.Formatter().parse(text) if n}
    values = {n: f"«{n}»" for n in names}
    values.update({n: game for n in names if n == "game"})
    values.update({n: "hints" for n in names if n == "name"})
    base = key.rsplit(".", 1)[0] if key.endswith((".one", ".other")) else None
    if base:
        del values["n"]  # the count of a plural family
    said = tn(base, 2, "hu", **values) if base else t(key, "hu", **values)
    # what follows a "a(z)" left is a name nobody knows (a placeholder's «value», a quote)
    assert all(after in "«„" for after in re.findall(r"\b[Aa]\(z\) (\S)", said)), said
    if "game" in names:
        article = EXPECTED[game]
        assert re.search(rf"\b[Aa]{article[1:]} {game}\b", said), said


def test_the_start_of_a_match_names_its_game_with_its_article() -> None:
    names = "Anna és Bea"
    assert t("post.begins", "hu", game="Azul", names=names).startswith("Kezdődik az Azul")
    assert t("post.begins", "hu", game="Taj Mahal", names=names).startswith("Kezdődik a Taj Mahal")
    too_few = tn("svc.too_few", 1, "hu", game="Azul", min=2)
    assert too_few.startswith("Az Azul játékhoz"), too_few


def test_an_unknown_word_keeps_both_articles() -> None:
    assert "a(z) „xyz”" in t("console.option_form", "hu", word="xyz")
    assert t("options.bad_value", "hu", name="Éva", value="1", allowed="x").count("a(z) Éva") == 1


def test_other_languages_are_left_as_they_are() -> None:
    assert t("post.begins", "de", game="Azul", names="A") == (
        (messages("de") or {})["post.begins"].format(game="Azul", names="A")
    )
