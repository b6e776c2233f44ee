"""What playing a whole evening still found in the match service (issues 41 and 42), each
a class: /history in the order things happened and in the public's words (the told
sentence, never the mover's button label) for every game and language; the away note on
every post that names who must act next (undo, resign, substitution, like a move's).
Each test failed before its fix."""

from __future__ import annotations

import contextlib
import random
import re
import types
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from babel import Locale

import bot.storage.clock
from bot.community import preferences, stats
from bot.matches import option_table
from bot.matches.errors import ServiceError
from bot.matches.reports import User
from bot.matches.rows import tell_row
from bot.matches.service import MatchService
from bot.settings import Settings
from render.words.catalogue import LANGUAGES
from render.words.say import say
from rules import get_game
from tests.conftest import ALICE, BOB, CAROL

#: The mover's voice in English (the button's: "End your turn", "Offer Bob your …").
SECOND_PERSON = re.compile(r"\b(?:you|your|yours)\b", re.IGNORECASE)


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[MatchService]:
    svc = await MatchService.open(tmp_path / "t.db", render=False)
    yield svc
    await svc.close()


async def pile(service: MatchService, seats: tuple[str, ...], seed: int = 3) -> int:
    """A started Pile match created by Alice; after her: "bob", "carol" or "computer"."""
    info = await service.create_match(
        "test-pile", ALICE, {"size": 20}, seed=seed, guild_id="g1", channel_id="c1"
    )
    for seat in seats:
        if seat == "computer":
            await service.add_computer(info.id, ALICE, "easy")
        else:
            await service.join(info.id, {"bob": BOB, "carol": CAROL}[seat])
    await service.start(info.id, ALICE)
    return info.id


async def computers_move(service: MatchService, match_id: int) -> int:
    played = 0
    while (turn := await service.computer_turn(match_id)) is not None:
        await service.play(match_id, turn.user, "take1", expected_version=turn.version)
        played += 1
    return played


async def person_to_act(service: MatchService, match_id: int) -> User:
    info = await service.info(match_id)
    seat = next(s for s in info.seats if s.user_id in info.to_act)
    return User(seat.user_id, seat.name)


# ----- 1. /history in the order things happened ------------------------------------------
async def test_history_lists_the_take_back_before_the_computer_moves_it_took(
    service: MatchService,
) -> None:
    """Alice's take-back of her move and of the two computer answers after it: her own
    take-back first, then the answers in the order they were played."""
    match_id = await pile(service, ("computer", "computer"))
    await computers_move(service, match_id)
    await service.play(match_id, ALICE, "take2")
    assert await computers_move(service, match_id) == 2
    rows = await service.store.moves(match_id)
    answers = [r.seat for r in rows[-2:]]
    await service.undo(match_id, ALICE)
    lines = await service.history(match_id, last=3)
    assert "Alice took back" in lines[0], lines
    names = (await service.info(match_id)).names
    for line, seat in zip(lines[1:], answers, strict=True):
        assert "taken back with it" in line and f"({names[seat]})" in line, lines
    # the log still rebuilds the same position (every undo row cancels one move)
    assert await service.audit() == []


async def test_history_of_a_resign_and_a_substitution_reads_in_order(
    service: MatchService,
) -> None:
    """A resignation handed to a computer, then the computer's move; a seat handed on,
    then its new holder's move: each event before what followed it."""
    match_id = await pile(service, ("bob", "carol"))
    mover = await person_to_act(service, match_id)
    await service.resign(match_id, mover)
    assert await computers_move(service, match_id) == 1
    nxt = await person_to_act(service, match_id)
    dora = User("1009", "Dora")
    await service.offer_seat(match_id, nxt, dora)
    await service.answer_sub(match_id, dora, _seat(await service.info(match_id), nxt), None, True)
    await service.play(match_id, dora, "take1")
    lines = await service.history(match_id, last=50)
    assert lines[0].startswith(f"1. {mover.name} resigned"), lines
    assert lines[1].startswith("2. 🤖"), lines  # the computer that took the seat, after
    assert lines[2].startswith(f"3. {nxt.name} → Dora"), lines
    assert lines[3].startswith("4. Dora"), lines


def _seat(info: Any, user: User) -> int:
    return next(s.seat for s in info.seats if s.user_id == user.id)


