"""What Discord refuses, checked the way Discord checks it, with Discord's error bodies.

Every check cites the section of Discord's documentation source
(``discord/discord-api-docs``, folder ``developers/``) it comes from. A check raises
:class:`ApiError`; the server turns it into the HTTP status and JSON body Discord sends
("Example JSON Error Response" in ``topics/opcodes-and-status-codes.mdx``; form errors
are code 50035 "Invalid Form Body" with an ``errors`` tree naming the field).
"""

from __future__ import annotations

import re
from typing import Any

#: ``reference.mdx`` "Locales": the keys a localisation dictionary may use.
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
#: ``interactions/application-commands.mdx`` "Application Command Naming".
NAME_RE = re.compile(r"^[-_'\w\u0900-\u097f\u0e00-\u0e7f]{1,32}$")
#: ``reference.mdx`` "Uploading Files": 10 MiB per file by default.
FILE_LIMIT = 10 * 1024 * 1024
#: Files per message (Discord answers "Must be 10 or fewer in length." for ``files``).
MAX_FILES = 10
#: ``resources/message.mdx`` "Message Flags": SUPPRESS_EMBEDS, EPHEMERAL,
#: SUPPRESS_NOTIFICATIONS, IS_VOICE_MESSAGE, IS_COMPONENTS_V2.
EPHEMERAL = 1 << 6
CREATE_FLAGS = (1 << 2) | (1 << 12) | (1 << 13) | (1 << 15)
CALLBACK_FLAGS = CREATE_FLAGS | EPHEMERAL


