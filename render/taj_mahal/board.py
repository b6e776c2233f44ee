"""The map of the public picture: provinces, roads and cities drawn at 2x and reduced
(:func:`_base`, once per language: the public picture caches the canvas it goes into),
then the pieces of the moment on top (:func:`_draw_map`): palaces in the owner's colour
and letter, crowned palaces, fortresses with their bonus tiles, goods, the current
province outlined, the palaces the last turn placed ringed, and the province names last.

Why the names go on top, from small cached sprites (:func:`_label_sprites`): drawn under
the pieces, a crowned palace beside a city covered a long name. Each name is set to fit
between its province's west and east cities (down to the legible floor), so on top it
covers no palace either. Bonus tiles sit beside their fortress, never over a city
(:func:`bonus_box`; ``tests/test_taj_mahal_render.py`` checks every fortress).
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    BACKGROUND,
    INK,
    MUTED,
    font,
    highlight_outline,
    player_colour,
    player_text_colour,
    shrink_to_fit,
    smallest_size,
)
from render.seats import is_computer_label
from render.taj_mahal.canvas import Canvas, Sprite, cut, split, stamp
from render.taj_mahal.pieces import (
    FORT,
    GOOD_FILL,
    GOOD_LETTER,
    _card_bonus,
    _crown,
    _mark_ring,
    _tile_badge,
    robot_badge,
)
from render.words.say import say
from rules.taj_mahal.components import components

W, H = 1400, 1040
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
RX, RY = 86, 66  # province ellipse
OFFS = {"N": (0, -47), "E": (70, 0), "S": (0, 47), "W": (-70, 0), "TAJ": (0, 13)}
CITY_R = 17
#: Half the room a province name has between its west and east cities' palaces.
LABEL_HALF = OFFS["E"][0] - 18 - 4


PROVINCE_FILL = "#E9DEC4"
MAP_FILL = "#F7F1E3"
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


def _base(lang: str) -> Image.Image:
    """Static map layer at final size (drawn at 2x and reduced; not cached here: the
    public picture caches it, per ``lang``, inside its canvas,
    :func:`render.taj_mahal.public._canvas`)."""
    comp = components()
    k = 2
    img = Image.new("RGB", (W * k, H * k), BACKGROUND)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, MAP_W * k, H * k), fill=MAP_FILL)
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
    f_city = font(16, bold=True)
    for c, (x, y) in cxy.items():
        pos = c.partition("_")[2]
        if pos == "TAJ":
            continue
        fort = c in comp.fortresses
        d.text((x, y + 1), pos[:1], font=f_city, fill="#FFFFFF" if fort else MUTED, anchor="mm")
    return img


@cache
def _label_sprites(lang: str) -> tuple[tuple[Sprite, int, int], ...]:
    """Each province's name on a light plate, as (sprite, x, y) to paste over the pieces
    (per language: the names are catalogue words, ``taj_mahal.province.*``). A name is set
    in the largest size from 17 down to the legible floor that fits between the palaces of
    its west and east cities."""
    comp = components()
    out = []
    floor = smallest_size(W)
    centre_city = {comp.city_province[c] for c in comp.cities if c.endswith("_TAJ")}
    for p, (cx, cy) in _province_xy().items():
        label = say(comp.province_label[p], lang)
        # Agra's name sits in the narrow band between its north city and the palaces on
        # its centre city: the floor size, on a lower plate
        centre = p in centre_city
        fnt = shrink_to_fit(
            label, floor if centre else 17, 2 * LABEL_HALF - 8, smallest=floor, bold=True
        )
        tw = int(fnt.getlength(label)) + 1
        h = 19 if centre else 21
        sprite = Image.new("RGBA", (tw + 8, h), (0, 0, 0, 0))
        d = ImageDraw.Draw(sprite)
        d.rounded_rectangle((0, 0, tw + 7, h - 1), 5, fill=MAP_FILL)
        d.text((tw / 2 + 4, h // 2), label, font=fnt, fill=INK, anchor="mm")
        out.append((cut(sprite), cx - (tw + 8) // 2, cy - (30 if centre else 25)))
    return tuple(out)


def bonus_box(city: str, width: float) -> tuple[float, float, float, float]:
    """Where a bonus tile ``width`` wide lies beside its fortress ``city``: left of a north
    or south city, under a west or east one, clear of the city and of a palace on it."""
    x, y = _city_xy()[city]
    pos = city.partition("_")[2]
    if pos in ("N", "S"):
        bx = x - 21 - width / 2
        by = y - 12 if pos == "N" else y + 12
    else:
        bx, by = x, y + 28
    return (bx - width / 2, by - 11, bx + width / 2, by + 11)


def _palace(seat: int, letter: str, crowned: bool) -> Sprite:
    """The palace sprite of ``seat`` (its label from :func:`render.seats.seat_letters`;
    not cached here: a label equals its letters whether a computer plays or not)."""
    colour, ink = player_colour(seat), player_text_colour(seat)
    return _palace_sprite(colour, ink, str(letter), crowned, is_computer_label(letter))


@lru_cache(maxsize=256)
def _palace_sprite(
    colour: str, text_colour: str, letter: str, crowned: bool, computer: bool
) -> Sprite:
    """A palace (house shape with the owner's letters), crowned palaces with a gold crown,
    a computer's with a small robot at its lower right (so not its colour alone tells
    whose it is)."""
    k = 4
    s = 36
    img = Image.new("RGBA", (s * k + 4 * k, s * k + 4 * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    top = 14 if crowned else 6
    pts = [(4, 16 + top // 2), (18, top), (32, 16 + top // 2), (32, 34), (4, 34)]
    d.polygon([(x * k, y * k) for x, y in pts], fill=colour, outline=INK, width=2 * k)
    if crowned:
        _crown(d, 18 * k, 6 * k, 16 * k, "#F2C230")
    img = img.reduce(k)
    d = ImageDraw.Draw(img)
    size = 16 if len(letter) < 2 else 13
    d.text((18, 26), letter, font=font(size, bold=True), fill=text_colour, anchor="mm")
    if computer:
        robot_badge(d, 24, 33, 11)
    return cut(img)


@lru_cache(maxsize=128)
def _bonus_sprite(city: str, kind: str, code: str) -> tuple[Sprite, int, int]:
    """A fortress's bonus tile beside it (:func:`bonus_box`), where the board pastes it."""
    x, y = _city_xy()[city]
    if kind == "card":
        box = bonus_box(city, _card_bonus_width(code))
    else:
        f_b = font(15, bold=True)
        text = GOOD_LETTER.get(code, code[:1].upper()) if kind == "good" else code
        fill = GOOD_FILL.get(code, "#FFFFFF") if kind == "good" else "#FFE9A8"
        box = bonus_box(city, f_b.getlength(text) + 8)
    bx, fx = split((box[0] + box[2]) / 2)
    by, fy = split((box[1] + box[3]) / 2)

    def draw(d: ImageDraw.ImageDraw, px: float, py: float) -> None:
        if kind == "card":
            _card_bonus(d, px, py, code)
            return
        # the box drawn from its corners (as in place), moved to the sprite's point
        sx, sy = px - fx - bx, py - fy - by
        shifted = (box[0] + sx, box[1] + sy, box[2] + sx, box[3] + sy)
        d.rounded_rectangle(shifted, 4, fill=fill, outline=FORT, width=2)
        d.text((px, py), text, font=f_b, fill=INK, anchor="mm")

    img, dx, dy = stamp(draw, fx, fy, 60)
    return img, bx + dx, by + dy


