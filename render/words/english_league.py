"""English words of leagues' core (``bot/community/leagues/``): its refusals, the
announcements it queues and the line a league match's first post begins with. The Discord
and console front end of leagues keeps its own words in ``english_league_front.py``.

Merged into :data:`render.words.catalogue.MESSAGES` (one catalogue); kept apart so that this
part can grow without touching the main dict.
"""

from __future__ import annotations

LEAGUE_WORDS: dict[str, str] = {
    # ----- refusals -----------------------------------------------------------------------
    "league.none": "There is no league #{league}.",
    "league.bad_game": "There is no game “{game}”. Leagues can play: {games}.",
    "league.bad_format": "“{value}” is no league format. Choose one of: {choices}.",
    "league.bad_fill": (
        "“{value}” is no way to fill a table. Choose one of: {choices} (a computer player "
        "takes the empty seats, or the players left over sit the round out)."
    ),
    "league.bad_table": "A table of {game} seats from {low} to {high}; {value} is not possible.",
    "league.bad_rounds": "Rounds must be a whole number from {low} to {high} (not {value}).",
    "league.bad_days": "Days per move must be a number from {low} to {high} (not {value}).",
    "league.bad_signup": "Sign-up days must be a number from {low} to {high} (not {value}).",
    "league.bad_language": "“{value}” is no language of the bot. Choose one of: {choices}.",
    "league.bad_rated": "Rated must be yes or no (not {value}).",
    "league.bad_hints": "Hints must be yes or no (not {value}).",
    "league.bad_name": "A league's name is too long (the limit is {high}).",
    "league.computer": "Computer players cannot sign up for a league.",
    "league.joined": "You have already signed up for league #{league}.",
    "league.full": "League #{league} is full (at most {max}).",
    "league.not_in": "You are not signed up for league #{league}.",
    "league.closed": "The sign-up of league #{league} has closed.",
    "league.over": "League #{league} is over.",
    "league.not_signup": "League #{league} has already started.",
    "league.manager_only": (
        "Only the league's creator or a server manager may start or cancel league #{league}."
    ),
    "league.too_few.one": (
        "League #{league} needs at least {min} players to start; {n} has signed up."
    ),
    "league.too_few.other": (
        "League #{league} needs at least {min} players to start; {n} have signed up."
    ),
    "league.changed": "League #{league} changed just now; please try again.",
    # ----- announcements (the outbox's "league" posts; the front end lays them out) --------
    "league.signup_post": (
        "**{name}**: {game}, {format}, {size} per table. Sign up before {deadline}!"
    ),
    "league.signup_post_open": (
        "**{name}**: {game}, {format}, {size} per table. Sign up now; a manager starts it."
    ),
    "league.round_post": "**{name}**: round {round} of {rounds} has begun ({tables}).",
    "league.round_byes": "Sitting this round out (a bye): {names}.",
    "league.final_post": "**{name}** is over! Champion: {names}.",
    "league.cancelled_post": "**{name}** was cancelled.",
    "league.cancelled_few.one": (
        "**{name}** was cancelled: it needed {min} players and {n} signed up."
    ),
    "league.cancelled_few.other": (
        "**{name}** was cancelled: it needed {min} players and {n} signed up."
    ),
    "league.tables.one": "{n} table",
    "league.tables.other": "{n} tables",
    "league.default_name": "{game} league #{league}",
    "league.format.round-robin": "round-robin",
    "league.format.swiss": "Swiss",
    # ----- a league match ---------------------------------------------------------------
    "league.match_line": "{name} · round {round}, table {table}.",
    "league.thread_title": "{name} · round {round} · table {table}",
}
