"""What Discord refuses, checked the way Discord checks it, with Discord's error bodies.

Every check cites the section of Discord's documentation source
(``discord/discord-api-docs``, folder ``developers/``) it comes from. A check raises
:class:`ApiError`; the server turns it into the HTTP status and JSON body Discord sends
("Example JSON Error Response" in ``topics/opcodes-and-status-codes.mdx``; form errors
are code 50035 "Invalid Form Body" with an ``errors`` tree naming the field).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .commands import check_commands, command_size
from .components import IS_COMPONENTS_V2, check_components
from .errors import ApiError, FormErrors
from .sizes import check_embeds

__all__ = [
    "ApiError",
    "Before",
    "FormErrors",
    "check_attachments",
    "check_choices",
    "check_commands",
    "check_files",
    "check_mentions",
    "check_message",
    "command_size",
]

#: ``reference.mdx`` "Uploading Files": 10 MiB per file by default.
FILE_LIMIT = 10 * 1024 * 1024
#: Files per message (Discord answers "Must be 10 or fewer in length." for ``files``).
MAX_FILES = 10
#: ``resources/message.mdx`` "Message Flags": SUPPRESS_EMBEDS, EPHEMERAL,
#: SUPPRESS_NOTIFICATIONS, IS_VOICE_MESSAGE, IS_COMPONENTS_V2.
EPHEMERAL = 1 << 6
CREATE_FLAGS = (1 << 2) | (1 << 12) | (1 << 13) | IS_COMPONENTS_V2
CALLBACK_FLAGS = CREATE_FLAGS | EPHEMERAL
#: The fields a layout message cannot use (``resources/message.mdx`` "Create Message",
#: footnote \*\*: "Providing ``content``, ``embeds``, ``sticker_ids``, ``poll`` … will fail").
LEGACY_FIELDS = ("content", "embeds", "sticker_ids", "poll")


@dataclass(frozen=True)
class Before:
    """The message an edit changes, as far as the checks need it."""

    flags: int
    content: str
    components: list[dict[str, Any]] = dataclasses.field(default_factory=list)


# ----- messages ------------------------------------------------------------------------
def check_message(
    body: dict[str, Any],
    files: list[tuple[str, int]],
    *,
    callback: bool = False,
    edit: bool = False,
    before: Before | None = None,
    attached: Sequence[str] | None = None,
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
    - a layout message (:func:`check_layout_fields`), components
      (:func:`.components.check_components`, ``attached`` naming the files the message
      will carry: this request's by default), allowed mentions (:func:`check_mentions`),
      files (:func:`check_files`), the attachments' metadata (:func:`check_attachments`).

    ``before`` is the message an edit changes (its flag and content decide what the edit
    may do); the components checked are the ones the message will have.
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
    layout = check_layout_fields(body, errors, before if edit else None)
    components = body.get("components")
    if edit and before is not None and "components" not in body:
        components = before.components
    names = [name for name, _ in files] if attached is None else list(attached)
    check_components(components, errors, layout=layout, attached=names)
    check_mentions(body.get("allowed_mentions"), errors)
    check_embeds(body.get("embeds"), errors)
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


def is_layout(body: dict[str, Any], before: Before | None = None) -> bool:
    """Whether the message is (or, after this edit, will be) a layout message: the flag
    in the request, or kept from the message an edit changes (an edit without ``flags``
    keeps the message's flags)."""
    if before is not None and before.flags & IS_COMPONENTS_V2:
        return True
    return bool(int(body.get("flags") or 0) & IS_COMPONENTS_V2)


def check_layout_fields(
    body: dict[str, Any], errors: FormErrors, before: Before | None = None
) -> bool:
    """The ``IS_COMPONENTS_V2`` flag's rules; returns whether the message is a layout one.

    - ``components/reference.mdx`` (its opening list) and ``resources/message.mdx`` "Create
      Message" footnote \\*\\*: with the flag, ``content``, ``embeds``, ``poll`` and
      ``sticker_ids`` are refused — Discord's 50035 with
      ``MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2`` on the field ("The 'content'
      field cannot be used when using MessageFlags.IS_COMPONENTS_V2");
    - ``resources/message.mdx`` "Edit Message", ``flags`` footnote: "the
      ``IS_COMPONENTS_V2`` flag can only be set" (``using-message-components.mdx``: "once
      the message has been sent, the flag cannot be removed") — an edit whose ``flags``
      lack it is refused with ``MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG`` on ``flags``;
      and setting it on a message with content requires "the used ``content`` … reset to
      empty … Failing to do this will result in a 400".
    """
    layout = is_layout(body, before)
    removed = body.get("flags") is not None and not int(body["flags"]) & IS_COMPONENTS_V2
    if before is not None and before.flags & IS_COMPONENTS_V2 and removed:
        errors.add(
            ["flags"],
            "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
            "The IS_COMPONENTS_V2 flag cannot be removed from a message.",
        )
    if not layout:
        return False
    for name in LEGACY_FIELDS:
        stale = name == "content" and before is not None and before.content and name not in body
        if body.get(name) or stale:
            errors.add(
                [name],
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                f"The '{name}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            )
    return True


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
