"""What ``/notify`` and ``/game settings`` change, checked and put in words — shared by
the Discord cogs and the local console so both accept exactly the same things.

Why here and not in the cogs: the console must speak every Discord command without
importing discord.py's interaction machinery, and two copies of the checks would drift.
Refusals are :class:`Refusal` (a catalogue key and values), so each front end words them
in its reader's language.
"""

from __future__ import annotations

from typing import Any

from bot.computers.players import DEFAULT_BUDGET_S
from bot.matches.errors import ServiceError
from bot.settings import Settings
from bot.storage import Store
from render.words.catalogue import language_name, match_language, t, tn

NOTIFY_MODES = ("mention", "dm", "off")


class Refusal(ServiceError):
    """A refusal with a catalogue key, worded in the asker's language by the front end."""

    key: str  # always given here (a ServiceError from the rules may have none)

    def __init__(self, key: str, **values: Any) -> None:
        super().__init__(t(key, None, **values))
        self.key = key
        self.values = values


def check_range(name: str, value: float | None, low: float, high: float) -> None:
    """Discord only advertises ranges (and the console has none): checked here."""
    if value is not None and not low <= value <= high:
        raise Refusal("err.bad_number", name=name, low=low, high=high)


def notify_summary(user: dict[str, Any], locale: Any) -> str:
    s = user["settings"]
    quiet = s.get("quiet")
    quiet_text = (
        t(
            "notify.quiet",
            locale,
            start=quiet[0],
            end=quiet[1],
            offset=float(s.get("utc_offset", 0)),
        )
        if quiet
        else t("notify.quiet_none", locale)
    )
    hours = s.get("reminder_hours")
    return t(
        "notify.summary",
        locale,
        mode=t(f"mode.{user['notify']}", locale),
        reminders=(
            t("notify.reminders_every", locale, hours=f"{hours:g}")
            if hours is not None
            else t("notify.reminders_default", locale)
        ),
        quiet=quiet_text,
        heads_up=t("yes" if s.get("heads_up") else "no", locale),
    )


def check_notify(
    mode: str | None,
    reminder_hours: float | None,
    quiet_from: int | None,
    quiet_to: int | None,
    utc_offset: float | None,
) -> None:
    """Refuse a bad /notify option before anything is stored (also before ``away``
    changes the clocks, so one refusal leaves everything as it was)."""
    for hour in (quiet_from, quiet_to):
        if hour is not None and not 0 <= hour <= 23:
            raise Refusal("err.bad_hour")
    check_range("reminder_hours", reminder_hours, 0, 336)
    check_range("utc_offset", utc_offset, -12, 14)
    if mode is not None and mode not in NOTIFY_MODES:
        raise Refusal("err.bad_choice", name="mode", choices=", ".join(NOTIFY_MODES))


async def update_notify(
    store: Store,
    user_id: str,
    name: str,
    locale: Any,
    *,
    mode: str | None = None,
    reminder_hours: float | None = None,
    quiet_from: int | None = None,
    quiet_to: int | None = None,
    utc_offset: float | None = None,
    heads_up: bool | None = None,
) -> dict[str, Any]:
    """Check and store a person's alert preferences (options left None stay as they
    are); returns the stored user. Nothing is stored when an option is refused."""
    check_notify(mode, reminder_hours, quiet_from, quiet_to, utc_offset)
    user = await store.get_user(user_id)
    settings = dict(user["settings"])
    fields: dict[str, Any] = {"name": name, "locale": locale}
    if mode is not None:
        fields["notify"] = mode
    if reminder_hours is not None:
        settings["reminder_hours"] = reminder_hours
    if quiet_from is not None or quiet_to is not None:
        old = settings.get("quiet") or [22, 8]
        start = quiet_from if quiet_from is not None else old[0]
        end = quiet_to if quiet_to is not None else old[1]
        settings["quiet"] = None if start == end else [start, end]
    if utc_offset is not None:
        settings["utc_offset"] = utc_offset
    if heads_up is not None:
        settings["heads_up"] = heads_up
    fields["settings"] = settings
    await store.set_user(user_id, **fields)
    return await store.get_user(user_id)


def settings_summary(
    cfg: Settings, settings: dict[str, Any], locale: Any, server_locale: Any = None
) -> str:
    """A match's reminder, clock, computer and language settings in words (defaults from
    ``cfg``; a match without a language setting speaks the server's)."""
    days = settings.get("clock_days", cfg.deadline_days)
    clock = (
        tn("settings.clock", int(days) if days == int(days) else days, locale)
        if days
        else t("settings.no_clock", locale)
    )
    summary = t(
        "settings.summary",
        locale,
        hours=f"{settings.get('reminder_hours', cfg.reminder_hours):g}",
        max=settings.get("reminder_max", cfg.reminder_max),
        clock=clock,
        action=settings.get("clock_action", cfg.deadline_action),
    ) + t(
        "settings.computers",
        locale,
        hints=t("yes" if settings.get("hints", True) else "no", locale),
        seconds=f"{float(settings.get('think_seconds', DEFAULT_BUDGET_S)):g}",
    )
    language = language_name(match_language(settings, server_locale))
    rated = settings.get("rated")
    rated_text = (
        t("settings.rated_auto", locale) if rated is None else t("yes" if rated else "no", locale)
    )
    return (
        summary
        + t("settings.language", locale, language=language)
        + t("settings.rated", locale, rated=rated_text)
    )