# ----- 2. /history in the public's words ------------------------------------------------
#: (game, people): every game, with enough people to start it.
GAMES = [("azul", 2), ("maharani", 2), ("taj-mahal", 3), ("pastiche", 2)]
PEOPLE = (ALICE, BOB, CAROL)


async def play_some(service: MatchService, game_id: str, people: int, plies: int) -> int:
    """A match of ``game_id`` between people, ``plies`` random moves in (a take-back on
    the way where the game allows one), with the seed fixed."""
    info = await service.create_match(game_id, ALICE, None, seed=11, guild_id="g1")
    for user in PEOPLE[1:people]:
        await service.join(info.id, user)
    await service.start(info.id, ALICE)
    rng = random.Random(5)
    for ply in range(plies):
        info = await service.info(info.id)
        if info.status != "running":
            break
        user = next(u for u in PEOPLE if u.id in info.to_act)
        moves = await service.legal_moves(info.id, user)
        await service.play(info.id, user, rng.choice(moves).notation)
        if ply == plies // 2:
            # still their turn and nothing seen: taken back at once (else refused)
            with contextlib.suppress(ServiceError):
                await service.undo(info.id, user)
    return info.id


@pytest.mark.parametrize(("game_id", "people"), GAMES)
async def test_history_tells_each_move_in_the_public_words(
    service: MatchService, game_id: str, people: int
) -> None:
    """Every move row of /history is the move's told sentence in the reader's language
    ("Bob took 2 blue …"), never the mover's button label ("End your turn", "…to you")."""
    match_id = await play_some(service, game_id, people, 24)
    game = get_game(game_id)
    rows = await service.store.moves(match_id)
    names = (await service.info(match_id)).names
    told_rows = 0
    for lang in LANGUAGES:
        lines = await service.history(match_id, last=50, lang=lang)
        assert len(lines) == len(rows)
        for line, row in zip(lines, rows, strict=True):
            text = line.split(". ", 1)[1]
            if lang == "en":
                assert not SECOND_PERSON.search(text), line
            if row.kind != "move":
                continue
            told = tell_row(game, row)
            assert told is not None, line
            assert text == say(told, lang, names), (lang, line)
            label = next(e["msg"] for e in reversed(row.events) if e.get("kind") == "label")
            assert text != f"{names[row.seat]}: {say(label, lang, names)}", (lang, line)
            told_rows += 1
    assert told_rows >= 4 * 20


# ----- 3. the away note on every post that names who acts next --------------------------
async def turn_posts(service: MatchService) -> list[dict[str, Any]]:
    """The turn posts (not notices) queued since last asked, oldest first."""
    out: list[dict[str, Any]] = []
    while due := await service.store.due_notifications(now=float("inf"), limit=100):
        for item in due:
            await service.store.mark_sent(item.id)
            if item.kind == "turn" and item.payload.get("ply") is not None:
                out.append(item.payload)
    return out


def assert_away_note(post: dict[str, Any], user: User) -> None:
    """The post names ``user`` as the one to act and says they are away, as a move's."""
    assert user.id in post["mentions"], post
    assert f"{user.name} is away until" in post["text"], post["text"]
    assert any(isinstance(w, dict) and w.get("away") == user.name for w in post["words"]), post


async def test_an_undo_post_says_who_is_away(service: MatchService) -> None:
    match_id = await pile(service, ("bob",))
    mover = await person_to_act(service, match_id)
    other = BOB if mover == ALICE else ALICE
    await service.play(match_id, mover, "take1")
    await service.undo(match_id, mover)  # the other has seen it: they are asked
    await service.go_away(mover.id, 3)
    await turn_posts(service)
    await service.answer_undo(match_id, other, agree=True)
    (post,) = await turn_posts(service)
    assert_away_note(post, mover)


async def test_a_resignation_post_says_who_is_away(service: MatchService) -> None:
    match_id = await pile(service, ("bob", "carol"))
    acting = await person_to_act(service, match_id)
    leaver = next(u for u in PEOPLE if u != acting)
    await service.go_away(acting.id, 3)
    await turn_posts(service)
    await service.resign(match_id, leaver)  # a computer plays the seat on
    (post,) = await turn_posts(service)
    assert_away_note(post, acting)


