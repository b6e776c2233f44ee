"""The bot's posts as Discord draws them today: layout messages (Components V2), one card
per post.

Why cards: a classic post was a block of text, an attachment below it and rows of
buttons under that, each laid out by the client on its own. A layout message puts the
post's parts in one container in the order a player reads them — the header (game and
match, where the game stands, who acts, the deadline as a Discord timestamp every reader
sees in their own time zone), the board with its description in words (alt text), the
moves of the run, the controls — and Discord keeps them together on every client.

A card is one :class:`discord.ui.Container` in a :class:`discord.ui.LayoutView`
(``components/reference.mdx``):

- header: a text display, ``### <game> · match #N`` and the lines that say where the
  match stands;
- the picture: a media gallery of one item, ``attachment://<file>`` with the picture's
  description (``render.alt_text``), the same words the attachment itself carries;
- the body: a text display (a run's move lines, a notice's words);
- the controls: one action row of buttons (dynamic items, ``bot/discord/panel.py``).

Discord's limits hold by construction, in every language: a card has at most
:data:`MOST_COMPONENTS` components (a container, two texts, a gallery, two rows of at
most five buttons; Discord allows 40 counted through nesting) and its texts together at
most :data:`TEXT_LIMIT` characters: the header is clipped to :data:`HEAD_MAX`, and the body
— the part that grows with a run — keeps its newest lines within what is left
(:func:`fit`). Delivery starts a new post well before that (``FOLD_MAX_CHARS``), so the cut
is a guarantee, not the rule.

What stays classic, and why (docs/discord.md "What the posts look like"): reminders (a
ping and one sentence with a mute button: a card would frame one line and weigh more than
the turn post it points to), the lobby's log lines (joined, left, started: a thread that
reads as a log) and every ephemeral answer (the move panel edits itself in place, a
layout message cannot become a classic one again, and a private answer is one sentence).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any, NamedTuple

import discord

from bot.discord.common import clip, newest_lines
from bot.discord.options_form import options_button
from bot.discord.panel import (
    BoardButton,
    ComputerButton,
    HandButton,
    HintButton,
    HistoryButton,
    LobbyButton,
    PanelOpen,
    SubButton,
)
from render.alt_text import alt_of
from render.words.catalogue import t
from rules.ai import LEVELS

#: Discord's limit on the characters of a message's text displays together
#: (discord-api-docs pull request #8562; the strict local Discord checks it).
TEXT_LIMIT = 4000
#: Discord's limit on a message's components, counted through nesting
#: (``components/reference.mdx``, its opening list).
COMPONENT_LIMIT = 40
#: The most components a card here has: container, two text displays, a gallery, two
#: action rows of five buttons.
MOST_COMPONENTS = 1 + 2 + 1 + 2 * (1 + 5)
#: The header's share of :data:`TEXT_LIMIT`: a title, a status line, who acts (up to ten
#: mentions or names), a deadline.
HEAD_MAX = 1200
#: Buttons in one action row (``reference.mdx`` "Action Row").
ROW_MAX = 5
_PRIMARY = discord.ButtonStyle.primary
_SECONDARY = discord.ButtonStyle.secondary


def picture_file(png: bytes, filename: str) -> discord.File:
    """A picture as Discord receives it: the PNG, its name and its description in words
    (the attachment's alt text, ``render.alt_text``, which the render worker wrote beside
    the picture; at most 1,024 characters, as Discord allows)."""
    return discord.File(io.BytesIO(png), filename=filename, description=alt_of(png))


class Card(NamedTuple):
    """A layout message to send: its view, and the files its media name
    (``attachment://<name>``): the two go out together, ``view=`` and ``files=``."""

    view: discord.ui.LayoutView
    files: list[discord.File]


def title(game: str, match_id: int, lang: Any) -> str:
    """A card's first line: the game and the match, as a small heading."""
    return "### " + t("card.title", lang, game=game, match=match_id)


def fit(head: list[str], body: list[str], tail: str = "") -> tuple[str, str]:
    """The header's and the body's texts within :data:`TEXT_LIMIT` together: the header
    (its non-empty lines) clipped to :data:`HEAD_MAX`, the body's newest lines kept in
    what is left after ``tail`` (a note that closes the body), "…" standing for the
    oldest ones left out. Either text may be empty (no text display then)."""
    top = clip("\n".join(x for x in head if x), HEAD_MAX)
    tail = clip(tail, 400)
    room = TEXT_LIMIT - len(top) - len(tail) - 1
    lines = [x for x in body if x]
    text = "\n".join(lines)
    if len(text) > room:
        text = newest_lines(lines, room)
    return top, "\n".join(x for x in (text, tail) if x)


def _card(
    top: str,
    picture: discord.File | None,
    body: str,
    rows: Sequence[Sequence[discord.ui.Item[Any]]] = (),
) -> Card:
    """One container: header, picture (with its alt text), body, rows of controls."""
    parts: list[discord.ui.Item[Any]] = []
    if top:
        parts.append(discord.ui.TextDisplay(top))
    if picture is not None:
        parts.append(discord.ui.MediaGallery(discord.MediaGalleryItem(picture)))
    if body:
        parts.append(discord.ui.TextDisplay(body))
    for row in rows:
        if row:
            parts.append(discord.ui.ActionRow(*row[:ROW_MAX]))
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.Container(*parts))
    return Card(view, [picture] if picture is not None else [])


def _button(
    cls: Any, custom_id: str, label: str, style: discord.ButtonStyle
) -> discord.ui.Item[Any]:
    item: discord.ui.Item[Any] = cls(
        discord.ui.Button(label=clip(label, 80), style=style, custom_id=custom_id)
    )
    return item


