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

from bot import ratings, stats
from bot.computer_driver import ComputerDriver, Hint
from bot.computer_players import DEFAULT_LEVEL, is_computer
from bot.replay import save_replay
from bot.score_chart import chart_png
from bot.service import MatchService, ServiceError, TurnReport, User
from render.i18n import t
from rules import get_game
from rules.ai import LEVELS
from rules.registry import game_ids

HELP = """Commands (type them as `name> /command`, e.g. `alice> /game new azul`):
  /game new <game> [players=N] [bots=N level=easy|normal|strong hints=on|off
            think_seconds=S] [option=value ...]   open a lobby (games: {games})
  /game join [match]   /game leave   /game start   /game list   /game abort
  /game bot [level]      seat a computer player   /game unbot   unseat one
  /use <match>           switch the match this console is looking at
  /play <move>           make a move (notation or the exact label)
  /moves                 list your legal moves with their notation
  /hint                  the best moves found for you now; /hint <n> plays the n-th
  /board   /hand   /history   /resign   /undo [yes|no]   /rules [game]
  /history replay        save the match as an animated picture (public boards only)
  /leaderboard [game]    ratings of this console's players (rated=on|off in /game new)
  /stats [name] [game]   a player's stats   /stats server [game]   everyone's totals
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

    def __init__(
        self,
        service: MatchService,
        picture_dir: Path,
        computers: ComputerDriver | None = None,
    ) -> None:
        self.service = service
        self.picture_dir = picture_dir
        self.current: int | None = None
        self.user: User | None = None
        #: computer seats move after every line (their thinking runs in worker processes)
        self.computers = computers or ComputerDriver(service)
        #: the latest /hint: (match, version, moves) so that /hint <n> can play one
        self._hints: tuple[int, int, list[Hint]] | None = None

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
                elif item.kind == "chart":
                    png = await chart_png(self.service.store, p["match_id"])
                    if png is not None:
                        self.picture_dir.mkdir(parents=True, exist_ok=True)
                        path = self.picture_dir / f"match-{p['match_id']}-scores.png"
                        path.write_bytes(png)
                        out.append(f"{t('chart.post', None, match=p['match_id'])} {path}")
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
        out += await self.deliver()
        if await self.computers.settle():  # computer seats whose turn it now is
            out += await self.deliver()
        return out

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
            "hint": self._hint,
            "board": self._board,
            "hand": self._hand,
            "history": self._history,
            "resign": self._resign,
            "undo": self._undo,
            "rules": self._rules,
            "export": self._export,
            "leaderboard": self._leaderboard,
            "stats": self._stats,
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
            settings: dict[str, Any] = {}
            players: int | None = None
            bots, level = 0, DEFAULT_LEVEL
            seen: set[str] = set()
            for word in rest[1:]:
                if "=" not in word:
                    return [f"Options look like name=value; “{word}” does not."]
                key, value = word.split("=", 1)
                if key in seen:
                    return [f"{key} is given twice; give each option once."]
                seen.add(key)
                if key in ("players", "bots"):
                    if not value.isdigit():
                        return [f"{key}= needs a number."]
                    if key == "players":
                        players = int(value)
                    else:
                        bots = int(value)
                elif key == "level":
                    level = value.lower()
                    settings["level"] = level  # also the level of a resigner's stand-in
                elif key == "hints":
                    settings["hints"] = bool(_value(value))
                elif key == "rated":
                    settings["rated"] = bool(_value(value))
                elif key == "think_seconds":
                    try:
                        settings["think_seconds"] = min(30.0, max(0.5, float(value)))
                    except ValueError:
                        return ["think_seconds= needs a number."]
                else:
                    options[key] = _value(value)
            if level not in LEVELS:
                return [t("ai.bad_level", None, levels=", ".join(LEVELS))]
            game = get_game(rest[0].lower()) if rest[0].lower() in game_ids() else None
            seats = min(players or game.max_players, game.max_players) if game else 0
            if game and bots > seats - 1:
                return [t("ai.too_many", None, game=game.name, max=seats, room=seats - 1)]
            info = await self.service.create_match(
                rest[0].lower(), self.user, options, max_players=players, settings=settings
            )
            self.current = info.id
            for _ in range(bots):
                info = await self.service.add_computer(info.id, self.user, level)
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
        if sub in ("bot", "unbot"):
            match_id = self._need_match()
            if sub == "unbot":
                info, name = await self.service.remove_computer(match_id, self.user)
                return [t("lobby.computer_removed", None, name=name, match=match_id)]
            level = rest[0].lower() if rest else DEFAULT_LEVEL
            info = await self.service.add_computer(match_id, self.user, level)
            return [
                t(
                    "lobby.computer_added",
                    None,
                    name=info.names[-1],
                    match=match_id,
                    count=len(info.seats),
                    max=info.max_players,
                    players=", ".join(info.names),
                )
            ]
        if sub == "abort":
            info = await self.service.abort(self._need_match(), self.user)
            if info.status == "aborted":
                return [f"Match #{info.id} aborted."]
            people = [s.user_id for s in info.seats if not is_computer(s.user_id)]
            votes = [u for u in info.settings.get("abort_votes", []) if u in people]
            return [
                t(
                    "abort.voted",
                    None,
                    match=info.id,
                    votes=len(votes),
                    needed=len(people) // 2 + 1,
                )
            ]
        return ["Use /game new, join, leave, start, list, bot, unbot or abort."]

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
        match_id = self._need_match()
        moves = await self.service.legal_moves(match_id, self.user)
        # moves too free to list (a Pastiche offer): typed in the game's notation
        free = [
            f"  Also: {c.label} — type it, e.g. `/play {c.key} …` (see /rules)."
            for c in await self.service.composers(match_id, self.user)
        ]
        if not moves:
            return free or ["You have no move to make right now."]
        moves = sorted(moves, key=lambda m: -m.rank)
        shown = [f"  {m.notation:<24} {m.label}" for m in moves[:40]]
        more = [f"  … and {len(moves) - 40} more"] if len(moves) > 40 else []
        return [f"Your {len(moves)} legal moves:", *shown, *more, *free]

    async def _hint(self, args: list[str]) -> list[str]:
        """``/hint``: the best moves now, privately; ``/hint <n>``: play the n-th of them
        (version-checked, like a hint button on Discord)."""
        assert self.user is not None
        match_id = self._need_match()
        if args:
            if not args[0].isdigit() or self._hints is None or self._hints[0] != match_id:
                return [t("console.hint_pick", None)]
            _, version, hints = self._hints
            n = int(args[0])
            if not 1 <= n <= len(hints):
                return [t("console.hint_pick", None)]
            if (await self.service.info(match_id)).version != version:
                return [t("console.hint_stale", None)]
            await self.service.play(
                match_id, self.user, hints[n - 1].move.notation, expected_version=version
            )
            self._hints = None
            return []
        version, hints = await self.computers.hints(match_id, self.user)
        self._hints = (match_id, version, hints)
        lines = [f"(private to {self.user.name}) " + t("hint.head", None)]
        for n, hint in enumerate(hints, 1):
            lines.append(
                t(
                    "console.hint_line",
                    None,
                    n=n,
                    label=hint.move.label,
                    notation=hint.move.notation,
                    reason=hint.reason,
                )
            )
        return [*lines, t("console.hint_foot", None)]

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
        if args and args[0].lower() == "replay":  # the animated replay, saved as a file
            return await save_replay(self.service, self._need_match(), self.picture_dir)
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

    async def _game_of(self, args: list[str]) -> str | None:
        """The game named among ``args`` (removed from them), else the current match's."""
        for word in list(args):
            if word.lower() in game_ids():
                args.remove(word)
                return word.lower()
        if self.current is None:
            return None
        return (await self.service.info(self.current)).game_id

    async def _leaderboard(self, args: list[str]) -> list[str]:
        game_id = await self._game_of(args)
        if game_id is None:
            return [f"/leaderboard <game>; games: {', '.join(game_ids())}."]
        board = await ratings.leaderboard(self.service.store, None, game_id)
        return ratings.leaderboard_lines(board, get_game(game_id).name)

    async def _stats(self, args: list[str]) -> list[str]:
        assert self.user is not None
        game_id = next((w.lower() for w in args if w.lower() in game_ids()), None)
        rest = [w for w in args if w.lower() not in game_ids()]
        if rest and rest[0].lower() == "server":
            return await stats.server_report(self.service.store, None, game_id)
        user = self.user
        if rest:
            name = rest[0].lower()
            user = User(f"console:{name}", name.capitalize())
        return await stats.player_report(self.service.store, None, user.id, user.name, game_id)

    async def _audit(self, args: list[str]) -> list[str]:
        problems = await self.service.audit()
        if not problems:
            return ["Audit: every match rebuilds exactly from its seed and moves."]
        return [f"Audit: match #{p.match_id}: {p.problem}" for p in problems]


async def run_console(service: MatchService, picture_dir: Path, ai_workers: int = 2) -> None:
    """Read lines from standard input until /quit or end of input."""
    console = Console(service, picture_dir, ComputerDriver(service, workers=ai_workers))
    try:
        await _read_lines(console)
    finally:
        await console.computers.close()


async def _read_lines(console: Console) -> None:
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
