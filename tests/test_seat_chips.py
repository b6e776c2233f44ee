"""Seats are told apart without colour: every chip's letters are unique in its match, and a
computer's chip carries a drawn robot head (render/seats.py), in the header band of every
game too."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw

from render.header import Band, header_band
from render.seats import (
    SeatLabel,
    chip_width,
    draw_seat_chip,
    is_computer,
    is_computer_label,
    seat_letters,
)
from rules import get_game
from tests.picture_probe import draw_probed

ANNA_ALICE = ["Anna", "Alice", "Bob"]
TWO_COMPUTERS = ["🤖 Ada (normal)", "🤖 Alan (hard)"]


@pytest.mark.parametrize(
    ("names", "want"),
    [
        (ANNA_ALICE, ["An", "Al", "B"]),
        (TWO_COMPUTERS, ["Ad", "Al"]),
        (["Anna", "Anne", "Bob"], ["1", "2", "B"]),  # two letters alike too: numbers
        (["Anna", "🤖 Ada (normal)", "Alice", "🤖 Alan (hard)"], ["1", "2", "3", "4"]),
        (["山田", "田中", "Bob"], ["1", "2", "B"]),  # no letter the fonts draw: the number
        (["Ágnes", "Łucja", "Özge", "Ζωή", "Юлия"], ["Á", "Ł", "Ö", "Ζ", "Ю"]),
        (["𝓙𝓸𝓱𝓷", "Kasia 🌸"], ["J", "K"]),
        (["2pac", "山田"], ["2p", "2"]),
    ],
)
def test_every_seat_gets_letters_no_other_seat_has(names: list[str], want: list[str]) -> None:
    labels = seat_letters(names)
    assert labels == want
    assert len(set(labels)) == len(labels)
    assert [is_computer_label(label) for label in labels] == [is_computer(n) for n in names]


def test_seats_beyond_the_names_are_numbered() -> None:
    assert seat_letters(["Bob"], 3) == ["B", "2", "3"]


def test_a_label_keeps_its_computer_flag_through_a_copy() -> None:
    import copy
    import pickle

    label = seat_letters(TWO_COMPUTERS)[0]
    for again in (copy.copy(label), pickle.loads(pickle.dumps(label))):
        assert again == "Ad" and isinstance(again, SeatLabel) and is_computer_label(again)


def _chip_image(label: str) -> np.ndarray:
    img = Image.new("RGB", (120, 60), "#2F2824")
    draw_seat_chip(ImageDraw.Draw(img), 4, 32, 0, label, 24, edge="#FFFFFF")
    return np.asarray(img.convert("L"))


def test_a_computers_chip_has_a_robot_head_a_persons_has_not() -> None:
    person, robot = SeatLabel("Ad"), SeatLabel("Ad", computer=True)
    assert chip_width(robot, 24) > chip_width(person, 24) + 24
    a, b = _chip_image(person), _chip_image(robot)
    # the head before the chip: white (the edge colour) where a person's chip starts
    head = round(24 * 1.36)
    assert (b[:, 4 : 4 + head] > 200).mean() > 0.15
    assert (a[:, 4 + round(chip_width(person, 24)) + 2 :] > 200).sum() == 0  # nothing after


def test_the_band_draws_robot_heads_for_computers() -> None:
    letters = seat_letters(["Anna", "Alice", "🤖 Grace (normal)", "🤖 Alan (hard)"])
    assert letters == ["An", "Al", "G", "Al"] or len(set(letters)) == 4
    band = Band("Azul", "round 2", [2], "Grace to take tiles", [(s, "3") for s in range(4)])
    with_robots = np.asarray(header_band(1280, band, letters, "en").convert("L"))
    plain = [SeatLabel(str(x)) for x in letters]
    without = np.asarray(header_band(1280, band, plain, "en").convert("L"))
    assert not np.array_equal(with_robots, without)


@pytest.mark.parametrize("game_id", ["azul", "taj-mahal", "maharani", "pastiche"])
def test_every_games_band_tells_shared_initials_and_computers_apart(game_id: str) -> None:
    game = get_game(game_id)
    names = ["Anna", "🤖 Ada (normal)", "Alice", "🤖 Grace (hard)"][: game.max_players]
    state = game.setup(len(names), 5)
    _, probe = draw_probed(game_id, game.view(state, None), names, None, "en")
    chips = [x.text for x in probe.band_texts() if x.text in ("An", "Ad", "Al", "G")]
    assert sorted(set(chips)) == sorted(seat_letters(names)), chips
