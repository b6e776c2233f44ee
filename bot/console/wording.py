"""The console's own wording of texts whose Discord wording only makes sense on Discord.

Why a table: the service and the posts name Discord's ways to act — a button to click, a
slash option written ``seat:N`` or ``refuse:True`` — and the console, which prints the same
posts and refusals, has none of them (issue 41: its /hint said "click one to play it").
Every text the console prints passes :func:`for_console`, which puts the console's wording
(typed commands) in place of each such key, wherever it sits in a post's stored words.
"""

from __future__ import annotations

from typing import Any

from rules.words import Msg, to_json

#: A Discord-worded key → the console's wording of the same text (same parameters).
CONSOLE_WORDS: dict[str, str] = {
    "hint.head": "console.hint_head",
    "svc.button_stale": "console.button_stale",
    "undo.request": "console.undo_request",
    "undo.request_seen": "console.undo_request_seen",
    "undo.request_computers": "console.undo_request_computers",
    "sub.computer_needs_seat": "console.sub_computer_needs_seat",
    "sub.bot": "console.sub_bot",
    "sub.own_computer": "console.sub_own_computer",
    "sub.seat_taken": "console.sub_seat_taken",
    "sub.vote_already_open": "console.sub_vote_already_open",
    "sub.offer_post": "console.sub_offer_post",
    "sub.vote_post": "console.sub_vote_post",
    "sub.left_post": "console.sub_left_post",
}


def console_key(key: str) -> str:
    """``key``, or the console's wording of it."""
    return CONSOLE_WORDS.get(key, key)


def for_console(value: Any) -> Any:
    """Stored words (a post's, a refusal's) with every Discord-worded key replaced by its
    console wording, at any depth (a key may be a parameter of another)."""
    if isinstance(value, Msg) and value.key in CONSOLE_WORDS:
        return for_console(to_json(value))  # said from its stored form
    if isinstance(value, dict):
        out = {k: for_console(v) for k, v in value.items()}
        if isinstance(out.get("key"), str):
            out["key"] = console_key(out["key"])
        return out
    if isinstance(value, list):
        return [for_console(v) for v in value]
    return value
