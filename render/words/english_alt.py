"""The English of pictures described in words: the alt text every picture the bot sends
carries (Discord's attachment description, read by screen readers and shown when a picture
cannot load; ``render/alt_text.py`` builds it from the same view the picture is drawn from).

Sentences, not labels: a screen reader reads them aloud one after the other. Counted words
are plural families (``.one`` / ``.other``); game-data names (colours, cards, paintings)
are the rules' own messages, so they read as in the game's posts.
"""

from __future__ import annotations

ALT_WORDS: dict[str, str] = {
    # ----- every picture -------------------------------------------------------------
    "alt.board": "{game} board, {stage}.",
    "alt.hand": "Your hand in {game} ({name}), {stage}.",
    "alt.to_act": "To act: {names}.",
    "alt.over": "The game is over.",
    "alt.scores": "Scores: {scores}.",
    "alt.score": "{name} {score}",
    "alt.ranking": "Final ranking: {places}.",
    "alt.place": "{place}. {name} {score}",
    "alt.sentence": "{text}.",
    "alt.times": "{item} ×{n}",
    # ----- the score chart and the replay --------------------------------------------
    "alt.chart.one": "Score chart of match {match} ({game}), {n} turn: {scores}.",
    "alt.chart.other": "Score chart of match {match} ({game}), {n} turns: {scores}.",
    "alt.replay.one": "Animated replay of match {match} ({game}), {n} turn, players {players}.",
    "alt.replay.other": (
        "Animated replay of match {match} ({game}), {n} turns, players {players}."
    ),
    # ----- Azul ----------------------------------------------------------------------
    "alt.azul.factories": "Factories: {list}.",
    "alt.azul.factory": "{number}: {tiles}",
    "alt.azul.factories_empty": "The factories are empty.",
    "alt.azul.centre": "Centre: {tiles}.",
    "alt.azul.centre_empty": "The centre is empty.",
    "alt.azul.marker": "the first player marker",
    "alt.azul.player": "{name}: {wall} on the wall; pattern lines {lines}; floor {floor}.",
    "alt.azul.tiles.one": "{n} tile",
    "alt.azul.tiles.other": "{n} tiles",
    "alt.azul.line": "{number}: {count}/{size} {colour}",
    "alt.azul.line_empty": "{number}: empty",
    # ----- Taj Mahal -----------------------------------------------------------------
    "alt.taj.display": "Display: {cards}.",
    "alt.taj.display_empty": "The display is empty.",
    "alt.taj.court": "Court prizes left: {prizes}.",
    "alt.taj.player": "{name}: {held} in hand, {palaces} left{played}.",
    "alt.taj.cards.one": "{n} card",
    "alt.taj.cards.other": "{n} cards",
    "alt.taj.palaces.one": "{n} palace",
    "alt.taj.palaces.other": "{n} palaces",
    "alt.taj.played": ", played this visit: {cards}",
    "alt.taj.hand": "Your cards: {cards}.",
    # ----- Maharani ------------------------------------------------------------------
    "alt.maharani.rondel": "Rondel: {fields}.",
    "alt.maharani.field": "{field}: {colour} ({animal} field)",
    "alt.maharani.field_empty": "{field}: empty",
    "alt.maharani.quarters": "Quarters: {list}.",
    "alt.maharani.quarter_open.one": "{quarter}: {n} empty space",
    "alt.maharani.quarter_open.other": "{quarter}: {n} empty spaces",
    "alt.maharani.quarter_scored": "{quarter}: scored",
    "alt.maharani.player": "{name}: {markers}/4 action markers face up, {workers} in supply.",
    "alt.maharani.workers.one": "{n} worker",
    "alt.maharani.workers.other": "{n} workers",
    # ----- Pastiche ------------------------------------------------------------------
    "alt.pastiche.gallery": "Gallery: {paintings}.",
    "alt.pastiche.painting.one": "{title} ({n} point)",
    "alt.pastiche.painting.other": "{title} ({n} points)",
    "alt.pastiche.player": "{name}: {points}, {palette}, {holding} in hand.",
    "alt.pastiche.points.one": "{n} commission point",
    "alt.pastiche.points.other": "{n} commission points",
    "alt.pastiche.cards.one": "{n} palette card",
    "alt.pastiche.cards.other": "{n} palette cards",
    "alt.pastiche.commissions.one": "{n} commission",
    "alt.pastiche.commissions.other": "{n} commissions",
    "alt.pastiche.offers": "Open offers: {offers}.",
    "alt.pastiche.hand_cards": "Your palette cards: {cards}.",
    "alt.pastiche.hand_commissions": "Your commissions: {commissions}.",
    "alt.pastiche.lacks": "{title} (lacks {colours})",
}
