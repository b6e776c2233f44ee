"""What the bot may do in a channel, and telling a server's managers — once — when it may not.

Why: a server manager can take a permission from the bot at any time (a channel overwrite,
the bot's role). Discord then refuses the bot's posts with 403: 50001 "Missing Access"
where it cannot see the channel, 50013 "Missing Permissions" where it lacks something
(discord-api-docs ``topics/opcodes-and-status-codes.mdx`` "JSON Error Codes";
``topics/permissions.mdx``). Before this module, the outbox retried such a post with
backoff until it gave up and dropped it: the players saw their match stop and nobody
learnt why. Now:

- **Attach Files missing** (the case players meet most: a channel set to "no uploads"):
  the turn post goes out without its board, with a line saying the board cannot be shown
  and why (:meth:`Permits.attachable`). Players would rather keep playing from the move
  lines than wait for a picture; the next post shows the board again once the permission
  is back.
- **Anything else missing** (view the channel, send in threads, …): the post cannot go
  out at all. Its outbox row is *parked* with the reason ("missing permission: Send
  Messages in Threads") instead of being dropped, and retried when Discord tells the bot
  that a channel or role changed and the permission is back (``CHANNEL_UPDATE``,
  ``GUILD_ROLE_UPDATE``: :meth:`Permits.recheck`), or after at most
  :data:`PARK_SECONDS` otherwise (a restart forgets which rows are parked; their retry
  time keeps them). The match's later posts wait behind it, so they stay in order.
- **The managers are told once**: a DM to the server's owner, in the server's language,
  naming the permissions and the channel, through the outbox like every DM (durable, with
  a nonce). Why the owner and a DM: the owner can always change permissions (any other
  "manager" may not), and a DM needs no permission in the server — a message in the
  match's channel would need exactly what may be missing there, and every member would
  read it. Once per server, channel and permission for as long as it stays missing (per
  process: a restart may tell once more); it is told again if it goes missing again
  after coming back.

The bot works out what is missing from its gateway cache (``channel.permissions_for``,
the same computation as Discord's "Permission Overwrites"): Discord's 403 does not say
which permission it wanted.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.storage.rows import Notification, OutboxRow
from render.words.catalogue import t
from render.words.posts import listing

if TYPE_CHECKING:
    from bot.discord.client import TesseraBot

log = logging.getLogger(__name__)

#: ``topics/opcodes-and-status-codes.mdx`` "JSON Error Codes".
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
#: A parked post is tried again after a minute, then less often, at least every
#: ``PARK_SECONDS`` (at once when Discord says a permission came back): a person fixes a
#: permission in minutes, and a retry before that only earns another 403.
PARK_FIRST = 60.0
PARK_SECONDS = 900.0
#: What a post in a match's thread needs (``topics/permissions.mdx`` "Inherited
#: Permissions (Threads)": sending in a thread takes Send Messages in Threads).
THREAD_POST = ("view_channel", "send_messages_in_threads")
CHANNEL_POST = ("view_channel", "send_messages")

_CHANNEL_IN_URL = re.compile(r"/channels/(\d+)")


def channel_of(exc: discord.HTTPException) -> int | None:
    """The channel a refused request was for (the request's URL names it)."""
    url = str(getattr(getattr(exc, "response", None), "url", "") or "")
    found = _CHANNEL_IN_URL.search(url)
    return int(found.group(1)) if found else None


class Permits:
    """The bot's permissions as its cache knows them; parked posts; what managers were told."""

    def __init__(
        self, bot: TesseraBot, clock: Callable[[], float], wake: Callable[[], None]
    ) -> None:
        """``bot``: anything with discord.py's ``get_channel``, ``user`` and the service
        (the load tool's and tests' stand-ins have no cache: nothing is known missing);
        ``wake``: the outbox worker's, to deliver a parked post or a DM at once."""
        self.bot = bot
        self.clock = clock
        self.wake = wake
        #: (guild, channel, permission) already told to the server's owner
        self._told: set[tuple[int, int, str]] = set()
        #: outbox rows parked for a missing permission, by the channel they wait for
        self._parked: dict[int, set[int]] = {}

    # ----- what the cache says -----------------------------------------------------------
    def _channel(self, channel_id: int) -> discord.abc.GuildChannel | discord.Thread | None:
        get_channel = getattr(self.bot, "get_channel", None)
        channel = get_channel(channel_id) if get_channel is not None else None
        if isinstance(channel, discord.Thread | discord.abc.GuildChannel):
            return channel
        return None

    def missing(self, channel_id: int, needs: tuple[str, ...] | None = None) -> list[str]:
        """The permissions (discord.py's names) of ``needs`` the bot lacks in the channel;
        by default what posting there takes. Empty where the cache cannot tell (a DM, a
        channel not cached): the request then decides."""
        channel = self._channel(channel_id)
        if channel is None:
            return []
        if needs is None:
            needs = THREAD_POST if isinstance(channel, discord.Thread) else CHANNEL_POST
        me = channel.guild.me
        if me is None:
            return []
        try:
            have = channel.permissions_for(me)
        except discord.ClientException:  # a thread whose parent is not cached
            return []
        return [name for name in needs if not getattr(have, name)]

    # ----- the hooks delivery calls --------------------------------------------------------
    async def attachable(self, channel_id: int) -> bool:
        """Whether a post in the channel may carry files; when not, the managers are told
        (once) and the caller posts without them, saying why."""
        lacking = self.missing(channel_id, ("attach_files",))
        if lacking and not self.missing(channel_id):  # it can post, only not upload
            await self.tell(channel_id, lacking)
            return False
        return True

    async def parked(self, row: OutboxRow, exc: discord.HTTPException, now: float) -> bool:
        """A 403 for a missing permission or access: park ``row`` with the reason, tell the
        managers once, and return True (False: another refusal, the caller handles it)."""
        if exc.code not in (MISSING_ACCESS, MISSING_PERMISSIONS):
            return False
        channel_id = channel_of(exc)
        lacking = self.missing(channel_id) if channel_id is not None else []
        if not lacking and channel_id is not None:  # the cache lags: maybe the picture
            lacking = self.missing(channel_id, ("attach_files", "embed_links"))
        if not lacking and exc.code == MISSING_ACCESS:
            lacking = ["view_channel"]
        names = ", ".join(_english(p) for p in lacking) or "unknown (Discord said only 403)"
        reason = f"parked: missing permission {names} ({exc.code})"
        wait = min(PARK_SECONDS, PARK_FIRST * 2 ** max(0, row.attempts))
        await self.bot.service.store.mark_failed(row.id, reason, now + wait)
        if channel_id is not None:
            self._parked.setdefault(channel_id, set()).add(row.id)
            await self.tell(channel_id, lacking or ["?"])
        log.warning(
            "outbox %s %s in channel %s; retried when it is back", row.id, reason, channel_id
        )
        return True

    async def recheck(self) -> None:
        """A channel or role changed: parked posts whose channel now allows posting are due
        at once; a permission back is told again should it go missing later."""
        now = self.clock()
        woke = False
        for channel_id, rows in list(self._parked.items()):
            if self.missing(channel_id) or self._channel(channel_id) is None:
                continue
            for row_id in sorted(rows):
                await self.bot.service.store.mark_failed(row_id, "permission back: retry", now)
            del self._parked[channel_id]
            woke = True
        self._told = {
            (g, c, p)
            for g, c, p in self._told
            if p == "?" or p in self.missing(c, (p,)) or self._channel(c) is None
        }
        if woke:
            self.wake()

    # ----- telling the managers ------------------------------------------------------------
    async def tell(self, channel_id: int, lacking: list[str]) -> None:
        """DM the server's owner which permissions the bot lacks in which channel, once."""
        channel = self._channel(channel_id)
        if channel is None:
            return
        guild = channel.guild
        place = channel.parent if isinstance(channel, discord.Thread) else channel
        place_id = place.id if place is not None else channel.id
        new = [p for p in lacking if (guild.id, place_id, p) not in self._told]
        if not new:
            return
        self._told.update((guild.id, place_id, p) for p in new)
        lang = str(getattr(guild.preferred_locale, "value", guild.preferred_locale) or "en-US")
        names = [t(f"perm.{p}", lang) if p != "?" else t("perm.unknown", lang) for p in new]
        text = t(
            "perm.owner_dm",
            lang,
            server=guild.name,
            channel=f"<#{place_id}>",
            permissions=listing(names, lang),
        )
        owner = guild.owner_id
        log.warning(
            "the bot lacks %s in channel %s of server %s; telling its owner %s",
            ", ".join(new),
            place_id,
            guild.id,
            owner,
        )
        me = getattr(self.bot, "user", None)
        if owner is None or (me is not None and owner == me.id):
            return
        await self.bot.service.store.enqueue(
            None, [Notification("dm", {"user_id": str(owner), "text": text})]
        )
        self.wake()


def _english(permission: str) -> str:
    return t(f"perm.{permission}", None) if permission != "?" else "unknown"


def note_line(lang: Any) -> str:
    """The line a turn post carries instead of its board where files may not be attached."""
    return t("post.no_attach", lang)
