"""Game records can be checked without the engine's random-number generator (issue 17).

For each game an independent checker reads a finished match's record (the shape
``MatchService.export_record`` writes: ``setup_events`` and every move's events, secrets
included once the match is over) and follows every chance outcome with nothing but the
component lists: the opening deal, every card, tile, hex or commission drawn later, and
where each one went. Drawing something that is not in the bag/deck at that moment, dealing
a card twice, or a final hand that differs from what the record implies all fail.

The checkers use no engine code: only the component data (what is in the box) and the
record. A tampered record must fail, so each checker is also shown catching a forgery.
"""

from __future__ import annotations

import copy
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bot.matches.reports import User
from bot.matches.service import MatchService
from rules.maharani.data import geometry
from rules.pastiche.data import load as pastiche_data
from rules.playout import random_playout
from rules.registry import get_game
from rules.taj_mahal.components import components as taj_components

Record = dict[str, Any]


class Inconsistent(AssertionError):
    """The record's chance outcomes contradict each other or the box's contents."""


def need(ok: bool, why: str) -> None:
    if not ok:
        raise Inconsistent(why)


@cache
def record_of(game_id: str, players: int, seed: int) -> Record:
    """A finished match's record as ``export_record`` writes it (rules only, no storage).
    Cached: checkers only read records; forgeries are made on deep copies."""
    game = get_game(game_id)
    state0 = game.setup(players, seed)
    moves: list[dict[str, Any]] = []

    def keep(old: Any, seat: int, move: Any, new: Any, events: list) -> None:
        events_json = [e.to_json(include_secret=True) for e in events]
        moves.append({"seat": seat, "notation": move.notation, "events": events_json})

    final, _ = random_playout(game, players, seed, on_step=keep)
    outcome = game.outcome(final)
    assert outcome is not None
    return {
        "game": game_id,
        "players": [{"seat": s} for s in range(players)],
        "setup_events": [e.to_json(include_secret=True) for e in game.setup_events(state0)],
        "moves": moves,
        "result": outcome.to_json(),
    }


def events_of(record: Record) -> list[tuple[int | None, dict[str, Any]]]:
    """(seat of the move or None for setup, event) in record order."""
    out: list[tuple[int | None, dict[str, Any]]] = [(None, e) for e in record["setup_events"]]
    for move in record["moves"]:
        out += [(move["seat"], e) for e in move["events"]]
    return out


# ----- Azul: the bag of 100 tiles -----------------------------------------------------------
def check_azul(record: Record) -> None:
    """Factory fills must come out of the bag: while the bag's contents are known (until the
    box lid is first poured back) every colour drawn must still be in it, and a pour must
    happen exactly when the bag is empty; afterwards the totals must agree."""
    bag: Counter[str] | None = Counter({c: 20 for c in "BYRKW"})
    total = 100
    fills = 0
    for _, e in events_of(record):
        if e["kind"] != "refill":
            continue
        fills += 1
        drawn = "".join(e["data"]["factories"])
        poured = e["data"]["lid_poured_after"]
        before = drawn if poured < 0 else drawn[:poured]
        need(len(before) <= total, f"round {e['data']['round']}: more tiles than the bag held")
        if bag is not None:
            left = bag - Counter(before)
            need(left + Counter(before) == bag, f"round {e['data']['round']}: a colour ran out")
            bag = left
        total -= len(before)
        if poured >= 0:
            need(total == 0, f"round {e['data']['round']}: the lid was poured into a full bag")
            bag = None  # the lid's colours are not in the record; totals still are
            total = e["data"]["lid_tiles_poured"] - len(drawn[poured:])
            need(total >= 0, "more tiles drawn than the lid held")
        short = any(len(f) < 4 for f in e["data"]["factories"])
        need(not short or total == 0, "a factory stayed short while tiles were left")
    need(fills >= 1, "no factory fill in the record")
    need(record["setup_events"][0]["kind"] == "refill", "the first fill is not in setup_events")


