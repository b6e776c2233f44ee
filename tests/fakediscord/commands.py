"""What Discord refuses when an app registers its commands, and where a command is offered.

From ``interactions/application-commands.mdx`` (Discord's documentation source,
``developers/``): "Application Command Structure", "Naming", "Slash Commands",
"Localization" and "Contexts"; interaction contexts from
``interactions/receiving-and-responding.mdx`` "Interaction Context Types", installation
types from ``resources/application.mdx`` "Application Integration Types".
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from .errors import FormErrors

LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)
#: ``receiving-and-responding.mdx`` "Interaction Context Types".
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
#: ``resources/application.mdx`` "Application Integration Types".
GUILD_INSTALL, USER_INSTALL = 0, 1
#: ``interactions/application-commands.mdx`` "Application Command Naming".
NAME_RE = re.compile(r"^[-_'\w\u0900-\u097f\u0e00-\u0e7f]{1,32}$")


def _localised(
    errors: FormErrors,
    where: list[str | int],
    field: str,
    obj: dict[str, Any],
    low: int,
    high: int,
    *,
    name: bool,
) -> int:
    """Check a field and its localisations; return the length Discord counts toward the
    8,000 total: the longest of the default and every localisation."""
    value = obj.get(field)
    errors.length([*where, field], value, low, high)
    if name and value is not None and (not NAME_RE.match(value) or value != value.lower()):
        errors.add([*where, field], "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    longest = len(value or "")
    for locale, text in (obj.get(f"{field}_localizations") or {}).items():
        at = [*where, f"{field}_localizations", locale]
        if locale not in LOCALES:
            errors.add(at, "LOCALE_INVALID", "Invalid locale.")
        errors.length(at, text, low, high)
        if name and text is not None and (not NAME_RE.match(text) or text != text.lower()):
            errors.add(at, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
        longest = max(longest, len(text or ""))
    return longest


def _options(errors: FormErrors, where: list[str | int], options: list[dict[str, Any]]) -> int:
    """Options of a command or sub-command: at most 25, unique names, required before
    optional, choices at most 25 and never together with autocomplete
    (``application-commands.mdx`` "Application Command Option Structure")."""
    errors.max_len([*where, "options"], options, 25)
    total = 0
    names: set[str] = set()
    seen_optional = False
    for i, opt in enumerate(options):
        at: list[str | int] = [*where, "options", i]
        total += _localised(errors, at, "name", opt, 1, 32, name=True)
        total += _localised(errors, at, "description", opt, 1, 100, name=False)
        if opt.get("name") in names:
            errors.add(
                [*at, "name"], "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Duplicate name"
            )
        names.add(opt.get("name", ""))
        if opt.get("type") in (1, 2):
            total += _options(errors, at, opt.get("options") or [])
            continue
        if opt.get("required"):
            if seen_optional:
                errors.add(
                    at,
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            seen_optional = True
        choices = opt.get("choices") or []
        errors.max_len([*at, "choices"], choices, 25)
        if choices and opt.get("autocomplete"):
            errors.add(
                [*at, "autocomplete"],
                "APPLICATION_COMMAND_AUTOCOMPLETE_AND_CHOICES",
                "Autocomplete cannot be set with choices",
            )
        for c, choice in enumerate(choices):
            cat: list[str | int] = [*at, "choices", c]
            total += _localised(errors, cat, "name", choice, 1, 100, name=False)
            value = choice.get("value")
            if isinstance(value, str):
                errors.length([*cat, "value"], value, 1, 100)
            total += len(str(value))
    return total


def command_size(command: dict[str, Any]) -> int:
    """Characters Discord counts toward the 8,000 limit (longest localisation each)."""
    errors = FormErrors()
    total = _localised(errors, [], "name", command, 1, 32, name=True)
    total += _localised(errors, [], "description", command, 1, 100, name=False)
    return total + _options(errors, [], command.get("options") or [])


def check_commands(
    commands: list[dict[str, Any]], installs: Collection[int] = (GUILD_INSTALL,)
) -> None:
    """A bulk overwrite (``application-commands.mdx`` "Bulk Overwrite Global Application
    Commands"): at most 100 slash commands with unique names, each valid per
    "Application Command Structure" (name 1–32 matching the naming regex and lower case,
    description 1–100, every localisation under the same rules and with a known locale key,
    options as in :func:`_options`) and at most 8,000 characters counted as "Slash Commands"
    says: name, description and value of the command, its options and choices, only the
    longest localisation of each field counted; ``contexts`` and ``integration_types``
    as in :func:`_contexts` (``installs``: the installation contexts the app supports).
    """
    errors = FormErrors()
    errors.max_len([], [c for c in commands if c.get("type", 1) == 1], 100)
    names: set[str] = set()
    for i, command in enumerate(commands):
        if command.get("name") in names:
            errors.add(
                [i, "name"],
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                "Application command names must be unique",
            )
        names.add(command.get("name", ""))
        total = _localised(errors, [i], "name", command, 1, 32, name=True)
        total += _localised(errors, [i], "description", command, 1, 100, name=False)
        total += _options(errors, [i], command.get("options") or [])
        _contexts(errors, i, command, installs)
        if total > 8000:
            errors.add([i], "APPLICATION_COMMAND_TOO_LARGE", "Command exceeds maximum size (8000)")
    errors.raise_if_any()


def _contexts(
    errors: FormErrors, i: int, command: dict[str, Any], installs: Collection[int]
) -> None:
    """``application-commands.mdx`` "Application Command Structure" and "Contexts":
    ``contexts`` (nullable) lists interaction context types — GUILD 0, BOT_DM 1,
    PRIVATE_CHANNEL 2; ``integration_types`` lists installation types — GUILD_INSTALL 0,
    USER_INSTALL 1 — "as long as any included contexts are already supported on the
    application-level" (``installs``). An unknown value is Discord's enum error
    (``ENUM_TYPE_COERCE``); an installation type the app does not support has no
    documented code, so the fake answers a form error on the value."""
    for key, known in (
        ("contexts", (GUILD, BOT_DM, PRIVATE_CHANNEL)),
        ("integration_types", (GUILD_INSTALL, USER_INSTALL)),
    ):
        values = command.get(key)
        if values is None:
            continue
        if not isinstance(values, list):
            errors.add([i, key], "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")
            continue
        for j, value in enumerate(values):
            if value not in known:
                errors.add(
                    [i, key, j], "ENUM_TYPE_COERCE", f'Value "{value}" is not a valid enum value.'
                )
            elif key == "integration_types" and value not in installs:
                errors.add(
                    [i, key, j],
                    "APPLICATION_COMMAND_INTEGRATION_TYPE_NOT_SUPPORTED",
                    "The application does not support this installation context.",
                )


def offered(
    command: dict[str, Any],
    context: int,
    *,
    guild_scoped: bool,
    guild_id: int,
    user_id: int,
    user_installed: bool,
) -> dict[str, str] | None:
    """Whether Discord's client offers ``command`` in ``context``, and if so the
    interaction's ``authorizing_integration_owners`` (``receiving-and-responding.mdx``
    "Authorizing Integration Owners Object"); ``None`` when the client would not show it.

    ``application-commands.mdx``: ``contexts`` and ``integration_types`` apply "only for
    globally-scoped commands" and "Guild commands don't support the BOT_DM interaction
    context"; ``contexts`` "defaults to all contexts" (the deprecated ``dm_permission:
    false`` still hides a command without ``contexts`` from DMs), ``integration_types``
    defaults to GUILD_INSTALL; PRIVATE_CHANNEL "is only meaningful for commands installed
    to a user". The owners: GUILD_INSTALL → the guild's id in a server, ``"0"`` in a DM with
    the bot; USER_INSTALL → the user's id, when the user installed the app."""
    if guild_scoped:
        return {str(GUILD_INSTALL): str(guild_id)} if context == GUILD else None
    contexts = command.get("contexts")
    if contexts is None:
        contexts = [GUILD, PRIVATE_CHANNEL]
        if command.get("dm_permission", True) is not False:
            contexts.append(BOT_DM)
    if context not in contexts:
        return None
    types = command.get("integration_types") or [GUILD_INSTALL]
    owners: dict[str, str] = {}
    if GUILD_INSTALL in types and context in (GUILD, BOT_DM):
        owners[str(GUILD_INSTALL)] = str(guild_id) if context == GUILD else "0"
    if USER_INSTALL in types and user_installed:
        owners[str(USER_INSTALL)] = str(user_id)
    return owners or None
