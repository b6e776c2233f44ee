"""The interaction endpoints: the initial response, follow-ups, editing the replies.

``interactions/receiving-and-responding.mdx`` "Interaction Callback", "Interaction
Callback Type", "Create Followup Message", "Edit Original Interaction Response"; every
message they create or edit passes :func:`.limits.check_message` (a layout message's
rules included) and an edit keeps the message's visibility.
"""

from __future__ import annotations

from typing import Any

from .core import Core
from .errors import ApiError
from .limits import EPHEMERAL, check_choices, check_message
from .modals import check_modal
from .models import LOADING, Interaction, Message

#: ``interactions/receiving-and-responding.mdx`` "Interaction Callback": 3 s for the
#: initial response, 15 minutes for the token.
ACK_SECONDS = 3.0
TOKEN_SECONDS = 15 * 60.0


class InteractionEndpoints(Core):
    """The interaction endpoints of :class:`.server.FakeDiscord`."""

    def _interaction(self, interaction_id: str, token: str) -> Interaction:
        try:
            inter = self.interactions[int(interaction_id)]
        except (KeyError, ValueError):
            raise ApiError(404, 10062, "Unknown interaction") from None
        if inter.token != token:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        return inter

    def _by_token(self, application_id: str, token: str) -> Interaction:
        """Follow-ups and edits use the interaction token for 15 minutes
        ("Followup Messages": "Interaction tokens are valid for 15 minutes")."""
        if application_id != str(self.APP_ID):
            raise ApiError(404, 10015, "Unknown Webhook")
        for inter in self.interactions.values():
            if inter.token == token:
                if self.now() > inter.created + TOKEN_SECONDS:
                    raise ApiError(401, 50027, "Invalid Webhook Token")
                if inter.callback is None:
                    raise ApiError(404, 10015, "Unknown Webhook")
                return inter
        raise ApiError(404, 10015, "Unknown Webhook")

    async def _callback(
        self, params: dict[str, str], body: Any, files: list[tuple[str, int]]
    ) -> Any:
        """Create Interaction Response (``interactions/receiving-and-responding.mdx``
        "Interaction Callback"): within 3 s of the event, else 10062 "Unknown interaction";
        once only, else 40060 "Interaction has already been acknowledged"; a callback type
        allowed for the interaction type ("Interaction Callback Type": 6 and 7 only for
        components, 8 only answering autocomplete); a deferred response may only carry the
        EPHEMERAL flag ("Interaction Callback Data Structure", footnote: "the only valid
        message flag you may use is EPHEMERAL. If you'd like to create a component based
        message with IS_COMPONENTS_V2 you must do that with the edit original response
        endpoint"); UPDATE_MESSAGE (7) edits the component's message as an edit does."""
        inter = self._interaction(params["interaction_id"], params["token"])
        if self.now() > inter.created + ACK_SECONDS:
            raise ApiError(404, 10062, "Unknown interaction")
        if inter.callback is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        body = body or {}
        rtype = body.get("type")
        data = body.get("data") or {}
        allowed = {2: (4, 5, 9), 3: (4, 5, 6, 7, 9), 4: (8,), 5: (4, 5, 6, 7)}[inter.type]
        if rtype not in allowed:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                {
                    "type": {
                        "_errors": [
                            {
                                "code": "INTERACTION_RESPONSE_TYPE_INVALID",
                                "message": "Invalid interaction response type",
                            }
                        ]
                    }
                },
            )
        flags = int(data.get("flags") or 0)
        resource: dict[str, Any] | None = None
        if rtype == 8:
            check_choices(data.get("choices"))
            inter.choices = data.get("choices") or []
        elif rtype == 4:
            check_message(data, files, callback=True)
            m = self._new_message(inter.channel_id, data, files, flags=flags, interaction=inter)
            inter.original_id = m.id
            resource = {"type": 4, "message": self._message_json(m)}
        elif rtype == 5:
            if flags & ~EPHEMERAL:
                raise ApiError(400, 50035, "Invalid Form Body", {"data": {"flags": {}}})
            m = self._new_message(
                inter.channel_id, {}, [], flags=(flags & EPHEMERAL) | LOADING, interaction=inter
            )
            inter.original_id = m.id
        elif rtype == 7:
            target = self.messages[inter.message_id or 0]
            self._check_edit(target, data, files)
            self._edit(target, data, files)
            inter.original_id = target.id
            resource = {"type": 7, "message": self._message_json(target)}
        elif rtype == 6:
            inter.original_id = inter.message_id
        elif rtype == 9:  # a form on the member's screen; no message
            check_modal(data)
            inter.modal = data
        inter.callback = rtype
        original = self.messages.get(inter.original_id or 0)
        out: dict[str, Any] = {
            "interaction": {
                "id": str(inter.id),
                "type": inter.type,
                **({"response_message_id": str(original.id)} if original else {}),
                "response_message_loading": bool(original and original.loading),
                "response_message_ephemeral": bool(original and original.ephemeral),
            }
        }
        if resource:
            out["resource"] = resource
        return out

    async def _followup(
        self, params: dict[str, str], body: Any, files: list[tuple[str, int]]
    ) -> Any:
        """Create Followup Message. "When using this endpoint directly after responding to
        an interaction with DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, this endpoint will function
        as Edit Original Interaction Response … The ephemeral flag will be ignored, and the
        value you provided in the initial defer response will be preserved": that first
        follow-up replaces the "thinking" message (its flags, IS_COMPONENTS_V2 included,
        apply to it; its visibility stays the deferral's); later ones are new messages."""
        inter = self._by_token(params["application_id"], params["token"])
        body = body or {}
        check_message(body, files, callback=True)
        original = self.messages.get(inter.original_id or 0)
        inter.followups_seen += 1
        if inter.callback == 5 and original is not None and original.loading:
            self._edit(original, body, files)
            if original not in inter.replies:
                inter.replies.append(original)
            return self._message_json(original)
        flags = int(body.get("flags") or 0)
        m = self._new_message(inter.channel_id, body, files, flags=flags, interaction=inter)
        return self._message_json(m)

    def _reply(self, params: dict[str, str]) -> tuple[Interaction, Message]:
        inter = self._by_token(params["application_id"], params["token"])
        mid = params["message_id"]
        target = inter.original_id if mid == "@original" else int(mid)
        m = self.messages.get(target or 0)
        if m is None or (mid != "@original" and m.interaction_id != inter.id):
            raise ApiError(404, 10008, "Unknown Message")
        return inter, m

    async def _edit_reply(
        self, params: dict[str, str], body: Any, files: list[tuple[str, int]]
    ) -> Any:
        """Edit Original Interaction Response / Edit Followup Message (same limits as a
        message, a layout message's edit rules included; an edit keeps the message's
        visibility). Editing the deferred "thinking" message is how a layout reply follows
        a deferral: the edit sets its IS_COMPONENTS_V2 flag."""
        inter, m = self._reply(params)
        body = body or {}
        self._check_edit(m, body, files)
        self._edit(m, body, files)
        if m not in inter.replies:
            inter.replies.append(m)
        return self._message_json(m)

    async def _get_reply(self, params: dict[str, str], body: Any, files: Any) -> Any:
        return self._message_json(self._reply(params)[1])

    async def _delete_reply(self, params: dict[str, str], body: Any, files: Any) -> Any:
        inter, m = self._reply(params)
        del self.messages[m.id]
        if m in inter.replies:
            inter.replies.remove(m)
        return None

    def _check_edit(self, m: Message, body: dict[str, Any], files: list[tuple[str, int]]) -> None:
        """An interaction's edit of ``m`` against the limits, as the message it leaves."""
        after = [name for name, _ in self._files_after(m, body, files)]
        check_message(body, files, callback=True, edit=True, before=m.before(), attached=after)