def _draw_map(c: Canvas, view: dict[str, Any], letters: list[str], lang: str) -> int:
    """The pieces of the moment on the map, the province names over them; returns the y
    below the map."""
    comp = components()
    pxy = _province_xy()
    cxy = _city_xy()
    cur = view["province"]
    cx, cy = pxy[cur]
    # the current province: the two-tone highlight (ink edge, yellow inside), a thin ink
    # ring outside it (drawn: a sprite of these rings, mostly empty, pastes slower)
    ring = c.box((cx - RX - 3, cy - RY - 3, cx + RX + 3, cy + RY + 3))
    highlight_outline(c.draw, ring, 6, ellipse=True)
    c.ellipse((cx - RX - 6, cy - RY - 6, cx + RX + 6, cy + RY + 6), outline=INK, width=1)
    for p in pxy:
        number = view["province_tiles"][p]
        faded = number < view["visit"] or (number == view["visit"] and view["court_tile"] is None)
        goods = view["tile_goods"][str(number)]
        _tile_badge(c, *tile_xy(p, len(goods)), number, goods, faded)
    for city, b in view["bonus"].items():
        x, y = cxy[city]
        if city.partition("_")[2] == "TAJ":  # no room beside the centre city: the tile inside
            c.text((x, y), b["code"], font=font(16, True), fill="#FFFFFF", anchor="mm")
            continue
        c.paste(*_placed(_bonus_sprite(city, b["kind"], b["code"])))
    for city, seat in view["palaces"].items():
        x, y = cxy[city]
        spr = _palace(seat, letters[seat], False)
        c.paste(spr, (x - 18, y - 20))
    crown_here = "mogul" not in view["court"]
    last = view.get("last") or {}
    crowned_at: dict[str, tuple[int, int]] = {}
    for city, seat in view["crowned"].items():
        spr = _palace(seat, letters[seat], True)
        x, y = crowned_xy(city, city in view["palaces"])
        crowned_at[city] = (x, y)
        c.paste(spr, (x - 18, y - 24))
        if crown_here and comp.city_province[city] == cur:
            c.ellipse((x - 21, y - 27, x + 21, y + 15), outline="#C79A00", width=3)
    # the palaces the last turn placed: ringed, with a pointer (shape, not colour)
    for city in last.get("palaces") or []:
        if view["palaces"].get(city) == last["seat"]:
            x, y = cxy[city]
            _mark_ring(c, x, y - 2, 26)
    if last.get("crown") in crowned_at:
        x, y = crowned_at[last["crown"]]
        _mark_ring(c, x, y - 6, 27)
    for sprite, x, y in _label_sprites(lang):
        c.paste(sprite, (x, y))
    return map_bottom()


