"""Match options are checked in the players' words (issue 17): a wrong value says what the
option takes, an unknown name lists the game's options, and an option given twice is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.console import Console
from bot.discord.cogs.game import parse_options
from bot.discord.common import UserError
from bot.matches.service import MatchService
from rules.base import IllegalMove
from rules.registry import get_game


@pytest.mark.parametrize(
    ("game_id", "options", "said"),
    [
        ("azul", {"grey_wall": "maybe"}, "grey_wall is true or false."),
        ("azul", {"colour": "red"}, "Azul has no option colour; its options are: grey_wall."),
        ("maharani", {"two_player_seats": "far"}, "two_player_seats is opposite or adjacent."),
        ("pastiche", {"max_offers_per_turn": 99}, "max_offers_per_turn must be at most 10."),
        ("taj-mahal", {"first_player": "me"}, "first_player is a whole number."),
    ],
)
def test_option_errors_speak_the_players_words(game_id: str, options: dict, said: str) -> None:
    with pytest.raises(IllegalMove) as err:
        get_game(game_id).parse_options(options)
    assert str(err.value) == said


def test_discord_options_text_refuses_a_name_given_twice() -> None:
    assert parse_options("grey_wall=yes, size=5") == {"grey_wall": "yes", "size": "5"}
    with pytest.raises(UserError) as err:
        parse_options("players=2, players=3")
    assert err.value.key == "err.option_twice" and err.value.values == {"name": "players"}


async def test_console_refuses_players_given_twice(service: MatchService, tmp_path: Path) -> None:
    console = Console(service, tmp_path)
    out = await console.run_line("alice> /game new test-pile players=2 players=3")
    assert out == ["✗ players is given twice; give each option once."]
    out = await console.run_line("alice> /game new azul grey_wall=maybe")
    assert out == [
        "✗ grey_wall=maybe is not allowed: grey_wall takes on or off (also true/false, yes/no)."
    ]
    assert await service.store.all_match_ids() == []  # nothing was created
