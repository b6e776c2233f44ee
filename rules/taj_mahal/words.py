"""Taj Mahal's words: the English catalogue of its labels, events, refusals, status lines,
hints and the names of its game data.

Plain data (key -> English template with ``{name}`` parameters; a plural family is
``key.one`` / ``key.other`` chosen by ``n``). ``rules.taj_mahal`` builds
:class:`rules.words.Msg` values from these keys; ``render.words`` merges this dict into the
message catalogue, so ``locale/<lang>/LC_MESSAGES/tessera.po`` translates them like any key.

Names of game data are messages too: colours, symbols, goods, cards, compass sides of
cities, bonus tiles. The names the data files hold (province labels in ``map.json``, special
cards in ``special_cards.json``) stay the English source: their keys are read from those
files here, so a corrected file corrects the English catalogue with it. Notation tokens
(``R-VE``, ``palace-delhi-n``, ``withdraw``) stay language-neutral.
"""

from __future__ import annotations

from data import read_json
from rules.words import Join, Msg, register_words


def _data_names() -> dict[str, str]:
    """Province and special-card names from the data files (their English source)."""
    out = {
        f"taj_mahal.province.{p['key']}": p["label"]
        for p in read_json("taj_mahal", "map.json")["provinces"]
    }
    for card in read_json("taj_mahal", "special_cards.json")["cards"]:
        out[f"taj_mahal.special.{card['id']}"] = card["name"]
    return out


