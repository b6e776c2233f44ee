"""Calm posts: one turn post per change of the seats to act, plies of a run folded into it
by an edit (through the outbox: ordered, retried, never doubled), and a ping (or DM) only
for who newly must act. Driven through the service and the delivery worker of the Discord
harness, on both store backends where the store is involved."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from bot.discord.delivery import EDIT_WINDOW, POST_KEY, backoff
from bot.matches.errors import NotAllowed
from bot.matches.reports import MatchInfo, TurnReport
from bot.matches.service import MatchService
from rules import get_game
from tests.conftest import ALICE, BOB, CAROL
from tests.discord_harness import CHANNEL_ID, GUILD_ID, Call, Harness, http_error, running

USERS = {u.id: u for u in (ALICE, BOB, CAROL)}
THREAD = 4242
TAJ = get_game("taj-mahal")
#: With this seed and the policy below, Alice withdraws first and owes two palaces and two
#: display picks: a run of five plies of hers.
SEED = 1


async def open_match(h: Harness, game: str, players: int, seed: int = SEED) -> int:
    svc = h.service
    info = await svc.create_match(
        game, ALICE, guild_id=str(GUILD_ID), channel_id=str(CHANNEL_ID), seed=seed
    )
    for user in (BOB, CAROL)[: players - 1]:
        await svc.join(info.id, user)
    await svc.set_thread(info.id, str(THREAD))
    await svc.start(info.id, ALICE)
    await h.deliver()
    return info.id


def taj_choice(state: dict[str, Any], seat: int) -> str:
    """Play one card per visit, then withdraw; pending decisions: the first choice."""
    moves = TAJ.legal_moves(state, seat)
    if TAJ._phase(state) != "turn":
        return moves[0].notation
    if state["acted"][seat]:
        return "withdraw"
    return next(m.notation for m in moves if m.notation != "withdraw")


async def taj_ply(h: Harness, match_id: int) -> None:
    match = await h.service.store.get_match(match_id)
    assert match is not None and match.state is not None
    seat = TAJ.to_act(match.state)[0]
    user = USERS[match.seats[seat].user_id]
    await h.service.play(match_id, user, taj_choice(match.state, seat))


def posts(h: Harness) -> list[Call]:
    """Messages Discord created in the match's thread."""
    return [c for c in h.fake.created if c.url.endswith(f"/channels/{THREAD}/messages")]


def edits(h: Harness) -> list[Call]:
    return [c for c in h.fake.calls if c.method == "PATCH" and f"/{THREAD}/messages/" in c.url]


def pinged(call: Call) -> list[str]:
    return [str(u) for u in (call.payload.get("allowed_mentions") or {}).get("users", [])]


def dms(h: Harness) -> list[Call]:
    return [
        c
        for c in h.fake.created
        if "/messages" in c.url and f"/{THREAD}/" not in c.url and "your turn" in c.content
    ]


async def expected_runs(h: Harness, match_id: int) -> list[tuple[list[str], list[str]]]:
    """Worked out from the move log alone: per turn post, (people to act, people pinged).
    A ply starts a new post unless its mover was to act and the seats to act stayed."""
    match = await h.service.store.get_match(match_id)
    assert match is not None
    state = TAJ.setup(3, match.seed, match.options)
    people = [s.user_id for s in match.seats]
    acting = [people[s] for s in TAJ.to_act(state)]
    runs = [(acting, acting)]
    for row in await h.service.store.moves(match_id):
        before = TAJ.to_act(state)
        state, _ = TAJ.apply(state, row.seat, TAJ.parse(state, row.seat, row.notation))
        after = TAJ.to_act(state)
        if row.seat in before and set(after) == set(before):
            continue
        now = [people[s] for s in after]
        runs.append((now, [u for u in now if u not in runs[-1][0]]))
    return runs


