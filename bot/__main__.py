"""``python -m bot``: Discord when a token is configured, else the local console.

Sub-commands: ``demo`` (a whole random game with pictures and record), ``bench`` (speed
figures), ``load`` (the sustained-load benchmark), ``arena`` (computer players' measured
strength), ``arena-tally`` (the table of games ``arena --record`` kept), ``calibrate`` (the
search's iterations per second), ``audit``, ``export``,
``migrate`` (apply the schema, e.g. before starting several processes), ``copy-db``
(SQLite → PostgreSQL), ``i18n extract|check`` (the translation files), ``replay`` (a
match as an animated WebP), ``review`` (a finished match's biggest moments),
``replay-bench`` and ``sweep-bench`` (the computer driver at
many running matches).

The bot and the console create their database on first start, ``migrate`` creates one
when asked to, and ``copy-db`` and ``load`` fill a new one; every command that reads
matches (``audit``, ``export``, ``ratings``, ``replay``, ``copy-db``'s source) refuses a
missing one instead of reporting on an empty file that a typo created.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import select
import sys
from pathlib import Path
from typing import Any, NoReturn

from pydantic import ValidationError

from bot.ops.logs import configure_logging
from bot.settings import Settings
from bot.storage import is_postgres_url
from bot.storage.faults import DatabaseUnavailable, SchemaTooNew
from bot.storage.limits import for_tools
from bot.tools.arguments import match_number, not_negative, seconds, whole
from render.words.catalogue import LANGUAGES, t
from rules.registry import game_ids

#: Exit code for a command line that cannot work (argparse's own convention).
USAGE_ERROR = 2
DB_HELP = (
    "SQLite file or postgresql:// URL (default: TESSERA_DATABASE_URL, else TESSERA_DATABASE_PATH)"
)
#: The database of a command that reads matches: a missing one is refused, never created.
READ_DB_HELP = DB_HELP + "; it must exist"
#: Commands that read or write whole tables, and on which no player waits: their
#: statements may take ``bot.storage.limits.TOOL_STATEMENT_SECONDS``.
TOOLS = ("migrate", "copy-db", "audit", "ratings", "export", "replay")
#: The levels ``logging`` knows; anything else in TESSERA_LOG_LEVEL is refused.
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class UsageError(Exception):
    """A command line that cannot work: one line for the person who typed it."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a wrong command line answers in one line (no usage block) and exits
    with 2; ``--help`` still prints the full usage."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(t("cli.bad_arguments", None, prog=self.prog, message=message))


