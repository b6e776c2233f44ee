"""The one table of match options: what ``/game new`` and ``/game settings`` accept, and
how a typed word or a Discord value is checked against it.

Why one table: the Discord command's ranges and choices, the console's parser, the
refusals and the docs' table used to keep their own copies, and a copy that drifted let
``hints=maybe`` turn hints on. Now the match settings are declared here and a game's own
options come from its pydantic Options model (:func:`rules.base.option_specs`); the
Discord cog, the console and the docs are checked against this table by
tests/test_options_table.py.

Every refusal names the option, the value and what is allowed, as words said in the
reader's language (``ServiceError.text``); nothing falls back silently.
"""

from __future__ import annotations

import math
from typing import Any

from bot.matches.errors import ServiceError
from render.words.catalogue import LANGUAGES, t
from render.words.posts import word
from render.words.say import say
from rules.ai import LEVELS
from rules.base import OptionSpec, option_specs
from rules.registry import game_ids, get_game

#: The commands a match setting belongs to.
NEW, SETTINGS = "new", "settings"

#: The match's own settings (a game's options come from its Options model): name ->
#: (the spec, the /game commands that take it). Defaults of None are the server's
#: (bot/settings.py) or "decided later" (rated: when every seat is a person).
MATCH_OPTIONS: dict[str, tuple[OptionSpec, tuple[str, ...]]] = {
    "players": (OptionSpec("players", "int", None, 1, 10), (NEW,)),
    "bots": (OptionSpec("bots", "int", 0, 0, 9), (NEW,)),
    "level": (OptionSpec("level", "choice", None, choices=tuple(LEVELS)), (NEW,)),
    "clock_days": (OptionSpec("clock_days", "float", None, 0, 60), (NEW, SETTINGS)),
    "hints": (OptionSpec("hints", "bool", True), (NEW, SETTINGS)),
    # 2: bot.computers.players.DEFAULT_BUDGET_S (tests/test_options_table.py keeps them equal)
    "think_seconds": (OptionSpec("think_seconds", "float", 2, 0.5, 30), (NEW, SETTINGS)),
    "rated": (OptionSpec("rated", "bool", None), (NEW, SETTINGS)),
    "reminder_hours": (OptionSpec("reminder_hours", "float", None, 0, 336), (SETTINGS,)),
    "reminder_max": (OptionSpec("reminder_max", "int", None, 0, 50), (SETTINGS,)),
    "clock_action": (
        OptionSpec("clock_action", "choice", None, choices=("skip", "forfeit")),
        (SETTINGS,),
    ),
    "language": (OptionSpec("language", "choice", None, choices=tuple(LANGUAGES)), (SETTINGS,)),
}

#: The words a yes/no option accepts in every language; the catalogue's own words for
#: on and off ("yes"/"no" keys: be/ki, an/aus …) are accepted in the reader's language too.
TRUE_WORDS = ("true", "on", "yes")
FALSE_WORDS = ("false", "off", "no")


def for_command(command: str) -> dict[str, OptionSpec]:
    """The match settings ``/game <command>`` takes, by name."""
    return {name: spec for name, (spec, commands) in MATCH_OPTIONS.items() if command in commands}


def game_options(game_id: str) -> dict[str, OptionSpec]:
    """A game's own options by name (from its Options model)."""
    return {spec.name: spec for spec in option_specs(get_game(game_id).Options)}


def _number(value: float) -> str:
    return f"{value:g}"


def allowed(spec: OptionSpec) -> dict[str, Any]:
    """What ``spec`` allows, as words (said in the reader's language)."""
    if spec.kind == "bool":
        return word("options.allowed.bool")
    if spec.kind == "choice":
        return word(
            "options.allowed.choice", choices={"join": "words.comma", "items": list(spec.choices)}
        )
    key = "options.allowed.whole" if spec.kind == "int" else "options.allowed.number"
    if spec.high is None:  # only a lower bound (a seat number: the game checks the top)
        return word(f"{key}_from", low=_number(spec.low or 0))
    return word(key, low=_number(spec.low or 0), high=_number(spec.high))


def refuse(spec: OptionSpec, value: Any) -> ServiceError:
    """The refusal of ``value`` for ``spec``: the option, the value, what is allowed."""
    if isinstance(value, bool):
        shown = str(value).lower()
    elif isinstance(value, float):
        shown = f"{value:g}"  # Discord's 99.0 as the 99 that was typed
    else:
        shown = str(value)
    return ServiceError.said(
        "options.bad_value", name=spec.name, value=shown, allowed=allowed(spec)
    )


