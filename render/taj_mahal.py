"""Taj Mahal pictures, drawn only from a view (``rules.taj_mahal`` ``view``).

Public picture (seat None): the map (provinces named, roads, fortresses with their bonus
tiles, palaces in the owner's colour + letter, crowned palaces, the current province
outlined), the court with the prizes still there, the display, and one row per player
(score, hand size, colour, played cards, tiles, whose turn). Private picture (a seat): that
player's hand grouped by colour, with a small header.

Symbols are letters (V G M P E) and a crown shape for the Grand Mogul, so colour is never
the only cue; card colours also carry their letter (R Y G B W, S special).
The static map (background, provinces, roads, labels) is drawn once at 2x, reduced and
cached; each picture pastes it and draws the pieces of the moment on top.

Words come from the catalogue (``pic.taj.*`` in :mod:`render.words.catalogue`) in the language given
to :func:`draw`; the rules' words (the status line, province names: messages of
``rules/taj_mahal/words.py``) are said in that language too. Symbol and card letters, card
codes, numbers and player names pass through. The cached map is kept per language (its
only words are the province names).
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    MUTED,
    ended_view,
    fit_lines,
    fit_text,
    font,
    player_colour,
    player_text_colour,
    smallest_size,
    wrap_text,
)
from render.header import Band, action_words, away_words, header_band, with_band
from render.words.catalogue import picture_language, t, tn, word
from render.words.say import say
from rules.taj_mahal.components import SYMBOL_LETTERS, components

W, H = 1400, 930
MAP_W = 890
#: the board starts here; the header band (render.header) sits above the whole picture
TOP = 10
#: Province centres on a rough geographic grid (north up). Presentation only; provinces a
#: corrected map adds without a position here are placed on a spare row at the bottom.
CENTRES: dict[str, tuple[float, float]] = {
    "KAB": (0.5, 0.45),
    "KSH": (2.35, 0.2),
    "MUL": (0.35, 2.0),
    "LAH": (1.95, 1.6),
    "DEL": (3.5, 1.35),
    "AWA": (5.05, 1.55),
    "SIN": (0.3, 3.6),
    "AJM": (1.95, 3.15),
    "AGR": (3.55, 3.0),
    "ALL": (5.05, 3.35),
    "GUJ": (1.2, 4.8),
    "MAL": (3.15, 4.75),
}
SCALE_X, SCALE_Y = 148, 150
RX, RY = 84, 66  # province ellipse
OFFS = {"N": (0, -47), "E": (64, 0), "S": (0, 47), "W": (-64, 0), "TAJ": (0, 13)}
CITY_R = 17
#: Hand pictures: cards per row and the narrowest picture (phone-shaped, see _draw_private).
HAND_PER_ROW = 7
HAND_MIN_W = 460
#: Card colours chosen to stay apart (CAM02-UCS ΔE ≥ 18) under simulated deuteranopia,
#: protanopia and tritanopia as well as normal vision (tests/test_picture_colours.py);
#: every card also carries its colour's letter.
CARD_FILL = {
    "red": "#CE5061",
    "yellow": "#FBD84E",
    "green": "#9DCB9A",
    "blue": "#6B95FF",
    None: "#FFFFFF",
}
SPECIAL_FILL = "#D3942F"
GOOD_FILL = {"rice": "#FFFFFF", "tea": "#9ED39B", "spice": "#F0A35E", "jewel": "#B9A3F0"}
GOOD_LETTER = {"rice": "R", "tea": "T", "spice": "S", "jewel": "J"}
FORT = "#7B4FA0"
PROVINCE_FILL = "#E9DEC4"
ROAD = "#9C8A6A"


@cache
def _province_xy() -> dict[str, tuple[int, int]]:
    comp = components()
    grid: dict[str, tuple[float, float]] = {}
    spare = 0
    for p in comp.province_keys:
        if p not in CENTRES:
            spare += 1
        grid[p] = CENTRES.get(p, (0.3 + 1.2 * (spare - 1), 5.6))
    x0 = min(g[0] for g in grid.values())
    y0 = min(g[1] for g in grid.values())
    return {
        p: (int(RX + 12 + (gx - x0) * SCALE_X), int(TOP + RY + 14 + (gy - y0) * SCALE_Y))
        for p, (gx, gy) in grid.items()
    }


@cache
def _city_xy() -> dict[str, tuple[int, int]]:
    comp = components()
    pxy = _province_xy()
    out = {}
    for c in comp.cities:
        prov, _, pos = c.partition("_")
        cx, cy = pxy[prov]
        dx, dy = OFFS.get(pos, (0, 0))
        out[c] = (cx + dx, cy + dy)
    return out


def _crown(d: ImageDraw.ImageDraw, cx: float, cy: float, size: float, fill: str) -> None:
    """A three-pointed crown centred at (cx, cy): the Grand Mogul's symbol."""
    w, h = size, size * 0.75
    x0, y0, x1, y1 = cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2
    pts = [
        (x0, y1),
        (x0, y0),
        (x0 + w * 0.25, y0 + h * 0.45),
        (cx, y0 - h * 0.05),
        (x1 - w * 0.25, y0 + h * 0.45),
        (x1, y0),
        (x1, y1),
    ]
    d.polygon(pts, fill=fill, outline=INK, width=max(1, int(size / 12)))