# ----- Taj Mahal: 96 cards + 4 special cards --------------------------------------------
def check_taj_mahal(record: Record) -> None:
    """Follows every card: deck, hands, display, played, discard pile. Cards dealt or drawn
    must be in the deck; a reshuffle happens only on an empty deck and turns the discard pile
    into the deck; the hands at the end must be exactly what the record implies."""
    comp = taj_components()
    special = {cid: sid for sid, cid in comp.specials.items()}
    n = len(record["players"])
    deck = set(comp.deck)
    hands: list[set[int]] = [set() for _ in range(n)]
    played: list[list[int]] = [[] for _ in range(n)]
    display: list[int] = []
    discard: list[int] = []
    withdrawn: int | None = None  # whose played cards go to the discard pile next
    predrawn: list[int] = []  # display cards drawn just before a reshuffle

    def draw(card: int, why: str) -> None:
        need(card in deck, f"{why}: card {card} was not in the deck")
        deck.remove(card)

    def settle() -> None:
        nonlocal withdrawn
        if withdrawn is not None:
            for card in played[withdrawn]:
                (hands[withdrawn].add if card in special else discard.append)(card)
            played[withdrawn] = []
            withdrawn = None

    flat = events_of(record)
    for i, (_, e) in enumerate(flat):
        kind, data, secret = e["kind"], e["data"], e.get("secret", {})
        nxt = flat[i + 1][1]["kind"] if i + 1 < len(flat) else None
        if kind == "reshuffle" and nxt == "palace":
            pass  # a "+1 card" draw during the palaces: his played cards are still out
        elif kind not in ("palace", "crown", "withdraw", "score"):
            settle()
        if kind == "deal":
            for s, hand in enumerate(secret["hands"]):
                for card in hand:
                    draw(card, "deal")
                hands[s] |= set(hand)
        elif kind == "visit":
            discard += display
            display = []
            for card in data["display"]:
                if card in predrawn:  # drawn before the reshuffle that preceded this event
                    predrawn.remove(card)
                else:
                    draw(card, f"display of visit {data['visit']}")
                display.append(card)
            need(not predrawn, "cards left the deck but never reached the display")
        elif kind == "play":
            for card in data["cards"]:
                need(card in hands[data["seat"]], f"played card {card} was not in the hand")
                hands[data["seat"]].remove(card)
                played[data["seat"]].append(card)
        elif kind == "withdraw":
            withdrawn = data["seat"]
        elif kind == "palace" and "drawn" in secret:
            for card in secret["drawn"]:
                draw(card, "+1 card tile")
                hands[data["seat"]].add(card)
        elif kind == "take":
            need(data["card"] in display, f"card {data['card']} was not in the display")
            display.remove(data["card"])
            hands[data["seat"]].add(data["card"])
        elif kind == "draw":
            draw(secret["card"], "blind draw")
            hands[data["seat"]].add(secret["card"])
        elif kind == "reshuffle":
            if nxt == "visit":  # dealing a new display: the old display is discarded first,
                discard += display  # and the display takes the deck's last cards first
                display = []
                upcoming = flat[i + 1][1]["data"]["display"]
                predrawn = list(upcoming[: len(deck)])
                need(set(predrawn) == deck, "the display did not empty the deck first")
                deck.clear()
            need(not deck, "reshuffled while the deck still had cards")
            need(data["cards"] == len(discard), "reshuffled pile is not the discard pile")
            deck |= set(discard)
            discard = []
        elif kind == "claim":
            card = comp.specials[data["special"]]
            if data["from"] is not None:
                need(card in hands[data["from"]], "claimed a special card its holder lacks")
                hands[data["from"]].remove(card)
            hands[data["seat"]].add(card)
        elif kind == "hand":
            need(set(data["hand"]) == hands[data["seat"]], f"final hand of seat {data['seat']}")
    need(all(not p for p in played), "cards left on the table at the end")


# ----- Maharani: the bag of 60 tiles ------------------------------------------------------
def check_maharani(record: Record) -> None:
    """Every tile put on the rondel (or set aside) must come out of the bag once; a tile laid
    must be the one on its field; the bag counts in the record must agree."""
    bag = set(geometry().tile_ids)
    rondel: list[str | None] = [None] * 4
    for _, e in events_of(record):
        data = e["data"]
        if e["kind"] == "refill":
            for field, tile in enumerate(data["rondel"]):
                if rondel[field] is None and tile is not None:
                    need(tile in bag, f"tile {tile} drawn twice")
                    bag.remove(tile)
                else:
                    need(rondel[field] == tile, f"field {field + 1} changed without a draw")
            rondel = list(data["rondel"])
            for tile in data["set_aside"]:
                need(tile in bag, f"set-aside tile {tile} was not in the bag")
                bag.remove(tile)
            need(data["bag"] == len(bag), "bag size in the record")
        elif e["kind"] == "tile":
            need(rondel[data["field"] - 1] == data["tile"], "laid a tile not on that field")
            rondel[data["field"] - 1] = None
        elif e["kind"] == "surplus":
            for tile in data["tiles"]:
                need(tile in rondel, "removed a tile that was not on the rondel")
                rondel[rondel.index(tile)] = None
    need(record["setup_events"][0]["kind"] == "refill", "the first draw is not in setup_events")


