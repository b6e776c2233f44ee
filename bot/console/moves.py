"""``/moves [text] [page]``: the legal moves of the person typing, alike ones on one line
(a placement with its rotations, as the guided panel walks them), a page at a time.

Why grouped: in Pastiche most of the first forty moves were rotations of one placement;
one line per placement and pages (``/moves 2``) and a filter (``/moves <text>``) let the
rest be seen (issue 41).
"""

from __future__ import annotations

from bot.console.session import Session
from bot.matches.errors import ServiceError, no_play_key
from bot.matches.turns import label_key
from render.words.catalogue import t, tn
from render.words.say import say
from rules.base import Move, Step

#: Lines of grouped moves on one page of /moves.
MOVES_PER_PAGE = 20


def _path(move: Move) -> tuple[Step, ...]:
    """A move's steps (a move without steps is one step: its notation and label)."""
    return move.steps or (Step(move.notation, move.label),)


def _shared(move: Move) -> int:
    """How many leading steps alike moves share: all but the last choice, and for a
    longer path (Pastiche: hex, row, place, rotation, colours) all but the last two, so
    that one line holds a placement with its rotations."""
    steps = len(_path(move))
    return steps - 2 if steps >= 4 else max(steps - 1, 0)


def group_moves(moves: list[Move]) -> list[list[Move]]:
    """Moves that share their first choices (the guided panel's path), in the order of
    their best member; a move without a path shared with others is its own group."""
    groups: dict[tuple[str, ...], list[Move]] = {}
    for move in moves:
        depth = _shared(move)
        key = tuple(s.key for s in _path(move)[:depth]) if depth else ("", move.notation)
        groups.setdefault(key, []).append(move)
    return list(groups.values())


def group_line(group: list[Move], lang: str, names: list[str]) -> str:
    """One /moves line, starting as every line does with a notation and its label (the
    group's best move); its alike moves follow, each as its notation in the console's
    quotes for what is typed ('F1-B-1') and its last choice (the notation says the rest: a
    rotation, a line). Why not the choice in brackets: a choice's own words may hold
    brackets ("line 1 (1 to floor)"), and a bracket inside a bracket read as clutter in
    every language (issue 41)."""
    first, *alike = group
    line = f"  {first.notation:<24} {say(first.label, lang, names)}"
    if alike:
        line += " · " + " · ".join(
            f"'{m.notation}' {say(_path(m)[-1].label, lang, names)}" for m in alike
        )
    return line


def move_contains(move: Move, text: str, lang: str, names: list[str]) -> bool:
    """Whether the notation or the label (as the reader sees it) contains ``text``,
    compared as a typed label is (case, spaces and plain spellings of symbols aside)."""
    wanted = label_key(text)
    return wanted in label_key(move.notation) or wanted in label_key(say(move.label, lang, names))


async def list_moves(s: Session, args: list[str]) -> list[str]:
    """``/moves [text] [page]``: the legal moves, alike ones on one line (a placement
    with its rotations, as the guided panel walks them), a page at a time; ``text``
    keeps only the moves whose notation or label contains it."""
    match_id = s.need_match()
    page = 1
    if args and args[-1].isdigit():
        page, args = int(args[-1]), args[:-1]
    wanted = " ".join(args)
    info, moves = await s.service.turn_for(match_id, s.me)
    if info.status != "running":  # a lobby, one closed before it started, an ended match
        row = await s.service.store.get_match(match_id)
        started = row is not None and row.state is not None
        raise ServiceError.said(no_play_key(info.status, started), match=match_id)
    # moves too free to list (a Pastiche offer): typed in the game's notation
    free = [
        t("console.also", s.lang, label=say(c.label, s.lang), key=c.key)
        for c in await s.service.composers(match_id, s.me)
    ]
    if not moves:
        if free:
            return free
        return s.who_acts(info) or [t("console.no_moves", s.lang)]
    moves = sorted(moves, key=lambda m: -m.rank)
    if wanted:
        moves = [m for m in moves if move_contains(m, wanted, s.lang, info.names)]
        if not moves:
            return [t("console.moves_none_contain", s.lang, text=wanted)]
        head = tn("console.moves_containing", len(moves), s.lang, text=wanted)
    else:
        head = tn("console.moves_head", len(moves), s.lang)
    groups = group_moves(moves)
    pages = max(1, -(-len(groups) // MOVES_PER_PAGE))
    if not 1 <= page <= pages:
        raise ServiceError.said("console.moves_no_page", n=pages, page=page)
    shown = groups[(page - 1) * MOVES_PER_PAGE : page * MOVES_PER_PAGE]
    lines = [group_line(g, s.lang, info.names) for g in shown]  # only these are said
    foot = [t("console.moves_page", s.lang, page=page, pages=pages)] if pages > 1 else []
    return [head, *lines, *foot, *free]
