"""Which characters the bundled fonts can draw, and what a picture draws for the others.

Why: a character a font lacks is drawn as its ".notdef" glyph, an empty box ("tofu"), which
tells the reader nothing. Player names come from Discord and may hold any character (emoji,
CJK, scripts DejaVu Sans lacks), and every computer player's name begins with 🤖
(``ai.name``). Every text a picture draws passes through :func:`drawable` (the fonts of
:func:`render.common.font` call it for every text they draw or measure), so no text can
ever come out as tofu, whichever module draws it:

- 🤖 becomes ⚙ (a gear: DejaVu draws it, and it reads "machine"); a computer seat's chip
  carries a drawn robot head as well (:func:`render.seats.draw_seat_chip`); the result
  line's 🏆 becomes ★ (:data:`SUBSTITUTES`);
- a letter, digit or punctuation mark of a script the fonts lack becomes "?", one per
  character, so a name in such a script still shows that a name is there (its seat's
  chip, unique by letter or number, tells it apart: :func:`render.seats.seat_letters`);
  a character with a plain form the fonts have is drawn in that form (the "𝓙𝓸𝓱𝓷" and
  fullwidth "Ｊｏｈｎ" of fancy names are "John");
- an emoji or other symbol the fonts lack is left out: it decorates a name ("Kasia 🌸"),
  and "?" there would read as punctuation; the joiners, variation selectors, skin tones
  and tags that build one emoji out of several code points go with it, and a flag's two
  regional indicators count as one symbol. A text of nothing but such symbols becomes
  "?", never an empty label;
- invisible format characters the fonts lack (zero-width joiners and spaces, direction
  marks) are left out.

The fonts' characters are read from their ``cmap`` table (format 12, or format 4), a few
dozen lines of ``struct`` instead of a dependency on fontTools; tests/test_glyphs.py checks
the table against what Pillow really draws (the .notdef box) and every catalogue text in
every language against it.
"""

from __future__ import annotations

import struct
import unicodedata
from functools import cache

#: What bot/computers/players.py puts before a computer player's name (catalogue ``ai.name``).
COMPUTER_SIGN = "\N{ROBOT FACE}"
#: What a text draws for :data:`COMPUTER_SIGN` (DejaVu Sans and Sans Bold both have it).
COMPUTER_TEXT = "\N{GEAR}"
#: Emoji of our own texts that a picture may draw, and the symbol of the fonts drawn for
#: each (the result line's trophy: "🏆 Ann wins").
SUBSTITUTES: dict[str, str] = {COMPUTER_SIGN: COMPUTER_TEXT, "\N{TROPHY}": "\N{BLACK STAR}"}
#: What a text draws for a letter, digit or punctuation mark the fonts lack.
MISSING = "?"

_ZWJ = "\N{ZERO WIDTH JOINER}"


def _format_4(data: bytes, at: int) -> set[int]:
    segments = struct.unpack(">H", data[at + 6 : at + 8])[0] // 2
    ends_at = at + 14
    starts_at = ends_at + 2 * segments + 2
    deltas_at = starts_at + 2 * segments
    offsets_at = deltas_at + 2 * segments
    found: set[int] = set()
    for i in range(segments):
        end, start, delta, offset = (
            struct.unpack(">H", data[base + 2 * i : base + 2 * i + 2])[0]
            for base in (ends_at, starts_at, deltas_at, offsets_at)
        )
        for code in range(start, end + 1):
            if code == 0xFFFF:
                continue
            if offset == 0:
                glyph = (code + delta) & 0xFFFF
            else:
                where = offsets_at + 2 * i + offset + 2 * (code - start)
                glyph = struct.unpack(">H", data[where : where + 2])[0]
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            if glyph:
                found.add(code)
    return found


def _format_12(data: bytes, at: int) -> set[int]:
    groups = struct.unpack(">I", data[at + 12 : at + 16])[0]
    found: set[int] = set()
    for i in range(groups):
        start, end, glyph = struct.unpack(">III", data[at + 16 + 12 * i : at + 28 + 12 * i])
        found.update(range(start if glyph else start + 1, end + 1))
    return found


