"""Pastiche's words: the English catalogue of its labels, events, refusals, status lines,
hints and the names of its game data.

Plain data (key -> English template with ``{name}`` parameters; a plural family is
``key.one`` / ``key.other`` chosen by ``n``). ``rules.pastiche`` builds
:class:`rules.words.Msg` values from these keys; ``render.words`` merges this dict into the
message catalogue, so the translations (``locale/<lang>/LC_MESSAGES/tessera.po``) cover them
like every other key.

Game data names are keys too, so players read them in their language: the 17 paint colours
(``pastiche.colour.<name>``; the notation keeps the English colour names, as typed in moves),
the 34 paintings (``pastiche.painting.<id>``: the title a painting is known by in each
language) and the 17 painters (``pastiche.painter.<slug>``). Commission ids (``P05``), cell
names (``m12``), rotations and notation examples in backticks stay as they are.
"""

from __future__ import annotations

import re
from functools import cache

from rules.words import Join, Msg, register_words

WORDS: dict[str, str] = {
    # ----- game data: paint colours -------------------------------------------------
    "pastiche.colour.red": "red",
    "pastiche.colour.yellow": "yellow",
    "pastiche.colour.blue": "blue",
    "pastiche.colour.orange": "orange",
    "pastiche.colour.green": "green",
    "pastiche.colour.purple": "purple",
    "pastiche.colour.brown": "brown",
    "pastiche.colour.amber": "amber",
    "pastiche.colour.vermilion": "vermilion",
    "pastiche.colour.olive": "olive",
    "pastiche.colour.teal": "teal",
    "pastiche.colour.magenta": "magenta",
    "pastiche.colour.violet": "violet",
    "pastiche.colour.black": "black",
    "pastiche.colour.white": "white",
    "pastiche.colour.gray": "gray",
    "pastiche.colour.cream": "cream",
    # ----- game data: the paintings of the commission cards -------------------------
    "pastiche.painting.P01": "Mona Lisa",
    "pastiche.painting.P02": "Lady with an Ermine",
    "pastiche.painting.P03": "The Starry Night",
    "pastiche.painting.P04": "Sunflowers",
    "pastiche.painting.P05": "The Fifer",
    "pastiche.painting.P06": "Luncheon on the Grass",
    "pastiche.painting.P07": "The Birth of Venus",
    "pastiche.painting.P08": "Primavera",
    "pastiche.painting.P09": "Impression, Sunrise",
    "pastiche.painting.P10": "Water Lilies",
    "pastiche.painting.P11": "Luncheon of the Boating Party",
    "pastiche.painting.P12": "Dance at Le Moulin de la Galette",
    "pastiche.painting.P13": "The Third of May 1808",
    "pastiche.painting.P14": "The Parasol",
    "pastiche.painting.P15": "Girl with a Pearl Earring",
    "pastiche.painting.P16": "The Milkmaid",
    "pastiche.painting.P17": "The Night Watch",
    "pastiche.painting.P18": "Self-Portrait with Two Circles",
    "pastiche.painting.P19": "The School of Athens",
    "pastiche.painting.P20": "The Sistine Madonna",
    "pastiche.painting.P21": "Venus of Urbino",
    "pastiche.painting.P22": "Bacchus and Ariadne",
    "pastiche.painting.P23": "Las Meninas",
    "pastiche.painting.P24": "The Rokeby Venus",
    "pastiche.painting.P25": "The Hunters in the Snow",
    "pastiche.painting.P26": "The Harvesters",
    "pastiche.painting.P27": "The Dance Class",
    "pastiche.painting.P28": "L'Absinthe",
    "pastiche.painting.P29": "A Sunday on La Grande Jatte",
    "pastiche.painting.P30": "Bathers at Asnières",
    "pastiche.painting.P31": "The Card Players",
    "pastiche.painting.P32": "Mont Sainte-Victoire",
    "pastiche.painting.P33": "The Fighting Temeraire",
    "pastiche.painting.P34": "Rain, Steam and Speed",
    # ----- game data: painters ------------------------------------------------------
    "pastiche.painter.leonardo_da_vinci": "Leonardo da Vinci",
    "pastiche.painter.vincent_van_gogh": "Vincent van Gogh",
    "pastiche.painter.edouard_manet": "Édouard Manet",
    "pastiche.painter.sandro_botticelli": "Sandro Botticelli",
    "pastiche.painter.claude_monet": "Claude Monet",
    "pastiche.painter.pierre_auguste_renoir": "Pierre-Auguste Renoir",
    "pastiche.painter.francisco_goya": "Francisco Goya",
    "pastiche.painter.johannes_vermeer": "Johannes Vermeer",
    "pastiche.painter.rembrandt_van_rijn": "Rembrandt van Rijn",
    "pastiche.painter.raphael": "Raphael",
    "pastiche.painter.titian": "Titian",
    "pastiche.painter.diego_velazquez": "Diego Velázquez",
    "pastiche.painter.pieter_bruegel_the_elder": "Pieter Bruegel the Elder",
    "pastiche.painter.edgar_degas": "Edgar Degas",
    "pastiche.painter.georges_seurat": "Georges Seurat",
    "pastiche.painter.paul_cezanne": "Paul Cézanne",
    "pastiche.painter.j_m_w_turner": "J. M. W. Turner",
    # ----- small words and separators -----------------------------------------------
    "pastiche.sep.plus": " + ",
    "pastiche.sep.or": " or ",
    "pastiche.sep.dot": " · ",
    "pastiche.and_list": "{head} and {last}",
    "pastiche.nothing": "nothing",
    "pastiche.no_cards": "no cards",
    "pastiche.cards.one": "{n} {colour}",
    "pastiche.cards.other": "{n} {colour}",
    "pastiche.from_centre": "{colour} from the centre",
    "pastiche.where.hand": "hand",
    "pastiche.where.gallery": "gallery",
    # ----- move labels and steps ----------------------------------------------------
    "pastiche.step.row": "Row {row}",
    "pastiche.step.row_part": "Row {row} part {part}",
    "pastiche.step.rows": "Rows {first}–{last}",
    "pastiche.step.hex": "Hex {slot} ({corners}, centre {centre})",
    "pastiche.step.rotation": "rotation {rotation} ({turn})",
    "pastiche.step.as_drawn": "as drawn",
    "pastiche.step.turned.one": "turned {n} step anticlockwise",
    "pastiche.step.turned.other": "turned {n} steps anticlockwise",
    "pastiche.step.at": "at {cell}",
    "pastiche.step.take": "take {cards}",
    "pastiche.yield_short": "{cards} (bank is out of {colours})",
    "pastiche.label.place": "Hex {slot} at {cell}, rotation {rotation} → {cards}",
    "pastiche.label.place_centre": (
        "Hex {slot} at {cell}, rotation {rotation} → {colour} (centre) instead"
    ),
    "pastiche.step.bank": "Trade with the bank",
    "pastiche.step.bank_three": "3 identical cards → black, white, secondary or tertiary",
    "pastiche.step.bank_cream": "yellow + brown → cream",
    "pastiche.step.bank_gray": "black + white → gray",
    "pastiche.step.bank_primary": "a primary + any card → another primary",
    "pastiche.step.give_three": "give 3 {colour}",
    "pastiche.step.give": "give {colour}",
    "pastiche.step.and": "and {colour}",
    "pastiche.step.get": "get {colour}",
    "pastiche.label.bank": "Bank trade: {give} → {colour}",
    "pastiche.label.complete": "Complete {title} (worth {points}, {where}): pay {palette}",
    "pastiche.label.complete_short": "Complete {title} (worth {points}, {where})",
    "pastiche.step.complete": "Complete a commission",
    "pastiche.step.commission": "{title} ({points}, {where})",
    "pastiche.label.swap": "Exchange {hand} (hand) for {gallery} (gallery)",
    "pastiche.label.swap_short": "Exchange {hand} for {gallery}",
    "pastiche.step.swap": "Exchange a commission with the gallery",
    "pastiche.step.give_commission": "give {title}",
    "pastiche.step.take_commission": "take {title}",
    "pastiche.label.end": "End your turn",
    "pastiche.label.end_choose.one": "End your turn (choose {n} card to return first)",
    "pastiche.label.end_choose.other": "End your turn (choose {n} cards to return first)",
    "pastiche.step.end_choose": "End your turn, choosing what to return",
    "pastiche.label.end_auto.one": "End your turn, returning {n} least useful card",
    "pastiche.label.end_auto.other": "End your turn, returning {n} least useful cards",
    "pastiche.step.end_auto": "End your turn, returning the least useful cards",
    "pastiche.label.return": "Return one {colour} to the bank",
    "pastiche.step.return": "return {colour}",
    "pastiche.label.return_auto.one": "Return the {n} least useful card and end the turn",
    "pastiche.label.return_auto.other": "Return the {n} least useful cards and end the turn",
    "pastiche.step.return_auto": "return the least useful cards",
    # trade offers
    "pastiche.step.offer": "Offer a trade",
    "pastiche.step.to": "to {who}",
    "pastiche.step.giving": "giving {cards}",
    "pastiche.step.for": "for {cards}",
    "pastiche.label.offer": "Offer {who} your {give} for their {get}",
    "pastiche.label.offer_gift": "Offer {who} your {give} as a gift",
    "pastiche.label.offer_request": "Ask {who} for their {get} as a gift",
    "pastiche.n_cards.one": "{n} card",
    "pastiche.n_cards.other": "{n} cards",
    "pastiche.step.deal": "Offer {id} from {who}: {give} for {get}",
    "pastiche.label.counter": "Counter offer {id}: your {give} for {who}'s {get}",
    "pastiche.label.counter_gift": "Counter offer {id}: give {who} your {give} as a gift",
    "pastiche.label.counter_request": "Counter offer {id}: ask {who} for their {get} as a gift",
    "pastiche.step.counter": "Counter-offer",
    "pastiche.label.accept": "Accept offer {id}: get {give}, give {get}",
    "pastiche.step.accept": "Accept",
    "pastiche.label.decline": "Decline offer {id} from {who}",
    "pastiche.step.decline": "Decline",
    "pastiche.label.withdraw": "Withdraw your offer {id} to {who}",
    "pastiche.step.withdraw": "Withdraw an offer",
    "pastiche.step.offer_id": "offer {id}",
    # composing an offer pick by pick
    "pastiche.compose.offer": "Compose an offer (any cards for any cards)",
    "pastiche.compose.whom": "Offer whom?",
    "pastiche.compose.give": "Cards you give (none: ask for a gift)",
    "pastiche.compose.get": "Cards you want (none: a gift)",
    # ----- events -------------------------------------------------------------------
    "pastiche.ev.deal": (
        "{who} starts. Gallery: {gallery}. Everyone holds {hexes} and {commissions}."
    ),
    "pastiche.n_hexes.one": "{n} hex",
    "pastiche.n_hexes.other": "{n} hexes",
    "pastiche.n_commissions.one": "{n} commission card",
    "pastiche.n_commissions.other": "{n} commission cards",
    "pastiche.ev.must_return.one": "{who} must return {n} card to the bank.",
    "pastiche.ev.must_return.other": "{who} must return {n} cards to the bank.",
    "pastiche.ev.place": (
        "{who} painted hex {slot} at {cell} (rotation {rotation}) and took {cards}."
    ),
    "pastiche.ev.place_short": "{cards} (the bank had no {colours} left)",
    "pastiche.ev.bank": "{who} traded {give} to the bank for {colour}.",
    "pastiche.ev.swap": "{who} exchanged {gave} from hand for {took} from the gallery.",
    "pastiche.ev.complete.one": "{who} completed {title} ({painter}, {n} point), paying {paid}.",
    "pastiche.ev.complete.other": "{who} completed {title} ({painter}, {n} points), paying {paid}.",
    "pastiche.ev.gallery_refill": "{title} joins the gallery.",
    "pastiche.ev.gallery_shrinks": "The commission deck is empty; the gallery shrinks.",
    "pastiche.ev.draw": "{who} drew a commission card.",
    "pastiche.ev.drew": "You drew {title}.",
    "pastiche.ev.trigger.one": "{who} reached {n} commission point (at least {threshold}): {tail}",
    "pastiche.ev.trigger.other": (
        "{who} reached {n} commission points (at least {threshold}): {tail}"
    ),
    "pastiche.ev.trigger_last": "the game ends after this turn.",
    "pastiche.ev.trigger_until": "play continues until {who} has played, so all have equal turns.",
    "pastiche.ev.return": "{who} returned {cards} to the bank (hand limit 8).",
    "pastiche.ev.hex": "{who} drew a new hex.",
    "pastiche.ev.hexes_out": "Every hex is painted: the round is finished, then the game ends.",
    "pastiche.ev.over": "The game is over.",
    "pastiche.ev.no_hex": "{who} has no hex left to place.",
    "pastiche.ev.withdraw": "{who} withdrew offer {id}.",
    "pastiche.ev.decline": "{who} declined offer {id}.",
    "pastiche.ev.accept": "{who} accepted offer {id}: {maker} gave {give} for {get}.",
    "pastiche.ev.counter": "{who} answered offer {id} with a counter-offer.",
    "pastiche.ev.offer": "Offer {id}: {who} offers {partner} {give} for {get}.",
    "pastiche.ev.lapse": "Offer {id} lapsed: {who} no longer holds {give}.",
    "pastiche.ev.expired.one": "Trading is over: offer {ids} expired.",
    "pastiche.ev.expired.other": "Trading is over: offers {ids} expired.",
    # ----- moves told to the table (rules/pastiche/told.py): past tense, third person
    "pastiche.told.offer": "{who} offered {partner} {give} for {get} (offer {id}).",
    "pastiche.told.gift": "{who} offered {partner} {give} as a gift (offer {id}).",
    "pastiche.told.request": "{who} asked {partner} for {get} as a gift (offer {id}).",
    "pastiche.told.counter_offer": (
        "{who} answered offer {answered} with a counter-offer: {give} for {partner}'s {get} "
        "(offer {id})."
    ),
    "pastiche.told.counter_gift": (
        "{who} answered offer {answered} with a counter-offer: {give} for {partner} as a gift "
        "(offer {id})."
    ),
    "pastiche.told.counter_request": (
        "{who} answered offer {answered} with a counter-offer: asking {partner} for {get} as "
        "a gift (offer {id})."
    ),
    "pastiche.told.end": "{who} ended their turn.",
    "pastiche.told.end_hex": "{who} ended their turn and drew a new hex.",
    "pastiche.told.end_return": "{who} ended their turn, returning {cards} to the bank.",
    "pastiche.told.end_return_hex": (
        "{who} ended their turn, returned {cards} to the bank and drew a new hex."
    ),
    "pastiche.told.end_must_return.one": (
        "{who} ended their turn but must first return {n} card to the bank."
    ),
    "pastiche.told.end_must_return.other": (
        "{who} ended their turn but must first return {n} cards to the bank."
    ),
    # ----- results ------------------------------------------------------------------
    "pastiche.result.goal": "Someone reached the commission goal; everyone had equal turns.",
    "pastiche.result.hexes": "Every hex was painted; the round was finished.",
    "pastiche.result.ties": "{why} {ties}",
    "pastiche.tie.more": "{first} {then}",
    "pastiche.tie.completed": (
        "{winner} and {loser} tied on {total}; {winner} is ahead on completed commissions "
        "({high} to {low})."
    ),
    "pastiche.tie.usable": (
        "{winner} and {loser} tied on {total}; {winner} is ahead on usable palette points "
        "({high} to {low})."
    ),
    "pastiche.tie.bonus": (
        "{winner} and {loser} tied on {total}; {winner} is ahead on painter bonus points "
        "({high} to {low})."
    ),
    "pastiche.tie.shared": "{first} and {second} tied on everything and share their place.",
    # ----- status lines -------------------------------------------------------------
    "pastiche.status.over": "Game over.",
    "pastiche.status.place": "Round {round} · {who} to place a hex{offers}{end}.",
    "pastiche.status.trade": (
        "Round {round} · {who} to trade, exchange a commission, complete commissions or end "
        "the turn{offers}{end}."
    ),
    "pastiche.status.complete": (
        "Round {round} · {who} to complete commissions or end the turn{offers}{end}."
    ),
    "pastiche.status.discard": "Round {round} · {who} to return cards down to 8{offers}{end}.",
    "pastiche.status.offers": " · {offers}",
    "pastiche.status.offer": "offer {id}: {maker} gives {give} for {get}, {taker} to answer",
    "pastiche.status.final": " · final round: ends after {who}",
    "pastiche.status.hexes_out": " · hexes used up: last round",
    # ----- refusals -----------------------------------------------------------------
    "pastiche.no.help": "Type /help or see the move list for the notation.",
    "pastiche.no.not_a_move": "“{text}” is not a Pastiche move. {help}",
    "pastiche.no.not_your_turn": (
        "It is not your turn ({who} is playing); while they trade you may offer them cards, "
        "e.g. `offer p{number} green for red`.{answer}"
    ),
    "pastiche.no.waiting": (
        " Offer {id} waits for your answer: `accept {id}`, `decline {id}` or "
        "`counter {id} … for …`."
    ),
    "pastiche.no.not_a_colour": "“{colour}” is not a palette colour.",
    "pastiche.no.none_to_return": "You hold no {colour} card to return.",
    "pastiche.no.return_first.one": (
        "First return {n} card to the bank: `return <colour>` or `return auto`."
    ),
    "pastiche.no.return_first.other": (
        "First return {n} cards to the bank: `return <colour>` or `return auto`."
    ),
    "pastiche.no.place_first": "First place one of your hexes, e.g. {example}. {hexes}",
    "pastiche.no.swap_order": "The gallery exchange comes before completing and only once a turn.",
    "pastiche.no.swap_form": (
        "Swap a hand commission for a gallery card: `swap <hand id> for <gallery id>`."
    ),
    "pastiche.no.return_when": "Cards go back only when you end your turn holding more than 8.",
    "pastiche.no.your_hexes": "Your hexes: {slots}.",
    "pastiche.no.none": "none",
    "pastiche.no.placed": "You have already placed your hex this turn.",
    "pastiche.no.no_hex": "You have no hex {slot}. {hexes}",
    "pastiche.no.not_a_cell": (
        "“{cell}” is not a cell name (a row letter and a column number), e.g. {example}."
    ),
    "pastiche.no.painted": "{cell} is already painted; an empty spot: {example}.",
    "pastiche.no.not_touching": (
        "{cell} does not touch the painting: a hex must share a side with it."
    ),
    "pastiche.no.rotation": "Rotation {rotation} does not exist: use 0 to 5.",
    "pastiche.no.bank_out": "The bank has no {colour} left.",
    "pastiche.no.take": (
        "End the move with `mix` (the mixed cards) or the centre colour ({colours}), not “{take}”."
    ),
    "pastiche.no.placement": "That placement is not available.",
    "pastiche.no.bank_over": (
        "Trading is over for this turn: trades come before the exchange and completions."
    ),
    "pastiche.no.bank_form": "Bank trades look like `bank green+green+green for black`.",
    "pastiche.no.hold_only.one": "You hold only {n} {colour}.",
    "pastiche.no.hold_only.other": "You hold only {n} {colour}.",
    "pastiche.no.bank_loses": "Trading {give} for {colour} would only lose cards.",
    "pastiche.no.bank_three": (
        "Three identical cards buy black, white, a secondary or a tertiary, not {colour}."
    ),
    "pastiche.no.bank_cream": "Yellow + brown buys cream only.",
    "pastiche.no.bank_gray": "Black + white buys gray only.",
    "pastiche.no.bank_primary": "A primary + any card buys another primary only.",
    "pastiche.no.bank_rates": (
        "The bank rates are: 3 identical cards → black/white/secondary/tertiary; "
        "yellow + brown → cream; black + white → gray; primary + any card → a primary."
    ),
    "pastiche.no.complete_none": (
        "You cannot complete any commission now: your palette cards cover none of the "
        "commissions in your hand or in the gallery."
    ),
    "pastiche.no.complete_which": (
        "Complete which commission? You can complete: {listed}. Type e.g. {example}."
    ),
    "pastiche.no.complete_item": "{id} ({label})",
    "pastiche.no.no_commission": "There is no commission “{id}”.",
    "pastiche.no.not_held": "{title} is neither in your hand nor in the gallery.",
    "pastiche.no.lacking": "To complete {title} you still lack {colours}.",
    "pastiche.no.cannot_complete": "{title} cannot be completed now.",
    # trade refusals
    "pastiche.no.not_a_card": (
        "“{item}” is not a palette card (write e.g. `green+green+red`, or `-` for none)."
    ),
    "pastiche.no.side_max.one": "An offer names at most {n} card a side.",
    "pastiche.no.side_max.other": "An offer names at most {n} cards a side.",
    "pastiche.no.offer_when": (
        "Offers are made while the player on turn trades (after placing their hex, before the "
        "exchange and completions)."
    ),
    "pastiche.no.no_player": "There is no other player {number} to trade with.",
    "pastiche.no.offer_cur": (
        "The player whose turn it is takes part in every trade: offer to {who} "
        "(`offer p{number} …`)."
    ),
    "pastiche.no.offers_used.one": "You have made the {n} offer allowed each turn.",
    "pastiche.no.offers_used.other": "You have made the {n} offers allowed each turn.",
    "pastiche.no.offer_empty": "An offer gives or asks for at least one card.",
    "pastiche.no.both_sides": "{colours} is on both sides of the offer: leave it out.",
    "pastiche.no.offer_twice": "You already made that offer (offer {id}).",
    "pastiche.no.accept_short": (
        "To accept offer {id} you would give {give}, but you no longer hold enough {colours}; "
        "nothing was traded. You may decline it or make a counter-offer."
    ),
    "pastiche.no.maker_short": "{who} no longer holds {give}; nothing was traded.",
    "pastiche.no.trade_when": (
        "Trading happens while the player on turn trades (after placing their hex, before the "
        "exchange and completions); open offers end with that step."
    ),
    "pastiche.no.not_yours": "Offer {id} is not yours: only {who} may withdraw it.",
    "pastiche.no.not_for_you": "Offer {id} is not for you: it waits for {who}'s answer.",
    "pastiche.no.none_open": "No offer of yours is open.",
    "pastiche.no.none_waiting": "No offer is waiting for your answer.",
    "pastiche.no.which_offer": "Several offers: say which one, e.g. {ids}.",
    "pastiche.no.not_yours_bare": "Offer {id} is not yours",
    "pastiche.no.not_for_you_bare": "Offer {id} is not for you",
    "pastiche.no.answer_now": "That offer cannot be answered now.",
    "pastiche.no.offer_now": "That offer is not possible now.",
    "pastiche.no.counter_waiting": "Offer {id} is not waiting for your answer.",
    "pastiche.no.counter_now": "That counter-offer is not possible now.",
    "pastiche.no.offer_form": (
        "Offers look like `offer p2 green+orange for red` (`-` for nothing); a counter-offer "
        "like `counter 3 red for green+green`."
    ),
    "pastiche.no.compose": "Choose one player, then the cards you give and the cards you want.",
    # ----- hints (/hint) ------------------------------------------------------------
    "pastiche.hint.tail": "wins about {percent}% of simulated games",
    "pastiche.hint.complete": "completes {title}{extra}, +{points}; {tail}",
    "pastiche.hint.pair": " and the {painter} pair bonus (+{bonus})",
    "pastiche.hint.paint": "paints for {cards} (worth {worth}){why}; {tail}",
    "pastiche.hint.paint_why": ", {colours} for {titles}",
    "pastiche.hint.bank": "trades with the bank for {colour}{why}; {tail}",
    "pastiche.hint.lacks": ", which {titles} lacks",
    "pastiche.hint.your_commissions": "your commissions",
    "pastiche.hint.swap": (
        "exchanges {gave} (lacks {gave_lacks}) for {took} (lacks {took_lacks}); {tail}"
    ),
    "pastiche.hint.offer": "offers a trade for {cards}{why}; {tail}",
    "pastiche.hint.counter": "counters with an offer for {cards}{why}; {tail}",
    "pastiche.hint.accept": "accepts the trade: worth at least what it costs; {tail}",
    "pastiche.hint.decline": "declines the trade: it costs more than it brings; {tail}",
    "pastiche.hint.return": "returns the least useful cards; {tail}",
    "pastiche.hint.withdraw": "withdraws the open offer; {tail}",
    "pastiche.hint.end": "ends the turn; {tail}",
    # ----- help ---------------------------------------------------------------------
    "pastiche.summary": (
        "Paint a shared picture from hexes of primary dabs; every corner where your new hex "
        "meets the painting mixes a palette card (or take the centre primary instead).\n"
        "Trade with the bank and other players, swap one commission with the gallery, then "
        "pay palette cards to complete famous paintings for points.\n"
        "At most 8 palette cards at the end of your turn. The game ends after the round in "
        "which someone reaches 45/40/35 commission points (2/3/4 players).\n"
        "Bonus for both paintings of a painter; usable cards in hand score at the end."
    ),
    "pastiche.notation_help": (
        "Moves: `h1 CELL r3 mix` (hex 1 on an open spot the picture labels, e.g. m12 at "
        "first; rotation 3; take the mixed cards) or `h1 CELL r3 red` (take the centre "
        "primary); `bank green+green+green for black`; `offer p2 green+green for red` "
        "(`-`: nothing; answer `accept 1`, `decline 1`, `counter 1 …`); "
        "`swap P05 for P12`; `complete P05`; `end`; over 8 cards: `return green`, `return auto`."
    ),
}