async def test_taj_mahal_visit_one_post_per_change_and_no_re_ping(
    tmp_path, monkeypatch, database
) -> None:
    """A whole first visit of a three-player Taj Mahal, delivered after every ply: one post
    per change of the player to act, the withdrawing player's palace and display choices
    folded into her post by edits (the board of the latest ply as its only attachment, the
    text listing every ply), pings only for who newly must act, and Bob — who chose direct
    messages — gets one DM per turn of his, not one per ply."""
    async with running(tmp_path, monkeypatch, database=database) as h:
        await h.service.store.set_user(BOB.id, notify="dm")
        match_id = await open_match(h, "taj-mahal", 3)
        plies = 0
        while (await h.service.store.get_match(match_id)).state["visit"] == 0:  # type: ignore[union-attr]
            await taj_ply(h, match_id)
            plies += 1
            assert await h.deliver() >= 1
        runs = await expected_runs(h, match_id)
        made, edited = posts(h), edits(h)
        assert len(made) == len(runs) and len(edited) == plies + 1 - len(runs)
        assert len(edited) >= 4  # Alice's withdrawal run: 2 palaces, 2 display picks
        for post, (_acting, ping) in zip(made, runs, strict=True):
            assert pinged(post) == ping  # nobody is pinged while they keep acting
            assert set(re.findall(r"<@(\d+)>", post.content)) == set(ping)
        assert sum(not ping for _, ping in runs) == 0  # in Taj Mahal every post is a new turn
        # DMs: Bob's turns began as often as a post pinged him, never per folded ply
        assert len(dms(h)) == sum(BOB.id in ping for _, ping in runs)
        rows = await h.service.store.moves(match_id)
        bob_plies = sum(1 for r in rows if r.seat == 1)
        assert len(dms(h)) < bob_plies
        head: Call | None = None
        shown: list[int] = []
        for call in h.fake.calls:  # in the order Discord saw them
            if call in made:
                head = call
            elif call in edited:  # the board of the newest ply replaces the old one
                assert head is not None and pinged(call) == pinged(head)  # no new ping
                (name,) = call.files
                found = re.fullmatch(rf"match-{match_id}-(\d+)\.png", name)
                assert found and [a["id"] for a in call.payload["attachments"]] == [0]
                shown.append(int(found.group(1)))
        assert shown == sorted(set(shown))
        run_text = [c for c in edited if "Alice withdrew" in c.content][-1].content
        assert "placed a palace" in run_text and "drew 1 card from the display" in run_text
        assert run_text.index("Alice withdrew") < run_text.index("placed a palace")
        assert run_text.count("Alice withdrew") == 1
        info = await h.service.info(match_id)
        assert info.settings[POST_KEY]["last_ply"] == len(rows)


async def play_until_run(h: Harness, match_id: int) -> None:
    """Play (delivering each post) until Alice has just withdrawn and still owes choices."""
    while True:
        await taj_ply(h, match_id)
        rows = await h.service.store.moves(match_id, last=1)
        if rows[-1].notation == "withdraw" and rows[-1].seat == 0:
            return
        await h.deliver()


async def test_a_failed_or_lost_edit_is_retried_and_never_doubled(tmp_path, monkeypatch) -> None:
    """The withdrawal's post goes out; the palace choice folded into it meets a 503 (retried
    with backoff, the ply after it waits in order), then an edit whose reply is lost (done,
    retried: the same words once, no second post)."""
    async with running(tmp_path, monkeypatch) as h:
        match_id = await open_match(h, "taj-mahal", 3)
        await play_until_run(h, match_id)
        assert await h.deliver() == 1  # the withdrawal, folded into Alice's turn post
        before, edited = len(posts(h)), len(edits(h))
        await taj_ply(h, match_id)  # first palace
        await taj_ply(h, match_id)  # second palace
        h.fake.fail("PATCH", f"/channels/{THREAD}/messages/", http_error(503))
        assert await h.deliver() == 0
        assert await h.deliver() == 0  # not due yet, and the second palace waits behind it
        h.clock.advance(backoff(0))
        h.fake.fail("PATCH", f"/channels/{THREAD}/messages/", TimeoutError(), after=True)
        assert await h.deliver() == 0  # edited, but the answer was lost
        h.clock.advance(backoff(1))
        assert await h.deliver() == 2  # the retry, then the second palace
        tries = edits(h)[edited:]
        assert len(tries) == 4 and tries[0].content == tries[1].content == tries[2].content
        assert len(posts(h)) == before  # no post doubled, none added
        final = tries[-1].content
        assert final.count("Alice withdrew") == 1 and final.count("placed a palace") == 2
        assert await h.service.store.pending_count() == 0


