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

from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    BACKGROUND,
    INK,
    MUTED,
    final_places,
    fit_text,
    font,
    wrap_text,
)
from render.header import Band, action_words, away_words, header_band, with_band
from render.seats import seat_letters
from render.taj_mahal.board import MAP_FILL, MAP_W, TOP, W, _base, _draw_map
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
    d: ImageDraw.ImageDraw, view: dict[str, Any], letters: list[str], x0: int, y: int, lang: str
) -> int:
    """Who holds each special card (public: it is claimed in front of everyone)."""
    parts = []
    for sid, code in (("elephant", "+1E"), ("mogul", "+1C"), ("points", "+2"), ("colour", "⇄")):
        owner = view["specials"].get(sid)
        parts.append(f"{code}: {letters[owner] if owner is not None else '–'}")
    text = t("pic.taj.specials", lang) + "  " + "   ".join(parts)
    d.text((x0, y), text, font=font(16), fill=INK)
    return y + 28


def _display(
    img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], x0: int, y: int, lang: str
) -> int:
    d.text(
        (x0, y),
        t("pic.taj.display", lang, deck=view["deck_size"], discard=view["discard_size"]),
        font=font(19, bold=True),
        fill=INK,
    )
    y += 28
    for i, card in enumerate(view["display"]):
        _card(img, x0 + i * 52, y, card)
    if not view["display"]:
        d.text((x0, y + 20), t("pic.taj.empty", lang), font=font(16), fill=MUTED)
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


def _discard(
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    layout: list[tuple[int, int, str, str]],
    y: int,
    lang: str,
) -> None:
    """The discard pile's cards under the map, by colour: each colour's letter on a small
    card of its colour, then the symbols of each of its cards in the pile (face up by the
    rules: played cards and the unpicked display go there)."""
    f_h, f = font(17, bold=True), font(15, bold=True)
    d.text((10, y), tn("pic.taj.discard", view["discard_size"], lang), font=f_h, fill=INK)
    for x, dy, colour, words in layout:
        gy = y + 24 + dy
        fill = CARD_FILL.get(colour, "#FFFFFF")
        d.rounded_rectangle((x, gy, x + 22, gy + 20), 4, fill=fill, outline=INK, width=2)
        d.text((x + 11, gy + 10), colour[:1].upper(), font=f, fill=INK, anchor="mm")
        shown = fit_text(words, f, MAP_W - 10 - (x + 28))
        d.text((x + 28, gy + 10), shown, font=f, fill=INK, anchor="lm")


def _legend_lines(lang: str) -> list[str]:
    return wrap_text(t("pic.taj.legend", lang), font(15), MAP_W - 10)


def _legend(d: ImageDraw.ImageDraw, height: int, lang: str) -> None:
    """Under the map, on as many lines as the language needs (the last one at the bottom
    of a picture ``height`` tall), after the last-move pointer and its words."""
    f = font(15)
    mark = t("pic.taj.last_mark", lang)
    legend = _legend_lines(lang)
    top = height - 10 - 19 * len(legend)
    _mark_below(d, 18, top - 4, 12)
    d.text((30, top - 6), mark, font=f, fill=MUTED, anchor="ld")
    for i, line in enumerate(reversed(legend)):
        d.text((10, height - 10 - 19 * i), line, font=f, fill=MUTED, anchor="ld")


def _panel(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    letters: list[str],
    lang: str,
) -> int:
    """The panel's top part (the court, the specials, the display; or, once the game is
    over, the points by source); returns the y below it, where the players' rows go."""
    comp = components()
    x0 = MAP_W + 14
    width = W - 10 - x0
    y = TOP + 6
    if view["over"] and has_breakdown(view):
        return draw_breakdown(d, view, letters, x0, y, width, W, lang)
    province = say(comp.province_label[view["province"]], lang)
    title = court_words(lang, view["visit"], view["visits"], province)
    y = draw_court(img, d, view, letters, x0, y, width, title)
    y = _specials(d, view, letters, x0, y, lang)
    return _display(img, d, view, x0, y, lang)


def _taller(img: Image.Image, height: int) -> Image.Image:
    """The picture ``height`` tall (the players' rows need more than usual: long words,
    many cards), the map's column continued below it."""
    out = Image.new("RGB", (W, height), BACKGROUND)
    out.paste(img, (0, 0))
    ImageDraw.Draw(out).rectangle((0, img.height, MAP_W, height), fill=MAP_FILL)
    return out


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
    img = _base(lang).copy()
    d = ImageDraw.Draw(img)
    letters = seat_letters(names, view["players"])
    below_map = _draw_map(img, d, view, letters, lang)
    y = _panel(img, d, view, letters, lang)
    rows = measure_rows(view, names, lang)
    layout, discard_h = _discard_layout(view)
    need = max(
        y + sum(r.height for r in rows) + 6,  # the panel
        below_map + discard_h + 30 + 19 * len(_legend_lines(lang)),  # the map's column
    )
    if need > img.height:
        img = _taller(img, need)
        d = ImageDraw.Draw(img)
    draw_rows(img, d, view, names, letters, rows, y, lang)
    _discard(d, view, layout, below_map, lang)
    _legend(d, img.height, lang)
    return with_band(_band(view, names, letters, lang), img)
