"""What Discord refuses in a message's components: classic rows and layout messages.

From ``components/reference.mdx`` (Discord's documentation source, ``developers/``). A
message without the ``IS_COMPONENTS_V2`` flag holds the legacy layout ("Legacy Message
Component Behavior": up to 5 action rows at the top level); with the flag it is a layout
message whose components nest ("Component Types", each type's "Child Components"
table). One walk (:func:`walk`) visits every component, nested ones included, for the
checks here and for the test readers in :mod:`.models`.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import FormErrors, Path

#: ``resources/message.mdx`` "Message Flags": IS_COMPONENTS_V2.
IS_COMPONENTS_V2 = 1 << 15

ACTION_ROW, BUTTON, STRING_SELECT = 1, 2, 3
SELECTS = (3, 5, 6, 7, 8)  # string, user, role, mentionable, channel select
SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = (
    9,
    10,
    11,
    12,
    13,
    14,
    17,
)
INTERACTIVE = (BUTTON, *SELECTS)

#: Where each type may stand ("Component Types" and the "… Child Components" tables):
#: a legacy message holds action rows only; a layout message's top level holds the
#: "top-level" components (a thumbnail only ever is a section's accessory, a button only
#: in a row or as an accessory); a container holds anything top-level but a container.
TOP_LEGACY: tuple[int, ...] = (ACTION_ROW,)
TOP_LAYOUT = (ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER)
IN_CONTAINER = (ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR)
IN_ROW = (BUTTON, *SELECTS)
IN_SECTION = (TEXT_DISPLAY,)
ACCESSORY = (BUTTON, THUMBNAIL)

#: ``reference.mdx`` opening list: "Messages allow up to 40 total components" — counted
#: through nesting (the changelog of April 29, 2025: "total components in a message").
MAX_TOTAL = 40
#: Text displays of one message together (discord-api-docs pull request #8562, "Document
#: that text display components allows 4k characters": "The character count of all text
#: display components in a message may total up to 4000 characters"; not yet in the
#: mirrored reference).
MAX_TEXT = 4000
#: "Media Gallery Item Structure" / "Thumbnail Structure": "Alt text … max 1024".
MAX_ALT = 1024
ATTACHMENT = "attachment://"


def walk(components: Any, path: Path | None = None) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Every component in reading order with its path in the errors tree: a row's,
    a container's or a section's children in order, then a section's accessory."""
    if not isinstance(components, list):
        return
    base: Path = path if path is not None else ["components"]
    for i, comp in enumerate(components):
        at: Path = [*base, i]
        if not isinstance(comp, dict):
            continue
        yield at, comp
        yield from walk(comp.get("components"), [*at, "components"])
        accessory = comp.get("accessory")
        if isinstance(accessory, dict):
            yield [*at, "accessory"], accessory
            yield from walk(accessory.get("components"), [*at, "accessory", "components"])


def number_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A copy with every component's ``id`` set: "The ``id`` must be unique within the
    message and is generated sequentially if left empty. Generation of ``id``s won't use
    another ``id`` that exists in the message … an ``id`` of ``0`` is … treated as empty"
    (``reference.mdx`` "Anatomy of a Component")."""
    out = copy.deepcopy(components)
    taken = {c.get("id") for _, c in walk(out) if c.get("id")}
    fresh = (n for n in itertools.count(1) if n not in taken)
    for _, comp in walk(out):
        if not comp.get("id"):
            comp["id"] = next(fresh)
    return out


def media_items(comp: dict[str, Any]) -> list[dict[str, Any]]:
    """The media a component shows, each ``{"media": {"url": …}, "description": …}``:
    a gallery's items, a thumbnail, a file (``file`` instead of ``media``)."""
    kind = comp.get("type")
    if kind == MEDIA_GALLERY:
        return [i for i in comp.get("items") or [] if isinstance(i, dict)]
    if kind == THUMBNAIL:
        return [comp]
    if kind == FILE:
        return [{"media": comp.get("file") or {}, "description": None}]
    return []


@dataclass
class _Checked:
    """What one message's check carries from component to component."""

    errors: FormErrors
    attached: Sequence[str]
    custom_ids: set[str] = field(default_factory=set)
    text: int = 0


