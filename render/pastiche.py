"""Pastiche pictures, drawn only from ``GAME.view``.

Public picture (``seat=None``): the growing hex painting scaled to fit however far it spreads
(every corner dab visible, the most recent hex ringed, open spots labelled with their names
for typing moves), the palette bank with counts, the gallery as cards, and each player's
completed commissions, score and hexes. Private picture (``seat`` given): that player's
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
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
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
    shrink_to_fit,
    smallest_size,
    wrap_text,
)
from render.header import Band, away_words, header_band
from render.words.catalogue import picture_language, t, tn
from rules.pastiche.words import painter_key

View = dict[str, Any]
SQ3 = math.sqrt(3)

#: Display colours of the 17 paints (presentation only; names come from the view).
PAINT: dict[str, str] = {
    "red": "#D7261E",
    "yellow": "#F7D31A",
    "blue": "#1F5FC4",
    "orange": "#F28A1C",
    "green": "#2E9E3A",
    "purple": "#7A3E9D",
    "brown": "#8A5A2B",
    "amber": "#FFB300",
    "vermilion": "#E8452C",
    "olive": "#7F7F1A",
    "teal": "#0E8C8C",
    "magenta": "#D01C8B",
    "violet": "#9B6FE0",
    "black": "#151515",
    "white": "#FFFFFF",
    "gray": "#8E8E8E",
    "cream": "#F2E3B3",
}
LETTER = {"R": "red", "Y": "yellow", "B": "blue"}
CANVAS = "#FCFAF4"
START_FILL = "#EADFC8"
SPOT_LINE = "#C9BFAE"
PANEL = "#FFFFFF"
LINE = "#B8AE9C"

WIDTH_RIGHT = 520
PAINT_W = 880
#: The bank's colour names shrink down to the public picture's legible floor.
BANK_SMALLEST = smallest_size(PAINT_W + WIDTH_RIGHT)
HEADER_H = 64
PAD = 16
#: The hand picture's width: phone-shaped (a tall column read at ~400 px), not a 1,400 px
#: strip with its content in the left third.
HAND_W = 900


def _paint(name: str) -> str:
    return PAINT.get(name, "#CCCCCC")


def _text_on(name: str) -> str:
    r, g, b = (int(_paint(name)[i : i + 2], 16) for i in (1, 3, 5))
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#FFFFFF"


def _name(names: list[str], seat: int, lang: str = "en") -> str:
    return names[seat] if seat < len(names) else t("pic.common.player", lang, n=seat + 1)


def _badge(
    draw: ImageDraw.ImageDraw, x: int, y: int, seat: int, names: list[str], lang: str = "en"
) -> int:
    """A round seat badge with the player's initial (colour is never the only cue)."""
    d = 30
    draw.ellipse((x, y, x + d, y + d), fill=player_colour(seat), outline=INK)
    initial = (_name(names, seat, lang)[:1] or str(seat + 1)).upper()
    f = font(17, True)
    w = f.getlength(initial)
    draw.text((x + (d - w) / 2, y + 4), initial, font=f, fill=player_text_colour(seat))
    return x + d + 8


def _colour(name: str, lang: str) -> str:
    """A paint colour's name in the picture's language."""
    return t(f"pastiche.colour.{name}", lang)


def _title(com: dict[str, Any], lang: str) -> str:
    """A commission's painting by the title it is known by in the picture's language."""
    return t(f"pastiche.painting.{com['id']}", lang)


def _painter(com: dict[str, Any], lang: str) -> str:
    return t(painter_key(com["painter"]), lang)


def chip(draw: ImageDraw.ImageDraw, x: int, y: int, colour: str, text: str, size: int = 16) -> int:
    """A named colour swatch: a filled rounded box with the colour's name on it."""
    f = font(size, True)
    w = int(f.getlength(text)) + 14
    h = size + 10
    draw.rounded_rectangle(
        (x, y, x + w, y + h), radius=6, fill=_paint(colour), outline=INK, width=1
    )
    draw.text((x + 7, y + 4), text, font=f, fill=_text_on(colour))
    return x + w + 6


def _chips(
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    width: int,
    items: list[tuple[str, str]],
    size: int = 16,
) -> int:
    """Flow chips left to right, wrapping at ``width``; returns the y below them."""
    f = font(size, True)
    cx, cy = x, y
    for colour, text in items:
        w = int(f.getlength(text)) + 20
        if cx + w > x + width and cx > x:
            cx, cy = x, cy + size + 16
        cx = chip(draw, cx, cy, colour, text, size)
    return cy + size + 16


# ----- hexes --------------------------------------------------------------------------------------
def _corner(cx: float, cy: float, s: float, k: int) -> tuple[float, float]:
    a = math.radians(30 + 60 * k)
    return cx + s * math.cos(a), cy - s * math.sin(a)


