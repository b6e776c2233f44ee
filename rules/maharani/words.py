"""Maharani's words: the English catalogue of its labels, events, refusals and status lines.

Plain data (key -> English template with ``{name}`` parameters; a plural family is
``key.one`` / ``key.other`` chosen by ``n``). ``rules.maharani`` builds
:class:`rules.words.Msg` values from these keys; ``render.words`` merges this dict into the
message catalogue, so the translations (``locale/<lang>/LC_MESSAGES/tessera.po``) cover
them like every other key.

Names from the game data (``data/maharani/*.json``) are keys too, one per id: tile colours
(``maharani.colour.<colour>``), quarter animals (``maharani.animal.<animal>``). Why an
animal has two families: inside a sentence it qualifies a field, a quarter or a marker
("lion field"; German "Feld des Löwen", Polish "pole lwa", so the translation holds the
form that fits after the noun), while a quarter that opens a sentence is its own phrase
(``maharani.quarter_name.<animal>``, "Lion quarter"). Likewise "a blue tile"
(``maharani.a_tile.<colour>``) is one phrase per colour, because English wants "an orange"
and other languages inflect the adjective with the noun. Space names (F7), arrow letters
(N E S W) and notation stay as they are.
"""

from __future__ import annotations

from rules.words import Msg, register_words

#: The tile colours and quarter animals of ``data/maharani`` (checked by the tests against
#: the data: a new colour or animal in the data needs its words here).
COLOURS: tuple[str, ...] = ("blue", "orange", "red", "green", "purple", "turquoise")
ANIMALS: tuple[str, ...] = ("lion", "monkey", "peacock", "elephant")

