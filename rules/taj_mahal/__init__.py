"""Taj Mahal (Reiner Knizia, 2000) for 3–5 players.

Rules: ``docs/rules/taj_mahal.md`` (authoritative) and the Hungarian summary seed. Data
(map, province tiles, bonus tiles, the 96-card deck, the 4 special cards and which pair of
influence tiles claims which) lives in ``data/taj_mahal/*.json`` and is validated on load.

Rule decisions ([R] = ours, [L] = likely), implemented exactly. This is the one list of
them all; the module holding each rule restates it in its own docstring: the deal, whose
decision it is and which cities a palace or crown may take in ``state.py``, the moves in
``moves.py``, a withdrawal's resolution in ``visit.py``, the end of a visit and of the game
in ``rounds.py``, typed notation in ``notation.py``, the options in ``state.Options``,
clocks and commitments in the engine that ties them together (``game.py``):

* [R] Road graph and fortress positions: the reconstructed map of section 13 (``map.json``).
* [R] Bonus tile mix: 3x +2 points, 3x +1 card, goods rice 1 / spice 2 / tea 3 / jewel 3;
  the Taj Mahal (+4) always on Agra's centre city.
* [R] Non-elephant card pairs: two complementary 5-cycles (red/green: cycle A,
  yellow/blue: cycle B) — 21 cards per colour.
* [L]/[R] Special cards claimed with two generals: +1 Elephant; two princesses: +2 Points;
  two viziers: +1 Grand Mogul; two monks: colour change (``special_cards.json``).
* [L] One palace per influence tile won (option ``palace_per_influence_tile``; off: one
  palace per withdrawal in total).
* [R] Colour-change card: the coloured card played with it may be of any colour; the colour
  lock does not change; with a player's first coloured card it sets the lock as usual.
* [R] The last player left in a visit may keep playing cards (option
  ``last_player_may_play``, default on); majorities then compare against nobody (any symbol
  wins). No source we could find settles it (searched for issue 17: the Alea 2000 German and
  Rio Grande English rulebooks as stored, translations, reviews, BoardGameGeek threads, code;
  the 2019 rulebook was not found; details in docs/taj_mahal.md). The rulebook overview has
  no exception for a lone player: "Each visit consists of several rounds and in each round,
  the players, in turn order, can either play 1 or 2 cards or completely withdraw from the
  visit." (Rio Grande English rules), and the Hungarian summary says play goes on "ameddig
  minden játékos passzol" (until every player has withdrawn).
* Typed notation: card symbols in any order (``G-CP`` = ``G-PC``) and ``pass`` for
  ``withdraw`` (``rules/taj_mahal/notation.py``); moves keep one canonical notation.
* A pair of influence tiles claimed by the player already holding that special card: he
  keeps it (the event says "keeps"). A used "+1 card" tile is set aside: the view lists it
  in ``bonus_tiles_used``.
* [R] Engine order on withdrawal: majorities (strictly more than each player still in the
  visit) -> palaces (one move each, empty = no regular palace; a lone crowned palace does
  not block) -> crowned palace (any city of the province without his own palace [R]) ->
  province tile goods -> palace connections -> played cards to the discard pile, specials
  back to the hand -> 2 display picks (moves; the last player gets the 1 left) -> +1 blind
  card from the deck if he played nothing this visit.
* Fortress bonus tiles are taken and scored when the regular palace is placed, so a goods
  bonus tile scores before the province tile of the same withdrawal ([R] bonus first). A
  crowned palace takes no bonus tile. "+1 card" draws the top deck card.
* [R] A player out of palaces places none (influence tiles are still won); a crown with no
  legal city (every city holds his own palace) is lost for that visit.
* [L] An empty draw pile is refilled by shuffling the discard pile.
* [R] An unclaimed province tile is out of play after its visit.
* [R] Claims of special cards (pairs of identical influence tiles) happen after visit 12
  too, before hand scoring. Pairs are claimed at the end of a visit only.
* [R] Final tie: shared win (equal rank), no tie-breaker.
* Seat ``first_player`` (option, default 0) starts visit 1; the start passes to the left
  (next seat) after every visit; play goes in seat order over players still in the visit.
* Clock runs out (``default_move``): withdraw on a turn; a pending decision (palace
  city, crown city, display card) has no pass (``None``: the bot makes the easy move).
* Symbol letters: V vizier, G general, M monk, P princess, C Grand Mogul (its prize is
  the crown), E elephant; colours R/Y/G/B, W white, S special.
* Commitments (``is_commitment``; ``/undo`` of one needs everyone's consent, even while the
  player still has decisions to make): withdrawing (everyone saw the majorities settled) and
  playing cards (they came out of a hidden hand; only the last player left in a visit keeps
  the turn after playing). The palace, crown and display decisions after a withdrawal are not
  commitments; a "+1 card" bonus draw reveals a card and is never taken back.
"""

from rules.taj_mahal.game import TajMahal
from rules.taj_mahal.state import Options

GAME = TajMahal()

__all__ = ["GAME", "Options", "TajMahal"]