def _parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="python -m bot", description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    p.add_argument(
        "--db",
        help=DB_HELP + ";\nthe bot and the console create it on first start (also accepted "
        "after the commands that use a database)",
    )
    p.add_argument("--console", action="store_true", help="local console even with a token")
    p.add_argument(
        "--sync",
        action="store_true",
        help="push the slash commands to Discord on this start (global or dev guild)",
    )
    sub = p.add_subparsers(dest="command", parser_class=_Parser)
    d = sub.add_parser("demo", help="play a whole game with random legal moves")
    d.add_argument("game", choices=game_ids())
    d.add_argument("--players", type=int, default=None)
    d.add_argument("--seed", type=int, default=7)
    d.add_argument("--out", type=Path, default=Path("demo-out"), help="folder (created)")
    d.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    b = sub.add_parser("bench", help="print speed figures (not part of the tests)")
    b.add_argument("--json", action="store_true", help="machine-readable output")
    b.add_argument("--quick", action="store_true", help="fewer samples")
    b.add_argument("--games", nargs="*", default=None, choices=game_ids())
    b.add_argument("--playouts-only", action="store_true", help="only random playouts/s")
    sw = sub.add_parser("sweep-bench", help="the computer driver's sweep at many matches")
    sw.add_argument("--matches", type=whole(1), default=100_000, help="running matches")
    sw.add_argument("--computers", type=float, default=0.3, help="share with a computer seat")
    sw.add_argument("--due", type=float, default=0.4, help="of those, share waiting for it")
    sw.add_argument("--workers", type=whole(1), default=2, help="thinking worker processes")
    sw.add_argument("--seed", type=int, default=44)
    sw.add_argument("--reuse", action="store_true", help="measure the --db filled before")
    sw.add_argument(
        "--db", default=argparse.SUPPRESS, help=DB_HELP + "; kept (else a temporary one)"
    )
    ld = sub.add_parser("load", help="sustained load through the service (see README)")
    ld.add_argument("--matches", type=whole(1), default=10_000)
    ld.add_argument("--seconds", type=seconds, default=30.0)
    ld.add_argument("--rate", type=not_negative, default=0.0, help="target moves/s (0: flat out)")
    ld.add_argument("--json", action="store_true")
    ld.add_argument(
        "--database",
        default=None,
        help="an empty or new SQLite file (created) or an empty postgresql:// database "
        "(default: a temporary SQLite file)",
    )
    ld.add_argument(
        "--processes", type=whole(1), default=1, help="bot processes (PostgreSQL only above 1)"
    )
    ld.add_argument("--no-pictures", action="store_true", help="play without drawing")
    ld.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    a = sub.add_parser("arena", help="computer players against each other (win rates)")
    a.add_argument("game", choices=game_ids())
    a.add_argument("--players", type=int, default=2)
    a.add_argument("--games", type=whole(1), default=20)
    a.add_argument("--seats", required=True, help="one level per seat: normal,random,...")
    a.add_argument("--budget", type=seconds, default=2.0, help="seconds per move (default 2)")
    a.add_argument("--seed", type=int, default=1)
    a.add_argument("--workers", type=whole(1), default=2, help="processes (default 2)")
    a.add_argument(
        "--no-clock",
        action="store_true",
        help="searches stop on their iteration count only: results independent of load",
    )
    a.add_argument(
        "--first", type=whole(0), default=0, help="first game's index (default 0): a row in parts"
    )
    a.add_argument("--record", default=None, help="append each finished game to this file")
    a.add_argument("--json", action="store_true")
    at = sub.add_parser("arena-tally", help="the arena table of games recorded by --record")
    at.add_argument("files", nargs="+")
    at.add_argument("--json", action="store_true")
    cal = sub.add_parser("calibrate", help="the search's iterations per second per game")
    cal.add_argument("--games", nargs="*", default=None, choices=game_ids())
    cal.add_argument("--positions", type=whole(1), default=12)
    cal.add_argument("--iterations", type=whole(1), default=200)
    cal.add_argument("--json", action="store_true")
    au = sub.add_parser("audit", help="rebuild every match from seed + moves and compare")
    # --db is also understood after the command ("audit --db FILE"), as people type it
    au.add_argument("--db", default=argparse.SUPPRESS, help=READ_DB_HELP)
    m = sub.add_parser(
        "migrate", help="create (when missing) or upgrade the database schema, then exit"
    )
    m.add_argument("--db", default=argparse.SUPPRESS, help=DB_HELP + "; created when missing")
    c = sub.add_parser(
        "copy-db", help="copy a whole database (e.g. SQLite into PostgreSQL); bot stopped"
    )
    c.add_argument("source", help="SQLite file or postgresql:// URL (must exist)")
    c.add_argument(
        "target", help="SQLite file (created when missing) or postgresql:// URL (must be empty)"
    )
    r = sub.add_parser("ratings", help="print the rating tables (or rebuild them first)")
    r.add_argument("--db", default=argparse.SUPPRESS, help=READ_DB_HELP)
    r.add_argument("--rebuild", action="store_true", help="recompute from the stored matches")
    i18n = sub.add_parser("i18n", help="translation files: extract the template, check catalogues")
    i18n.add_argument("action", choices=["extract", "check"])
    e = sub.add_parser("export", help="write a match's game record as JSON")
    e.add_argument("--db", default=argparse.SUPPRESS, help=READ_DB_HELP)
    e.add_argument("match_id", type=match_number, metavar="MATCH", help="the match's number")
    e.add_argument("--out", type=Path, default=None, help="the file to write (default: print)")
    rp = sub.add_parser("replay", help="write a match's animated replay (WebP, else GIF)")
    rp.add_argument("--db", default=argparse.SUPPRESS, help=READ_DB_HELP)
    rp.add_argument("match_id", type=match_number, metavar="MATCH", help="the match's number")
    rp.add_argument("--out", type=Path, required=True, help="the file to write")
    rp.add_argument(
        "--lang", default="en", choices=LANGUAGES, help="language of the pictures' words"
    )
    rv = sub.add_parser("review", help="where a finished match was won and lost, per player")
    rv.add_argument("--db", default=argparse.SUPPRESS, help=READ_DB_HELP)
    rv.add_argument(
        "match_id", type=match_number, nargs="?", metavar="MATCH", help="the match's number"
    )
    rv.add_argument(
        "--record", type=Path, default=None, help="review an exported record file instead"
    )
    rv.add_argument("--json", action="store_true", help="machine-readable output")
    rv.add_argument("--lang", default="en", choices=LANGUAGES, help="language of the words")
    rv.add_argument("--workers", type=whole(1), default=2, help="judging processes (default 2)")
    rv.add_argument(
        "--budget", type=seconds, default=None, help="seconds per decision (default: the engine's)"
    )
    rb = sub.add_parser("replay-bench", help="time and size of long matches' replays")
    rb.add_argument("--games", nargs="*", default=None, choices=game_ids())
    rb.add_argument("--out", type=Path, default=None, help="also write the replays here")
    rb.add_argument("--json", action="store_true")
    return p


