"""What the console printed in an evening, and the checks a demanding player makes of it.

Every line typed is kept with its answer and the console's language at the time, so that a
failure names the exact input. The checks are the catalogue's, not a list of phrases: a
raw key is a printed token that is a catalogue key, an unfilled placeholder is ``{name}``,
and English left in a hu/de/pl console is a line (or a part of one between the separators
the console uses) that an English catalogue text matches whole, placeholders standing for
anything, when that language translates the text differently.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache

from render.words.catalogue import MESSAGES, messages

#: ``{name}`` left in a printed line: a text said without its values.
PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")
#: A dotted lower-case token: a raw key when the catalogue has it (or its plural family).
KEYLIKE = re.compile(r"(?<![\w/.-])[a-z][a-z0-9_]*(?:\.[A-Za-z0-9_]+)+")
#: Notation the console quotes (`F1-B-2`, a hint's [withdraw]): typed tokens, no language's.
QUOTED = re.compile(r"`[^`]*`|\[[^\]]*\]")
#: Where the console joins sayings in one line: alike moves, a hint's reason, a listing.
SEPARATORS = re.compile(r" · | — | – |: ")
#: An English text is checked when its own words (placeholders aside) have this many letters:
#: shorter ones ("{n} gold", "{who}: {label}") are names and numbers more than words.
MIN_LETTERS = 6


@dataclass
class Said:
    """One typed line, the console's language once it was answered, and the answer."""

    typed: str
    lang: str
    out: list[str]


@dataclass
class Transcript:
    said: list[Said] = field(default_factory=list)

    def lines(self) -> Iterator[tuple[Said, str]]:
        for entry in self.said:
            for text in entry.out:
                for line in text.split("\n"):
                    yield entry, line

    def problems(self) -> list[str]:
        """Every defect a reader would see, each with the line typed before it."""
        out = []
        for entry, line in self.lines():
            for problem in line_problems(line, entry.lang):
                out.append(f"{entry.typed!r} ({entry.lang}) → {problem}: {line!r}")
        return out


def line_problems(line: str, lang: str) -> list[str]:
    found = []
    if "Traceback" in line or "Error:" in line:
        found.append("a traceback")
    if PLACEHOLDER.search(line):
        found.append("an unfilled placeholder")
    keys = [k for k in KEYLIKE.findall(line) if _is_key(k)]
    if keys:
        found.append(f"raw key {keys[0]}")
    if lang != "en":
        english = english_key(line, lang)
        if english:
            found.append(f"English ({english}) in a {lang} console")
    return found


def _is_key(token: str) -> bool:
    english = MESSAGES["en"]
    return token in english or f"{token}.other" in english


def english_key(line: str, lang: str) -> str | None:
    """The key of an English text that ``line`` (or one of its parts) is, when ``lang``
    says that text otherwise; None when the line is not such English."""
    plain = QUOTED.sub("", line).strip()
    parts = {plain, *(p.strip() for p in SEPARATORS.split(plain))}
    for key, pattern in english_patterns(lang):
        if any(pattern.fullmatch(p) for p in parts if p):
            return key
    return None


@cache
def english_patterns(lang: str) -> tuple[tuple[str, re.Pattern[str]], ...]:
    translated = messages(lang) or {}
    out = []
    for key, english in MESSAGES["en"].items():
        if translated.get(key, english) == english:
            continue  # the same in both: a name, a symbol, a loan word
        pieces = PLACEHOLDER.split(english.strip())
        if sum(ch.isalpha() for piece in pieces for ch in piece) < MIN_LETTERS:
            continue
        out.append((key, re.compile("(.+?)".join(re.escape(p) for p in pieces))))
    return tuple(out)