def move_controls(
    match_id: int,
    version: int,
    lang: Any,
    *,
    hidden: bool,
    looks: bool = True,
    board: bool = True,
    hints: bool = False,
) -> list[discord.ui.Item[Any]]:
    """The buttons under a turn: Make a move (the guided panel), Hint (when the match
    allows hints), My hand (games with hidden hands), and — on the thread's post
    (``looks``) — Board (the board now, when pictures are drawn) and History (the latest
    moves), each answered privately."""
    row = [_button(PanelOpen, f"tp:{match_id}:{version}", t("btn.play", lang), _PRIMARY)]
    if hints:
        row.append(_button(HintButton, f"tw:{match_id}", t("btn.hint", lang), _SECONDARY))
    if hidden:
        row.append(_button(HandButton, f"th:{match_id}", t("btn.hand", lang), _SECONDARY))
    if looks and board:
        row.append(_button(BoardButton, f"tv:{match_id}", t("btn.board", lang), _SECONDARY))
    if looks:
        row.append(_button(HistoryButton, f"ty:{match_id}", t("btn.history", lang), _SECONDARY))
    return row


def turn_card(
    game: str,
    match_id: int,
    lang: Any,
    *,
    lines: list[str],
    status: str = "",
    to_act: str = "",
    clock: str = "",
    note: str = "",
    picture: discord.File | None = None,
    controls: list[discord.ui.Item[Any]] | None = None,
) -> Card:
    """A post of the match's thread: a turn (a run's move lines, the board after its
    latest ply), the final result, or a notice (an undo request, a vote: its words as
    ``lines``, whom it asks as ``to_act``). Everything is said already, in ``lang``."""
    top, body = fit([title(game, match_id, lang), status, to_act, clock], lines, note)
    return _card(top, picture, body, [controls or []])


def dm_turn_card(
    game: str,
    match_id: int,
    version: int,
    lang: Any,
    *,
    text: str,
    clock: str = "",
    picture: discord.File | None = None,
    hidden: bool,
) -> Card:
    """The "your turn" direct message: the jump link (in ``text``), the deadline, the
    board, and the move controls of the thread's post, so the turn can be played here."""
    top, _ = fit([title(game, match_id, lang), text, clock], [])
    controls = move_controls(match_id, version, lang, hidden=hidden, looks=False)
    return _card(top, picture, "", [controls])


def lobby_card(
    game: str,
    match_id: int,
    lang: Any,
    *,
    creator: str,
    low: int,
    high: int,
    levels: tuple[str, ...] = LEVELS,
    options: bool = False,
) -> Card:
    """The lobby post: who opened it, how many may play, Join / Leave / Start (and Game
    options when the game has options of its own: ``options``), and a row to seat
    computer players (one button per level of the game, ``rules.ai.levels_for``) or
    unseat the latest."""
    text = t("lobby.post", lang, game=game, match=match_id, user=creator, min=low, max=high)
    seats: list[discord.ui.Item[Any]] = [
        _button(LobbyButton, f"tl:join:{match_id}", t("btn.join", lang), _PRIMARY),
        _button(LobbyButton, f"tl:leave:{match_id}", t("btn.leave", lang), _SECONDARY),
        _button(
            LobbyButton, f"tl:start:{match_id}", t("btn.start", lang), discord.ButtonStyle.success
        ),
    ]
    if options:
        seats.append(options_button(match_id, lang))
    computers = [
        _button(
            ComputerButton,
            f"tb:add:{level}:{match_id}",
            t("btn.add_computer", lang, level=t(f"choice.level.{level}", lang).lower()),
            _SECONDARY,
        )
        for level in levels[: ROW_MAX - 1]
    ]
    computers.append(
        _button(
            ComputerButton, f"tb:remove:-:{match_id}", t("btn.remove_computer", lang), _SECONDARY
        )
    )
    top, _ = fit([text], [])  # its words name the game and the match: no title above
    return _card(top, None, "", [seats, computers])


def picture_card(
    game: str, match_id: int, lang: Any, *, text: str, picture: discord.File | None
) -> Card:
    """A picture with a line above it: the score chart after the final result, the board
    as ``/board`` (or the Board button) shows it."""
    top, _ = fit([title(game, match_id, lang), text], [])
    return _card(top, picture, "")


def offer_card(
    game: str,
    match_id: int,
    lang: Any,
    *,
    text: str,
    ping: list[str],
    buttons: list[tuple[str, str, discord.ButtonStyle]],
) -> Card:
    """A substitute offer or vote: its words, whom it asks (mentioned), and its buttons
    (``(custom id, label, style)``, the substitute items of ``bot/discord/subs.py``)."""
    asks = " ".join(f"<@{u}>" for u in dict.fromkeys(ping))
    top, body = fit([title(game, match_id, lang)], [text, asks])
    row = [_button(SubButton, cid, label, style) for cid, label, style in buttons]
    return _card(top, None, body, [row])


def settled(message: discord.Message | None) -> discord.ui.LayoutView | None:
    """A layout post as it was, without its controls (an offer that was answered): a
    layout message cannot lose its layout, so "no buttons" is the same card without its
    action rows. None for a classic message (or none): its buttons go with ``view=None``."""
    if message is None or not message.flags.components_v2:
        return None
    view = discord.ui.LayoutView.from_message(message, timeout=None)
    for item in list(view.walk_children()):
        if isinstance(item, discord.ui.ActionRow):
            parent = item.parent
            if isinstance(parent, discord.ui.Container):
                parent.remove_item(item)
            else:
                view.remove_item(item)
    return view