async def _replay(db: Path | str, match_id: int, out: Path, lang: str) -> int:
    """Builds the replay in a worker process, as the bot does; the file's suffix follows
    the format (``.webp`` or ``.gif``) when the one given names the other."""
    from bot.matches.errors import ServiceError
    from bot.matches.replay import replays_of, saved_words
    from render.replay import TooLarge

    service = await _open_existing(db)
    try:
        replay = await replays_of(service).get(match_id, lang)
    except ServiceError as exc:  # no such match: the command's slip, as for export
        print(exc, file=sys.stderr)
        return 2
    except TooLarge as exc:  # the match is real but its replay cannot be made: a failure
        print(exc, file=sys.stderr)
        return 1
    finally:
        await service.close()
    if out.suffix.lower() in (".webp", ".gif") and out.suffix.lower() != f".{replay.format}":
        out = out.with_suffix(f".{replay.format}")
    out.write_bytes(replay.data)
    print(saved_words(replay, match_id, out, lang))
    return 0


def _review(args: argparse.Namespace, db: Path | str) -> int:
    """``review``: a match of the database, or (``--record``) of an exported record file."""
    from bot.matches.review import BadRecord
    from bot.tools.review import bad_record, read_record, review_match, review_record

    if args.record is None and args.match_id is None:
        _refuse("review", "give the match's number (MATCH) or --record FILE")
    if args.record is not None:
        if args.match_id is not None:
            _refuse("review", "give MATCH (from the database) or --record FILE, not both")
        if not args.record.is_file():
            _refuse("review", f"argument --record: there is no file {args.record}")
        try:
            record = read_record(args.record)
        except BadRecord as exc:
            raise UsageError(bad_record(args.record, str(exc), args.lang)) from None
        return asyncio.run(
            review_record(
                record,
                as_json=args.json,
                lang=args.lang,
                workers=args.workers,
                budget_s=args.budget,
            )
        )

    async def run() -> int:
        service = await _open_existing(_existing_database(db))
        try:
            return await review_match(
                service,
                args.match_id,
                as_json=args.json,
                lang=args.lang,
                workers=args.workers,
                budget_s=args.budget,
            )
        finally:
            await service.close()

    return asyncio.run(run())


