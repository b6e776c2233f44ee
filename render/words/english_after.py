"""English words of what comes after a game: ratings, leaderboards, stats and score charts.

Merged into :data:`render.words.catalogue.MESSAGES` (one catalogue); kept apart so that this part of
the catalogue can grow without touching the main dict.
"""

from __future__ import annotations

AFTER_GAME: dict[str, str] = {
    # ----- ratings ---------------------------------------------------------------------
    "rating.head": "Ratings (μ ± σ, change of μ − 3σ):",
    "rating.change": "{name}: {mu} ± {sigma} ({delta})",
    "cmd.leaderboard": "The best rated players of this server in a game",
    "leaderboard.head": "**{game}** leaderboard (rating μ ± σ, sorted by μ − 3σ):",
    "leaderboard.line.one": "{rank}. {name} — {mu} ± {sigma} · {n} game",
    "leaderboard.line.other": "{rank}. {name} — {mu} ± {sigma} · {n} games",
    "leaderboard.empty": "Nobody on this server has a rating in {game} yet.",
    "opt.rated": "Rate this match (default: on when every seat is a person)",
    # ----- stats -----------------------------------------------------------------------
    "cmd.stats": "Match statistics of a player or of this server",
    "cmd.stats.player": "A player's matches, wins, time to move, streak and opponents",
    "cmd.stats.server": "This server's totals: matches, players, moves, time to move",
    "opt.user": "Whose stats (default: yours)",
    "opt.stats_game": "Only this game (default: every game)",
    "opt.leaderboard_game": "Which game's leaderboard",
    "stats.none": "–",
    "stats.unit.d": "{n} d",
    "stats.unit.h": "{n} h",
    "stats.unit.min": "{n} min",
    "stats.unit.s": "{n} s",
    "stats.all_games": "All games",
    "stats.player.none": "{name} has not played a match on this server yet.",
    "stats.player.head": "**Stats of {name}** on this server:",
    "stats.player.line": (
        "**{game}**: played {played} · finished {finished} · won {won} · time to move "
        "{average} on average, {median} median · longest win streak {streak}"
    ),
    "stats.dates": "First match {first} · latest move {last}",
    "stats.first_only": "First match {first} · no move yet",
    "stats.opponent": "{name} ({n})",
    "stats.opponents": "Favourite opponents: {opponents}",
    "stats.server.none": "No match has started on this server yet.",
    "stats.server.head": "**This server's stats:**",
    "stats.server.line": (
        "**{game}**: matches: {played} (finished: {finished}, running: {running}, aborted: "
        "{aborted}) · players: {players} · moves: {moves} · median time to move {median}"
    ),
    # ----- score chart -----------------------------------------------------------------
    "chart.title": "Match #{match} · {game}: scores after every turn",
    "chart.x_axis": "turn",
    "chart.line_end": "#{place} {name} {score}",
    "chart.swing": "Largest swing: {change} {name} (turn {turn})",
    "chart.end": "End of the game: {change} {name}",
    "chart.post": "📈 How the scores went in match #{match}.",
    # ----- animated replay -------------------------------------------------------------
    "cmd.history.group": "The moves of the match of this thread: a list, or an animated replay",
    "cmd.history.replay": "An animated replay of the match, one frame per turn (public boards)",
    "replay.posted.one": "🎞️ Replay of match #{match} ({game}): {n} turn.",
    "replay.posted.other": "🎞️ Replay of match #{match} ({game}): {n} turns.",
    "replay.empty": "Match #{match} has no moves to replay yet.",
    "replay.too_large": "The replay of match #{match} is too large to upload, even reduced.",
    "replay.later": (
        "The replay of match #{match} is still being made; it will be posted in this "
        "channel when it is ready."
    ),
    "replay.failed": "The replay of match #{match} could not be made. Please try again later.",
    "replay.saved.one": "Replay of match #{match} ({n} turn, {size} KB {format}): {path}",
    "replay.saved.other": "Replay of match #{match} ({n} turns, {size} KB {format}): {path}",
    "pic.replay.match": "Match #{match} · replay",
    "pic.replay.started": "First move {date}",
    "pic.replay.ended": "Ended {date}",
    "pic.replay.turns.one": "{n} turn",
    "pic.replay.turns.other": "{n} turns",
    "pic.replay.final": "Final standings",
    "pic.replay.aborted": "Match aborted",
    "pic.replay.running": "Still being played",
    "pic.replay.public_only": "Public board only; the scores are shown when the match ends.",
    # ----- the rated setting -----------------------------------------------------------
    "settings.rated": "; rated: {rated}",
    "settings.rated_auto": "when every seat is a person",
    "err.rated_over": "Match #{match} has ended: whether it is rated can no longer change.",
}
