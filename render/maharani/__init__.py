"""Maharani picture: the palace floor with its four quarters, the rondel, and a side panel.

Drawn only from ``GAME.view(...)`` (Maharani has no hidden information, so every seat gets
the same picture). Why it looks like this:

- Tiles carry a colour letter (B O R G P T) so colour is never the only cue; their arrow is a
  white wedge near the edge it points to; pillar marks are black (centre disc or half discs
  on edges) exactly as the pillar model of the rules.
- Workers are discs in the seat colour with the player's initial (2 players: the second
  worker colour is a rounded square, so shape tells the two apart).
- The rondel sits in the middle; each field is drawn in the cell next to the quarter it
  lies over, with its field number; a yellow pointer and the highlighted seat strip show
  whom the big arrow (and every rondel tile's arrow) points at.
- A finished game's picture adds, under the board and the panel, the gold's arithmetic as a
  table as wide as the picture, big enough to read on a phone (:mod:`render.maharani.final`).
- Shapes are drawn at 2x and reduced for smooth edges; text is drawn at 1x after the reduce.
- Cost (a picture is drawn every turn): what stays the same during a game (floor, pillar
  marks of empty spaces, coordinates, the panel's title, frames and legends) is one cached
  static layer (:mod:`render.maharani.layer`) that each picture copies; what repeats from
  turn to turn (tiles, name plates, marker chips, the strips) is pasted as cached opaque
  patches (:mod:`render.maharani.board`, :mod:`render.maharani.tiles`) with the same pixels
  as drawing it in place (tests/test_maharani_tiles.py).

Words come from the catalogue (``pic.maharani.*`` in :mod:`render.words.catalogue`) in the language
given to :func:`draw`; animal and colour names from the game data are looked up there too
(``pic.maharani.animal.*``, ``pic.maharani.colour.*``) and drawn as they are when missing.
Space names, coordinates, tile letters, numbers and player names pass through. Every cache
that holds words has the words (or the language) in its key.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from render.common import final_places
from render.header import Band, away_words, header_band, with_band
from render.maharani.board import draw_plates, draw_rondel, draw_spaces
from render.maharani.final import breakdown
from render.maharani.layer import static_layer
from render.maharani.panel import _panel, _seat_strip, _status_text, marker_font
from render.maharani.pieces import SIDES, TILE_FILL, _names, tile_fill, tile_letter
from render.seats import seat_letters
from render.words.catalogue import picture_language, t

__all__ = ["TILE_FILL", "draw", "marker_font", "tile_fill", "tile_letter"]


def draw(view: dict[str, Any], names: list[str], seat: int | None, lang: str = "en") -> Image.Image:
    """The public picture (every seat sees the same: no hidden information), with its words
    in ``lang`` (a language or Discord locale; English when unknown)."""
    lang = picture_language(lang)
    n = view["players"]
    names = _names(names, n, lang)
    letters = seat_letters(names, n)
    colours = tuple(view["colours"])
    key = tuple(
        (b["space"], b["r"], b["c"], b["q"], b["type"], tuple(b["half_pillars"]))
        for b in view["board"]
    )
    layer = static_layer(key, tuple(view["animals"]), colours, tuple(view["quarter_gold"]), n, lang)
    img = layer.copy()
    draw_plates(img, view, lang)
    draw_spaces(img, view, colours, letters)
    draw_rondel(img, view, colours)

    # ---- seat strips
    sides = view["sides"]
    ended = view.get("ended")  # resigned or aborted: nobody to move, the end in words
    turn = view["turn"] if view["phase"] != "over" and not ended else None
    for side in SIDES:
        seat_here = sides.index(side) if side in sides else None
        active = seat_here is not None and seat_here == turn
        _seat_strip(img, side, seat_here, names, letters, active, lang)

    _panel(img, view, names, letters, colours, lang)
    if view["phase"] == "over" and view.get("sources") is not None:
        img = _stacked(img, breakdown(view, names, letters, lang))
    over = view["phase"] == "over" or bool(ended)
    band = Band(
        game=t("pic.maharani.title", lang),
        stage=t("pic.maharani.turn", lang, n=view["turn_no"]),
        acting=[] if over else [view["turn"]],
        action=_status_text(view, names, lang, fit=False),
        scores=[(s, str(g)) for s, g in enumerate(view["gold"])],
        last=view.get("last_move"),
        away=away_words(view, names, lang),
        places=final_places(view),
    )
    return with_band(header_band(img.width, band, letters, lang), img)


def _stacked(top: Image.Image, bottom: Image.Image) -> Image.Image:
    """``bottom`` under ``top`` (the same width): the final picture's table of the gold."""
    out = top.crop((0, 0, top.width, top.height + bottom.height))
    out.paste(bottom, (0, top.height))
    return out
