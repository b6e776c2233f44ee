"""Messages as Discord keeps them over time: snowflake ids that carry their time, a nonce
remembered only for a few minutes, and the channel's history to read back.

Why: the fake remembered every nonce for ever, so no test could show a post doubled by a
re-send that comes after Discord forgot its nonce (a long outage, a lease taken over after
a crash). Here the nonce is forgotten after :attr:`MessageHistory.nonce_window` seconds of
Discord's clock (``Core.now``: tests move it with ``skew`` instead of sleeping), and the
bot may read a channel's recent messages (``GET /channels/{id}/messages``) to find out
what really went out.
"""

from __future__ import annotations

from typing import Any

from .core import Core
from .errors import ApiError, FormErrors
from .models import Message

#: ``resources/message.mdx`` "Create Message", ``enforce_nonce``: "checked for uniqueness
#: in the past few minutes". How many is not documented; five here (tests may set less).
NONCE_WINDOW = 300.0


class MessageHistory(Core):
    """The nonce window and ``GET /channels/{channel.id}/messages``."""

    #: Seconds of Discord's clock a nonce is remembered (``enforce_nonce``).
    nonce_window: float = NONCE_WINDOW
    #: False: the bot lacks ``READ_MESSAGE_HISTORY`` ("no messages will be returned").
    bot_reads_history: bool = True

    def nonce_hit(self, channel_id: int, nonce: str) -> Message | None:
        """The message an ``enforce_nonce`` create returns instead of a new one: the
        channel's message with that nonce, made within :attr:`nonce_window` (``resources/
        message.mdx`` "Create Message": "If another message was created by the same author
        with the same nonce, that message will be returned and no new message will be
        created", "checked for uniqueness in the past few minutes")."""
        found = self.nonces.get((channel_id, nonce))
        message = self.messages.get(found) if found is not None else None
        if message is None or self.now() - message.created > self.nonce_window:
            return None
        return message

    async def _get_messages(self, params: dict[str, str], body: Any, files: Any) -> Any:
        """``resources/message.mdx`` "Get Channel Messages": newest to oldest; ``before``,
        ``after`` and ``around`` are mutually exclusive; ``limit`` 1–100, 50 by default;
        without ``READ_MESSAGE_HISTORY`` no messages. The ``nonce`` is left out: the docs
        say it appears in the Message Create event (the create's answer here too), and
        a read of the history cannot count on it."""
        channel = self._channel_of(params["channel_id"])
        errors = FormErrors()
        given = [k for k in ("before", "after", "around") if params.get(k)]
        if len(given) > 1:
            raise ApiError(400, 50035, "Invalid Form Body")
        limit_text = params.get("limit", "50")
        limit = int(limit_text) if limit_text.isdigit() else 0
        if not 1 <= limit <= 100:
            errors.add(["limit"], "NUMBER_TYPE_MAX", "int value should be between 1 and 100.")
        errors.raise_if_any()
        if not self.bot_reads_history:
            return []
        seen = sorted(
            (m for m in self.messages.values() if m.channel_id == channel and not m.ephemeral),
            key=lambda m: m.id,
        )
        if given == ["after"]:
            after = int(params["after"])
            chosen = [m for m in seen if m.id > after][:limit]
        elif given == ["before"]:
            before = int(params["before"])
            chosen = [m for m in seen if m.id < before][-limit:]
        elif given == ["around"]:
            around = int(params["around"])
            older = [m for m in seen if m.id < around][-(limit // 2) :] if limit > 1 else []
            chosen = older + [m for m in seen if m.id >= around][: limit - len(older)]
        else:
            chosen = seen[-limit:]
        out = []
        for m in reversed(chosen):
            item = self._message_json(m)
            item.pop("nonce", None)
            out.append(item)
        return out

    def _channel_of(self, channel_id: str) -> int:
        try:
            channel = self.channels[int(channel_id)]
        except (KeyError, ValueError):
            raise ApiError(404, 10003, "Unknown Channel") from None
        return int(channel["id"])
