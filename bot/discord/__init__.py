"""The Discord front end. ``python -m bot`` calls :func:`run_discord` when a token is set."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import socket
import sys

from bot.matches.service import MatchService
from bot.settings import Settings
from render.words.catalogue import t

log = logging.getLogger(__name__)

#: Exit code when the bot cannot start (bad token, no network): like a command line that
#: cannot work, the person starting it has to change something first.
START_FAILED = 2


def start_failure(exc: BaseException, settings: Settings) -> str | None:
    """One line saying why the bot could not start and how to fix it, or None for an
    error that is no start failure (a bug: its traceback is worth seeing).

    Why these: a mistyped or reset token (Discord answers 401), a privileged intent the
    Developer Portal has not turned on, and no way to reach Discord at all (no network,
    a DNS failure, a proxy or local Discord that is not running)."""
    import aiohttp
    import discord
    from yarl import URL

    if isinstance(exc, discord.LoginFailure):
        return t("cli.bad_token", None)
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return t("cli.intents", None)
    if isinstance(exc, aiohttp.ClientConnectionError | OSError | TimeoutError):
        url = URL(settings.discord_api)
        host = f"{url.host}:{url.explicit_port}" if url.explicit_port else url.host
        cause = getattr(exc, "os_error", exc)  # aiohttp wraps the system's error
        if isinstance(cause, socket.gaierror):  # no DNS: its own words
            reason = cause.strerror or str(cause)
        elif isinstance(cause, OSError) and cause.errno:  # "Connection refused", …
            reason = os.strerror(cause.errno)
        else:
            reason = str(cause) or type(cause).__name__
        return t("cli.no_network", None, host=host or settings.discord_api, reason=reason)
    return None


async def run_discord(settings: Settings, *, sync: bool) -> int:
    """Connect, serve until SIGINT/SIGTERM, then close Discord and the database cleanly.

    ``sync=True`` (the ``--sync`` flag) publishes the slash commands once at start-up;
    otherwise they are left as they are (sync is explicit, never on every start).
    Returns the process exit code: 2 when the bot cannot start — a token Discord refuses,
    no network (one line on stderr says which and how to fix it, rather than a traceback).
    """
    from bot.discord.client import make_bot, use_api
    from bot.ops.probes import discord_trace
    from bot.ops.server import OpsServer

    if not settings.discord_token:
        raise RuntimeError("DISCORD_TOKEN is not set")
    ops = OpsServer.from_settings(settings)  # /metrics and /healthz (bot/ops/server.py)
    if ops is not None and (refused := await ops.start()):
        print(refused, file=sys.stderr)
        return START_FAILED
    use_api(settings.discord_api)
    discord_logger = logging.getLogger("discord")
    discord_logger.setLevel(settings.log_level.upper())
    # The bot has no voice: discord.py's warnings about missing voice libraries are noise.
    logging.getLogger("discord.client").addFilter(
        lambda record: "voice will NOT be supported" not in record.getMessage()
    )
    service = await MatchService.open(settings.database, render_workers=settings.render_workers)
    bot = make_bot(settings, service, sync_on_start=sync, http_trace=discord_trace())
    if ops is not None:
        ops.watch(service.store, ready=bot.is_ready, computer_turns=bot.computers.turns_pending)
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
                    runner.result()  # re-raise a failure to start
                except Exception as exc:
                    words = start_failure(exc, settings)
                    if words is None:
                        raise
                    print(words, file=sys.stderr)
                    return START_FAILED
            log.info("shutting down")
            await bot.close()
            stopper.cancel()
            try:  # start() returns once closed; cancel it if it has not
                await asyncio.wait_for(runner, timeout=5)
            except (asyncio.CancelledError, Exception):
                log.debug("runner did not finish cleanly", exc_info=True)
    finally:
        if ops is not None:
            await ops.close()
        await service.close()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(sig)
    return 0


__all__ = ["run_discord"]
