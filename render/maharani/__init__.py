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
- Static parts (floor, pillar marks of empty spaces, coordinates, quarter names) and the tile
  and worker sprites are drawn once at 2x, reduced for smooth edges and cached; text is drawn
  at 1x after the reduce.

Words come from the catalogue (``pic.maharani.*`` in :mod:`render.words.catalogue`) in the language
given to :func:`draw`; animal and colour names from the game data are looked up there too
(``pic.maharani.animal.*``, ``pic.maharani.colour.*``) and drawn as they are when missing.
Space names, coordinates, tile letters, numbers and player names pass through. The cached
board layer holds only coordinates, so it needs no language in its key.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    HIGHLIGHT,
    INK,
    final_places,
    font,
    player_colour,
    player_text_colour,
)
from render.header import Band, away_words, header_band, with_band
from render.maharani.panel import _panel, _seat_strip, _status_text, marker_font
from render.maharani.pieces import (
    CELL,
    DELTA,
    GRID,
    GX0,
    GY0,
    QUARTER_LINE,
    ROTATE,
    SIDES,
    TILE_FILL,
    _animal,
    _cell_xy,
    _corner_cells,
    _names,
    board_layer,
    recent_mark,
    tile_fill,
    tile_letter,
    tile_sprite,
    worker_sprite,
)
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
    img = board_layer(key, tuple(view["animals"])).copy()
    d = ImageDraw.Draw(img)

    # ---- quarter name plates in the corner cells
    quarters = {q["q"]: q for q in view["quarters"]}
    for r, c, qn in _corner_cells():
        q = quarters[qn]
        x, y = _cell_xy(r, c)
        fill = "#2E7D32" if q["scored"] else "#F7F1E3"
        ink = "#FFFFFF" if q["scored"] else INK
        d.rounded_rectangle(
            (x + 4, y + 4, x + CELL - 4, y + CELL - 4),
            radius=12,
            fill=fill,
            outline=QUARTER_LINE,
            width=2,
        )
        d.text(
            (x + CELL / 2, y + 26),
            _animal(q["animal"], lang),
            font=font(16, True),
            fill=ink,
            anchor="mm",
        )
        quarter = t("pic.maharani.quarter", lang, n=qn)
        d.text((x + CELL / 2, y + 50), quarter, font=font(16), fill=ink, anchor="mm")
        if q["scored"]:
            status = t("pic.maharani.scored", lang)
        else:
            status = t("pic.maharani.empty_count", lang, n=q["empty"])
        d.text((x + CELL / 2, y + 74), status, font=font(16), fill=ink, anchor="mm")

    # ---- tiles and workers
    recent = set(view["recent"])
    pending = (
        view["pending_worker"]["space"]
        if view["pending_worker"] and not view.get("ended")
        else None
    )
    wsize = 40
    for b in view["board"]:
        x, y = _cell_xy(b["r"], b["c"])
        if b["colour"] is not None:
            sprite = tile_sprite(
                tile_fill(b["colour"], colours),
                tile_letter(b["colour"]),
                b["arrow"],
                tuple(b["half_pillars"]),
                b["type"] == "C",
                CELL - 6,
            )
            img.paste(sprite, (x + 3, y + 3), sprite)
        if b["worker"] is not None:
            ws, wc = b["worker"]
            sprite = worker_sprite(
                player_colour(ws), player_text_colour(ws), letters[ws], wc == 1, wsize
            )
            img.paste(sprite, (x + CELL - wsize - 5, y + 5), sprite)
        if b["space"] in recent or b["space"] == pending:
            recent_mark(d, x, y)

    # ---- quarter borders over the tiles (around the rondel block)
    mid_x, mid_y = GX0 + 4 * CELL, GY0 + 4 * CELL
    for a, b in ((GY0 - 2, mid_y - CELL), (mid_y + CELL, GY0 + GRID + 2)):
        d.line((mid_x, a, mid_x, b), fill=QUARTER_LINE, width=4)
        d.line((a - GY0 + GX0, mid_y, b - GY0 + GX0, mid_y), fill=QUARTER_LINE, width=4)

    # ---- rondel
    arrow = view["arrow"]
    field_cell = {1: (3, 3), 2: (3, 4), 3: (4, 4), 4: (4, 3)}  # by quarter lain over
    mini = 72
    gap = 13  # half the gap across the rondel's centre lines, where the pointer sits
    for fld in view["rondel"]:
        r, c = field_cell[fld["quarter"]]
        x, y = _cell_xy(r, c)
        ox = x + CELL - gap - mini if c == 3 else x + gap
        oy = y + CELL - gap - mini if r == 3 else y + gap
        if fld["colour"] is None:
            d.rounded_rectangle(
                (ox, oy, ox + mini, oy + mini), radius=8, outline="#A89878", width=2
            )
        else:
            turns = ROTATE[fld["arrow"]]
            sides = tuple(sorted(SIDES[(SIDES.index(s) + turns) % 4] for s in fld["half_pillars"]))
            sprite = tile_sprite(
                tile_fill(fld["colour"], colours),
                tile_letter(fld["colour"]),
                fld["arrow"],
                sides,
                fld["type"] == "C",
                mini,
            )
            img.paste(sprite, (ox, oy), sprite)
        # field number badge in the mini tile's bottom-right corner (corners stay free of
        # arrows and pillar marks)
        bx, by = ox + mini - 13, oy + mini - 13
        d.ellipse((bx - 12, by - 12, bx + 12, by + 12), fill="#FFFFFF", outline="#000000", width=2)
        d.text((bx, by), str(fld["field"]), font=font(17, True), fill="#000000", anchor="mm")
    # the big arrow: a yellow pointer on the rondel rim towards the active side
    cx, cy = GX0 + 4 * CELL, GY0 + 4 * CELL
    dx, dy = DELTA[arrow]
    px, py = -dy, dx
    tip = CELL + 8
    base = CELL - 40
    pts = [
        (cx + dx * tip, cy + dy * tip),
        (cx + dx * base + px * 12, cy + dy * base + py * 12),
        (cx + dx * base - px * 12, cy + dy * base - py * 12),
    ]
    d.polygon(pts, fill=HIGHLIGHT, outline="#000000", width=3)

    # ---- seat strips
    sides = view["sides"]
    ended = view.get("ended")  # resigned or aborted: nobody to move, the end in words
    turn = view["turn"] if view["phase"] != "over" and not ended else None
    for side in SIDES:
        seat_here = sides.index(side) if side in sides else None
        active = seat_here is not None and seat_here == turn
        _seat_strip(img, side, seat_here, names, letters, active, lang)

    _panel(img, view, names, letters, colours, lang)
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
