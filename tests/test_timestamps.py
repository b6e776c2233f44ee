"""Every time a person reads is a Discord timestamp (issue 43): Discord draws ``<t:…>`` in
each reader's own zone and language; the console shows the same mark as a UTC date, in the
precision its style asks for. The reminder's and /stats' times are checked where they are
made (tests/test_discord_scheduler.py, tests/test_stats.py)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.console.plain import plain_text
from bot.matches import substitutes
from bot.matches.substitutes import SUB_TTL_SECONDS, SubState
from render.words.posts import say_line
from render.words.stamps import discord_time

# 2026-12-09 07:05:00 UTC
MOMENT = 1796799900


def test_a_time_is_a_discord_timestamp_in_a_named_style() -> None:
    assert discord_time(MOMENT + 0.9) == f"<t:{MOMENT}:R>"
    assert discord_time(MOMENT, "D") == f"<t:{MOMENT}:D>"
    with pytest.raises(ValueError, match="one of t, T, d, D, f, F, R"):
        discord_time(MOMENT, "x")


@pytest.mark.parametrize(
    ("style", "shown"),
    [
        ("D", "2026-12-09"),
        ("d", "2026-12-09"),
        ("t", "07:05 UTC"),
        ("T", "07:05 UTC"),
        ("f", "2026-12-09 07:05 UTC"),
        ("R", "2026-12-09 07:05 UTC"),
    ],
)
def test_the_console_shows_a_timestamp_as_utc_in_its_precision(style: str, shown: str) -> None:
    assert plain_text(f"away until {discord_time(MOMENT, style)}.", {}) == f"away until {shown}."
    assert plain_text(f"<t:{MOMENT}>", {}) == "2026-12-09 07:05 UTC"  # no style: Discord's f


def test_an_away_line_kept_in_a_post_says_its_day_as_a_timestamp() -> None:
    line = say_line({"away": "Bob", "until": MOMENT + 0.5}, "de", ["Ann", "Bob"])
    assert f"<t:{MOMENT}:D>" in line and "Bob" in line


@pytest.mark.parametrize("kind", ["own", "vote"])
@pytest.mark.parametrize("lang", ["en", "hu", "de", "pl"])
def test_offers_and_votes_say_when_they_lapse(kind: str, lang: str) -> None:
    proposal = {
        "kind": kind,
        "at": MOMENT,
        "holder_name": "Ann",
        "by_name": "Bob",
        "to_name": "Cid",
        "to": "3",
        "seat": 0,
        "why": "left",
    }
    match = SimpleNamespace(id=7, game_name="Azul")
    state = SubState(match, proposal, "open", 1, 2)
    lapse = f"<t:{MOMENT + SUB_TTL_SECONDS}:R>"
    assert lapse in substitutes.post_text(state, lang)
    if kind == "own":
        assert lapse in substitutes.answer_text(state, lang)
