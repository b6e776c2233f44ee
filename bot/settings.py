"""Settings from the environment or a ``.env`` file (pydantic-settings).

Every field is documented in ``.env.example``; keep the two in step.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

#: Discord's REST API, version 10 (the version discord.py 2.7 speaks).
DISCORD_API = "https://discord.com/api/v10"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="TESSERA_",
        env_file=".env",
        env_file_encoding="utf-8",
        env_ignore_empty=True,
        extra="ignore",
    )

    discord_token: str = Field(
        default="", validation_alias=AliasChoices("DISCORD_TOKEN", "TESSERA_DISCORD_TOKEN")
    )
    database_path: Path = Path("tessera.db")
    #: ``postgresql://user:password@host:port/database`` selects PostgreSQL (several bot
    #: processes can share it); empty: SQLite at ``database_path``.
    database_url: str = ""
    #: PostgreSQL connections one process may hold (1-100). Every process has its own pool:
    #: processes × this must stay below the server's ``max_connections`` (default 100, 3 of
    #: them kept for superusers): 5 fits 19 processes (97 // 5), with 2 left for tools.
    db_pool_size: int = Field(default=5, ge=1, le=100)
    #: Seconds a PostgreSQL statement may take (above 0, at most 600) before the server
    #: cancels it; the bot gives up on a server that does not answer at all a second later.
    db_statement_timeout: float = Field(default=5.0, gt=0, le=600)
    #: Seconds to wait for PostgreSQL to accept a new connection (above 0, at most 120).
    db_connect_timeout: float = Field(default=5.0, gt=0, le=120)
    #: Seconds a PostgreSQL connection may sit idle before TCP keep-alive probes check the
    #: link (1-3600; probes every third of it, three missed: the connection is dropped).
    db_keepalive_seconds: int = Field(default=30, ge=1, le=3600)
    #: The Discord shards this process runs, ``FIRST-LAST/COUNT`` (``0-3/8``) or
    #: ``A,B/COUNT``; empty: one process runs the whole bot unsharded.
    shards: str = ""
    #: Seconds a process holds claimed outbox or scheduler work before another process may
    #: take it over (how long a dead process's posts wait).
    lease_seconds: float = Field(default=60.0, gt=0)
    #: "global" syncs commands everywhere (takes up to an hour to show); "guild" syncs to
    #: ``dev_guild_id`` only (instant), for development.
    sync_mode: Literal["global", "guild"] = "global"
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    #: Where the local console saves pictures (the demo writes to its own ``--out``).
    picture_dir: Path = Path("pictures")
    #: Worker processes drawing pictures at once (one per core is right; see
    #: bot/matches/render_pool.py for why processes and not threads).
    render_workers: int = Field(default=2, ge=1, le=16)
    #: Default reminder interval for a player who has not moved (hours; 0 = no reminders).
    reminder_hours: float = Field(default=24.0, ge=0)
    #: Reminders sent per turn before they stop.
    reminder_max: int = Field(default=3, ge=0, le=50)
    #: Default clock per move in days (0 = no clock).
    deadline_days: float = Field(default=0.0, ge=0)
    #: What happens when a clock runs out: "skip" makes the late seat's move (the game's
    #: pass, else the easy computer move); "forfeit" hands the seat to a computer player
    #: (two players: the other wins). See bot/matches/clocks.py.
    deadline_action: Literal["skip", "forfeit"] = "skip"
    #: Worker processes in which computer players think and hints are computed (each
    #: search runs for the match's time budget; see bot/computers/pool.py).
    ai_workers: int = Field(default=2, ge=1, le=16)
    #: Seconds of search per judged decision of a post-game review (``/review``); 0: the
    #: review engine's own budget, which fits a whole match in about 60 s of CPU
    #: (``rules.ai.review.budget_for``). A smaller one makes reviews quicker and less sure.
    review_seconds: float = Field(default=0.0, ge=0.0, le=10.0)
    # ----- Discord front end --------------------------------------------------------------
    #: Base URL of Discord's REST API. Point it at an HTTP proxy (e.g. one rate-limit proxy
    #: shared by several bot processes) or at a local Discord in tests. When it is not
    #: Discord's own, the gateway URL is asked from it too (``GET /gateway/bot``).
    discord_api: str = DISCORD_API
    #: Seconds between outbox sweeps when nothing woke the delivery worker earlier.
    outbox_poll_seconds: float = Field(default=5.0, gt=0)
    #: Delivery attempts of one outbox item before it is given up (kept in the table).
    outbox_max_attempts: int = Field(default=15, ge=1, le=100)
    #: Days a sent (or given up) outbox item is kept before it is pruned (hourly).
    outbox_retention_days: float = Field(default=7.0, gt=0, le=3650)
    #: Seconds between runs of the reminder / clock / keep-alive reconcile loop.
    scheduler_seconds: float = Field(default=60.0, gt=0)
    #: Seconds between reads of every running match for computer turns nobody woke the
    #: driver for (after a restart the first read is immediate; after a move only the
    #: matches with computer seats are looked at, at once).
    ai_sweep_seconds: float = Field(default=60.0, gt=0)
    #: Days between keep-alive nudges of a running match's thread (Discord archives idle
    #: threads after at most 7 days; the nudge alternates the archive duration between 3
    #: and 7 days, so keep this below 3).
    keepalive_days: float = Field(default=2.0, gt=0, le=2.9)
    #: Ask Discord for the privileged Server Members intent (turn it on in the Developer
    #: Portal first): a player leaving the server then opens their seat to a vote at once.
    members_intent: bool = False
    #: Link to the full rules text for /rules; "{game}" is replaced by the game id.
    #: Empty: /rules names the rules file (docs/rules/<game>.md) instead.
    rules_url: str = ""
    # ----- flood limits (bot/discord/flood.py; 0 turns one off) ----------------------------
    #: The window, in seconds, in which a member's or a server's actions are counted.
    flood_window_seconds: float = Field(default=60.0, gt=0, le=3600)
    #: Commands, clicks and form submits of one member within the window.
    flood_per_member: int = Field(default=60, ge=0, le=10_000)
    #: Commands, clicks and form submits of one server within the window.
    flood_per_server: int = Field(default=600, ge=0, le=100_000)
    #: Open lobbies of one member in a server, and of a whole server.
    flood_lobbies_per_member: int = Field(default=3, ge=0, le=1000)
    flood_lobbies_per_server: int = Field(default=25, ge=0, le=10_000)
    #: Running matches a member opened in a server.
    flood_running_per_member: int = Field(default=30, ge=0, le=10_000)
    #: Replays being made at once for one member, and for one server.
    flood_replays_per_member: int = Field(default=1, ge=0, le=100)
    flood_replays_per_server: int = Field(default=3, ge=0, le=100)

    # ----- operations (bot/ops; README "Operations") --------------------------------------
    #: Port of the HTTP endpoint serving /metrics (Prometheus text format) and /healthz;
    #: 0: off (no endpoint; the container's health check needs it on).
    metrics_port: int = Field(default=0, ge=0, le=65535)
    #: The address it listens on: 127.0.0.1 keeps it on this machine, 0.0.0.0 (or ::)
    #: opens it to every network the machine or container is on.
    metrics_host: str = "127.0.0.1"
    #: The log's format, one line per event either way: "text" or "json" (one object a line).
    log_format: Literal["text", "json"] = "text"

    @field_validator("metrics_host")
    @classmethod
    def _an_address(cls, value: str) -> str:
        import ipaddress  # here, to keep the operations settings in one block

        try:
            ipaddress.ip_address(value)
        except ValueError:
            raise ValueError("an IP address to listen on, e.g. 127.0.0.1, 0.0.0.0 or ::") from None
        return value

    @field_validator("database_url")
    @classmethod
    def _postgres_only(cls, value: str) -> str:
        if value and not value.startswith(("postgresql://", "postgres://")):
            raise ValueError("TESSERA_DATABASE_URL must start with postgresql://")
        return value

    @field_validator("shards")
    @classmethod
    def _shards_valid(cls, value: str) -> str:
        if value:
            parse_shards(value)
        return value

    @property
    def database(self) -> Path | str:
        """Where the store lives: the PostgreSQL URL when set, else the SQLite file."""
        return self.database_url or self.database_path

    def shard_ids(self) -> tuple[tuple[int, ...], int] | None:
        """(shard ids, shard count) of this process, or None when unsharded."""
        return parse_shards(self.shards) if self.shards else None


def parse_shards(text: str) -> tuple[tuple[int, ...], int]:
    """``0-3/8`` → ((0, 1, 2, 3), 8); ``1,5/8`` → ((1, 5), 8)."""
    try:
        ids_text, count_text = text.replace(" ", "").split("/")
        count = int(count_text)
        ids: set[int] = set()
        for part in ids_text.split(","):
            first, _, last = part.partition("-")
            ids.update(range(int(first), int(last or first) + 1))
    except ValueError:
        raise ValueError(f"shards {text!r}: write FIRST-LAST/COUNT, e.g. 0-3/8") from None
    if count < 1 or not ids or min(ids) < 0 or max(ids) >= count:
        raise ValueError(f"shards {text!r}: every shard id must be below the count")
    return tuple(sorted(ids)), count
