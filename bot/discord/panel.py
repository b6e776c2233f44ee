"""Buttons and selects that keep working for days and across restarts.

Why dynamic items: a turn post may be answered a week later by a bot process that has
restarted ten times. Every component therefore carries in its custom id all it needs —
match id, state version and the chosen path — and is parsed back by a
:class:`discord.ui.DynamicItem` registered at start-up; nothing lives in memory.

Custom ids (≤ 100 characters):

- ``tl:<join|leave|start>:<match>`` lobby buttons
- ``tb:add:<level>:<match>`` seat a computer player; ``tb:remove:-:<match>`` unseat one
- ``tp:<match>:<version>`` open the guided move panel
- ``ts:<match>:<version>:<path>`` a step button; ``tq:…`` the same as a select
- ``tm:<match>:<version>:<move>`` play the chosen move
- ``tc:<match>:<version>:<composer>:<chosen>`` a composer's select; ``tk:…`` its buttons
  (open, "none", back) and ``tn:…`` play what was composed. ``<chosen>`` lists the picks
  made so far, ``.``-separated, each the chosen option indices as base-36 digits (``-``:
  none), e.g. ``1.00.a`` (a select holds at most 25 options, so one digit each)
- ``th:<match>`` my hand; ``tv:<match>`` the board now; ``ty:<match>`` the latest moves;
  ``tz:<match>:<version>`` mute reminders; ``tr:<match>:<version>`` resign
- ``tu:<take|decline|withdraw|yes|no>:<match>:<seat>:<offer>`` a substitute offer or vote

A *path* is the step keys chosen so far joined by ``/``. When a key holds ``/`` or the id
would exceed 100 characters, the path falls back to indices (``#0.2``) into the ordered
choices at each level; a move falls back to ``#<index>`` into the legal moves. Indices are
safe because the version pins the state, and with it the list of legal moves.

The guided panel walks ``Move.steps`` generically: no game-specific code here. Moves too
free to list (a Pastiche offer: any cards for any cards) are built through the game's
``Composer`` picks instead, just as generically.

The moves are the rules' own (``MatchService.turn_for``): keys, notations and ranks do the
walking, and a label is said — in the reader's language, with the players' names — only
when it goes on a button, a select or the panel's text. Why: Pastiche lists hundreds of
moves per turn and a click shows a handful; naming them all was most of a click's CPU.
"""

from __future__ import annotations

import io
import logging
import re
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord.common import (
    UserError,
    answer,
    bot_of,
    check_running,
    check_server,
    clip,
    count_action,
    loc,
    same_server,
    selected,
    user_of,
)
from bot.matches.reports import MatchInfo, User
from render.alt_text import alt_of
from render.words.catalogue import match_language, t, tn
from render.words.posts import listing, say_line
from render.words.say import say
from rules import Move
from rules.base import Composer, Step

log = logging.getLogger(__name__)

CUSTOM_ID_MAX = 100
#: Buttons per panel before a select is used instead (4 rows of 5; the last row is for
#: Back / Play).
MAX_BUTTONS = 20
MAX_SELECT = 25


# ----- walking the steps ---------------------------------------------------------------
def steps_of(move: Move) -> tuple[Step, ...]:
    """A move without steps is a one-step path (its notation and label)."""
    return move.steps or (Step(move.notation, move.label),)


@dataclass(slots=True)
class Choice:
    step: Step
    rank: float


def choices_at(moves: list[Move], prefix: list[str]) -> tuple[list[Move], list[Choice]]:
    """Moves completed exactly by ``prefix``, and the distinct next steps after it
    (in order of first appearance, carrying the best rank below them)."""
    complete: list[Move] = []
    nxt: dict[str, Choice] = {}
    depth = len(prefix)
    for move in moves:
        steps = steps_of(move)
        if [s.key for s in steps[:depth]] != prefix:
            continue
        if len(steps) == depth:
            complete.append(move)
        elif len(steps) > depth:
            key = steps[depth].key
            if key in nxt:
                nxt[key].rank = max(nxt[key].rank, move.rank)
            else:
                nxt[key] = Choice(steps[depth], move.rank)
    return complete, list(nxt.values())