async def test_a_substitution_post_says_who_is_away(service: MatchService) -> None:
    """Someone else's seat handed on while the one to act is away; and the seat to act
    handed to a person who is away: the post names them away, as a move's would."""
    match_id = await pile(service, ("bob", "carol"))
    acting = await person_to_act(service, match_id)
    giver = next(u for u in PEOPLE if u != acting)
    dora = User("1009", "Dora")
    await service.go_away(acting.id, 3)
    await turn_posts(service)
    await service.offer_seat(match_id, giver, dora)
    await service.answer_sub(match_id, dora, _seat(await service.info(match_id), giver), None, True)
    (post,) = await turn_posts(service)
    assert_away_note(post, acting)
    await service.come_back(acting.id)
    eve = User("1010", "Eve")
    await service.go_away(eve.id, 2)
    await service.offer_seat(match_id, acting, eve)
    await service.answer_sub(match_id, eve, _seat(await service.info(match_id), acting), None, True)
    (post,) = await turn_posts(service)
    assert_away_note(post, eve)


# ----- 4. /stats counts game moves as moves, and times only them -------------------------
class Clock:
    """The store's ``time`` module, moved on only by the test."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0
        self.module = types.SimpleNamespace(time=lambda: self.now)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    c = Clock()
    monkeypatch.setattr(bot.storage.clock, "time", c.module)
    return c


async def test_stats_count_only_game_moves_and_time_only_them(
    service: MatchService, clock: Clock
) -> None:
    """A resignation, a take-back (with the computer answer it took), a substitution and
    an abort are log rows but no moves: the server's move count is the game moves still
    in force, and times to move are measured only at a person's game moves (each from the
    row before it), never at a resignation, a take-back or a seat taken."""
    match_id = await pile(service, ("bob", "carol"))
    info = await service.info(match_id)
    order = [next(u for u in PEOPLE if u.id == uid) for uid in info.to_act]
    a0 = order[0]
    seats = [s.user_id for s in info.seats]
    a1, a2 = (
        next(u for u in PEOPLE if u.id == seats[(seats.index(a0.id) + k) % 3]) for k in (1, 2)
    )

    async def at(delay: float, coro: Any) -> Any:
        clock.now += delay
        return await coro

    await at(100, service.play(match_id, a0, "take1"))  # the match's first move: untimed
    await at(200, service.play(match_id, a1, "take1"))  # 200
    await at(300, service.resign(match_id, a0))  # a computer plays a0's seat on
    await at(400, service.play(match_id, a2, "take1"))  # 400
    clock.now += 5
    assert await computers_move(service, match_id) == 1
    await at(500, service.play(match_id, a1, "take1"))  # 500
    await at(60, service.play(match_id, a2, "take1"))  # 60
    clock.now += 5
    assert await computers_move(service, match_id) == 1
    await service.undo(match_id, a2)  # a1 is asked
    await at(70, service.answer_undo(match_id, a1, agree=True))  # two undo rows
    await at(80, service.play(match_id, a2, "take1"))  # 80, from the take-back
    clock.now += 5
    assert await computers_move(service, match_id) == 1
    dora = User("1009", "Dora")
    await service.offer_seat(match_id, a1, dora)
    await at(90, service.answer_sub(match_id, dora, seats.index(a1.id), None, True))
    await at(15, service.play(match_id, dora, "take1"))  # 15, from taking the seat
    aborted = await pile(service, ("bob",))
    first = await person_to_act(service, aborted)
    await at(30, service.play(aborted, first, "take1"))
    await service.abort(aborted, ALICE)
    await at(40, service.abort(aborted, BOB))  # an abort row

    facts = await stats.load_facts(service.store, guild_id="g1")
    server = stats.server_stats(facts)
    assert server.total.moves == 8 + 1  # 14 + 2 log rows
    assert sorted(server.total.move_times) == sorted([200, 400, 500, 60, 80, 15])
    lines = stats.server_lines(server)
    assert "moves: 9 ·" in lines[1], lines
    for user, times in ((a0, []), (a1, [200, 500]), (a2, [400, 60, 80]), (dora, [15])):
        mine = await stats.load_facts(service.store, guild_id="g1", user_id=user.id)
        player = stats.player_stats(mine, user.id, user.name)
        assert sorted(player.total.move_times) == sorted(times), user.name


# ----- 5. every option value of /game settings said in words ------------------------------
SHIPPED = ["azul", "maharani", "taj-mahal", "pastiche"]
#: A raw value a player should never read: an option's name, a choice's identifier, a
#: Python boolean, a number written with a decimal point in a language with a comma.
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b|\bTrue\b|\bFalse\b|\bNone\b")


def setting_values() -> list[dict[str, Any]]:
    """Every value of each setting of /game settings (samples of the numbers)."""
    specs = option_table.for_command(option_table.SETTINGS)
    out: list[dict[str, Any]] = [{}]
    for name, spec in specs.items():
        if spec.kind == "bool":
            values: list[Any] = [True, False]
        elif spec.kind == "choice":
            values = list(spec.choices)
        elif spec.kind == "int":
            values = [spec.low, spec.high]
        else:
            values = [spec.low, 1.5, spec.high]
        out += [{name: v} for v in values]
    return out


def game_option_values(game_id: str) -> list[dict[str, Any]]:
    """Every value of each of the game's own options (samples of the numbers)."""
    out: list[dict[str, Any]] = [{}]
    for name, spec in option_table.game_options(game_id).items():
        if spec.kind == "bool":
            values: list[Any] = [True, False]
        elif spec.kind == "choice":
            values = list(spec.choices)
        else:
            values = [spec.low or 0, 2]
        out += [{name: v} for v in values]
    return out


