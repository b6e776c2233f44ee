"""The English catalogue of the bot's own words (commands, options, buttons, replies,
refusals, posts, the console), keyed: the source of the translations.

Why English is a dict in code and the others are files: code that adds a text adds a key
here and nothing else, while Hungarian, German and Polish are gettext catalogues that
translators edit with ordinary tools (see :mod:`render.words.catalogue`). The order of this
dict is the order of the template ``locale/tessera.pot`` (``python -m bot i18n extract``),
so new keys go next to their kin. :mod:`render.words.catalogue` merges this dict with the
words drawn in pictures (:mod:`render.words.english_pictures`), the words of what comes
after a game (:mod:`render.words.english_after`) and the rules' own English into
``MESSAGES['en']``, in that order.
"""

from __future__ import annotations

#: The console's /help: command names and option syntax stay as typed (they are the
#: commands), the explanations are words.
_CONSOLE_HELP = """Commands (type them as `name> /command`, e.g. `alice> /game new azul`):
  /game new <game> [players=N] [bots=N level=easy|normal|strong hints=on|off
            think_seconds=S] [option=value ...]   open a lobby (games: {games})
  /game join [match]   /game leave [match]   /game start [match]   /game list [page]
  /game abort [match] [reason=…]   close your lobby, or vote to end a match
  /game bot [level]      seat a computer player   /game unbot   unseat one
  /game settings [match=N reminder_hours=H reminder_max=N clock_days=D
            clock_action=skip|forfeit hints=on|off think_seconds=S language=CODE
            rated=on|off]   the match's settings (its creator)
  /game options [match=N] [name=value ...]   the game's own options of a lobby (its
            creator; without values: show them)
  /game sub <name>       hand your seat to <name>; they answer /game sub accept|decline
  /game sub seat=N <name>|computer   vote a substitute into a seat given up
            (others: /game sub yes|no; /game sub withdraw; /game sub lists what is open;
            <name>: someone who has typed here; match=N: another match)
  /league new|join|leave|start|standings|list|cancel   a server's league (/league: how)
  /use <match>           switch the match this console is looking at (the rest act on it)
  /play <move>           make a move (notation or the exact label)
  /moves                 your legal moves with their notation (or who is to move)
  /moves <page>|<text>   another page of them, or only those containing the text
  /hint                  the best moves found for you now; /hint <n> plays the n-th
  /board   /hand [match]   /history [N]   /resign   /rules [game]
  /undo [yes|no]         take back your latest move with the computer moves after it
            (not once tiles or cards came to light, nor once another person moved);
            the other people must agree (computers agree at once)
  /history replay [match]   save a match as an animated picture (public boards only)
  /review [match]        a finished match's biggest moments per player, with pictures
  /notify [mode=mention|dm|off reminder_hours=H quiet_from=H quiet_to=H utc_offset=H
            heads_up=on|off]   your alerts (without options: show them)
  /leaderboard [game]    ratings of this console's players (rated=on|off in /game new)
  /stats [name] [game]   a player's stats   /stats server [game]   everyone's totals
  /lang [code]           your language (replies, hand, matches you open): {languages}
  /export [match] [file] write the game record as JSON   /audit   /help   /quit
  /notify away <days>    pause your clocks and reminders (at most 14 days in any 30)
  /notify back           end it early: your clocks run again with the time they had left"""

