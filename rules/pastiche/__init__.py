"""Pastiche (Sean D. MacDonald, Gryphon Games 2011), original edition, 2–4 players.

Rules reference: ``docs/rules/pastiche.md`` and the Hungarian rulebook (seed S1). Component
data lives in ``data/pastiche/`` (palette.json, mixing.json, hexes.json, start_piece.json,
commissions.json) and is validated on load; the commission deck is a placeholder
reconstruction kept in one file so the real deck can be dropped in.

Rule decisions (reference [R] items implemented exactly, and our own choices marked [ours]):

Mixing and placement
- [R] Mixing chart as in §2.1 (data/pastiche/mixing.json); two dabs of one colour make nothing,
  three of one primary make that primary.
- [R] Hex geometry of §2.3: axial pointy-top, corner k between directions k and k+1; the
  starting piece of §3.2 at (0,0), (1,0), (1,−1); its enclosed centre vertex never scores.
- [R] A new hex collects one card per corner that meets one or two painted hexes (the 2- or
  3-dab row of the chart); vertices not on the new hex are never re-scored.
- [R] Hexes may be placed in any of 6 rotations. Rotations that look identical (a symmetric
  hex) are offered once [ours]; a typed equivalent rotation is accepted as the offered one
  (``moves.equivalent_rotation``), so nobody is refused for turning a symmetric hex "wrong".
- The status line's round is the round the player on turn is playing (the start seat's
  turns, counting its current one).
- [R] The 54 hexes and their centres are the §3.1 reconstruction (hexes.json).
- Instead of the mixed cards the player may take one primary shown in the centre (one of the
  two for a split centre) [C].
- [R] If a bank stack is empty the card is simply not received (the move label says so).
  A centre primary whose stack is empty is not offered [ours: taking nothing is never useful].

Turn order [R engine suggestion, strict form]
- place a hex → trading (bank trades and offers, repeatable) → at most one gallery exchange →
  completions (any number) → hand limit → draw hexes. Each is a move; the phase lives in the
  state. Exchanging ends trading; completing ends trading and the exchange.
- Bank trades (§4.3): 3 identical → black, white, any secondary or tertiary; yellow + brown →
  cream; black + white → gray; a primary + any other card → any primary. [R] impossible if the
  wanted stack is empty. [ours] A bank trade whose received colour is among the given cards
  is not offered (it only loses cards). Every bank trade shrinks the hand, so they are finite.
- Player trades [C: "players trade palette cards freely; the player whose turn it is must be
  part of every trade"], made asynchronous [ours] (details in ``rules/pastiche/trade.py``):
  standing public offers ``{id, from, to, give, get}``. During the active player's trading
  step anyone may offer them, and they may offer anyone, any cards for any cards (n for m, a
  gift ``… for -`` or a request ``- for …``; not both empty, no colour on both sides, at most
  12 a side; the maker must hold what they give). The receiver answers ``accept N``,
  ``decline N`` or ``counter N … for …`` (closes N, opens a new offer the other way); the
  maker may ``withdraw N``. Several offers may be open; all expire when the trading step
  ends (exchange, completion, end of turn). Accepting checks both hands at that moment and is
  refused (nothing changes) when the receiver no longer holds what was asked; an offer whose
  maker no longer holds what it offers lapses at once. ``to_act`` is the active player
  first, then every receiver of an open offer; ``may_act`` (everyone during a trading step)
  says who may *make* offers. ``legal_moves`` lists only a few representative offers
  (cheapest spare cards worth a lacking colour), ranked lowest; ``parse`` accepts any offer.
  At most ``max_offers_per_turn`` (default 3) offers per player per turn, counters included.
  ``composers`` gives the guided panel "Compose an offer" (whom, cards given, cards wanted).
- Commissions are completed only on your own turn, from hand or gallery; the gallery refills
  at once, a hand completion draws a replacement. [R] An empty deck lets the gallery/hand shrink.
- Hand limit 8 at the end of your own turn, the owner chooses what goes back ([R]); more is fine
  at other times. ``end auto``/``return auto`` and the clock default return first the cards
  no hand commission can use, lowest value first, then the least valuable (chart order on ties).

End and scoring
- End trigger: completed commission points ≥ 45/40/35 for 2/3/4 players; the round is finished
  so that the player before the start player plays last (equal turns) [C].
- [R] Hex supply exhausted: players keep playing their remaining hexes; a player without a hex
  skips placing; when nobody holds a hex (checked at each turn's end), the round is finished and
  the game ends.
- Final score: commission points + usable palette cards (each card counts once: per colour
  min(cards, hand commissions needing it) × value) + painter bonus (pair sum 15–17: 3, 18–22: 4,
  23–27: 5, 28–31: 6). Ties: more completed commissions, then usable palette points, then
  painter bonus; [R] then a shared win.

The last move, for pictures [ours]
- The view's ``last`` names the newest hex's cell, and ``fresh`` the commissions completed
  since that placement (the turn's completions, kept through the next player's start until
  they place; a turn without a hex to place starts it afresh). Both are public: completed
  commissions lie face up.

Hidden information
- Palette cards and commission cards in hand are private (counts are public). [ours] Hexes in
  hand are public (they lie face up in front of their owner; the reference does not hide them).
- Clock default: the active player ends the turn (``end`` or ``end auto``; open offers
  expire), or ``return auto`` when returning cards; placing a hex has no default (``None``);
  a seat that only owes answers declines its first waiting offer.
- Commitments (``is_commitment``; ``/undo`` of one needs everyone's consent): answering an
  offer (accept, decline, counter: its maker has seen the answer), a bank trade and a card
  returned over the hand limit (both show palette cards from the hidden hand). An offer not
  yet answered is not one (taking it back is like withdrawing it). Hex placements,
  exchanges and completions draw or show new cards and are never taken back at all.
"""

from rules.pastiche.game import Pastiche, PasticheOptions

GAME = Pastiche()

__all__ = ["GAME", "Pastiche", "PasticheOptions"]
