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
from render.words.catalogue import (
    MESSAGES,
    babel_locale,
    match_language,
    number,
    supported_language,
    t,
    tn,
)
from rules import get_game
from rules.base import option_specs

NOTIFY_MODES = ("mention", "dm", "off")


def has_key(key: str) -> bool:
    """Whether the English catalogue has ``key`` (every language then has it, as
    ``python -m bot i18n check`` keeps them)."""
    return key in MESSAGES["en"]


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
            t("notify.reminders_every", locale, hours=_number(hours, locale))
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
    cfg: Settings,
    settings: dict[str, Any],
    locale: Any,
    server_locale: Any = None,
    *,
    game_id: str | None = None,
    options: dict[str, Any] | None = None,
) -> str:
    """A match's reminder, clock, computer and language settings in words (defaults from
    ``cfg``; a match without a language setting speaks the server's) and, given its game
    (``game_id``, ``options``), the game's own options. Every value is said in words of
    the reader's language (``locale``), never as the identifier the table stores: a choice
    by its catalogue words, a yes/no by the language's on/off, a number as the language
    writes it (decimal comma), the match's language by its name in the reader's."""
    days = settings.get("clock_days", cfg.deadline_days)
    clock = (
        tn("settings.clock", int(days) if days == int(days) else days, locale)
        if days
        else t("settings.no_clock", locale)
    )
    action = settings.get("clock_action", cfg.deadline_action)
    summary = t(
        "settings.summary",
        locale,
        hours=_number(settings.get("reminder_hours", cfg.reminder_hours), locale),
        max=number(int(settings.get("reminder_max", cfg.reminder_max)), locale),
        clock=clock,
        action=t(f"settings.action.{action}", locale),
    ) + t(
        "settings.computers",
        locale,
        hints=t("yes" if settings.get("hints", True) else "no", locale),
        seconds=_number(settings.get("think_seconds", DEFAULT_BUDGET_S), locale),
    )
    language = language_in(match_language(settings, server_locale), locale)
    rated = settings.get("rated")
    rated_text = (
        t("settings.rated_auto", locale) if rated is None else t("yes" if rated else "no", locale)
    )
    summary += t("settings.language", locale, language=language) + t(
        "settings.rated", locale, rated=rated_text
    )
    if game_id is not None:
        summary += game_options_words(game_id, options or {}, locale)
    return summary


def _number(value: float, locale: Any) -> str:
    """A setting's figure as the language writes it (0.5 / 0,5; 24, not 24.0)."""
    figure = float(value)
    return number(int(figure) if figure.is_integer() else figure, locale)


def language_in(lang: str, locale: Any) -> str:
    """A language's name in the reader's language ("Hungarian", "Ungarisch", "węgierski"):
    a sentence names a language as its reader says it (CLDR data, not a catalogue text)."""
    reader = babel_locale(supported_language(locale))
    name = babel_locale(lang).get_display_name(reader) or lang
    return name


def game_options_words(game_id: str, options: dict[str, Any], locale: Any) -> str:
    """ "; Azul: grey wall variant: off": the game's own options of a match, as
    :func:`game_option_phrases` says each, after the game's name."""
    said = game_option_phrases(game_id, options, locale)
    if not said:
        return ""
    joined = t("words.comma", locale).join(said)
    return t("settings.game_options", locale, game=get_game(game_id).name, options=joined)


def game_option_phrases(game_id: str, options: dict[str, Any], locale: Any) -> list[str]:
    """Each of the game's own options of a match with its words
    (``settings.option.<game>.<name>``, its value as ``{value}``; a whole number also as
    ``{next}``, one more, for a 0-based seat) and every choice by its words
    (``….<name>.<choice>``). Every shipped game's options have their words
    (tests/test_service_leftovers.py); a game without them (one a test registers) shows
    an option as it is typed (``size=20``)."""
    game = get_game(game_id)
    prefix = f"settings.option.{game_id.replace('-', '_')}"
    said = []
    for spec in option_specs(game.Options):
        value = options.get(spec.name, spec.default)
        key = f"{prefix}.{spec.name}"
        if not has_key(key):
            said.append(f"{spec.name}={value}")
            continue
        if spec.kind == "bool":
            shown = t("yes" if value else "no", locale)
            said.append(t(key, locale, value=shown))
        elif spec.kind == "choice":
            said.append(t(key, locale, value=t(f"{key}.{value}", locale)))
        elif isinstance(value, int):
            said.append(t(key, locale, value=number(value, locale), next=number(value + 1, locale)))
        else:
            said.append(t(key, locale, value=_number(value, locale)))
    return said
