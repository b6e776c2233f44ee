"""What the local Discord keeps: messages, interactions, uploads and the requests it saw.

A test reads a message the way a member reads it, classic or layout alike:
:attr:`Message.content` is its text (the ``content`` field, or a layout message's text
displays), :attr:`Message.custom_ids`, :meth:`Message.labels`, :meth:`Message.options`
and :meth:`Message.component` find its controls wherever they are nested, and
:meth:`Message.media` / :meth:`Message.alt_texts` its pictures and their descriptions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .components import (
    ATTACHMENT,
    INTERACTIVE,
    IS_COMPONENTS_V2,
    TEXT_DISPLAY,
    media_items,
    walk,
)
from .limits import EPHEMERAL, Before

LOADING = 1 << 7  # message flag: "LOADING" (deferred interaction response)


class Upload(tuple[str, int]):
    """An uploaded file as ``(filename, size)``, remembering its ``files[n]`` slot: an
    edit's ``attachments`` names new files by that ``n`` (``reference.mdx`` "Uploading
    Files"); and its ``description`` (the alt text, ``resources/message.mdx`` "Attachment
    Object"), as the request's ``attachments`` entry of the same id gave it — stored, and
    returned in the message's attachments like Discord does."""

    slot: int
    description: str | None

    def __new__(cls, filename: str, size: int, slot: int) -> Upload:
        upload = super().__new__(cls, (filename, size))
        upload.slot = slot
        upload.description = None
        return upload


def describe_uploads(body: dict[str, Any], files: list[tuple[str, int]]) -> None:
    """The request's ``attachments`` entries give new files (``id`` = their ``files[n]``
    index) their descriptions (checked by :func:`.limits.check_attachments` before)."""
    by_slot = {str(getattr(f, "slot", i)): f for i, f in enumerate(files)}
    for entry in body.get("attachments") or []:
        upload = by_slot.get(str(entry.get("id")))
        if isinstance(upload, Upload) and "description" in entry:
            upload.description = entry["description"]


@dataclass
class Fault:
    """An injected failure for the next ``times`` matching requests."""

    method: str
    route: str  # a route template, e.g. "/channels/{channel_id}/messages"
    status: int  # 500, 429 … or 0 for "stall": act, then never answer
    times: int
    retry_after: float = 0.5
    is_global: bool = False


class Session:
    """A gateway session: its id, token, sequence, the events sent (for RESUME) and the
    websocket it is on now."""

    def __init__(self, session_id: str, user_token: str) -> None:
        self.id = session_id
        self.token = user_token
        self.seq = 0
        self.events: list[dict[str, Any]] = []
        self.ws: Any = None  # the aiohttp WebSocketResponse while connected
        self.compressor: Any = None


@dataclass
class Record:
    """One REST request as it reached Discord, and how it was answered."""

    method: str
    route: str
    path: str
    body: Any
    files: list[tuple[str, int]]
    status: int = 0
    error_code: int | None = None
    at: float = 0.0


class Media(NamedTuple):
    """A picture or file a layout message shows: its url, the uploaded file it names
    (``attachment://<filename>``, else None) and its alt text."""

    url: str
    filename: str | None
    description: str | None


@dataclass
class Message:
    id: int
    channel_id: int
    raw_content: str  # the ``content`` field as Discord stores it ("" in a layout message)
    flags: int
    components: list[dict[str, Any]]
    files: list[tuple[str, int]]
    author_id: int
    nonce: str | None = None
    interaction_id: int | None = None
    visible_to: int | None = None  # ephemeral: only this user sees it
    edits: int = 0
    created: float = 0.0  # Discord's clock when it was posted (edits of old messages)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def layout(self) -> bool:
        """A layout message (``IS_COMPONENTS_V2``): no content, its text in components."""
        return bool(self.flags & IS_COMPONENTS_V2)

    @property
    def content(self) -> str:
        """The message's text as a member reads it: the ``content`` field of a classic
        message; a layout message's text displays in reading order, one per line."""
        if not self.layout:
            return self.raw_content
        return "\n".join(self.text_displays())

    def before(self) -> Before:
        """The message as the checks of an edit see it."""
        return Before(self.flags, self.raw_content, self.components)

    def text_displays(self) -> list[str]:
        """Every text display's markdown, nested ones included, in reading order."""
        return [
            str(c.get("content") or "")
            for _, c in walk(self.components)
            if c.get("type") == TEXT_DISPLAY
        ]

    def _interactive(self) -> list[dict[str, Any]]:
        return [c for _, c in walk(self.components) if c.get("type") in INTERACTIVE]

    @property
    def custom_ids(self) -> list[str]:
        """The custom ids of every button and select, in rows, containers or as a
        section's accessory, in reading order (link buttons have none)."""
        return [c["custom_id"] for c in self._interactive() if "custom_id" in c]

    def labels(self) -> dict[str, str]:
        """custom_id → a button's label or a select's placeholder."""
        return {
            c.get("custom_id", ""): c.get("label") or c.get("placeholder") or ""
            for c in self._interactive()
        }

    def component(self, custom_id: str) -> dict[str, Any] | None:
        """The button or select with this custom id, wherever it is nested."""
        return next((c for c in self._interactive() if c.get("custom_id") == custom_id), None)

    def options(self, custom_id: str) -> list[str]:
        """The values a string select offers, in order."""
        comp = self.component(custom_id) or {}
        return [o["value"] for o in comp.get("options") or []]

    def media(self) -> list[Media]:
        """Every picture and file the layout shows (media galleries' items, thumbnails,
        file components), in reading order."""
        out = []
        for _, comp in walk(self.components):
            for item in media_items(comp):
                url = str((item.get("media") or {}).get("url") or "")
                name = url[len(ATTACHMENT) :] if url.startswith(ATTACHMENT) else None
                out.append(Media(url, name, item.get("description")))
        return out

    def alt_texts(self) -> dict[str, str | None]:
        """filename → the description a reader gets for each uploaded file: the layout's
        media item that shows it (a layout message shows attachments only through
        components), else the attachment's own description."""
        out = {upload[0]: getattr(upload, "description", None) for upload in self.files}
        for item in self.media():
            if item.filename is not None and item.description is not None:
                out[item.filename] = item.description
        return out


@dataclass
class Interaction:
    id: int
    token: str
    type: int
    user: dict[str, Any]
    channel_id: int
    data: dict[str, Any]
    created: float
    context: int = 0  # interaction context type: 0 guild, 1 the bot's DM, 2 private channel
    message_id: int | None = None  # the component's message
    callback: int | None = None  # the initial response type
    original_id: int | None = None
    followups_seen: int = 0
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None  # the form a MODAL (9) answer opened
    replies: list[Message] = field(default_factory=list)

    def texts(self) -> list[str]:
        """Each reply's text as a member reads it (:attr:`Message.content`)."""
        return [m.content for m in self.replies]
