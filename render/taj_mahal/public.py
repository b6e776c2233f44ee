"""The public picture: the map beside the panel under the header band.

The panel, top to bottom: the court drawn for a phone (:mod:`render.taj_mahal.court`: big
prizes and each player's counts for them) — or, once the game is over, every seat's points
by source (:mod:`render.taj_mahal.scores`) —, the special cards' holders, the display, and
one row per player (score, hand, colour, tiles, goods, the cards played this visit, the
cards known to be in his hand because he took them from the display). Under the map: the
discard pile's cards (face up by the rules) and the legend. The last turn is marked by
shape and outline (:func:`render.taj_mahal.pieces._mark_box`): the cards it played, the
palaces it placed (:mod:`render.taj_mahal.board`), the prizes it won.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

from PIL import Image, ImageChops, ImageDraw

from render.common import (
    BACKGROUND,
    INK,
    MUTED,
    final_places,
    fit_text,
    font,
    wrap_text,
)
from render.header import Band, action_words, away_words, header_band
from render.seats import seat_letters
from render.taj_mahal.board import (
    MAP_FILL,
    MAP_W,
    PIECES_REACH,
    TOP,
    H,
    W,
    _base,
    _draw_map,
    map_bottom,
)
from render.taj_mahal.canvas import Canvas, Sprite, cut
from render.taj_mahal.court import court_leads, court_words, draw_court
from render.taj_mahal.pieces import (
    CARD_FILL,
    _card,
    _mark_below,
)
from render.taj_mahal.rows import draw_rows, measure_rows
from render.taj_mahal.scores import draw_breakdown, has_breakdown
from render.words.catalogue import t, tn
from render.words.say import say
from rules.taj_mahal.components import components

__all__ = ["court_leads", "_draw_public"]


def _specials(
    c: Canvas, view: dict[str, Any], letters: list[str], x0: int, y: int, lang: str
) -> int:
    """Who holds each special card (public: it is claimed in front of everyone)."""
    parts = []
    for sid, code in (("elephant", "+1E"), ("mogul", "+1C"), ("points", "+2"), ("colour", "⇄")):
        owner = view["specials"].get(sid)
        parts.append(f"{code}: {letters[owner] if owner is not None else '–'}")
    text = t("pic.taj.specials", lang) + "  " + "   ".join(parts)
    c.text((x0, y), text, font=font(16), fill=INK)
    return y + 28


def _display(c: Canvas, view: dict[str, Any], x0: int, y: int, lang: str) -> int:
    c.text(
        (x0, y),
        t("pic.taj.display", lang, deck=view["deck_size"], discard=view["discard_size"]),
        font=font(19, bold=True),
        fill=INK,
    )
    y += 28
    for i, card in enumerate(view["display"]):
        _card(c, x0 + i * 52, y, card)
    if not view["display"]:
        c.text((x0, y + 20), t("pic.taj.empty", lang), font=font(16), fill=MUTED)
    return y + 76


def _discard_layout(view: dict[str, Any]) -> tuple[list[tuple[int, int, str, str]], int]:
    """Where the discard pile's colour groups go under the map: (x, y below the heading,
    colour, its cards' symbols) each, and the height it all takes."""
    comp = components()
    f = font(15, bold=True)
    groups: dict[str, dict[str, int]] = {}
    for card in view.get("discard") or []:
        kind = card["colour"] or card["kind"]
        code = card["code"].split("-")[1]
        groups.setdefault(kind, {})
        groups[kind][code] = groups[kind].get(code, 0) + 1
    out = []
    x, y = 10, 0
    for colour in (*comp.colours, "white"):
        codes = groups.get(colour)
        if not codes:
            continue
        words = " ".join(f"{c}×{k}" if k > 1 else c for c, k in sorted(codes.items()))
        need = 30 + int(f.getlength(words))
        if x > 10 and x + need > MAP_W - 10:
            x, y = 10, y + 24
        out.append((x, y, colour, words))
        x += need + 18
    return out, 24 + y + 26


@lru_cache(maxsize=8)
def _discard_chip(colour: str) -> Sprite:
    """A discard group's small card: its colour with its letter."""
    sprite = Image.new("RGBA", (23, 21), (0, 0, 0, 0))
    d = ImageDraw.Draw(sprite)
    d.rounded_rectangle(
        (0, 0, 22, 20), 4, fill=CARD_FILL.get(colour, "#FFFFFF"), outline=INK, width=2
    )
    d.text((11, 10), colour[:1].upper(), font=font(15, bold=True), fill=INK, anchor="mm")
    return cut(sprite)


def _discard(
    c: Canvas,
    view: dict[str, Any],
    layout: list[tuple[int, int, str, str]],
    y: int,
    lang: str,
) -> None:
    """The discard pile's cards under the map, by colour: each colour's letter on a small
    card of its colour, then the symbols of each of its cards in the pile (face up by the
    rules: played cards and the unpicked display go there)."""
    f_h, f = font(17, bold=True), font(15, bold=True)
    c.text((10, y), tn("pic.taj.discard", view["discard_size"], lang), font=f_h, fill=INK)
    for x, dy, colour, words in layout:
        gy = y + 24 + dy
        c.paste(_discard_chip(colour), (x, gy))
        shown = fit_text(words, f, MAP_W - 10 - (x + 28))
        c.text((x + 28, gy + 10), shown, font=f, fill=INK, anchor="lm")


def _legend_lines(lang: str) -> list[str]:
    return wrap_text(t("pic.taj.legend", lang), font(15), MAP_W - 10)


