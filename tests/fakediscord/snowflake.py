"""Message ids that carry their time, as Discord's do."""

from __future__ import annotations

#: ``reference.mdx`` "Snowflakes": the timestamp is milliseconds since Discord's epoch, the
#: first second of 2015.
DISCORD_EPOCH_MS = 1_420_070_400_000


def message_snowflake(wall: float, last: int) -> int:
    """A message id for a message made at ``wall`` (seconds since 1970): the timestamp in
    the high bits (``reference.mdx`` "Snowflakes"), and greater than ``last`` (ids made
    in one millisecond count up in the low bits, as the increment does)."""
    return max(last + 1, (int(wall * 1000) - DISCORD_EPOCH_MS) << 22)