# ----- Pastiche: 54 hexes and the commission deck --------------------------------------
def check_pastiche(record: Record) -> None:
    """Hexes and commission cards are each dealt once; a hex painted was in its painter's
    hand; a commission exchanged or completed was where the record put it; the completed
    counts at the end agree. Palette cards move only in public events (the opening four,
    cards mixed or taken, bank trades, accepted offers, payments, returns), so every hand
    is followed exactly: an offer is made only with cards its maker holds, and an accepted
    offer moves only cards both sides hold at that moment (free trading, issue 17)."""
    data = pastiche_data()
    bank = {c.name: c.count for c in data.colours}
    palette: list[Counter[str]] = []

    def move_cards(src: Counter[str] | None, dst: Counter[str] | None, cards: list[str]) -> None:
        for c in cards:
            if src is None:
                need(bank.get(c, 0) > 0, f"the bank had no {c} to give")
                bank[c] -= 1
            else:
                need(src[c] > 0, f"a {c} moved from a hand that held none")
                src[c] -= 1
            if dst is None:
                bank[c] += 1
            else:
                dst[c] += 1

    hex_box, comm_box = set(data.hex_ids), set(data.commission_ids)
    n = len(record["players"])
    hexes: list[list[str]] = [[] for _ in range(n)]
    hands: list[set[str]] = [set() for _ in range(n)]
    gallery: set[str] = set()
    done = [0] * n

    def deal_hex(h: str) -> None:
        need(h in hex_box, f"hex {h} dealt twice or not in the box")
        hex_box.remove(h)

    def deal_commission(c: str) -> None:
        need(c in comm_box, f"commission {c} dealt twice or not in the deck")
        comm_box.remove(c)

    for seat, e in events_of(record):
        kind, d, secret = e["kind"], e["data"], e.get("secret", {})
        if kind == "deal":
            for s in range(n):
                for h in d["hexes"][s]:
                    deal_hex(h)
                for c in secret["hands"][s]:
                    deal_commission(c)
                hexes[s] = list(d["hexes"][s])
                hands[s] = set(secret["hands"][s])
                palette.append(Counter())
                move_cards(None, palette[s], list(data.starting_hand))
            for c in d["gallery"]:
                deal_commission(c)
            gallery = set(d["gallery"])
        elif kind == "place":
            assert seat is not None
            need(d["hex"] in hexes[seat], f"hex {d['hex']} painted but not held")
            hexes[seat].remove(d["hex"])
            move_cards(None, palette[seat], d["cards"])
        elif kind == "bank":
            assert seat is not None
            move_cards(palette[seat], None, d["give"])
            move_cards(None, palette[seat], [d["get"]])
        elif kind == "offer":
            have = palette[d["from"]]
            need(all(have[c] >= k for c, k in Counter(d["give"]).items()), "offered unheld cards")
        elif kind == "accept":
            move_cards(palette[d["from"]], palette[d["to"]], d["give"])
            move_cards(palette[d["to"]], palette[d["from"]], d["get"])
        elif kind == "return":
            assert seat is not None
            move_cards(palette[seat], None, d["cards"])
        elif kind == "hex":
            assert seat is not None
            for h in d["hexes"]:
                deal_hex(h)
                hexes[seat].append(h)
        elif kind == "swap":
            assert seat is not None
            need(d["gave"] in hands[seat] and d["took"] in gallery, "exchange of absent cards")
            hands[seat] = hands[seat] - {d["gave"]} | {d["took"]}
            gallery = gallery - {d["took"]} | {d["gave"]}
        elif kind == "complete":
            assert seat is not None
            c = d["commission"]
            need(c in hands[seat] or c in gallery, f"completed {c} from nowhere")
            move_cards(palette[seat], None, d["paid"])
            hands[seat].discard(c)
            gallery.discard(c)
            done[seat] += 1
        elif kind == "refill" and "commission" in d:
            deal_commission(d["commission"])
            gallery.add(d["commission"])
        elif kind == "draw":
            deal_commission(secret["commission"])
            hands[secret["seat"]].add(secret["commission"])
    completed = [x["completed"] for x in record["result"]["details"]]
    need(completed == done, "completed commissions at the end")