def labels_of(moves: list[Move], prefix: list[str]) -> list[Any]:
    """The labels (not said yet) of the path chosen so far."""
    for move in moves:
        steps = steps_of(move)
        if [s.key for s in steps[: len(prefix)]] == prefix:
            return [s.label for s in steps[: len(prefix)]]
    return prefix


def encode_path(moves: list[Move], prefix: list[str], head: str) -> str:
    """``head`` + path, with the index fallback when keys would not fit or hold '/'."""
    plain = head + "/".join(prefix)
    if len(plain) <= CUSTOM_ID_MAX and not any("/" in k or not k for k in prefix):
        return plain
    indices = []
    for depth in range(len(prefix)):
        _, options = choices_at(moves, prefix[:depth])
        indices.append(str([c.step.key for c in options].index(prefix[depth])))
    return head + "#" + ".".join(indices)


def decode_path(moves: list[Move], raw: str) -> list[str]:
    """Custom-id path back to step keys; anything not matching the moves of this version
    means the board changed under the button."""
    if not raw:
        return []
    if raw.startswith("#"):
        prefix: list[str] = []
        for part in raw[1:].split("."):
            _, options = choices_at(moves, prefix)
            if not part.isdigit() or int(part) >= len(options):
                raise UserError("err.board_changed")
            prefix.append(options[int(part)].step.key)
        return prefix
    prefix = raw.split("/")
    complete, options = choices_at(moves, prefix)
    if not complete and not options:
        raise UserError("err.board_changed")
    return prefix


def encode_move(moves: list[Move], move: Move, head: str) -> str:
    """``head`` + the move's notation, or its index among ``moves`` (found by notation,
    which is unique among a seat's legal moves, so a move whose labels were said for
    showing finds itself in the rules' unsaid list)."""
    plain = head + move.notation
    if len(plain) <= CUSTOM_ID_MAX and move.notation:
        return plain
    return head + "#" + str([m.notation for m in moves].index(move.notation))


def decode_move(moves: list[Move], raw: str) -> Move:
    if raw.startswith("#") and raw[1:].isdigit() and int(raw[1:]) < len(moves):
        return moves[int(raw[1:])]
    for move in moves:
        if move.notation == raw:
            return move
    raise UserError("err.board_changed")


# ----- building the panel ---------------------------------------------------------------
def build_panel(
    match_id: int,
    version: int,
    moves: list[Move],
    prefix: list[str],
    locale: Any,
    composers: list[Composer] | None = None,
    names: list[str] | None = None,
) -> tuple[str, discord.ui.View]:
    """The panel for one point on the path: next choices, Play (when a move is complete)
    and Back; at the start, a button per composer (build a move pick by pick). Only the
    labels shown are said, in ``locale`` with the players' ``names``."""
    complete, options = choices_at(moves, prefix)
    view = discord.ui.View(timeout=None)
    lines = [t("panel.head", locale, match=match_id)]
    if prefix:
        path = [say(label, locale, names) for label in labels_of(moves, prefix)]
        lines.append(t("panel.path", locale, path=" › ".join(path)))
    base = f"ts:{match_id}:{version}:"
    if len(options) <= MAX_BUTTONS:
        for choice in options:
            cid = encode_path(moves, [*prefix, choice.step.key], base)
            view.add_item(StepButton(cid, clip(say(choice.step.label, locale, names), 80)))
    else:
        shown = sorted(options, key=lambda c: -c.rank)[:MAX_SELECT]
        shown_keys = {c.step.key for c in shown}
        ordered = [c for c in options if c.step.key in shown_keys]
        lines.append(tn("panel.more", len(options), locale, shown=len(ordered)))
        all_keys = [c.step.key for c in options]
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=encode_path(moves, prefix, f"tq:{match_id}:{version}:"),
            placeholder=t("select.placeholder", locale),
            options=[
                discord.SelectOption(
                    label=clip(say(c.step.label, locale, names), 100),
                    value=str(all_keys.index(c.step.key)),
                )
                for c in ordered
            ],
        )
        view.add_item(StepSelect(select))
    for move in complete[:4]:
        cid = encode_move(moves, move, f"tm:{match_id}:{version}:")
        view.add_item(
            ConfirmMove(
                discord.ui.Button(
                    label=clip(t("btn.confirm", locale, label=say(move.label, locale, names)), 80),
                    style=discord.ButtonStyle.success,
                    custom_id=cid,
                    row=4,
                )
            )
        )
    if prefix:
        back = encode_path(moves, prefix[:-1], base)
        view.add_item(
            StepButton(back, t("btn.back", locale), style=discord.ButtonStyle.secondary, row=4)
        )
    else:
        room = 5 - len(complete[:4])
        for i, composer in enumerate((composers or [])[:room]):
            view.add_item(
                ComposeButton(
                    f"tk:{match_id}:{version}:{i}:",
                    clip(say(composer.label, locale), 80),
                    style=discord.ButtonStyle.secondary,
                    row=4,
                )
            )
    return "\n".join(lines), view


