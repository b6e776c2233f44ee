"""Secrecy: hidden information (a Taj Mahal hand, Pastiche commissions and palette cards)
never reaches anyone but its owner — not through the public view, not through event words
or data, not through the public turn posts, history or the record of a running match —
and strangers, spectators and players of other matches can neither act nor look.

What is private is derived, not assumed: for every seat, ``view(state, seat)`` must equal
``view(state, None)`` plus the game's private keys; an item is *secret* while it sits in
a hand and has never been visible in a public view (a card taken from the open display
was seen by everyone)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot.matches.errors import NotAllowed
from bot.matches.service import MatchService
from rules import get_game
from rules.base import Event, fill_names
from rules.playout import random_playout
from rules.registry import game_ids
from rules.rng import Rng
from tests.conftest import MALLORY
from tests.discord_harness import running
from tests.reliability_helpers import (
    PLAYERS,
    REAL_GAMES,
    assert_clear_refusal,
    db_snapshot,
    start_match,
    user_by_id,
)

NAMES = [p.name for p in PLAYERS]


# ----- what is secret, per game with hidden information -----------------------------------
def _walk(value: Any):
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from _walk(v)
    elif isinstance(value, list):
        for v in value:
            yield from _walk(v)


class Secrets:
    """Per-game knowledge of where hidden items live; everything else is generic."""

    private_keys: set[str]
    data_keys: set[str]

    def hands(self, state: dict[str, Any]) -> list[set[Any]]:
        raise NotImplementedError

    def open_in_hand(self, view: dict[str, Any]) -> set[Any]:
        """Items held in a hand that the rules show openly (Taj Mahal's special cards and
        the cards taken from its face-up display)."""
        return set()

    def public_items(self, view: dict[str, Any]) -> set[Any]:
        raise NotImplementedError

    def names(self, item: Any) -> list[str]:
        raise NotImplementedError

    def data_items(self, data: Any) -> set[Any]:
        out: set[Any] = set()
        for d in _walk(data):
            for k, v in d.items():
                if k in self.data_keys:
                    out |= set(v) if isinstance(v, list) else {v}
        return out


class TajMahalSecrets(Secrets):
    # "playable": which cards of his own hand a seat may play this visit
    private_keys = {"hand", "seat", "playable"}
    data_keys = {"card", "cards", "hand", "drawn", "display"}

    def hands(self, state):
        return [set(h) for h in state["hands"]]

    def public_items(self, view):
        cards = {d["id"] for d in _walk(view) if "id" in d and "code" in d and "symbols" in d}
        # the special cards are held in hands but everyone sees who holds them
        return cards | self.open_in_hand(view)

    def open_in_hand(self, view):
        from rules.taj_mahal.components import components

        specials = view["specials"].items()
        held = {components().specials[sid] for sid, owner in specials if owner is not None}
        # cards taken from the face-up display (and not played since): everyone saw them
        return held | {c["id"] for p in view["player_info"] for c in p["known"]}

    def names(self, item):
        from rules.taj_mahal.components import components

        return [components().cards[item].name]


class PasticheSecrets(Secrets):
    private_keys = {"me"}
    data_keys = {"commission", "gave", "took"}

    def hands(self, state):
        return [set(p["hand"]) for p in state["players"]]

    def public_items(self, view):
        return {d["id"] for d in _walk(view) if "id" in d and "title" in d and "painter" in d}

    def names(self, item):
        from rules.pastiche.data import load

        return [load().commissions[item].title]


SECRETS: dict[str, Secrets] = {"taj-mahal": TajMahalSecrets(), "pastiche": PasticheSecrets()}


def mentions(text: str, name: str) -> bool:
    return re.search(r"(?<![\w+])" + re.escape(name) + r"(?![\w+])", text) is not None


class Tracker:
    """Follows a game: which hand items were ever public, which are secret now."""

    def __init__(self, game_id: str) -> None:
        self.game = get_game(game_id)
        self.sec = SECRETS[game_id]
        self.ever_public: set[Any] = set()

    def see(self, state: dict[str, Any]) -> dict[str, Any]:
        pub = self.game.view(state, None)
        self.ever_public |= self.sec.public_items(pub)
        return pub

    def secret(self, state: dict[str, Any]) -> list[set[Any]]:
        return [h - self.ever_public for h in self.sec.hands(state)]

    def leaked(
        self,
        text: str,
        state: dict[str, Any],
        *,
        allowed: set[Any] = frozenset(),
        reader: int | None = None,
    ) -> list[str]:
        """Names of secret items (of seats other than ``reader``) found in ``text``; names
        shared with an item the text may show (``allowed``) are not evidence."""
        ok = {n for item in allowed | self.ever_public for n in self.sec.names(item)}
        if reader is not None:  # the reader may read about their own hand
            ok |= {n for item in self.sec.hands(state)[reader] for n in self.sec.names(item)}
        found = []
        for seat, items in enumerate(self.secret(state)):
            if seat == reader:
                continue
            for item in items:
                found += [n for n in self.sec.names(item) if n not in ok and mentions(text, n)]
        return found

    def check_views(self, state: dict[str, Any]) -> None:
        pub = self.see(state)
        assert not (self.sec.private_keys & set(pub)), "private keys in the public view"
        in_hands = set().union(*self.sec.hands(state))
        shown = self.sec.public_items(pub) - self.sec.open_in_hand(pub)
        assert not (shown & in_hands), "a hand item in the public view"
        for seat in range(len(self.sec.hands(state))):
            mine = self.game.view(state, seat)
            differ = {k for k in set(mine) | set(pub) if mine.get(k) != pub.get(k)}
            assert differ <= self.sec.private_keys, (seat, differ)

    def check_events(self, old: dict[str, Any], new: dict[str, Any], events: list[Event]) -> None:
        shown = self.sec.public_items(self.see(old)) | self.sec.public_items(self.see(new))
        secret_now = set().union(*self.secret(new))
        for e in events:
            text = fill_names(e.text, NAMES)
            assert not self.sec.data_items(e.data) & secret_now, (e.kind, e.data)
            assert not self.leaked(text, new, allowed=shown), (e.kind, text)
            for seat, words in e.private.items():
                assert not self.leaked(words, new, allowed=shown, reader=seat), (seat, words)
        status = fill_names(self.game.status(new), NAMES)
        assert not self.leaked(status, new, allowed=shown), status


HIDDEN = [g for g in REAL_GAMES if get_game(g).has_hidden_information]


def test_hidden_information_flags_are_what_the_views_say() -> None:
    """Games without hidden information show every seat the public view; the others are
    exactly the ones this file knows how to check."""
    assert sorted(HIDDEN) == sorted(SECRETS)
    for game_id in game_ids():
        game = get_game(game_id)
        if game.has_hidden_information or game_id not in REAL_GAMES:
            continue
        states: list[dict[str, Any]] = []
        random_playout(
            game, game.min_players, 9, on_step=lambda *step, into=states: into.append(step[3])
        )
        for state in states[:: max(1, len(states) // 15)]:
            pub = game.view(state, None)
            for seat in range(game.min_players):
                mine = game.view(state, seat)
                assert {k for k in mine if mine[k] != pub.get(k)} <= {"seat", "me"}, game_id


@pytest.mark.parametrize(
    ("game_id", "players", "seed"),
    [
        ("taj-mahal", 4, 1),
        ("taj-mahal", 3, 2),
        ("taj-mahal", 5, 3),
        ("pastiche", 2, 4),
        ("pastiche", 4, 5),
    ],
)
def test_views_events_and_status_never_show_a_secret(game_id: str, players: int, seed: int) -> None:
    tracker = Tracker(game_id)
    game = tracker.game
    state0 = game.setup(players, seed)
    tracker.check_views(state0)
    for e in game.setup_events(state0):
        assert not tracker.leaked(fill_names(e.text, NAMES), state0), e.text
        assert not tracker.sec.data_items(e.data) & set().union(*tracker.secret(state0))
    steps = [0]

    def on_step(old, seat, move, new, events) -> None:
        steps[0] += 1
        if game.outcome(new) is not None:
            return  # the final scoring reveals the hands, by the rules
        tracker.check_events(old, new, events)
        if steps[0] % 4 == 0:
            tracker.check_views(new)

    random_playout(game, players, seed, on_step=on_step)
    assert steps[0] > 20


@pytest.mark.parametrize("game_id", HIDDEN)
async def test_service_posts_dms_history_and_record_keep_secrets(
    database: str | Path, game_id: str
) -> None:
    """A match played through the service: each new turn post, the history and the record
    of the running match hold no secret; private words go only to their owner by DM."""
    svc = await MatchService.open(database, render=False)
    try:
        n = 3
        match_id = await start_match(svc, game_id, players=n, seed=13)
        tracker = Tracker(game_id)
        seats = {s.user_id: s.seat for s in (await svc.info(match_id)).seats}
        picker = Rng.from_seed(99)
        seen_outbox = 0
        dms = 0
        for ply in range(60):
            info = await svc.info(match_id)
            if info.status != "running":
                break
            state = (await svc.store.get_match(match_id)).state
            tracker.see(state)
            user = user_by_id(info.to_act[0])
            legal = await svc.legal_moves(match_id, user)
            # completing a commission draws a secret one (Pastiche's private words)
            legal = [m for m in legal if m.notation.startswith("complete")] or legal
            await svc.play(match_id, user, legal[picker.below(len(legal))].notation)
            match = await svc.store.get_match(match_id)
            if match.status != "running":
                break
            new = match.state
            tracker.see(new)
            cur = await svc.store._reader.execute(
                "SELECT kind, payload FROM outbox WHERE id > ? ORDER BY id", (seen_outbox,)
            )
            for kind, payload in await cur.fetchall():
                p = json.loads(payload)
                if kind == "turn":
                    assert not tracker.leaked(p["text"], new), (ply, p["text"])
                else:
                    assert kind == "dm"
                    dms += 1
                    owner = seats[p["user_id"]]
                    assert not tracker.leaked(p["text"], new, reader=owner), p
            cur = await svc.store._reader.execute("SELECT MAX(id) FROM outbox")
            (seen_outbox,) = await cur.fetchone()
            if ply % 10 == 9:
                history = "\n".join(await svc.history(match_id, last=50))
                assert not tracker.leaked(history, new)
                record = await svc.export_record(match_id)
                blob = json.dumps(record, ensure_ascii=False)
                assert '"secret"' not in blob and '"private"' not in blob
                assert not tracker.leaked(blob, new)
                for mv in record["moves"]:
                    for ev in mv["events"]:
                        assert not tracker.sec.data_items(ev["data"]) & set().union(
                            *tracker.secret(new)
                        )
        if game_id == "taj-mahal":
            assert dms > 0  # private words did flow, to their owners
    finally:
        await svc.close()


@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_strangers_spectators_and_other_players_cannot_act(
    database: str | Path, game_id: str
) -> None:
    svc = await MatchService.open(database, render=False)
    try:
        match_id = await start_match(svc, game_id, seed=2)
        other = await start_match(svc, game_id, seed=3)
        user = user_by_id((await svc.info(match_id)).to_act[0])
        move = (await svc.legal_moves(match_id, user))[0].notation
        await svc.play(match_id, user, move)  # something to undo
        outsider_of_other = PLAYERS[3]
        assert (await svc.info(other)).seat_of(outsider_of_other.id) is None
        before = await db_snapshot(svc, match_id)
        for stranger in (MALLORY, outsider_of_other):
            assert await svc.legal_moves(match_id, stranger) == []
            for attempt in (
                svc.play(match_id, stranger, move),
                svc.undo(match_id, stranger),
                svc.answer_undo(match_id, stranger, True),
                svc.resign(match_id, stranger),
                svc.abort(match_id, stranger),
                svc.hand(match_id, stranger),
            ):
                with pytest.raises(NotAllowed):
                    await attempt
        assert await db_snapshot(svc, match_id) == before
    finally:
        await svc.close()


async def test_discord_spectator_cannot_see_or_touch_a_hand(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id = await start_match(h.service, "taj-mahal", players=3, seed=8)
        await h.service.set_thread(match_id, "990001")
        thread = 990001
        before = await db_snapshot(h.service, match_id)
        for path in ("hand", "undo", "resign", "game abort"):
            calls = await h.slash(MALLORY, path, channel=thread)
            assert_clear_refusal(calls)
            assert not any(c.files for c in calls), path
        for cid in (f"th:{match_id}", f"tp:{match_id}:{before[0]}", f"tr:{match_id}:{before[0]}"):
            calls = await h.click(MALLORY, cid, channel=thread)
            assert_clear_refusal(calls)
            assert not any(c.files for c in calls)
        assert await db_snapshot(h.service, match_id) == before
        # the owner gets their hand privately, as a picture only they see
        owner = user_by_id((await h.service.info(match_id)).seats[0].user_id)
        calls = await h.slash(owner, "hand", channel=thread)
        assert calls[0].callback_type == 5 and calls[0].ephemeral
        assert [c for c in calls if c.files][-1].ephemeral
