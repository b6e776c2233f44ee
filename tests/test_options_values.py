"""Option values that would silently change a match (issue 41): every value of ``/game new``
and ``/game settings`` is checked against its type and range, a refusal names the option,
the value and what is allowed in the reader's language, and nothing changes; a match that
has ended keeps its settings."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.console import Console
from bot.matches import option_table
from bot.matches.errors import NotAllowed, ServiceError
from bot.matches.reports import User
from bot.matches.service import MatchService
from render.words.catalogue import LANGUAGES, t

ALICE = User("console:alice", "Alice")


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[MatchService]:
    svc = await MatchService.open(tmp_path / "o.db", render_processes=False)
    yield svc
    await svc.close()


async def run(console: Console, *lines: str) -> list[str]:
    out: list[str] = []
    for line in lines:
        out += await console.run_line(line)
    return out


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("hints=maybe", "hints=maybe is not allowed: hints takes on or off"),
        ("rated=1", "rated=1 is not allowed: rated takes on or off"),
        ("think_seconds=nan", "think_seconds=nan is not allowed: think_seconds takes a number"),
        ("think_seconds=99", "think_seconds=99 is not allowed: think_seconds takes a number"),
        ("clock_days=inf", "clock_days=inf is not allowed: clock_days takes a number from 0"),
        ("players=2.5", "players=2.5 is not allowed: players takes a whole number from 1 to 10"),
        ("level=godlike", "level=godlike is not allowed: level takes one of easy, normal"),
        ("grey_wall=maybe", "grey_wall=maybe is not allowed: grey_wall takes on or off"),
        ("grey_wall=1", "grey_wall=1 is not allowed: grey_wall takes on or off"),
    ],
)
async def test_new_refuses_a_bad_value_and_creates_nothing(
    service: MatchService, tmp_path: Path, line: str, said: str
) -> None:
    console = Console(service, tmp_path)
    out = await run(console, f"alice> /game new azul {line}")
    assert len(out) == 1 and said in out[0], out
    assert await service.store.all_match_ids() == []


@pytest.mark.parametrize(
    ("game", "line", "said"),
    [
        ("taj-mahal", "first_player=-1", "first_player=-1 is not allowed"),
        ("taj-mahal", "last_player_may_play=perhaps", "last_player_may_play=perhaps is not"),
        ("pastiche", "max_offers_per_turn=3.5", "takes a whole number from 0 to 10"),
        ("maharani", "two_player_seats=far", "takes one of opposite, adjacent"),
    ],
)
async def test_each_games_options_are_read_by_their_kind(
    service: MatchService, tmp_path: Path, game: str, line: str, said: str
) -> None:
    console = Console(service, tmp_path)
    out = await run(console, f"alice> /game new {game} {line}")
    assert len(out) == 1 and said in out[0], out
    assert await service.store.all_match_ids() == []


async def test_good_values_in_each_spelling(service: MatchService, tmp_path: Path) -> None:
    console = Console(service, tmp_path)
    out = await run(console, "alice> /game new azul grey_wall=yes hints=off rated=false")
    assert "Match #1" in out[0]
    info = await service.info(1)
    assert info.settings["hints"] is False and info.settings["rated"] is False
    assert (await service.store.get_match(1)).options == {"grey_wall": True}
    # Discord's options field is accepted too
    await run(console, 'alice> /game new azul "options=grey_wall=on, players=3"')
    assert (await service.info(2)).max_players == 3


async def test_settings_refuse_a_bad_value_and_keep_the_old(
    service: MatchService, tmp_path: Path
) -> None:
    console = Console(service, tmp_path)
    await run(console, "alice> /game new azul")
    out = await run(console, "alice> /game settings hints=maybe")
    assert out == ["✗ hints=maybe is not allowed: hints takes on or off (also true/false, yes/no)."]
    out = await run(console, "alice> /game settings reminder_max=1e9")
    assert "reminder_max=1e9 is not allowed" in out[0]
    out = await run(console, "alice> /game settings language=xx")
    assert "language=xx is not allowed: language takes one of en, de, hu, pl" in out[0]
    assert "hints" not in (await service.info(1)).settings


async def test_console_settings_take_language_and_rated(
    service: MatchService, tmp_path: Path
) -> None:
    console = Console(service, tmp_path)
    await run(console, "alice> /game new azul")
    out = await run(console, "alice> /game settings language=hu rated=off")
    assert out[0].startswith("Saved for match #1")
    info = await service.info(1)
    assert info.settings["language"] == "hu" and info.settings["rated"] is False
    out = await run(console, "alice> /game settings match=1 hints=off")
    assert (await service.info(1)).settings["hints"] is False
    out = await run(console, "alice> /game settings match=7 hints=on")
    assert "7" in out[0] and (await service.info(1)).settings["hints"] is False


async def test_refusals_and_words_in_the_readers_language(
    service: MatchService, tmp_path: Path
) -> None:
    console = Console(service, tmp_path)
    await run(console, "alice> /lang hu")
    await run(console, "alice> /game new azul")
    out = await run(console, "alice> /game settings hints=talán")
    assert out[0].startswith("✗ hints=talán") and "true/false" in out[0]
    assert out[0] != t("options.bad_value", "en", name="hints", value="talán", allowed="")
    assert "be" in out[0]  # the Hungarian "on" is among the words allowed …
    await run(console, "alice> /game settings hints=ki")  # … and accepted
    assert (await service.info(1)).settings["hints"] is False


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_names_its_own_on_and_off(lang: str) -> None:
    """The allowed words shown are the words accepted: the catalogue's on/off in the
    reader's language are both named in the refusal and read as booleans."""
    spec = option_table.MATCH_OPTIONS["hints"][0]
    with pytest.raises(ServiceError) as err:
        option_table.read_word(spec, "maybe", lang)
    text = err.value.text(lang)
    assert "hints=maybe" in text
    assert t("yes", lang) in text and t("no", lang) in text
    assert option_table.read_word(spec, t("yes", lang), lang) is True
    assert option_table.read_word(spec, t("no", lang).upper(), lang) is False


async def test_settings_of_an_ended_match_cannot_change(
    service: MatchService, tmp_path: Path
) -> None:
    console = Console(service, tmp_path)
    await run(console, "alice> /game new azul", "alice> /game abort")
    assert (await service.info(1)).status == "aborted"
    out = await run(console, "alice> /game settings hints=off")
    assert out == ["✗ Match #1 has ended: its settings can no longer change."]
    with pytest.raises(NotAllowed):
        await service.update_settings(1, reminder_hours=2.0)
    assert "hints" not in (await service.info(1)).settings


def test_discord_values_are_checked_by_the_same_table() -> None:
    """Discord advertises ranges but a client may send anything: the cog checks each
    value with the table (bool-ish numbers, out of range, unknown choices refused)."""
    check = option_table.check_settings
    assert check("settings", {"hints": True, "clock_days": None}) == {"hints": True}
    for bad in ({"hints": 1}, {"clock_days": float("nan")}, {"reminder_max": 2.5}):
        with pytest.raises(ServiceError):
            check("settings", bad)
    with pytest.raises(ServiceError) as err:
        check("settings", {"language": "xx"})
    assert err.value.text("de").startswith("language=xx")
    with pytest.raises(ServiceError):
        check("new", {"reminder_hours": 2})  # a setting /game new does not take