class ApiError(Exception):
    """An HTTP error exactly as Discord would answer it."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            out["errors"] = self.errors
        return out


class FormErrors:
    """Collects field errors into Discord's nested ``errors`` tree
    (``{"content": {"_errors": [{"code": ..., "message": ...}]}}``)."""

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}

    def add(self, path: list[str | int], code: str, message: str) -> None:
        node = self.tree
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def raise_if_any(self) -> None:
        if self.tree:
            raise ApiError(400, 50035, "Invalid Form Body", self.tree)

    def max_len(self, path: list[str | int], value: Any, limit: int) -> None:
        if value is not None and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def length(self, path: list[str | int], value: Any, low: int, high: int) -> None:
        if value is None or not low <= len(value) <= high:
            self.add(
                path,
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between {low} and {high} in length.",
            )


# ----- messages ------------------------------------------------------------------------
def check_message(
    body: dict[str, Any],
    files: list[tuple[str, int]],
    *,
    callback: bool = False,
    edit: bool = False,
) -> None:
    """A message body for Create Message, an interaction response, a follow-up or an edit.

    - content up to 2,000 characters (``resources/message.mdx`` "Create Message",
      "JSON/Form Params");
    - at least one of content, embeds, components, files (same section, footnote \\*),
      else 50006 "Cannot send an empty message" (``topics/opcodes-and-status-codes.mdx``
      "JSON Error Codes"); an edit may leave fields out;
    - nonce up to 25 characters (same table);
    - only the documented flags (``interactions/receiving-and-responding.mdx``
      "Interaction Callback Data Structure" allows EPHEMERAL; Create Message does not);
    - components (:func:`check_components`), allowed mentions (:func:`check_mentions`),
      files (:func:`check_files`), the attachments' metadata (:func:`check_attachments`).
    """
    errors = FormErrors()
    content = body.get("content")
    errors.max_len(["content"], content, 2000)
    nonce = body.get("nonce")
    if nonce is not None:
        errors.max_len(["nonce"], str(nonce), 25)
    flags = int(body.get("flags") or 0)
    allowed = CALLBACK_FLAGS if callback else CREATE_FLAGS
    if flags & ~allowed:
        errors.add(["flags"], "MESSAGE_FLAGS_INVALID", "Invalid message flags.")
    check_components(body.get("components"), errors)
    check_mentions(body.get("allowed_mentions"), errors)
    check_files(files, errors)
    check_attachments(body.get("attachments"), errors)
    errors.raise_if_any()
    if (
        not edit
        and not content
        and not body.get("embeds")
        and not body.get("components")
        and not body.get("sticker_ids")
        and not files
        and not body.get("poll")
    ):
        raise ApiError(400, 50006, "Cannot send an empty message")


def check_files(files: list[tuple[str, int]], errors: FormErrors) -> None:
    """``reference.mdx`` "Uploading Files": the size limit applies to each file (10 MiB
    by default) -> 413 with code 40005 "Request entity too large"; at most 10 files."""
    if len(files) > MAX_FILES:
        errors.add(["files"], "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_FILES} or fewer in length.")
    for _name, size in files:
        if size > FILE_LIMIT:
            raise ApiError(413, 40005, "Request entity too large")


#: ``resources/message.mdx`` "Attachment Object": "description (alt text) for the file (max
#: 1024 characters)", in the attachment and in the request structure alike.
MAX_DESCRIPTION = 1024


def check_attachments(attachments: Any, errors: FormErrors) -> None:
    """``resources/message.mdx`` "Attachment Request Structure": each entry has an ``id``
    (a new file's ``files[n]`` index, or an attachment kept), and its ``description`` (the
    alt text) is a string of at most :data:`MAX_DESCRIPTION` characters."""
    for i, entry in enumerate(attachments or []):
        if not isinstance(entry, dict) or "id" not in entry:
            errors.add(["attachments", i, "id"], "BASE_TYPE_REQUIRED", "This field is required")
            continue
        description = entry.get("description")
        if description is None:
            continue
        if not isinstance(description, str):
            errors.add(["attachments", i, "description"], "BASE_TYPE_STRING", "Not a string.")
        else:
            errors.max_len(["attachments", i, "description"], description, MAX_DESCRIPTION)


def check_mentions(mentions: dict[str, Any] | None, errors: FormErrors) -> None:
    """``resources/message.mdx`` "Allowed Mentions Object": ``parse`` holds only
    ``roles``/``users``/``everyone``; ``users``/``roles`` at most 100 ids each; ``parse``
    is mutually exclusive with the id list of the same type (a validation error)."""
    if mentions is None:
        return
    parse = mentions.get("parse") or []
    for i, kind in enumerate(parse):
        if kind not in ("roles", "users", "everyone"):
            errors.add(["allowed_mentions", "parse", i], "ENUM_TYPE_COERCE", "Invalid type.")
    for field in ("users", "roles"):
        ids = mentions.get(field)
        if ids is None:
            continue
        errors.max_len(["allowed_mentions", field], ids, 100)
        if field in parse and ids:
            errors.add(
                ["allowed_mentions"],
                "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                f'parse:["{field}"] and {field}: [ids...] are mutually exclusive.',
            )
        for j, value in enumerate(ids):
            if not str(value).isdigit():
                errors.add(
                    ["allowed_mentions", field, j], "NUMBER_TYPE_COERCE", "Value is not snowflake."
                )


def check_components(rows: list[dict[str, Any]] | None, errors: FormErrors) -> None:
    """``components/reference.mdx``: "Action Row" (top level, at most 5 in a legacy
    message; children are up to 5 buttons or a single select), "Button" (label max 80;
    non-link buttons must have a custom_id and no url; link buttons a url and no
    custom_id), "String Select" (options 1–25, placeholder max 150, min/max values up to
    25; option label/value/description max 100), "Custom ID" (1–100 characters, unique
    within the message)."""
    if rows is None:
        return
    errors.max_len(["components"], rows, 5)
    seen: set[str] = set()
    for r, row in enumerate(rows):
        where: list[str | int] = ["components", r]
        if row.get("type") != 1:
            errors.add([*where, "type"], "UNION_TYPE_CHOICES", "Value must be an action row.")
            continue
        children = row.get("components") or []
        if not children:
            errors.length([*where, "components"], children, 1, 5)
            continue
        kinds = {c.get("type") for c in children}
        if 2 in kinds and kinds != {2}:
            errors.add(
                [*where, "components"],
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
            continue
        if kinds == {2}:
            errors.max_len([*where, "components"], children, 5)
        elif len(children) != 1:
            errors.add(
                [*where, "components"],
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
        for c, comp in enumerate(children):
            at: list[str | int] = [*where, "components", c]
            cid = comp.get("custom_id")
            if comp.get("type") == 2:
                errors.max_len([*at, "label"], comp.get("label"), 80)
                if comp.get("style") == 5:
                    if not comp.get("url") or cid is not None:
                        errors.add(at, "BUTTON_COMPONENT_INVALID", "Link buttons need a url only.")
                    continue
                if not 1 <= int(comp.get("style") or 0) <= 4:
                    errors.add([*at, "style"], "ENUM_TYPE_COERCE", "Invalid button style.")
                if comp.get("url") is not None:
                    errors.add(at, "BUTTON_COMPONENT_INVALID", "Only link buttons have a url.")
                if not comp.get("label") and not comp.get("emoji"):
                    errors.add(at, "BUTTON_COMPONENT_INVALID", "A button needs a label or emoji.")
            elif comp.get("type") == 3:
                options = comp.get("options") or []
                errors.length([*at, "options"], options, 1, 25)
                errors.max_len([*at, "placeholder"], comp.get("placeholder"), 150)
                for key in ("min_values", "max_values"):
                    value = comp.get(key)
                    if value is not None and not 0 <= int(value) <= 25:
                        errors.add(
                            [*at, key], "NUMBER_TYPE_MAX", "int value should be less than 25."
                        )
                for o, option in enumerate(options):
                    for key in ("label", "value"):
                        errors.length([*at, "options", o, key], option.get(key), 1, 100)
                    errors.max_len(
                        [*at, "options", o, "description"], option.get("description"), 100
                    )
            else:
                errors.add([*at, "type"], "UNION_TYPE_CHOICES", "Unsupported component type.")
                continue
            if cid is None:
                errors.add([*at, "custom_id"], "BASE_TYPE_REQUIRED", "This field is required")
                continue
            errors.length([*at, "custom_id"], cid, 1, 100)
            if cid in seen:
                errors.add(
                    [*at, "custom_id"],
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
            seen.add(cid)


def check_choices(choices: list[dict[str, Any]] | None) -> None:
    """``interactions/receiving-and-responding.mdx`` "Autocomplete": at most 25 choices;
    each choice (``application-commands.mdx`` "Application Command Option Choice
    Structure") has a 1–100 character name and a string value of at most 100."""
    errors = FormErrors()
    choices = choices or []
    errors.max_len(["data", "choices"], choices, 25)
    for i, choice in enumerate(choices):
        errors.length(["data", "choices", i, "name"], choice.get("name"), 1, 100)
        value = choice.get("value")
        if isinstance(value, str):
            errors.max_len(["data", "choices", i, "value"], value, 100)
    errors.raise_if_any()


# ----- application commands --------------------------------------------------------------
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


def check_commands(commands: list[dict[str, Any]]) -> None:
    """A bulk overwrite (``application-commands.mdx`` "Bulk Overwrite Global Application
    Commands"): at most 100 slash commands with unique names, each valid per
    "Application Command Structure" (name 1–32 matching the naming regex and lower case,
    description 1–100, every localisation under the same rules and with a known locale key,
    options as in :func:`_options`) and at most 8,000 characters counted as "Slash Commands"
    says: name, description and value of the command, its options and choices, only the
    longest localisation of each field counted."""
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
        if total > 8000:
            errors.add([i], "APPLICATION_COMMAND_TOO_LARGE", "Command exceeds maximum size (8000)")
    errors.raise_if_any()
