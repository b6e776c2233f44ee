"""Every picture described in words: the alt text the bot sends with it (Discord's attachment
``description``, at most :data:`ALT_LIMIT` characters), read aloud by screen readers and
shown where a picture cannot load.

Why here, beside the renderers: the words come from the same view the picture is drawn from
(``game.view(state, seat)`` plus what the match service adds: the last move, who is away,
how the match ended), so they can say nothing the picture does not show — never a hidden
card in a public picture; a hand picture's words describe that hand, for its owner only.
They are said in the picture's language.

What a description holds, most important first (when the limit is near, the later
sentences are left out whole, never cut in the middle): the game and its stage (round,
visit, turn), who acts now (or how the match ended and its final ranking), the scores,
the last move (its public sentence, ``rules.base.Game.tell``), then the few facts of that
game a player looks for (Azul: factories, centre, each board; Taj Mahal: display, court,
each player's hand size and palaces; Maharani: the rondel, the quarters, markers and
workers; Pastiche: the gallery, each player's points and cards, open offers). A game
without facts of its own here still gets the first four.

The description travels with the PNG as :class:`Described` (the bytes, with ``alt``): drawn
in the render worker beside the picture, cached with it, attached where the file is built.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from render.common import final_places
from render.header import action_words, away_words
from render.words.catalogue import picture_language, t, tn
from render.words.posts import score_words
from render.words.say import say
from rules.words import Join, Msg, Seat

#: Discord's limit for an attachment's description (discord-api-docs, resources/message.mdx,
#: "Attachment Object": "description (alt text) for the file (max 1024 characters)").
ALT_LIMIT = 1024


class Described(bytes):
    """A picture's encoded bytes with its description in words (``alt``): still ``bytes``
    for everyone who only wants the picture (saving it, comparing it), the words for
    whoever sends it."""

    alt: str

    def __new__(cls, data: bytes, alt: str) -> Described:
        obj = super().__new__(cls, data)
        obj.alt = alt
        return obj

    def __reduce__(self) -> tuple[Any, ...]:
        return (Described, (bytes(self), self.alt))


def alt_of(data: bytes | None) -> str | None:
    """The description a picture carries (None: none, or no picture)."""
    alt = getattr(data, "alt", None)
    return fitted([alt]) if alt else None


def fitted(sentences: list[str], limit: int = ALT_LIMIT) -> str:
    """Sentences joined with spaces, leaving out whole ones (later ones first) that would
    take the text past ``limit``; a single sentence longer than that is cut at a word."""
    out: list[str] = []
    used = 0
    for sentence in (s.strip() for s in sentences):
        if not sentence:
            continue
        extra = len(sentence) + (1 if out else 0)
        if used + extra <= limit:
            out.append(sentence)
            used += extra
        elif not out:  # even the first does not fit: cut it at a word
            cut = sentence[: limit - 1].rsplit(" ", 1)[0]
            return cut + "…"
    return " ".join(out)


def sentence(text: str, lang: str) -> str:
    """``text`` ending as a sentence does (a last move said without a full stop)."""
    text = text.strip()
    return text if not text or text[-1] in ".!?…" else t("alt.sentence", lang, text=text)


# ----- the parts every game shares ---------------------------------------------------------
@dataclass(frozen=True, slots=True)
class GameWords:
    """What one game says of its view: its stage ("round 3"), its facts (sentences, most
    important first), the hand's sentences (a hand picture's), and who acts in its own
    words where its view has no status line (None: their names)."""

    stage: str
    facts: list[str] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)
    acting: str | None = None


Facts = Callable[[dict[str, Any], list[str], "int | None", str], GameWords]


def describe(
    game_id: str, view: dict[str, Any], names: list[str], seat: int | None, lang: str = "en"
) -> str:
    """The picture of ``view`` in words, in ``lang`` (see the module docstring); ``seat``:
    whose hand picture it is (None: the public picture)."""
    lang = picture_language(lang)
    names = _names(view, names, lang)
    game_name, unit = _game(game_id)
    said = _FACTS.get(game_id, _no_facts)(view, names, seat, lang)
    acting = _acting(view, names, lang, said.acting)
    if seat is not None:
        who = names[seat] if 0 <= seat < len(names) else str(seat + 1)
        head = t("alt.hand", lang, game=game_name, name=who, stage=said.stage)
        return fitted([head, *said.hand, acting, *said.facts])
    head = t("alt.board", lang, game=game_name, stage=said.stage)
    parts = [head, acting, _standing(view, names, unit, lang)]
    if view.get("last_move"):
        parts.append(sentence(t("pic.band.last", lang, move=view["last_move"]), lang))
    away = away_words(view, names, lang)
    if away:
        parts.append(sentence(away, lang))
    return fitted(parts + said.facts)


def _game(game_id: str) -> tuple[str, str]:
    """The game's name and score unit (a game unknown in this process: its id, points)."""
    from rules.registry import get_game

    try:
        game = get_game(game_id)
    except KeyError:
        return game_id, "points"
    return game.name, game.score_unit


