"""``python -m bot.ops.health``: the container's health check (the Dockerfile's
``HEALTHCHECK``). Asks the running bot's ``/healthz`` (bot/ops/server.py) on
``TESSERA_METRICS_PORT``; exits 0 when it answers 200 within the time, else 1 with one line
saying why (Docker keeps that line in ``docker inspect``'s health log).

Why ask the bot rather than check the process from outside: the answer comes from the
bot's own event loop after it read the database and checked Discord, so a process that is
alive but stuck (a blocked loop, a database that does not answer) is reported unhealthy too.
"""

from __future__ import annotations

import sys
import urllib.error
import urllib.request

from pydantic import ValidationError

from bot.settings import Settings

#: Seconds to wait for the answer (the Dockerfile's HEALTHCHECK allows a little more).
TIMEOUT = 8.0
#: Where to ask when the endpoint listens on every address.
_ANY = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}


def health_url(settings: Settings) -> str | None:
    """The bot's health URL from its settings (None: the endpoint is off)."""
    if not settings.metrics_port:
        return None
    host = _ANY.get(settings.metrics_host, settings.metrics_host)
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{settings.metrics_port}/healthz"


def check(url: str, timeout: float = TIMEOUT) -> tuple[bool, str]:
    """(healthy, one line): the answer of ``url``."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            body = answer.read().decode("utf-8", "replace").strip()
            return answer.status == 200, f"{answer.status}: {body}"
    except urllib.error.HTTPError as exc:
        body = exc.read().decode("utf-8", "replace").strip().replace("\n", "; ")
        return False, f"{exc.code}: {body}"
    except (OSError, ValueError) as exc:  # refused, timed out, unreachable
        reason = getattr(exc, "reason", exc)
        return False, f"{url}: no answer ({reason})"


def main() -> int:
    try:
        settings = Settings()
    except ValidationError as exc:
        print(f"health: the settings cannot work: {exc.errors()[0]['msg']}")
        return 1
    url = health_url(settings)
    if url is None:
        print("health: TESSERA_METRICS_PORT is 0 (off); the health check asks the bot there")
        return 1
    healthy, line = check(url)
    print(f"health: {line}")
    return 0 if healthy else 1


if __name__ == "__main__":
    sys.exit(main())
