"""The local console: the Discord commands, typed as a named user, without Discord.

    alice> /game new azul
    bob> /game join
    alice> /game start
    alice> /play F1-B-1

It drives the same :class:`~bot.matches.service.MatchService` as the Discord front end and delivers
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

from bot.community import preferences, ratings, stats
from bot.community.preferences import Refusal
from bot.computers.driver import ComputerDriver, Hint
from bot.computers.players import DEFAULT_LEVEL, is_computer, level_refusal
from bot.matches import option_table, substitutes
from bot.matches.errors import ServiceError
from bot.matches.replay import save_replay
from bot.matches.reports import TurnReport, User
from bot.matches.score_chart import chart_png
from bot.matches.service import MatchService
from bot.matches.turns import label_key
from bot.settings import Settings
from render.header import away_date
from render.words.catalogue import LANGUAGES, match_language, supported_language, t, tn
from render.words.posts import listing, post_body, say_line
from render.words.say import say
from rules import get_game
from rules.base import Move, Step
from rules.registry import game_ids

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
    group's best move); its alike moves follow, each as its notation and its last choice
    (the notation says the rest: a rotation, a line); a notation inside the line is in
    backquotes, as the console quotes what is typed (and as no language's words)."""
    first, *alike = group
    line = f"  {first.notation:<24} {say(first.label, lang, names)}"
    if alike:
        line += " · " + " · ".join(
            f"`{m.notation}` ({say(_path(m)[-1].label, lang, names)})" for m in alike
        )
    return line


def move_contains(move: Move, text: str, lang: str, names: list[str]) -> bool:
    """Whether the notation or the label (as the reader sees it) contains ``text``,
    compared as a typed label is (case, spaces and plain spellings of symbols aside)."""
    wanted = label_key(text)
    return wanted in label_key(move.notation) or wanted in label_key(say(move.label, lang, names))


def help_text(lang: str | None) -> str:
    """/help in ``lang``: the commands as typed, their explanations in words."""
    return t("console.help", lang, games=", ".join(game_ids()), languages=" ".join(LANGUAGES))


def _flag(text: str) -> bool:
    """on/off, yes/no, true/false (anything else is refused): the yes/no words of every
    option (bot/matches/option_table.py)."""
    low = text.lower()
    if low in option_table.TRUE_WORDS:
        return True
    if low in option_table.FALSE_WORDS:
        return False
    raise ValueError(text)