# ----- composing a move pick by pick ------------------------------------------------------
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def encode_chosen(chosen: list[list[int]]) -> str:
    return ".".join("".join(_DIGITS[i] for i in pick) or "-" for pick in chosen)


def decode_chosen(composer: Composer, raw: str) -> list[list[int]]:
    """Custom-id picks back to option indices; anything that does not fit the composer of
    this version means the board changed under the button."""
    if not raw:
        return []
    out: list[list[int]] = []
    parts = raw.split(".")
    if len(parts) > len(composer.picks):
        raise UserError("err.board_changed")
    for pick, part in zip(composer.picks, parts, strict=False):
        idx = [] if part == "-" else [_DIGITS.find(ch) for ch in part]
        if any(i < 0 or i >= len(pick.options) for i in idx) or len(set(idx)) != len(idx):
            raise UserError("err.board_changed")
        if not pick.least <= len(idx) <= pick.most:
            raise UserError("err.board_changed")
        out.append(idx)
    return out


def chosen_keys(composer: Composer, chosen: list[list[int]]) -> list[list[str]]:
    return [[p.options[i].key for i in idx] for p, idx in zip(composer.picks, chosen, strict=False)]


def build_composer(
    match_id: int,
    version: int,
    index: int,
    composer: Composer,
    chosen: list[list[int]],
    locale: Any,
    notation: str | None = None,
) -> tuple[str, discord.ui.View]:
    """One pick of a composer (a select, plus "none" where none is allowed), or, once every
    pick is made, what was composed with a button that plays it."""
    view = discord.ui.View(timeout=None)
    lines = [t("panel.head", locale, match=match_id), f"**{say(composer.label, locale)}**"]
    for pick, idx in zip(composer.picks, chosen, strict=False):
        words = " + ".join(say(pick.options[i].label, locale) for i in idx)
        words = words or t("panel.none", locale)
        lines.append(t("panel.picked", locale, pick=say(pick.label, locale), chosen=words))
    tail = f"{match_id}:{version}:{index}:"
    enc = encode_chosen(chosen)
    if len(chosen) < len(composer.picks):
        pick = composer.picks[len(chosen)]
        lines.append(say(pick.label, locale))
        options = pick.options[:MAX_SELECT]
        if options:
            select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
                custom_id=f"tc:{tail}{enc}",
                placeholder=t("select.placeholder", locale),
                min_values=max(1, min(pick.least, len(options))),
                max_values=max(1, min(pick.most, len(options))),
                options=[
                    discord.SelectOption(label=clip(say(o.label, locale), 100), value=str(i))
                    for i, o in enumerate(options)
                ],
            )
            view.add_item(ComposeSelect(select))
        if pick.least == 0:
            nxt = f"{enc}.-" if enc else "-"
            view.add_item(ComposeButton(f"tk:{tail}{nxt}", t("panel.none_button", locale), row=4))
    elif notation is not None:
        lines.append(t("panel.composed", locale, notation=notation))
        view.add_item(
            ComposeButton(
                f"tn:{tail}{enc}",
                clip(t("btn.confirm", locale, label=notation), 80),
                style=discord.ButtonStyle.success,
                row=4,
            )
        )
    if chosen:
        back = f"tk:{tail}{encode_chosen(chosen[:-1])}"
        view.add_item(
            ComposeButton(back, t("btn.back", locale), style=discord.ButtonStyle.secondary, row=4)
        )
    return "\n".join(lines), view


