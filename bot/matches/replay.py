"""Animated replays of a match: what goes into one, where it is built, and its cache.

**What a frame is.** A title frame, then one frame per *turn*, then the final standings.
A turn is the run of consecutive log moves by one seat — the same unit as the score chart
(``bot/matches/score_chart.py``), so the two agree: a Taj Mahal visit's card, extra-card and
palace plies are one turn, a Pastiche turn's placement, bank trades and fulfilments are
one (a trade answered by another player splits it: that answer is the other player's
turn), and in Azul and Maharani every move is a turn. It needs no per-game code, so a
fifth game gets its replay for free. Each turn frame is the game's own public picture
after the turn, whose header band tells the turn's moves as the table saw them ("Bob
painted hex 2 at k11 … Bob traded yellow + orange to the bank for blue.": each move's
public sentence, ``rules.base.Game.tell``) and whose board highlights the last move,
exactly as the turn posts show it. Undone moves are
left out (the log's 'undo' rows cancel them); a resignation adds no frame.

**Private stays private.** Every board is drawn from ``game.view(state, None)``, the
spectator's view, whoever asks and whatever the match's state; a running match's final
frame says that it is still being played and shows no scores (they may count hidden
cards). Spectators may ask for any match of their server.

**Off the event loop.** Replaying the log, drawing the frames and encoding the animation
run in one job in a worker process (:meth:`bot.matches.render_pool.RenderPool.run_long`): the
event loop only reads the rows and hands over plain data (:class:`ReplayJob`).

**Cached** per match, ply count, status and picture language (an LRU of a few files, at
most :data:`CACHE_BYTES`): asking twice is instant, two people asking at once share one
build, and a running match that moved on gets a new key — its older replays are dropped
when the new one is stored.
"""

from __future__ import annotations

import asyncio
import importlib
import os
import time
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.matches.errors import NotAllowed, NotFound, no_play_key
from bot.matches.rows import (
    effective_moves,
    label_words_of,
    match_ending,
    picture_end,
    row_label,
    tell_events,
)
from bot.storage import MatchRow, MoveRow
from render.alt_text import replay_alt
from render.registry import renderer_target
from render.replay import (
    FRAME_WIDTH,
    UPLOAD_LIMIT,
    FinalCard,
    Seat,
    Standing,
    TitleCard,
    TooLarge,
    durations,
    encode,
    final_frame,
    fit,
    paletted,
    shared_palette,
    title_frame,
)
from render.words.catalogue import picture_language, t, tn
from render.words.posts import result_reason, score_words, standing_names
from render.words.say import say
from rules.registry import game_target
from rules.registry import get_game as registered_game

if TYPE_CHECKING:
    from PIL import Image

    from bot.matches.service import MatchService

#: The cache keeps at most this many bytes of replays (a replay is 0.5–10 MB).
CACHE_BYTES = 64 * 1024 * 1024


class NothingToReplay(NotAllowed):
    """A match without a single move yet (or still a lobby)."""


@dataclass(frozen=True, slots=True)
class ReplayJob:
    """Everything the worker needs, as plain data (pickled to the worker process)."""

    game_target: str
    renderer_target: str
    players: int
    seed: int
    options: dict[str, Any]
    names: list[str]
    #: (ply, seat, notation, the label's words, today's "Bob: <label>") of every move in
    #: force, in order: the worker tells each move from its events (``Game.tell``), the
    #: label's words mark a move made for a late seat, "Bob: <label>" stands for a move
    #: the game cannot tell
    moves: list[tuple[int, int, str, Any, str]]
    title: TitleCard
    final: FinalCard
    lang: str
    #: what the last board's view gets once the match has ended (``rows.picture_end``: how
    #: it ended, where the board would say whose turn it is; the final ranking it draws)
    end: dict[str, Any] | None = None
    limit: int = UPLOAD_LIMIT
    webp: bool | None = None
    width: int = FRAME_WIDTH
    #: the replay in words (``render.alt_text.replay_alt``): its file's description
    alt: str = ""


@dataclass(frozen=True, slots=True)
class Replay:
    data: bytes
    format: str
    turns: int
    frames: int
    width: int
    height: int
    quality: int
    #: seconds the worker spent: replaying + drawing, encoding, in all
    draw_s: float
    encode_s: float
    seconds: float
    #: CPU seconds the worker used (less noisy than wall time on a busy machine)
    cpu_s: float
    #: the process that built it (the tests check it is not the event loop's)
    pid: int
    attempts: int = 1
    match_id: int = 0
    #: the replay in words, the description its file is sent with
    alt: str = ""

    @property
    def filename(self) -> str:
        return f"match-{self.match_id}-replay.{self.format}"


# ----- in the worker --------------------------------------------------------------------------
def _import(target: str) -> Any:
    module, attr = target.split(":")
    return getattr(importlib.import_module(module), attr)


def turn_ends(moves: list[tuple[int, int, str, Any, str]]) -> list[int]:
    """Indexes (into ``moves``) of the last move of each turn: a turn is the run of
    consecutive moves by one seat."""
    return [i for i, m in enumerate(moves) if i + 1 == len(moves) or moves[i + 1][1] != m[1]]