async def _open_existing(db: Path | str) -> Any:
    """The service over an existing database, or one line saying why it cannot be read."""
    from bot.matches.service import MatchService

    try:
        return await MatchService.open(db, render=False)
    except Exception as exc:  # not a database, unreadable, a server that refuses
        raise UsageError(t("cli.bad_database", None, path=db, error=exc)) from None


async def _readable(db: Path | str) -> None:
    """Opens and closes ``db``, so a command that opens it itself later (ratings, copy-db)
    meets a file that is no database as one line here, not as a traceback there."""
    from bot.storage import open_store

    try:
        store = await open_store(db)
    except Exception as exc:  # not a database, unreadable, a server that refuses
        raise UsageError(t("cli.bad_database", None, path=db, error=exc)) from None
    await store.close()


async def _audit(db: Path | str) -> int:
    service = await _open_existing(db)
    try:
        problems = await service.audit()
    finally:
        await service.close()
    for problem in problems:
        print(f"match #{problem.match_id}: {problem.problem}")
    print(f"audit: {len(problems)} problem(s)")
    return 1 if problems else 0


async def _export(db: Path | str, match_id: int, out: Path | None) -> int:
    from bot.matches.errors import ServiceError

    service = await _open_existing(db)
    try:
        record = await service.export_record(match_id)
    except ServiceError as exc:  # no such match: the command's slip
        raise UsageError(str(exc)) from None
    finally:
        await service.close()
    text = json.dumps(record, indent=1, ensure_ascii=False)
    if out:
        out.write_text(text, encoding="utf-8")
        print(f"written {out}")
    else:
        print(text)
    return 0


async def _copy_db(source: str, target: str) -> int:
    from bot.storage.copydb import copy_database

    report = await copy_database(source, target)
    for table, n in report.counts.items():
        print(f"{table}: {n} rows")
    for problem in report.audit_problems:
        print(problem)
    print(f"audit of the copy: {len(report.audit_problems)} problem(s)")
    return 1 if report.audit_problems else 0


async def _interactive(settings: Settings, db: Path | str, force_console: bool, sync: bool) -> int:
    if settings.discord_token and not force_console:
        from bot.discord import run_discord

        where: dict[str, str | Path] = (
            {"database_url": db} if is_postgres_url(db) else {"database_path": Path(db)}
        )
        if not is_postgres_url(db):
            where["database_url"] = ""
        return await run_discord(settings.model_copy(update=where), sync=sync)
    from bot.console import run_console
    from bot.matches.service import MatchService

    if not settings.discord_token:
        print(
            "No DISCORD_TOKEN configured: starting the local console.\n"
            "To play on Discord, put DISCORD_TOKEN=<your bot token> in a .env file "
            "(see README, “Run it on your server”) and start again.\n"
        )
    service = await MatchService.open(db, render_workers=settings.render_workers)
    try:
        await run_console(service, settings.picture_dir, settings.ai_workers, settings)
    finally:
        await service.close()
    return 0


def _existing_database(db: Path | str) -> Path | str:
    """Commands that read matches (audit, export) must not create an empty database where
    a mistyped path points: that would report "0 problems" about nothing."""
    if not is_postgres_url(db) and not Path(db).is_file():
        raise UsageError(t("cli.no_database", None, path=db))
    return db


def _refuse(command: str, message: str) -> NoReturn:
    """A command line that cannot work, worded as argparse words its own refusals."""
    raise UsageError(t("cli.bad_arguments", None, prog=f"python -m bot {command}", message=message))


def _writable_file(command: str, out: Path | None) -> Path | None:
    """``--out FILE`` must name a file in a folder that exists: found out before the
    database is read, not as a traceback after the work is done."""
    if out is None:
        return None
    if out.is_dir():
        _refuse(command, f"argument --out: {out} is a folder; give a file name")
    if not out.parent.is_dir():
        _refuse(command, f"argument --out: there is no folder {out.parent}")
    return out


