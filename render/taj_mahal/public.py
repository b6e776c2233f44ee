"""The public picture: the map beside the panel (the court with the prizes still there and
who leads each, the display, one row per player) under the header band."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    INK,
    MUTED,
    final_places,
    fit_lines,
    fit_text,
    font,
    player_colour,
    player_text_colour,
    smallest_size,
    wrap_text,
)
from render.header import Band, action_words, away_words, header_band, with_band
from render.seats import seat_letters
from render.taj_mahal.board import MAP_W, TOP, H, W, _base, _draw_map
from render.taj_mahal.pieces import (
    GOOD_LETTER,
    _card,
    _card_bonus,
    _colour,
    _name,
    _symbol,
    _tile_badge,
)
from render.words.catalogue import t, tn
from render.words.say import say
from rules.taj_mahal.components import SYMBOL_LETTERS, components


def _letters(names: list[str], n: int) -> list[str]:
    """Owner letters for palaces: initials when distinct, else seat numbers."""
    initials = [
        (names[i][:1] if i < len(names) and names[i] else str(i + 1)).upper() for i in range(n)
    ]
    if len(set(initials)) == n:
        return initials
    return [str(i + 1) for i in range(n)]


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
            d.rectangle((x0 - 10, ry - 2, W - 4, ry + row_h - 6), fill="#FFF3B0", outline=INK)
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
        line = tn("pic.taj.player_line", info["score"], lang, hand=info["hand_size"], state=state)
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
        places=final_places(view),
    )
    return header_band(W, band, letters, lang)


def _draw_public(view: dict[str, Any], names: list[str], lang: str) -> Image.Image:
    img = _base(lang).copy()
    d = ImageDraw.Draw(img)
    letters = seat_letters(names, view["players"])
    _draw_map(img, d, view, letters)
    _panel(img, d, view, names, letters, lang)
    # under the map, on as many lines as the language needs (the last one at the bottom)
    legend = wrap_text(t("pic.taj.legend", lang), font(15), MAP_W - 10)
    for i, line in enumerate(reversed(legend)):
        d.text((10, H - 10 - 19 * i), line, font=font(15), fill=MUTED, anchor="ld")
    return with_band(_band(view, names, letters, lang), img)
