"""A whole game per language through the service and the console, and through the Discord
harness: every text a player sees is in their language (issue 12).

How: the same scripted match (fixed seed, the same moves) is played once in English and
once in each real language (hu, de, pl), capturing every text a player sees — replies,
posts, turn posts, DMs, refusals of a few bad inputs, ``/hand``, ``/board``, ``/history``,
the result, button and menu labels. Two checks:

- **no missing key**: every catalogue look-up in that language is recorded (the hook is
  ``catalogue.lookup``, where ``t`` and ``tn`` fall back to English); a key the language
  lacks is a failure, not a silent fallback;
- **no English left**: a text equal to its English twin (the same step of the English run)
  must hold no translatable word (only names, numbers, notation, paths); and no text may
  hold a word of the English catalogue that the language's catalogue never uses, where
  the English twin has it too (so "red" in a Hungarian post fails, "Azul" does not).

``CONVERTED`` lists the games: all four speak in messages (docs/words.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import bot.matches.lobby
import render.words.catalogue
from bot.console import Console
from bot.matches.reports import User
from bot.matches.service import MatchService
from render.words.catalogue import MESSAGES, PLURAL_KEY, messages
from render.words.posts import post_body
from rules import get_game
from rules.registry import game_ids
from tests.conftest import ALICE, BOB, CAROL
from tests.discord_harness import Call, Harness, running

#: Every game (all four speak in messages, docs/words.md), with the fewest players it
#: allows: Taj Mahal needs three.
CONVERTED = ["azul", "taj-mahal", "maharani", "pastiche"]
LANGUAGES = ["hu", "de", "pl"]
NAMES = [ALICE.name, BOB.name, CAROL.name]
#: The words of the game ids (identifiers, typed as they are: "taj-mahal").
IDS = re.split(r"-", "-".join(game_ids()))
SEED = 20261203
#: Moves played per match before someone resigns: the script plays the game to its own end
#: when it is short enough (Azul), else resigns (in Taj Mahal with three players a computer
#: then takes the seat; on Discord the resignation is asked, not confirmed), so the suite
#: stays within its ten minutes (a whole Pastiche match through Discord in four languages
#: took 45 s). The words of every game's natural end are said in the fake language by
#: tests/test_words_<game>.py, and every key is translated (tests/test_catalogues.py).
MAX_PLIES = 120

_WORD = re.compile(r"[^\W\d_]{3,}")
#: What is no language's word: Discord mentions and links, file paths, notation (quoted,
#: in Discord's `code` or as the console prints it, 'code'; or the first column of the
#: console's move list, "  h1 k10 r0 yellow   <label>": notation is language-neutral by
#: design, even where its tokens are English words).
_NEUTRAL = re.compile(
    r"<[@#:][^>]*>|https?://\S+|/\S+\.(?:png|json|gif|webp)|\S*/\S*|`[^`]*`"
    r"|(?<!\w)'[^'\n]+'(?!\w)|(?m:^  \S.*?(?= {2,}))"
)


def vocabulary(table: dict[str, str]) -> set[str]:
    """The words (3+ letters, lower case) of a catalogue's texts, placeholders and notation
    (quoted examples such as `bank red+red for blue`) left out: a language that quotes
    English notation tokens has not thereby translated them."""
    words: set[str] = set()
    for text in table.values():
        prose = _NEUTRAL.sub(" ", re.sub(r"\{[^{}]*\}", " ", text))
        words.update(w.lower() for w in _WORD.findall(prose))
    return words


@pytest.fixture
def fallbacks(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Every (key, language) looked up in hu, de or pl that the language lacks."""
    missing: list[tuple[str, str]] = []
    original = render.words.catalogue.lookup

    def lookup(key: str, locale: Any = None) -> str | None:
        text = original(key, locale)
        lang = render.words.catalogue.language_of(locale)
        if text is None and lang in LANGUAGES:
            base = PLURAL_KEY.match(key)
            table = messages(lang) or {}
            # tn asks for the count's form, then "other": only a missing "other" falls back
            if base is None or f"{base.group(1)}.other" not in table:
                missing.append((key, lang))
        return text

    monkeypatch.setattr(render.words.catalogue, "lookup", lookup)
    return missing


