"""Colours that must be told apart stay apart for colour-blind players.

Every pair of player colours, and every pair of a game's colours that players must tell
apart (Azul tiles, Taj Mahal card colours, Maharani tile colours, Pastiche's three paint
dabs), keeps a CAM02-UCS colour difference of at least :data:`MIN_DELTA_E` under normal
vision and under full deuteranopia, protanopia and tritanopia as simulated by colorspacious
(Machado et al. 2009, severity 100). And colour is never the only cue: each game colour
carries a letter, shape or pattern that differs even in greyscale.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from colorspacious import cspace_convert, deltaE
from PIL import Image, ImageChops, ImageColor, ImageDraw

from render import azul, maharani
from render.common import PLAYER_COLOURS
from render.pastiche import paints as pastiche
from render.taj_mahal import pieces as taj_mahal

#: ΔE in CAM02-UCS: ~1 is barely visible side by side; 10 is a clearly different colour.
MIN_DELTA_E = 10.0
VISION = [None, "deuteranomaly", "protanomaly", "tritanomaly"]

SETS: dict[str, dict[str, str]] = {
    "players": {str(i): c for i, c in enumerate(PLAYER_COLOURS)},
    "azul tiles": dict(azul.FILL),
    "taj mahal cards": {
        **{str(k): v for k, v in taj_mahal.CARD_FILL.items()},
        "special": taj_mahal.SPECIAL_FILL,
    },
    "maharani tiles": dict(maharani.TILE_FILL),
    "pastiche dabs": {k: pastiche.PAINT[v] for k, v in pastiche.LETTER.items()},
}


def seen(hex_colour: str, vision: str | None) -> np.ndarray:
    rgb = np.array(ImageColor.getrgb(hex_colour)[:3]) / 255
    if vision is None:
        return rgb
    cvd = {"name": "sRGB1+CVD", "cvd_type": vision, "severity": 100}
    return np.clip(cspace_convert(rgb, cvd, "sRGB1"), 0, 1)


@pytest.mark.parametrize("name", sorted(SETS))
def test_colours_stay_apart_under_colour_blindness(name: str) -> None:
    colours = SETS[name]
    assert len(colours) >= 3
    close = []
    for vision in VISION:
        for (a, ca), (b, cb) in itertools.combinations(colours.items(), 2):
            d = float(deltaE(seen(ca, vision), seen(cb, vision), input_space="sRGB1"))
            if d < MIN_DELTA_E:
                close.append((vision or "normal", a, b, round(d, 1)))
    assert close == [], close


def test_the_simulation_really_confuses_colours() -> None:
    """Guard against a simulation that does nothing: red and green that normal vision
    tells apart easily come out nearly alike for a deuteranope."""
    red, green = "#CC3333", "#5F8F2F"
    assert deltaE(seen(red, None), seen(green, None), input_space="sRGB1") > 25
    assert (
        deltaE(seen(red, "deuteranomaly"), seen(green, "deuteranomaly"), input_space="sRGB1") < 12
    )


def _grey_difference(a: Image.Image, b: Image.Image) -> float:
    diff = ImageChops.difference(a.convert("L"), b.convert("L"))
    return float(np.asarray(diff).mean())


def test_pastiche_dabs_differ_without_colour() -> None:
    """Each primary's dab carries its own pattern: in greyscale, after removing the
    brightness of the paint itself, the three dabs still differ."""
    shapes = []
    for letter in "RYB":
        img = Image.new("RGB", (60, 60), "#FFFFFF")
        d = ImageDraw.Draw(img)
        d.ellipse((10, 10, 50, 50), fill="#888888", outline="#222222")  # same grey paint
        pastiche._dab_mark(d, 30, 30, 20, letter)
        shapes.append(img)
    for a, b in itertools.combinations(shapes, 2):
        assert _grey_difference(a, b) > 1.0


def test_game_colours_carry_distinct_letters() -> None:
    letters = [maharani.tile_letter(c) for c in maharani.TILE_FILL]
    assert len(set(letters)) == len(letters)
    assert len(set(azul.SHAPES.values())) == len(azul.SHAPES)  # Azul: a shape per colour
    from rules.taj_mahal.components import components

    comp = components()
    tags = {c.code.split("-")[0] for c in comp.cards if c.kind == "colour"}
    assert len(tags) == len(comp.colours)  # Taj Mahal: the colour's letter on every card