def _legend(c: Canvas, height: int, lang: str) -> None:
    """Under the map, on as many lines as the language needs (the last one at the bottom
    of a picture ``height`` tall), after the last-move pointer and its words."""
    f = font(15)
    mark = t("pic.taj.last_mark", lang)
    legend = _legend_lines(lang)
    top = height - 10 - 19 * len(legend)
    _mark_below(c, 18, top - 4, 12)
    c.text((30, top - 6), mark, font=f, fill=MUTED, anchor="ld")
    for i, line in enumerate(reversed(legend)):
        c.text((10, height - 10 - 19 * i), line, font=f, fill=MUTED, anchor="ld")


def _panel(c: Canvas, view: dict[str, Any], letters: list[str], lang: str) -> int:
    """The panel's top part (the court, the specials, the display; or, once the game is
    over, the points by source); returns the y below it, where the players' rows go."""
    comp = components()
    x0 = MAP_W + 14
    width = W - 10 - x0
    y = TOP + 6
    if view["over"] and has_breakdown(view):
        return draw_breakdown(c, view, letters, x0, y, width, W, lang)
    province = say(comp.province_label[view["province"]], lang)
    title = court_words(lang, view["visit"], view["visits"], province)
    y = draw_court(c, view, letters, x0, y, width, title)
    y = _specials(c, view, letters, x0, y, lang)
    return _display(c, view, x0, y, lang)


#: Room above the board in the cached canvas (:func:`_canvas`) for the header band; a
#: band taller than this (a long last move) is drawn as well, with one copy more.
BAND_ROOM = 320


class _Layer(NamedTuple):
    """The cached canvas of a language (:func:`_canvas`)."""

    #: the static board below :data:`BAND_ROOM` px of room for the band, the legend drawn
    image: Image.Image
    #: the board box the legend covers (None: not drawn into ``image``)
    legend: tuple[int, int, int, int] | None
    #: the static board in that box without the legend (for a taller picture)
    bare: Image.Image | None


@lru_cache(maxsize=8)
def _canvas(lang: str) -> _Layer:
    """The static board (:func:`render.taj_mahal.board._base`) with :data:`BAND_ROOM` px
    above it and the legend at its foot (per language, like the board): a picture is
    this cropped to its band's height, one copy (never drawn on: ``crop`` copies). The
    legend is left out of it for a language whose legend takes so many lines that it
    would reach the pieces on the map.

    Why the legend: its long lines were a tenth of the pixels a picture's texts cost, the
    same every time; drawn first instead of last, it looks the same, as nothing drawn
    later reaches it (the discard pile ends above it, the map's pieces end above
    :data:`~render.taj_mahal.board.PIECES_REACH`, the panel is right of the map)."""
    img = Image.new("RGB", (W, BAND_ROOM + H), BACKGROUND)
    base = _base(lang)
    img.paste(base, (0, BAND_ROOM))
    board = (0, BAND_ROOM, W, BAND_ROOM + H)
    _legend(Canvas(img, BAND_ROOM), H, lang)
    box = ImageChops.difference(img.crop(board), base).getbbox()
    if box is None or box[1] <= map_bottom() + PIECES_REACH:
        img.paste(base, (0, BAND_ROOM))
        return _Layer(img, None, None)
    return _Layer(img, box, base.crop(box))


def _taller(c: Canvas, height: int, layer: _Layer) -> Canvas:
    """The picture with a board ``height`` tall (the players' rows need more than usual:
    long words, many cards), the map's column continued below it, and the legend drawn
    at the canvas's old foot (``layer``'s) taken away."""
    out = Image.new("RGB", (W, c.dy + height), BACKGROUND)
    out.paste(c.image, (0, 0))
    if layer.legend is not None and layer.bare is not None:
        out.paste(layer.bare, (layer.legend[0], c.dy + layer.legend[1]))
    taller = Canvas(out, c.dy)
    taller.rectangle((0, c.height, MAP_W, height), fill=MAP_FILL)
    return taller


def stage_words(view: dict[str, Any], lang: str) -> str:
    """Where the game stands ("visit 6/12 · Multan"), as the band and the alt text say it."""
    province = say(components().province_label[view["province"]], lang)
    return t("pic.taj.stage", lang, visit=view["visit"], visits=view["visits"], province=province)


def _band(view: dict[str, Any], names: list[str], letters: list[str], lang: str) -> Image.Image:
    n = view["players"]
    stage = stage_words(view, lang)
    band = Band(
        game=t("pic.taj.title", lang),
        stage=stage,
        acting=list(view["to_act"]),
        action=action_words(say(view["status"], lang, names)),
        scores=[(s, str(view["player_info"][s]["score"])) for s in range(n)],
        last=view.get("last_move"),
        away=away_words(view, names, lang),
        places=final_places(view),
    )
    return header_band(W, band, letters, lang)


def _draw_public(view: dict[str, Any], names: list[str], lang: str) -> Image.Image:
    """The band on top, the board below it, drawn on one canvas (:mod:`.canvas`)."""
    letters = seat_letters(names, view["players"])
    band = _band(view, names, letters, lang)
    layer = _canvas(lang)
    legend = layer.legend is not None  # drawn into the canvas
    img = layer.image.crop((0, BAND_ROOM - band.height, W, BAND_ROOM + H))
    img.paste(band, (0, 0))
    c = Canvas(img, band.height)
    below_map = _draw_map(c, view, letters, lang)
    y = _panel(c, view, letters, lang)
    rows = measure_rows(view, names, lang)
    layout, discard_h = _discard_layout(view)
    need = max(
        y + sum(r.height for r in rows) + 6,  # the panel
        below_map + discard_h + 30 + 19 * len(_legend_lines(lang)),  # the map's column
    )
    if need > c.height:
        c = _taller(c, need, layer)
        legend = False
    draw_rows(c, view, names, letters, rows, y, lang)
    _discard(c, view, layout, below_map, lang)
    if not legend:
        _legend(c, c.height, lang)
    return c.image