def _names(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    count = max(len(names), len(_scores(view)), 1)
    return [
        names[i] if i < len(names) and names[i] else t("pic.common.player", lang, n=i + 1)
        for i in range(count)
    ]


def _acting(view: dict[str, Any], names: list[str], lang: str, own: str | None) -> str:
    """Who acts now: the game's status line where the view has one ("Ann to take tiles."),
    else the game's ``own`` words, else their names; how the match ended once it has."""
    if view.get("ended"):
        return sentence(str(view["ended"]["text"]), lang)
    status = view.get("status")
    if status:
        return sentence(action_words(say(status, lang, names)), lang)
    acting = [names[s] for s in view.get("to_act") or [] if 0 <= s < len(names)]
    if not acting:
        return t("alt.over", lang)
    if own:
        return sentence(own, lang)
    return t("alt.to_act", lang, names=say(Join("words.comma", acting), lang))


def _standing(view: dict[str, Any], names: list[str], unit: str, lang: str) -> str:
    """The scores; once the match has finished, its final ranking."""
    scores = _scores(view)
    places = final_places(view)
    if places and len(places) == len(scores):
        ranked = _seat_scores(names, scores, places, unit, lang)
        return t("alt.ranking", lang, places=_list(ranked, lang))
    listed = _seat_scores(names, scores, None, unit, lang)
    return t("alt.scores", lang, scores=_list(listed, lang)) if listed else ""


def _seat_scores(
    names: list[str],
    scores: list[int],
    places: dict[int, int] | list[int] | None,
    unit: str,
    lang: str,
) -> list[str]:
    """Each seat's score in words ("Ann 46 points"); with ``places`` (seat → final place)
    in the order of the ranking and each with its place ("1. Ann 46 points"), as the
    picture's and the chart's descriptions both say it."""
    seats = range(min(len(names), len(scores)))
    if places is None:
        return [
            t("alt.score", lang, name=names[s], score=score_words(scores[s], unit, lang))
            for s in seats
        ]
    return [
        t(
            "alt.place",
            lang,
            place=places[s],
            name=names[s],
            score=score_words(scores[s], unit, lang),
        )
        for s in sorted(seats, key=lambda s: (places[s], s))
    ]


def _scores(view: dict[str, Any]) -> list[int]:
    """Each seat's public score, wherever the game's view keeps it."""
    outcome = view.get("outcome") or view.get("final")
    if isinstance(outcome, dict) and outcome.get("scores"):
        return [int(x) for x in outcome["scores"]]
    for key in ("players", "player_info", "seats"):
        rows = view.get(key)
        if isinstance(rows, list) and rows and isinstance(rows[0], dict) and "score" in rows[0]:
            return [int(r["score"]) for r in rows]
    if isinstance(view.get("gold"), list):
        return [int(x) for x in view["gold"]]
    if isinstance(view.get("scores"), list):
        return [int(x) for x in view["scores"]]
    return []


def _list(items: list[str], lang: str) -> str:
    return t("words.comma", lang).join(items)


def _no_facts(view: dict[str, Any], names: list[str], seat: int | None, lang: str) -> GameWords:
    """A game without words of its own here: its status line is its stage."""
    stage = say(view["status"], lang, names) if view.get("status") else ""
    return GameWords(stage.rstrip("."))


# ----- Azul ---------------------------------------------------------------------------------
def _azul(view: dict[str, Any], names: list[str], seat: int | None, lang: str) -> GameWords:
    letters = "BYRKW"

    def tiles(found: list[str]) -> list[str]:
        counts = Counter(found)
        return [_azul_tiles(counts[c], c, lang) for c in letters if counts[c]]

    facts = []
    factories = [
        t("alt.azul.factory", lang, number=i + 1, tiles=_list(tiles(f), lang))
        for i, f in enumerate(view.get("factories") or [])
        if f
    ]
    semicolon = t("words.semicolon", lang)
    if factories:
        facts.append(t("alt.azul.factories", lang, list=semicolon.join(factories)))
    else:
        facts.append(t("alt.azul.factories_empty", lang))
    centre = tiles(view.get("centre") or [])
    if view.get("marker_in_centre"):
        centre.append(t("alt.azul.marker", lang))
    if centre:
        facts.append(t("alt.azul.centre", lang, tiles=_list(centre, lang)))
    else:
        facts.append(t("alt.azul.centre_empty", lang))
    for p in view.get("players") or []:
        lines = [
            t(
                "alt.azul.line",
                lang,
                number=i + 1,
                count=line["count"],
                size=line["size"],
                colour=_azul_colour(line["colour"], lang),
            )
            if line.get("count") and line.get("colour") in letters
            else t("alt.azul.line_empty", lang, number=i + 1)
            for i, line in enumerate(p.get("lines") or [])
        ]
        wall = sum(1 for row in p.get("wall") or [] for cell in row if cell)
        facts.append(
            t(
                "alt.azul.player",
                lang,
                name=names[p["seat"]] if p["seat"] < len(names) else str(p["seat"] + 1),
                wall=tn("alt.azul.tiles", wall, lang),
                lines=_list(lines, lang),
                floor=tn("alt.azul.tiles", len(p.get("floor") or []), lang),
            )
        )
    return GameWords(t("pic.azul.stage", lang, round=view.get("round", 1)), facts)


@lru_cache(maxsize=512)
def _azul_tiles(count: int, letter: str, lang: str) -> str:
    """ "3 red" (remembered: a description says a few dozen of them)."""
    from rules.azul.words import COLOUR_WORDS

    return say(Msg("azul.tiles", n=count, colour=COLOUR_WORDS["BYRKW".index(letter)]), lang)


@lru_cache(maxsize=64)
def _azul_colour(letter: str, lang: str) -> str:
    from rules.azul.words import COLOUR_WORDS

    return say(COLOUR_WORDS["BYRKW".index(letter)], lang)


# ----- Taj Mahal ----------------------------------------------------------------------------
def _taj_mahal(view: dict[str, Any], names: list[str], seat: int | None, lang: str) -> GameWords:
    from render.taj_mahal.public import stage_words
    from rules.taj_mahal.components import components

    comp = components()

    def cards(found: list[Any]) -> str:
        """Cards by name, alike ones once with their count ("red general+elephant ×3")."""
        counts = Counter(say(_card(comp, c), lang) for c in found)
        return _list(
            [t("alt.times", lang, item=k, n=n) if n > 1 else k for k, n in counts.items()], lang
        )

    stage = stage_words(view, lang)
    facts = []
    display = view.get("display") or []
    if display:
        facts.append(t("alt.taj.display", lang, cards=cards(display)))
    else:
        facts.append(t("alt.taj.display_empty", lang))
    court = view.get("court") or []
    if court:
        prizes = _list([say(Msg(f"taj_mahal.prize.{p}"), lang) for p in court], lang)
        facts.append(t("alt.taj.court", lang, prizes=prizes))
    for s, info in enumerate(view.get("player_info") or []):
        played = info.get("played") or []
        facts.append(
            t(
                "alt.taj.player",
                lang,
                name=names[s] if s < len(names) else str(s + 1),
                held=tn("alt.taj.cards", int(info.get("hand_size", 0)), lang),
                palaces=tn("alt.taj.palaces", int(info.get("palaces_left", 0)), lang),
                played=t("alt.taj.played", lang, cards=cards(played)) if played else "",
            )
        )
    hand = []
    if seat is not None and view.get("hand") is not None:
        hand.append(t("alt.taj.hand", lang, cards=cards(view["hand"]) or "—"))
    return GameWords(stage, facts, hand)


def _card(comp: Any, card: Any) -> Any:
    """A card of the view (its id, or a dict with its id) by its name in words."""
    cid: Any = card.get("id") if isinstance(card, dict) else card
    try:
        return comp.cards[int(cid)].name
    except (KeyError, IndexError, TypeError, ValueError):
        return str(card.get("name", cid)) if isinstance(card, dict) else str(card)


# ----- Maharani -----------------------------------------------------------------------------
def _maharani(view: dict[str, Any], names: list[str], seat: int | None, lang: str) -> GameWords:
    fields = [
        t(
            "alt.maharani.field",
            lang,
            field=f["field"],
            colour=say(Msg(f"maharani.colour.{f['colour']}"), lang),
            animal=say(Msg(f"maharani.animal.{f['animal']}"), lang),
        )
        if f.get("colour")
        else t("alt.maharani.field_empty", lang, field=f["field"])
        for f in view.get("rondel") or []
    ]
    facts = [t("alt.maharani.rondel", lang, fields=_list(fields, lang))] if fields else []
    quarters = [
        t(
            "alt.maharani.quarter_scored",
            lang,
            quarter=say(Msg(f"maharani.quarter_name.{q['animal']}"), lang),
        )
        if q.get("scored")
        else tn(
            "alt.maharani.quarter_open",
            int(q.get("empty", 0)),
            lang,
            quarter=say(Msg(f"maharani.quarter_name.{q['animal']}"), lang),
        )
        for q in view.get("quarters") or []
    ]
    if quarters:
        facts.append(t("alt.maharani.quarters", lang, list=_list(quarters, lang)))
    markers, supply = view.get("markers") or [], view.get("supply") or []
    for s in range(min(len(markers), len(supply), len(names))):
        facts.append(
            t(
                "alt.maharani.player",
                lang,
                name=names[s],
                markers=sum(1 for m in markers[s] if m),
                workers=tn("alt.maharani.workers", sum(supply[s]), lang),
            )
        )
    return GameWords(t("pic.maharani.turn", lang, n=view.get("turn_no", 1)), facts)


# ----- Pastiche -----------------------------------------------------------------------------
def _pastiche(view: dict[str, Any], names: list[str], seat: int | None, lang: str) -> GameWords:
    from rules.pastiche.trade import side_words
    from rules.pastiche.words import colours_word, painting_word

    gallery = [
        tn("alt.pastiche.painting", int(c["points"]), lang, title=say(painting_word(c["id"]), lang))
        for c in view.get("gallery") or []
    ]
    facts = [t("alt.pastiche.gallery", lang, paintings=_list(gallery, lang))] if gallery else []
    for s, info in enumerate(view.get("seats") or []):
        facts.append(
            t(
                "alt.pastiche.player",
                lang,
                name=names[s] if s < len(names) else str(s + 1),
                points=tn("alt.pastiche.points", int(info.get("commission_points", 0)), lang),
                palette=tn("alt.pastiche.cards", int(info.get("cards", 0)), lang),
                holding=tn("alt.pastiche.commissions", int(info.get("commissions", 0)), lang),
            )
        )
    offers = [
        say(
            Msg(
                "pastiche.status.offer",
                id=o["id"],
                maker=Seat(int(o["from"])),
                give=side_words(list(o.get("give") or [])),
                get=side_words(list(o.get("get") or [])),
                taker=Seat(int(o["to"])),
            ),
            lang,
            names,
        )
        for o in view.get("offers") or []
    ]
    if offers:
        facts.append(t("alt.pastiche.offers", lang, offers=t("words.semicolon", lang).join(offers)))
    hand = []
    me = view.get("me") if seat is not None else None
    if isinstance(me, dict):
        held = [c for c, n in (me.get("cards") or {}).items() for _ in range(int(n))]
        hand.append(t("alt.pastiche.hand_cards", lang, cards=say(side_words(held), lang)))
        commissions = [
            t(
                "alt.pastiche.lacks",
                lang,
                title=say(painting_word(c["id"]), lang),
                colours=say(colours_word(c["lack"]), lang),
            )
            if c.get("lack")
            else say(painting_word(c["id"]), lang)
            for c in me.get("hand") or []
        ]
        if commissions:
            hand.append(
                t("alt.pastiche.hand_commissions", lang, commissions=_list(commissions, lang))
            )
    acting = None
    current = view.get("current")
    if not view.get("over") and isinstance(current, int) and 0 <= current < len(names):
        verb = t(f"pic.pastiche.verb.{view.get('phase')}", lang)
        acting = t("pic.pastiche.band_turn", lang, name=names[current], verb=verb)
    stage = t("pic.pastiche.stage", lang, round=view.get("round", 1))
    return GameWords(stage, facts, hand, acting)


_FACTS: dict[str, Facts] = {
    "azul": _azul,
    "taj-mahal": _taj_mahal,
    "maharani": _maharani,
    "pastiche": _pastiche,
}


# ----- the score chart and the animated replay ---------------------------------------------
def chart_alt(
    match_id: int,
    game: str,
    names: list[str],
    scores: list[list[int]],
    ranks: list[int] | None,
    unit: str,
    lang: str = "en",
) -> str:
    """The score chart in words: its match, how many turns it spans and where each line
    ends (with the final places, as the chart writes them)."""
    lang = picture_language(lang)
    final = scores[-1] if scores else [0] * len(names)
    ranked = ranks if ranks and len(ranks) >= len(names) else None
    ends = _seat_scores(names, final, ranked, unit, lang)
    turns = max(0, len(scores) - 1)
    return fitted(
        [tn("alt.chart", turns, lang, match=match_id, game=game, scores=_list(ends, lang))]
    )


def replay_alt(title: Any, final: Any, lang: str = "en") -> str:
    """An animated replay in words, from its title and final cards (``render.replay``'s
    ``TitleCard`` and ``FinalCard``): which match, how many turns, who played, and how it
    ended — the final ranking of a finished match (a running match's replay shows no
    scores, and neither do its words)."""
    lang = picture_language(lang)
    players = _list([p.name for p in title.players], lang)
    parts = [
        tn("alt.replay", title.turns, lang, match=title.match, game=title.game, players=players)
    ]
    if final.standings:
        placed = [
            t("alt.place", lang, place=r.rank, name=r.name, score=r.score) for r in final.standings
        ]
        parts.append(t("alt.ranking", lang, places=_list(placed, lang)))
    else:
        parts.append(sentence(final.heading, lang))
    parts += [sentence(line, lang) for line in final.lines]
    return fitted(parts)
