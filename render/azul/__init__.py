"""Azul picture: every player's board, the factories and the centre, in one image.

Drawn only from ``rules.azul`` views (Azul has no hidden information, so every seat gets the
public picture). The parts: :mod:`~render.azul.geometry` (where things sit),
:mod:`~render.azul.sprites` (tiles, the marker, the last move's frame),
:mod:`~render.azul.static` (the cached layer: empty boards, printed wall, legend),
:mod:`~render.azul.board` (factories, centre, boards and the last move's marks) and
:mod:`~render.azul.breakdown` (the final picture's points by source).

Colour is never the only cue: each tile carries its letter AND a shape (blue circle, yellow
triangle, red diamond, black square, white star); the seat colour comes with the name's
initial; the last move is framed dark-and-light, which reads in greyscale. Speed:
everything static for a player count and wall kind is drawn once at 2x, reduced and
cached; tile sprites are cached too, so a picture is mostly ``paste`` calls and a few labels.

Words come from the catalogue (``pic.azul.*`` in :mod:`render.words`) in the language given
to :func:`draw`; the static layer is cached per language. Tile letters (B Y R K W), move
examples, numbers, player names and the status line written by the rules pass through.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render.azul.board import draw_board, draw_table
from render.azul.breakdown import draw_breakdown, needs_footnote, shows_breakdown
from render.azul.geometry import WIDTH, Layout, layout
from render.azul.sprites import FILL, SHAPES, marker_sprite, tile_sprite
from render.azul.static import background
from render.common import ended_view, final_places
from render.header import Band, action_words, away_words, header_band, with_band
from render.seats import seat_letters
from render.words.catalogue import picture_language, t
from render.words.say import say

__all__ = [
    "FILL",
    "SHAPES",
    "WIDTH",
    "draw",
    "layout",
    "layout_for",
    "marker_sprite",
    "tile_sprite",
]


def layout_for(view: dict[str, Any]) -> Layout:
    """The layout of ``view``'s picture: the final one holds the score breakdown."""
    final = shows_breakdown(view)
    return layout(view["player_count"], final, final and needs_footnote(view))


def draw(
    view: dict[str, Any], names: list[str], seat: int | None = None, lang: str = "en"
) -> Image.Image:
    """The public picture (Azul has no private information, so ``seat`` changes nothing),
    with its words in ``lang`` (a language or Discord locale; English when unknown)."""
    lang = picture_language(lang)
    view = ended_view(view)  # resigned or aborted: nobody to move, the end in words
    n = view["player_count"]
    names = [
        names[i] if i < len(names) and names[i] else t("pic.common.player", lang, n=i + 1)
        for i in range(n)
    ]
    lay = layout_for(view)
    final, footnote = lay.final, lay.footnote
    img = background(n, bool(view["grey_wall"]), lang, final, footnote).copy()
    d = ImageDraw.Draw(img)
    if final:
        draw_breakdown(d, view, names, lay, lang)
    else:
        draw_table(img, d, view, lay, lang)
    pending = {q["seat"]: q for q in view.get("pending") or []}
    letters = seat_letters(names)
    for p, origin in zip(view["players"], lay.boards, strict=True):
        seat = p["seat"]
        draw_board(img, d, view, p, names[seat], origin, pending.get(seat), lang, letters[seat])
    band = Band(
        game=t("pic.azul.title", lang),
        stage=" · ".join(
            [t("pic.azul.stage", lang, round=view["round"])]
            + ([t("pic.azul.grey_wall", lang)] if view["grey_wall"] else [])
            + [t("pic.azul.bag_lid", lang, bag=view["bag"], lid=view["lid"])]
        ),
        acting=list(view["to_act"]),
        action=action_words(say(view["status"], lang, names)),
        scores=[(p["seat"], str(p["score"])) for p in view["players"]],
        last=view.get("last_move"),
        away=away_words(view, names, lang),
        places=final_places(view),
    )
    return with_band(header_band(img.width, band, letters, lang), img)
