"""Embed limits and the request size limit.

- ``resources/message.mdx`` "Embed Limits": title 256 characters, description 4,096,
  at most 25 fields, a field's name 256 and value 1,024, footer text 2,048, author name
  256; "the combined sum of characters in all ``title``, ``description``, ``field.name``,
  ``field.value``, ``footer.text``, and ``author.name`` fields across all embeds attached
  to a message must not exceed 6000 characters", leading and trailing whitespace not
  counted; "Violating any of these constraints will result in a ``Bad Request``
  response" — here 400 / 50035 with the field named. "Create Message", ``embeds``: "Up to
  10 ``rich`` embeds".
- ``resources/message.mdx`` "Create Message", "Limitations": "The maximum request size
  when sending a message is **25 MiB**" — 413 with 40005 "Request entity too large"
  (``topics/opcodes-and-status-codes.mdx`` "JSON Error Codes").
"""

from __future__ import annotations

import json
from typing import Any

from .errors import ApiError, FormErrors

MAX_EMBEDS = 10
EMBED_TOTAL = 6000
MAX_FIELDS = 25
MAX_REQUEST = 25 * 1024 * 1024


def _text(value: Any) -> str:
    return str(value).strip() if value is not None else ""


def check_embeds(embeds: Any, errors: FormErrors) -> None:
    """Each embed's fields and all embeds' characters together."""
    if not embeds:
        return
    if not isinstance(embeds, list):
        errors.add(["embeds"], "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")
        return
    errors.max_len(["embeds"], embeds, MAX_EMBEDS)
    total = 0
    for i, embed in enumerate(embeds):
        if not isinstance(embed, dict):
            errors.add(["embeds", i], "DICT_TYPE_CONVERT", "Only dictionaries may be used")
            continue
        texts: list[tuple[list[str | int], str, int]] = [
            (["title"], _text(embed.get("title")), 256),
            (["description"], _text(embed.get("description")), 4096),
            (["footer", "text"], _text((embed.get("footer") or {}).get("text")), 2048),
            (["author", "name"], _text((embed.get("author") or {}).get("name")), 256),
        ]
        fields = embed.get("fields") or []
        errors.max_len(["embeds", i, "fields"], fields, MAX_FIELDS)
        for j, field in enumerate(fields):
            texts.append((["fields", j, "name"], _text(field.get("name")), 256))
            texts.append((["fields", j, "value"], _text(field.get("value")), 1024))
        for path, text, limit in texts:
            errors.max_len(["embeds", i, *path], text, limit)
            total += len(text)
    if total > EMBED_TOTAL:
        errors.add(
            ["embeds"],
            "BASE_TYPE_MAX_LENGTH",
            f"Embed size exceeds maximum size of {EMBED_TOTAL}",
        )


def check_request_size(body: Any, files: list[tuple[str, int]]) -> None:
    """The whole request: the JSON payload and every file together."""
    size = len(json.dumps(body)) if body is not None else 0
    size += sum(n for _, n in files)
    if size > MAX_REQUEST:
        raise ApiError(413, 40005, "Request entity too large")