def check_components(
    components: Any,
    errors: FormErrors,
    *,
    layout: bool = False,
    attached: Sequence[str] = (),
) -> None:
    """A message's components. Legacy (``reference.mdx`` "Legacy Message Component
    Behavior"): at most 5 action rows at the top level, nothing else. Layout
    (``IS_COMPONENTS_V2``, the reference's opening list): only top-level types at the top
    level, every child where its parent's "Child Components" table allows it, at most
    :data:`MAX_TOTAL` components counted through nesting, at most :data:`MAX_TEXT`
    characters of text displays together; each type's own rules in :func:`_component`.
    ``attached`` names the files the message will carry (for ``attachment://`` media).
    Discord's codes for the two totals are not documented: the fake answers its generic
    ``BASE_TYPE_MAX_LENGTH`` on ``components``, the message saying which total."""
    if components is None:
        return
    state = _Checked(errors, attached)
    top = TOP_LAYOUT if layout else TOP_LEGACY
    if not layout:
        errors.max_len(["components"], components, 5)
    for i, comp in enumerate(components):
        _component(comp, ["components", i], top, state)
    if layout:
        total = sum(1 for _ in walk(components))
        if total > MAX_TOTAL:
            errors.add(
                ["components"], "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_TOTAL} or fewer in length."
            )
        if state.text > MAX_TEXT:
            errors.add(
                ["components"],
                "BASE_TYPE_MAX_LENGTH",
                f"Text displays must be {MAX_TEXT} or fewer in length together.",
            )


def _component(comp: Any, at: Path, allowed: tuple[int, ...], state: _Checked) -> None:
    """One component where it stands: its type allowed there (else Discord's
    ``UNION_TYPE_CHOICES`` on the component, as for a layout type in a legacy message:
    'Value of field "type" must be one of (1,).'), then the rules of its type."""
    if not isinstance(comp, dict) or comp.get("type") not in allowed:
        state.errors.one_of(at, allowed)
        return
    kind = comp["type"]
    errors = state.errors
    if kind == ACTION_ROW:
        _row(comp, at, state)
    elif kind == BUTTON:
        _button(comp, at, state)
    elif kind in SELECTS:
        _select(comp, at, state)
    elif kind == SECTION:
        _section(comp, at, state)
    elif kind == TEXT_DISPLAY:
        content = comp.get("content")
        if not isinstance(content, str):
            errors.required([*at, "content"])
        else:
            state.text += len(content)
    elif kind in (THUMBNAIL, MEDIA_GALLERY, FILE):
        _media(comp, at, state)
    elif kind == SEPARATOR:
        if comp.get("spacing") not in (None, 1, 2):
            errors.add([*at, "spacing"], "ENUM_TYPE_COERCE", "Invalid spacing.")
    elif kind == CONTAINER:
        accent = comp.get("accent_color")
        if accent is not None and not 0 <= int(accent) <= 0xFFFFFF:
            errors.add([*at, "accent_color"], "NUMBER_TYPE_MAX", "Invalid color.")
        for j, child in enumerate(comp.get("components") or []):
            _component(child, [*at, "components", j], IN_CONTAINER, state)


def _row(row: dict[str, Any], at: Path, state: _Checked) -> None:
    """``reference.mdx`` "Action Row": up to 5 buttons or a single select, never both
    (else ``COMPONENT_LAYOUT_WIDTH_EXCEEDED``, as Discord answers)."""
    errors = state.errors
    children = row.get("components") or []
    if not children:
        errors.length([*at, "components"], children, 1, 5)
        return
    kinds = {c.get("type") for c in children if isinstance(c, dict)}
    wide = "The specified component exceeds the maximum width"
    if BUTTON in kinds and kinds != {BUTTON}:
        errors.add([*at, "components"], "COMPONENT_LAYOUT_WIDTH_EXCEEDED", wide)
        return
    if kinds == {BUTTON}:
        errors.max_len([*at, "components"], children, 5)
    elif len(children) != 1:
        errors.add([*at, "components"], "COMPONENT_LAYOUT_WIDTH_EXCEEDED", wide)
    for c, child in enumerate(children):
        _component(child, [*at, "components", c], IN_ROW, state)


def _custom_id(comp: dict[str, Any], at: Path, state: _Checked) -> None:
    """``reference.mdx`` "Custom ID": required on interactive components, 1–100
    characters, unique within the message (nested components included)."""
    cid = comp.get("custom_id")
    if cid is None:
        state.errors.required([*at, "custom_id"])
        return
    state.errors.length([*at, "custom_id"], cid, 1, 100)
    if cid in state.custom_ids:
        state.errors.add(
            [*at, "custom_id"],
            "COMPONENT_CUSTOM_ID_DUPLICATED",
            "Component custom id cannot be duplicated",
        )
    state.custom_ids.add(cid)