def _settings() -> Settings:
    """The settings, or one line naming the first one that cannot work and its value."""
    try:
        settings = Settings()
    except ValidationError as exc:
        error = exc.errors()[0]
        field = str(error["loc"][0]) if error["loc"] else ""
        name = "DISCORD_TOKEN" if field == "discord_token" else f"TESSERA_{field.upper()}"
        _refuse_setting(f"{name}={error.get('input')}: {error['msg']}")
    if settings.log_level.upper() not in LOG_LEVELS:
        _refuse_setting(f"TESSERA_LOG_LEVEL={settings.log_level}: one of {', '.join(LOG_LEVELS)}")
    return settings


def _refuse_setting(message: str) -> NoReturn:
    raise UsageError(
        t("cli.bad_arguments", None, prog="python -m bot", message=f"setting {message}")
    )


def _check_demo(game_id: str, players: int | None, raw_options: list[str]) -> None:
    """Refuse a demo that cannot start before anything is written."""
    from bot.matches.errors import ServiceError
    from bot.tools.demo import read_options
    from rules import IllegalMove, get_game

    game = get_game(game_id)
    if players is not None and not game.min_players <= players <= game.max_players:
        raise UsageError(
            t(
                "cli.demo_players",
                None,
                game=game.name,
                low=game.min_players,
                high=game.max_players,
                n=players,
            )
        )
    for item in raw_options:
        key, sep, _ = item.partition("=")
        if not sep or not key:
            raise UsageError(t("cli.demo_option", None, item=item))
    try:
        game.parse_options(read_options(game_id, raw_options))
    except (ServiceError, IllegalMove) as exc:
        raise UsageError(f"python -m bot demo: {exc}") from None


def main(argv: list[str] | None = None) -> int:
    """Runs a command; a command line that cannot work prints one line and returns 2; a
    database that cannot be reached, or was upgraded by a newer Tessera, one line and 1."""
    try:
        code = _main(argv)
        sys.stdout.flush()  # inside the try: a reader gone early is seen here, not at exit
        return code
    except UsageError as exc:
        print(exc, file=sys.stderr)
        return USAGE_ERROR
    except DatabaseUnavailable as exc:  # down at start: one line, not a traceback
        print(t("cli.database_down", None, error=str(exc).rstrip(".")), file=sys.stderr)
        return 1
    except SchemaTooNew as exc:  # older code must not run against a newer schema
        print(t("cli.schema_newer", None, found=exc.found, known=exc.known), file=sys.stderr)
        return 1
    except BrokenPipeError:
        if not _reader_gone():
            raise
        # ``arena-tally F | head``: the reader has what it asked for. Python's own recipe:
        # point stdout at /dev/null so the flush at exit does not fail a second time.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _reader_gone() -> bool:
    """Whether stdout is a pipe whose reading end is closed (the kernel flags it POLLERR).

    Why ask: a broken pipe elsewhere (a socket, a worker's pipe) is a real failure and
    keeps its traceback; only the one on stdout means a reader like ``head`` is done."""
    try:
        poll = select.poll()
        poll.register(sys.stdout.fileno(), select.POLLOUT)
        return any(flags & select.POLLERR for _, flags in poll.poll(0))
    except (OSError, ValueError, AttributeError):  # no real descriptor (captured output)
        return False


def _main(argv: list[str] | None) -> int:
    args = _parser().parse_args(argv)
    settings = _settings()
    configure_logging(settings.log_level, settings.log_format)  # bot/ops/logs.py
    db: Path | str = args.db or settings.database
    if args.command in TOOLS:  # whole-table statements: a tool's statement timeout
        with for_tools():
            return _run(args, settings, db)
    return _run(args, settings, db)