async def gate_compose(
    interaction: discord.Interaction, match_id: int, version: int, index: int
) -> tuple[User, Composer]:
    """Who may compose: a seated player, on the board this panel was made for, while the
    game offers them that composer."""
    service = bot_of(interaction).service
    user = user_of(interaction)
    info = await service.info(match_id)  # one read for the server and turn checks
    check_server(interaction, info)
    if info.seat_of(user.id) is None:
        raise UserError("err.not_your_match")
    check_running(info)  # an old post's button: the match has not started, or is over
    if info.version != version:
        raise UserError("err.board_changed")
    composers = await service.composers(match_id, user)
    if index >= len(composers):
        by_id = {s.user_id: s.name for s in info.seats}
        waiting = listing([by_id.get(u, u) for u in info.to_act], loc(interaction)) or "—"
        raise UserError("err.not_your_turn", waiting=waiting)
    return user, composers[index]


async def _show_composer(
    interaction: discord.Interaction,
    match_id: int,
    version: int,
    index: int,
    user: User,
    composer: Composer,
    chosen: list[list[int]],
) -> None:
    notation = None
    if len(chosen) == len(composer.picks):
        service = bot_of(interaction).service
        notation = await service.compose(
            match_id, user, composer.key, chosen_keys(composer, chosen)
        )
    content, view = build_composer(
        match_id, version, index, composer, chosen, loc(interaction), notation
    )
    await interaction.response.edit_message(content=content, view=view)


def mute_view(match_id: int, version: int, lang: Any = None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(
        MuteButton(
            discord.ui.Button(
                label=t("btn.mute", lang),
                style=discord.ButtonStyle.secondary,
                custom_id=f"tz:{match_id}:{version}",
            )
        )
    )
    return view


def resign_view(match_id: int, version: int, locale: Any) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(
        ResignButton(
            discord.ui.Button(
                label=t("btn.resign", locale),
                style=discord.ButtonStyle.danger,
                custom_id=f"tr:{match_id}:{version}",
            )
        )
    )
    return view


# ----- the gate every panel click passes ------------------------------------------------
async def gate(
    interaction: discord.Interaction, match_id: int, version: int
) -> tuple[User, MatchInfo, list[Move]]:
    """Who may press: a seated player (the seat from ``interaction.user``: so also in a DM),
    on this button's board, on turn; a spectator is told it is not their match. The moves
    are the rules', unsaid: say what is shown with ``info.names`` (:func:`build_panel`)."""
    service = bot_of(interaction).service
    user = user_of(interaction)
    info, moves = await service.turn_for(match_id, user)  # one read for the whole gate
    check_server(interaction, info)
    if info.seat_of(user.id) is None:
        raise UserError("err.not_your_match")
    check_running(info)  # an old post's button: the match has not started, or is over
    if info.version != version:
        raise UserError("err.board_changed")
    if not moves and not await service.composers(match_id, user):
        by_id = {s.user_id: s.name for s in info.seats}
        waiting = listing([by_id.get(u, u) for u in info.to_act], loc(interaction)) or "—"
        raise UserError("err.not_your_turn", waiting=waiting)
    return user, info, moves


class Guarded:
    """Mixin for every dynamic item: parses the custom id once, reports refusals
    ephemerally and unexpected errors to the bot (discord.py would only log exceptions
    raised in dynamic items).

    Templates name their parts ``m`` (match id), ``v`` (state version) and whatever else
    an item needs; :meth:`parse` turns them into attributes.
    """

    template: re.Pattern[str]
    match_id: int = 0
    version: int = -1
    #: whether a click counts against the flood limits here (the catch-all item, which
    #: discord.py runs beside the item that handles a click, counts only what it refuses)
    counted: bool = True

    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)  # type: ignore[call-arg]
        found = self.template.fullmatch(getattr(item, "custom_id", None) or "")
        assert found is not None
        self.parse(found.groupdict())

    def parse(self, parts: dict[str, str]) -> None:
        if parts.get("m"):
            self.match_id = int(parts["m"])
        if parts.get("v"):
            self.version = int(parts["v"])

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Any:
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            if self.counted:
                count_action(interaction)
            await self.run(interaction)
        except Exception as exc:
            await bot_of(interaction).report_error(interaction, exc)

    async def run(self, interaction: discord.Interaction) -> None:  # pragma: no cover
        raise NotImplementedError


