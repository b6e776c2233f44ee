"""The console's commands on the match looked at (``/use``), as Discord's act on the match
of the thread they are typed in: /play, /hint, /undo, /resign, /board, /hand, /history.

Why none of them takes a match number (but ``/history replay``, whose Discord twin has a
``match`` option): their Discord twins take none, and their own words are numbers already
(``/hint 2``, ``/history 5``). A word one does not take is refused, naming the match it
acts on and how to choose another — ``/board 1`` showed the match looked at (issue 41).
"""

from __future__ import annotations

from bot.console.session import Session
from bot.console.wording import console_key
from bot.matches.errors import ServiceError
from bot.matches.replay import save_replay
from bot.matches.reports import TurnReport
from render.alt_text import alt_of
from render.words.catalogue import t
from render.words.say import say

#: What /undo takes as a yes or a no to another player's request.
UNDO_YES = ("yes", "y", "agree")
UNDO_NO = ("no", "n", "refuse")


async def play(s: Session, args: list[str]) -> list[str]:
    await s.service.play(s.need_match(), s.me, " ".join(args))
    return []


async def hint(s: Session, args: list[str]) -> list[str]:
    """``/hint``: the best moves now, privately; ``/hint <n>``: play the n-th of them
    (version-checked, like a hint button on Discord)."""
    s.no_more("hint", args, 1, on_match=True)
    match_id = s.need_match()
    if args:
        if not args[0].isdigit() or s.hints is None or s.hints[0] != match_id:
            raise ServiceError.said("console.hint_pick")
        _, version, hints = s.hints
        n = int(args[0])
        if not 1 <= n <= len(hints):
            raise ServiceError.said("console.hint_pick")
        if (await s.service.info(match_id)).version != version:
            raise ServiceError.said("console.hint_stale")
        await s.service.play(match_id, s.me, hints[n - 1].move.notation, expected_version=version)
        s.hints = None
        return []
    version, hints = await s.computers.hints(match_id, s.me)
    s.hints = (match_id, version, hints)
    head = t(console_key("hint.head"), s.lang)
    lines = [t("console.private", s.lang, name=s.me.name, text=head)]
    for n, found in enumerate(hints, 1):
        lines.append(
            t(
                "console.hint_line",
                s.lang,
                n=n,
                label=say(found.move.label, s.lang),
                notation=found.move.notation,
                reason=say(found.reason, s.lang),
            )
        )
    return [*lines, t("console.hint_foot", s.lang)]


async def undo(s: Session, args: list[str]) -> list[str]:
    """``/undo`` asks to take your move back (or agrees to another's open request);
    ``/undo yes`` / ``/undo no`` answer an open request — and only that: a "no" with no
    request to refuse asked for an undo before (issue 41)."""
    s.no_more("undo", args, 1, on_match=True)
    answer: bool | None = None
    if args:
        word = args[0].lower()
        if word not in UNDO_YES + UNDO_NO:
            raise ServiceError.said("console.undo_words", word=args[0])
        answer = word in UNDO_YES
    match_id = s.need_match()
    info = await s.service.info(match_id)
    request = info.settings.get("undo") or {}
    open_now = bool(request) and request.get("version") == info.version
    if answer is not None and not open_now:
        raise ServiceError.said("svc.no_request")
    if open_now and (answer is not None or info.seat_of(s.me.id) != request.get("seat")):
        agree = answer is not False
        await s.service.answer_undo(match_id, s.me, agree)
        return [t("console.undo_agreed" if agree else "undo.refused", s.lang)]
    result = await s.service.undo(match_id, s.me)
    if isinstance(result, TurnReport):
        return []
    return [t("console.undo_asked", s.lang)]


async def resign(s: Session, args: list[str]) -> list[str]:
    s.no_more("resign", args, on_match=True)
    await s.service.resign(s.need_match(), s.me)
    return []


async def board(s: Session, args: list[str]) -> list[str]:
    s.no_more("board", args, on_match=True)
    match_id = s.need_match()
    public = await s.public_language(match_id)  # a public post: the match's
    info = await s.service.info(match_id, public)
    png = await s.service.picture(match_id, lang=public)
    s.picture_dir.mkdir(parents=True, exist_ok=True)
    path = s.picture_dir / f"match-{match_id}-board.png"
    path.write_bytes(png)
    lines = [info.status_text, t("console.picture", public, path=path)]
    alt = alt_of(png)  # what a screen reader says of it on Discord (the file's alt text)
    return lines + ([t("console.alt", public, text=alt)] if alt else [])


async def hand(s: Session, args: list[str]) -> list[str]:
    """``/hand [match]``: the hand in the match named, else in the match looked at (as
    Discord's ``/hand match:N``)."""
    match_id = s.match_named("hand", args)
    png, _view = await s.service.hand(match_id, s.me, s.lang)
    s.picture_dir.mkdir(parents=True, exist_ok=True)
    path = s.picture_dir / f"match-{match_id}-hand-{s.me.name.lower()}.png"
    path.write_bytes(png)
    picture = t("console.picture", s.lang, path=path).strip()
    lines = [t("console.private", s.lang, name=s.me.name, text=picture)]
    alt = alt_of(png)  # the hand in words: private like the picture
    if alt:
        said = t("console.alt", s.lang, text=alt).strip()
        lines.append(t("console.private", s.lang, name=s.me.name, text=said))
    return lines


async def history(s: Session, args: list[str]) -> list[str]:
    """``/history [N]``: the latest N log rows (1–50, default 15), as on Discord;
    ``/history replay [match]`` saves the animated replay of that match (as Discord's
    ``match`` option), else of the match looked at, as a file."""
    if args and args[0].lower() == "replay":
        match_id = s.match_named("history replay", args[1:])
        public = await s.public_language(match_id)  # public boards: the match's
        return await save_replay(s.service, match_id, s.picture_dir, public)
    s.no_more("history", args, 1, on_match=True)
    count = 15
    if args:
        if not args[0].isdigit() or not 1 <= int(args[0]) <= 50:
            raise ServiceError.said("err.bad_number", name="count", low=1, high=50)
        count = int(args[0])
    lines = await s.service.history(s.need_match(), last=count, lang=s.lang)
    return lines or [t("history.empty", s.lang)]