def _button(comp: dict[str, Any], at: Path, state: _Checked) -> None:
    """``reference.mdx`` "Button": label max 80; non-link buttons need a custom_id and no
    url; link buttons (style 5) a url (max 512) and no custom_id; a label or an emoji."""
    errors = state.errors
    errors.max_len([*at, "label"], comp.get("label"), 80)
    if comp.get("style") == 5:
        if not comp.get("url") or comp.get("custom_id") is not None:
            errors.add(at, "BUTTON_COMPONENT_INVALID", "Link buttons need a url only.")
        errors.max_len([*at, "url"], comp.get("url"), 512)
        return
    if not 1 <= int(comp.get("style") or 0) <= 4:
        errors.add([*at, "style"], "ENUM_TYPE_COERCE", "Invalid button style.")
    if comp.get("url") is not None:
        errors.add(at, "BUTTON_COMPONENT_INVALID", "Only link buttons have a url.")
    if not comp.get("label") and not comp.get("emoji"):
        errors.add(at, "BUTTON_COMPONENT_INVALID", "A button needs a label or emoji.")
    _custom_id(comp, at, state)


def _select(comp: dict[str, Any], at: Path, state: _Checked) -> None:
    """``reference.mdx`` "String Select" (and the user, role, mentionable and channel
    selects): placeholder max 150, min/max values 0–25; a string select has 1–25
    options, each label and value 1–100 and description max 100."""
    errors = state.errors
    errors.max_len([*at, "placeholder"], comp.get("placeholder"), 150)
    for key in ("min_values", "max_values"):
        value = comp.get(key)
        if value is not None and not 0 <= int(value) <= 25:
            errors.add([*at, key], "NUMBER_TYPE_MAX", "int value should be less than 25.")
    if comp["type"] == STRING_SELECT:
        options = comp.get("options") or []
        errors.length([*at, "options"], options, 1, 25)
        for o, option in enumerate(options):
            for key in ("label", "value"):
                errors.length([*at, "options", o, key], option.get(key), 1, 100)
            errors.max_len([*at, "options", o, "description"], option.get("description"), 100)
    _custom_id(comp, at, state)


def _section(comp: dict[str, Any], at: Path, state: _Checked) -> None:
    """``reference.mdx`` "Section": one to three text displays ("Section Child
    Components") and a required accessory, a button or a thumbnail ("Section Accessory
    Components")."""
    children = comp.get("components") or []
    state.errors.length([*at, "components"], children, 1, 3)
    for j, child in enumerate(children):
        _component(child, [*at, "components", j], IN_SECTION, state)
    accessory = comp.get("accessory")
    if accessory is None:
        state.errors.required([*at, "accessory"])
    else:
        _component(accessory, [*at, "accessory"], ACCESSORY, state)


def _media(comp: dict[str, Any], at: Path, state: _Checked) -> None:
    """``reference.mdx`` "Media Gallery" (1 to 10 items), "Thumbnail", "File" and
    "Unfurled Media Item": each needs a media ``url``; alt text (``description``) max
    1024; an ``attachment://<filename>`` url must name a file uploaded with the message,
    and a File component takes nothing else ("only supports attachment references").
    Discord's code for an unknown attachment is not documented: the fake answers a form
    error on the url under a code of its own naming."""
    errors = state.errors
    pairs: list[tuple[Path, Any]]
    if comp["type"] == MEDIA_GALLERY:
        items = comp.get("items") or []
        errors.length([*at, "items"], items, 1, 10)
        pairs = [([*at, "items", i], item) for i, item in enumerate(items)]
    else:
        pairs = [(at, media_items(comp)[0])]
    key = "file" if comp["type"] == FILE else "media"
    for place, item in pairs:
        if not isinstance(item, dict):
            errors.required(place)
            continue
        errors.max_len([*place, "description"], item.get("description"), MAX_ALT)
        url = (item.get("media") or {}).get("url")
        if not isinstance(url, str) or not url:
            errors.required([*place, key, "url"])
            continue
        if url.startswith(ATTACHMENT):
            if url[len(ATTACHMENT) :] not in state.attached:
                errors.add(
                    [*place, key, "url"],
                    "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                    f"No attachment named {url[len(ATTACHMENT) :]!r} in this message.",
                )
        elif comp["type"] == FILE:
            errors.add([*place, key, "url"], "URL_TYPE_INVALID_SCHEME", "Not a valid scheme.")