def _hex_poly(cx: float, cy: float, s: float) -> list[tuple[float, float]]:
    return [_corner(cx, cy, s, k) for k in range(6)]


def draw_hex(
    draw: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    s: float,
    corners: str,
    centre: str,
    *,
    start: bool = False,
    outline: str = "#5A5246",
    width: int = 2,
) -> None:
    """One palette hex: six corner dabs, a centre of one or two primaries."""
    draw.polygon(_hex_poly(cx, cy, s), fill=START_FILL if start else CANVAS, outline=outline)
    if width > 1:
        draw.line(_hex_poly(cx, cy, s) + [_corner(cx, cy, s, 0)], fill=outline, width=width)
    rd = s * 0.27
    for k, letter in enumerate(corners):
        px, py = _corner(cx, cy, s * 0.70, k)
        draw.ellipse((px - rd, py - rd, px + rd, py + rd), fill=_paint(LETTER[letter]), outline=INK)
        _dab_mark(draw, px, py, rd, letter)
    if centre:
        rc = s * 0.26
        box = (cx - rc, cy - rc, cx + rc, cy + rc)
        if len(centre) == 1:
            draw.ellipse(box, fill=_paint(LETTER[centre]), outline=INK)
            _dab_mark(draw, cx, cy, rc, centre)
        else:
            draw.pieslice(box, 90, 270, fill=_paint(LETTER[centre[0]]))
            draw.pieslice(box, 270, 450, fill=_paint(LETTER[centre[1]]))
            draw.ellipse(box, outline=INK)
            _dab_mark(draw, cx - rc * 0.45, cy, rc * 0.5, centre[0])
            _dab_mark(draw, cx + rc * 0.45, cy, rc * 0.5, centre[1])


def _dab_mark(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, letter: str) -> None:
    """A pattern inside a paint dab, so the primaries differ by more than colour (for
    colour-blind players): red plain, yellow a dark dot, blue a white bar."""
    if letter == "Y":
        d = r * 0.32
        draw.ellipse((x - d, y - d, x + d, y + d), fill=INK)
    elif letter == "B":
        draw.rectangle((x - r * 0.62, y - r * 0.16, x + r * 0.62, y + r * 0.16), fill="#FFFFFF")


def _xy(q: int, r: int) -> tuple[float, float]:
    return SQ3 * (q + r / 2), 1.5 * r


PAINT_BG = "#EFE8DA"
SPOT_FILL = "#F7F3EA"


def _quarter(value: float) -> float:
    """Sizes of cached sprites snap to 1/4 px, so a few sizes serve every painting."""
    return round(value * 4) / 4


@lru_cache(maxsize=1024)  # ~20 KB each: at most ~20 MB per render worker
def _hex_sprite(
    corners: str, centre: str, start: bool, s: float, bg: str = PAINT_BG, k: int = 2
) -> Image.Image:
    """One painted hex of radius ``s`` (1x), drawn at ``k``x and reduced: smooth edges.
    Transparent outside. Drawn in premultiplied ``RGBa``, so the anti-aliased rim blends as
    when it was drawn in place (within one level of 255) and neither the reduce nor the
    paste converts it: half the cost of an ``RGBA`` sprite. ``bg`` no longer changes the
    pixels (it was the transparent colour of the ``RGBA`` sprite)."""
    half = math.ceil(s) + 3
    img = Image.new("RGBa", (2 * half * k, 2 * half * k), (0, 0, 0, 0))
    draw_hex(ImageDraw.Draw(img), half * k, half * k, s * k, corners, centre, start=start)
    return img.reduce(k)


@lru_cache(maxsize=64)
def _spot_sprite(s: float, k: int = 2) -> Image.Image:
    half = math.ceil(s) + 3
    img = Image.new("RGBa", (2 * half * k, 2 * half * k), (0, 0, 0, 0))  # see _hex_sprite
    poly = _hex_poly(half * k, half * k, s * k)
    ImageDraw.Draw(img).polygon(poly, fill=SPOT_FILL, outline=SPOT_LINE)
    return img.reduce(k)


@lru_cache(maxsize=64)
def _ring_sprite(s: float, k: int = 2) -> Image.Image:
    """The ring around the most recent hex: black under yellow."""
    half = math.ceil(s) + 6
    img = Image.new("RGBa", (2 * half * k, 2 * half * k), (0, 0, 0, 0))  # see _hex_sprite
    d = ImageDraw.Draw(img)
    ring = _hex_poly(half * k, half * k, s * k)
    d.line(ring + [ring[0]], fill=INK, width=12, joint="curve")
    d.line(ring + [ring[0]], fill=HIGHLIGHT, width=7, joint="curve")
    return img.reduce(k)