async def test_an_old_or_deleted_post_is_continued_in_a_new_post_without_a_ping(
    tmp_path, monkeypatch
) -> None:
    """Discord limits edits of messages older than an hour: a ply of the run that comes
    later starts a new post, pinging nobody. A run post deleted meanwhile (Unknown
    Message), or one Discord still finds too old (30046), likewise: the ply is posted,
    not lost."""
    async with running(tmp_path, monkeypatch) as h:
        match_id = await open_match(h, "taj-mahal", 3)
        await play_until_run(h, match_id)
        await h.deliver()
        before, edited = len(posts(h)), len(edits(h))
        h.clock.advance(EDIT_WINDOW + 1)
        await taj_ply(h, match_id)  # first palace, an hour later
        await h.deliver()
        assert len(posts(h)) == before + 1 and len(edits(h)) == edited
        late = posts(h)[-1]
        assert "placed a palace" in late.content and "Alice withdrew" not in late.content
        assert not pinged(late) and "<@" not in late.content
        await taj_ply(h, match_id)  # second palace: folds into the new post
        h.fake.fail("PATCH", f"/channels/{THREAD}/messages/", http_error(404, code=10008))
        await h.deliver()
        assert len(edits(h)) == edited + 1 and len(posts(h)) == before + 2
        assert "placed a palace" in posts(h)[-1].content and not pinged(posts(h)[-1])
        await taj_ply(h, match_id)  # a display pick: Discord refuses the edit as too old
        h.fake.fail("PATCH", f"/channels/{THREAD}/messages/", http_error(400, code=30046))
        await h.deliver()
        assert len(edits(h)) == edited + 2 and len(posts(h)) == before + 3
        assert "from the display" in posts(h)[-1].content and not pinged(posts(h)[-1])
        assert await h.service.store.pending_count() == 0


async def test_a_run_posted_before_cards_continues_in_a_new_card(tmp_path, monkeypatch) -> None:
    """A run whose post was made before posts were cards (its record has no layout mark):
    its next ply is not edited into it — Discord refuses to turn a classic post into a
    layout one unless its text is wiped (tests/test_cards.py) — but starts a new post, a
    card that pings nobody; the ply after that folds into the card as usual."""
    async with running(tmp_path, monkeypatch) as h:
        match_id = await open_match(h, "taj-mahal", 3)
        await play_until_run(h, match_id)
        await h.deliver()  # the withdrawal, folded into Alice's card

        def classic(settings: dict[str, Any], _version: int) -> dict[str, Any]:
            settings[POST_KEY] = {k: v for k, v in settings[POST_KEY].items() if k != "layout"}
            return settings

        await h.service.store.update_settings(match_id, classic)
        before, edited = len(posts(h)), len(edits(h))
        await taj_ply(h, match_id)  # first palace
        await h.deliver()
        assert len(posts(h)) == before + 1 and len(edits(h)) == edited
        card = posts(h)[-1]
        assert card.layout and "placed a palace" in card.content and not pinged(card)
        assert "Alice withdrew" not in card.content
        await taj_ply(h, match_id)  # second palace: folded into the new card
        await h.deliver()
        assert len(posts(h)) == before + 1 and len(edits(h)) == edited + 1
        assert edits(h)[-1].content.count("placed a palace") == 2


