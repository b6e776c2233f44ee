"""Hungarian's definite article before a name: "az" before a vowel sound, "a" before a
consonant ("az Azul", "a Taj Mahal").

Why the catalogue picks it: a translation cannot, since the name arrives as a value
(``{game}``), so Hungarian texts wrote "a(z) {game}" and players read "a(z) Azul" (issue 41).
When the value is a name whose sound is known, :func:`with_articles` puts the right article
in place of "a(z)" (capitalised at the start of a sentence); before any other value (a
player's name, a word someone typed) "a(z)" stays, the form Hungarian writing uses for a
word it cannot know.

Known names: the games' names (their first letter is their first sound: Azul, Maharani,
Pastiche, Taj Mahal), and the names of options and settings (``hints``, ``think_seconds``:
code words, read as spelled). A player's name is not known even when it looks plain: the
console capitalises it, and Discord's names are anyone's (Yvette, Hugh).
"""

from __future__ import annotations

import re
from typing import Any

from rules.registry import all_games

#: Hungarian's vowels: a name that starts with one takes "az".
_VOWELS = frozenset("aáeéiíoóöőuúüű")
#: An option's or setting's name, as the code writes it.
_CODE_WORD = re.compile(r"[a-z][a-z0-9_]*")
#: "a(z)" or "A(z)" right before a placeholder.
_ARTICLE_BEFORE = re.compile(r"\b([Aa])\(z\) \{([A-Za-z_][A-Za-z0-9_]*)\}")


def hungarian_article(name: str) -> str | None:
    """ "az" or "a" before ``name`` when its first sound is known, else None."""
    known = _CODE_WORD.fullmatch(name) or name in {game.name for game in all_games()}
    if not known:
        return None
    return "az" if name[0].lower() in _VOWELS else "a"


def with_articles(text: str, lang: str, values: dict[str, Any]) -> str:
    """``text`` (a template) with each "a(z) {name}" whose value is a known name given its
    article; other languages' texts as they are."""
    if lang != "hu" or "(z) {" not in text:
        return text

    def article(m: re.Match[str]) -> str:
        value = values.get(m.group(2))
        chosen = hungarian_article(value) if isinstance(value, str) else None
        if chosen is None:
            return m.group(0)
        if m.group(1) == "A":
            chosen = chosen.capitalize()
        return f"{chosen} {{{m.group(2)}}}"

    return _ARTICLE_BEFORE.sub(article, text)