class PanelOpen(
    Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"tp:(?P<m>\d+):(?P<v>\d+)"
):
    async def run(self, interaction: discord.Interaction) -> None:
        user, info, moves = await gate(interaction, self.match_id, self.version)
        composers = await bot_of(interaction).service.composers(self.match_id, user)
        content, view = build_panel(
            self.match_id, self.version, moves, [], loc(interaction), composers, info.names
        )
        await interaction.response.send_message(content, view=view, ephemeral=True)


class BuiltButton(Guarded):
    """Mixin for the panel's buttons that :func:`build_panel` makes from a custom id and a
    label. Why its own ``from_custom_id``: a click is rebuilt from the custom id alone (the
    label does not matter to a callback), through the same constructor the panel uses."""

    def __init__(
        self,
        custom_id: str,
        label: str = "…",
        *,
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
        row: int | None = None,
    ) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=custom_id, row=row))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Any:
        return cls(match.string)


class StepButton(
    BuiltButton,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"ts:(?P<m>\d+):(?P<v>\d+):(?P<p>.*)",
):
    def parse(self, parts: dict[str, str]) -> None:
        super().parse(parts)
        self.path = parts["p"]

    async def run(self, interaction: discord.Interaction) -> None:
        user, info, moves = await gate(interaction, self.match_id, self.version)
        prefix = decode_path(moves, self.path)
        composers = await bot_of(interaction).service.composers(self.match_id, user)
        content, view = build_panel(
            self.match_id, self.version, moves, prefix, loc(interaction), composers, info.names
        )
        await interaction.response.edit_message(content=content, view=view)


class ComposeButton(
    BuiltButton,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"t(?P<kind>[kn]):(?P<m>\d+):(?P<v>\d+):(?P<i>\d+):(?P<c>[0-9a-z.\-]*)",
):
    """Open a composer or move between its picks (``tk``); play what was composed (``tn``)."""

    def parse(self, parts: dict[str, str]) -> None:
        super().parse(parts)
        self.kind, self.index, self.raw = parts["kind"], int(parts["i"]), parts["c"]

    async def run(self, interaction: discord.Interaction) -> None:
        user, composer = await gate_compose(interaction, self.match_id, self.version, self.index)
        chosen = decode_chosen(composer, self.raw)
        if self.kind == "k":
            await _show_composer(
                interaction, self.match_id, self.version, self.index, user, composer, chosen
            )
            return
        if len(chosen) != len(composer.picks):
            raise UserError("err.board_changed")
        service = bot_of(interaction).service
        keys = chosen_keys(composer, chosen)
        notation = await service.compose(self.match_id, user, composer.key, keys)
        await interaction.response.edit_message(
            content=t("play.playing", loc(interaction), label=notation), view=None
        )
        await play_and_confirm(interaction, user, self.match_id, notation, self.version)


class ComposeSelect(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"tc:(?P<m>\d+):(?P<v>\d+):(?P<i>\d+):(?P<c>[0-9a-z.\-]*)",
):
    def parse(self, parts: dict[str, str]) -> None:
        super().parse(parts)
        self.index, self.raw = int(parts["i"]), parts["c"]

    async def run(self, interaction: discord.Interaction) -> None:
        user, composer = await gate_compose(interaction, self.match_id, self.version, self.index)
        chosen = decode_chosen(composer, self.raw)
        if len(chosen) >= len(composer.picks):
            raise UserError("err.board_changed")
        values = selected(interaction)
        if not all(v.isdigit() for v in values):
            raise UserError("err.board_changed")
        raw = self.raw + ("." if self.raw else "") + encode_chosen([[int(v) for v in values]])
        chosen = decode_chosen(composer, raw)  # checks the picks fit
        await _show_composer(
            interaction, self.match_id, self.version, self.index, user, composer, chosen
        )


class StepSelect(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"tq:(?P<m>\d+):(?P<v>\d+):(?P<p>.*)",
):
    def parse(self, parts: dict[str, str]) -> None:
        super().parse(parts)
        self.path = parts["p"]

    async def run(self, interaction: discord.Interaction) -> None:
        _, info, moves = await gate(interaction, self.match_id, self.version)
        prefix = decode_path(moves, self.path)
        _, options = choices_at(moves, prefix)
        values = selected(interaction)
        if not values or not values[0].isdigit() or int(values[0]) >= len(options):
            raise UserError("err.board_changed")
        prefix.append(options[int(values[0])].step.key)
        content, view = build_panel(
            self.match_id, self.version, moves, prefix, loc(interaction), names=info.names
        )
        await interaction.response.edit_message(content=content, view=view)


