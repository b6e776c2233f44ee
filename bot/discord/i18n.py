"""The bot's side of the one message catalogue: command metadata for Discord (``L``) and the
translator that feeds Discord the other languages at sync time.

The catalogue itself (:data:`MESSAGES`, :func:`t`, :func:`lookup`, :func:`language_of`) lives
in :mod:`render.words.catalogue`, the lowest layer that speaks to users, because pictures
draw words too and ``render/`` may not import ``bot/``. Everything imports it from there:
this module holds only what is Discord's own (command metadata and the sync translator).

Rule words (move labels, events, refusals, status) are messages in every game and are said
per language by :func:`render.words.say`; old matches' stored English passes through
unchanged (docs/words.md).
"""

from __future__ import annotations

import re
from typing import Any

from discord import app_commands

from render.words.catalogue import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    MESSAGES,
    language_name,
    language_of,
    lookup,
)


def language_choices() -> list[app_commands.Choice[str]]:
    """Every language we speak, as the choices of ``/game settings language:``."""
    return [app_commands.Choice(name=language_name(g), value=g) for g in LANGUAGES]


def L(key: str) -> app_commands.locale_str:
    """Command metadata: English text for Discord's default, the key for the translator."""
    return app_commands.locale_str(MESSAGES[DEFAULT_LANGUAGE][key], key=key)


#: Discord's naming rule for command and option names (discord-api-docs,
#: ``interactions/application-commands.mdx`` "Application Command Naming"), also for their
#: localisations.
NAME_RE = re.compile(r"^[-_'\w\u0900-\u097f\u0e00-\u0e7f]{1,32}$")
_NAMES = (
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
)


def fit_for_discord(text: str, location: app_commands.TranslationContextLocation) -> str | None:
    """A translation as Discord accepts it, or None (the English default is shown).

    Discord validates every localisation like the default ("Values follow the same
    restrictions"): names 1–32 characters, lower case, matching the naming rule;
    descriptions and choice names 1–100 characters. One bad value refuses the whole sync,
    so a too-long description is clipped and an invalid name is left out.
    """
    text = text.strip()
    if location in _NAMES:
        return text if NAME_RE.match(text) and text == text.lower() else None
    if not text:
        return None
    return text if len(text) <= 100 else text[:99] + "…"


class CatalogueTranslator(app_commands.Translator):
    """Feeds command and option descriptions in other languages to Discord at sync time.

    Returning None for an untranslated key lets Discord show the English default.
    """

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Any,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        if not key or language_of(locale) == DEFAULT_LANGUAGE:
            return None
        text = lookup(key, locale)
        return None if text is None else fit_for_discord(text, context.location)