def _paste_centred(img: Image.Image, sprite: Image.Image, cx: float, cy: float) -> None:
    w, h = sprite.size
    img.paste(sprite, (round(cx - w / 2), round(cy - h / 2)), sprite)


def _painting(
    view: View, max_w: int, max_h: int, lang: str = "en"
) -> tuple[Image.Image, list[tuple]]:
    """The painting, plus text jobs (x, y, text, size, fill) to draw after.

    Every hex is a cached sprite (drawn at 2x and reduced once, then pasted): a painting is
    ~40 pastes instead of ~600 shapes on a 2x canvas and a full-size reduce (measured: 6 ms
    down to ~1 ms). Sprites land on whole pixels, at most half a pixel from the exact spot.
    """
    cells = [(b["q"], b["r"]) for b in view["board"]]
    spots = [] if view["over"] else _spot_cells(view)
    pts = [_xy(q, r) for q, r in cells + spots]
    minx = min(p[0] for p in pts) - SQ3 / 2
    maxx = max(p[0] for p in pts) + SQ3 / 2
    miny = min(p[1] for p in pts) - 1
    maxy = max(p[1] for p in pts) + 1
    bw, bh = maxx - minx, maxy - miny
    s = min(64.0, (max_w - 2 * PAD) / bw, (max_h - 2 * PAD) / bh)
    if s < 24:  # a far-flung painting: use a wider, taller area, then smaller hexes
        max_w, max_h = max_w + 200, max_h + 480
        s = max(9.0, min(24.0, (max_w - 2 * PAD) / bw, (max_h - 2 * PAD) / bh))
    # whole pixels: one sprite size per hex size, shared by every painting that has it
    # (a painting is at most one pixel of hex radius smaller than the largest that fits)
    s = float(math.floor(s))
    label = 18 if s >= 34 else 16 if s >= 24 else max(11, int(s * 0.7))
    w = int(max(max_w, bw * s + 2 * PAD))
    h = int(max(420, bh * s + 2 * PAD))
    ox = (w - bw * s) / 2 - minx * s
    oy = (h - bh * s) / 2 - miny * s
    img = Image.new("RGB", (w, h), PAINT_BG)
    texts: list[tuple] = []
    spot = _spot_sprite(_quarter(s * 0.96))
    for (q, r), name in zip(spots, view["spots"], strict=False):
        x, y = _xy(q, r)
        cx, cy = ox + x * s, oy + y * s
        _paste_centred(img, spot, cx, cy)
        texts.append((cx, cy, name, label, MUTED))
    last = view.get("last")
    hex_s = _quarter(s * 0.985)
    for b in view["board"]:
        x, y = _xy(b["q"], b["r"])
        sprite = _hex_sprite(b["corners"], b["centre"], b["start"], hex_s)
        _paste_centred(img, sprite, ox + x * s, oy + y * s)
    for b in view["board"]:
        if b["name"] == last:
            x, y = _xy(b["q"], b["r"])
            cx, cy = ox + x * s, oy + y * s
            _paste_centred(img, _ring_sprite(_quarter(s)), cx, cy)
            texts.append((cx, cy + s * 0.55, t("pic.pastiche.new", lang), 16, INK))
    return img, texts


def _draw_texts(draw: ImageDraw.ImageDraw, ox: int, oy: int, texts: list[tuple]) -> None:
    for x, y, text, size, fill in texts:
        f = font(size, True)
        w = f.getlength(text)
        if fill == INK:  # a plate so the label stays readable over the dabs
            draw.rounded_rectangle(
                (
                    ox + x - w / 2 - 4,
                    oy + y - size / 2 - 3,
                    ox + x + w / 2 + 4,
                    oy + y + size / 2 + 4,
                ),
                radius=4,
                fill=HIGHLIGHT,
            )
        draw.text((ox + x - w / 2, oy + y - size / 2 - 1), text, font=f, fill=fill)