def turn_views(job: ReplayJob) -> list[dict[str, Any]]:
    """The public view after each turn, with the header band's words of the turn's moves:
    their public sentences, one after the other (and, on the last one, how the match ended
    when the board cannot tell). Only ever ``view(state, None)``: what any spectator
    sees."""
    game = _import(job.game_target)
    state = game.setup(job.players, job.seed, job.options)
    ends = set(turn_ends(job.moves))
    views: list[dict[str, Any]] = []
    words: list[str] = []
    for i, (_ply, seat, notation, label_words, labelled) in enumerate(job.moves):
        state, events = game.apply(state, seat, game.parse(state, seat, notation))
        told = tell_events(game, seat, notation, [e.public() for e in events], label_words)
        words.append(labelled if told is None else say(told, job.lang, job.names))
        if i in ends:
            view = {**game.view(state, None), "last_move": " ".join(words)}
            if job.end and i == len(job.moves) - 1:
                view.update(job.end)
            views.append(view)
            words = []
    return views


def frames(job: ReplayJob) -> list[Image.Image]:
    """Title, one board per turn, standings: one size (the tallest board's), one palette
    (learnt from six boards spread over the match, drawn first), 256 colours each."""
    draw = _import(job.renderer_target)
    views = turn_views(job)

    def board(view: dict[str, Any]) -> Image.Image:
        return fit(draw(view, job.names, None, job.lang), job.width)

    picks = sorted({round(i * (len(views) - 1) / 5) for i in range(6)}) if views else []
    samples = {i: board(views[i]) for i in picks}
    palette = shared_palette(list(samples.values()))
    boards = []
    for i, view in enumerate(views):
        image = samples.pop(i) if i in samples else board(view)
        boards.append(paletted(image, palette))
    height = max((b.height for b in boards), default=round(job.width * 0.75))
    size = (job.width, height)
    out = [paletted(title_frame(job.title, size, job.lang), palette)]
    out += [b if b.height == height else paletted(b, palette, height) for b in boards]
    out.append(paletted(final_frame(job.final, size, job.lang), palette))
    return out


def build(job: ReplayJob) -> Replay:
    """Runs in the worker: the frames, then the animation that fits ``job.limit``."""
    started, cpu = time.perf_counter(), time.process_time()
    images = frames(job)
    drawn = time.perf_counter()
    encoded = encode(images, durations(len(images) - 2), job.limit, webp=job.webp)
    done = time.perf_counter()
    return Replay(
        data=encoded.data,
        format=encoded.format,
        turns=len(images) - 2,
        frames=len(images),
        width=encoded.width,
        height=encoded.height,
        quality=encoded.quality,
        draw_s=drawn - started,
        encode_s=done - drawn,
        seconds=done - started,
        cpu_s=time.process_time() - cpu,
        pid=os.getpid(),
        attempts=encoded.attempts,
        alt=job.alt,
    )


# ----- on the event loop: what goes into a job ------------------------------------------------
def _date(stamp: float) -> str:
    return datetime.fromtimestamp(stamp, UTC).strftime("%Y-%m-%d")


def final_card(match: MatchRow, lang: str) -> FinalCard:
    """The standings of a finished match; how an aborted one ended; for a running one,
    only that it is still being played (its scores may count hidden cards)."""
    game = registered_game(match.game_id)
    names = match.names
    result = match.result
    if match.status == "finished" and result and len(result.get("ranks", ())) == len(names):
        who = standing_names(result, names, lang)  # as the result text names them
        rows = []
        for s in sorted(range(len(names)), key=lambda s: (result["ranks"][s], s)):
            score = score_words(result["scores"][s], game.score_unit, lang)
            rows.append(Standing(int(result["ranks"][s]), s, who[s], score))
        lines = []
        ending = match_ending(match, lang)
        if ending:
            lines.append(ending["text"])
        reason = result_reason(result, lang, names)  # "" when it only restates the winner
        if reason:
            lines.append(reason)
        return FinalCard(t("pic.replay.final", lang), lines, rows)
    if match.status == "aborted":
        ending = match_ending(match, lang)
        return FinalCard(
            t("pic.replay.aborted", lang), [ending["text"] if ending else t("end.aborted", lang)]
        )
    return FinalCard(t("pic.replay.running", lang), [t("pic.replay.public_only", lang)])