@pytest.fixture
def in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pictures drawn in this process (their words go through the hooked look-up too), and
    every match dealt from the same seed (the English twin plays the same game)."""
    opened = MatchService.open.__func__  # type: ignore[attr-defined]

    async def open_here(cls: type[MatchService], path: Any, **kw: Any) -> MatchService:
        return await opened(cls, path, **{**kw, "render_processes": False})

    monkeypatch.setattr(MatchService, "open", classmethod(open_here))
    monkeypatch.setattr(bot.matches.lobby.secrets, "randbits", lambda _bits: SEED)


def names_of(*users: User) -> set[str]:
    return {u.name for u in users}


def leftovers(text: str, allowed: set[str]) -> list[str]:
    """The words of ``text`` that could be some language's (not names, notation...)."""
    return [w for w in _WORD.findall(_NEUTRAL.sub(" ", text)) if w.lower() not in allowed]


def check_texts(lang: str, english: list[str], texts: list[str], allowed: set[str]) -> None:
    """Each text against its English twin (see the module docstring)."""
    assert len(texts) == len(english), (lang, len(texts), len(english))
    only_english = vocabulary(MESSAGES["en"]) - vocabulary(messages(lang) or {})
    problems = []
    for en, text in zip(english, texts, strict=True):
        if text == en and leftovers(text, allowed):
            problems.append(("same as English", text))
            continue
        twin = {w.lower() for w in leftovers(en, allowed)}
        stray = [w for w in leftovers(text, allowed) if w.lower() in twin & only_english]
        if stray:
            problems.append((f"English words {stray}", text))
    assert not problems, f"{lang}: {problems[:5]} ({len(problems)} in all)"


# ----- the scripted match ------------------------------------------------------------------
def pick(moves: list[Any]) -> str:
    """The script's move: the best ranked, then the first notation (deterministic)."""
    return min(moves, key=lambda m: (-m.rank, m.notation)).notation


def seated(game_id: str) -> int:
    """The fewest players ``game_id`` allows (at least two)."""
    return max(2, get_game(game_id).min_players)


async def console_game(service: MatchService, pics: Path, game_id: str, lang: str) -> list[str]:
    """A whole match typed in the console by Alice, Bob (and Carol where the game needs a
    third), all reading ``lang``."""
    console = Console(service, pics)
    out: list[str] = []

    async def say(line: str) -> None:
        out.extend(await console.run_line(line))

    people = [ALICE, BOB, CAROL][: seated(game_id)]
    for person in people:
        await say(f"{person.name.lower()}> /lang {lang}")
    await say(f"alice> /game new {game_id}")
    for person in people[1:]:
        await say(f"{person.name.lower()}> /game join")
    await say("bob> /play F1-B-1")  # refused: not started
    await say("alice> /game start")
    assert console.current is not None
    match_id = console.current
    users = [User(f"console:{p.name.lower()}", p.name) for p in people]
    first = True
    for _ in range(MAX_PLIES):
        info = await service.info(match_id)
        if info.status != "running":
            break
        user = next(u for u in users if u.id in info.to_act)
        other = next(u for u in users if u.id not in info.to_act)
        name = user.name.lower()
        if first:  # a few bad inputs, and the looks, once
            await say(f"{name}> /moves")
            await say(f"{name}> /play zzz")
            await say(f"{other.name.lower()}> /play F1-B-1")  # not their turn
            await say(f"{name}> /hand")
            await say(f"{name}> /history abc")
            await say(f"{name}> /frobnicate")
            await say(f"{name}> /help")
            await say(f"{name}> /use 999")
            first = False
        await say(f"{name}> /play {pick(await service.legal_moves(match_id, user))}")
    else:
        await say("alice> /resign")
    await say("alice> /history 50")
    await say("bob> /board")
    await say("bob> /game list")
    await say("bob> /rules")
    return out


