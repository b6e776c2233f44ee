"""Rate-limit buckets as ``topics/rate-limits.mdx`` describes them.

- Per-route limits, keyed by a bucket and the route's top-level resource (channel, guild,
  webhook id + token: "During calculation, per-route rate limits often account for
  top-level resources within the path"); every answer carries the "Header Format"
  headers (``X-RateLimit-Limit``, ``-Remaining``, ``-Reset``, ``-Reset-After``,
  ``-Bucket``).
- Exceeding one gives 429 with the "Rate Limit Response Structure" body
  (``message``, ``retry_after``, ``global``), a ``Retry-After`` header and
  ``X-RateLimit-Scope``.
- "Global Rate Limit": 50 requests per second per bot across routes, except the
  interaction endpoints ("Interaction endpoints are not bound to the bot's Global Rate
  Limit"); a global 429 has ``X-RateLimit-Global: true`` and ``global: true``.

The docs tell clients not to hard-code values, so limits here are parameters: the tests
choose windows short enough to keep the suite fast.
"""

from __future__ import annotations

import math
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class Window:
    limit: int
    seconds: float
    used: int = 0
    reset_at: float = 0.0


class Limited(Exception):
    def __init__(self, retry_after: float, headers: dict[str, str], *, is_global: bool) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after
        self.headers = headers
        self.is_global = is_global


class RateLimits:
    def __init__(
        self,
        routes: dict[str, tuple[int, float]],
        default: tuple[int, float],
        global_per_second: int = 50,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.routes = routes
        self.default = default
        self.global_per_second = global_per_second
        self.clock = clock
        self.windows: dict[tuple[str, str], Window] = {}
        self.global_window = Window(global_per_second, 1.0)

    def _take(self, window: Window, now: float) -> bool:
        if now >= window.reset_at:
            window.used = 0
            window.reset_at = now + window.seconds
        if window.used >= window.limit:
            return False
        window.used += 1
        return True

    def check(self, bucket: str, major: str, *, interaction: bool) -> dict[str, str]:
        """Count one request; return the headers for the answer or raise :class:`Limited`."""
        now = self.clock()
        limit, seconds = self.routes.get(bucket, self.default)
        window = self.windows.setdefault((bucket, major), Window(limit, seconds))
        if not interaction and not self._take(self.global_window, now):
            retry = max(0.001, self.global_window.reset_at - now)
            raise Limited(
                retry,
                {
                    "Retry-After": str(math.ceil(retry)),
                    "X-RateLimit-Global": "true",
                    "X-RateLimit-Scope": "global",
                },
                is_global=True,
            )
        ok = self._take(window, now)
        reset_after = max(0.0, window.reset_at - now)
        headers = {
            "X-RateLimit-Limit": str(window.limit),
            "X-RateLimit-Remaining": str(max(0, window.limit - window.used)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket_hash(bucket),
        }
        if not ok:
            raise Limited(
                max(0.001, reset_after),
                {
                    **headers,
                    "Retry-After": str(math.ceil(reset_after)),
                    "X-RateLimit-Scope": "user",
                },
                is_global=False,
            )
        return headers


def bucket_hash(bucket: str) -> str:
    """An opaque bucket id, stable per route template (like Discord's hashes)."""
    return format(zlib.crc32(bucket.encode()), "08x")
