"""Per-route buckets for every route the bot uses, shaped as Discord's.

``topics/rate-limits.mdx``: "Per-route rate limits exist for many individual endpoints,
and may include the HTTP method (GET, POST, PUT, or DELETE). In some cases, per-route
limits will be shared across a set of similar endpoints"; "During calculation, per-route
rate limits often account for top-level resources within the path" (a channel, a guild,
a webhook id with its token); and "you should not hard code rate limits into your app"
— the numbers are not documented, a client must follow the ``X-RateLimit-*`` headers.

So each route the bot calls has a bucket here (:mod:`.ratelimit` keys it by the route
and its top-level resource and answers 429 with Discord's body and headers): the counts
are those Discord's headers show for these routes (5 messages per channel, 5 edits per
channel, 5 webhook calls per webhook and token, …), the windows short so the suite stays
fast. Routes the bot never uses keep the fake's default (:class:`.core.Core`'s
``default_limit``). Interaction callbacks are left out: each interaction has exactly
one, and "Interaction endpoints are not bound to the bot's Global Rate Limit".
"""

from __future__ import annotations

#: method + route template -> (requests, seconds) per top-level resource.
ROUTES: dict[str, tuple[int, float]] = {
    # channel posts and edits (turn posts, folded plies, reminders): per channel
    "POST /channels/{channel_id}/messages": (5, 5.0),
    "PATCH /channels/{channel_id}/messages/{message_id}": (5, 5.0),
    # match threads (/game new) and their keep-alive edit; a channel read when not cached
    "POST /channels/{channel_id}/threads": (5, 5.0),
    "PATCH /channels/{channel_id}": (5, 5.0),
    "GET /channels/{channel_id}": (5, 1.0),
    # a league match's thread looked for before it is made again (bot/discord/league_posts.py)
    "GET /guilds/{guild_id}/threads/active": (5, 1.0),
    # a post's re-send looks first at the channel's recent messages (bot/discord/resend.py)
    "GET /channels/{channel_id}/messages": (10, 1.0),
    # opening a DM (turn alerts by DM, the owner's permission DM): one bucket for the bot
    "POST /users/@me/channels": (5, 5.0),
    # interaction follow-ups and edits of the original response: per webhook and token
    "POST /webhooks/{application_id}/{token}": (5, 2.0),
    "PATCH /webhooks/{application_id}/{token}/messages/{message_id}": (5, 2.0),
    "GET /webhooks/{application_id}/{token}/messages/{message_id}": (5, 2.0),
    "DELETE /webhooks/{application_id}/{token}/messages/{message_id}": (5, 2.0),
    # command sync (start-up, /sync): per application (and guild)
    "PUT /applications/{application_id}/commands": (2, 5.0),
    "PUT /applications/{application_id}/guilds/{guild_id}/commands": (2, 5.0),
}


def routes(overrides: dict[str, tuple[int, float]] | None = None) -> dict[str, tuple[int, float]]:
    """Every route's bucket, with a test's own limits over them."""
    return {**ROUTES, **(overrides or {})}


def tight(seconds: float = 1.0) -> dict[str, tuple[int, float]]:
    """One request per ``seconds`` on every route the bot uses: any burst is 429'd."""
    return {route: (1, seconds) for route in ROUTES}
