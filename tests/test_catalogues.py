"""The translation catalogues: no silent fallback to English in any language we have.

For every ``locale/<lang>/LC_MESSAGES/tessera.po`` (found automatically: a new language is
checked the moment its file exists): every key of the template present and translated,
the English placeholders kept, the language's plural forms, and it compiles with Babel.
The machinery itself is proven on small catalogues written here (a complete one passes,
each kind of mistake is reported), so these tests fail even while no translation exists.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from render.words.catalogue import (
    LANGUAGES,
    MESSAGES,
    TEMPLATE,
    load_po,
    number,
    plural_category,
    po_languages,
    t,
    tn,
)
from render.words.po_files import check_po, run_i18n, template, template_differences


def test_every_catalogue_is_complete_and_compiles() -> None:
    problems = {lang: check_po(lang) for lang in po_languages()}
    assert {lang: p for lang, p in problems.items() if p} == {}
    assert set(LANGUAGES) == {"en", *po_languages()}


def test_committed_template_matches_the_english_catalogue() -> None:
    """Run ``python -m bot i18n extract`` after adding or changing an English text."""
    assert template_differences(TEMPLATE) == []


def fake_po(lang: str, path: Path, *, prefix: str = "«", drop: str | None = None) -> Path:
    """A complete catalogue for ``lang`` whose every text is the English one marked with
    ``prefix`` (placeholders kept), optionally without the key ``drop``."""
    english = MESSAGES["en"]
    catalog = Catalog(locale=lang, domain="tessera", fuzzy=False)
    from babel.messages.plurals import get_plural

    forms = get_plural(lang).num_plurals
    for message in list(template())[1:]:
        if message.id == drop or (message.pluralizable and message.id[0] == drop):
            continue
        if message.pluralizable:
            base = message.id[0]
            one, other = english[f"{base}.one"], english[f"{base}.other"]
            strings = tuple(f"{prefix}{i}:{one if i == 0 else other}" for i in range(forms))
            catalog.add(message.id, string=strings)
        else:
            catalog.add(message.id, string=prefix + english[message.id])
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:
        write_po(f, catalog, width=0)
    return path


def edit_po(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), "utf-8")


def test_a_complete_catalogue_passes_and_every_mistake_is_reported(tmp_path: Path) -> None:
    good = fake_po("pl", tmp_path / "pl.po")
    assert check_po("pl", good) == []

    missing = fake_po("pl", tmp_path / "missing.po", drop="btn.join")
    assert check_po("pl", missing) == ["btn.join: missing"]

    empty = fake_po("pl", tmp_path / "empty.po")
    edit_po(empty, 'msgstr "«Join"', 'msgstr ""')
    assert check_po("pl", empty) == ["btn.join: not translated"]

    renamed = fake_po("pl", tmp_path / "renamed.po")
    edit_po(renamed, "«It is not your turn; waiting for {waiting}.", "«Nie twoja kolej: {who}.")
    assert check_po("pl", renamed) == [
        "err.not_your_turn: placeholders differ from English; unknown ['who']; missing ['waiting']"
    ]

    braces = fake_po("pl", tmp_path / "braces.po")
    edit_po(braces, "«Match #{match} was aborted.", "«Partia #{match przerwana.")
    assert [p.split(" (")[0] for p in check_po("pl", braces)] == [
        "match.aborted: broken braces in “«Partia #{match przerwana.”"
    ]

    two_forms = fake_po("pl", tmp_path / "two.po")
    text = two_forms.read_text("utf-8")
    two_forms.write_text(
        re.sub(
            r'msgstr\[2\] "[^\n]*"\n',  # every third form, whatever plural entries exist
            "",
            text.replace("nplurals=3; plural=", "nplurals=2; plural=(n != 1); x="),
        ),
        "utf-8",
    )
    found = check_po("pl", two_forms)
    assert found[0].startswith("Plural-Forms has 2 forms; pl needs 3")
    assert "pic.pastiche.n_cards: 2 plural forms; pl needs 3" in found

    fuzzy = fake_po("pl", tmp_path / "fuzzy.po")
    edit_po(fuzzy, 'msgid "btn.leave"', '#, fuzzy\nmsgid "btn.leave"')
    assert check_po("pl", fuzzy) == ["btn.leave: marked fuzzy (not confirmed by the translator)"]

    stale = fake_po("pl", tmp_path / "stale.po")
    stale.write_text(stale.read_text("utf-8") + '\nmsgid "btn.gone"\nmsgstr "«Gone"\n', "utf-8")
    assert check_po("pl", stale) == ["btn.gone: not in English any more"]

    assert check_po("pl", tmp_path / "nowhere.po")[0].startswith("cannot read")


def test_polish_counts_use_three_forms(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """tn picks the CLDR category (one / few / many) and the .po form that holds it."""
    po = fake_po("pl", tmp_path / "pl.po")
    edit_po(po, 'msgstr[0] "«0:{n} palette card"', 'msgstr[0] "{n} karta"')
    edit_po(po, 'msgstr[1] "«1:{n} palette cards"', 'msgstr[1] "{n} karty"')
    edit_po(po, 'msgstr[2] "«2:{n} palette cards"', 'msgstr[2] "{n} kart"')
    monkeypatch.setitem(MESSAGES, "pl", load_po("pl", po))
    said = {n: tn("pic.pastiche.n_cards", n, "pl") for n in (0, 1, 2, 4, 5, 12, 22, 25, 1002)}
    assert said == {
        0: "0 kart",
        1: "1 karta",
        2: "2 karty",
        4: "4 karty",
        5: "5 kart",
        12: "12 kart",
        22: "22 karty",
        25: "25 kart",
        1002: "1\xa0002 karty",
    }
    assert [plural_category(n, "pl") for n in (1, 3, 5)] == ["one", "few", "many"]
    assert t("btn.join", "pl-PL") == "«Join"  # a region's locale reads its language
    assert tn("pic.pastiche.n_cards", 1) == "1 palette card"
    assert tn("pic.pastiche.n_cards", 1234) == "1,234 palette cards"


def test_numbers_are_written_as_each_language_writes_them() -> None:
    assert number(1234567.5, "en") == "1,234,567.5"
    assert number(1234567.5, "de") == "1.234.567,5"
    assert number(1234567.5, "hu") == "1\xa0234\xa0567,5"
    assert number(1234567.5, "pl") == "1\xa0234\xa0567,5"
    assert number(7, "xx-unknown") == "7"


def test_extract_writes_the_template_and_check_reports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The two commands, on copies: extract writes an up-to-date template once (and leaves
    it alone after), check exits 1 for a catalogue with a gap and names the key."""
    import render.words.po_files as files

    pot = tmp_path / "tessera.pot"
    assert files.extract(pot) is True
    assert template_differences(pot) == []
    written = pot.read_bytes()
    assert files.extract(pot) is False and pot.read_bytes() == written
    with open(pot, "rb") as f:
        entries = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f)}
    assert {"btn.join", "pic.pastiche.n_cards"} <= entries

    monkeypatch.setattr(files, "TEMPLATE", pot)
    monkeypatch.setattr(files, "po_languages", lambda: ("de",))
    monkeypatch.setattr(
        files, "po_path", lambda lang: fake_po(lang, tmp_path / lang / "t.po", drop="btn.hand")
    )
    out = io.StringIO()
    assert files.run_i18n("check", out) == 1
    assert "de: 1 problem(s)" in out.getvalue() and "btn.hand: missing" in out.getvalue()
    monkeypatch.setattr(files, "po_path", lambda lang: fake_po(lang, tmp_path / lang / "t.po"))
    out = io.StringIO()
    assert run_i18n.__module__ == files.__name__
    assert files.run_i18n("check", out) == 0, out.getvalue()


def test_the_command_line_checks_every_catalogue(capsys: pytest.CaptureFixture[str]) -> None:
    from bot.__main__ import main

    assert main(["i18n", "check"]) == 0
    out = capsys.readouterr().out
    assert all(f"{lang}: ok" in out for lang in po_languages())
    assert main(["i18n", "extract"]) == 0
    assert "already up to date" in capsys.readouterr().out
