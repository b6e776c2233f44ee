"""Taj Mahal pictures, drawn only from a view (``rules.taj_mahal`` ``view``).

Public picture (seat None): the map (provinces named, roads, fortresses with their bonus
tiles, palaces in the owner's colour + letter, crowned palaces, the current province
outlined), the court drawn for a phone (big prizes, each player's counts for them, the
leader's boxed), the display, one row per player (score, hand size, colour, played cards,
tiles, the cards known in the hand), the discard pile's cards under the map; the last turn
marked by shape and outline (framed cards, ringed palaces); once the game is over, every
seat's points by the rulebook's sources instead of the court. Private picture (a seat):
that player's hand grouped by colour, the cards he cannot play this visit dimmed.

Symbols are letters (V G M P E) and a crown shape for the Grand Mogul, so colour is never
the only cue; card colours also carry their letter (R Y G B W; a special card its own
frame). The static map (background, provinces, roads, cities) and the legend are drawn
once per language into a cached canvas with room above for the header band; each picture
is one copy of it, the band pasted on top, the pieces of the moment drawn or pasted from
cached sprites (:mod:`render.taj_mahal.canvas`) and the province names over them.

Words come from the catalogue (``pic.taj.*`` in :mod:`render.words.catalogue`) in the
language given to :func:`draw`; the rules' words (the status line, province names:
messages of ``rules/taj_mahal/words.py``) are said in that language too. Symbol and card
letters, card codes, numbers and player names pass through.

Drawn by concern: :mod:`render.taj_mahal.pieces` (cards, symbols, tiles, the last-move
marks), :mod:`render.taj_mahal.board` (the map), :mod:`render.taj_mahal.court` (the
court and its counts), :mod:`render.taj_mahal.rows` (the players' rows),
:mod:`render.taj_mahal.scores` (the final points by source),
:mod:`render.taj_mahal.public` (the public picture), :mod:`render.taj_mahal.hand` (a
seat's hand) and :mod:`render.taj_mahal.canvas` (where they draw, and how a sprite is
pasted); this module chooses between them.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from render.common import ended_view
from render.taj_mahal.hand import _draw_private
from render.taj_mahal.public import _draw_public, court_leads
from render.words.catalogue import picture_language

__all__ = ["court_leads", "draw"]


def draw(view: dict[str, Any], names: list[str], seat: int | None, lang: str = "en") -> Image.Image:
    """The public picture (seat None) or ``seat``'s private hand picture, with its words in
    ``lang`` (a language or Discord locale; English when unknown)."""
    lang = picture_language(lang)
    if seat is None:  # resigned or aborted: nobody to move, the end in words
        return _draw_public(ended_view(view), names, lang)
    return _draw_private(view, names, seat, lang)
