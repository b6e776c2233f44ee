"""The league standings picture (render/league.py): drawn for 2 to 40 players and for very
long names in every language, legible on a phone, described by its text version."""

from __future__ import annotations

import io
from types import SimpleNamespace

import pytest
from PIL import Image

from render.alt_text import ALT_LIMIT
from render.header import PHONE_MIN_PX, PHONE_WIDTH
from render.league import (
    MOST_ROWS,
    SMALL,
    WIDTH,
    Standing,
    Standings,
    draw_standings,
    figure,
    league_note,
    standings_table,
    standings_text,
)
from render.words.catalogue import LANGUAGES, t

LONG = "Wolfgang Amadeus Mozart-Schwarzenegger von und zu Habsburg-Lothringen ŐŰŁŚŻ"


def table(n: int, name: str = "Player") -> Standings:
    lines = tuple(
        Standing(
            rank=1 if i < 2 else i + 1,  # two share first place
            name=f"{name} {i}",
            points=n - i / 2,
            tiebreaks=(4.5 + i, 120 - i, 0.5),
            played=3,
            left=i == n - 1,
        )
        for i in range(n)
    )
    return Standings("Autumn league", "Azul", "round 2 of 3", ("Buchholz", "Score", "H2H"), lines)


@pytest.mark.parametrize("n", [0, 2, 5, 40, MOST_ROWS + 3])
def test_drawn_for_any_number_of_players(n: int) -> None:
    png = draw_standings(table(n), "en")
    image = Image.open(io.BytesIO(png))
    assert image.width == WIDTH
    shown = min(n, MOST_ROWS)
    assert image.height >= 40 * (max(shown, 1) + 1)
    assert png.alt and len(png.alt) <= ALT_LIMIT


@pytest.mark.parametrize("lang", LANGUAGES)
def test_long_names_in_every_language(lang: str) -> None:
    png = draw_standings(table(6, LONG), lang)
    assert Image.open(io.BytesIO(png)).width == WIDTH
    text = standings_text(table(6, LONG), lang)
    assert LONG in text[1] and len(text) == 7  # the text keeps the whole name


def test_smallest_text_is_legible_on_a_phone() -> None:
    """The smallest text, scaled to a phone's 400 px, is at least the band's minimum."""
    assert SMALL * PHONE_WIDTH / WIDTH >= PHONE_MIN_PX


def test_the_text_version_says_ranks_points_tiebreaks_and_games() -> None:
    lines = standings_text(table(3), "en")
    assert lines[0] == "Autumn league · Azul — round 2 of 3"
    assert lines[1] == "1. Player 0 — points 3 · 3 games · Buchholz 4.5 · Score 120 · H2H 0.5"
    assert lines[3].endswith(t("leagues.text.left", "en"))
    assert standings_text(table(0), "en")[1] == t("leagues.pic.nobody", "en")


def test_figures_as_each_language_writes_them() -> None:
    assert figure(3.0, "en") == "3" and figure(2.5, "en") == "2.5"
    assert figure(2.5, "de") == "2,5" and figure(1 / 3, "hu") == "0,33"


def test_the_cores_standings_map_onto_the_picture() -> None:
    league = SimpleNamespace(id=7, name="", game_name="Azul", status="running", round=2, rounds=3)
    row = SimpleNamespace(
        rank=1, name="Ann", points=2.0, buchholz=1.0, game_score=80, head_to_head=0.0,
        played=2, active=True,
    )  # fmt: skip
    gone = SimpleNamespace(**{**vars(row), "rank": 2, "name": "Ben", "active": False})
    mapped = standings_table(league, SimpleNamespace(rows=[row, gone]), "en")
    assert mapped.league == t("league.default_name", "en", game="Azul", league=7)
    assert mapped.stage == "round 2 of 3"
    assert mapped.lines[0].tiebreaks == (1.0, 80.0, 0.0) and mapped.lines[1].left


def test_a_league_match_says_its_league_in_lists() -> None:
    settings = {"league": {"id": 3, "round": 2, "table": 1, "entrants": []}}
    assert league_note(settings, "en", {3: "Autumn"}) == " · league Autumn, round 2"
    assert league_note(settings, "en", {}) == " · league #3, round 2"
    assert league_note({}, "en", {3: "Autumn"}) == ""