class ConfirmMove(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"tm:(?P<m>\d+):(?P<v>\d+):(?P<mv>.+)",
):
    def parse(self, parts: dict[str, str]) -> None:
        super().parse(parts)
        self.move = parts["mv"]

    async def run(self, interaction: discord.Interaction) -> None:
        user, info, moves = await gate(interaction, self.match_id, self.version)
        move = decode_move(moves, self.move)  # by notation: only this move is said
        locale = loc(interaction)
        # Acknowledge at once: playing renders a picture, which may take longer than 3 s.
        label = say(move.label, locale, info.names)
        await interaction.response.edit_message(
            content=t("play.playing", locale, label=label), view=None
        )
        await play_and_confirm(interaction, user, self.match_id, move.notation, self.version)


async def play_and_confirm(
    interaction: discord.Interaction,
    user: User,
    match_id: int,
    notation: str,
    version: int | None,
) -> None:
    """Play through the service (version-checked for buttons), wake the outbox, and tell
    the player privately what happened (with their private lines, e.g. a card drawn)."""
    bot = bot_of(interaction)
    report = await bot.service.play(match_id, user, notation, expected_version=version)
    bot.kick()
    locale = loc(interaction)
    lines = [t("play.done", locale, label=move_words(report, user, locale))]
    names = report.match.names
    kept = report.private_words.get(user.id, [])
    for k, text in enumerate(report.private.get(user.id, [])):
        if k < len(kept) and kept[k] is not None:  # the rules' words: the reader's language
            text = say_line(kept[k], locale, names)
        lines.append(t("play.private", locale, text=text))
    await answer(interaction, "\n".join(lines))


def move_words(report: Any, user: User, locale: Any = None) -> str:
    """The move's words: its label said in ``locale`` when the report keeps them, else
    from the report's first line, "<seat name>: <move>": the known name is stripped, not
    split at the first ": " (a name may contain one)."""
    kept = report.words[0] if report.words else None
    if isinstance(kept, dict) and "mover" in kept:
        return say(kept["label"], locale, report.match.names)
    first = str(report.lines[0])
    seat = report.match.seat_of(user.id)
    names = [report.match.seats[seat].name] if seat is not None else []
    for name in [*names, user.name]:
        if first.startswith(f"{name}: "):
            return first[len(name) + 2 :]
    return first


class HandButton(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"th:(?P<m>\d+)"):
    async def run(self, interaction: discord.Interaction) -> None:
        await send_hand(interaction, self.match_id)


async def send_hand(interaction: discord.Interaction, match_id: int) -> None:
    """The private picture, only ever as an ephemeral answer to its owner."""
    bot = bot_of(interaction)
    user = user_of(interaction)
    await same_server(interaction, match_id)
    info = await bot.service.info(match_id)
    if info.seat_of(user.id) is None:
        raise UserError("err.not_your_match")
    await interaction.response.defer(ephemeral=True, thinking=True)
    png, _view = await bot.service.hand(match_id, user, loc(interaction))
    await interaction.followup.send(
        t("hand.caption", loc(interaction), match=match_id),
        file=discord.File(io.BytesIO(png), f"hand-{match_id}.png", description=alt_of(png)),
        ephemeral=True,
    )


class BoardButton(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"tv:(?P<m>\d+)"):
    """A turn post's Board: the board now, for the presser only (``/board`` for all)."""

    async def run(self, interaction: discord.Interaction) -> None:
        from bot.discord.looking import show_board

        await same_server(interaction, self.match_id)
        await show_board(interaction, self.match_id, public=False)


class HistoryButton(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"ty:(?P<m>\d+)"):
    """A turn post's History: the latest moves, for the presser only (``/history moves``)."""

    async def run(self, interaction: discord.Interaction) -> None:
        from bot.discord.looking import HISTORY_COUNT, show_moves

        await same_server(interaction, self.match_id)
        await show_moves(interaction, self.match_id, HISTORY_COUNT)


