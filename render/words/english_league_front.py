"""English words of leagues as a player meets them: the ``/league`` commands, the sign-up
post and its buttons, the posts of a league's rounds, the standings picture and text, and
the console's twins.

Merged into :data:`render.words.catalogue.MESSAGES`; the league core's own words (its
refusals, its announcements' sentences) are in :mod:`render.words.english_league`.
"""

from __future__ import annotations

LEAGUE_FRONT: dict[str, str] = {
    # ----- the commands (Discord's descriptions) -------------------------------------
    "cmd.league": "Leagues of this server: a season of matches that runs itself",
    "cmd.league.new": "Open a league with a sign-up post in this channel (server managers)",
    "cmd.league.start": "Close the sign-up and seat the first round now (server managers)",
    "cmd.league.standings": "A league's standings: points, tie-breaks, games played",
    "cmd.league.list": "This server's leagues: signing up, running and finished",
    "cmd.league.leave": "Leave a league: no new pairings; a computer plays your running matches",
    "cmd.league.cancel": "Cancel a league (server managers)",
    "opt.league": "Which league (default: the latest of this server)",
    "opt.league_game": "Which game the league plays",
    "opt.league_format": "Round robin (everyone meets everyone) or Swiss (by score groups)",
    "opt.players_per_table": "Players at each table (default: two; 3–5 where the game allows)",
    "opt.league_rounds": "How many rounds (Swiss; a round robin has as many as it needs)",
    "opt.days_per_move": "Days each player has per move in the league's matches",
    "opt.signup_days": "Days the sign-up stays open (default: 3)",
    "opt.league_rated": "Whether the league's matches count for the leaderboard (default: on)",
    "opt.league_fill": "A table short of players: a computer seat or a bye (default: computer)",
    "choice.format.round-robin": "Round robin",
    "choice.format.swiss": "Swiss",
    "choice.fill.computer": "A computer seat",
    "choice.fill.bye": "A bye",
    # ----- the sign-up post --------------------------------------------------------------
    "leagues.signup.title": "🏆 {league} — {game}",
    "leagues.signup.body": (
        "A league opened by {user}: {format}, {tables}, {rounds}, {clock}, {rated}; {fill}."
    ),
    "leagues.signup.until": (
        "Sign up with **Join** until {deadline} ({left}); the first round is seated then."
    ),
    "leagues.signup.until_start": (
        "Sign up with **Join**; the first round is seated when a server manager starts the "
        "league (`/league start`)."
    ),
    "leagues.signup.players.one": "Signed up ({n}): {names}",
    "leagues.signup.players.other": "Signed up ({n}): {names}",
    "leagues.signup.nobody": "Nobody has signed up yet.",
    "leagues.signup.closed": "The sign-up is closed: the league is {status}.",
    "leagues.format.round-robin": "round robin",
    "leagues.format.swiss": "Swiss",
    "leagues.tables.one": "tables of {n}",
    "leagues.tables.other": "tables of {n}",
    "leagues.rounds.one": "{n} round",
    "leagues.rounds.other": "{n} rounds",
    "leagues.rounds.all": "rounds set at the start by the number of players",
    "leagues.clock.one": "{n} day per move",
    "leagues.clock.other": "{n} days per move",
    "leagues.rated.yes": "rated",
    "leagues.rated.no": "not rated",
    "leagues.fill.computer": "a computer fills the seats nobody takes",
    "leagues.fill.bye": "players left over sit the round out (a bye)",
    "leagues.status.signup": "signing up",
    "leagues.status.running": "running",
    "leagues.status.finished": "finished",
    "leagues.status.cancelled": "cancelled",
    "btn.league_join": "Join",
    "btn.league_leave": "Leave",
    # ----- answers -------------------------------------------------------------------------
    "leagues.opened": "{user} opened league **{league}** ({game}): sign up in {where}.",
    "leagues.joined": "You signed up for **{league}**.",
    "leagues.left": "You left **{league}**.",
    "leagues.left_running": (
        "You left **{league}**: no new pairings, and you resign its matches you are playing "
        "(at a table of three or more a computer plays your seat out)."
    ),
    "leagues.started": "**{league}** has started: the first round is being seated.",
    "leagues.cancelled": "**{league}** was cancelled.",
    "leagues.not_manager": "Only a server manager (Manage Server) can {what} a league.",
    "leagues.what.new": "open",
    "leagues.what.start": "start",
    "leagues.what.cancel": "cancel",
    "leagues.none_here": (
        "This server has no league yet: a server manager opens one with `/league new`."
    ),
    "leagues.not_here": "League #{league} is not a league of this server.",
    "leagues.list.head": "**Leagues of this server:**",
    "leagues.list.line": "#{id} **{league}** — {game}, {format} · {status} · {count}",
    "leagues.list.players.one": "{n} player",
    "leagues.list.players.other": "{n} players",
    "leagues.list.round": "round {round} of {rounds}",
    "leagues.in_game_list": "league {league}, round {round}",
    "leagues.signup_failed": (
        "The league was opened, but its sign-up post could not be made here: {reason}"
    ),
    # ----- the posts of a running league ----------------------------------------------------
    "leagues.thread.name": "#{match} {game} · {league}, round {round}",
    "leagues.post.table": "Table {table}: {players} — {thread}",
    "leagues.post.match_intro": ("A match of **{league}**, round {round}: {players}. Good luck!"),
    # ----- the standings picture and text ---------------------------------------------------
    "leagues.pic.head": "{league} · {game} — {stage}",
    "leagues.pic.under": "{game} · {stage}",
    "leagues.pic.player": "Player",
    "leagues.pic.points": "Points",
    "leagues.pic.played": "Games",
    "leagues.pic.nobody": "Nobody has played yet.",
    "leagues.tiebreak.buchholz": "Buchholz",
    "leagues.tiebreak.game_score": "Score",
    "leagues.tiebreak.head_to_head": "Head-to-head",
    "leagues.tiebreak_short.buchholz": "BH",
    "leagues.tiebreak_short.game_score": "Score",
    "leagues.tiebreak_short.head_to_head": "H2H",
    "leagues.pic.legend_item": "{short}: {name}",
    "leagues.pic.more.one": "… and {n} more player",
    "leagues.pic.more.other": "… and {n} more players",
    "leagues.stage.signup": "signing up",
    "leagues.stage.round": "round {round} of {rounds}",
    "leagues.stage.round_open": "round {round}",
    "leagues.stage.final": "final standings",
    "leagues.stage.cancelled": "cancelled",
    "leagues.text.line.one": "{rank}. {name} — points {points} · {n} game",
    "leagues.text.line.other": "{rank}. {name} — points {points} · {n} games",
    "leagues.text.tiebreak": "{name} {value}",
    "leagues.text.left": "(left)",
    # ----- the console ----------------------------------------------------------------------
    "console.league_usage": (
        "Usage: /league new <game> format=round-robin|swiss [players_per_table=N] "
        "[rounds=N] [days_per_move=D] [signup_days=D] [rated=on|off] [fill=computer|bye], "
        "/league join [league], /league leave [league], /league start [league], "
        "/league standings [league], /league list, /league cancel [league]"
    ),
    "console.league_opened": "League #{id} **{league}** ({game}) is open.",
    "console.league_open_until": "Sign up with `/league join {id}` until {deadline}.",
    "console.league_open_until_start": (
        "Sign up with `/league join {id}`; its creator starts it with `/league start {id}`."
    ),
    "console.league_no_game": "Which game? /league new <game> format=round-robin|swiss ({games})",
}
