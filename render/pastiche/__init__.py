"""Pastiche pictures, drawn only from ``GAME.view``.

Public picture (``seat=None``), phone first: a close-up of the painting's latest area big
enough to read at 400 px (the last move marked by shape, not hue: the newest hex in a
black-and-white frame behind a "new" plate, the commissions the turn completed said under
it), then the whole painting scaled to fit however far it spreads (open spots labelled with
their names for typing moves, the close-up's window framed), the palette bank with counts,
the gallery as cards, the open offers, and each player's completed commissions (the newest
framed), score and hexes. Once the game is over, the scores' arithmetic takes the
close-up's place. Private picture (``seat`` given), a phone-shaped column: that player's
palette cards, their commissions with the colours they still lack, and their two hexes in
every distinct rotation with the best spot for each.

Colour swatches always carry their names: 17 paint colours are too many to tell by hue.
The painting is drawn at 2x and reduced for smooth edges; text is drawn after the reduce.

Words come from the catalogue (``pic.pastiche.*`` in :mod:`render.words.catalogue`) in the language
given to :func:`draw`, and so do the names of the game data: paint colours, painting titles
and painters are the rules' own catalogue keys (``pastiche.colour.*``,
``pastiche.painting.*``, ``pastiche.painter.*``, see ``rules/pastiche/words.py``), so a
Hungarian picture shows *kékeszöld* and *Csillagos éj*. Spot names, commission ids,
rotations (``r3``), numbers and player names pass through. The cached sprites hold no
words.

The picture is drawn by concern: :mod:`render.pastiche.paints` (the paints' colours and
marks), :mod:`render.pastiche.common` (sizes, words of the game data, chips, badges,
commission cards), :mod:`render.pastiche.board` (hexes, the painting and its close-up),
:mod:`render.pastiche.public` (the public picture), :mod:`render.pastiche.players` (its
players' panel), :mod:`render.pastiche.final` (the final scores' arithmetic) and
:mod:`render.pastiche.hand` (a seat's private picture); this module chooses between them.
"""

from __future__ import annotations

from PIL import Image

from render.common import ended_view
from render.pastiche.common import View
from render.pastiche.hand import draw_private
from render.pastiche.public import draw_public
from render.words.catalogue import picture_language

__all__ = ["draw", "draw_private", "draw_public"]


def draw(view: View, names: list[str], seat: int | None, lang: str = "en") -> Image.Image:
    """The public picture (seat None) or ``seat``'s private picture, with its words in
    ``lang`` (a language or Discord locale; English when unknown)."""
    lang = picture_language(lang)
    if seat is None or "me" not in view:  # resigned or aborted: nobody to move
        return draw_public(ended_view(view), names, lang)
    return draw_private(view, names, seat, lang)