@cache
def map_bottom() -> int:
    """The y below the map (its lowest city), where the discard pile goes; a piece reaches
    at most :data:`PIECES_REACH` px lower."""
    return max(y for _, y in _city_xy().values()) + CITY_R + 12


#: How far below :func:`map_bottom` a piece may reach: a crowned palace drawn below its
#: city at the map's edge, ringed as the last turn's (:func:`crowned_xy`, ``_mark_ring``).
PIECES_REACH = 24


def _placed(sprite: tuple[Sprite, int, int]) -> tuple[Sprite, tuple[int, int]]:
    img, x, y = sprite
    return img, (x, y)


def tile_xy(prov: str, goods: int) -> tuple[int, int]:
    """Where province ``prov``'s tile (its number, then ``goods`` goods chips to the
    right) sits: up and right of the north city; higher and nearer the city where that
    would run under the side panel (the right edge: chips to the left hid the city)."""
    px, py = _province_xy()[prov]
    if px + 48 + 15 + 4 + 20 * goods <= MAP_W - 8:
        return px + 48, py - 50
    return px + 22, py - 86


def crowned_xy(city: str, beside: bool) -> tuple[int, int]:
    """Where a crowned palace in ``city`` is drawn: on the city, or, ``beside`` a regular
    palace there, next to it and never over it: outwards of the province for a west or a
    north city (to the left, clear of the name and the province tile), up into the
    province's empty middle for a south city (clear of the tiles beside the west and
    east cities), to the right otherwise (east, and a south city of a province with a
    centre city); below the city where that would leave the map."""
    x, y = _city_xy()[city]
    if not beside:
        return x, y
    prov, _, pos = city.partition("_")
    if pos == "S" and not any(c == f"{prov}_TAJ" for c in _city_xy()):
        return x, y - 27
    dx = -34 if pos in ("W", "N") else 34
    if not (x - 18 + dx >= 6 and x + 18 + dx <= MAP_W - 6):  # at the map's edge: below
        return x, y + 30
    return x + dx, y


def _card_bonus_width(code: str) -> float:
    """How wide :func:`render.taj_mahal.pieces._card_bonus` draws a "+1 card" tile."""
    text = code.split("card")[0] or "+1"
    return font(15, bold=True).getlength(text) + 32
