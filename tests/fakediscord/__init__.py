"""A strict local Discord for end-to-end tests (see :mod:`tests.fakediscord.server`).

What it enforces, with the section of Discord's documentation source
(``discord/discord-api-docs``, ``developers/``) each rule comes from; every rule has a
refusal test in ``tests/test_fakediscord.py`` (layout messages:
``tests/test_fakediscord_layout.py``; DMs and command contexts:
``tests/test_fakediscord_dms.py``):

- message content ≤ 2,000; nonce ≤ 25; at least one of content/components/files (50006);
  only documented flags (no EPHEMERAL on channel messages) —
  ``resources/message.mdx`` "Create Message";
- ≤ 5 action rows; a row holds ≤ 5 buttons or one select, never both; button label ≤ 80,
  custom_id required (1–100) except link buttons, url only on link buttons; select options
  1–25, label/value/description ≤ 100, placeholder ≤ 150; custom ids unique per message —
  ``components/reference.mdx`` "Action Row", "Button", "String Select", "Custom ID";
- layout messages (``IS_COMPONENTS_V2``, :mod:`.components`), on every endpoint that
  creates or edits a message: no ``content``/``embeds``/``poll``/``sticker_ids``
  (``MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2``); ≤ 40 components counted
  through nesting; ≤ 4,000 characters of text displays together; media galleries of 1–10
  items; alt text ≤ 1,024; each type only where its parent's "Child Components" table
  allows it (``UNION_TYPE_CHOICES``; without the flag only action rows); a section's 1–3
  text displays and its button or thumbnail accessory; ``attachment://`` media naming a
  file of the message; the flag never removed on edit
  (``MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG``) and, set on edit, content cleared;
  buttons and selects keep their rules wherever they are nested —
  ``components/reference.mdx``, ``resources/message.mdx`` "Create Message", "Edit
  Message";
- ≤ 10 files, each ≤ 10 MiB (413, code 40005) — ``reference.mdx`` "Uploading Files";
  the whole request ≤ 25 MiB (413, 40005) and the embed limits (≤ 10 embeds, title 256,
  description 4,096, ≤ 25 fields, 6,000 characters together) — ``resources/message.mdx``
  "Create Message", "Embed Limits" (:mod:`.sizes`);
- allowed_mentions: parse types, ≤ 100 ids, ``parse`` exclusive with the id list —
  ``resources/message.mdx`` "Allowed Mentions Object";
- ``enforce_nonce`` returns the first message instead of a second one — "Create Message";
- command bulk overwrite: ≤ 100 commands, unique names, names 1–32 lower case matching the
  naming rule, descriptions 1–100, every localisation under the same rules with a known
  locale, ≤ 25 options and choices, required before optional, no choices with
  autocomplete, ≤ 8,000 characters counting the longest localisation of each field,
  ``contexts`` of 0/1/2 and ``integration_types`` of 0/1 the app supports —
  ``interactions/application-commands.mdx`` "Application Command Structure", "Naming",
  "Slash Commands", "Localization", "Contexts";
- members act only where the client lets them: a command where its contexts, installs
  and scope offer it (else :class:`NotOffered`, nothing dispatched); interactions from a
  DM with the bot carry ``user``, no ``guild_id``/``member``, context 1 —
  ``interactions/receiving-and-responding.mdx`` "Interaction Structure", "Authorizing
  Integration Owners Object";
- interactions: one initial response (40060), within 3 s (10062), token valid 15 minutes
  (50027), no follow-up before the initial response (10015), callback types allowed per
  interaction type, a deferred response carries only EPHEMERAL, autocomplete ≤ 25 choices,
  a deferral carries no IS_COMPONENTS_V2 (a layout reply edits the original), the first
  follow-up after a deferred response edits it and keeps its visibility —
  ``interactions/receiving-and-responding.mdx`` "Interaction Callback", "Interaction
  Callback Type", "Create Followup Message";
- threads: name 1–100, auto_archive_duration 60/1440/4320/10080 —
  ``resources/channel.mdx``; a server's active threads, newest first, only those the bot
  can see, 10004 for an unknown server — ``resources/guild.mdx`` "List Active Guild
  Threads" (:mod:`.guild_threads`, tested in ``tests/test_fakediscord_guild_threads.py``);
- rate limits: per-route buckets per top-level resource for every route the bot uses
  (:mod:`.buckets`) with the X-RateLimit headers, 429 with ``retry_after``/``Retry-After``/
  scope, a global 50/s that spares interaction endpoints — ``topics/rate-limits.mdx``;
  401 for a bad token — ``topics/opcodes-and-status-codes.mdx`` "HTTP Response Codes";
- channel permissions (:mod:`.permissions`): the bot's role and the channel's overwrites,
  threads inheriting their parent's; 403 with 50001 where the bot cannot see the channel,
  50013 where it lacks what the request needs (send, send in threads, attach files, embed
  links, create threads, manage threads) — ``topics/permissions.mdx``;
- gateway: v=10 only (4012), HELLO, IDENTIFY with a valid token (4004) and intents (4013),
  once (4005), nothing before it (4003), known opcodes (4001), heartbeat ACKs, READY with
  ``resume_gateway_url`` + GUILD_CREATE, RESUME replaying missed events then RESUMED (or
  op 9), zlib-stream (or zstd-stream) transport compression — ``events/gateway.mdx``
  "Connecting", "Resuming", "Transport Compression";
  ``topics/opcodes-and-status-codes.mdx`` "Gateway Close Event Codes"; missed heartbeats
  close the connection with 4009 and end the session, a privileged intent the app has not
  enabled is closed with 4014 (:mod:`.heartbeat`, ``events/gateway.mdx`` "Sending
  Heartbeats", "Privileged Intents").

The rules added for issue 44 (permissions, buckets, heartbeats, intents, embeds, request
size) have their refusal tests in ``tests/test_fakediscord_limits.py``.
"""

from tests.fakediscord.acting import NotOffered
from tests.fakediscord.errors import ApiError
from tests.fakediscord.models import Interaction, Media, Message
from tests.fakediscord.server import FakeDiscord

__all__ = ["ApiError", "FakeDiscord", "Interaction", "Media", "Message", "NotOffered"]