async def test_pastiche_trading_step_pings_only_who_newly_must_act(tmp_path, monkeypatch) -> None:
    """Pastiche: painting a hex folds into the turn post (an edit); an offer
    pings only its receiver; the answer (the active player was to act all along) makes a
    post that pings nobody; ending the turn pings the next player."""
    async with running(tmp_path, monkeypatch) as h:
        game = get_game("pastiche")
        match_id = await open_match(h, "pastiche", 2)
        match = await h.service.store.get_match(match_id)
        assert match is not None and match.state is not None
        cur = match.state["cur"]
        on, off = (ALICE, BOB) if cur == 0 else (BOB, ALICE)
        start = posts(h)[-1]
        assert pinged(start) == [on.id]
        place = game.legal_moves(match.state, cur)[0].notation
        await h.service.play(match_id, on, place)
        await h.deliver()
        match = await h.service.store.get_match(match_id)
        assert match is not None and match.state is not None
        offer = next(
            m.notation for m in game.legal_moves(match.state, cur) if m.notation.startswith("offer")
        )
        await h.service.play(match_id, on, offer)
        await h.deliver()
        await h.service.play(match_id, off, "decline")
        await h.deliver()
        await h.service.play(match_id, on, "end")
        await h.deliver()
        made = posts(h)
        assert len(made) == 4 and len(edits(h)) == 1  # the hex folded into the start post
        assert "painted hex" in edits(h)[0].content and pinged(edits(h)[0]) == [
            on.id
        ]  # kept, not new
        assert [pinged(p) for p in made[1:]] == [[off.id], [], [off.id]]
        assert "offer" in made[1].content and "declined" in made[2].content
        assert f"<@{on.id}>" not in made[2].content and on.name in made[2].content


# ----- undo across a commitment --------------------------------------------------------------
async def state_of(svc: MatchService, match_id: int) -> dict[str, Any]:
    match = await svc.store.get_match(match_id)
    assert match is not None and match.state is not None
    return match.state


async def request_texts(svc: MatchService, match_id: int) -> list[dict[str, Any]]:
    """The match's posts without a ply of their own that ask (undo requests; since issue
    41 a refusal is posted too, ``notice`` "told", and is not a request)."""
    cur = await svc.store._reader.execute(
        "SELECT payload FROM outbox WHERE match_id = ? AND kind = 'turn' ORDER BY id",
        (match_id,),
    )
    payloads = [json.loads(raw) for (raw,) in await cur.fetchall()]
    return [p for p in payloads if p.get("ply") is None and p.get("notice") != "told"]


