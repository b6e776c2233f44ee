"""A strict local Discord for end-to-end tests (see :mod:`tests.fakediscord.server`).

What it enforces, with the section of Discord's documentation source
(``discord/discord-api-docs``, ``developers/``) each rule comes from; every rule has a
refusal test in ``tests/test_fakediscord.py``:

- message content ≤ 2,000; nonce ≤ 25; at least one of content/components/files (50006);
  only documented flags (no EPHEMERAL on channel messages) —
  ``resources/message.mdx`` "Create Message";
- ≤ 5 action rows; a row holds ≤ 5 buttons or one select, never both; button label ≤ 80,
  custom_id required (1–100) except link buttons, url only on link buttons; select options
  1–25, label/value/description ≤ 100, placeholder ≤ 150; custom ids unique per message —
  ``components/reference.mdx`` "Action Row", "Button", "String Select", "Custom ID";
- ≤ 10 files, each ≤ 10 MiB (413, code 40005) — ``reference.mdx`` "Uploading Files";
- allowed_mentions: parse types, ≤ 100 ids, ``parse`` exclusive with the id list —
  ``resources/message.mdx`` "Allowed Mentions Object";
- ``enforce_nonce`` returns the first message instead of a second one — "Create Message";
- command bulk overwrite: ≤ 100 commands, unique names, names 1–32 lower case matching the
  naming rule, descriptions 1–100, every localisation under the same rules with a known
  locale, ≤ 25 options and choices, required before optional, no choices with
  autocomplete, ≤ 8,000 characters counting the longest localisation of each field —
  ``interactions/application-commands.mdx`` "Application Command Structure", "Naming",
  "Slash Commands", "Localization";
- interactions: one initial response (40060), within 3 s (10062), token valid 15 minutes
  (50027), no follow-up before the initial response (10015), callback types allowed per
  interaction type, a deferred response carries only EPHEMERAL, autocomplete ≤ 25 choices,
  the first follow-up after a deferred response edits it and keeps its visibility —
  ``interactions/receiving-and-responding.mdx`` "Interaction Callback", "Interaction
  Callback Type", "Create Followup Message";
- threads: name 1–100, auto_archive_duration 60/1440/4320/10080 —
  ``resources/channel.mdx``;
- rate limits: per-route buckets per top-level resource with the X-RateLimit headers,
  429 with ``retry_after``/``Retry-After``/scope, a global 50/s that spares interaction
  endpoints — ``topics/rate-limits.mdx``; 401 for a bad token —
  ``topics/opcodes-and-status-codes.mdx`` "HTTP Response Codes";
- gateway: v=10 only (4012), HELLO, IDENTIFY with a valid token (4004) and intents (4013),
  once (4005), nothing before it (4003), known opcodes (4001), heartbeat ACKs, READY with
  ``resume_gateway_url`` + GUILD_CREATE, RESUME replaying missed events then RESUMED (or
  op 9), zlib-stream (or zstd-stream) transport compression — ``events/gateway.mdx``
  "Connecting", "Resuming", "Transport Compression";
  ``topics/opcodes-and-status-codes.mdx`` "Gateway Close Event Codes".
"""

from tests.fakediscord.limits import ApiError
from tests.fakediscord.server import FakeDiscord, Interaction, Message

__all__ = ["ApiError", "FakeDiscord", "Interaction", "Message"]