ENGLISH: dict[str, str] = {
    # ----- command and option descriptions (Discord limit: 100 characters) -----------
    "cmd.game": "Open, join, start, list and manage matches",
    "cmd.game.new": "Open a lobby for a new match in a thread of this channel",
    "cmd.game.join": "Join the match lobby of this thread (or the match with that number)",
    "cmd.game.leave": "Leave the match lobby of this thread (or the match with that number)",
    "cmd.game.start": "Start the match of this thread once enough players joined",
    "cmd.game.list": "The matches waiting for you in every server, then this server's matches",
    "cmd.game.abort": "Close a lobby, vote to abort a running match, or end it as a manager",
    "cmd.game.settings": "Reminders and clock of the match of this thread (creator or manager)",
    "cmd.play": "Make a move in the match of this thread (leave empty for a guided panel)",
    "cmd.board": "Post the current board of the match of this thread again",
    "cmd.hand": "See your private hand (only you can see the answer)",
    "cmd.history": "The latest moves of the match of this thread",
    "cmd.resign": "Give up the match of this thread",
    "cmd.undo": "Take back your last move, or agree to another player's request",
    "cmd.rules": "A short summary of a game's rules and where to read them in full",
    "cmd.notify": "How Tessera tells you it is your turn: mention, direct message or off",
    "cmd.sync": "Bot owner only: publish the slash commands to Discord",
    "opt.game": "Which game to play",
    "opt.players": "Most players allowed in the lobby (default: the game's maximum)",
    "opt.options": "Game options as key=value pairs, comma-separated, e.g. grey_wall=yes",
    "opt.clock_days": "Days each player has per move (0 or empty: no clock)",
    "opt.match": "Match number (default: the match of this thread)",
    "opt.move": "Your move: start typing and pick one of your legal moves",
    "opt.count": "How many moves to show",
    "opt.refuse": "Refuse another player's request to take back a move",
    "opt.mode": "Mention in the thread, a direct message as well, or no pings",
    "opt.reminder_hours": "Hours between reminders while it is your turn (0: no reminders)",
    "opt.quiet_from": "Quiet hours start (hour of day, your time): no reminders then",
    "opt.quiet_to": "Quiet hours end (hour of day, your time)",
    "opt.utc_offset": "Your time zone as hours from UTC, e.g. 1 or -5 (for quiet hours)",
    "opt.heads_up": "Send a direct message when you are probably next to move",
    "opt.reminder_max": "Reminders per turn before they stop",
    "opt.clock_action": "What happens when the clock runs out",
    "opt.scope": "Where to publish: everywhere, or the development server only",
    "opt.page": "Which page of the list (when there are many matches)",
    "choice.mode.mention": "Mention me in the match thread",
    "choice.mode.dm": "Mention me and send a direct message",
    "choice.mode.off": "No pings or reminders",
    "choice.action.skip": "Move for the late player: the game's pass, else a simple move",
    "choice.action.forfeit": "The late player forfeits (3+ players: a computer takes the seat)",
    "choice.scope.global": "Everywhere (takes up to an hour)",
    "choice.scope.guild": "Development server only (instant)",
    # ----- buttons -----------------------------------------------------------------
    "btn.join": "Join",
    "btn.leave": "Leave",
    "btn.start": "Start",
    "btn.play": "Make a move",
    "btn.hand": "My hand",
    "btn.back": "Back",
    "btn.confirm": "Play: {label}",
    "btn.mute": "Mute for this turn",
    "btn.resign": "Yes, resign",
    "select.placeholder": "Choose…",
    # ----- replies -----------------------------------------------------------------
    "err.generic": "Something went wrong on our side; nothing was changed. Please try again.",
    "err.db_not_saved": (
        "Our database did not answer, so your move was not saved and nothing was changed. "
        "Please try again in a moment."
    ),
    "err.db_down": (
        "Our database did not answer, so nothing was changed. Please try again in a moment."
    ),
    "err.db_unknown": (
        "We lost contact with our database in the middle of this, so we cannot tell whether "
        "it was done. Look again in a minute, and try again if it was not."
    ),
    "err.db_unconfirmed": (
        "We lost contact with our database while saving your move, so we cannot tell yet "
        "whether it was saved. If it was, it will appear in the match within a minute; "
        "if it does not, please play it again."
    ),
    "err.no_match_here": (
        "There is no match in this channel. Use this command in a match thread, "
        "or give the match number."
    ),
    "err.guild_only": "Matches are played in server channels, not in direct messages.",
    "err.not_your_match": (
        "This is not your match, so its buttons are not for you — you are welcome to watch!"
    ),
    # ----- refusals written by the match service (bot/matches/) ------------------
    "svc.no_match": "There is no match #{match}.",
    "svc.no_game": "There is no game called “{game}”. Games: {games}.",
    "svc.started": "Match #{match} has already started.",
    "svc.over": "Match #{match} is over.",
    "svc.joined": "You have already joined match #{match}.",
    "svc.full": "Match #{match} is full (players: {players}).",
    "svc.leave_started": "The match has started; use /resign to give up.",
    "svc.not_in": "You are not in match #{match}.",
    "svc.changed_start": "The match changed while starting it; try again.",
    "svc.already_over": "Match #{match} is already over.",
    "svc.changed": "The match changed meanwhile; try again.",
    "svc.not_started": "Match #{match} has not started yet.",
    "svc.over_moves": "Match #{match} is over; no more moves can be made.",
    "svc.board_changed": "The board changed meanwhile; try again.",
    "svc.clock_reset": "The match moved on; the clock was reset.",
    "svc.clock_seat": "The match no longer waits for that seat; the clock was reset.",
    "svc.no_undo": "There is no move to take back.",
    "svc.undo_own": "You can only take back your own move, and only the latest one.",
    "svc.no_request": "There is no open request to take back a move.",
    "svc.own_request": "You asked for this undo; the other players must agree.",
    "svc.undo_changed": "The board changed meanwhile; nothing was taken back.",
    "svc.not_seated": (
        "You are not playing in match #{match}; only its players can do that. "
        "You are welcome to watch."
    ),
    "svc.lobby_expired.one": (
        "The lobby of match #{match} has expired (nobody started it within {n} day). "
        "Open a new one with /game new."
    ),
    "svc.lobby_expired.other": (
        "The lobby of match #{match} has expired (nobody started it within {n} days). "
        "Open a new one with /game new."
    ),
    "svc.too_few.one": "{game} needs at least {min} players; {n} has joined so far.",
    "svc.too_few.other": "{game} needs at least {min} players; {n} have joined so far.",
    "svc.button_stale": (
        "The board has changed since that button was made; look at the latest board "
        "and choose again."
    ),
    "svc.moved_first": (
        "The board changed while you were moving (someone else's move landed first); "
        "look at the latest board and choose again."
    ),
    "svc.undo_revealed": (
        "That move cannot be taken back: new tiles or cards came to light after it."
    ),
    "svc.lobby_status": "Waiting for players ({count}/{max}; {min} needed to start)",
    "post.begins": "{game} begins with {names}.",
    "undo.taken_back": "{name} took back “{move}”.",
    "history.seat": "seat {seat}",
    "result.line": "{rank}. {name} — {score}",
    "unit.points.one": "{n} point",
    "unit.points.other": "{n} points",
    "unit.gold.one": "{n} gold",
    "unit.gold.other": "{n} gold",
    "err.not_your_turn": "It is not your turn; waiting for {waiting}.",
    "err.board_changed": (
        "The board has changed since this button was made; look at the latest board "
        "and choose again (or use /play)."
    ),
    "err.match_not_running": "Match #{match} is not running.",
    "err.other_server": "There is no match #{match} in this server.",
    "err.discord": (
        "Discord did not take one of my answers just now. Your action may have gone "
        "through: look at the latest post in the match thread before trying again."
    ),
    "err.unknown_button": (
        "This button no longer does anything (it may come from an older version of the "
        "bot). Use /play or the buttons under the latest turn post."
    ),
    "err.bad_options": (
        "I could not read the options “{text}”: write them as key=value, key=value."
    ),
    "err.option_twice": "{name} is given twice; give each option once.",
    "err.bad_choice": "{name} is one of: {choices}.",
    "err.cannot_thread": (
        "I could not open a thread here (missing permission to create threads?). "
        "The lobby was closed."
    ),
    "err.not_creator": "Only the match's creator or a server manager can change that.",
    "err.not_owner": "Only the bot's owner can do that.",
    "err.bad_hour": "Hours of the day go from 0 to 23.",
    "err.bad_number": "{name} must be between {low} and {high}.",
    # ----- option values (bot/matches/option_table.py) -------------------------------
    "options.bad_value": "{name}={value} is not allowed: {name} takes {allowed}.",
    "options.allowed.bool": "on or off (also true/false, yes/no)",
    "options.allowed.choice": "one of {choices}",
    "options.allowed.whole": "a whole number from {low} to {high}",
    "options.allowed.number": "a number from {low} to {high}",
    "options.allowed.whole_from": "a whole number, at least {low}",
    "options.allowed.number_from": "a number, at least {low}",
    "options.unknown": "/game {command} has no option {name}; its options are: {names}.",
    "options.match_over": "Match #{match} has ended: its settings can no longer change.",
    "options.creator_only": "Only the player who opened the lobby can choose the game's options.",
    "btn.game_options": "Game options",
    "options.form.title": "{game}: the game's options",
    "options.form.seat": "Seat {n}",
    "options.form.seat_named": "Seat {n}: {name}",
    "options.form.azul.grey_wall": "Grey wall variant",
    "options.form.taj_mahal.last_player_may_play": "The last player in a visit may play on",
    "options.form.taj_mahal.palace_per_influence_tile": "A palace for each tile won at court",
    "options.form.taj_mahal.first_player": "Who starts the first visit",
    "options.form.maharani.two_player_seats": "Where two players sit",
    "options.form.maharani.refresh_as_pass": "Refreshing with all markers up is a pass",
    "options.form.pastiche.max_offers_per_turn": "Trade offers per turn, at most",
    "options.form.changed": "{user} changed the game's options of match #{match} — {options}.",
    "err.unknown_form": "This form is not one the bot knows any more; open it again.",
    "options.none": "This game has no options of its own.",
    "flood.member": (
        "You are acting faster than the bot allows (commands and clicks in a short time: at "
        "most {n}); try again {when}."
    ),
    "flood.server": (
        "This server is sending the bot more than it allows (commands and clicks in a short "
        "time: at most {n}); try again {when}."
    ),
    "flood.lobbies_member": (
        "You have reached the limit of open lobbies ({max}): start or close one "
        "(/game abort) before opening another."
    ),
    "flood.lobbies_server": (
        "This server has reached the limit of open lobbies ({max}): start or close some "
        "before opening another."
    ),
    "flood.running_member": (
        "You have reached the limit of running matches you opened on this server ({max}): "
        "finish some before opening another."
    ),
    "flood.replays_member": (
        "Your replays are still being made (at most {max} at a time); ask again once one is posted."
    ),
    "flood.replays_server": (
        "The most replays this server may have made at once ({max}) are being made; ask "
        "again once one is posted."
    ),
    "err.no_hidden": "{game} has no hidden hands; everything is on the board.",
    "err.unknown_game": "There is no game called “{game}”.",
    "lobby.opened": "{user} opened a lobby for **{game}** (match #{match}): {thread}",
    "lobby.post": (
        "**{game}** — match #{match}, opened by {user}.\nPlayers: {min}–{max}. Press **Join** "
        "to take a seat; anyone seated can press **Start** once enough players joined."
    ),
    "lobby.joined": "{user} joined match #{match} ({count}/{max}): {players}",
    "lobby.left": "{user} left match #{match}.",
    "lobby.left_closed": "{user} left; the lobby of match #{match} is closed.",
    "lobby.started": "{user} started match #{match}. The board follows.",
    "match.aborted": "Match #{match} was aborted.",
    "list.empty": "No open or running matches on this server.",
    "list.head": "Matches on this server:",
    "list.line": "#{match} **{game}** — {status} — {players}{thread}",
    "list.page.one": "Page {page} of {pages} ({n} match): /game list page:{next}",
    "list.page.other": "Page {page} of {pages} ({n} matches): /game list page:{next}",
    "list.no_page.one": "There is no page {page}: the list has {n} page.",
    "list.no_page.other": "There is no page {page}: the list has {n} pages.",
    # ----- your matches from everywhere, and the commands of a DM with the bot ----------
    "list.waiting": "**Waiting for you:**",
    "list.waiting_none": "Nothing is waiting for you right now.",
    "list.waiting_line": "#{match} **{game}**{server} — {link}{due}",
    "list.server": " · {server}",
    "list.due": " — your time to move runs out {when}",
    "list.mine": "**Your other matches:**",
    "list.none_yours": (
        "You are not in any open or running match. Open one in a server with /game new."
    ),
    "err.dm_elsewhere": (
        "{command} is used in a server: in the match's thread, or in the channel where "
        "matches are opened. Here in our direct messages you can use /game list, /hand, "
        "/stats player, /notify and /rules."
    ),
    "hand.which": (
        "You hold a hand in several matches: {matches}. Choose one below, or type "
        "/hand match:<number>."
    ),
    "hand.none": "You hold no hidden hand in any running match.",
    "stats.only_yours": (
        "Here in our direct messages /stats player shows your own figures, from every "
        "server. Ask about another player in a server you share."
    ),
    "stats.player.head_everywhere": "**Stats of {name}** in every server:",
    "stats.player.none_everywhere": "{name} has not played a match in any server yet.",
    "rules.which": "Which game? Choose it in /rules game:, or use /rules in a match thread.",
    "reply.see_private": "{user}: this did not work out; I told you why privately.",
    "settings.saved": "Saved for match #{match}: {summary}",
    "settings.none": "Nothing changed. Current settings of match #{match}: {summary}",
    "settings.summary": (
        "reminders every {hours} h (at most {max} per turn), clock: {clock}, "
        "when it runs out: {action}"
    ),
    "settings.no_clock": "none",
    "settings.clock.one": "{n} day per move",
    "settings.clock.other": "{n} days per move",
    "play.done": "You played: {label}",
    "play.private": "Only for you: {text}",
    "play.playing": "Playing “{label}”…",
    "panel.head": "Match #{match} — choose your move.",
    "panel.path": "So far: {path}",
    "panel.more.one": "Showing {shown} of {n} choice; type /play to search all of them.",
    "panel.more.other": "Showing {shown} of {n} choices; type /play to search all of them.",
    "panel.picked": "{pick} → {chosen}",
    "panel.none": "none",
    "panel.none_button": "None",
    "panel.composed": "Ready: `{notation}`",
    "hand.caption": "Your hand in match #{match} (only you can see this).",
    "history.empty": "No moves yet.",
    "history.head": "Latest moves of match #{match}:",
    "resign.confirm": (
        "Do you really want to give up match #{match}? With two players the other "
        "wins; with more, a computer player plays your seat to the end and you are "
        "ranked last."
    ),
    "resign.done": "You resigned match #{match}.",
    "resign.done_handed": (
        "You resigned match #{match}. A computer player plays your seat to the end; "
        "you are ranked last."
    ),
    "undo.done": "Your move was taken back.",
    "undo.asked": "Asked the other players; the move is taken back once they all agree.",
    "undo.agreed": "You agreed; waiting for the others.",
    "undo.refused": "You refused; the move stays.",
    "undo.request": "{name} asks to take back “{move}”. Everyone else: answer with /undo "
    "(agree) or /undo refuse:True (refuse); any new move cancels the request.",
    "undo.request_seen": "{name} asks to take back “{move}”. Everyone has seen that move, "
    "so everyone must agree: answer with /undo (agree) or /undo refuse:True (refuse); any "
    "new move cancels the request.",
    "undo.request_computers": "{name} asks to take back “{move}” and the computer moves that "
    "followed it. Everyone else: answer with /undo (agree) or /undo refuse:True (refuse); "
    "any new move cancels the request.",
    "undo.already_asked": "You have already asked; the others were told and answer with /undo.",
    "undo.refused_post": "{name} refused {asker}'s request to take a move back; the move stays.",
    "undo.taken_back_answer": "The computer's answer “{move}” ({name}) was taken back with it.",
    # ----- issue 41 leftovers: history, posts, stats, settings words (s41) -----
    "undo.took_back": "{name} took back a move: {told}",
    "undo.took_back_answer": "Taken back with it: {told}",
    "settings.action.skip": "a move is made for the late player",
    "settings.action.forfeit": "the late player forfeits",
    "settings.game_options": "; {game}: {options}",
    "settings.option.azul.grey_wall": "grey wall variant: {value}",
    "settings.option.maharani.two_player_seats": "two players sit on {value}",
    "settings.option.maharani.two_player_seats.opposite": "facing sides",
    "settings.option.maharani.two_player_seats.adjacent": "neighbouring sides",
    "settings.option.maharani.refresh_as_pass": (
        "a refresh with every marker face up is a pass: {value}"
    ),
    "settings.option.taj_mahal.last_player_may_play": (
        "the last player left in a visit may play on: {value}"
    ),
    "settings.option.taj_mahal.palace_per_influence_tile": (
        "a palace for each tile won at the court: {value}"
    ),
    "settings.option.taj_mahal.first_player": "seat {next} starts the first visit",
    "settings.option.pastiche.max_offers_per_turn": "trade offers per turn: at most {value}",
    # ----- end of the s41 block -----
    "post.asked": "Waiting for an answer from {mentions}",
    "post.told": "For {mentions}",
    # the console's own wording of texts whose Discord wording names buttons, clicks or
    # slash options (bot/console/wording.py says which stands for which)
    "console.hint_head": "Best moves found for you now (only you see this):",
    "console.button_stale": (
        "The board has changed since those moves were found; look at the latest board "
        "and choose again."
    ),
    "console.undo_request": "{name} asks to take back “{move}”. Everyone else: answer with "
    "/undo yes (agree) or /undo no (refuse); any new move cancels the request.",
    "console.undo_request_seen": "{name} asks to take back “{move}”. Everyone has seen that "
    "move, so everyone must agree: answer with /undo yes (agree) or /undo no (refuse); any "
    "new move cancels the request.",
    "console.undo_request_computers": "{name} asks to take back “{move}” and the computer "
    "moves that followed it. Everyone else: answer with /undo yes (agree) or /undo no "
    "(refuse); any new move cancels the request.",
    "console.sub_computer_needs_seat": (
        "A computer player can only be voted into a seat that was given up or left: "
        "/game sub seat=N computer. To leave your own seat to a computer player, use /resign."
    ),
    "console.sub_bot": (
        "Only people can be asked to take a seat; for a computer player, vote one into "
        "a deserted seat with /game sub seat=N computer."
    ),
    "console.sub_own_computer": (
        "To leave your own seat to a computer player, use /resign; to hand it to a person, "
        "name them: /game sub <name>."
    ),
    "console.sub_seat_taken": (
        "{name} still plays seat {seat}: only they can hand it on (/game sub <name>) or resign it."
    ),
    "console.sub_vote_already_open": (
        "A vote on seat {seat} is already open ({to}): vote on it with /game sub yes {seat} "
        "or /game sub no {seat}, or wait until it is decided."
    ),
    "console.sub_offer_post": (
        "{holder} offers their seat in match #{match} ({game}) to {to}. {to}: type /game sub "
        "accept to play on from here (with the seat's hand and turn), or /game sub decline. "
        "The offer lapses: {when}."
    ),
    "console.sub_vote_post": (
        "{by} proposes {to} for seat {seat} ({holder}, {why}) in match #{match}. Players "
        "still seated: vote with /game sub yes {seat} or /game sub no {seat} — votes so "
        "far: {votes} of {needed} needed. The vote lapses: {when}."
    ),
    "console.sub_left_post": (
        "{name} left. The other players may vote a substitute or a computer player into "
        "seat {seat}: /game sub seat={seat} <name> (or /game sub seat={seat} computer)."
    ),
    "console.asked": "  → {names}: your answer is asked",
    "console.told": "  → {names}: for you to know",
    "rules.text": "**{game}** (players: {min}–{max})\n{summary}\n\nHow to move: {notation}\n{more}",
    "rules.url": "Full rules: {url}",
    "rules.file": (
        "Full rules: `docs/rules/{game}.md` in the Tessera repository; how to type "
        "moves and our rule decisions: `docs/{game}.md`."
    ),
    "notify.saved": "Saved. {summary}",
    "notify.unchanged": "Nothing changed. {summary} To change them: {form}",
    "notify.summary": (
        "Turn alerts: {mode}; {reminders}; quiet hours: {quiet}; heads-up: {heads_up}."
    ),
    "notify.quiet_none": "none",
    "notify.quiet": "{start}:00–{end}:00 (UTC{offset:+g})",
    "notify.reminders_every": "reminders every {hours} h",
    "notify.reminders_default": "reminders as each match sets them",
    "yes": "on",
    "no": "off",
    "mode.mention": "mention in the thread",
    "mode.dm": "mention and direct message",
    "mode.off": "off",
    "mute.done": "Reminders muted until the board changes.",
    "sync.done.one": "Published {n} command ({scope}).",
    "sync.done.other": "Published {n} commands ({scope}).",
    # ----- computer players and hints ----------------------------------------------
    "cmd.hint": "Privately see the best moves found for you now, with reasons; click to play",
    "opt.bots": "Computer players to seat in the lobby at once (default: none)",
    "opt.level": "Level of those computer players (default: normal)",
    "opt.hints": "Allow /hint in this match (default: on; turn off for serious matches)",
    "opt.think_seconds": "Seconds a computer player may think per move (default: 2)",
    "choice.level.easy": "Easy",
    "choice.level.normal": "Normal",
    "choice.level.strong": "Strong",
    "btn.add_computer": "Add computer player ({level})",
    "btn.remove_computer": "Remove a computer player",
    "ai.name": "🤖 {name} ({level})",
    "ai.bad_level": "Computer players come in these levels: {levels}.",
    "ai.level_not_offered": (
        "{game} has no {level} computer player: measured, thinking three times as long "
        "did not play measurably better than normal there. Levels for {game}: {levels}."
    ),
    "ai.full": "Match #{match} is full (players: {max}); no seat is left for a computer player.",
    "ai.none_seated": "There is no computer player in match #{match} to remove.",
    "ai.too_many": "{game} seats {max} at most; computer seats left beside you: {room}.",
    "lobby.computer_added": "{name} takes a seat in match #{match} ({count}/{max}): {players}",
    "settings.computers": "; hints: {hints}; computer players think {seconds} s per move",
    "settings.language": "; posts and pictures in {language}",
    "opt.language": "Language of the match's posts and pictures (default: the server's)",
    "err.bad_language": "Matches can be played in these languages: {languages}.",
    "lobby.with_computers": "Computer players in match #{match}: {names}",
    "lobby.computer_removed": "{name} left match #{match}.",
    "hint.off": "Hints are turned off in match #{match}.",
    "hint.not_your_turn": "Hints are for your own decisions; waiting for {waiting}.",
    "hint.none": "No hint could be found just now; please try again.",
    "hint.head": "Best moves found for you now (only you see this; click one to play it):",
    "hint.line": "{n}. **{label}** — {reason}",
    "console.away_usage": "Type /notify away <days> (1–14) or /notify back.",
    "console.hint_line": "  {n}. {label}  [{notation}] — {reason}",
    "console.hint_foot": "Play one with /hint <number>, or any move with /play.",
    "console.hint_pick": "Type /hint first, then /hint <number> to play one of them.",
    "console.hint_stale": "Those hints were for an older board; ask again with /hint.",
    "console.computer_usage": "Use /game bot [easy|normal|strong] or /game unbot.",
    "console.your_move": "It is your move: /moves lists your moves.",
    "console.to_move": "{names} to move: type {typed}> /moves, then {typed}> /play <move>.",
    "console.waiting": "Waiting for {names} (computer players move by themselves).",
    "console.options": "“{word}” is not one of these options: {names} (as name=value).",
    "console.sub_none": "No seat is offered and no vote is open in this match.",
    "console.sub_usage": (
        "Use /game sub <name> (your seat), /game sub seat=N <name>|computer (a vote), "
        "or /game sub accept|decline|yes|no|withdraw [seat]."
    ),
    "console.sub_answer": "({typed}> /game sub accept, or {typed}> /game sub decline)",
    "console.sub_vote": "(The others: /game sub yes {seat} or /game sub no {seat})",
    "console.sub_which": "Several are open: add the seat number, e.g. /game sub yes 2.",
    "console.lang_usage": "Type /lang and one of these languages: {languages}.",
    "console.lang_current": (
        "This console speaks {language} ({code}). To change it, type /lang and one of: {languages}."
    ),
    "console.post": "[match #{match}] {text}",
    "console.picture": "  picture: {path}",
    "console.alt": "  in words: {text}",
    "console.your_turn": "  → {names}: your turn",
    "console.private_to": "[private to {name}] {text}",
    "console.private": "(private to {name}) {text}",
    "console.slash_first": "Commands start with / — type /help.",
    "console.who_first": "Say who is typing first, e.g. `alice> /game new azul`.",
    "console.unreadable": "Could not read that line: {error}.",
    "console.type_help": "Type /help.",
    "console.no_match": "No match selected: open one with /game new, or /use <match>.",
    "console.no_command": "There is no /{command} command. Type /help.",
    "console.help": _CONSOLE_HELP,
    "console.which_game": "Which game? /game new <game>; games: {games}.",
    "console.option_form": "Options look like name=value; “{word}” does not.",
    "console.needs_number": "{name}= needs a number.",
    "console.opened": (
        "Match #{match} ({game}) is open. Others join with /game join {match}; "
        "start with /game start."
    ),
    "console.started": "Match #{match} started.",
    "console.list_empty": "No open or running matches.",
    "console.list_line": "#{match} {game} [{status}] {players} — {text}",
    "console.status.lobby": "lobby",
    "console.status.running": "running",
    "console.status.finished": "finished",
    "console.status.aborted": "aborted",
    "console.game_usage": (
        "Use /game new, join, leave, start, list, bot, unbot, abort, settings, options or sub."
    ),
    "console.not_a_number": "“{text}” is not a match number.",
    "console.stray": "/{command} does not take “{words}”; type /help to see its form.",
    "console.stray_match": (
        "/{command} acts on the match you are looking at (#{match}) and does not take "
        "“{words}”; to act on another match, type /use <number> first."
    ),
    "console.no_player": (
        "Nobody called “{name}” plays in this console (players: {names}). A new player "
        "first types a line as themselves, e.g. `{typed}> /help`."
    ),
    "console.stats_word": (
        "“{word}” is neither a game ({games}) nor a player of this console ({names})."
    ),
    "console.looking": "Now looking at match #{match} ({game}): {status}",
    "console.also": "  Also: {label} — type it, e.g. `/play {key} …` (see /rules).",
    "console.no_moves": "You have no move to make right now.",
    "console.moves_head.one": "Your {n} legal move:",
    "console.moves_head.other": "Your {n} legal moves:",
    "console.moves_containing.one": "Your {n} legal move containing “{text}”:",
    "console.moves_containing.other": "Your {n} legal moves containing “{text}”:",
    "console.moves_none_contain": "None of your legal moves contains “{text}”.",
    "console.moves_page": (
        "Page {page} of {pages}: /moves <page> shows another page, /moves <text> only the "
        "moves whose notation or label contains the text."
    ),
    "console.moves_no_page.one": "There is no page {page}: your moves fit on {n} page.",
    "console.moves_no_page.other": "There is no page {page}: your moves fit on {n} pages.",
    "console.undo_agreed": "You agreed to take the move back.",
    "console.undo_asked": ("Undo requested; the other players must agree (/undo yes or /undo no)."),
    "console.undo_words": (
        "/undo takes yes or no (your answer to a request), or nothing; not “{word}”."
    ),
    "console.rules_usage": "/rules <game>; games: {games}.",
    "console.rules_head": "{game} (players: {min}–{max})",
    "console.exported": "Game record written to {path}",
    "console.leaderboard_usage": "/leaderboard <game>; games: {games}.",
    "console.audit_ok": "Audit: every match rebuilds exactly from its seed and moves.",
    "console.audit_problem": "Audit: match #{match}: {problem}",
    "console.lang_set": (
        "Language: {language}. Your replies and your hand use it from now on, and so do "
        "the posts and pictures of the matches you open."
    ),
    # ----- a lobby closed before it started (everyone left, or its creator closed it) --
    "svc.closed_unstarted": "Match #{match} was closed before it started.",
    # ----- records, resigning, ending a match ---------------------------------------
    "record.hidden": (
        "The match is still running: its seed, secret cards and scores from hidden "
        "cards are added once it is over."
    ),
    "resign.text": "{name} resigned.",
    "resign.label": "{name} resigned; {computer} plays the seat on",
    "resign.handed_over": (
        "{name} resigned. {computer} takes over the seat and plays it to the end; "
        "{name} is ranked last whatever the seat scores."
    ),
    "result.resigned_seat": "{name} (for {resigner}, who resigned)",
    "result.wins": "🏆 {name} wins!",
    "result.shared": "🏆 Shared victory: {names}",
    "result.ended": "{what} — {head}",
    "end.resigned": "{name} resigned",
    "end.forfeit": "{name} ran out of time and forfeits",
    "end.forfeit_text": "{name} ran out of time and forfeits.",
    "end.wins": "{names} wins",
    "end.win_shared": "shared victory: {names}",
    "end.early": "{what} — {wins}",
    "end.over_resigned": "Game over — {wins} ({names} resigned)",
    "end.aborted": "Aborted",
    "end.aborted_by": "Aborted by {name}",
    "end.lobby_empty": "Aborted: everyone left the lobby",
    "end.aborted_post": "Match #{match} is over. {words}.",
    "end.aborted_vote": "Aborted by a vote of the players ({names})",
    "end.aborted_manager": "Aborted by a server manager ({name}): {reason}",
    "end.aborted_by_reason": "Aborted by {name}: {reason}",
    "end.aborted_vote_reason": "Aborted by a vote of the players ({names}): {reason}",
    # ----- clocks running out, away -----------------------------------------------
    "clock.timed_label": "(out of time) {label}",
    "clock.timed_told": "(out of time) {told}",
    "clock.label": "{name} ran out of time; {computer} plays the seat on",
    "clock.handed_over": (
        "{name} ran out of time. {computer} takes over the seat and plays it to the end; "
        "{name} is ranked last whatever the seat scores."
    ),
    "result.forfeited_seat": "{name} (for {resigner}, who ran out of time)",
    "end.over_forfeit": "Game over — {wins} ({names} ran out of time)",
    "end.over_gave_up": "Game over — {wins} ({names} resigned or ran out of time)",
    "away.status": "{name} is away until {date}",
    "away.band": "{name} away until {date}",
    "away.set": (
        "You are away until {date}: your clocks and reminders are paused in all your "
        "matches, and a paused clock resumes with the time it had left. `/notify back` "
        "ends it early."
    ),
    "away.refused.one": (
        "You can be away at most {max} days in any {window} days; you have {n} day left now."
    ),
    "away.refused.other": (
        "You can be away at most {max} days in any {window} days; you have {n} days left now."
    ),
    "away.back": "Welcome back: your clocks run again, with the time they had left.",
    "away.not_away": "You are not away; nothing changed.",
    "away.both": "Choose either away or back, not both.",
    "opt.away": "Days you are away (1–14): pauses your clocks and reminders in all matches",
    "opt.back": "True: you are back early, your clocks run again",
    "abort.lobby_creator": "Only the match's creator or a server manager can close a lobby.",
    "abort.vote_only": (
        "Only the players of a running match can vote to abort it "
        "(a server manager can end it with a reason)."
    ),
    "abort.not_seated": (
        "You are not playing in this match: as a server manager, give a reason "
        "(it is posted in the thread) to end it."
    ),
    "abort.already_voted": (
        "You have already voted to abort this match; it ends once most players have."
    ),
    "abort.vote_post": (
        "{name} votes to abort match #{match} (votes: {votes} of {needed} needed). Others "
        "who agree: /game abort. The match goes on meanwhile."
    ),
    "abort.voted": "Your vote to abort match #{match} counts ({votes} of the {needed} needed).",
    "abort.vote_post_reason": (
        "{name} votes to abort match #{match}: “{reason}” (votes: {votes} of {needed} "
        "needed). Others who agree: /game abort. The match goes on meanwhile."
    ),
    "opt.reason": (
        "Why (shown with your vote or the closing); a server manager's reason ends the "
        "match at once"
    ),
    # ----- substitutes (/game sub) -------------------------------------------------
    "cmd.game.sub": "Hand your seat to someone, or vote a substitute into a deserted seat",
    "opt.sub_new": "Who takes over the seat",
    "opt.sub_seat": "Vote on this seat (given up or left); leave empty to hand on your own",
    "opt.sub_computer": "Vote a computer player into the seat instead of a person",
    "btn.sub_accept": "Take the seat",
    "btn.sub_decline": "Decline",
    "btn.sub_withdraw": "Withdraw",
    "btn.sub_yes": "Vote yes",
    "btn.sub_no": "Vote no",
    "sub.a_computer": "a computer player",
    "sub.need_someone": (
        "Name who should take over: new:@someone (or computer:True with seat:N for a "
        "computer player in a deserted seat)."
    ),
    "sub.computer_needs_seat": (
        "A computer player can only be voted into a seat that was given up or left: "
        "add seat:N. To leave your own seat to a computer player, use /resign."
    ),
    "sub.bot": (
        "Only people can be asked to take a seat; for a computer player, vote one into "
        "a deserted seat with computer:True."
    ),
    "sub.not_member": "{name} is not a member of this server, so cannot take a seat here.",
    "sub.self": "That seat is already yours.",
    "sub.already_seated": "{name} already plays in match #{match}.",
    "sub.gave_up_before": "{name} gave up a seat in this match and cannot take one again.",
    "sub.own_computer": (
        "To leave your own seat to a computer player, use /resign; to hand it to a person, "
        "name them with new:@someone."
    ),
    "sub.not_voter": "Only the players still seated in match #{match} vote on a substitute.",
    "sub.no_seat": "There is no seat {seat}; this match has seats 1–{n}.",
    "sub.seat_chosen": (
        "Seat {seat} is a computer player the table chose in the lobby; only seats that "
        "were given up, or whose player left the server, can be voted on."
    ),
    "sub.seat_taken": (
        "{name} still plays seat {seat}: only they can hand it on (/game sub new:@someone) "
        "or resign it."
    ),
    "sub.vote_already_open": (
        "A vote on seat {seat} is already open ({to}): vote on it with its buttons, or "
        "wait until it is decided."
    ),
    "sub.no_offer": "That offer or vote is no longer open.",
    "sub.no_vote_own": "{holder} is handing on their own seat; there is nothing to vote on.",
    "sub.already_voted": "You have already voted on this.",
    "sub.not_for_you": "This seat is offered to {name}; only they can take it or decline it.",
    "sub.not_proposer": "Only {name}, who made this offer, can withdraw it.",
    "sub.busy": "The match changed meanwhile; please try again.",
    "sub.offer_post": (
        "{holder} offers their seat in match #{match} ({game}) to {to}. {to}: press **Take "
        "the seat** to play on from here (with the seat's hand and turn), or **Decline**. "
        "The offer lapses: {when}."
    ),
    "sub.vote_post": (
        "{by} proposes {to} for seat {seat} ({holder}, {why}) in match #{match}. Players "
        "still seated: vote with the buttons — votes so far: {votes} of {needed} needed. "
        "The vote lapses: {when}."
    ),
    "sub.vote_post_accept": "{to} takes the seat once the vote passes and they accept.",
    "sub.why.gave_up": "who gave it up; a computer plays it",
    "sub.why.computer": "replaced by a computer player",
    "sub.why.left": "who left the server",
    "sub.voted_for": "{name} votes for {to} in seat {seat} (votes: {votes} of {needed} needed).",
    "sub.voted_against": "{name} votes against {to} in seat {seat}.",
    "sub.failed_post": "The vote for {to} in seat {seat} failed: too many players are against.",
    "sub.declined_post": "{to} declined seat {seat} of match #{match}.",
    "sub.withdrawn_post": "{name} withdrew the offer of seat {seat}.",
    "sub.done_own": "{old} handed their seat to {new}, who plays it on from here.",
    "sub.done_vote": "By a vote of the players, {new} takes over seat {seat} from {old}.",
    "sub.label": "{old} → {new} (seat {seat})",
    "sub.left_post": (
        "{name} left the server. The other players may vote a substitute or a computer "
        "player into seat {seat}: /game sub seat:{seat} new:@someone (or computer:True)."
    ),
    "sub.done_answer": "Done: {to} holds seat {seat} of match #{match} now.",
    "sub.failed_answer": "The vote for {to} in seat {seat} failed.",
    "sub.declined_answer": "You declined seat {seat}.",
    "sub.withdrawn_answer": "Withdrawn: seat {seat} is not offered to {to} any more.",
    "sub.offer_open": "Offered to {to}. Unless they take it, the offer lapses: {when}.",
    "sub.waiting_accept": (
        "The vote for seat {seat} has passed; {to} takes it as soon as they accept."
    ),
    "sub.accepted_early": (
        "You take seat {seat} as soon as the players' vote passes (votes so far: {votes} of "
        "{needed} needed)."
    ),
    "sub.one_or_other": (
        "Name a person (new:@someone) or a computer player (computer:True), not both."
    ),
    "sub.vote_open": ("Your vote for {to} in seat {seat} counts ({votes} of the {needed} needed)."),
    # ----- command line (python -m bot …) ------------------------------------------
    "cli.bad_arguments": "{prog}: {message} (see {prog} --help)",
    "cli.no_database": (
        "There is no database at {path}: give the file with --db PATH "
        "(or set TESSERA_DATABASE_PATH / TESSERA_DATABASE_URL)."
    ),
    "cli.bad_database": "Cannot read the database at {path}: {error}",
    "cli.database_down": (
        "Cannot start: {error}. Start the database or correct TESSERA_DATABASE_URL, "
        "then start again."
    ),
    "cli.schema_newer": (
        "Cannot start: this database was upgraded by a newer Tessera (schema {found}); "
        "this code knows up to {known}; upgrade the code."
    ),
    "cli.bad_token": (
        "Discord refused the bot token: check DISCORD_TOKEN in .env or the environment "
        "(Developer Portal → your application → Bot → Reset Token, then paste the new one)."
    ),
    "cli.no_network": (
        "Cannot reach Discord at {host} ({reason}): check the network connection "
        "(or TESSERA_DISCORD_API) and start again."
    ),
    "cli.intents": (
        "Discord refused the Server Members intent: turn it on in the Developer Portal "
        "(Bot → Privileged Gateway Intents) or set TESSERA_MEMBERS_INTENT=false."
    ),
    "cli.demo_players": (
        "python -m bot demo: {n} is no player count for {game} (players: {low}–{high})."
    ),
    "cli.demo_option": ("python -m bot demo: options look like --option name=value, not “{item}”."),
    # ----- posts delivered by the outbox --------------------------------------------
    "post.to_act": "Your move: {mentions}",
    "post.clock": "⏰ Time to move runs out {when}.",
    "post.picture_next": "(The board has changed since: the next post shows it.)",
    "post.picture_follows": "(The board has changed since: the newest board follows.)",
    "dm.turn": "It is your turn in match #{match} ({game}): {link}",
    "dm.headsup": "Heads-up: you are probably next in match #{match} ({game}): {link}",
    "remind.post": "⏳ Reminder {mention}: match #{match} is waiting for your move.",
    "post.thread_locked": (
        "The thread of match #{match} ({thread}) is locked, so Tessera cannot post its moves "
        "there. A moderator can unlock the thread to let the match go on."
    ),
    "remind.dm": "⏳ Reminder: match #{match} ({game}) is waiting for your move: {link}",
    "remind.since": "Your turn began {since}.",
    # ----- permissions the bot lacks (bot/discord/permissions.py) ----------------------
    "post.no_attach": (
        "(The board cannot be shown: the bot lacks the Attach Files permission in this "
        "channel. The server's owner has been told.)"
    ),
    "perm.owner_dm": (
        "Tessera lacks Discord permissions it needs in {channel} on the server {server}: "
        "{permissions}. Until a server manager grants them to the bot's role (Edit Channel → "
        "Permissions), matches there post without their boards or wait."
    ),
    "perm.view_channel": "View Channel",
    "perm.send_messages": "Send Messages",
    "perm.send_messages_in_threads": "Send Messages in Threads",
    "perm.attach_files": "Attach Files",
    "perm.embed_links": "Embed Links",
    "perm.unknown": "a permission Discord did not name",
    # ----- layout posts (cards, bot/discord/cards.py) -------------------------------
    "card.title": "{game} · match #{match}",
    "btn.board": "Board",
    "btn.history": "History",
    "btn.hint": "Hint",
}
