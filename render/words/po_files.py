"""The translation files: ``python -m bot i18n extract`` and ``python -m bot i18n check``.

Why these two commands: English lives in a Python dict (``catalogue.MESSAGES['en']``) so
that code adding a text needs nothing else, while translators work on gettext files with
ordinary tools (Poedit, Lokalize, ``msgmerge``, ``pybabel update``). ``extract`` turns the
dict into the template ``locale/tessera.pot`` (msgid = the catalogue key, the English text
as an extracted ``#.`` comment; ``x.one``/``x.other`` keys become one plural entry
``x``); ``check`` compiles every ``locale/<lang>/LC_MESSAGES/tessera.po`` with Babel and
reports everything that would make a player read English (or a broken sentence) in that
language. tests/test_catalogues.py runs the same checks, so a gap fails the tests.
"""

from __future__ import annotations

import gettext
import io
import string
import sys
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po, write_po

from render.words.catalogue import (
    DEFAULT_LANGUAGE,
    DOMAIN,
    MESSAGES,
    PLURAL_KEY,
    TEMPLATE,
    plural_indices,
    po_languages,
    po_path,
)


def template() -> Catalog:
    """The template built from the English dict, in the dict's order."""
    english = MESSAGES[DEFAULT_LANGUAGE]
    catalog = Catalog(
        project="Tessera",
        version="1",
        msgid_bugs_address="",
        copyright_holder="Tessera",
        fuzzy=False,
        domain=DOMAIN,
    )
    seen: set[str] = set()
    for key, text in english.items():
        match = PLURAL_KEY.match(key)
        if match is None:
            catalog.add(key, string="", auto_comments=[text])
            continue
        base = match.group(1)
        if base in seen:
            continue
        seen.add(base)
        forms = plural_forms(base)
        catalog.add((base, base), string=("", ""), auto_comments=[f"{f}: {v}" for f, v in forms])
    return catalog


def plural_forms(base: str) -> list[tuple[str, str]]:
    """The English forms of a counted text, e.g. [('one', '{n} card'), ('other', …)]."""
    return [
        (m.group(2), text)
        for key, text in MESSAGES[DEFAULT_LANGUAGE].items()
        if (m := PLURAL_KEY.match(key)) and m.group(1) == base
    ]


def _entries(catalog: Catalog) -> list[tuple[Any, str]]:
    """(msgid, English comment) per entry; the comment's whitespace normalised, as a .po
    file keeps a long or multi-line comment as several ``#.`` lines."""
    return [(m.id, " ".join(" ".join(m.auto_comments).split())) for m in list(catalog)[1:]]


def template_differences(path: Path = TEMPLATE) -> list[str]:
    """What the committed template lacks or has too much, compared with the English dict
    (ids and English comments; dates and headers do not count)."""
    if not path.is_file():
        return [f"{path} does not exist"]
    with open(path, "rb") as f:
        committed = _entries(read_po(f))
    wanted = _entries(template())
    if committed == wanted:
        return []
    have, want = dict(committed), dict(wanted)
    out = [f"missing: {k}" for k in want if k not in have]
    out += [f"no longer in English: {k}" for k in have if k not in want]
    out += [f"English changed: {k}" for k in want if k in have and have[k] != want[k]]
    return out or ["same entries in another order"]


def extract(path: Path = TEMPLATE) -> bool:
    """Write the template when it differs from the English dict; True when written (an
    unchanged template keeps its date, so the file only changes when a text does)."""
    if not template_differences(path):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_po(buffer, template(), width=0, omit_header=False, sort_output=False)
    path.write_bytes(buffer.getvalue())
    return True


def placeholders(text: str) -> set[tuple[str, str, str]]:
    """The ``{name!conv:spec}`` fields of a text (ValueError for a broken brace)."""
    return {
        (name, conv or "", spec or "")
        for _, name, spec, conv in string.Formatter().parse(text)
        if name is not None
    }


def _placeholder_problems(key: str, english: list[str], forms: list[str]) -> list[str]:
    """A translation uses exactly the English text's fields; a plural form may drop a
    field another form shows (Polish 'one' may say 'a card'), but the last form — the
    one most counts get — keeps them all."""
    want: set[tuple[str, str, str]] = set().union(*(placeholders(e) for e in english))
    out = []
    for i, form in enumerate(forms):
        try:
            have = placeholders(form)
        except ValueError as exc:
            out.append(f"{key}: broken braces in “{form}” ({exc})")
            continue
        extra = have - want
        lacking = want - have if i == len(forms) - 1 else set()
        if extra or lacking:
            out.append(
                f"{key}: placeholders differ from English"
                + (f"; unknown {sorted(f[0] for f in extra)}" if extra else "")
                + (f"; missing {sorted(f[0] for f in lacking)}" if lacking else "")
            )
    return out