class HintButton(Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"tw:(?P<m>\d+)"):
    """A turn post's Hint: the best moves for the presser now, privately (``/hint``)."""

    async def run(self, interaction: discord.Interaction) -> None:
        from bot.discord.looking import show_hints

        await same_server(interaction, self.match_id)
        await show_hints(interaction, self.match_id)


class LobbyButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"tl:(?P<a>join|leave|start):(?P<m>\d+)",
):
    def parse(self, parts: dict[str, str]) -> None:
        super().parse(parts)
        self.action = parts["a"]

    async def run(self, interaction: discord.Interaction) -> None:
        from bot.discord.cogs.game import lobby_action

        await lobby_action(interaction, self.action, self.match_id)


class ComputerButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"tb:(?P<a>add|remove):(?P<l>easy|normal|strong|-):(?P<m>\d+)",
):
    """Seat (at a level) or unseat a computer player in a lobby; any seated player may.
    The answer is public, like a person joining or leaving."""

    def parse(self, parts: dict[str, str]) -> None:
        super().parse(parts)
        self.action = parts["a"]
        self.level = parts["l"]

    async def run(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        user = user_of(interaction)
        await same_server(interaction, self.match_id)
        if self.action == "add":
            info = await bot.service.add_computer(self.match_id, user, self.level)
            bot.computers.watch(self.match_id)
            public = match_language(info.settings, interaction.guild_locale)
            text = t(
                "lobby.computer_added",
                public,
                name=info.names[-1],
                match=self.match_id,
                count=len(info.seats),
                max=info.max_players,
                players=listing(info.names, public),
            )
        else:
            info, name = await bot.service.remove_computer(self.match_id, user)
            public = match_language(info.settings, interaction.guild_locale)
            text = t("lobby.computer_removed", public, name=name, match=self.match_id)
        await answer(interaction, text, ephemeral=False)


async def seated_at(interaction: discord.Interaction, match_id: int, version: int) -> User:
    """The presser, if they play in this server's running match and the board is still
    at ``version``; otherwise the refusal in words (a button of a match that has ended
    says so, not that the board changed)."""
    user = user_of(interaction)
    await same_server(interaction, match_id)
    info = await bot_of(interaction).service.info(match_id)
    if info.seat_of(user.id) is None:
        raise UserError("err.not_your_match")
    check_running(info)
    if info.version != version:
        raise UserError("err.board_changed")
    return user


class MuteButton(
    Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"tz:(?P<m>\d+):(?P<v>\d+)"
):
    async def run(self, interaction: discord.Interaction) -> None:
        """Mute reminders for this turn only: stored as {user: version} in the match
        settings, so the next state change un-mutes by itself."""
        user = await seated_at(interaction, self.match_id, self.version)
        await bot_of(interaction).service.mute_turn(self.match_id, user, self.version)
        await answer(interaction, t("mute.done", loc(interaction)))


class ResignButton(
    Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"tr:(?P<m>\d+):(?P<v>\d+)"
):
    async def run(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        user = await seated_at(interaction, self.match_id, self.version)
        await interaction.response.edit_message(view=None)
        report = await bot.service.resign(self.match_id, user)
        if report.match.status == "running":  # 3+ players: a computer plays the seat on
            bot.computers.watch(self.match_id)
            text = t("resign.done_handed", loc(interaction), match=self.match_id)
        else:
            text = t("resign.done", loc(interaction), match=self.match_id)
        bot.kick()
        await answer(interaction, text)


class SubButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"tu:(?P<a>take|decline|withdraw|yes|no):(?P<m>\d+):(?P<s>\d+):(?P<p>[0-9a-f]{8})",
):
    """A substitute offer's or vote's buttons (``tu:<action>:<match>:<seat>:<offer>``);
    the service decides who may press which (bot/discord/subs.py answers)."""

    def parse(self, parts: dict[str, str]) -> None:
        super().parse(parts)
        self.action, self.seat, self.offer = parts["a"], int(parts["s"]), parts["p"]

    async def run(self, interaction: discord.Interaction) -> None:
        from bot.discord.subs import sub_click

        await sub_click(interaction, self.action, self.match_id, self.seat, self.offer)
