"""Discord's markup said as console text: what the console prints is plain.

Why here, at the console's edge: the catalogue, the posts, the stats and the rules write
for Discord, whose client draws ``**bold**`` as bold and ``<t:…>`` as a date; a terminal
prints the stars (issue 41: ``/stats`` showed ``**Stats of Alice**``). Rather than a console
twin of every text, everything the console prints passes :func:`plain_text` once
(``Console.run_line``), so a text added for Discord tomorrow reads plainly here too:

- bold, underline, strike-through and spoiler marks are dropped (the words stay);
- inline code (a command, a move to type) is put in single straight quotes, as terminal
  tools quote what is typed ('/notify back'): no language's quotation marks, so it stays
  apart from the words around it (and from a quoted name, “Alice”, „Alice”) in every
  language;
- a quote or heading mark at the start of a line becomes an indent, or goes;
- a masked link ``[text](url)`` becomes ``text (url)``;
- a timestamp ``<t:1700000000:R>`` becomes the date and time in UTC;
- a mention ``<@id>`` becomes the person's name (``@id`` when the console does not know
  them), a channel or role mention ``<#id>`` / ``<@&id>`` its ``#id``.

A lone ``*`` or ``_`` (``a * b``, ``reminder_hours``) is no markup and stays.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime

_CODE = re.compile(r"`([^`\n]+)`")
_PAIRS = re.compile(r"(\*\*|__|~~|\|\|)(?=\S)(.+?)(?<=\S)\1")
_LINE_MARK = re.compile(r"^(?:>{1,3}|#{1,3}|-#) ", re.MULTILINE)
_LINK = re.compile(r"\[([^\]\n]+)\]\((https?://[^)\s]+)\)")
_TIMESTAMP = re.compile(r"<t:(-?\d+)(?::([tTdDfFR]))?>")
_MENTION = re.compile(r"<@!?([^>&\s]+)>")
_OTHER_MENTION = re.compile(r"<(?:#|@&)(\d+)>")
_BARE_LINK = re.compile(r"<(https?://[^>\s]+)>")


def plain_text(text: str, names: Mapping[str, str]) -> str:
    """``text`` without Discord's markup; ``names`` are the display names of the user ids a
    mention may name."""
    text = _CODE.sub(r"'\1'", text)
    previous = None
    while previous != text:  # nested marks (**__both__**) come off one layer at a time
        previous, text = text, _PAIRS.sub(r"\2", text)
    text = _LINE_MARK.sub(lambda m: "  " if m.group(0).startswith(">") else "", text)
    text = _LINK.sub(r"\1 (\2)", text)
    text = _BARE_LINK.sub(r"\1", text)
    text = _TIMESTAMP.sub(lambda m: _when(int(m.group(1)), m.group(2) or "f"), text)
    text = _MENTION.sub(lambda m: names.get(m.group(1)) or f"@{m.group(1)}", text)
    return _OTHER_MENTION.sub(r"#\1", text)


def _when(seconds: int, style: str) -> str:
    """A Discord timestamp as the console shows a time: the same for every reader, in
    UTC; a date style (``d``/``D``: an away period, a first match) stays a date, a time
    style (``t``/``T``) a time, and the rest (``f``/``F``, relative ``R``) both, since a
    terminal's words do not move on as Discord's "in 2 hours" does."""
    moment = datetime.fromtimestamp(seconds, UTC)
    if style in "dD":
        return moment.strftime("%Y-%m-%d")
    if style in "tT":
        return moment.strftime("%H:%M UTC")
    return moment.strftime("%Y-%m-%d %H:%M UTC")