def font_characters(data: bytes) -> frozenset[int]:
    """The code points a TrueType/OpenType font maps to a glyph other than .notdef, read
    from its Unicode ``cmap`` subtable (format 12 when it has one, else format 4)."""
    tables = struct.unpack(">H", data[4:6])[0]
    cmap = None
    for i in range(tables):
        tag, _, offset, _ = struct.unpack(">4sIII", data[12 + 16 * i : 28 + 16 * i])
        if tag == b"cmap":
            cmap = offset
    if cmap is None:
        raise ValueError("the font has no cmap table")
    subtables = struct.unpack(">H", data[cmap + 2 : cmap + 4])[0]
    best: tuple[int, int] | None = None  # (format, offset)
    for i in range(subtables):
        platform, encoding, offset = struct.unpack(
            ">HHI", data[cmap + 4 + 8 * i : cmap + 12 + 8 * i]
        )
        if (platform, encoding) not in ((3, 10), (3, 1), (0, 3), (0, 4)):
            continue
        kind = struct.unpack(">H", data[cmap + offset : cmap + offset + 2])[0]
        if kind in (4, 12) and (best is None or kind > best[0]):
            best = (kind, cmap + offset)
    if best is None:
        raise ValueError("the font has no Unicode cmap of format 4 or 12")
    kind, at = best
    return frozenset(_format_12(data, at) if kind == 12 else _format_4(data, at))


@cache
def characters_of(path: str) -> frozenset[int]:
    """The characters of the font file at ``path`` (read once per process)."""
    with open(path, "rb") as handle:
        return font_characters(handle.read())


def _is_emoji_part(char: str) -> bool:
    """A code point that only builds an emoji with its neighbours: variation selectors,
    skin-tone modifiers, tags (subdivision flags), the keycap mark."""
    code = ord(char)
    return (
        0xFE00 <= code <= 0xFE0F
        or 0x1F3FB <= code <= 0x1F3FF
        or 0xE0020 <= code <= 0xE007F
        or code == 0x20E3
    )


def _is_regional(char: str) -> bool:
    return 0x1F1E6 <= ord(char) <= 0x1F1FF


@cache
def _plain_form(char: str, has: frozenset[int]) -> str:
    """The character in a form the font has, when Unicode gives one: its compatibility
    form (fancy names' "𝓙" and fullwidth "Ｊ" are a plain "J"), else its base letter
    without the accent the font lacks; "" when neither."""
    for form in (
        unicodedata.normalize("NFKC", char),
        "".join(c for c in unicodedata.normalize("NFD", char) if not unicodedata.combining(c)),
    ):
        if form and form != char and all(ord(c) in has for c in form):
            return form
    return ""


def drawable(text: str, has: frozenset[int]) -> str:
    """``text`` as a font with the characters ``has`` can draw it without tofu (see the
    module's docstring for what replaces what). ASCII text is returned as it is."""
    if text.isascii():
        return text
    out: list[str] = []
    symbols = False
    previous = "\0"
    for char in text:
        if ord(char) in has:
            out.append(char)
        elif char in SUBSTITUTES and ord(SUBSTITUTES[char]) in has:
            out.append(SUBSTITUTES[char])
        elif _plain_form(char, has):
            out.append(_plain_form(char, has))
        elif (
            previous == _ZWJ
            or _is_emoji_part(char)
            or (_is_regional(char) and _is_regional(previous))
        ):
            pass  # a part of the emoji just left out
        else:
            category = unicodedata.category(char)
            if category[0] in "LNP":
                out.append(MISSING)
            elif category == "Zs":
                out.append(" ")
            elif category == "Cc":
                out.append(char)  # a line break: Pillow's multiline text reads it
            elif category[0] == "S" or category in ("Co", "Cn"):
                symbols = True  # an emoji (one newer than this Python's tables: Cn)
            # else: a combining mark or an invisible format character, left out
        previous = char
    shown = "".join(out)
    if symbols:  # no double or edge space where a symbol was: "🔥 Tom 🔥" -> "Tom"
        shown = " ".join(part for part in shown.split(" ") if part)
        if not any(unicodedata.category(c)[0] not in "ZC" for c in shown):
            return MISSING
    return shown


def missing_characters(text: str, has: frozenset[int]) -> set[str]:
    """The characters of ``text`` a font with ``has`` lacks (for tests and checks)."""
    return {c for c in text if ord(c) not in has}