WORDS: dict[str, str] = {
    # ----- game data names ----------------------------------------------------------
    "maharani.colour.blue": "blue",
    "maharani.colour.orange": "orange",
    "maharani.colour.red": "red",
    "maharani.colour.green": "green",
    "maharani.colour.purple": "purple",
    "maharani.colour.turquoise": "turquoise",
    "maharani.a_tile.blue": "a blue tile",
    "maharani.a_tile.orange": "an orange tile",
    "maharani.a_tile.red": "a red tile",
    "maharani.a_tile.green": "a green tile",
    "maharani.a_tile.purple": "a purple tile",
    "maharani.a_tile.turquoise": "a turquoise tile",
    "maharani.animal.lion": "lion",
    "maharani.animal.monkey": "monkey",
    "maharani.animal.peacock": "peacock",
    "maharani.animal.elephant": "elephant",
    "maharani.quarter_name.lion": "Lion quarter",
    "maharani.quarter_name.monkey": "Monkey quarter",
    "maharani.quarter_name.peacock": "Peacock quarter",
    "maharani.quarter_name.elephant": "Elephant quarter",
    "maharani.side.N": "north",
    "maharani.side.E": "east",
    "maharani.side.S": "south",
    "maharani.side.W": "west",
    "maharani.worker.round": "round",
    "maharani.worker.square": "square",
    "maharani.or": " or ",
    "maharani.gold.one": "{n} gold",
    "maharani.gold.other": "{n} gold",
    # ----- move labels and steps ----------------------------------------------------
    "maharani.step.field": "{field}: {colour} ({animal} field)",
    "maharani.step.quarter": "{animal} quarter{marker}",
    "maharani.step.quarter_marker": " (marker)",
    "maharani.step.space": "{space} in {animal} quarter{flips}",
    "maharani.step.space_flips": " (flips {animal} marker)",
    "maharani.step.arrow": "arrow {glyph} {side}{worker}",
    "maharani.step.arrow_worker": " to you: worker",
    "maharani.label.place": (
        "{colour} tile from {src} field → {tgt} quarter {space}, {arrow}{flips}"
    ),
    "maharani.label.place_short": (
        "{colour} from {src} field → {tgt} quarter {space}, {arrow}{flips}"
    ),
    "maharani.label.flips": "; flips {animal} marker",
    "maharani.label.refresh": "Refresh: turn all your action markers face up (no tile this turn)",
    "maharani.step.refresh": "Refresh action markers",
    "maharani.label.stop": "Stop: no second tile",
    "maharani.step.stop": "Stop (no second tile)",
    "maharani.label.move_worker": "Move your {style} worker from {origin} to {space}",
    "maharani.label.new_worker": "New {style} worker on {space} ({supply} in supply)",
    # ----- events -------------------------------------------------------------------
    "maharani.ev.start": "{who} starts; the rondel points at them.",
    "maharani.ev.rondel_filled": "Rondel filled ({drawn}).",
    "maharani.ev.drawn": "{field}: {colour}",
    "maharani.ev.refill": "Rondel refilled ({drawn}){aside}.",
    "maharani.ev.refill_none": "Nothing to draw{aside}.",
    "maharani.ev.set_aside.one": "; {n} surplus centre-pillar tile drawn and set aside",
    "maharani.ev.set_aside.other": "; {n} surplus centre-pillar tiles drawn and set aside",
    "maharani.ev.surplus": "All centre-pillar spaces are filled: removed {removed}.",
    "maharani.ev.removed": "{colour} on field {field}",
    "maharani.ev.tile": (
        "{who} places {tile} from the {src} field on {space} ({tgt} quarter), "
        "arrow {glyph} {side}{marker}: +{gold}{area}."
    ),
    "maharani.ev.tile_marker": ", turning their {animal} marker face down",
    "maharani.ev.area": " (area of {n})",
    "maharani.ev.no_worker": "The arrow points at {who}, but they have no worker left.",
    "maharani.ev.worker_move": (
        "{who} moves their{style} worker from {origin} to {space}: +{gold}{group}."
    ),
    "maharani.ev.worker_new": "{who} places a new{style} worker on {space}: +{gold}{group}.",
    "maharani.ev.worker_style": " {style}",
    "maharani.ev.group": " (group of {n})",
    "maharani.ev.refresh.one": "{who} refreshes their action markers ({n} turned face up).",
    "maharani.ev.refresh.other": "{who} refreshes their action markers ({n} turned face up).",
    "maharani.ev.score": "{quarter} scored{unfinished}: {results}.",
    "maharani.ev.score_unfinished": " unfinished",
    "maharani.ev.score_result": "{who}{style} {workers} → {gold}",
    "maharani.ev.score_style": " {style}",
    "maharani.ev.pay": "{who} pays {gold} for the second tile.",
    "maharani.ev.stop": "{who} places no second tile.",
    "maharani.ev.stall": (
        "No tile on the rondel fits any empty space: the game stops and the "
        "unfinished quarters are scored."
    ),
    # the final post goes on with the standings (who won, with how much): the event only
    # ends the game
    "maharani.ev.end_win": "Game over.",
    "maharani.ev.end_shared": "Game over.",
    # ----- moves told to the table (rules/maharani/told.py): past tense, third person
    "maharani.told.tile": (
        "{who} placed {tile} from the {src} field on {space} ({tgt} quarter), arrow "
        "pointing {side}{marker}: +{gold}{worker}."
    ),
    "maharani.told.tile_second": (
        "{who} paid {cost} for a second tile: {tile} from the {src} field on {space} "
        "({tgt} quarter), arrow pointing {side}{marker}: +{gold}{worker}."
    ),
    "maharani.told.marker": ", flipping their {animal} marker",
    "maharani.told.worker_new": "; a new{style} worker there: +{gold}",
    "maharani.told.worker_moved": "; their{style} worker moved there from {origin}: +{gold}",
    "maharani.told.no_worker": "; they had no worker left for it",
    "maharani.told.new_worker": "{who} placed a new{style} worker on {space}: +{gold}.",
    "maharani.told.moved_worker": (
        "{who} moved their{style} worker from {origin} to {space}: +{gold}."
    ),
    "maharani.told.refresh.one": (
        "{who} refreshed their action markers ({n} turned face up) instead of placing a tile."
    ),
    "maharani.told.refresh.other": (
        "{who} refreshed their action markers ({n} turned face up) instead of placing a tile."
    ),
    "maharani.told.stop": "{who} placed no second tile.",
    # ----- results ------------------------------------------------------------------
    "maharani.result.wins": "{who} wins with {gold}.",
    "maharani.result.shared": (
        "Shared victory: {who} have {gold} each (Maharani has no tie-breaker)."
    ),
    "maharani.result.stalled": (
        "{reason} The game stopped early: no rondel tile fit any empty space."
    ),
    # ----- status lines -------------------------------------------------------------
    "maharani.status.over": "Game over.",
    "maharani.status.over_stall": "Game over (stopped early: no tile fits).",
    "maharani.status.first": (
        "Turn {turn} · {done}/4 quarters scored · {who} to place a tile or refresh "
        "(the rondel's arrow points to {who}'s side, {side})."
    ),
    "maharani.status.first_place": (
        "Turn {turn} · {done}/4 quarters scored · {who} to place a tile "
        "(the rondel's arrow points to {who}'s side, {side})."
    ),
    "maharani.status.second": (
        "Turn {turn} · {done}/4 quarters scored · {who} may place a second tile for 2 gold, "
        "or stop."
    ),
    "maharani.status.worker": (
        "Turn {turn} · {done}/4 quarters scored · {who} chooses a worker: {options}."
    ),
    "maharani.status.option_new": "new {style} worker",
    "maharani.status.option_move": "move the {style} worker",
    # ----- refusals -----------------------------------------------------------------
    "maharani.no.worker_first": "First choose what happens with your worker: {options}.",
    "maharani.no.refresh_all_up": (
        "All your action markers are face up, so there is nothing to refresh: place a tile."
    ),
    "maharani.no.refresh_second": (
        "Refreshing markers takes a whole turn; you already placed a tile. Type stop."
    ),
    "maharani.no.stop_first": (
        "You must place a tile this turn (or type refresh to refresh your markers)."
    ),
    "maharani.no.worker_none": "There is no worker choice to make now.",
    "maharani.no.stop_first_place": "You must place a tile this turn.",
    "maharani.no.not_a_move_place": (
        "“{text}” is not a move. Type field, space and arrow like 1F7S."
    ),
    "maharani.no.not_a_move_first": (
        "“{text}” is not a move. Type field, space and arrow like 1F7S, or refresh."
    ),
    "maharani.no.not_a_move_second": (
        "“{text}” is not a move. Type field, space and arrow like 1F7S, or stop."
    ),
    "maharani.no.field_empty": "Rondel field {field} is empty.",
    "maharani.no.under_rondel": "{space} is under the rondel in the middle, not a space.",
    "maharani.no.corner": "{space} is a corner of the palace, not a space.",
    "maharani.no.taken": "{space} already holds {tile}.",
    "maharani.no.tile_centre": (
        "The {colour} tile on field {field} has a centre pillar; {space} does not."
    ),
    "maharani.no.space_centre": (
        "{space} has a centre pillar; the {colour} tile on field {field} has none."
    ),
    "maharani.no.pillars": (
        "The pillar marks of the {colour} tile on field {field} cannot match {space}."
    ),
    "maharani.no.marker_down": (
        "Your {animal} marker is face down: the tile from the {animal} field may only go "
        "into the {animal} quarter (or refresh first)."
    ),
    "maharani.no.which_arrow": "Say which way the arrow points: {dirs} (e.g. {example}).",
    "maharani.no.arrow": (
        "With the arrow to {side} the pillars would not match {space}; the arrow can point {dirs}."
    ),
    # ----- hints (/hint) -----------------------------------------------------------
    "maharani.hint.rating": "search rating {rating}/100",
    "maharani.hint.reason": "{move}: {gold} gold now, {gain} expected; {rating}",
    "maharani.hint.refresh.one": "refreshes {n} action marker",
    "maharani.hint.refresh.other": "refreshes {n} action markers",
    "maharani.hint.pass": "passes (refresh)",
    "maharani.hint.stop": "no second tile (keeps 2 gold)",
    "maharani.hint.place": "{colour} tile on {space}{worker}",
    "maharani.hint.worker": " with a worker",
    # ----- help ---------------------------------------------------------------------
    "maharani.summary": (
        "Lay mosaic tiles in the four palace quarters. The rondel turns to you; take a tile "
        "into its own quarter free, or elsewhere by flipping that quarter's action marker.\n"
        "Gold: 1 per tile in the same-colour area you extend. If the tile's arrow points at "
        "you, a worker goes on it (moved if you already have one on that colour there) and "
        "earns 1 per worker in its group.\n"
        "A second tile costs 2 gold. Or spend the turn refreshing your markers.\n"
        "A finished quarter pays its workers 4/6/9/13/18/24 for 1-6 workers. "
        "Most gold after the fourth quarter wins."
    ),
    "maharani.notation_help": (
        "Moves: 1F7S = tile on rondel field 1 to space F7 with its arrow pointing S; "
        "refresh; stop (no second tile); new1/new2/move1/move2 (2-player worker choice)."
    ),
}

register_words(WORDS)


def colour(name: str) -> Msg:
    """A tile colour of the data (``"blue"``) as a message."""
    return Msg(f"maharani.colour.{name}")


def a_tile(name: str) -> Msg:
    """ "a blue tile", "an orange tile": one tile of a colour, as a message."""
    return Msg(f"maharani.a_tile.{name}")


def animal(name: str) -> Msg:
    """A quarter's animal (``"lion"``) as it qualifies a field, quarter or marker."""
    return Msg(f"maharani.animal.{name}")


def quarter_name(name: str) -> Msg:
    """A quarter named on its own ("Lion quarter"), e.g. at the start of a sentence."""
    return Msg(f"maharani.quarter_name.{name}")


def gold(n: int) -> Msg:
    """An amount of gold ("3 gold")."""
    return Msg("maharani.gold", n=n)