CHECKERS = {
    "azul": check_azul,
    "taj-mahal": check_taj_mahal,
    "maharani": check_maharani,
    "pastiche": check_pastiche,
}


@pytest.mark.parametrize(
    ("game_id", "players", "seed"),
    [
        ("azul", 4, 3),
        ("taj-mahal", 3, 1),
        ("taj-mahal", 5, 2),
        ("maharani", 2, 4),
        ("maharani", 4, 5),
        ("pastiche", 2, 6),  # an offer accepted, too
    ],
)
def test_a_finished_record_checks_out_without_the_generator(
    game_id: str, players: int, seed: int
) -> None:
    record = record_of(game_id, players, seed)
    assert record["setup_events"], "the opening deal is recorded"
    CHECKERS[game_id](record)


def _forge(record: Record, kind: str, change: Any) -> Record:
    """A copy with the first event of ``kind`` (after setup) changed by ``change``."""
    bad = copy.deepcopy(record)
    for move in bad["moves"]:
        for e in move["events"]:
            if e["kind"] == kind:
                change(e)
                return bad
    raise AssertionError(f"no {kind} event to forge")


def test_the_checkers_catch_forged_records() -> None:
    taj = record_of("taj-mahal", 3, 1)
    dealt = taj["setup_events"][1]["secret"]["hands"][0][0]
    bad = _forge(taj, "take", lambda e: e["data"].update(card=dealt))  # a dealt card again
    with pytest.raises(Inconsistent):
        check_taj_mahal(bad)
    bad = copy.deepcopy(taj)
    bad["setup_events"][1]["secret"]["hands"][1][0] = dealt  # one card dealt twice
    with pytest.raises(Inconsistent):
        check_taj_mahal(bad)

    mah = record_of("maharani", 3, 7)
    first = mah["setup_events"][0]["data"]["rondel"][0]
    bad = _forge(mah, "refill", lambda e: e["data"]["rondel"].__setitem__(0, first))
    with pytest.raises(Inconsistent):
        check_maharani(bad)

    past = record_of("pastiche", 2, 6)
    start_hex = past["setup_events"][0]["data"]["hexes"][0][0]
    bad = _forge(past, "hex", lambda e: e["data"].update(hexes=[start_hex]))
    with pytest.raises(Inconsistent):
        check_pastiche(bad)
    bad = _forge(past, "bank", lambda e: e["data"].update(give=["gray"] * 3))
    with pytest.raises(Inconsistent):  # paid the bank with cards never held
        check_pastiche(bad)
    bad = _forge(past, "accept", lambda e: e["data"].update(give=e["data"]["give"] + ["gray"]))
    with pytest.raises(Inconsistent):  # an accepted offer moved a card its maker lacked
        check_pastiche(bad)

    azul = record_of("azul", 2, 8)
    bad = copy.deepcopy(azul)
    bad["setup_events"][0]["data"]["factories"] = ["RRRR"] * 5  # all 20 red tiles at once
    bad = _forge(bad, "refill", lambda e: e["data"]["factories"].__setitem__(0, "RBBB"))
    with pytest.raises(Inconsistent):  # a 21st red tile
        check_azul(bad)


async def test_the_exported_record_of_a_finished_match_checks_out(tmp_path: Path) -> None:
    """Through the real service: ``export_record`` of a finished Maharani match (pictures
    off: they play no part in the record)."""
    service = await MatchService.open(tmp_path / "record.db", render=False)
    try:
        await _play_out_and_check(service)
    finally:
        await service.close()


async def _play_out_and_check(service: MatchService) -> None:
    users = [User("u:a", "Ann"), User("u:b", "Ben")]
    info = await service.create_match("maharani", users[0], {}, max_players=2, seed=11)
    await service.join(info.id, users[1])
    await service.start(info.id, users[0])
    by_id = {u.id: u for u in users}
    current = await service.info(info.id)
    while current.status == "running":
        user = by_id[current.to_act[0]]
        legal = await service.legal_moves(info.id, user)
        move = next((m for m in legal if m.notation not in ("refresh", "stop")), legal[0])
        current = (await service.play(info.id, user, move.notation)).match
    record = await service.export_record(info.id)
    assert record["status"] == "finished" and record["setup_events"][0]["kind"] == "refill"
    assert record["game"] == "maharani"
    check_maharani(record)