register_words(WORDS)


def colour_word(name: str) -> Msg:
    """A paint colour (``green``) as a message."""
    return _colour(name)


@cache
def _colour(name: str) -> Msg:
    return Msg(f"pastiche.colour.{name}")


def colours_word(names: list[str] | tuple[str, ...], sep: str = "words.comma") -> Join:
    """Colours listed (``green, orange``; ``sep="pastiche.sep.plus"`` for ``green + red``)."""
    return Join(sep, [_colour(c) for c in names])


def painting_word(cid: str) -> Msg:
    """A commission's painting (``P05``) by its title in the reader's language."""
    return _painting(cid)


@cache
def _painting(cid: str) -> Msg:
    return Msg(f"pastiche.painting.{cid}")


def painter_key(painter: str) -> str:
    """``Pierre-Auguste Renoir`` -> ``pastiche.painter.pierre_auguste_renoir``."""
    return "pastiche.painter." + re.sub(r"[^a-z0-9]+", "_", painter.lower()).strip("_")


def painter_word(painter: str) -> Msg:
    """A painter (as the data spells the name) as a message."""
    return Msg(painter_key(painter))


def and_list(items: list[object]) -> object:
    """``a``, ``a and b``, ``a, b and c`` (items are messages or plain strings)."""
    if len(items) <= 1:
        return items[0] if items else ""
    return Msg("pastiche.and_list", head=Join("words.comma", items[:-1]), last=items[-1])