def _run(args: argparse.Namespace, settings: Settings, db: Path | str) -> int:
    if args.command == "demo":
        from bot.tools.demo import run_demo

        _check_demo(args.game, args.players, args.option)
        if args.out.exists() and not args.out.is_dir():
            _refuse("demo", f"argument --out: {args.out} is a file; give a folder")
        return asyncio.run(run_demo(args.game, args.players, args.seed, args.out, args.option))
    if args.command == "bench":
        from bot.tools.bench import run_bench

        return run_bench(
            as_json=args.json, quick=args.quick, games=args.games, playouts_only=args.playouts_only
        )
    if args.command == "sweep-bench":
        from bot.tools.sweep_bench import run_sweep_bench

        return run_sweep_bench(
            matches=args.matches,
            db=args.db,
            reuse=args.reuse,
            computers=args.computers,
            due=args.due,
            workers=args.workers,
            seed=args.seed,
        )
    if args.command == "load":
        from bot.gc_tuning import tune
        from bot.tools.loadtest import run_load

        if args.processes > 1 and not is_postgres_url(args.database or ""):
            _refuse("load", "several processes need a shared PostgreSQL: --database postgresql://…")
        tune()  # a bot process's collector, measured as it serves (bot/gc_tuning.py)
        run = {
            "matches": args.matches,
            "seconds": args.seconds,
            "rate": args.rate,
            "as_json": args.json,
            "database": args.database,
            "processes": args.processes,
            "pictures": not args.no_pictures,
        }
        if args.processes > 1 and args.child is None:  # the parent: start, watch, merge
            from bot.tools.load_children import run_processes

            return asyncio.run(run_processes(**run))
        return asyncio.run(run_load(**run, child=args.child))
    if args.command == "arena":
        from bot.tools.arena import run_arena

        return run_arena(
            args.game,
            players=args.players,
            games=args.games,
            seats=args.seats,
            budget_s=args.budget,
            seed=args.seed,
            workers=args.workers,
            as_json=args.json,
            clock=not args.no_clock,
            first=args.first,
            record=args.record,
        )
    if args.command == "arena-tally":
        from bot.tools.arena import run_tally

        return run_tally(args.files, args.json)
    if args.command == "calibrate":
        from bot.computers.calibrate import run_calibrate

        return run_calibrate(args.games, args.positions, args.iterations, args.json)
    if args.command == "migrate":
        from bot.storage.copydb import migrate_only

        new = not is_postgres_url(db) and not Path(db).exists()
        try:
            version = asyncio.run(migrate_only(db))
        except Exception as exc:  # not a database, unreadable, a server that refuses
            raise UsageError(t("cli.bad_database", None, path=db, error=exc)) from None
        if new:  # a mistyped path must not look like an upgrade of the database meant
            print(f"created a new database at {db}", file=sys.stderr)
        print(f"schema version {version}")
        return 0
    if args.command == "copy-db":
        source, target = str(_existing_database(args.source)), args.target
        if not is_postgres_url(target) and Path(target).resolve() == Path(source).resolve():
            _refuse("copy-db", "the target must be another database than the source")
        asyncio.run(_readable(source))
        if is_postgres_url(target) or Path(target).exists():
            asyncio.run(_readable(target))
        return asyncio.run(_copy_db(source, target))
    if args.command == "audit":
        return asyncio.run(_audit(_existing_database(db)))
    if args.command == "ratings":
        from bot.community.ratings import run_ratings

        asyncio.run(_readable(_existing_database(db)))
        return asyncio.run(run_ratings(db, rebuild=args.rebuild))
    if args.command == "i18n":
        from render.words.po_files import run_i18n

        return run_i18n(args.action)
    if args.command == "export":
        db = _existing_database(db)
        out = _writable_file("export", args.out)
        return asyncio.run(_export(db, args.match_id, out))
    if args.command == "replay":
        db = _existing_database(db)
        replay_out = _writable_file("replay", args.out)
        assert replay_out is not None  # --out is required
        return asyncio.run(_replay(db, args.match_id, replay_out, args.lang))
    if args.command == "review":
        return _review(args, db)
    if args.command == "replay-bench":
        from bot.tools.replay_bench import run_replay_bench

        return run_replay_bench(out=args.out, games=args.games, as_json=args.json)
    from bot.gc_tuning import tune

    tune()  # a process that serves matches from here on (bot/gc_tuning.py)
    return asyncio.run(_interactive(settings, db, args.console, args.sync))


if __name__ == "__main__":
    sys.exit(main())
