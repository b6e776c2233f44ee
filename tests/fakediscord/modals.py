"""Modals (forms): what Discord refuses in one, and a member submitting one.

From Discord's documentation source (``developers/``):
- ``interactions/receiving-and-responding.mdx`` "Interaction Response Object" "Modal":
  ``custom_id`` 1–100 characters, ``title`` max 45, "Between 1 and 5 (inclusive)
  components"; "Interaction Callback Type": MODAL (9) answers an application command or a
  component, never a modal submit;
- ``components/reference.mdx`` "Component Types" (the "Usage" column: what a modal may
  hold), "Label" (type 18: ``label`` max 45, ``description`` max 100, one child of
  "Label Child Components"), "String Select" (in a modal inside a Label; "Using
  ``disabled`` in a modal will result in an error"; ``required`` defaults to true;
  ``min_values`` "must be either omitted or at least 1 if ``required`` is omitted or
  true"), "Text Input" (inside a Label; ``min_length``/``max_length`` 0–4000);
- "Modal Submit Data Structure" and the String Select's "Modal Submit Interaction Data
  Example": the submit carries ``custom_id`` and, per Label, ``{"type": 18, "id",
  "component": {"type": 3, "id", "custom_id", "values"}}`` (``type``, not
  ``component_type``, in a modal).
"""

from __future__ import annotations

import copy
from typing import Any

from .components import STRING_SELECT, TEXT_DISPLAY, _Checked, _select
from .errors import FormErrors

LABEL, TEXT_INPUT = 18, 4
#: "Label Child Components".
IN_LABEL = (TEXT_INPUT, 3, 5, 6, 7, 8, 19, 21, 22, 23)
#: "Component Types", Usage "Modal" at the top level: a Label or a Text Display (an
#: action row of text inputs is deprecated; our bot never sends one).
TOP_MODAL = (LABEL, TEXT_DISPLAY)


def check_modal(data: dict[str, Any]) -> None:
    """Refuse a modal as Discord would (400, 50035 with the field errors)."""
    errors = FormErrors()
    errors.length(["data", "custom_id"], data.get("custom_id"), 1, 100)
    title = data.get("title")
    if not title:
        errors.required(["data", "title"])
    errors.max_len(["data", "title"], title, 45)
    components = data.get("components") or []
    errors.length(["data", "components"], components, 1, 5)
    state = _Checked(errors, attached=())
    for c, comp in enumerate(components):
        at: list[Any] = ["data", "components", c]
        if not isinstance(comp, dict) or comp.get("type") not in TOP_MODAL:
            errors.one_of([*at, "type"], TOP_MODAL)
            continue
        if comp["type"] == TEXT_DISPLAY:
            errors.length([*at, "content"], comp.get("content"), 1, 4000)
            continue
        label = comp.get("label")
        if not label:
            errors.required([*at, "label"])
        errors.max_len([*at, "label"], label, 45)
        errors.max_len([*at, "description"], comp.get("description"), 100)
        child = comp.get("component")
        if not isinstance(child, dict) or child.get("type") not in IN_LABEL:
            errors.one_of([*at, "component", "type"], IN_LABEL)
            continue
        _field(child, [*at, "component"], state)
    errors.raise_if_any()


def _field(comp: dict[str, Any], at: list[Any], state: _Checked) -> None:
    errors = state.errors
    if comp.get("disabled"):
        errors.add(
            [*at, "disabled"], "COMPONENT_INVALID", "Modals cannot have disabled components."
        )
    if comp["type"] == TEXT_INPUT:
        for key in ("min_length", "max_length"):
            value = comp.get(key)
            if value is not None and not 0 <= int(value) <= 4000:
                errors.add([*at, key], "NUMBER_TYPE_MAX", "int value should be less than 4000.")
        errors.length([*at, "custom_id"], comp.get("custom_id"), 1, 100)
        return
    if comp.get("required", True) and comp.get("min_values") == 0:
        errors.add([*at, "min_values"], "NUMBER_TYPE_MIN", "A required select needs a value.")
    _select(comp, at, state)


def fields(modal: dict[str, Any]) -> list[dict[str, Any]]:
    """The modal's input components (each Label's child), in order."""
    return [c["component"] for c in modal.get("components") or [] if c.get("type") == LABEL]


def submit_data(modal: dict[str, Any], values: dict[str, str | list[str]]) -> dict[str, Any]:
    """What Discord sends when a member submits ``modal`` with ``values`` (custom id -> a
    select's chosen values or a text input's text); an input not named keeps its default
    (a select's ``default`` options). A value a select does not offer, or a required input
    left empty, cannot be submitted: the client does not let the member (AssertionError)."""
    out: list[dict[str, Any]] = []
    ids = iter(range(1, 1000))
    for comp in modal.get("components") or []:
        if comp.get("type") != LABEL:
            continue
        child = copy.deepcopy(comp["component"])
        cid = child["custom_id"]
        given = values.get(cid)
        if child["type"] == TEXT_INPUT:
            text = given if isinstance(given, str) else child.get("value", "")
            if child.get("required", True) and not text:
                raise AssertionError(f"{cid}: a required text input left empty")
            answer = {"type": TEXT_INPUT, "id": next(ids), "custom_id": cid, "value": text}
        else:
            offered = [o["value"] for o in child.get("options") or []]
            if given is None:
                chosen = [o["value"] for o in child.get("options") or [] if o.get("default")]
            else:
                chosen = [given] if isinstance(given, str) else list(given)
            if not set(chosen) <= set(offered):
                raise AssertionError(f"{cid}: {chosen} not among the options {offered}")
            if child.get("required", True) and not chosen:
                raise AssertionError(f"{cid}: a required select left empty")
            answer = {"type": STRING_SELECT, "id": next(ids), "custom_id": cid, "values": chosen}
        out.append({"type": LABEL, "id": next(ids), "component": answer})
    return {"custom_id": modal["custom_id"], "components": out}