async def test_taj_mahal_withdrawal_is_undone_only_with_everyones_consent(database) -> None:
    """Alice withdrew and still owes her palace choices, so it is still her turn: taking
    the withdrawal back asks Bob and Carol (everyone saw the majorities settled); Bob's
    refusal changes nothing; with both agreeing it is undone. A palace choice after the
    withdrawal is no commitment: she takes it back alone."""
    svc = await MatchService.open(database, render=False)
    try:
        info = await svc.create_match("taj-mahal", ALICE, seed=SEED)
        await svc.join(info.id, BOB)
        await svc.join(info.id, CAROL)
        await svc.start(info.id, ALICE)
        while True:
            state = await state_of(svc, info.id)
            seat = TAJ.to_act(state)[0]
            move = taj_choice(state, seat)
            if seat == 0 and move == "withdraw":
                break
            await svc.play(info.id, list(USERS.values())[seat], move)
        before = state
        await svc.play(info.id, ALICE, "withdraw")
        withdrawn = await state_of(svc, info.id)
        assert TAJ.to_act(withdrawn) == [0]  # still Alice's decisions
        asked = await svc.undo(info.id, ALICE)
        assert isinstance(asked, MatchInfo) and asked.settings["undo"]["seat"] == 0
        (request,) = await request_texts(svc, info.id)
        assert "Everyone has seen that move" in request["text"]
        assert sorted(request["mentions"]) == sorted([BOB.id, CAROL.id])
        rows = len(await svc.store.moves(info.id))
        refused = await svc.answer_undo(info.id, BOB, agree=False)
        assert isinstance(refused, MatchInfo) and "undo" not in refused.settings
        assert await state_of(svc, info.id) == withdrawn  # nothing changed
        assert len(await svc.store.moves(info.id)) == rows
        with pytest.raises(NotAllowed):  # the request is gone: nothing to agree to
            await svc.answer_undo(info.id, CAROL, agree=True)
        await svc.undo(info.id, ALICE)
        assert isinstance(await svc.answer_undo(info.id, BOB, agree=True), MatchInfo)
        report = await svc.answer_undo(info.id, CAROL, agree=True)
        assert (
            isinstance(report, TurnReport) and "took back a move: Alice withdr" in report.lines[0]
        )
        assert await state_of(svc, info.id) == before
        # again, then a palace choice: not a commitment, taken back at once and alone
        await svc.play(info.id, ALICE, "withdraw")
        palace = next(
            m
            for m in TAJ.legal_moves(withdrawn, 0)
            if not any(e.reveals for e in TAJ.apply(withdrawn, 0, m)[1])
        )
        await svc.play(info.id, ALICE, palace.notation)
        undone = await svc.undo(info.id, ALICE)
        assert isinstance(undone, TurnReport)
        assert await state_of(svc, info.id) == withdrawn
        assert len(await request_texts(svc, info.id)) == 2  # no request for the palace
    finally:
        await svc.close()


async def test_pastiche_answered_offer_needs_everyones_consent(tmp_path) -> None:
    """Alice offers Bob two gifts; Bob declines one and, still owing the other answer, asks
    to take the decline back: Alice has seen it, so she is asked (her refusal changes
    nothing; her consent undoes it). Alice's offer, still unanswered, she takes back alone."""
    svc = await MatchService.open(tmp_path / "p.db", render=False)
    try:
        game = get_game("pastiche")
        info = await svc.create_match("pastiche", ALICE, seed=SEED)
        await svc.join(info.id, BOB)
        await svc.start(info.id, ALICE)
        state = await state_of(svc, info.id)
        on, off = (ALICE, BOB) if state["cur"] == 0 else (BOB, ALICE)
        await svc.play(info.id, on, game.legal_moves(state, state["cur"])[0].notation)
        state = await state_of(svc, info.id)
        cards = [c for c, n in state["players"][state["cur"]]["cards"].items() if n > 0]
        partner = f"p{1 - state['cur'] + 1}"
        await svc.play(info.id, on, f"offer {partner} {cards[0]} for -")
        await svc.play(info.id, on, f"offer {partner} {cards[1]} for -")
        two_open = await state_of(svc, info.id)
        first = two_open["deals"][0]["id"]
        await svc.play(info.id, off, f"decline {first}")
        declined = await state_of(svc, info.id)
        assert game.to_act(declined) == [declined["cur"], 1 - declined["cur"]]
        assert isinstance(await svc.undo(info.id, off), MatchInfo)  # asks
        (request,) = await request_texts(svc, info.id)
        assert request["mentions"] == [on.id] and "Everyone has seen" in request["text"]
        await svc.answer_undo(info.id, on, agree=False)
        assert await state_of(svc, info.id) == declined
        await svc.undo(info.id, off)
        assert isinstance(await svc.answer_undo(info.id, on, agree=True), TurnReport)
        assert await state_of(svc, info.id) == two_open
        assert isinstance(await svc.undo(info.id, on), TurnReport)  # unanswered: alone
        assert len((await state_of(svc, info.id))["deals"]) == 1
    finally:
        await svc.close()