@pytest.mark.parametrize("game_id", SHIPPED)
def test_game_settings_say_every_value_in_words(game_id: str) -> None:
    """/game settings (Discord and the console read the same summary) says every value of
    every setting and of the game's own options in words of the reader's language: no
    option name or choice identifier ("skip", "opposite"), no Python boolean, decimals as
    the language writes them, the match's language named in the reader's."""
    cfg = Settings(_env_file=None)  # type: ignore[call-arg]
    game = get_game(game_id)
    for name in option_table.game_options(game_id):  # said in words, not as typed
        assert preferences.has_key(f"settings.option.{game_id.replace('-', '_')}.{name}")
    defaults = game.Options().model_dump(mode="json")
    raw_choices = {
        str(c)
        for spec in [*option_table.for_command("settings").values()]
        + list(option_table.game_options(game_id).values())
        if spec.kind == "choice"
        for c in spec.choices
    }
    for lang in LANGUAGES:
        for settings in setting_values():
            for options in game_option_values(game_id):
                summary = preferences.settings_summary(
                    cfg, settings, lang, None, game_id=game_id, options={**defaults, **options}
                )
                assert not IDENTIFIER.search(summary), (lang, settings, options, summary)
                words = set(re.findall(r"[\w-]+", summary))
                shown = raw_choices & words - {"hu", "de", "pl", "en"}
                assert not shown, (lang, settings, options, summary)
                if lang != "en":
                    assert not re.search(r"\d\.\d", summary), (lang, summary)
                if "language" in settings:
                    named = Locale.parse(settings["language"]).get_display_name(lang)
                    assert named.lower() in summary.lower(), (lang, summary)
                assert game.name in summary, summary


async def test_an_undo_request_quotes_the_move_as_the_table_read_it(
    service: MatchService,
) -> None:
    """The request everyone reads quotes the move told ("Alice took 1 red …"), not the
    mover's button label."""
    info = await service.create_match("azul", ALICE, None, seed=4, guild_id="g1")
    await service.join(info.id, BOB)
    await service.start(info.id, ALICE)
    mover = await person_to_act(service, info.id)
    move = (await service.legal_moves(info.id, mover))[0]
    await service.play(info.id, mover, move.notation)
    await turn_posts(service)
    await service.undo(info.id, mover)  # the other is to act now: they are asked
    (row,) = (await service.store.moves(info.id))[-1:]
    told = say(tell_row(get_game("azul"), row), None, (await service.info(info.id)).names)
    due = await service.store.due_notifications(now=float("inf"), limit=10)
    (request,) = [d.payload for d in due if d.payload.get("notice") == "asked"]
    assert told in request["text"], request["text"]
    assert say(move.label, None, []) not in request["text"]
