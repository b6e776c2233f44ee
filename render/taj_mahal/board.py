"""The map of the public picture: provinces, roads and labels drawn once per language at 2x,
reduced and cached (:func:`_base`), then the pieces of the moment on top (:func:`_draw_map`):
palaces in the owner's colour and letter, crowned palaces, fortresses with their bonus tiles,
goods, the current province outlined."""

from __future__ import annotations

from functools import cache
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
)
from render.taj_mahal.pieces import FORT, GOOD_FILL, GOOD_LETTER, _card_bonus, _crown, _tile_badge
from render.words.say import say
from rules.taj_mahal.components import components

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


def _draw_map(
    img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], letters: list[str]
) -> None:
    comp = components()
    pxy = _province_xy()
    cxy = _city_xy()
    cur = view["province"]
    cx, cy = pxy[cur]
    highlight_outline(d, (cx - RX - 3, cy - RY - 3, cx + RX + 3, cy + RY + 3), 6, ellipse=True)
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