@cache
def _base(lang: str) -> Image.Image:
    """Static map layer at final size (drawn at 2x and reduced once per language: the
    province names are catalogue words, ``taj_mahal.province.*``)."""
    comp = components()
    k = 2
    img = Image.new("RGB", (W * k, H * k), BACKGROUND)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, MAP_W * k, H * k), fill="#F7F1E3")
    pxy = _province_xy()
    for cx, cy in pxy.values():
        d.ellipse(
            ((cx - RX) * k, (cy - RY) * k, (cx + RX) * k, (cy + RY) * k),
            fill=PROVINCE_FILL,
            outline="#BFAF8A",
            width=2 * k,
        )
    cxy = _city_xy()
    for a, b in comp.roads:
        same = comp.city_province[a] == comp.city_province[b]
        (x0, y0), (x1, y1) = cxy[a], cxy[b]
        d.line((x0 * k, y0 * k, x1 * k, y1 * k), fill=ROAD if not same else "#B7A37C", width=4 * k)
    for c, (x, y) in cxy.items():
        fort = c in comp.fortresses
        d.ellipse(
            ((x - CITY_R) * k, (y - CITY_R) * k, (x + CITY_R) * k, (y + CITY_R) * k),
            fill=FORT if fort else "#FFFFFF",
            outline=INK,
            width=2 * k,
        )
    img = img.reduce(k)
    d = ImageDraw.Draw(img)
    f_label = font(17, bold=True)
    f_city = font(16, bold=True)
    centre_city = {comp.city_province[c] for c in cxy if c.endswith("_TAJ")}
    for p, (cx, cy) in pxy.items():
        label = say(comp.province_label[p], lang)
        tw = f_label.getlength(label)
        if p in centre_city:
            cy -= 5
        # the name sits in the middle band between the W and E cities, on a light plate
        d.rounded_rectangle((cx - tw / 2 - 4, cy - 24, cx + tw / 2 + 4, cy - 3), 5, fill="#F7F1E3")
        d.text((cx, cy - 13), label, font=f_label, fill=INK, anchor="mm")
    for c, (x, y) in cxy.items():
        pos = c.partition("_")[2]
        if pos == "TAJ":
            continue
        fort = c in comp.fortresses
        d.text((x, y + 1), pos[:1], font=f_city, fill="#FFFFFF" if fort else MUTED, anchor="mm")
    return img


