"""Maharani (Wolfgang Panning, Queen Games 2012) for 2–4 players.

Rules reference: docs/rules/maharani.md. Component data (board, tiles, seats, rondel) is in
``data/maharani/*.json`` and validated on load (:mod:`rules.maharani.data`).

Rule decisions ([R] in the reference, implemented exactly) and readings of unclear text:

- Board [R]: 8×8 grid, centre 2×2 is the rondel, the four outer corners are not spaces;
  14 spaces per quarter; Q1 top-left lion, Q2 top-right monkey, Q3 bottom-right peacock,
  Q4 bottom-left elephant; pillar model C / H1 / HS / HL with every half pillar matched
  across its edge (board.json).
- Tiles [R]: per colour 2 C, 4 H1, 2 HS, 2 HL; colours blue, orange, red, green, purple,
  turquoise; half-pillar sides are given with the arrow pointing N, and placing with the
  arrow towards d turns them clockwise by N:0, E:1, S:2, W:3 quarter turns (tiles.json).
  A tile fits a space iff both are (or both are not) centre-pillar and the turned half-pillar
  sides equal the space's exactly.
- Seats [R] (geometry.json): clockwise order S → W → N → E; 4 players S, W, N, E;
  3 players S, W, N (E is empty; a tile arrow may point there and then nobody gets a worker);
  2 players opposite (S, N) by default, or adjacent (S, W) with the option
  ``two_player_seats``. Seat 0 sits at the first side; play passes seat 0 → 1 → …
- Rondel [R]: with the arrow at S, fields 1–4 lie over Q4, Q1, Q2, Q3; turning it clockwise
  moves every field one quarter clockwise. It always points at the player on turn, so every
  rondel tile's arrow points at that player.
- Action marker: a tile placed into another quarter flips the marker of its *source*
  quarter (the field it was taken from); a face-down source marker restricts that tile to its
  own quarter; placing into the own quarter never needs or flips a marker.
- Worker: mandatory when the placed tile's arrow points at the player on turn; an existing
  worker of that colour on a same-coloured tile in that quarter moves; else a new one from
  supply; none if the supply is empty. In 3/4-player games this is forced, so it happens
  without a move; in the 2-player variant every real choice (which colour for a new worker,
  move vs. new worker of the other colour, which of two workers moves) is a move
  ``new1/new2/move1/move2``; a single possibility is applied without asking.
- Gold: tile gold = size of the same-colour area containing the new tile (any owner, across
  quarter borders, scored quarters included); worker gold = size of the group of that
  player's workers *of the same worker colour* containing the placed/moved worker.
- Second tile: optional, same rules, 2 gold paid at the end of the turn. Offered only if some
  rondel tile still has a legal placement for that player; otherwise the turn ends at once.
- Refresh: only with a face-down marker to turn up. The rulebook (seed S1: "choose one of
  the two actions: place tiles, or refresh the action markers: turn all of them face up")
  has no pass, and a refresh with nothing face down was one: tables that passed to each
  other never ended. With every marker up a tile always fits somewhere (else the stall
  rule has ended the game), so every turn places a tile or turns a marker up and the game
  ends. If markers block every placement, refresh is the only move. House rule
  ``refresh_as_pass`` (off; on for every match stored before this reading, set by a
  migration step so old records replay): a refresh with every marker up is a pass; a
  state without the key (stored before) plays that way too.
- Centre-pillar surplus: when the last centre-pillar space is filled, centre-pillar tiles on
  the rondel leave the game at once; later ones drawn while refilling are set aside and the
  draw continues until the field is filled or the bag is empty.
- End of turn: pay 2 for a second tile, refill fields 1→4 from the bag (random draw with the
  stored RNG), score every quarter completed this turn (4/6/9/13/18/24 per player, per worker
  colour in the 2-player game; workers go home), then pass the turn.
- End: after the fourth quarter is scored. Stall [R]: at the start of a turn, if no rondel
  tile fits any empty space at all (markers ignored), the game stops and every unfinished
  quarter is scored as if complete. Ties share the victory (no tie-breaker).
- Clock: a timed-out player's default move is ``stop`` (after one tile); the start of a
  turn and a pending worker choice have none (the bot makes the easy computer move: a
  ``refresh`` default let a table of absent players pass forever).
- Gold by source (:mod:`rules.maharani.tally`): the state also keeps each seat's tile gold,
  worker gold and gold paid for second tiles, and each scored quarter's workers per seat;
  the view's ``sources`` gives them (and each quarter's gold), so the final picture shows
  the arithmetic. A state saved before they existed keeps playing without them.
- Commitments (``is_commitment``): none. Nothing is hidden in Maharani; an end of turn that
  drew tiles from the bag revealed them and is never taken back (``Event.reveals``).
"""

from rules.maharani.game import Maharani

GAME = Maharani()

__all__ = ["GAME", "Maharani"]