# ----- panels -------------------------------------------------------------------------------------
def _bank(draw: ImageDraw.ImageDraw, x: int, y: int, view: View, lang: str) -> int:
    """The palette bank: a swatch per colour with its name and count, three to a row; two
    to a row when a language's colour names do not fit three (Polish *pomarańczowy*)."""
    draw.text((x, y), t("pic.pastiche.bank", lang), font=font(22, True), fill=INK)
    y += 34
    f = font(16, True)
    names = [_colour(c["name"], lang) for c in view["colours"]]
    widest = font(BANK_SMALLEST, True)
    cols = 3
    if any(widest.getlength(name) > _bank_room(cols, f) for name in names):
        cols = 2
    col_w = (WIDTH_RIGHT - 2 * PAD) // cols
    for i, (c, name) in enumerate(zip(view["colours"], names, strict=True)):
        cx = x + (i % cols) * col_w
        cy = y + (i // cols) * 36
        n = view["bank"][c["name"]]
        draw.rounded_rectangle(
            (cx, cy, cx + col_w - 8, cy + 30),
            radius=6,
            fill=_paint(c["name"]) if n else "#E6E0D4",
            outline=INK if n else LINE,
        )
        fill = _text_on(c["name"]) if n else MUTED
        cnt = f"{n}"
        room = col_w - 30 - int(f.getlength(cnt))  # a longer language is set smaller
        fn = shrink_to_fit(name, 16, room, smallest=BANK_SMALLEST, bold=True)
        name = fit_text(name, fn, room)
        draw.text((cx + 7, cy + 5 + (16 - fn.size) // 2), name, font=fn, fill=fill)
        draw.text((cx + col_w - 16 - f.getlength(cnt), cy + 5), cnt, font=f, fill=fill)
    rows = (len(view["colours"]) + cols - 1) // cols
    return y + rows * 36 + 8


def _bank_room(cols: int, f: Any) -> int:
    """Room for a colour's name in a bank swatch beside a two-digit count."""
    return (WIDTH_RIGHT - 2 * PAD) // cols - 30 - int(f.getlength("12"))


def _commission_card(
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    w: int,
    com: dict[str, Any],
    lack: list[str] | None = None,
    tag: str = "",
    lang: str = "en",
    smallest: int = 16,
) -> int:
    """A commission: title, painter and points, then its palette as named chips. With
    ``lack`` the colours still missing are marked '✗ name' on a pale chip. A long title
    (a painting's name in German, say, or the points word) is set smaller, down to
    ``smallest`` (the picture's legible floor), then on a second line: the card grows."""
    f_t, f_s = font(19, True), font(16)
    top = y
    pts = t("pic.pastiche.pts", lang, n=com["points"])
    room = w - 30 - int(f_t.getlength(pts))
    lines, f_title = fit_lines(_title(com, lang), 19, room, smallest=smallest, bold=True)
    for i, line in enumerate(lines):
        ty = y + 8 + 19 - f_title.size + i * (f_title.size + 4)
        draw.text((x + 10, ty), line, font=f_title, fill=INK)
    draw.text((x + w - 10 - f_t.getlength(pts), y + 8), pts, font=f_t, fill=INK)
    y += (len(lines) - 1) * (f_title.size + 4)
    sub = _painter(com, lang) + (f" · {tag}" if tag else "")
    draw.text((x + 10, y + 34), fit_text(sub, f_s, w - 20), font=f_s, fill=MUTED)
    cy = y + 60
    cx = x + 10
    fb = font(16, True)
    for c in com["palette"]:
        missing = lack is not None and c in lack
        text = f"✗ {_colour(c, lang)}" if missing else _colour(c, lang)
        cw = int(fb.getlength(text)) + (40 if missing else 20)
        if cx + cw > x + w - 6 and cx > x + 10:
            cx, cy = x + 10, cy + 32
        if missing:  # white chip, grey border, a small swatch: readable for white/cream too
            draw.rounded_rectangle(
                (cx, cy, cx + cw - 6, cy + 26), radius=6, fill="#FFFFFF", outline=MUTED, width=2
            )
            draw.rectangle((cx + 6, cy + 6, cx + 20, cy + 20), fill=_paint(c), outline=INK)
            draw.text((cx + 26, cy + 4), text, font=fb, fill=INK)
            cx += cw
        else:
            cx = chip(draw, cx, cy, c, text)
    bottom = cy + 34
    draw.rounded_rectangle((x, top, x + w, bottom), radius=10, outline=LINE, width=2)
    return bottom + 8


def _gallery(draw: ImageDraw.ImageDraw, x: int, y: int, view: View, lang: str) -> int:
    gallery = t("pic.pastiche.gallery", lang, deck=view["deck"])
    draw.text((x, y), gallery, font=font(22, True), fill=INK)
    y += 34
    for com in view["gallery"]:
        y = _commission_card(draw, x, y, WIDTH_RIGHT - 2 * PAD, com, tag=com["id"], lang=lang)
    if not view["gallery"]:
        draw.text((x, y), t("pic.pastiche.empty", lang), font=font(16), fill=MUTED)
        y += 26
    return y


def _players(
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    w: int,
    view: View,
    names: list[str],
    lang: str,
    img: Image.Image | None = None,
) -> int:
    n = len(view["seats"])
    col = w // n
    bottom = y
    for seat, info in enumerate(view["seats"]):
        cx = x + seat * col
        cy = y
        acting = seat in view["to_act"]
        draw.rounded_rectangle(
            (cx, cy, cx + col - 10, cy + 10),
            radius=4,
            fill=player_colour(seat) if acting else "#E6E0D4",
        )
        cy += 16
        bx = _badge(draw, cx, cy, seat, names, lang)
        token = t("pic.pastiche.token", lang, n=seat + 1)  # what `offer p2` refers to
        tf = font(16, True)
        tw = tf.getlength(token) + 10
        nm = fit_text(_name(names, seat, lang), font(20, True), int(col - 150 - tw))
        draw.text((bx, cy + 3), nm, font=font(20, True), fill=INK)
        tx = bx + font(20, True).getlength(nm) + 8
        draw.rounded_rectangle((tx, cy + 4, tx + tw, cy + 28), 6, fill="#FFFFFF", outline=MUTED)
        draw.text((tx + tw / 2, cy + 16), token, font=tf, fill=INK, anchor="mm")
        out = view.get("outcome") if view["over"] else None
        sc = f"{out['scores'][seat]}" if out else f"{info['score']}"
        draw.text(
            (cx + col - 24 - font(26, True).getlength(sc), cy), sc, font=font(26, True), fill=INK
        )
        cy += 38
        line = t(
            "pic.pastiche.seat_line",
            lang,
            cards=tn("pic.pastiche.n_cards", info["cards"], lang),
            commissions=tn("pic.pastiche.n_commissions", info["commissions"], lang),
        )
        if seat == view["start"]:
            line += t("pic.pastiche.started", lang)
        if out:
            d = out["details"][seat]
            line = t(
                "pic.pastiche.final_line",
                lang,
                place=out["ranks"][seat],
                commissions=d["commissions"],
                usable=d["usable"],
                bonus=d["bonus"],
            )
        lines, f = fit_lines(line, 16, col - 16, smallest=16)  # the panel grows: no cut
        for part in lines:
            draw.text((cx, cy), part, font=f, fill=MUTED)
            cy += 24
        bonus = t("pic.pastiche.bonus", lang, bonus=info["bonus"]) if info["bonus"] else ""
        draw.text(
            (cx, cy),
            t("pic.pastiche.completed", lang, points=info["commission_points"], bonus=bonus),
            font=font(16, True),
            fill=INK,
        )
        cy += 24
        for com in info["done"]:
            done = fit_text(f"{com['points']:>2} · {_title(com, lang)}", font(16), col - 20)
            draw.text((cx + 4, cy), done, font=font(16), fill=INK)
            cy += 22
        if not info["done"]:
            draw.text((cx + 4, cy), t("pic.pastiche.none_yet", lang), font=font(16), fill=MUTED)
            cy += 22
        if info.get("hexes") and img is not None:  # hexes in hand are public
            per = max(1, (col - 10) // 50)
            hexes = info["hexes"]
            for r0 in range(0, len(hexes), per):
                _hex_row(img, cx, cy + 4, hexes[r0 : r0 + per], 21, BACKGROUND)
                cy += 52
        bottom = max(bottom, cy)
    return bottom + 8


def _hex_row(
    img: Image.Image,
    x: int,
    y: int,
    hexes: list[dict[str, Any] | None],
    s: float = 22,
    bg: str = PANEL,
) -> None:
    size = int(2 * s + 4)
    for i, hx in enumerate(hexes):
        if hx is None:
            continue
        sprite = _hex_sprite(hx["corners"], hx["centre"], False, s, bg)  # cached
        _paste_centred(img, sprite, x + i * (size + 6) + size / 2, y + size / 2)


def _header(
    draw: ImageDraw.ImageDraw, w: int, view: View, names: list[str], title: str, lang: str
) -> None:
    draw.rectangle((0, 0, w, HEADER_H), fill="#3B3229")
    draw.text((PAD, 14), title, font=font(26, True), fill="#FFFFFF")
    x = PAD + int(font(26, True).getlength(title)) + 20
    f = font(20, True)
    if view["over"]:
        text = t("pic.pastiche.game_over", lang)
        out = view.get("outcome")
        if out:
            winners = ", ".join(_name(names, s, lang) for s in out["winners"])
            text += t("pic.pastiche.winner", lang, names=winners)
    else:
        cur = view["current"]
        x = _badge(draw, x, 17, cur, names, lang)
        verb = t(f"pic.pastiche.verb.{view['phase']}", lang)
        text = t(
            "pic.pastiche.turn", lang, name=_name(names, cur, lang), verb=verb, round=view["round"]
        )
    # smaller, then on two lines, when a language needs more room: centred on the bar
    lines, f = fit_lines(text, f.size, w - x - 20, smallest=smallest_size(w), bold=True)
    step = f.size + 4
    y = 20 + (20 - f.size) // 2 - (len(lines) - 1) * step // 2
    for i, line in enumerate(lines):
        draw.text((x, y + i * step), line, font=f, fill="#FFFFFF")


#: Offers drawn in the public picture; more are summed up in one line.
MAX_OFFERS_DRAWN = 6


def _offers(
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    width: int,
    view: View,
    names: list[str],
    lang: str,
) -> int:
    """The open trade offers (public: the rules make them so), each with its number, who
    offers whom, the cards on both sides as chips and how to answer. Returns the bottom y."""
    draw.text((x, y), t("pic.pastiche.offers", lang), font=font(20, True), fill=INK)
    y += 30
    offers = view["offers"]
    small = font(16)
    for o in offers[:MAX_OFFERS_DRAWN]:
        giver, taker = _name(names, o["from"], lang), _name(names, o["to"], lang)
        bx = _badge(draw, x, y, o["from"], names, lang)
        head = t("pic.pastiche.offer_head", lang, id=o["id"], giver=giver, taker=taker)
        draw.text(
            (bx, y + 4),
            fit_text(head, font(18, True), width - (bx - x)),
            font=font(18, True),
            fill=INK,
        )
        y += 34
        sides = (
            (t("pic.pastiche.offer_gives", lang), o["give"]),
            (t("pic.pastiche.offer_for", lang), o["get"]),
        )
        for label, cards in sides:
            draw.text((x + 8, y + 5), label, font=small, fill=MUTED)
            cx = x + 16 + int(small.getlength(label))
            if cards:
                chips = [(c, _colour(c, lang)) for c in cards]
                y = _chips(draw, cx, y, width - (cx - x), chips) - 6
            else:
                draw.text((cx, y + 5), t("pic.pastiche.offer_nothing", lang), font=small, fill=INK)
                y += 26
        answer = t("pic.pastiche.offer_answer", lang, taker=taker, id=o["id"])
        draw.text((x + 8, y + 2), fit_text(answer, small, width - 8), font=small, fill=MUTED)
        y += 30
    if len(offers) > MAX_OFFERS_DRAWN:
        more = t("pic.pastiche.offers_more", lang, n=len(offers) - MAX_OFFERS_DRAWN)
        draw.text((x, y), more, font=small, fill=MUTED)
        y += 26
    return y


def _status_lines(view: View, names: list[str], lang: str = "en") -> list[str]:
    if view.get("ended"):  # resigned or aborted: what happened instead of whose turn
        return [view["ended"]["text"]]
    lines = []
    goal = t("pic.pastiche.goal", lang, n=view["threshold"])
    if view["end"] == "trigger":
        goal += t("pic.pastiche.goal_reached", lang, name=_name(names, view["last_seat"], lang))
    elif view["end"] == "hexes":
        goal += t("pic.pastiche.goal_hexes", lang, name=_name(names, view["last_seat"], lang))
    else:
        goal += t("pic.pastiche.goal_supply", lang, n=view["supply"])
    if view["over"]:
        goal = t("pic.pastiche.final", lang)
    lines.append(goal)
    return lines


# ----- the public picture ---------------------------------------------------------------------
def _on_canvas(width: int, guess: int, paint: Any, band: Image.Image | None = None) -> Image.Image:
    """Run ``paint(img) -> bottom`` on a canvas ``guess`` pixels tall and crop it to
    ``bottom``; in the rare case the content is taller, paint again on a canvas that fits.
    (Measuring first would lay out every text twice; a generous fixed canvas cost ~3 ms of
    filling and cropping 10 MB on every picture.) With a header ``band``, the crop also
    makes room for it above (what :func:`render.header.with_band` does, without copying
    the whole picture a second time)."""
    img = Image.new("RGB", (width, guess), BACKGROUND)
    bottom = paint(img)
    if bottom > guess:
        img = Image.new("RGB", (width, bottom), BACKGROUND)
        paint(img)
    if band is None:
        return img.crop((0, 0, width, bottom))
    out = img.crop((0, -band.height, width, bottom))
    out.paste(band, (0, 0))
    return out


def draw_public(view: View, names: list[str], lang: str = "en") -> Image.Image:
    paint, texts = _painting(view, PAINT_W, 820, lang)
    pw, ph = paint.size
    w = pw + WIDTH_RIGHT

    def layout(img: Image.Image) -> int:
        draw = ImageDraw.Draw(img)
        y = PAD
        for line in _status_lines(view, names, lang):
            for part in wrap_text(line, font(18, True), pw - 2 * PAD):  # never cut off
                draw.text((PAD, y), part, font=font(18, True), fill=INK)
                y += 26
        top = y + 8
        img.paste(paint, (0, top))
        _draw_texts(draw, 0, top, texts)
        rx = pw + PAD
        yb = _paste_panel(img, "bank", rx, PAD, view, lang)
        right_bottom = _paste_panel(img, "gallery", rx, yb + 10, view, lang)
        if view.get("offers"):
            right_bottom = _offers(
                draw, rx, right_bottom + 10, WIDTH_RIGHT - 2 * PAD, view, names, lang
            )
        py = max(top + ph, right_bottom) + PAD
        draw.line((PAD, py - 8, w - PAD, py - 8), fill=LINE, width=2)
        return _players(draw, PAD, py, w - 2 * PAD, view, names, lang, img) + PAD

    return _on_canvas(w, max(ph, 640) + 640, layout, _band(w, view, names, lang))


def _band(w: int, view: View, names: list[str], lang: str) -> Image.Image:
    n = len(view["seats"])
    letters = [(_name(names, s, lang)[:1] or str(s + 1)).upper() for s in range(n)]
    out = view.get("outcome") if view["over"] else None
    if view.get("ended"):
        action = view["ended"]["text"]
    elif view["over"]:
        action = t("pic.pastiche.game_over", lang)
        if out:
            winners = ", ".join(_name(names, s, lang) for s in out["winners"])
            action += t("pic.pastiche.winner", lang, names=winners)
    else:
        cur = view["current"]
        action = t(
            "pic.pastiche.band_turn",
            lang,
            name=_name(names, cur, lang),
            verb=t(f"pic.pastiche.verb.{view['phase']}", lang),
        )
    scores = [(s, str(out["scores"][s] if out else view["seats"][s]["score"])) for s in range(n)]
    band = Band(
        game=t("pic.pastiche.title", lang),
        stage=t("pic.pastiche.stage", lang, round=view["round"]),
        acting=[] if view["over"] or view.get("ended") else list(view["to_act"]),
        action=action,
        scores=scores,
        last=view.get("last_move"),
        away=away_words(view, names, lang),
    )
    return header_band(w, band, letters, lang)


#: The view parts each cached side panel is drawn from (and keyed by).
PANEL_PARTS = {"bank": ("bank", "colours"), "gallery": ("gallery", "deck")}
PANEL_MARGIN = 8


def _paste_panel(img: Image.Image, kind: str, x: int, y: int, view: View, lang: str) -> int:
    """Paste the bank or the gallery, drawn once per content and language: they change far
    less often than the rest (the gallery only on completions), and their ~20 chips and
    cards cost several ms each time. Returns the bottom y, as drawing in place would."""
    key = json.dumps([view[p] for p in PANEL_PARTS[kind]], sort_keys=True)
    sprite, bottom = _panel_sprite(kind, key, lang)
    img.paste(sprite, (x - PANEL_MARGIN, y - PANEL_MARGIN))
    return y + bottom


@lru_cache(maxsize=48)  # bank ~0.4 MB, gallery ~1 MB: at most ~35 MB per render worker
def _panel_sprite(kind: str, key: str, lang: str) -> tuple[Image.Image, int]:
    parts = dict(zip(PANEL_PARTS[kind], json.loads(key), strict=True))
    m = PANEL_MARGIN
    img = Image.new("RGB", (WIDTH_RIGHT, 1600), BACKGROUND)
    paint = _bank if kind == "bank" else _gallery
    bottom = paint(ImageDraw.Draw(img), m, m, parts, lang) - m
    return img.crop((0, 0, WIDTH_RIGHT, bottom + m)), bottom


def _spot_cells(view: View) -> list[tuple[int, int]]:
    return [(q, r) for q, r in view["spot_cells"]]


# ----- the private picture ----------------------------------------------------------------------
def draw_private(view: View, names: list[str], seat: int, lang: str = "en") -> Image.Image:
    me = view["me"]
    w = HAND_W

    def layout(scratch: Image.Image) -> int:
        draw = ImageDraw.Draw(scratch)
        title = t("pic.pastiche.your_hand", lang, name=_name(names, seat, lang))
        _header(draw, w, view, names, title, lang)
        y = HEADER_H + PAD
        total = sum(me["cards"].values())
        note = t("pic.pastiche.over_limit", lang) if total > 8 else ""
        cards = t("pic.pastiche.cards", lang, total=total, note=note, usable=me["usable"])
        for line in wrap_text(cards, font(22, True), w - 2 * PAD):
            draw.text((PAD, y), line, font=font(22, True), fill=INK)
            y += 32
        y += 4
        items = [
            (c["name"], f"{_colour(c['name'], lang)} ×{me['cards'][c['name']]}")
            for c in view["colours"]
        ]
        items = [it for it in items if me["cards"][it[0]] > 0]
        if items:
            y = _chips(draw, PAD, y, w - 2 * PAD, items, 18)
        else:
            draw.text((PAD, y), t("pic.pastiche.none", lang), font=font(18), fill=MUTED)
            y += 30
        y += 6
        heading = t("pic.pastiche.commissions", lang)
        draw.text((PAD, y), heading, font=font(22, True), fill=INK)
        y += 34
        cw = (w - 3 * PAD) // 2
        bottoms = [y]
        for i, com in enumerate(me["hand"]):
            bottoms.append(
                _commission_card(
                    draw,
                    PAD + i * (cw + PAD),
                    y,
                    cw,
                    com,
                    com["lack"],
                    com["id"],
                    lang,
                    smallest_size(w),
                )
            )
        y = max(bottoms) + 4
        gl = me.get("gallery_lack", {})
        if view["gallery"]:
            heading = t("pic.pastiche.gallery_lack", lang)
            draw.text((PAD, y), heading, font=font(18, True), fill=INK)
            y += 28
            for com in view["gallery"]:
                lack = gl.get(com["id"], [])
                if lack:
                    need = t(
                        "pic.pastiche.need", lang, colours=", ".join(_colour(c, lang) for c in lack)
                    )
                else:
                    need = t("pic.pastiche.ready", lang)
                line = t(
                    "pic.pastiche.gallery_line",
                    lang,
                    title=_title(com, lang),
                    points=com["points"],
                    need=need,
                )
                lines, f = fit_lines(line, 17, w - 3 * PAD, smallest=smallest_size(w))
                for part in lines:
                    draw.text((PAD + 8, y), part, font=f, fill=INK)
                    y += 25
        y += 10
        draw.text(
            (PAD, y),
            t("pic.pastiche.rotations", lang),
            font=font(22, True),
            fill=INK,
        )
        y += 36
        for hx in me["hexes"]:
            if hx is None:
                continue
            y = _rotations(scratch, draw, PAD, y, w - 2 * PAD, hx, lang)
        if not any(me["hexes"]):
            draw.text((PAD, y), t("pic.pastiche.no_hexes", lang), font=font(18), fill=MUTED)
            y += 30
        return y + PAD

    return _on_canvas(w, 1160, layout)


def _rotations(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    w: int,
    hx: dict[str, Any],
    lang: str = "en",
) -> int:
    centre = t("pic.pastiche.or", lang).join(_colour(LETTER[c], lang) for c in hx["centre"])
    heading = t("pic.pastiche.hex", lang, slot=hx["slot"], centre=centre)
    draw.text((x, y), heading, font=font(20, True), fill=INK)
    y += 30
    cell_w = w // 6
    s = 40.0
    size = int(2 * s + 6)
    bottom = y
    f = font(16)
    for i, rot in enumerate(hx["rotations"]):
        cx = x + i * cell_w
        sprite = _hex_sprite(rot["corners"], hx["centre"], False, s, BACKGROUND)
        _paste_centred(img, sprite, cx + (cell_w - size) // 2 + size / 2, y + size / 2)
        ty = y + size + 2
        label = f"r{rot['rotation']}"
        draw.text(
            (cx + (cell_w - font(18, True).getlength(label)) / 2, ty),
            label,
            font=font(18, True),
            fill=INK,
        )
        ty += 24
        cards = rot["best"]
        if rot["best_spot"]:
            head = t("pic.pastiche.at", lang, spot=rot["best_spot"])
        else:
            head = t("pic.pastiche.no_cards_anywhere", lang)
        draw.text((cx + 6, ty), head, font=font(16, True), fill=INK)
        ty += 22
        line = ""
        for c in (_colour(c, lang) for c in cards or []):
            nxt = f"{line}, {c}" if line else c
            if f.getlength(nxt) > cell_w - 12:
                draw.text((cx + 6, ty), line + ",", font=f, fill=INK)
                ty += 21
                line = c
            else:
                line = nxt
        if line:
            draw.text((cx + 6, ty), line, font=f, fill=INK)
            ty += 21
        if rot["best_spot"] and not cards:
            draw.text((cx + 6, ty), t("pic.pastiche.no_cards", lang), font=f, fill=MUTED)
            ty += 21
        bottom = max(bottom, ty)
    return bottom + 12


def draw(view: View, names: list[str], seat: int | None, lang: str = "en") -> Image.Image:
    """The public picture (seat None) or ``seat``'s private picture, with its words in
    ``lang`` (a language or Discord locale; English when unknown)."""
    lang = picture_language(lang)
    if seat is None or "me" not in view:  # resigned or aborted: nobody to move
        return draw_public(ended_view(view), names, lang)
    return draw_private(view, names, seat, lang)
