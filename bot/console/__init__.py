"""The local console: the Discord commands, typed as a named user, without Discord.

    alice> /game new azul
    bob> /game join
    alice> /game start
    alice> /play F1-B-1

It drives the same :class:`~bot.matches.service.MatchService` as the Discord front end and delivers
the same outbox (turn posts are printed and their pictures saved to a folder), so anything
that works here works there. A line without ``name>`` is typed by the last named user.

The commands live beside this module by group (``lobby`` and ``subs``: /game; ``turns``:
the match looked at; ``moves``: /moves; ``community``: the rest), each a function of the
:class:`~bot.console.session.Session` that reads the typed words the same way.
"""

from __future__ import annotations

import asyncio
import shlex
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.computers.driver import ComputerDriver
from bot.console import community, leagues, lobby, moves, review, turns
from bot.console.plain import plain_text
from bot.console.session import Session, help_text
from bot.console.wording import console_key, for_console
from bot.matches.errors import ServiceError
from bot.matches.score_chart import chart_png
from bot.matches.service import MatchService
from bot.settings import Settings
from render.words.catalogue import match_language, t
from render.words.posts import listing, post_body, say_line

Handler = Callable[[Session, list[str]], Awaitable[list[str]]]

#: Each command's handler (``/game`` has its sub-commands in ``lobby``).
COMMANDS: dict[str, Handler] = {
    "game": lobby.game,
    "league": leagues.league,
    "play": turns.play,
    "moves": moves.list_moves,
    "hint": turns.hint,
    "board": turns.board,
    "hand": turns.hand,
    "history": turns.history,
    "resign": turns.resign,
    "undo": turns.undo,
    "review": review.review,
    "rules": community.rules,
    "export": community.export,
    "leaderboard": community.leaderboard,
    "stats": community.player_stats,
    "audit": community.audit,
    "notify": community.notify,
    "use": community.use,
    "lang": community.lang,
    "help": community.show_help,
}