def check_po(lang: str, path: Path | None = None) -> list[str]:
    """Every problem of one language's catalogue, in words; [] when it is complete.

    Checked: the Plural-Forms header is the language's (Babel's CLDR-derived rule); every
    key of the template is there, translated, not fuzzy, with the English placeholders,
    plural entries with exactly the language's number of forms; no key English no longer
    has; Babel's own checkers pass; and it compiles to a .mo that gettext reads back.
    """
    path = path or po_path(lang)
    try:
        with open(path, "rb") as f:
            catalog = read_po(f, locale=lang, domain=DOMAIN, abort_invalid=True)
    except Exception as exc:  # noqa: BLE001 - a file that cannot be read is one problem
        return [f"cannot read {path}: {exc}"]
    out: list[str] = []
    expected = get_plural(lang)
    if catalog.num_plurals != expected.num_plurals:
        out.append(
            f"Plural-Forms has {catalog.num_plurals} forms; {lang} needs "
            f"{expected.num_plurals} ({expected.plural_forms})"
        )
    try:
        plural_indices(lang, catalog.plural_expr, catalog.num_plurals)
    except (ValueError, SyntaxError) as exc:
        out.append(str(exc))
    english = MESSAGES[DEFAULT_LANGUAGE]
    wanted = {_key(m): m for m in list(template())[1:]}
    found: dict[str, Message] = {}
    for entry in list(catalog)[1:]:
        found[_key(entry)] = entry
    for key, want in wanted.items():
        message = found.get(key)
        if message is None:
            out.append(f"{key}: missing")
            continue
        if message.fuzzy:
            out.append(f"{key}: marked fuzzy (not confirmed by the translator)")
        if want.pluralizable != message.pluralizable:
            out.append(f"{key}: should {'' if want.pluralizable else 'not '}be a plural entry")
            continue
        if want.pluralizable:
            forms = [str(s) for s in message.string or ()]
            source = [text for _, text in plural_forms(key)]
            if len(forms) != expected.num_plurals:
                out.append(f"{key}: {len(forms)} plural forms; {lang} needs {expected.num_plurals}")
        else:
            forms = [str(message.string)]
            source = [english[key]]
        if not all(f.strip() for f in forms):
            out.append(f"{key}: not translated")
            continue
        out += _placeholder_problems(key, source, forms)
    out += [f"{key}: not in English any more" for key in found if key not in wanted]
    for message, errors in catalog.check():
        out += [f"{message.id}: {error}" for error in errors]
    out += _compile_problems(catalog)
    return out


def _key(message: Message) -> str:
    """A message's catalogue key: its msgid, or the singular msgid of a plural entry (whose
    msgid and msgid_plural are both the key)."""
    return str(message.id[0] if message.pluralizable else message.id)


def _compile_problems(catalog: Catalog) -> list[str]:
    """Compile to a .mo with Babel and read it back with gettext, as msgfmt would."""
    buffer = io.BytesIO()
    try:
        write_mo(buffer, catalog)
        buffer.seek(0)
        compiled = gettext.GNUTranslations(buffer)
    except Exception as exc:  # noqa: BLE001 - reported in words
        return [f"does not compile: {exc}"]
    out = []
    for message in list(catalog)[1:]:
        if message.pluralizable or not message.string or message.fuzzy:
            continue
        if compiled.gettext(str(message.id)) != message.string:
            out.append(f"{message.id}: lost when compiled")
    return out


def check_all() -> dict[str, list[str]]:
    return {lang: check_po(lang) for lang in po_languages()}


def run_i18n(command: str, out: Any = None) -> int:
    """``extract``: rewrite the template; ``check``: report every catalogue's problems
    (exit status 1 when there is any, or when the template is out of date)."""
    out = out or sys.stdout
    if command == "extract":
        written = extract()
        print(f"{TEMPLATE}: {'written' if written else 'already up to date'}", file=out)
        return 0
    status = 0
    stale = template_differences()
    if stale:
        status = 1
        print(f"{TEMPLATE} is out of date (python -m bot i18n extract):", file=out)
        for line in stale[:20]:
            print(f"  {line}", file=out)
    results = check_all()
    for lang, problems in results.items():
        print(f"{lang}: {'ok' if not problems else f'{len(problems)} problem(s)'}", file=out)
        for line in problems:
            print(f"  {line}", file=out)
        status = status or int(bool(problems))
    if not results:
        print("no catalogues under locale/ (English only)", file=out)
    return status
