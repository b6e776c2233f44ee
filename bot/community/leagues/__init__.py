"""Leagues: a server's seasons of matches that run themselves (issue 46).

Everyone signs up, the bot seats people at tables round after round, the matches are
ordinary matches played by post, the standings are recounted from their results, and the
next round opens when the last match of the round has ended.

Modules: :mod:`.seating` (pure: who sits where), :mod:`.standings` (pure: points and
tie-breaks), :mod:`.values` (pure: the values a league is created with, checked),
:mod:`.reports` (what the front ends get), :mod:`.steps` (the claimed steps: a round
opened, a league finished or cancelled) and :mod:`.service` (:class:`Leagues`, the API,
built from the match service: ``Leagues(service)``); storage in ``bot/storage/leagues.py``;
words in ``render/words/english_league.py``.

The rules, as players meet them
===============================

Creating and signing up
-----------------------
- A league has a game, a format (``round-robin`` or ``swiss``), a table size (the game's
  fewest players unless chosen: 2 for Azul, Maharani and Pastiche, 3 for Taj Mahal; any size
  the game allows), rounds (chosen, or decided at the start), days per move (each match's
  clock, default 3), a sign-up deadline (default 7 days; 0: none, a manager starts it),
  rated (default yes), a language (default the server's) and a fill (``computer``: a
  computer player takes the seats the players do not fill; ``bye``: those left over sit the
  round out).
- It starts with at least ``max(3, table size)`` players and takes at most 64. At the
  deadline it starts by itself with enough players; **with too few it is cancelled** (a
  "cancelled" post says how many signed up of how many needed). Its creator or a server
  manager may start it earlier, or cancel it at any time (running matches then go on as
  ordinary matches).
- Leaving during the sign-up takes the sign-up back. Leaving a running league (or the
  server): no new pairings; in each running league match the leaver resigns — at a table of
  three or more a computer plays the seat out and the leaver is ranked last; at two the
  match ends and the opponent wins. Their results so far stay in the standings (marked as
  having left). (The resignations follow the leave's own commit: a process that dies in
  between leaves those seats to their clocks.)

Rounds
------
- **Rounds when not chosen**: round robin — two players: ``n-1`` (``n`` when odd);
  tables of ``k``: ``ceil((n-1)/(k-1))`` (the fewest in which one can meet everyone).
  Swiss — two players: ``ceil(log2 n)``; tables of ``k``: ``ceil(log_k n) + 1``; never
  more than the round robin's. Chosen rounds are capped: a two-player round robin plays
  one cycle at most; others at most three times the round robin's default.
- **Seating** (details in :mod:`.seating`): players in *seed order* (sorted by id, shuffled
  with the league's seed). Two-player round robin by the circle method; two-player Swiss by
  score groups with no repeat pairings (a repeat only when no pairing without one exists);
  tables of three and more: Swiss fills tables by rank then swaps people to avoid repeat
  opponents; "round robin" at tables means each round seats people so that the fewest pairs
  meet again — over the default rounds nearly every pair meets once, and the meetings stay
  as even as the numbers allow. Who moves first alternates (two players: as colours in
  chess; tables: who sat first least often goes first; computers sit last), and each match
  is opened with a seed under which that seat begins, also in games that draw who begins.
- **Byes and computers**: with ``fill="bye"`` the players left over sit the round out — the
  lowest-ranked among those with the fewest byes, so nobody has a second bye before everyone
  had one. With ``fill="computer"`` computer players take the empty seats (at most one more
  at one table than another; in two-player leagues the odd player plays a computer, chosen
  the same way). A round robin pairing with someone who left is a bye (or a computer game).
- A round opens when every match of the previous one has ended — finished, aborted by its
  players, or decided by its clock (the scheduler's ``clock_action``: a skipped move keeps
  it going, a forfeit ends it or hands the seat to a computer). After the last round (or
  once fewer than two players are left) the league finishes.
- League matches: the league's clock (``clock_days`` = days per move), language and rated
  setting, hints off, and ``settings["league"] = {"id", "round", "table", "entrants"}``
  (``entrants``: the league player of each seat as opened, None for a computer seat — the
  seat stays theirs in the standings even after a computer or a substitute takes it over).

Standings (details in :mod:`.standings`)
----------------------------------------
- Points per match by place at a table of ``k`` seats: ``k - place`` (two players: win 1,
  draw ½, loss 0), a shared place split evenly. A bye: 1 in two-player leagues, ``(k-1)/2``
  at tables. Aborted matches score nothing.
- Tie-breaks in order: Buchholz (the points of everyone met), the total game score,
  head-to-head points among those still tied, the seed order. Played: finished matches.
- The champion(s): rank 1 when the league finishes.

What the front end gets (the API and the outbox)
================================================
``Leagues.create / join / leave / start / cancel / standings / list / leagues_of /
league_of_match / member_left / remember / advance`` (see :class:`.service.Leagues`).
``start`` and ``advance`` return :class:`.reports.RoundInfo` (event "round": the opened
tables with their match ids and seats; "final"; "cancelled"). Everything that must be posted
is also queued in the outbox in the transaction that claimed the step, so nothing is lost
if the process dies before posting:

- kind ``"league"`` (``match_id`` NULL; dedup key ``league:<id>:<event>:<round>``)::

    {"league_id": int, "event": "signup" | "round" | "final" | "cancelled",
     "round": int, "guild_id": str | None, "channel_id": str | None,
     "text": English, "text_words": words (say them in the league's language),
     # "signup": "signup_until": float | None
     # "round":  "matches": [match ids by table], "byes": [user ids], "rounds": int,
     #           "lines_words": [words, …] (the announcement and, with byes, who sits out)
     # "final":  "champions": [user ids]  (the table: Leagues.standings(league_id))
     # "cancelled" at the deadline: "players": n, "needed": min}

- kind ``"league_thread"`` (``match_id`` = the new match; dedup key
  ``league_thread:<match id>``)::

    {"league_id": int, "match_id": int, "round": int, "table": int,
     "guild_id": str | None, "channel_id": str | None,
     "title": English, "title_words": words}

  **The thread rule**: the delivery opens a thread for the match in ``channel_id``, stores
  it with ``MatchService.set_thread(match_id, thread_id)`` and only then marks the row sent.
  The match's first turn post is queued in the same transaction *after* this row, and the
  outbox hands out a match's rows strictly in order, so the turn post waits until the
  thread exists — no retry loop is needed in ``_turn``. A thread that cannot be opened now
  must be retried (``mark_failed``), not dropped: dropping it lets the turn post through,
  which is then dropped for having no thread.

Who ticks: ``advance(now)`` is cheap when nothing is due (one indexed read); the Discord
scheduler calls it every tick, the console after each command.
"""

from bot.community.leagues.reports import (
    LeagueInfo,
    LeagueMatch,
    LeaguePlayer,
    RoundInfo,
    StandingRow,
    Standings,
    TableInfo,
    TableSeat,
)
from bot.community.leagues.service import Leagues

__all__ = [
    "LeagueInfo",
    "LeagueMatch",
    "LeaguePlayer",
    "Leagues",
    "RoundInfo",
    "StandingRow",
    "Standings",
    "TableInfo",
    "TableSeat",
]
