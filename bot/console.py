"""The local console: the Discord commands, typed as a named user, without Discord.

    alice> /game new azul
    bob> /game join
    alice> /game start
    alice> /play F1-B-1

It drives the same :class:`~bot.service.MatchService` as the Discord front end and delivers
the same outbox (turn posts are printed and their pictures saved to a folder), so anything
that works here works there. A line without ``name>`` is typed by the last named user.
"""

from __future__ import annotations

import asyncio
import json
import shlex
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.service import MatchService, ServiceError, TurnReport, User
from rules import get_game
from rules.registry import game_ids

HELP = """Commands (type them as `name> /command`, e.g. `alice> /game new azul`):
  /game new <game> [players=N] [option=value ...]   open a lobby (games: {games})
  /game join [match]   /game leave   /game start   /game list   /game abort
  /use <match>           switch the match this console is looking at
  /play <move>           make a move (notation or the exact label)
  /moves                 list your legal moves with their notation
  /board   /hand   /history   /resign   /undo [yes|no]   /rules [game]
  /export [file]         write the game record as JSON   /audit   /help   /quit"""


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        return text


class Console:
    """One console session; ``run_line`` returns what would be shown to the user."""

    def __init__(self, service: MatchService, picture_dir: Path) -> None:
        self.service = service
        self.picture_dir = picture_dir
        self.current: int | None = None
        self.user: User | None = None

    # ----- delivery ----------------------------------------------------------------------
    async def deliver(self) -> list[str]:
        """Print what the outbox holds, as the Discord front end would post it."""
        out: list[str] = []
        while True:
            due = await self.service.store.due_notifications(now=float("inf"), limit=50)
            if not due:
                return out
            for item in due:
                p = item.payload
                if item.kind == "turn":
                    out.append(f"[match #{p['match_id']}] {p['text']}")
                    if p.get("ply") is not None:
                        path = await self._save_picture(p["match_id"], p["ply"])
                        out.append(f"  picture: {path}")
                    if p.get("mentions"):
                        info = await self.service.info(p["match_id"])
                        names = [s.name for s in info.seats if s.user_id in p["mentions"]]
                        out.append(f"  → {', '.join(names)}: your turn")
                elif item.kind == "dm":
                    out.append(f"[private to {p['user_id'].removeprefix('console:')}] {p['text']}")
                await self.service.store.mark_sent(item.id)

    async def _save_picture(self, match_id: int, ply: int) -> Path:
        png = await self.service.picture(match_id, ply)
        self.picture_dir.mkdir(parents=True, exist_ok=True)
        path = self.picture_dir / f"match-{match_id}-{ply:04d}.png"
        path.write_bytes(png)
        return path

    # ----- commands ----------------------------------------------------------------------
    async def run_line(self, line: str) -> list[str]:
        line = line.strip()
        if not line:
            return []
        if ">" in line.split("/", 1)[0]:
            name, line = line.split(">", 1)
            name = name.strip()
            if name:
                display = name.capitalize() if name.islower() else name
                self.user = User(f"console:{name.lower()}", display)
            line = line.strip()
        if not line.startswith("/"):
            return ["Commands start with / — type /help."]
        if self.user is None and not line.startswith(("/help", "/rules", "/quit")):
            return ["Say who is typing first, e.g. `alice> /game new azul`."]
        try:
            words = shlex.split(line[1:])
        except ValueError as exc:
            return [f"Could not read that line: {exc}."]
        if not words:
            return ["Type /help."]
        try:
            out = await self._dispatch(words)
        except ServiceError as exc:
            out = [f"✗ {exc}"]
        return out + await self.deliver()

    def _need_match(self) -> int:
        if self.current is None:
            raise ServiceError("No match selected: open one with /game new, or /use <match>.")
        return self.current

    async def _dispatch(self, words: list[str]) -> list[str]:
        cmd, args = words[0].lower(), words[1:]
        handlers: dict[str, Callable[[list[str]], Awaitable[list[str]]]] = {
            "game": self._game,
            "play": self._play,
            "moves": self._moves,
            "board": self._board,
            "hand": self._hand,
            "history": self._history,
            "resign": self._resign,
            "undo": self._undo,
            "rules": self._rules,
            "export": self._export,
            "audit": self._audit,
            "use": self._use,
            "help": self._help,
        }
        handler = handlers.get(cmd)
        if handler is None:
            return [f"There is no /{cmd} command. Type /help."]
        return await handler(args)

    async def _help(self, args: list[str]) -> list[str]:
        return [HELP.format(games=", ".join(game_ids()))]

    async def _game(self, args: list[str]) -> list[str]:
        assert self.user is not None
        sub = args[0].lower() if args else ""
        rest = args[1:]
        if sub == "new":
            if not rest:
                return [f"Which game? /game new <game>; games: {', '.join(game_ids())}."]
            options: dict[str, Any] = {}
            players: int | None = None
            for word in rest[1:]:
                if "=" not in word:
                    return [f"Options look like name=value; “{word}” does not."]
                key, value = word.split("=", 1)
                if key in options or (key == "players" and players is not None):
                    return [f"{key} is given twice; give each option once."]
                if key == "players":
                    if not value.isdigit():
                        return ["players= needs a number."]
                    players = int(value)
                else:
                    options[key] = _value(value)
            info = await self.service.create_match(
                rest[0].lower(), self.user, options, max_players=players
            )
            self.current = info.id
            return [
                f"Match #{info.id} ({info.game_name}) is open. Others join with "
                f"/game join {info.id}; start with /game start."
            ]
        if sub == "join":
            match_id = self._match_arg(rest)
            info = await self.service.join(match_id, self.user)
            self.current = match_id
            return [
                f"{self.user.name} joined match #{match_id} ({len(info.seats)}/"
                f"{info.max_players}): {', '.join(info.names)}."
            ]
        if sub == "leave":
            info = await self.service.leave(self._need_match(), self.user)
            return [f"{self.user.name} left match #{info.id}."]
        if sub == "start":
            report = await self.service.start(self._need_match(), self.user)
            return [f"Match #{report.match.id} started."]
        if sub == "list":
            matches = await self.service.list_matches()
            if not matches:
                return ["No open or running matches."]
            return [
                f"#{m.id} {m.game_name} [{m.status}] {', '.join(m.names)} — "
                f"{m.status_text.splitlines()[0]}"
                for m in matches
            ]
        if sub == "abort":
            info = await self.service.abort(self._need_match(), self.user)
            return [f"Match #{info.id} aborted."]
        return ["Use /game new, join, leave, start, list or abort."]

    def _match_arg(self, rest: list[str]) -> int:
        if rest:
            token = rest[0].lstrip("#")
            if not token.isdigit():
                raise ServiceError(f"“{rest[0]}” is not a match number.")
            return int(token)
        return self._need_match()

    async def _use(self, args: list[str]) -> list[str]:
        match_id = self._match_arg(args)
        info = await self.service.info(match_id)
        self.current = match_id
        return [f"Now looking at match #{match_id} ({info.game_name}): {info.status_text}"]

    async def _play(self, args: list[str]) -> list[str]:
        assert self.user is not None
        await self.service.play(self._need_match(), self.user, " ".join(args))
        return []

    async def _moves(self, args: list[str]) -> list[str]:
        assert self.user is not None
        moves = await self.service.legal_moves(self._need_match(), self.user)
        if not moves:
            return ["You have no move to make right now."]
        moves = sorted(moves, key=lambda m: -m.rank)
        shown = [f"  {m.notation:<24} {m.label}" for m in moves[:40]]
        more = [f"  … and {len(moves) - 40} more"] if len(moves) > 40 else []
        return [f"Your {len(moves)} legal moves:", *shown, *more]

    async def _board(self, args: list[str]) -> list[str]:
        match_id = self._need_match()
        info = await self.service.info(match_id)
        png = await self.service.picture(match_id)
        self.picture_dir.mkdir(parents=True, exist_ok=True)
        path = self.picture_dir / f"match-{match_id}-board.png"
        path.write_bytes(png)
        return [info.status_text, f"  picture: {path}"]

    async def _hand(self, args: list[str]) -> list[str]:
        assert self.user is not None
        match_id = self._need_match()
        png, _view = await self.service.hand(match_id, self.user)
        self.picture_dir.mkdir(parents=True, exist_ok=True)
        path = self.picture_dir / f"match-{match_id}-hand-{self.user.name.lower()}.png"
        path.write_bytes(png)
        return [f"(private to {self.user.name}) picture: {path}"]

    async def _history(self, args: list[str]) -> list[str]:
        lines = await self.service.history(self._need_match(), last=20)
        return lines or ["No moves yet."]

    async def _resign(self, args: list[str]) -> list[str]:
        assert self.user is not None
        await self.service.resign(self._need_match(), self.user)
        return []

    async def _undo(self, args: list[str]) -> list[str]:
        assert self.user is not None
        match_id = self._need_match()
        info = await self.service.info(match_id)
        request = info.settings.get("undo")
        if (
            request
            and request.get("version") == info.version
            and info.seat_of(self.user.id) != request["seat"]
        ):
            agree = not (args and args[0].lower() in ("no", "n", "refuse"))
            await self.service.answer_undo(match_id, self.user, agree)
            return ["You agreed to the undo." if agree else "You refused the undo."]
        result = await self.service.undo(match_id, self.user)
        if isinstance(result, TurnReport):
            return []
        return ["Undo requested; the other players must agree (/undo yes or /undo no)."]

    async def _rules(self, args: list[str]) -> list[str]:
        if args:
            gid = args[0].lower()
        elif self.current is not None:
            gid = (await self.service.info(self.current)).game_id
        else:
            return [f"/rules <game>; games: {', '.join(game_ids())}."]
        if gid not in game_ids():
            return [f"There is no game called “{gid}”."]
        game = get_game(gid)
        return [
            f"{game.name} ({game.min_players}–{game.max_players} players)",
            game.summary,
            game.notation_help,
        ]

    async def _export(self, args: list[str]) -> list[str]:
        match_id = self._need_match()
        record = await self.service.export_record(match_id)
        path = Path(args[0]) if args else self.picture_dir / f"match-{match_id}-record.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(record, indent=1, ensure_ascii=False), encoding="utf-8")
        return [f"Game record written to {path}"]

    async def _audit(self, args: list[str]) -> list[str]:
        problems = await self.service.audit()
        if not problems:
            return ["Audit: every match rebuilds exactly from its seed and moves."]
        return [f"Audit: match #{p.match_id}: {p.problem}" for p in problems]


async def run_console(service: MatchService, picture_dir: Path) -> None:
    """Read lines from standard input until /quit or end of input."""
    console = Console(service, picture_dir)
    print(HELP.format(games=", ".join(game_ids())))
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
