"""The one message catalogue: every word Tessera shows a user — bot replies, command and
option descriptions, button labels, and the words drawn in pictures — keyed by language.

Why it lives here, in ``render/``: the layers import only downwards (bot → render → rules),
and the renderers draw words too, so the catalogue must sit in the lowest layer that speaks
to users. ``bot.discord.i18n`` re-exports everything (and adds the discord-bound ``L`` and the
command translator), so there is one dict and one :func:`t`, and render worker processes
find the picture words without importing the bot.

Why English is a dict and the others are files: English is the source — code that adds a
text adds a key to :mod:`render.words.english` and nothing else — while Hungarian, German
and Polish are gettext catalogues (``locale/<lang>/LC_MESSAGES/tessera.po``, msgid = the
key, the English text as a comment) that translators edit with ordinary tools; each is read
with Babel into :data:`MESSAGES` the first time a text of that language is needed (once per
process, so render workers read them too). ``python -m bot i18n extract`` writes the
template from the English, ``python -m bot i18n check`` compiles and checks every catalogue
(:mod:`render.words.po_files`). Counts use CLDR plural categories (:func:`tn`).

Rule words: every game's rules speak in messages (``rules.words.Msg``, see docs/words.md);
a game keeps its English in its own package (``rules/<game>/words.py``), merged into the
English by ``rules.registry.rule_words()``, and :func:`render.words.say` renders them in any
language. Legacy English strings (old matches' stored logs) pass through unchanged; so do
player names, numbers, coordinates and notation tokens (Azul's tile letters, Pastiche's
notation colour names, Taj Mahal's city codes, move examples).
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from render.words.articles import with_articles
from render.words.english import ENGLISH
from render.words.english_after import AFTER_GAME
from render.words.english_alt import ALT_WORDS
from render.words.english_league import LEAGUE_WORDS
from render.words.english_league_front import LEAGUE_FRONT
from render.words.english_pictures import PICTURE_WORDS
from render.words.english_review import REVIEW_WORDS
from rules.registry import rule_words

DEFAULT_LANGUAGE = "en"

#: Every text by language. English is whole from the start: the bot's own words
#: (:mod:`render.words.english`), the words drawn in pictures
#: (:mod:`render.words.english_pictures`), the words of ratings, stats and score charts
#: (:mod:`render.words.english_after`), the pictures' alt text
#: (:mod:`render.words.english_alt`), the post-game review's
#: (:mod:`render.words.english_review`), leagues' (:mod:`render.words.english_league`: the
#: core's; :mod:`render.words.english_league_front`: commands, posts, standings), then
#: the words of the rules
#: (labels, events, refusals, status lines; English catalogues in the game packages, see
#: rules/words.py), merged in that order, which is the template's order. The other languages
#: are read from their .po files on first use (:func:`messages`).
MESSAGES: dict[str, dict[str, str]] = {
    DEFAULT_LANGUAGE: {
        **ENGLISH,
        **PICTURE_WORDS,
        **AFTER_GAME,
        **ALT_WORDS,
        **REVIEW_WORDS,
        **LEAGUE_WORDS,
        **LEAGUE_FRONT,
        **rule_words(),
    },
}


#: Where the other languages live: ``locale/<lang>/LC_MESSAGES/tessera.po`` beside the
#: packages — in the source checkout, and in an installed bot (pyproject ships ``locale/``
#: as package data next to ``render/``). English is not there: it is a Python dict
#: (:mod:`render.words.english`), so code that adds a key needs no file but that one.
LOCALE_DIR = Path(__file__).resolve().parents[2] / "locale"
DOMAIN = "tessera"
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"

#: ``pic.x.one`` / ``pic.x.other``: the CLDR plural categories of a counted text. In a .po
#: file the forms of ``pic.x`` are one plural entry (msgid = msgid_plural = ``pic.x``).
PLURAL_KEY = re.compile(r"^(.*)\.(zero|one|two|few|many|other)$")


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def po_languages() -> tuple[str, ...]:
    """The languages that have a catalogue file (a directory listing: cheap at import)."""
    if not LOCALE_DIR.is_dir():
        return ()
    return tuple(sorted(p.name for p in LOCALE_DIR.iterdir() if po_path(p.name).is_file()))


#: Every language the bot speaks: English plus one per .po file. The languages the product
#: ships are checked by a test (tests/test_catalogues.py), not by this line.
LANGUAGES: tuple[str, ...] = (DEFAULT_LANGUAGE, *po_languages())


def language_of(locale: Any) -> str:
    """'en-US', 'hu', discord.Locale.german … -> 'en', 'hu', 'de'."""
    value = getattr(locale, "value", locale) or DEFAULT_LANGUAGE
    return str(value).split("-")[0].lower()


@cache
def babel_locale(lang: str) -> Any:
    """Babel's CLDR data for a language (plural rules, number symbols); English's for a
    language CLDR does not know (a test's pseudo-language)."""
    from babel import Locale, UnknownLocaleError

    try:
        return Locale.parse(lang)
    except (UnknownLocaleError, ValueError):
        return Locale.parse(DEFAULT_LANGUAGE)


def plural_category(n: float, locale: Any = None) -> str:
    """CLDR plural category of ``n`` in that language: 'one', 'few', 'many', 'other'…"""
    lang = language_of(locale)
    if type(n) is int:  # a count: remembered (see _said_count)
        return _said_count(n, lang)[0]
    return str(babel_locale(lang).plural_form(abs(n)))


def number(value: float, locale: Any = None) -> str:
    """A number written as a word of a sentence, the way the language writes it
    (1,234 / 1.234 / 1 234; decimal comma in hu, de, pl). Not for notation or match numbers."""
    from babel.numbers import format_decimal

    lang = language_of(locale)
    if type(value) is int:  # a count: remembered (see _said_count)
        return _said_count(value, lang)[1]
    return str(format_decimal(value, locale=babel_locale(lang)))


@lru_cache(maxsize=4096)
def _said_count(n: int, lang: str) -> tuple[str, str]:
    """A count's plural category and its written form in ``lang``. Why remembered: every
    count in a move's words ("takes 3 tiles") asks Babel for both, which cost a real share
    of saying a move's lines, and the same small numbers come back all the time."""
    from babel.numbers import format_decimal

    locale = babel_locale(lang)
    return str(locale.plural_form(abs(n))), str(format_decimal(n, locale=locale))


def decimal(value: float, locale: Any = None, places: int = 1, sign: bool = False) -> str:
    """A fractional figure (a rating, its change) with ``places`` decimals as the language
    writes it (25.3 / 25,3), signed when ``sign`` (+1.2 / −0.4 as the language signs)."""
    from babel.numbers import format_decimal

    pattern = "#,##0" + ("." + "0" * places if places else "")
    if sign:
        pattern = f"+{pattern};-{pattern}"
    return str(format_decimal(value, format=pattern, locale=babel_locale(language_of(locale))))


def plural_indices(lang: str, plural_expr: str, num_plurals: int) -> dict[str, int]:
    """Which gettext form (``msgstr[i]``, chosen by the .po header's ``Plural-Forms``) holds
    each CLDR category of the language, found by evaluating both rules on 0…999. A category
    that integers never reach (Polish 'other', for fractions) gets the last form.

    Raises ValueError when the two rules disagree (one category in two forms): the
    catalogue's Plural-Forms header is wrong for its language.
    """
    import gettext

    index = gettext.c2py(plural_expr)
    found: dict[str, int] = {}
    for n in range(1000):
        category, i = plural_category(n, lang), index(n)
        if not 0 <= i < num_plurals or found.setdefault(category, i) != i:
            raise ValueError(
                f"Plural-Forms {plural_expr!r} does not match the {lang} plural rules at n={n}"
            )
    for category in babel_locale(lang).plural_form.tags | {"other"}:
        found.setdefault(category, num_plurals - 1)
    return found


def load_po(lang: str, path: Path | None = None) -> dict[str, str]:
    """A .po catalogue as ``{key: text}`` like ``MESSAGES['en']``: a plural entry becomes
    ``key.<category>`` per CLDR category. Untranslated (empty) and fuzzy entries are left
    out, as msgfmt leaves them out; tests/test_catalogues.py fails on any of them."""
    from babel.messages.pofile import read_po

    with open(path or po_path(lang), "rb") as f:
        catalog = read_po(f, locale=lang, domain=DOMAIN)
    indices = plural_indices(lang, catalog.plural_expr, catalog.num_plurals)
    texts: dict[str, str] = {}
    for message in list(catalog)[1:]:  # the first entry is the header
        if message.fuzzy or not message.id:
            continue
        if message.pluralizable:
            forms = list(message.string or ())  # a plural entry's string is its forms
            for category, i in indices.items():
                if i < len(forms) and forms[i]:
                    texts[f"{message.id[0]}.{category}"] = forms[i]
        elif message.string:
            texts[str(message.id)] = str(message.string)
    return texts


def messages(lang: str) -> dict[str, str] | None:
    """The catalogue of one language, read from its .po file on first use (once per
    process: the bot, each render worker), or None for a language we do not speak."""
    table = MESSAGES.get(lang)
    if table is None and lang in LANGUAGES:
        table = MESSAGES.setdefault(lang, load_po(lang))
    return table


def lookup(key: str, locale: Any = None) -> str | None:
    """The text for ``key`` in that language only (None if not translated)."""
    table = messages(language_of(locale))
    return table.get(key) if table else None


def t(key: str, locale: Any = None, /, **values: Any) -> str:
    """The text for ``key`` in the user's language.

    A text the language lacks shows in English (a player never sees a raw key), but that
    is a test failure for every language we ship (tests/test_catalogues.py). A key
    unknown even in English raises KeyError: a typo must fail the tests.
    """
    text = lookup(key, locale)
    if text is None:
        text = MESSAGES[DEFAULT_LANGUAGE][key]
    if not values:
        return text
    return with_articles(text, language_of(locale), values).format(**values)


def tn(key: str, n: int, locale: Any = None, /, **values: Any) -> str:
    """``t`` for a count: the form ``{key}.{category}`` for ``n``'s CLDR plural category in
    the language (Polish: one / few / many), with ``n`` written as the language writes
    numbers. Never "card(s)", never "1 cards"."""
    lang = language_of(locale)
    for language in (lang, DEFAULT_LANGUAGE):
        category = plural_category(n, language)
        text = lookup(f"{key}.{category}", language) or lookup(f"{key}.other", language)
        if text is not None:
            text = with_articles(text, language, values)
            return text.format(n=number(n, language), **values)
    raise KeyError(f"{key}.other")


def language_name(lang: str) -> str:
    """A language's own name ("magyar", "Deutsch", "polski"): the same for every reader,
    so it is CLDR data, not a catalogue text."""
    name = babel_locale(lang).get_display_name(lang) or lang
    return name[:1].upper() + name[1:]


def supported_language(locale: Any) -> str:
    """The locale's language when we speak it, else English ('en-US', 'pt-BR' -> 'en')."""
    lang = language_of(locale)
    return lang if lang in LANGUAGES or lang in MESSAGES else DEFAULT_LANGUAGE


def match_language(settings: dict[str, Any], fallback: Any = None) -> str:
    """The language of a match's public words (turn posts, lobby lines, pictures): the one
    chosen when it was created (the server's preferred locale then) or set with
    ``/game settings language:``; ``fallback`` (the server's locale) for a match from
    before languages were stored."""
    return supported_language(settings.get("language") or fallback)


def picture_language(locale: Any) -> str:
    """The language a picture is drawn in: the locale's language when the catalogue has it,
    else English. Renderers key their cached static layers by this, so an unknown locale
    shares the English layers instead of growing the caches."""
    return supported_language(locale)


def word(prefix: str, name: str, locale: Any = None) -> str:
    """A word for a name that comes from game data (a colour, an animal): the catalogue's
    ``{prefix}.{name}`` when it exists, else ``name`` itself (a map or variant with a new
    colour still draws)."""
    key = f"{prefix}.{name}"
    if key in MESSAGES[DEFAULT_LANGUAGE]:
        return t(key, locale)
    return name