def make_job(
    match: MatchRow,
    rows: list[MoveRow],
    lang: str = "en",
    *,
    limit: int = UPLOAD_LIMIT,
    webp: bool | None = None,
    width: int = FRAME_WIDTH,
) -> ReplayJob:
    """The job for ``match`` with its log ``rows`` (no replaying here: that is the
    worker's). Refuses a lobby and a match without moves."""
    if match.status == "lobby" or match.state is None:
        key = no_play_key(match.status, match.state is not None)
        raise NothingToReplay.said(key, match=match.id)
    moves = effective_moves(rows)
    if not moves:
        raise NothingToReplay.said("replay.empty", match=match.id)
    lang = picture_language(lang)
    names = match.names
    game = registered_game(match.game_id)
    # each move is told in the worker, from the events of its replay (nothing here)
    played = [
        (r.ply, r.seat, r.notation, label_words_of(r.events), row_label(r, names, lang))
        for r in moves
    ]
    turns = len(turn_ends(played))
    ended_at = None
    if match.status in ("finished", "aborted"):
        last = rows[-1].created_at if rows else match.updated_at
        ended_at = t("pic.replay.ended", lang, date=_date(last))
    title = TitleCard(
        game=game.name,
        match=match.id,
        players=[Seat(name, seat) for seat, name in enumerate(names)],
        started=_date(rows[0].created_at if rows else match.created_at),
        turns=turns,
        ended=ended_at,
    )
    final = final_card(match, lang)
    return ReplayJob(
        game_target=game_target(match.game_id),
        renderer_target=renderer_target(match.game_id),
        players=len(match.seats),
        seed=match.seed,
        options=match.options,
        names=names,
        moves=played,
        title=title,
        final=final,
        lang=lang,
        end=picture_end(match, lang),
        limit=limit,
        webp=webp,
        width=width,
        alt=replay_alt(title, final, lang),
    )


class Replays:
    """The replays of one service's matches: built in its render pool, cached."""

    def __init__(self, service: MatchService, *, cache_bytes: int = CACHE_BYTES) -> None:
        self.service = service
        self.cache_bytes = cache_bytes
        self._cache: OrderedDict[tuple[int, int, str, str], Replay] = OrderedDict()
        self._building: dict[tuple[int, int, str, str], asyncio.Future[Replay]] = {}
        #: how many replays were built (not served from the cache), for tests and logs
        self.builds = 0

    def cached(self, match_id: int, last_ply: int, status: str, lang: str) -> Replay | None:
        return self._cache.get((match_id, last_ply, status, picture_language(lang)))

    async def get(self, match_id: int, lang: str = "en") -> Replay:
        """The replay of the match as it stands now, in ``lang`` (the pictures' words)."""
        match = await self.service.store.get_match(match_id) if 0 < match_id < 2**63 else None
        if match is None:
            raise NotFound.said("svc.no_match", match=match_id)
        lang = picture_language(lang)
        key = (match.id, match.last_ply, match.status, lang)
        hit = self._cache.get(key)
        if hit is not None:
            self._cache.move_to_end(key)
            return hit
        pending = self._building.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Replay] = asyncio.get_running_loop().create_future()
        self._building[key] = future
        try:
            rows = [r for r in await self.service.store.moves(match.id) if r.ply <= key[1]]
            job = make_job(match, rows, lang)
            built = await self.service.render_pool.run_long(build, job)
            replay = _with_match(built, match.id)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: waiters re-raise it, nobody logs it twice
            raise
        else:
            future.set_result(replay)
        finally:
            if self._building.get(key) is future:
                del self._building[key]
        self.builds += 1
        self._store(key, replay)
        return replay

    def _store(self, key: tuple[int, int, str, str], replay: Replay) -> None:
        for old in [k for k in self._cache if k[0] == key[0] and k[1:3] != key[1:3]]:
            del self._cache[old]  # the match moved on: its older replays are stale
        self._cache[key] = replay
        while sum(len(r.data) for r in self._cache.values()) > self.cache_bytes:
            if len(self._cache) == 1:
                break
            self._cache.popitem(last=False)


def _with_match(replay: Replay, match_id: int) -> Replay:
    from dataclasses import replace

    return replace(replay, match_id=match_id)


async def save_replay(
    service: MatchService, match_id: int, folder: Path, lang: str = "en"
) -> list[str]:
    """The console's ``/history replay``: the file in ``folder``, and a line naming it."""
    try:
        replay = await replays_of(service).get(match_id, lang)
    except TooLarge:
        return [t("replay.too_large", lang, match=match_id)]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / replay.filename
    path.write_bytes(replay.data)
    return [saved_words(replay, match_id, path, lang)]


def saved_words(replay: Replay, match_id: int, path: Path, lang: str) -> str:
    """What the console and ``python -m bot replay`` say about a replay file they wrote."""
    return tn(
        "replay.saved",
        replay.turns,
        lang,
        match=match_id,
        size=len(replay.data) // 1024,
        format=replay.format.upper(),
        path=path,
    )


_REPLAYS: weakref.WeakKeyDictionary[Any, Replays] = weakref.WeakKeyDictionary()


def replays_of(service: MatchService) -> Replays:
    """The one :class:`Replays` of ``service`` (front ends share its cache)."""
    found = _REPLAYS.get(service)
    if found is None:
        found = _REPLAYS[service] = Replays(service)
    return found


__all__ = [
    "NothingToReplay",
    "Replay",
    "ReplayJob",
    "Replays",
    "build",
    "frames",
    "make_job",
    "replays_of",
    "save_replay",
    "turn_views",
]