def read_word(spec: OptionSpec, raw: str, lang: Any = None) -> Any:
    """A typed word as ``spec``'s value: yes/no words for booleans (also the catalogue's
    words in ``lang``), finite numbers in range, a choice by its name."""
    word = raw.strip().lower()
    if spec.kind == "bool":
        if word in TRUE_WORDS or word == t("yes", lang).lower():
            return True
        if word in FALSE_WORDS or word == t("no", lang).lower():
            return False
        raise refuse(spec, raw)
    if spec.kind == "choice":
        return check_value(spec, word, raw)
    try:
        number = int(word) if spec.kind == "int" else float(word)
    except ValueError:
        raise refuse(spec, raw) from None
    return check_value(spec, number, raw)


def check_value(spec: OptionSpec, value: Any, shown: Any = None) -> Any:
    """A value that already has a type (Discord's, or read by :func:`read_word`) checked
    against ``spec``: Discord only advertises ranges and choices, so they are enforced here.
    ``shown``: the value as it was typed, for the refusal."""
    if not _allows(spec, value):
        raise refuse(spec, value if shown is None else shown)
    return value


def _allows(spec: OptionSpec, value: Any) -> bool:
    """Whether ``value`` has ``spec``'s kind and lies in its range or choices."""
    if spec.kind == "bool":
        return isinstance(value, bool)
    if spec.kind == "choice":
        return value in spec.choices
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    if spec.kind == "int" and not isinstance(value, int):
        return False
    number = float(value)
    if not math.isfinite(number):
        return False
    return not (
        spec.low is not None and number < spec.low or spec.high is not None and number > spec.high
    )


def check_settings(command: str, given: dict[str, Any]) -> dict[str, Any]:
    """The match settings given to ``/game <command>`` (None dropped), each checked."""
    specs = for_command(command)
    out = {}
    for name, value in given.items():
        if value is None:
            continue
        if name not in specs:
            raise ServiceError.said(
                "options.unknown", name=name, names=", ".join(specs), command=command
            )
        out[name] = check_value(specs[name], value)
    return out


def split_options(text: str | None) -> dict[str, str]:
    """``size=5, variant=grey`` -> {"size": "5", "variant": "grey"}: Discord's options
    field (and the console's ``options=``), the words as typed; each is read by its kind."""
    out: dict[str, str] = {}
    for part in (text or "").replace(";", ",").split(","):
        if not part.strip():
            continue
        if "=" not in part:
            raise ServiceError.said("err.bad_options", text=_clip(text or "", 80))
        key, raw = (p.strip() for p in part.split("=", 1))
        if key in out:
            raise ServiceError.said("err.option_twice", name=_clip(key, 40))
        out[key] = raw
    return out


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def read_game_options(game_id: str, words: dict[str, str], lang: Any = None) -> dict[str, Any]:
    """A game's options typed as words (``grey_wall=on``), each read by its spec. An
    unknown name is left for the game to refuse (it lists its options)."""
    specs = game_options(game_id)
    return {
        name: read_word(specs[name], raw, lang) if name in specs else raw
        for name, raw in words.items()
    }


def docs_table() -> list[str]:
    """Every option as the Markdown table in docs/discord.md (a test keeps them equal): the
    match settings, then each game's own options (typed in ``/game new``'s ``options``)."""
    rows = ["| option | given in | allows | default |", "|---|---|---|---|"]
    for name, (spec, commands) in MATCH_OPTIONS.items():
        where = ", ".join(f"`/game {c}`" for c in commands)
        rows.append(f"| `{name}` | {where} | {say(allowed(spec))} | {_default(spec)} |")
    shipped = [get_game(g) for g in game_ids()]  # a game a test registers is not ours
    for game in (g for g in shipped if type(g).__module__.startswith("rules.")):
        for spec in option_specs(game.Options):
            where = f"`/game new` options, {game.name}"
            rows.append(f"| `{spec.name}` | {where} | {say(allowed(spec))} | {_default(spec)} |")
    return rows


#: Defaults that are no value of the table, in the docs' words.
_DEFAULT_WORDS = {
    "players": "the game's most",
    "level": "normal",
    "rated": "on when every seat is a person",
    "language": "the server's language",
}


def _default(spec: OptionSpec) -> str:
    if spec.default is None:
        return _DEFAULT_WORDS.get(spec.name, "the bot's setting (.env)")
    if isinstance(spec.default, bool):
        return "on" if spec.default else "off"
    return str(spec.default)