class Console(Session):
    """One console session; ``run_line`` returns what would be shown to the user."""

    # ----- delivery ----------------------------------------------------------------------
    async def deliver(self) -> list[str]:
        """Print what the outbox holds, as the Discord front end would post it."""
        out: list[str] = []
        while True:
            due = await self.service.store.due_notifications(now=float("inf"), limit=50)
            if not due:
                return out
            for item in due:
                p = self._console_words(item.payload)
                if item.kind == "turn":
                    info = await self.service.info(p["match_id"])
                    public = match_language(info.settings)  # as posted in the thread
                    body = post_body(p, public, info.names)
                    out.append(t("console.post", public, match=p["match_id"], text=body))
                    if p.get("ply") is not None:
                        path = await self._save_picture(p["match_id"], p["ply"])
                        out.append(t("console.picture", public, path=path))
                    # calm, as on Discord: "your turn" only to who newly must act (the
                    # post's ``ping``), not again after every ply of a run or of others
                    newly = p.get("ping", p.get("mentions"))
                    if newly:
                        names = [s.name for s in info.seats if s.user_id in newly]
                        # a request, vote or refusal asks or tells them; it is not a turn
                        notice = {"asked": "console.asked", "told": "console.told"}
                        key = notice.get(str(p.get("notice")), "console.your_turn")
                        out.append(t(key, public, names=listing(names, public)))
                elif item.kind == "chart":
                    public = await self.public_language(p["match_id"])
                    png = await chart_png(self.service.store, p["match_id"], public)
                    if png is not None:
                        self.picture_dir.mkdir(parents=True, exist_ok=True)
                        path = self.picture_dir / f"match-{p['match_id']}-scores.png"
                        path.write_bytes(png)
                        out.append(f"{t('chart.post', public, match=p['match_id'])} {path}")
                elif item.kind == "dm":
                    out.append(await self._dm(p))
                elif item.kind in leagues.KINDS:  # a round's tables, the final table
                    out += await leagues.console_post(self, item.kind, p)
                await self.service.store.mark_sent(item.id)

    @staticmethod
    def _console_words(p: dict[str, Any]) -> dict[str, Any]:
        """A post's payload in the console's wording (:mod:`bot.console.wording`); one
        whose words changed is said again from them, not from its stored English."""
        worded = for_console(p)
        if worded != p:
            worded["names"] = None
        return dict(worded)

    async def _dm(self, p: dict[str, Any]) -> str:
        """A private message, in its reader's language: the one they chose with /lang,
        else the console's (as a Discord user's is their client's, never English by
        default); it names them as they typed their name."""
        uid = str(p["user_id"])
        lang = self.languages.get(uid, self.lang)
        text = str(p["text"])
        if p.get("words") and p.get("match_id") is not None:
            names = (await self.service.info(p["match_id"])).names
            stored = [str(x) for x in p.get("lines") or text.split("\n")]
            words = list(p["words"])
            text = "\n".join(
                line if k >= len(words) or words[k] is None else say_line(words[k], lang, names)
                for k, line in enumerate(stored)
            )
        user = await self.service.store.get_user(uid)
        who = self.people.get(uid) or user.get("name") or uid.removeprefix("console:")
        return t("console.private_to", lang, name=who, text=text)

    async def _save_picture(self, match_id: int, ply: int) -> Path:
        png = await self.service.picture(match_id, ply, await self.public_language(match_id))
        self.picture_dir.mkdir(parents=True, exist_ok=True)
        path = self.picture_dir / f"match-{match_id}-{ply:04d}.png"
        path.write_bytes(png)
        return path

    # ----- commands ----------------------------------------------------------------------
    async def run_line(self, line: str) -> list[str]:
        """What typing ``line`` shows: the answer, then what the outbox delivers, all in
        plain text (Discord's markup said as the console says it, :mod:`bot.console.plain`)."""
        return [plain_text(text, self.people) for text in await self._answer(line)]

    async def _answer(self, line: str) -> list[str]:
        line = line.strip()
        if not line:
            return []
        try:
            out = await self._dispatch(self._words(line))
        except ServiceError as exc:  # every refusal, the console's own and the service's
            exc.key = console_key(exc.key) if exc.key is not None else None
            exc.words = for_console(exc.words)
            out = [f"✗ {exc.text(self.lang)}"]  # the console reader's language (/lang)
        await leagues.advance(self)  # the rounds that are due move on, as Discord's tick does
        out += await self.deliver()
        if await self.computers.settle():  # computer seats whose turn it now is
            out += await self.deliver()
        return out

    def _words(self, line: str) -> list[str]:
        """The words of a typed command, its ``name>`` taken as who types it; a line that
        is no command is refused (with the ✗ of every refusal)."""
        if ">" in line.split("/", 1)[0]:
            name, line = line.split(">", 1)
            name = name.strip()
            if name:
                self.typing(name)
            line = line.strip()
        if not line.startswith("/"):
            raise ServiceError.said("console.slash_first")
        if self.user is None and not line.startswith(("/help", "/rules", "/quit")):
            raise ServiceError.said("console.who_first")
        try:
            words = shlex.split(line[1:])
        except ValueError as exc:
            raise ServiceError.said("console.unreadable", error=str(exc)) from None
        if not words:
            raise ServiceError.said("console.type_help")
        return words

    async def _dispatch(self, words: list[str]) -> list[str]:
        cmd, args = words[0].lower(), words[1:]
        handler = COMMANDS.get(cmd)
        if handler is None:
            raise ServiceError.said("console.no_command", command=cmd)
        return await handler(self, args)


async def run_console(
    service: MatchService,
    picture_dir: Path,
    ai_workers: int = 2,
    settings: Settings | None = None,
) -> None:
    """Read lines from standard input until /quit or end of input."""
    console = Console(
        service, picture_dir, ComputerDriver(service, workers=ai_workers), settings=settings
    )
    try:
        await _read_lines(console)
    finally:
        await console.computers.close()


async def _read_lines(console: Console) -> None:
    print(plain_text(help_text(console.lang), console.people))
    while True:
        prompt = f"{console.user.name.lower()}> " if console.user else "> "
        try:
            line = await asyncio.to_thread(input, prompt)
        except (EOFError, KeyboardInterrupt):
            print()
            return
        if line.strip().split(">")[-1].strip() in ("/quit", "/exit"):
            return
        for out in await console.run_line(line):
            print(out)
