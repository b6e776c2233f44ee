"""Colours that must be told apart stay apart for colour-blind players.

Every pair of player colours, and every pair of a game's colours that players must tell
apart (Azul tiles, Taj Mahal card colours, Maharani tile colours, Pastiche's three paint
dabs, each game's player colours against its pieces drawn beside them: Taj Mahal's
fortresses), keeps a CAM02-UCS colour difference of at least :data:`MIN_DELTA_E` under
normal vision and under full deuteranopia, protanopia and tritanopia as simulated by
colorspacious (Machado et al. 2009, severity 100). And colour is never the only cue: each
game colour carries a letter, shape or pattern that differs even in greyscale.

Every highlight stands out from what is behind it for every eye: the two-tone highlight
ring (ink edge, yellow inside: render.common.highlight_outline) has one tone with at least
:data:`MIN_CONTRAST` luminance contrast and :data:`MIN_DELTA_E` against each surface a
game draws it on, under every simulated vision; so do the header band's ring and the
chart's swing band; and no renderer draws a plain yellow outline again.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from colorspacious import cspace_convert, deltaE
from PIL import Image, ImageChops, ImageColor, ImageDraw

from render import chart, header, maharani
from render.azul import sprites as azul
from render.common import BACKGROUND, HIGHLIGHT, HIGHLIGHT_EDGE, PLAYER_COLOURS
from render.pastiche import board as pastiche_board
from render.pastiche import common as pastiche_common
from render.pastiche import paints as pastiche
from render.taj_mahal import board as taj_board
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
    "taj mahal players and fortresses": {
        **{str(i): c for i, c in enumerate(PLAYER_COLOURS)},
        "fortress": taj_mahal.FORT,
    },
}

#: WCAG's minimum luminance contrast for graphics that must be seen (1.4.11).
MIN_CONTRAST = 3.0

#: Per game, the surfaces a highlight ring is drawn on (boards, tiles, painted hexes).
SURFACES: dict[str, dict[str, str]] = {
    "azul": {"table": azul.TABLE_BG, "board": azul.BOARD_BG, "cell": azul.EMPTY_CELL, **azul.FILL},
    "taj mahal": {"map": BACKGROUND, "province": taj_board.PROVINCE_FILL},
    "maharani": {"floor": maharani.FLOOR, "background": BACKGROUND, **maharani.TILE_FILL},
    "pastiche": {
        "canvas": pastiche_common.CANVAS,
        "paint": pastiche_board.PAINT_BG,
        "spot": pastiche_board.SPOT_FILL,
        **pastiche.PAINT,
    },
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


def luminance(rgb: np.ndarray) -> float:
    """WCAG relative luminance of an sRGB colour (0–1 channels)."""
    linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    return float(linear @ np.array([0.2126, 0.7152, 0.0722]))


def contrast(a: str, b: str, vision: str | None) -> float:
    la, lb = sorted((luminance(seen(a, vision)), luminance(seen(b, vision))))
    return (lb + 0.05) / (la + 0.05)


def delta(a: str, b: str, vision: str | None) -> float:
    return float(deltaE(seen(a, vision), seen(b, vision), input_space="sRGB1"))


def test_the_highlights_two_tones_stand_apart() -> None:
    for vision in VISION:
        assert contrast(HIGHLIGHT, HIGHLIGHT_EDGE, vision) >= 8
        assert delta(HIGHLIGHT, HIGHLIGHT_EDGE, vision) >= MIN_DELTA_E


@pytest.mark.parametrize("game", sorted(SURFACES))
def test_the_highlight_stands_out_on_every_surface(game: str) -> None:
    faint = []
    for vision in VISION:
        for name, surface in SURFACES[game].items():
            tones = (HIGHLIGHT, HIGHLIGHT_EDGE)
            best = max(contrast(t, surface, vision) for t in tones)
            far = max(delta(t, surface, vision) for t in tones)
            if best < MIN_CONTRAST or far < MIN_DELTA_E:
                faint.append((vision or "normal", name, round(best, 2), round(far, 1)))
    assert faint == []


def test_the_yellow_alone_would_not_do() -> None:
    """Why the edge: the yellow alone is about 1.1–1.3:1 on the boards' cream."""
    assert contrast(HIGHLIGHT, BACKGROUND, None) < 1.5
    assert contrast(HIGHLIGHT, BACKGROUND, "tritanomaly") < 1.5


def test_the_bands_and_the_charts_highlights_stand_out() -> None:
    for vision in VISION:
        assert contrast(header.ACTING_RING, header.BAND_FILL, vision) >= MIN_CONTRAST
        assert contrast(chart.SWING_EDGE, BACKGROUND, vision) >= MIN_CONTRAST
        assert contrast(chart.END_EDGE, BACKGROUND, vision) >= MIN_CONTRAST
        assert delta(chart.SWING_EDGE, chart.END_EDGE, vision) >= MIN_DELTA_E


def test_no_renderer_draws_a_plain_yellow_outline() -> None:
    """A ring is drawn with render.common.highlight_outline (ink edge + yellow), never as
    ``outline=HIGHLIGHT`` alone, which vanishes on the cream background."""
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[1] / "render"
    plain = [
        f"{path.relative_to(root)}:{n}"
        for path in sorted(root.rglob("*.py"))
        if path.name != "common.py"  # where highlight_outline draws both tones
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if re.search(r"outline\s*=\s*(HIGHLIGHT|ACTING_RING)\b", line)
    ]
    assert plain == []