@pytest.mark.parametrize("game_id", CONVERTED)
async def test_a_whole_console_game_in_every_language(
    game_id: str, tmp_path: Path, fallbacks: list[tuple[str, str]], in_process: None
) -> None:
    # names, game ids (the help lists them) and option names typed as they are (count)
    allowed = {w.lower() for w in [*get_game(game_id).name.split(), *NAMES, *IDS, "count"]}
    runs: dict[str, list[str]] = {}
    for lang in ["en", *LANGUAGES]:
        service = await MatchService.open(tmp_path / f"{game_id}-{lang}.db")
        try:
            texts = await console_game(service, tmp_path / "pics", game_id, lang)
        finally:
            await service.close()
        runs[lang] = [re.sub(r"/tmp\S*", "<path>", x) for x in texts]
        assert not fallbacks, f"{game_id} {lang}: missing keys {sorted(set(fallbacks))}"
    english = "\n".join(runs["en"])
    assert re.search(r"Your \d+ legal moves?:", english)
    # the end: a result, or (a game longer than MAX_PLIES) Alice's resignation
    assert "🏆" in english or "Alice resigned" in english
    # the refusals (a bad move is refused in the game's own words, not always quoted)
    assert "✗ It is not your turn" in english and "✗ There is no match #999." in english
    assert english.count("✗ ") >= 4
    for lang in LANGUAGES:
        check_texts(lang, runs["en"], runs[lang], allowed)


