"""The languages Tessera ships: English, Hungarian, German and Polish (the languages our
rulebooks came in). A language exists when its catalogue file does
(``locale/<lang>/LC_MESSAGES/tessera.po``); tests/test_catalogues.py checks that each is
complete. This test makes a missing catalogue a failure rather than an English bot."""

from __future__ import annotations

from bot.discord.i18n import language_choices
from render.words.catalogue import LANGUAGES


def test_hungarian_german_and_polish_ship() -> None:
    assert set(LANGUAGES) == {"en", "hu", "de", "pl"}
    assert {c.value for c in language_choices()} == {"en", "hu", "de", "pl"}