WORDS: dict[str, str] = {
    # ----- game data names ----------------------------------------------------------
    **_data_names(),
    "taj_mahal.colour.red": "red",
    "taj_mahal.colour.yellow": "yellow",
    "taj_mahal.colour.green": "green",
    "taj_mahal.colour.blue": "blue",
    "taj_mahal.coloured": "coloured",
    "taj_mahal.symbol.vizier": "vizier",
    "taj_mahal.symbol.general": "general",
    "taj_mahal.symbol.monk": "monk",
    "taj_mahal.symbol.princess": "princess",
    "taj_mahal.symbol.mogul": "mogul",
    "taj_mahal.symbol.elephant": "elephant",
    "taj_mahal.symbols.vizier": "viziers",
    "taj_mahal.symbols.general": "generals",
    "taj_mahal.symbols.monk": "monks",
    "taj_mahal.symbols.princess": "princesses",
    "taj_mahal.symbols.mogul": "moguls",
    "taj_mahal.symbols.elephant": "elephants",
    "taj_mahal.card.pair": "{colour} {first}+{second}",
    "taj_mahal.card.double": "{colour} 2 {symbols}",
    "taj_mahal.card.white": "white {symbol}",
    "taj_mahal.good.rice": "rice",
    "taj_mahal.good.tea": "tea",
    "taj_mahal.good.spice": "spice",
    "taj_mahal.good.jewel": "jewel",
    "taj_mahal.side.N": "north",
    "taj_mahal.side.E": "east",
    "taj_mahal.side.S": "south",
    "taj_mahal.side.W": "west",
    "taj_mahal.side.TAJ": "Taj Mahal",
    "taj_mahal.city": "{province} {side}",
    "taj_mahal.bonus.taj": "Taj Mahal +{points}",
    "taj_mahal.bonus.points.one": "+{n} point",
    "taj_mahal.bonus.points.other": "+{n} points",
    "taj_mahal.bonus.card.one": "+{n} card",
    "taj_mahal.bonus.card.other": "+{n} cards",
    "taj_mahal.bonus.good": "{good} (goods)",
    "taj_mahal.prize.vizier": "the vizier tile",
    "taj_mahal.prize.general": "the general tile",
    "taj_mahal.prize.monk": "the monk tile",
    "taj_mahal.prize.princess": "the princess tile",
    "taj_mahal.prize.mogul": "the crown",
    "taj_mahal.prize.elephant": "the province tile",
    "taj_mahal.nothing": "nothing",
    "taj_mahal.list": "{head} and {last}",
    "taj_mahal.plus": " + ",
    # ----- move labels and steps ----------------------------------------------------
    "taj_mahal.label.withdraw": "withdraw from this visit",
    "taj_mahal.step.withdraw": "withdraw",
    "taj_mahal.label.play": "play {card}",
    "taj_mahal.label.play_with": "play {card} with {extra}",
    "taj_mahal.step.alone": "no extra card",
    "taj_mahal.label.palace": "palace on {city}",
    "taj_mahal.label.palace_bonus": "palace on {city}, taking {tile}",
    "taj_mahal.label.crown": "crown on {city}",
    "taj_mahal.label.take": "take {card} from the display",
    # ----- events -------------------------------------------------------------------
    "taj_mahal.ev.setup": (
        "Provinces in visiting order: {provinces}. Bonus tiles lie on the fortresses."
    ),
    "taj_mahal.ev.numbered": "{number} {province}",
    "taj_mahal.ev.deal.one": "Each player was dealt {n} card.",
    "taj_mahal.ev.deal.other": "Each player was dealt {n} cards.",
    "taj_mahal.ev.visit": (
        "Visit {visit}: {province} (tile {visit}: {goods}). {who} starts. Display: {display}."
    ),
    "taj_mahal.ev.reshuffle.one": (
        "The discard pile ({n} card) was shuffled into a new draw pile."
    ),
    "taj_mahal.ev.reshuffle.other": (
        "The discard pile ({n} cards) was shuffled into a new draw pile."
    ),
    "taj_mahal.ev.play": "{who} played {card}.",
    "taj_mahal.ev.play_with": "{who} played {card} with {extra}.",
    "taj_mahal.ev.play_scored": "{who} played {card} with {extra} and scored {points}.",
    "taj_mahal.ev.withdraw": "{who} withdrew and won {prizes}.",
    "taj_mahal.ev.withdraw_idle": "{who} withdrew without playing and won {prizes}.",
    "taj_mahal.ev.palace": "{who} placed a palace on {city}.",
    "taj_mahal.ev.palace_points": (
        "{who} placed a palace on {city}, took the {tile} tile and scored {points}."
    ),
    "taj_mahal.ev.palace_good": (
        "{who} placed a palace on {city}, took a tile ({good}) and scored {points}."
    ),
    "taj_mahal.ev.palace_card.one": (
        "{who} placed a palace on {city}, took the {tile} tile and drew {n} card from the deck."
    ),
    "taj_mahal.ev.palace_card.other": (
        "{who} placed a palace on {city}, took the {tile} tile and drew {n} cards from the deck."
    ),
    "taj_mahal.ev.you_drew": "You drew {cards}.",
    "taj_mahal.ev.crown": "{who} placed the crowned palace on {city}.",
    "taj_mahal.ev.crown_beside": (
        "{who} placed the crowned palace on {city} beside {owner}'s palace."
    ),
    "taj_mahal.ev.no_crown": "{who} has no city left for the crown.",
    "taj_mahal.ev.take": "{who} drew 1 card from the display: {card}.",
    "taj_mahal.ev.you_took": "You took {card}.",
    "taj_mahal.ev.draw": "{who} drew 1 card from the deck.",
    "taj_mahal.ev.you_drew_deck": "You drew {card} from the deck.",
    "taj_mahal.ev.score": "{who} scored {points}: {parts}.",
    "taj_mahal.ev.score_goods": "goods {goods}",
    "taj_mahal.ev.score_good": "{good} {points}",
    "taj_mahal.ev.score_palaces": "palaces {points} ({provinces})",
    "taj_mahal.ev.keeps": "{who} returned two {kind} tiles and keeps the {card} card.",
    "taj_mahal.ev.claim": "{who} returned two {kind} tiles and claimed the {card} card.",
    "taj_mahal.ev.claim_from": (
        "{who} returned two {kind} tiles and claimed the {card} card from {holder}."
    ),
    "taj_mahal.ev.hand": (
        "{who} scored {points} for the hand: {specials} special, {white} white, {n} {colour}."
    ),
    # the final post goes on with the standings and the reason: the event only ends it
    "taj_mahal.ev.end": "Game over.",
    # ----- results ------------------------------------------------------------------
    # (families by the winning score, n)
    "taj_mahal.result.shared.one": "{who} share the win with {n} point (no tie-breaker).",
    "taj_mahal.result.shared.other": "{who} share the win with {n} points (no tie-breaker).",
    "taj_mahal.result.wins.one": "{who} wins with {n} point.",
    "taj_mahal.result.wins.other": "{who} wins with {n} points.",
    # ----- status lines -------------------------------------------------------------
    "taj_mahal.status.over": "Game over. {reason}",
    "taj_mahal.status.turn": (
        "Visit {visit}/{visits} ({province}): {who} to play a card or withdraw."
    ),
    "taj_mahal.status.palace.one": (
        "Visit {visit}/{visits} ({province}): {who} to place a palace ({n} left)."
    ),
    "taj_mahal.status.palace.other": (
        "Visit {visit}/{visits} ({province}): {who} to place a palace ({n} left)."
    ),
    "taj_mahal.status.crown": (
        "Visit {visit}/{visits} ({province}): {who} to place the crowned palace."
    ),
    "taj_mahal.status.pick.one": (
        "Visit {visit}/{visits} ({province}): {who} to take {n} card from the display."
    ),
    "taj_mahal.status.pick.other": (
        "Visit {visit}/{visits} ({province}): {who} to take {n} cards from the display."
    ),
    # ----- refusals -----------------------------------------------------------------
    "taj_mahal.no.first_player": "first_player must be a seat from 0 to {last}.",
    "taj_mahal.no.city": "There is no city “{code}”. Cities here: {cities}",
    "taj_mahal.no.city_bare": "There is no city “{code}”.",
    "taj_mahal.no.other_province": "{city} is not in the province being visited.",
    "taj_mahal.no.has_palace": "{city} already has a palace.",
    "taj_mahal.no.palace_first": "Place your palace first: one of {moves}.",
    "taj_mahal.no.own_palace": "{city} already holds your own palace.",
    "taj_mahal.no.crown_first": "Place the crowned palace first: one of {moves}.",
    "taj_mahal.no.no_card": "“{text}” names no card.",
    "taj_mahal.no.not_displayed": "The display has no {code}.",
    "taj_mahal.no.take_first": "Take a card from the display first: one of {moves}.",
    "taj_mahal.no.withdraw": "You can withdraw now with `withdraw`.",
    "taj_mahal.no.too_many": (
        "Play at most two cards: one coloured card and at most one white or special card."
    ),
    "taj_mahal.no.not_a_card": "“{text}” is not a card or move. {help}",
    "taj_mahal.no.not_in_hand": "You have no {card} in your hand.",
    "taj_mahal.no.coloured_first": "Write the coloured card first, e.g. R-VE+W-C.",
    "taj_mahal.no.needs_colour": (
        "A white or special card can only be played together with a coloured card."
    ),
    "taj_mahal.no.one_colour": (
        "Only one coloured card per turn (plus at most one white or special card)."
    ),
    "taj_mahal.no.last_player": "You are the last player in this visit: you can only withdraw.",
    "taj_mahal.no.colour_lock": (
        "Your colour this visit is {colour}: play a card of that colour, or add the "
        "colour-change card (+S-X) to play another colour."
    ),
    # ----- hints (/hint) -----------------------------------------------------------
    "taj_mahal.hint.tail": "wins about {percent}% of simulated games",
    "taj_mahal.hint.prize.vizier": "the vizier",
    "taj_mahal.hint.prize.general": "the general",
    "taj_mahal.hint.prize.monk": "the monk",
    "taj_mahal.hint.prize.princess": "the princess",
    "taj_mahal.hint.prize.mogul": "the crown",
    "taj_mahal.hint.prize.elephant": "the elephant ({goods}: +{points})",
    "taj_mahal.hint.withdraw": "withdraw now: {what}, then take 2 display cards; {tail}",
    "taj_mahal.hint.withdraw_idle": (
        "withdraw now: {what}, then take 2 display cards (+1 from the deck); {tail}"
    ),
    "taj_mahal.hint.wins": "wins {prizes}",
    "taj_mahal.hint.wins_nothing": "wins nothing",
    "taj_mahal.hint.city": "{city}: {reason}; {tail}",
    "taj_mahal.hint.takes_tile": "takes the {tile} tile",
    "taj_mahal.hint.joins.one": "joins {n} of your palaces by road",
    "taj_mahal.hint.joins.other": "joins {n} of your palaces by road",
    "taj_mahal.hint.free_city": "a free city of this province",
    "taj_mahal.hint.take": "take {card} for your hand; {tail}",
    "taj_mahal.hint.cards.one": "{n} card",
    "taj_mahal.hint.cards.other": "{n} cards",
    "taj_mahal.hint.leads": "leads for {prizes} with {cards}; {tail}",
    "taj_mahal.hint.builds": "builds toward the court with {cards}, no lead yet; {tail}",
    # ----- help ---------------------------------------------------------------------
    "taj_mahal.summary": (
        "12 visits, one per province (tile order 1..12, Agra last).\n"
        "On your turn play one coloured card (+ at most one white or special card) or withdraw.\n"
        "Your first coloured card fixes your colour for the visit (colour-change card: any).\n"
        "Withdrawing wins each court prize where you strictly lead the players still in:\n"
        "influence tiles give palaces, the mogul the crown, elephants the province's goods.\n"
        "Then take 2 display cards (+1 from the deck if you played nothing). Most points wins."
    ),
    "taj_mahal.notation_help": (
        "Play `R-VE` (red vizier+elephant) or `R-VE+W-C` (with white mogul). "
        "V vizier, G general, M monk, P princess, C mogul, E elephant; colours R Y G B, "
        "W white, S special (S-E, S-C, S-2, S-X colour change). "
        "Symbols in any order (`R-EV` = `R-VE`). "
        "Also `withdraw` (or `pass`), `palace-delhi-n`, `crown-agra-taj`, `take-R-VE`."
    ),
}

register_words(WORDS)


def listed(items: list[str]) -> str:
    """Items as "a, b and c" (one item as itself, none as the empty text)."""

    if len(items) <= 1:
        return items[0] if items else ""
    return Msg("taj_mahal.list", head=Join("words.comma", items[:-1]), last=items[-1])