def test_the_checks_catch_english_and_missing_keys(
    fallbacks: list[tuple[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The two checks can fail: an English word left in a Hungarian line, a line left
    in English, and a key the language lacks."""
    allowed = {"alice"}
    check_texts("hu", ["Alice: 3 red"], ["Alice: 3 piros"], allowed)
    with pytest.raises(AssertionError, match="English words"):
        check_texts("hu", ["Alice: 3 red"], ["Alice: 3 red, piros"], allowed)
    with pytest.raises(AssertionError, match="same as English"):
        check_texts("hu", ["It is your move"], ["It is your move"], allowed)
    check_texts("hu", ["Alice: F3-R-2"], ["Alice: F3-R-2"], allowed)  # no words: fine
    assert render.words.catalogue.t("svc.no_undo", "hu") != MESSAGES["en"]["svc.no_undo"]
    assert not fallbacks
    hungarian = dict(messages("hu") or {})
    del hungarian["svc.no_undo"]
    monkeypatch.setitem(MESSAGES, "hu", hungarian)
    assert render.words.catalogue.t("svc.no_undo", "hu") == MESSAGES["en"]["svc.no_undo"]
    assert fallbacks == [("svc.no_undo", "hu")]


# ----- Discord ------------------------------------------------------------------------------
def seen(calls: list[Call]) -> list[str]:
    """Every text of these calls a player sees: contents, button and menu labels, embeds."""
    out: list[str] = []
    for c in calls:
        data = c.data or {}
        if c.content:
            out.append(c.content)
        for embed in data.get("embeds") or []:
            out += [str(embed.get(k)) for k in ("title", "description") if embed.get(k)]

        def walk(components: list[dict[str, Any]]) -> Iterator[str]:
            for comp in components:
                for key in ("label", "placeholder"):
                    if comp.get(key):
                        yield str(comp[key])
                for option in comp.get("options") or []:
                    yield str(option.get("label", ""))
                yield from walk(comp.get("components") or [])

        out += list(walk(data.get("components") or []))
    return out


async def discord_game(h: Harness, game_id: str, lang: str) -> list[str]:
    """A whole match on Discord: the players' clients and the server speak ``lang``."""
    h.guild_locale = lang  # the match's language: the server's when it is created
    people = [ALICE, BOB, CAROL][: seated(game_id)]
    calls: list[Call] = []
    calls += await h.slash(BOB, "notify", mode="dm", locale=lang)  # DMs on his turns
    calls += await h.slash(ALICE, "game new", game=game_id, players=len(people), locale=lang)
    lobby = next(c for c in calls if "tl:join:" in " ".join(c.custom_ids))
    match_id = int(lobby.custom_ids[0].split(":")[2])
    thread = int((await h.service.info(match_id)).thread_id or 0)
    for person in people[1:]:
        calls += await h.click(person, f"tl:join:{match_id}", channel=thread, locale=lang)
    calls += await h.slash(BOB, "play", channel=thread, locale=lang, move="F1-B-1")
    calls += await h.click(ALICE, f"tl:start:{match_id}", channel=thread, locale=lang)
    await h.deliver()
    first = True
    for _ in range(MAX_PLIES):
        info = await h.service.info(match_id)
        if info.status != "running":
            break
        user = next(u for u in people if u.id in info.to_act)
        other = next(u for u in people if u.id not in info.to_act)
        if first:
            calls += await h.slash(user, "play", channel=thread, locale=lang, move="zzz")
            calls += await h.slash(other, "play", channel=thread, locale=lang, move="F1-B-1")
            calls += await h.slash(user, "hand", channel=thread, locale=lang)
            calls += await h.slash(user, "board", channel=thread, locale=lang)
            first = False
        move = pick(await h.service.legal_moves(match_id, user))
        calls += await h.slash(user, "play", channel=thread, locale=lang, move=move)
        await h.deliver()
    else:
        calls += await h.slash(ALICE, "resign", channel=thread, locale=lang)
    await h.deliver()
    calls += await h.slash(BOB, "history moves", channel=thread, locale=lang, count=50)
    calls += await h.slash(BOB, "board", channel=thread, locale=lang)
    calls += await h.slash(BOB, "rules", channel=thread, locale=lang, game=game_id)
    await h.deliver()
    return seen(h.fake.calls)


@pytest.mark.parametrize("game_id", CONVERTED)
async def test_a_whole_discord_game_in_every_language(
    game_id: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    fallbacks: list[tuple[str, str]],
    in_process: None,
) -> None:
    allowed = {w.lower() for w in [*get_game(game_id).name.split(), *NAMES, "Tessera"]}
    runs: dict[str, list[str]] = {}
    for lang in ["en", *LANGUAGES]:
        async with running(tmp_path / lang, monkeypatch) as h:
            runs[lang] = await discord_game(h, game_id, lang)
        assert not fallbacks, f"{game_id} {lang}: missing keys {sorted(set(fallbacks))}"
    english = "\n".join(runs["en"])
    assert "It is your turn in match" in english  # the DMs
    # the end: a result, or (a game longer than MAX_PLIES) the resignation asked for
    assert "🏆" in english or "really want to give up match" in english
    assert "It is not your turn" in english  # the refusals
    for lang in LANGUAGES:
        check_texts(lang, runs["en"], runs[lang], allowed)


# ----- the ends a whole game seldom reaches ---------------------------------------------------
async def posts_of(service: MatchService) -> list[dict[str, Any]]:
    """The turn posts queued so far, in order (marked sent)."""
    out = []
    while rows := await service.store.claim_notifications("test", limit=100):
        for row in rows:
            if row.kind == "turn":
                out.append(row.payload)
            await service.store.mark_sent(row.id)
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_resigning_aborting_and_the_log_in_the_match_language(
    tmp_path: Path, fallbacks: list[tuple[str, str]], lang: str
) -> None:
    """A resignation's final post, status and log row, and an abort by vote, are kept as
    words: said in the match's language (not the English stored beside them); the move
    rows' label words stay out of the game record."""
    service = await MatchService.open(tmp_path / "ends.db", render=False)
    try:
        ids = []
        for _ in range(2):
            info = await service.create_match(CONVERTED[0], ALICE, seed=7)
            await service.join(info.id, BOB)
            await service.start(info.id, ALICE)
            ids.append(info.id)
        resigned, aborted = ids
        mover = ALICE if ALICE.id in (await service.info(resigned)).to_act else BOB
        await service.play(resigned, mover, pick(await service.legal_moves(resigned, mover)))
        await service.resign(resigned, BOB)
        await service.abort(aborted, ALICE)
        await service.abort(aborted, BOB)
        names = (await service.info(resigned)).names
        for p in await posts_of(service):
            english, said = post_body(p, "en", names), post_body(p, lang, names)
            assert english == p["text"]  # the English as stored, ratings and all
            # and the words said in English again give that same English (delivery keeps
            # a turn post's stored English lines when the names are those they name)
            assert p.get("names") == (names if "lines" in p else None)
            resaid = post_body({k: v for k, v in p.items() if k != "names"}, "en", names)
            assert resaid == p["text"]
            assert said != english, said
        for match_id in ids:
            english = (await service.info(match_id)).status_text
            said = (await service.info(match_id, lang)).status_text
            assert said != english and "Bob" in said, said
        log = await service.history(resigned, lang=lang)
        english_log = await service.history(resigned)
        assert len(log) == 2 and all(a != b for a, b in zip(log, english_log, strict=True))
        record = await service.export_record(resigned)
        assert all(e["kind"] != "label" for m in record["moves"] for e in m["events"])
        assert not fallbacks, sorted(set(fallbacks))
    finally:
        await service.close()