class Console:
    """One console session; ``run_line`` returns what would be shown to the user."""

    def __init__(
        self,
        service: MatchService,
        picture_dir: Path,
        computers: ComputerDriver | None = None,
        settings: Settings | None = None,
    ) -> None:
        self.service = service
        #: defaults that /game settings shows (reminders, clock), as on Discord
        self.settings = settings or Settings(_env_file=None)  # type: ignore[call-arg]
        self.picture_dir = picture_dir
        self.current: int | None = None
        self.user: User | None = None
        #: computer seats move after every line (their thinking runs in worker processes)
        self.computers = computers or ComputerDriver(service)
        #: the latest /hint: (match, version, moves) so that /hint <n> can play one
        self._hints: tuple[int, int, list[Hint]] | None = None
        #: the language of this console's replies and hand pictures, and of the public
        #: words of the matches it opens (/lang hu)
        self.lang = "en"

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
                    public = await self._public_language(p["match_id"])
                    png = await chart_png(self.service.store, p["match_id"], public)
                    if png is not None:
                        self.picture_dir.mkdir(parents=True, exist_ok=True)
                        path = self.picture_dir / f"match-{p['match_id']}-scores.png"
                        path.write_bytes(png)
                        out.append(f"{t('chart.post', public, match=p['match_id'])} {path}")
                elif item.kind == "dm":
                    out.append(await self._dm(p))
                await self.service.store.mark_sent(item.id)

    async def _dm(self, p: dict[str, Any]) -> str:
        """A private message, in its reader's remembered language (their /lang)."""
        user = await self.service.store.get_user(str(p["user_id"]))
        lang = supported_language(user.get("locale"))
        text = str(p["text"])
        if p.get("words") and p.get("match_id") is not None:
            names = (await self.service.info(p["match_id"])).names
            stored = [str(x) for x in p.get("lines") or text.split("\n")]
            words = list(p["words"])
            text = "\n".join(
                line if k >= len(words) or words[k] is None else say_line(words[k], lang, names)
                for k, line in enumerate(stored)
            )
        who = str(p["user_id"]).removeprefix("console:")
        return t("console.private_to", lang, name=who, text=text)

    async def _public_language(self, match_id: int) -> str:
        return match_language((await self.service.info(match_id)).settings)

    async def _save_picture(self, match_id: int, ply: int) -> Path:
        png = await self.service.picture(match_id, ply, await self._public_language(match_id))
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
            return [t("console.slash_first", self.lang)]
        if self.user is None and not line.startswith(("/help", "/rules", "/quit")):
            return [t("console.who_first", self.lang)]
        try:
            words = shlex.split(line[1:])
        except ValueError as exc:
            return [t("console.unreadable", self.lang, error=exc)]
        if not words:
            return [t("console.type_help", self.lang)]
        try:
            out = await self._dispatch(words)
        except ServiceError as exc:
            out = [f"✗ {exc.text(self.lang)}"]  # the console reader's language (/lang)
        out += await self.deliver()
        if await self.computers.settle():  # computer seats whose turn it now is
            out += await self.deliver()
        return out

    def _need_match(self) -> int:
        if self.current is None:
            raise ServiceError.said("console.no_match")
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
            "notify": self._notify_or_away,
            "use": self._use,
            "lang": self._lang,
            "help": self._help,
        }
        handler = handlers.get(cmd)
        if handler is None:
            return [t("console.no_command", self.lang, command=cmd)]
        return await handler(args)

    async def _help(self, args: list[str]) -> list[str]:
        return [help_text(self.lang)]

    async def _game(self, args: list[str]) -> list[str]:
        assert self.user is not None
        sub = args[0].lower() if args else ""
        rest = args[1:]
        if sub == "new":
            if not rest:
                return [t("console.which_game", self.lang, games=", ".join(game_ids()))]
            # match settings read by the one table (bot/matches/option_table.py); the
            # game's own options by its Options model; a bad value is refused, naming it
            words: dict[str, str] = {}
            for item in rest[1:]:
                if "=" not in item:
                    return [t("console.option_form", self.lang, word=item)]
                key, value = item.split("=", 1)
                # options="grey_wall=on, …" as Discord's options field, or each by itself
                pairs = (
                    option_table.split_options(value).items()
                    if key == "options"
                    else [(key, value)]
                )
                for name, raw in pairs:
                    if name in words:
                        return [t("err.option_twice", self.lang, name=name)]
                    words[name] = raw
            table = option_table.for_command(option_table.NEW)
            given = {
                k: option_table.read_word(table[k], v, self.lang)
                for k, v in words.items()
                if k in table
            }
            if rest[0].lower() in game_ids():
                own = {k: v for k, v in words.items() if k not in table}
                options = option_table.read_game_options(rest[0].lower(), own, self.lang)
            else:
                options = {}
            players: int | None = given.pop("players", None)
            bots: int = given.pop("bots", 0)
            level: str = given.get("level", DEFAULT_LEVEL)  # also a resigner's stand-in's
            settings: dict[str, Any] = {"language": self.lang, **given}
            game = get_game(rest[0].lower()) if rest[0].lower() in game_ids() else None
            refusal = level_refusal(game, level)
            if refusal is not None:
                key, values = refusal
                return [t(key, self.lang, **values)]
            seats = min(players or game.max_players, game.max_players) if game else 0
            if game and bots > seats - 1:
                return [t("ai.too_many", self.lang, game=game.name, max=seats, room=seats - 1)]
            info = await self.service.create_match(
                rest[0].lower(), self.user, options, max_players=players, settings=settings
            )
            self.current = info.id
            for _ in range(bots):
                info = await self.service.add_computer(info.id, self.user, level)
            return [t("console.opened", self.lang, match=info.id, game=info.game_name)]
        if sub == "join":
            match_id = self._match_arg(rest)
            info = await self.service.join(match_id, self.user)
            self.current = match_id
            return [
                t(
                    "lobby.joined",
                    self.lang,
                    user=self.user.name,
                    match=match_id,
                    count=len(info.seats),
                    max=info.max_players,
                    players=listing(info.names, self.lang),
                )
            ]
        if sub == "leave":
            info = await self.service.leave(self._need_match(), self.user)
            return [t("lobby.left", self.lang, user=self.user.name, match=info.id)]
        if sub == "start":
            report = await self.service.start(self._need_match(), self.user)
            started = t("console.started", self.lang, match=report.match.id)
            return [started, *self._who_acts(report.match)]
        if sub == "settings":
            return await self._game_settings(rest)
        if sub == "sub":
            return await self._game_sub(rest)
        if sub == "list":
            matches = await self.service.list_matches(lang=self.lang)
            if not matches:
                return [t("console.list_empty", self.lang)]
            return [
                t(
                    "console.list_line",
                    self.lang,
                    match=m.id,
                    game=m.game_name,
                    status=t(f"console.status.{m.status}", self.lang),
                    players=listing(m.names, self.lang),
                    text=m.status_text.splitlines()[0],
                )
                for m in matches
            ]
        if sub in ("bot", "unbot"):
            match_id = self._need_match()
            if sub == "unbot":
                info, name = await self.service.remove_computer(match_id, self.user)
                return [t("lobby.computer_removed", self.lang, name=name, match=match_id)]
            level = rest[0].lower() if rest else DEFAULT_LEVEL
            info = await self.service.add_computer(match_id, self.user, level)
            return [
                t(
                    "lobby.computer_added",
                    self.lang,
                    name=info.names[-1],
                    match=match_id,
                    count=len(info.seats),
                    max=info.max_players,
                    players=listing(info.names, self.lang),
                )
            ]
        if sub == "abort":
            info = await self.service.abort(self._need_match(), self.user)
            if info.status == "aborted":
                return [t("match.aborted", self.lang, match=info.id)]
            people = [s.user_id for s in info.seats if not is_computer(s.user_id)]
            votes = [u for u in info.settings.get("abort_votes", []) if u in people]
            return [
                t(
                    "abort.voted",
                    self.lang,
                    match=info.id,
                    votes=len(votes),
                    needed=len(people) // 2 + 1,
                )
            ]
        return [t("console.game_usage", self.lang)]

    def _match_arg(self, rest: list[str]) -> int:
        if rest:
            token = rest[0].lstrip("#")
            if not token.isdigit():
                raise ServiceError.said("console.not_a_number", text=rest[0])
            return int(token)
        return self._need_match()

    async def _use(self, args: list[str]) -> list[str]:
        match_id = self._match_arg(args)
        info = await self.service.info(match_id, self.lang)
        self.current = match_id
        return [
            t(
                "console.looking",
                self.lang,
                match=match_id,
                game=info.game_name,
                status=info.status_text,
            )
        ]

    async def _lang(self, args: list[str]) -> list[str]:
        """``/lang hu``: this console's language, remembered as the typing user's (their
        DMs and reminders) like a Discord client's language."""
        assert self.user is not None
        wanted = args[0].lower() if args else ""
        if supported_language(wanted) != wanted.split("-")[0] or not wanted:
            return [t("console.lang_usage", self.lang, languages=", ".join(LANGUAGES))]
        self.lang = supported_language(wanted)
        await self.service.store.remember_locale(self.user.id, self.user.name, self.lang)
        return [t("console.lang_set", self.lang, language=self.lang)]

    async def _play(self, args: list[str]) -> list[str]:
        assert self.user is not None
        await self.service.play(self._need_match(), self.user, " ".join(args))
        return []

    async def _moves(self, args: list[str]) -> list[str]:
        """``/moves [text] [page]``: the legal moves, alike ones on one line (a placement
        with its rotations, as the guided panel walks them), a page at a time; ``text``
        keeps only the moves whose notation or label contains it."""
        assert self.user is not None
        match_id = self._need_match()
        page = 1
        if args and args[-1].isdigit():
            page, args = int(args[-1]), args[:-1]
        wanted = " ".join(args)
        info, moves = await self.service.turn_for(match_id, self.user)
        # moves too free to list (a Pastiche offer): typed in the game's notation
        free = [
            t("console.also", self.lang, label=say(c.label, self.lang), key=c.key)
            for c in await self.service.composers(match_id, self.user)
        ]
        if not moves:
            if free:
                return free
            return self._who_acts(info) or [t("console.no_moves", self.lang)]
        moves = sorted(moves, key=lambda m: -m.rank)
        if wanted:
            moves = [m for m in moves if move_contains(m, wanted, self.lang, info.names)]
            if not moves:
                return [t("console.moves_none_contain", self.lang, text=wanted)]
            head = tn("console.moves_containing", len(moves), self.lang, text=wanted)
        else:
            head = tn("console.moves_head", len(moves), self.lang)
        groups = group_moves(moves)
        pages = max(1, -(-len(groups) // MOVES_PER_PAGE))
        if not 1 <= page <= pages:
            return [tn("console.moves_no_page", pages, self.lang, page=page)]
        shown = groups[(page - 1) * MOVES_PER_PAGE : page * MOVES_PER_PAGE]
        lines = [group_line(g, self.lang, info.names) for g in shown]  # only these are said
        foot = [t("console.moves_page", self.lang, page=page, pages=pages)] if pages > 1 else []
        return [head, *lines, *foot, *free]

    async def _hint(self, args: list[str]) -> list[str]:
        """``/hint``: the best moves now, privately; ``/hint <n>``: play the n-th of them
        (version-checked, like a hint button on Discord)."""
        assert self.user is not None
        match_id = self._need_match()
        if args:
            if not args[0].isdigit() or self._hints is None or self._hints[0] != match_id:
                return [t("console.hint_pick", self.lang)]
            _, version, hints = self._hints
            n = int(args[0])
            if not 1 <= n <= len(hints):
                return [t("console.hint_pick", self.lang)]
            if (await self.service.info(match_id)).version != version:
                return [t("console.hint_stale", self.lang)]
            await self.service.play(
                match_id, self.user, hints[n - 1].move.notation, expected_version=version
            )
            self._hints = None
            return []
        version, hints = await self.computers.hints(match_id, self.user)
        self._hints = (match_id, version, hints)
        head = t("hint.head", self.lang)
        lines = [t("console.private", self.lang, name=self.user.name, text=head)]
        for n, hint in enumerate(hints, 1):
            lines.append(
                t(
                    "console.hint_line",
                    self.lang,
                    n=n,
                    label=say(hint.move.label, self.lang),
                    notation=hint.move.notation,
                    reason=say(hint.reason, self.lang),
                )
            )
        return [*lines, t("console.hint_foot", self.lang)]

    async def _board(self, args: list[str]) -> list[str]:
        match_id = self._need_match()
        public = await self._public_language(match_id)  # a public post: the match's
        info = await self.service.info(match_id, public)
        png = await self.service.picture(match_id, lang=public)
        self.picture_dir.mkdir(parents=True, exist_ok=True)
        path = self.picture_dir / f"match-{match_id}-board.png"
        path.write_bytes(png)
        return [info.status_text, t("console.picture", public, path=path)]

    async def _hand(self, args: list[str]) -> list[str]:
        assert self.user is not None
        match_id = self._need_match()
        png, _view = await self.service.hand(match_id, self.user, self.lang)
        self.picture_dir.mkdir(parents=True, exist_ok=True)
        path = self.picture_dir / f"match-{match_id}-hand-{self.user.name.lower()}.png"
        path.write_bytes(png)
        picture = t("console.picture", self.lang, path=path).strip()
        return [t("console.private", self.lang, name=self.user.name, text=picture)]

    async def _history(self, args: list[str]) -> list[str]:
        """``/history [N]``: the latest N log rows (1–50, default 15), as on Discord;
        ``/history replay`` saves the animated replay as a file."""
        if args and args[0].lower() == "replay":
            match_id = self._need_match()
            public = await self._public_language(match_id)  # public boards: the match's
            return await save_replay(self.service, match_id, self.picture_dir, public)
        count = 15
        if args:
            if not args[0].isdigit() or not 1 <= int(args[0]) <= 50:
                return [t("err.bad_number", self.lang, name="count", low=1, high=50)]
            count = int(args[0])
        lines = await self.service.history(self._need_match(), last=count, lang=self.lang)
        return lines or [t("history.empty", self.lang)]

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
            return [t("console.undo_agreed" if agree else "undo.refused", self.lang)]
        result = await self.service.undo(match_id, self.user)
        if isinstance(result, TurnReport):
            return []
        return [t("console.undo_asked", self.lang)]

    async def _rules(self, args: list[str]) -> list[str]:
        if args:
            gid = args[0].lower()
        elif self.current is not None:
            gid = (await self.service.info(self.current)).game_id
        else:
            return [t("console.rules_usage", self.lang, games=", ".join(game_ids()))]
        if gid not in game_ids():
            return [t("err.unknown_game", self.lang, game=gid)]
        game = get_game(gid)
        return [
            t(
                "console.rules_head",
                self.lang,
                game=game.name,
                min=game.min_players,
                max=game.max_players,
            ),
            say(game.summary, self.lang),
            say(game.notation_help, self.lang),
        ]

    async def _export(self, args: list[str]) -> list[str]:
        """``/export [match] [file]``: a first word that is a match number (``5``, ``#5``)
        names the match, as ``python -m bot export 5`` does; any other first word is the
        file, for the current match (a file named only by digits is written ``./5``)."""
        if args and args[0].lstrip("#").isdigit():
            match_id, args = self._match_arg(args), args[1:]
        else:
            match_id = self._need_match()
        record = await self.service.export_record(match_id)
        path = Path(args[0]) if args else self.picture_dir / f"match-{match_id}-record.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(record, indent=1, ensure_ascii=False), encoding="utf-8")
        return [t("console.exported", self.lang, path=path)]

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
            return [t("console.leaderboard_usage", self.lang, games=", ".join(game_ids()))]
        board = await ratings.leaderboard(self.service.store, None, game_id)
        return ratings.leaderboard_lines(board, get_game(game_id).name, self.lang)

    async def _stats(self, args: list[str]) -> list[str]:
        assert self.user is not None
        game_id = next((w.lower() for w in args if w.lower() in game_ids()), None)
        rest = [w for w in args if w.lower() not in game_ids()]
        if rest and rest[0].lower() == "server":
            return await stats.server_report(self.service.store, None, game_id, self.lang)
        user = self.user
        if rest:
            name = rest[0].lower()
            user = User(f"console:{name}", name.capitalize())
        return await stats.player_report(
            self.service.store, None, user.id, user.name, game_id, self.lang
        )

    async def _notify_away(self, args: list[str]) -> list[str]:
        """``/notify away <days>`` and ``/notify back`` (as Discord's ``/notify away:`` and
        ``back:``); the other /notify settings are Discord's."""
        assert self.user is not None
        sub = args[0].lower() if args else ""
        if sub == "away" and len(args) == 2 and args[1].isdigit() and 1 <= int(args[1]) <= 14:
            until = await self.service.go_away(self.user.id, int(args[1]))
            return [t("away.set", self.lang, date=away_date(until, self.lang))]
        if sub == "back" and len(args) == 1:
            await self.service.come_back(self.user.id)
            return [t("away.back", self.lang)]
        return [t("console.away_usage", self.lang)]

    async def _notify_or_away(self, args: list[str]) -> list[str]:
        """``/notify away <days>`` / ``/notify back`` pause and resume the clocks; anything
        else is the preferences form of ``/notify``."""
        if args and args[0].lower() in ("away", "back"):
            return await self._notify_away(args)
        return await self._notify(args)

    # ----- console parity: /notify, /game settings, /game sub, who is to move ------------
    def _who_acts(self, info: Any) -> list[str]:
        """Who the match waits for, as the console types it ("bob> /moves"), unless it is
        the person typing: the README example works whoever the game lets start."""
        if info.status != "running" or not info.to_act:
            return []
        waiting = [s for s in info.seats if s.user_id in info.to_act]
        if self.user is not None and all(s.user_id == self.user.id for s in waiting):
            return [t("console.your_move", self.lang)]
        people = [s for s in waiting if s.user_id.startswith("console:")]
        names = listing([s.name for s in waiting], self.lang)
        if not people:  # computer players: they move by themselves
            return [t("console.waiting", self.lang, names=names)]
        typed = people[0].user_id.removeprefix("console:")
        return [t("console.to_move", self.lang, names=names, typed=typed)]

    @staticmethod
    def _named_options(args: list[str], kinds: dict[str, Any]) -> dict[str, Any]:
        """``name=value`` words converted by ``kinds[name]`` (a refusal names the word)."""
        out: dict[str, Any] = {}
        for word in args:
            key, sep, raw = word.partition("=")
            if not sep or key not in kinds:
                raise Refusal("console.options", word=word, names=", ".join(kinds))
            if key in out:
                raise Refusal("err.option_twice", name=key)
            try:
                out[key] = kinds[key](raw)
            except ValueError:
                raise Refusal("console.options", word=word, names=", ".join(kinds)) from None
        return out

    async def _notify(self, args: list[str]) -> list[str]:
        """``/notify [mode=… reminder_hours=… quiet_from=… quiet_to=… utc_offset=…
        heads_up=on|off]``: the same checks and words as Discord's /notify."""
        assert self.user is not None
        opts = self._named_options(
            args,
            {
                "mode": str.lower,
                "reminder_hours": float,
                "quiet_from": int,
                "quiet_to": int,
                "utc_offset": float,
                "heads_up": _flag,
            },
        )
        user = await preferences.update_notify(
            self.service.store, self.user.id, self.user.name, self.lang, **opts
        )
        summary = preferences.notify_summary(user, self.lang)
        return [t("notify.saved", self.lang, summary=summary)]

    async def _game_settings(self, args: list[str]) -> list[str]:
        """``/game settings [match=N] [name=value …]``: the match's creator changes them
        (the console has no server managers); without options it shows them. The names and
        what each allows are the one table's (bot/matches/option_table.py), as on Discord."""
        assert self.user is not None
        table = option_table.for_command(option_table.SETTINGS)
        words: dict[str, str] = {}
        for item in args:
            key, sep, raw = item.partition("=")
            if not sep or key not in (*table, "match"):
                names = ", ".join([*table, "match"])
                return [t("console.options", self.lang, word=item, names=names)]
            if key in words:
                return [t("err.option_twice", self.lang, name=key)]
            words[key] = raw
        # match=N names the match (as Discord's match option); without it, the current one
        match_id = self._match_arg([words.pop("match")]) if "match" in words else self._need_match()
        info = await self.service.info(match_id)
        changes = {k: option_table.read_word(table[k], v, self.lang) for k, v in words.items()}
        if changes and info.creator_id != self.user.id:
            return [t("err.not_creator", self.lang)]
        rated = changes.pop("rated", None)
        if rated is not None and (
            info.status in ("finished", "aborted")
            or not await ratings.set_rated(self.service.store, match_id, rated)
        ):
            return [t("err.rated_over", self.lang, match=match_id)]
        if changes:
            info = await self.service.update_settings(match_id, **changes)
        elif rated is not None:
            info = await self.service.info(match_id)
        summary = preferences.settings_summary(self.settings, info.settings, self.lang)
        key = "settings.saved" if changes or rated is not None else "settings.none"
        return [t(key, self.lang, match=match_id, summary=summary)]

    def _console_user(self, name: str) -> User:
        name = name.lstrip("@")
        return User(f"console:{name.lower()}", name.capitalize() if name.islower() else name)

    async def _game_sub(self, args: list[str]) -> list[str]:
        """``/game sub <name>`` offers your seat; ``/game sub seat=N <name>|computer`` opens
        a vote on a seat given up; ``accept``/``decline``, ``yes``/``no`` and ``withdraw``
        (each with an optional seat number) answer; alone it lists what is open."""
        assert self.user is not None
        match_id = self._need_match()
        words = [w.lower() for w in args]
        answers = ("accept", "decline", "yes", "no", "withdraw")
        if not words:
            open_now = await self.service.open_subs(match_id)
            if not open_now:
                return [t("console.sub_none", self.lang)]
            info = await self.service.info(match_id)
            states = [self._open_state(info, p) for p in open_now]
            return [substitutes.post_text(s, self.lang) for s in states]
        if words[0] in answers:
            seat = await self._sub_seat(match_id, words[0], words[1:])
            if words[0] in ("accept", "decline"):
                state = await self.service.answer_sub(
                    match_id, self.user, seat, None, words[0] == "accept"
                )
            elif words[0] == "withdraw":
                state = await self.service.withdraw_sub(match_id, self.user, seat, None)
            else:
                state = await self.service.vote_sub(
                    match_id, self.user, seat, None, words[0] == "yes"
                )
            return [substitutes.answer_text(state, self.lang, self.user.id)]
        seat_words = [w for w in words if w.startswith("seat=")]
        rest = [a for a in args if not a.lower().startswith("seat=")]
        if len(rest) != 1 or len(seat_words) > 1:
            return [t("console.sub_usage", self.lang)]
        if not seat_words:
            if rest[0].lower() == "computer":
                return [t("sub.computer_needs_seat", self.lang)]
            state = await self.service.offer_seat(match_id, self.user, self._console_user(rest[0]))
        else:
            number = seat_words[0].removeprefix("seat=")
            if not number.isdigit() or not 1 <= int(number) <= 10:
                return [t("err.bad_number", self.lang, name="seat", low=1, high=10)]
            new = None if rest[0].lower() == "computer" else self._console_user(rest[0])
            state = await self.service.propose_sub(match_id, self.user, int(number) - 1, new)
        if state.status == "done":
            return [substitutes.answer_text(state, self.lang, self.user.id)]
        return [substitutes.post_text(state, self.lang), *self._sub_howto(state.proposal)]

    def _sub_howto(self, proposal: dict[str, Any]) -> list[str]:
        """The console's stand-in for the buttons under the post: what to type."""
        lines = []
        if proposal["to"] is not None:
            typed = proposal["to"].removeprefix("console:")
            lines.append(t("console.sub_answer", self.lang, typed=typed))
        if proposal["kind"] == "vote":
            lines.append(t("console.sub_vote", self.lang, seat=proposal["seat"] + 1))
        return lines

    def _open_state(self, info: Any, proposal: dict[str, Any]) -> substitutes.SubState:
        people = substitutes.voters(info.seats, info.settings)
        return substitutes.SubState(
            info,
            proposal,
            "open",
            substitutes.votes_for(proposal, people),
            substitutes.needed(people),
        )

    async def _sub_seat(self, match_id: int, action: str, rest: list[str]) -> int:
        """The seat an answer is about: given, else the one open offer or vote it fits."""
        assert self.user is not None
        if rest:
            if not rest[0].isdigit():
                raise Refusal("console.sub_usage")
            return int(rest[0]) - 1
        mine = {
            "accept": lambda p: p["to"] == self.user.id,
            "decline": lambda p: p["to"] == self.user.id,
            "withdraw": lambda p: p["by"] == self.user.id,
        }.get(action, lambda p: p["kind"] == "vote")
        fitting = [p for p in await self.service.open_subs(match_id) if mine(p)]
        if len(fitting) != 1:
            raise Refusal("console.sub_which" if fitting else "sub.no_offer")
        return int(fitting[0]["seat"])

    async def _audit(self, args: list[str]) -> list[str]:
        problems = await self.service.audit()
        if not problems:
            return [t("console.audit_ok", self.lang)]
        return [
            t("console.audit_problem", self.lang, match=p.match_id, problem=p.problem)
            for p in problems
        ]


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
    print(help_text(console.lang))
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