@cache
def _palace_sprite(colour: str, text_colour: str, letter: str, crowned: bool) -> Image.Image:
    """A palace (house shape with the owner's letter), crowned palaces with a gold crown."""
    k = 4
    s = 36
    img = Image.new("RGBA", (s * k, s * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    top = 14 if crowned else 6
    pts = [(4, 16 + top // 2), (18, top), (32, 16 + top // 2), (32, 34), (4, 34)]
    d.polygon([(x * k, y * k) for x, y in pts], fill=colour, outline=INK, width=2 * k)
    if crowned:
        _crown(d, 18 * k, 6 * k, 16 * k, "#F2C230")
    img = img.reduce(k)
    d = ImageDraw.Draw(img)
    d.text((18, 26), letter, font=font(16, bold=True), fill=text_colour, anchor="mm")
    return img


def _letters(names: list[str], n: int) -> list[str]:
    """Owner letters for palaces: initials when distinct, else seat numbers."""
    initials = [
        (names[i][:1] if i < len(names) and names[i] else str(i + 1)).upper() for i in range(n)
    ]
    if len(set(initials)) == n:
        return initials
    return [str(i + 1) for i in range(n)]


def _name(names: list[str], seat: int, lang: str = "en") -> str:
    return names[seat] if seat < len(names) else t("pic.common.player", lang, n=seat + 1)


def _colour(name: str, lang: str) -> str:
    return word("pic.taj.colour", name, lang)


def _card(img: Image.Image, x: int, y: int, card: dict[str, Any], w: int = 46, h: int = 66) -> None:
    """Paste a card (drawn once per card and size: a picture shows up to ~60)."""
    key = (card["code"], card["kind"], card["colour"], tuple(card["symbols"]), w, h)
    sprite = _card_sprite(*key)
    img.paste(sprite, (int(x), int(y)), sprite)


@lru_cache(maxsize=512)
def _card_sprite(
    code: str, kind: str, colour: str | None, symbols: tuple[str, ...], w: int, h: int
) -> Image.Image:
    sprite = Image.new("RGBA", (w + 1, h + 1), (0, 0, 0, 0))
    card = {"code": code, "kind": kind, "colour": colour, "symbols": list(symbols)}
    _draw_card(ImageDraw.Draw(sprite), 0, 0, card, w, h)
    return sprite


def _draw_card(
    d: ImageDraw.ImageDraw, x: int, y: int, card: dict[str, Any], w: int = 46, h: int = 66
) -> None:
    """A card: fill by colour, its colour letter in the corner, its symbols big."""
    kind = card["kind"]
    fill = SPECIAL_FILL if kind == "special" else CARD_FILL.get(card["colour"], "#FFFFFF")
    d.rounded_rectangle((x, y, x + w, y + h), 6, fill=fill, outline=INK, width=2)
    tag = card["code"].split("-")[0]
    f_small = font(15, bold=True)
    d.text((x + 4, y + 2), tag, font=f_small, fill=INK)
    syms = card["symbols"]
    if kind == "special" and not syms:
        label = card["code"].split("-")[1]
        d.text(
            (x + w / 2, y + h / 2 + 6),
            "+2" if label == "2" else "⇄",
            font=font(20, True),
            fill=INK,
            anchor="mm",
        )
        return
    if kind == "special":
        d.text((x + w - 4, y + 2), "+1", font=f_small, fill=INK, anchor="ra")
    n = len(syms)
    size = 20 if h >= 60 else 17
    for i, s in enumerate(syms):
        cy = y + h * (0.58 if n == 1 else (0.42 + 0.32 * i))
        _symbol(d, x + w / 2, cy, s, size)


def _symbol(d: ImageDraw.ImageDraw, cx: float, cy: float, sym: str, size: int) -> None:
    if sym == "mogul":
        _crown(d, cx, cy, size * 1.1, "#F2C230")
    else:
        d.text((cx, cy), SYMBOL_LETTERS[sym], font=font(size, bold=True), fill=INK, anchor="mm")


def _mini_card(d: ImageDraw.ImageDraw, x: float, y: float, w: float = 12, h: float = 17) -> None:
    """A small card outline (two stacked cards), the icon of "draw a card"."""
    d.rounded_rectangle((x + 3, y - 2, x + w + 3, y + h - 2), 2, fill="#D9D2C2", outline=INK)
    d.rounded_rectangle((x, y, x + w, y + h), 2, fill="#FFFFFF", outline=INK, width=2)


def _card_bonus(
    d: ImageDraw.ImageDraw, bx: float, by: float, code: str, used: bool = False
) -> None:
    """The "+1 card" bonus tile: "+1" beside a card icon (not a glyph that may be missing);
    ``used``: greyed and struck through (taken tiles are used at once)."""
    f = font(15, bold=True)
    text = code.split("card")[0] or "+1"
    tw = f.getlength(text)
    w = tw + 24
    ink = MUTED if used else INK
    d.rounded_rectangle(
        (bx - w / 2 - 4, by - 11, bx + w / 2 + 4, by + 11),
        4,
        fill="#E4DED2" if used else "#FFFFFF",
        outline=MUTED if used else FORT,
        width=2,
    )
    d.text((bx - w / 2, by), text, font=f, fill=ink, anchor="lm")
    _mini_card(d, bx - w / 2 + tw + 4, by - 7, 11, 15)
    if used:
        d.line((bx - w / 2 - 2, by + 9, bx + w / 2 + 2, by - 9), fill=ink, width=2)


def _tile_badge(
    img: Image.Image,
    x: int,
    y: int,
    number: int,
    goods: list[str],
    faded: bool,
    goods_left: bool = False,
) -> None:
    """Paste a province tile badge (drawn once per tile, goods and look)."""
    sprite, cx, cy = _badge_sprite(number, tuple(goods), faded, goods_left)
    img.paste(sprite, (int(x) - cx, int(y) - cy), sprite)


@lru_cache(maxsize=256)
def _badge_sprite(
    number: int, goods: tuple[str, ...], faded: bool, goods_left: bool
) -> tuple[Image.Image, int, int]:
    span = 15 + 4 + 20 * len(goods) + 4
    sprite = Image.new("RGBA", (2 * span, 36), (0, 0, 0, 0))
    _draw_tile_badge(ImageDraw.Draw(sprite), span, 18, number, list(goods), faded, goods_left)
    return sprite, span, 18


def _draw_tile_badge(
    d: ImageDraw.ImageDraw,
    x: int,
    y: int,
    number: int,
    goods: list[str],
    faded: bool,
    goods_left: bool = False,
) -> None:
    """An octagonal province tile: number, then its goods as letter chips (to its left
    where the right would run into the side panel)."""
    r = 15
    pts = [
        (x + r * a, y + r * b)
        for a, b in (
            (-0.42, -1),
            (0.42, -1),
            (1, -0.42),
            (1, 0.42),
            (0.42, 1),
            (-0.42, 1),
            (-1, 0.42),
            (-1, -0.42),
        )
    ]
    d.polygon(pts, fill="#D8D2C4" if faded else "#FFF7D6", outline=MUTED if faded else INK, width=2)
    d.text((x, y), str(number), font=font(16, bold=True), fill=MUTED if faded else INK, anchor="mm")
    if faded:
        return
    for i, g in enumerate(goods):
        gx = x - r - 4 - 18 - i * 20 if goods_left else x + r + 4 + i * 20
        d.rounded_rectangle((gx, y - 9, gx + 18, y + 9), 4, fill=GOOD_FILL[g], outline=INK)
        d.text((gx + 9, y), GOOD_LETTER[g], font=font(15, bold=True), fill=INK, anchor="mm")


def _draw_map(
    img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], letters: list[str]
) -> None:
    comp = components()
    pxy = _province_xy()
    cxy = _city_xy()
    cur = view["province"]
    cx, cy = pxy[cur]
    d.ellipse((cx - RX - 3, cy - RY - 3, cx + RX + 3, cy + RY + 3), outline=HIGHLIGHT, width=6)
    d.ellipse((cx - RX - 6, cy - RY - 6, cx + RX + 6, cy + RY + 6), outline=INK, width=1)
    for p, (px, py) in pxy.items():
        number = view["province_tiles"][p]
        faded = number < view["visit"] or (number == view["visit"] and view["court_tile"] is None)
        goods = view["tile_goods"][str(number)]
        left = px + 48 + 15 + 4 + 20 * len(goods) > MAP_W - 8  # never under the side panel
        _tile_badge(img, px + 48, py - 50, number, goods, faded, left)
    f_b = font(15, bold=True)
    for city, b in view["bonus"].items():
        x, y = cxy[city]
        pos = city.partition("_")[2]
        if pos == "TAJ":  # the centre city has no room beside it: the tile sits inside
            d.text((x, y), b["code"], font=font(16, True), fill="#FFFFFF", anchor="mm")
            continue
        dx, dy = {"N": (-34, -12), "S": (-34, 12), "E": (0, 28), "W": (0, 28), "TAJ": (0, 28)}.get(
            pos, (0, 26)
        )
        text = b["code"]
        if b["kind"] == "good":
            text = GOOD_LETTER.get(text, text[:1].upper())
            fill = GOOD_FILL.get(b["code"], "#FFFFFF")
        elif b["kind"] == "card":
            _card_bonus(d, x + dx, y + dy, b["code"])
            continue
        else:
            fill = "#FFE9A8"
        tw = f_b.getlength(text)
        bx, by = x + dx, y + dy
        d.rounded_rectangle(
            (bx - tw / 2 - 4, by - 10, bx + tw / 2 + 4, by + 10),
            4,
            fill=fill,
            outline=FORT,
            width=2,
        )
        d.text((bx, by), text, font=f_b, fill=INK, anchor="mm")
    for city, seat in view["palaces"].items():
        x, y = cxy[city]
        spr = _palace_sprite(player_colour(seat), player_text_colour(seat), letters[seat], False)
        img.paste(spr, (x - 18, y - 20), spr)
    crown_here = "mogul" not in view["court"]
    for city, seat in view["crowned"].items():
        x, y = cxy[city]
        spr = _palace_sprite(player_colour(seat), player_text_colour(seat), letters[seat], True)
        dx = 0
        if city in view["palaces"]:
            # beside the other palace, never over it: outwards of the province (W cities to
            # the left, so the province name stays clear; N cities to the left of the tile
            # badge), else to the right
            dx = -34 if city.partition("_")[2] in ("W", "N") else 34
            if not (x - 18 + dx >= 6 and x + 18 + dx <= MAP_W - 6):  # never off the map
                dx = -dx
        img.paste(spr, (x - 18 + dx, y - 24), spr)
        if crown_here and comp.city_province[city] == cur:
            d.ellipse((x - 21 + dx, y - 27, x + 21 + dx, y + 15), outline="#C79A00", width=3)


#: The court's prizes in drawing order; the elephant circle is the sixth.
COURT = ("vizier", "general", "monk", "princess", "mogul", "elephant")


def court_leads(view: dict[str, Any]) -> dict[str, tuple[list[int], int, int]]:
    """Per court prize still there: (leading seats, their count, lead over the next) among
    the players still in the visit — what players otherwise count on the tiny cards."""
    counts = []
    for s, info in enumerate(view["player_info"]):
        if not info["in_visit"]:
            continue
        mine: dict[str, int] = {}
        for card in info["played"]:
            for sym in card["symbols"]:
                mine[sym] = mine.get(sym, 0) + 1
        counts.append((s, mine))
    out = {}
    for sym in COURT:
        if sym not in view["court"]:
            continue
        ranked = sorted(((m.get(sym, 0), s) for s, m in counts), reverse=True)
        top = ranked[0][0] if ranked else 0
        if top == 0:
            continue
        leaders = sorted(s for n, s in ranked if n == top)
        second = next((n for n, _ in ranked if n < top), 0)
        out[sym] = (leaders, top, 0 if len(leaders) > 1 else top - second)
    return out


def _court_leads(
    d: ImageDraw.ImageDraw, view: dict[str, Any], letters: list[str], x0: int, y: int
) -> None:
    """Under each court circle: the leader's chip and "+lead", or "=n" for a tie."""
    f = font(15, bold=True)
    for sym, (leaders, top, lead) in court_leads(view).items():
        cx = x0 + 25 + 58 * COURT.index(sym)
        if len(leaders) > 1:
            d.text((cx, y + 11), f"={top}", font=f, fill=MUTED, anchor="mm")
            continue
        s = leaders[0]
        d.rounded_rectangle((cx - 24, y, cx - 2, y + 22), 5, fill=player_colour(s), outline=INK)
        d.text((cx - 13, y + 11), letters[s], font=f, fill=player_text_colour(s), anchor="mm")
        d.text((cx + 1, y + 11), f"+{lead}", font=f, fill=INK, anchor="lm")


def _panel(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    names: list[str],
    letters: list[str],
    lang: str,
) -> None:
    comp = components()
    x0 = MAP_W + 14
    f_h = font(19, bold=True)
    f = font(16)
    fb = font(16, bold=True)
    # court
    y = TOP + 6
    d.text(
        (x0, y),
        t(
            "pic.taj.court",
            lang,
            visit=view["visit"],
            visits=view["visits"],
            province=say(comp.province_label[view["province"]], lang),
        ),
        font=f_h,
        fill=INK,
    )
    y += 32
    court = set(view["court"])
    xi = x0
    for sym in ("vizier", "general", "monk", "princess", "mogul"):
        there = sym in court
        box = (xi, y, xi + 50, y + 50)
        d.ellipse(
            box, fill="#FFF7D6" if there else "#E4DED2", outline=INK if there else MUTED, width=2
        )
        if there:
            _symbol(d, xi + 25, y + 25, sym, 24)
        else:
            d.text((xi + 25, y + 25), "–", font=f_h, fill=MUTED, anchor="mm")
        xi += 58
    there = view["court_tile"] is not None
    d.ellipse(
        (xi, y, xi + 50, y + 50),
        fill="#FFF7D6" if there else "#E4DED2",
        outline=INK if there else MUTED,
        width=2,
    )
    d.text(
        (xi + 25, y + 25),
        "E" if there else "–",
        font=font(24, True),
        fill=INK if there else MUTED,
        anchor="mm",
    )
    if there:
        _tile_badge(
            img,
            xi + 76,
            y + 25,
            view["court_tile"],
            view["tile_goods"][str(view["court_tile"])],
            False,
        )
    _court_leads(d, view, letters, x0, y + 54)
    y += 62 + 28
    sp = view["specials"]
    parts = []
    for sid, code in (("elephant", "+1E"), ("mogul", "+1C"), ("points", "+2"), ("colour", "⇄")):
        owner = sp.get(sid)
        parts.append(f"{code}: {letters[owner] if owner is not None else '–'}")
    d.text((x0, y), t("pic.taj.specials", lang) + "  " + "   ".join(parts), font=f, fill=INK)
    y += 30
    # display
    d.text(
        (x0, y),
        t("pic.taj.display", lang, deck=view["deck_size"], discard=view["discard_size"]),
        font=f_h,
        fill=INK,
    )
    y += 28
    for i, card in enumerate(view["display"]):
        _card(img, x0 + i * 52, y, card)
    if not view["display"]:
        d.text((x0, y + 20), t("pic.taj.empty", lang), font=f, fill=MUTED)
    y += 78
    # players
    n = view["players"]
    row_h = min(118, (H - y - 8) // n)
    acting = set(view["to_act"])
    for s in range(n):
        info = view["player_info"][s]
        ry = y + s * row_h
        if s in acting:
            d.rectangle((x0 - 10, ry - 2, W - 4, ry + row_h - 6), fill="#FFF3B0", outline=HIGHLIGHT)
        d.rounded_rectangle(
            (x0 - 4, ry + 2, x0 + 24, ry + 30), 5, fill=player_colour(s), outline=INK
        )
        d.text((x0 + 10, ry + 16), letters[s], font=fb, fill=player_text_colour(s), anchor="mm")
        name = fit_text(_name(names, s, lang), fb, 150)
        arrow = "▶ " if s in acting else ""
        d.text((x0 + 32, ry + 5), arrow + name, font=fb, fill=INK)
        # the line starts after the name (a long translation takes what a short name leaves)
        lx = x0 + 32 + min(178, max(120, int(fb.getlength(arrow + name)) + 16))
        state = t("pic.taj.in" if info["in_visit"] else "pic.taj.out", lang)
        if info["colour"]:
            state += " " + _colour(info["colour"], lang)
        if s == view["start"]:
            state += " · " + t("pic.taj.starts", lang)
        line = t(
            "pic.taj.player_line", lang, score=info["score"], hand=info["hand_size"], state=state
        )
        # shrunk to the legible floor, else on two lines (the rest of the row moves down)
        lines, lf = fit_lines(line, int(f.size), W - 12 - lx, smallest=smallest_size(W))
        for k, text in enumerate(lines):
            d.text((lx, ry + 5 + f.size - lf.size + k * 17), text, font=lf, fill=INK)
        down = 10 if len(lines) > 1 else 0
        infl = " ".join(SYMBOL_LETTERS[k] for k in info["influence"]) or "–"
        goods = " ".join(f"{GOOD_LETTER[g]}{c}" for g, c in sorted(info["goods"].items())) or "–"
        d.text(
            (x0 + 32, ry + 30 + down),
            t("pic.taj.player_line2", lang, tiles=infl, goods=goods, palaces=info["palaces_left"]),
            font=f,
            fill=MUTED,
        )
        for b, code in enumerate(c for c in info["bonus_tiles"] if c.endswith("card")):
            _card_bonus(d, W - 44 - b * 60, ry + 40, code, used=True)  # used when taken
        room = (W - 12 - (x0 + 32)) // 36
        for i, card in enumerate(info["played"][:room]):
            _card(img, x0 + 32 + i * 36, ry + 54 + down * 4 // 5, card, 32, 50)


def _band(view: dict[str, Any], names: list[str], letters: list[str], lang: str) -> Image.Image:
    comp = components()
    n = view["players"]
    stage = t(
        "pic.taj.stage",
        lang,
        visit=view["visit"],
        visits=view["visits"],
        province=say(comp.province_label[view["province"]], lang),
    )
    band = Band(
        game=t("pic.taj.title", lang),
        stage=stage,
        acting=list(view["to_act"]),
        action=action_words(say(view["status"], lang, names)),
        scores=[(s, str(view["player_info"][s]["score"])) for s in range(n)],
        last=view.get("last_move"),
        away=away_words(view, names, lang),
    )
    return header_band(W, band, letters, lang)


def _draw_public(view: dict[str, Any], names: list[str], lang: str) -> Image.Image:
    img = _base(lang).copy()
    d = ImageDraw.Draw(img)
    letters = _letters(names, view["players"])
    _draw_map(img, d, view, letters)
    _panel(img, d, view, names, letters, lang)
    # under the map, on as many lines as the language needs (the last one at the bottom)
    legend = wrap_text(t("pic.taj.legend", lang), font(15), MAP_W - 10)
    for i, line in enumerate(reversed(legend)):
        d.text((10, H - 10 - 19 * i), line, font=font(15), fill=MUTED, anchor="ld")
    return with_band(_band(view, names, letters, lang), img)


def _draw_private(view: dict[str, Any], names: list[str], seat: int, lang: str) -> Image.Image:
    """The hand, laid out for a phone: a narrow picture (at most :data:`HAND_PER_ROW` cards
    a row, each colour group under its own heading) cropped to what it holds."""
    comp = components()
    hand = view.get("hand", [])
    groups: list[tuple[str, list[dict[str, Any]]]] = []
    for colour in comp.colours:
        groups.append((colour, [c for c in hand if c["colour"] == colour]))
    groups.append(("white", [c for c in hand if c["kind"] == "white"]))
    groups.append(("special", [c for c in hand if c["kind"] == "special"]))
    groups = [g for g in groups if g[1]]
    cw, ch, gap, pad = 58, 82, 8, 14
    per_row = min(HAND_PER_ROW, max((len(cards) for _, cards in groups), default=1))
    width = max(HAND_MIN_W, 2 * pad + per_row * (cw + gap) - gap)
    info = view["player_info"][seat]
    colour = _colour(info["colour"], lang) if info["colour"] else t("pic.taj.no_colour", lang)
    head = tn(
        "pic.taj.hand_head",
        len(hand),
        lang,
        name=_name(names, seat, lang),
        score=info["score"],
        colour=colour,
    )
    f_head, f_status, f_group = font(20, True), font(17), font(18, True)
    head_lines = wrap_text(head, f_head, width - 2 * pad)
    status_lines = wrap_text(say(view["status"], lang, names), f_status, width - 2 * pad)
    head_h = 14 + 28 * len(head_lines)
    top = head_h + 10 + 24 * len(status_lines) + 8
    rh = ch + 26
    # groups flow left to right like words, wrapping when the next one does not fit
    placed: list[tuple[int, int, str, list[dict[str, Any]]]] = []
    x, y, line_h = pad, top, 0
    for label, cards in groups:
        cols = min(per_row, len(cards))
        words = t("pic.taj.group", lang, label=_colour(label, lang), count=len(cards))
        need = max(cols * (cw + gap) - gap, int(f_group.getlength(words)) + 4)
        if x > pad and x + need > width - pad:
            x, y, line_h = pad, y + line_h, 0
        placed.append((x, y, label, cards))
        line_h = max(line_h, 30 + -(-len(cards) // per_row) * rh)
        x += need + 3 * gap
    height = y + line_h + (40 if not groups else 0)
    img = Image.new("RGB", (width, height + pad), BACKGROUND)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, width, head_h), fill=player_colour(seat))
    for i, line in enumerate(head_lines):
        d.text((pad, 10 + 28 * i), line, font=f_head, fill=player_text_colour(seat))
    for i, line in enumerate(status_lines):
        d.text((pad, head_h + 10 + 24 * i), line, font=f_status, fill=INK)
    if not groups:
        d.text((pad, top + 8), t("pic.taj.no_cards", lang), font=font(18), fill=MUTED)
    for gx, gy, label, cards in placed:
        d.text(
            (gx, gy),
            t("pic.taj.group", lang, label=_colour(label, lang), count=len(cards)),
            font=f_group,
            fill=INK,
        )
        for i, card in enumerate(cards):
            r, c = divmod(i, per_row)
            cx, cy = gx + c * (cw + gap), gy + 30 + r * rh
            _card(img, cx, cy, card, cw, ch)
            d.text((cx + cw / 2, cy + ch + 2), card["code"], font=font(15), fill=INK, anchor="ma")
    return img


def draw(view: dict[str, Any], names: list[str], seat: int | None, lang: str = "en") -> Image.Image:
    """The public picture (seat None) or ``seat``'s private hand picture, with its words in
    ``lang`` (a language or Discord locale; English when unknown)."""
    lang = picture_language(lang)
    if seat is None:  # resigned or aborted: nobody to move, the end in words
        return _draw_public(ended_view(view), names, lang)
    return _draw_private(view, names, seat, lang)
