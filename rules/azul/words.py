"""Azul's words: the English catalogue of its labels, events, refusals and status lines.

Plain data (key -> English template with ``{name}`` parameters; a plural family is
``key.one`` / ``key.other`` chosen by ``n``). ``rules.azul`` builds :class:`rules.words.Msg`
values from these keys; ``render.words`` merges this dict into the message catalogue, so the
translations (``locale/<lang>/LC_MESSAGES/tessera.po``) cover them like every other key.
Colour names are keys too (``azul.colour.red``): the notation letters (R, B...) stay.
"""

from __future__ import annotations

from rules.words import Msg, register_words

WORDS: dict[str, str] = {
    # ----- game data names ----------------------------------------------------------
    "azul.colour.blue": "blue",
    "azul.colour.yellow": "yellow",
    "azul.colour.red": "red",
    "azul.colour.black": "black",
    "azul.colour.white": "white",
    "azul.centre": "centre",
    "azul.factory": "factory {number}",
    "azul.floor": "floor",
    "azul.line": "line {number}{extra}",
    "azul.nothing": "nothing",
    # ----- move labels and steps ----------------------------------------------------
    "azul.tiles.one": "{n} {colour}",
    "azul.tiles.other": "{n} {colour}",
    "azul.label.take": "{source}: {tiles} → {dest}{marker}",
    "azul.label.over.one": " ({n} to floor)",
    "azul.label.over.other": " ({n} to floor)",
    "azul.label.fills": " (fills it)",
    "azul.label.marker": " (+first player marker)",
    "azul.label.column": "line {line} ({colour}) → wall column {column} (+{points})",
    "azul.step.column": "column {column} (+{points})",
    # ----- events -------------------------------------------------------------------
    "azul.ev.take": "{who} took {tiles} from {source} → {dest}{over}{lid}{marker}",
    "azul.ev.lid.one": " ({n} to the box lid)",
    "azul.ev.lid.other": " ({n} to the box lid)",
    "azul.ev.marker": " and the first player marker",
    "azul.ev.tile_column": "{who} tiles line {line} ({colour}) in column {column}: +{points}",
    "azul.ev.tile_forced": (
        "{who} tiles line {line} ({colour}) in column {column}, the only legal column: +{points}"
    ),
    "azul.ev.no_column.one": (
        "{who} has no legal column for line {line} ({colour}): its {n} tile goes to the floor"
    ),
    "azul.ev.no_column.other": (
        "{who} has no legal column for line {line} ({colour}): its {n} tiles go to the floor"
    ),
    "azul.ev.tile_wall": "{who} tiles the wall: {placed}",
    "azul.ev.placed": "line {line} {colour} +{points}",
    "azul.ev.floor": "{who} loses {penalty} for the floor line{clamp}",
    "azul.ev.floor_clamp": " (score stops at 0, lost {lost})",
    "azul.ev.no_tiles": (
        "Not a single tile can be drawn (bag and box lid are empty): the game ends."
    ),
    "azul.ev.no_row_possible": (
        "No player can complete a wall row any more, however the game is played: the game ends."
    ),
    "azul.ev.refill": "Round {round}: the factories are filled{poured}{short}",
    "azul.ev.refill_poured.one": (
        " (the bag ran out; {n} tile from the box lid went back into it)"
    ),
    "azul.ev.refill_poured.other": (
        " (the bag ran out; {n} tiles from the box lid went back into it)"
    ),
    "azul.ev.refill_short.one": "; {n} factory stays short: the bag is empty",
    "azul.ev.refill_short.other": "; {n} factories stay short: the bag is empty",
    "azul.ev.bonus": "{who} scores an end bonus of {points}: {rows}, {columns}, {colours}",
    "azul.ev.bonus_rows.one": "{n} row ×2",
    "azul.ev.bonus_rows.other": "{n} rows ×2",
    "azul.ev.bonus_columns.one": "{n} column ×7",
    "azul.ev.bonus_columns.other": "{n} columns ×7",
    "azul.ev.bonus_colours.one": "{n} colour ×10",
    "azul.ev.bonus_colours.other": "{n} colours ×10",
    # the final post goes on with the standings and the reason: the event only ends it
    "azul.ev.end": "Game over.",
    # ----- moves told to the table (rules/azul/told.py): past tense, third person ----
    "azul.told.take_factory": (
        "{who} took {tiles} from factory {factory} to line {line}{over}{lid}."
    ),
    "azul.told.take_factory_floor": "{who} took {tiles} from factory {factory} to the floor{lid}.",
    "azul.told.take_centre": (
        "{who} took {tiles} from the centre to line {line}{over}{lid}{marker}."
    ),
    "azul.told.take_centre_floor": "{who} took {tiles} from the centre to the floor{lid}{marker}.",
    "azul.told.over.one": " ({n} to the floor)",
    "azul.told.over.other": " ({n} to the floor)",
    "azul.told.lid.one": " ({n} to the box lid)",
    "azul.told.lid.other": " ({n} to the box lid)",
    "azul.told.marker": ", with the first player marker",
    "azul.told.column": "{who} tiled line {line} ({colour}) in wall column {column}: +{points}.",
    # ----- results ------------------------------------------------------------------
    # (a family by the complete rows, n; the score stands where no noun follows it)
    "azul.result.shared.one": (
        "{who} share the victory with a score of {points} and {n} complete row each."
    ),
    "azul.result.shared.other": (
        "{who} share the victory with a score of {points} and {n} complete rows each."
    ),
    # (families by the winning score, n)
    "azul.result.tie_break.one": (
        "{tied} tied on {n} point; {who} wins with more complete rows ({rows} vs {other})."
    ),
    "azul.result.tie_break.other": (
        "{tied} tied on {n} points; {who} wins with more complete rows ({rows} vs {other})."
    ),
    "azul.result.wins.one": "{who} wins with {n} point.",
    "azul.result.wins.other": "{who} wins with {n} points.",
    "azul.result.no_tiles": "No tile could be drawn for a new round, so the game ended. {reason}",
    "azul.result.no_row_possible": (
        "No player could complete a wall row any more, so the game ended. {reason}"
    ),
    # ----- status lines -------------------------------------------------------------
    "azul.status.offer": "Round {round}: {who} to take tiles.",
    "azul.status.tiling": "Round {round}, wall tiling: {who} to choose a wall column.",
    "azul.status.over": "Game over after round {round}. {reason}",
    # ----- refusals -----------------------------------------------------------------
    "azul.no.factory": "There is no factory {number}: this game has factories 1–{count}.",
    "azul.no.line": "There is no line {number}: pattern lines are 1–5 (or F for the floor).",
    "azul.no.marker_only": (
        "The centre holds only the first player marker; taking only the marker is not a move."
    ),
    "azul.no.centre_empty": "The centre is empty.",
    "azul.no.centre_colour": "The centre has no {colour} tiles (it holds {holds}).",
    "azul.no.factory_empty": "Factory {number} is empty.",
    "azul.no.factory_colour": "Factory {number} has no {colour} tiles (it holds {holds}).",
    "azul.no.line_colour": "Line {number} already holds {colour}; it only takes {colour}.",
    "azul.no.line_full": (
        "Line {number} is already full ({tiles}); choose another line or the floor."
    ),
    "azul.no.wall_row": (
        "Your wall row {number} already has {colour}; put it in another line or the floor."
    ),
    "azul.no.column": "There is no column {number}: wall columns are 1–5.",
    "azul.no.tiled": "Row {row}, column {column} of your wall is already tiled.",
    "azul.no.column_colour": "Column {column} already has the colour {colour} (row {row}).",
    "azul.no.choose_column": (
        "Now choose the wall column for line {line} ({colour}): one of {legal}."
    ),
    "azul.no.column_choose": "{problem} Choose one of {legal}.",
    "azul.no.column_legal": "That column is legal.",
    "azul.no.columns_only_grey": "Wall columns are chosen only during grey-wall tiling. {help}",
    "azul.no.not_a_move": "“{text}” is not a move. {help}",
    "azul.no.legal": "That move is legal.",
    # ----- hints (/hint) -----------------------------------------------------------
    "azul.hint.rating": "search rating {rating}/100",
    "azul.hint.reason": "{move}, {gain} expected; {rating}",
    "azul.hint.column": "puts line {line} in column {column}",
    "azul.hint.marker": " and takes the first-player marker",
    "azul.hint.drop": "drops {tiles} on the floor{marker}",
    "azul.hint.fills": "fills line {line}",
    "azul.hint.adds.one": "adds {tiles} to line {line} ({n} more to fill)",
    "azul.hint.adds.other": "adds {tiles} to line {line} ({n} more to fill)",
    "azul.hint.loss.one": ", {n} to the floor",
    "azul.hint.loss.other": ", {n} to the floor",
    "azul.hint.no_loss": " without floor loss",
    "azul.hint.move": "{what}{loss}{marker}",
    # ----- help ---------------------------------------------------------------------
    "azul.summary": (
        "Draft tiles: take every tile of one colour from a factory (the rest go to the centre)\n"
        "or from the centre (the first to do so takes the first-player marker to the floor).\n"
        "Put them all in one pattern line (one colour per line, not a colour already in that\n"
        "wall row); extras fall to the floor (−1 −1 −2 −2 −2 −3 −3). Full lines move one tile\n"
        "to the wall and score its connected runs. The game ends after a round in which a wall\n"
        "row is completed: +2 per row, +7 per column, +10 per full colour."
    ),
    "azul.notation_help": (
        "Write source-colour-line: F3-R-2 takes red from factory 3 into line 2, C-B-F takes "
        "blue from the centre to the floor. Colours: B blue, Y yellow, R red, K black, "
        "W white. Grey wall tiling: col-3."
    ),
}

register_words(WORDS)

#: Colour k (0..4, in the order B Y R K W) as a message.
COLOUR_WORDS: tuple[Msg, ...] = tuple(
    Msg(f"azul.colour.{name}") for name in ("blue", "yellow", "red", "black", "white")
)
