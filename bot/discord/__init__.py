"""The Discord front end. ``python -m bot`` calls :func:`run_discord` when a token is set."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys

from bot.service import MatchService
from bot.settings import Settings

log = logging.getLogger(__name__)


async def run_discord(settings: Settings, *, sync: bool) -> int:
    """Connect, serve until SIGINT/SIGTERM, then close Discord and the database cleanly.

    ``sync=True`` (the ``--sync`` flag) publishes the slash commands once at start-up;
    otherwise they are left as they are (sync is explicit, never on every start).
    Returns the process exit code: 1 when Discord refuses the token (one line on stderr
    says so, rather than a traceback).
    """
    import discord

    from bot.discord.client import make_bot, use_api

    if not settings.discord_token:
        raise RuntimeError("DISCORD_TOKEN is not set")
    use_api(settings.discord_api)
    discord_logger = logging.getLogger("discord")
    discord_logger.setLevel(settings.log_level.upper())
    # The bot has no voice: discord.py's warnings about missing voice libraries are noise.
    logging.getLogger("discord.client").addFilter(
        lambda record: "voice will NOT be supported" not in record.getMessage()
    )
    service = await MatchService.open(settings.database, render_workers=settings.render_workers)
    bot = make_bot(settings, service, sync_on_start=sync)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    try:
        async with bot:
            runner = asyncio.create_task(bot.start(settings.discord_token), name="discord")
            stopper = asyncio.create_task(stop.wait(), name="stop-signal")
            done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
            if runner in done:
                try:
                    runner.result()  # re-raise a login failure
                except discord.LoginFailure:
                    print(
                        "Discord refused the bot token: check DISCORD_TOKEN "
                        "(Developer Portal → your application → Bot → Reset Token).",
                        file=sys.stderr,
                    )
                    return 1
            log.info("shutting down")
            await bot.close()
            stopper.cancel()
            try:  # start() returns once closed; cancel it if it has not
                await asyncio.wait_for(runner, timeout=5)
            except (asyncio.CancelledError, Exception):
                log.debug("runner did not finish cleanly", exc_info=True)
    finally:
        await service.close()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(sig)
    return 0


__all__ = ["run_discord"]
