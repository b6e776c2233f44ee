"""Discord commands and buttons that acted on the wrong thing (issue 41), through the real
command tree with recorded stand-in interactions: an unknown game (a traceback, or another
game's table), a page past the end (the last page instead), ``/undo refuse`` with nothing
to refuse (it asked for an undo), someone who is no member of the server offered a seat,
"Saved." when nothing was saved, and refusals that did not say why (not started, over).
A match option wins over the thread it is typed in when the asker may act on it."""

from __future__ import annotations

from bot.matches.reports import User
from tests.conftest import ALICE, BOB, CAROL
from tests.discord_harness import Call, Harness, http_error, running

EVE = User("1005", "Eve")
GAMES = "azul, taj-mahal, maharani, pastiche, test-pile"


def reply(calls: list[Call]) -> Call:
    replies = [c for c in calls if c.via == "hook"]
    assert replies, calls
    return replies[-1]


async def lobby(h: Harness, *, join: bool = True) -> tuple[int, int]:
    calls = await h.slash(ALICE, "game new", game="test-pile")
    post = next(c for c in calls if any(i.startswith("tl:join:") for i in c.custom_ids))
    match_id = int(post.custom_ids[0].split(":")[2])
    thread = int((await h.service.info(match_id)).thread_id or 0)
    if join:
        await h.click(BOB, f"tl:join:{match_id}", channel=thread)
    return match_id, thread


async def test_an_unknown_game_is_refused_naming_the_games(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        for path in ("leaderboard", "stats player", "stats server", "rules"):
            answer = reply(await h.slash(ALICE, path, game="azull"))
            assert answer.ephemeral, path
            assert answer.content == f"There is no game called “azull”. Games: {GAMES}.", path


async def test_a_page_past_the_end_is_refused(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        await lobby(h)
        answer = reply(await h.slash(ALICE, "game list", page=5))
        assert answer.content == "There is no page 5: the list has 1 page."


async def test_notify_without_options_changes_nothing_and_says_so(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        answer = reply(await h.slash(ALICE, "notify"))
        assert answer.content.startswith("Nothing changed. Turn alerts: mention in the thread;")
        assert "/notify mode:" in answer.content
        answer = reply(await h.slash(ALICE, "notify", back=False))
        assert answer.content.startswith("Nothing changed.")
        answer = reply(await h.slash(ALICE, "notify", away=2))  # the away is what changed
        assert answer.content.startswith("You are away until") and "Saved" not in answer.content
        assert "Nothing changed" not in answer.content
        answer = reply(await h.slash(ALICE, "notify", mode="dm"))
        assert answer.content.startswith("Saved. Turn alerts: mention and direct message")


async def test_undo_refuse_without_a_request_asks_nothing(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread = await lobby(h)
        await h.click(ALICE, f"tl:start:{match_id}", channel=thread)
        on = (await h.service.info(match_id)).to_act[0]
        mover = ALICE if on == ALICE.id else BOB
        await h.slash(mover, "play", move="take1", channel=thread)
        before = await h.service.info(match_id)
        answer = reply(await h.slash(mover, "undo", refuse=True, channel=thread))
        assert answer.content == "There is no open request to take back a move."
        after = await h.service.info(match_id)
        assert after.version == before.version and "undo" not in after.settings


async def test_a_seat_is_offered_only_to_a_member_of_the_server(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread = await lobby(h)
        await h.click(ALICE, f"tl:start:{match_id}", channel=thread)
        h.fake.fail("GET", f"/members/{EVE.id}", http_error(404, code=10007))
        answer = reply(await h.slash(ALICE, "game sub", channel=thread, new=EVE))
        assert answer.ephemeral
        assert answer.content == "Eve is not a member of this server, so cannot take a seat here."
        assert await h.service.open_subs(match_id) == []


async def test_the_match_option_wins_over_the_thread(tmp_path, monkeypatch) -> None:
    """In the thread of match A, ``match:B`` acts on B (the asker may act on it); a
    match of another server or one that does not exist is refused, and A is untouched."""
    async with running(tmp_path, monkeypatch) as h:
        a, thread_a = await lobby(h)
        b, _ = await lobby(h)
        answer = reply(await h.slash(BOB, "game start", channel=thread_a, match=b))
        assert answer.content == f"Bob started match #{b}. The board follows."
        assert [(await h.service.info(m)).status for m in (a, b)] == ["lobby", "running"]
        elsewhere = await h.service.create_match("test-pile", CAROL, guild_id="200")
        for path, options in [
            ("game sub", {"new": EVE}),
            ("history replay", {}),
            ("game leave", {}),
            ("game abort", {"reason": "spam"}),
        ]:
            for match, said in [(elsewhere.id, "in this server"), (4242, "There is no match")]:
                answer = reply(await h.slash(BOB, path, channel=thread_a, match=match, **options))
                assert answer.ephemeral and said in answer.content, (path, answer.content)
        assert (await h.service.info(a)).status == "lobby"
        assert [s.name for s in (await h.service.info(a)).seats] == ["Alice", "Bob"]


async def test_refusals_say_why_a_match_cannot_be_acted_on(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        match_id, thread = await lobby(h)
        answer = reply(await h.slash(ALICE, "board", channel=thread))
        assert answer.content == f"Match #{match_id} has not started yet."
        answer = reply(await h.slash(ALICE, "resign", channel=thread))
        assert answer.content == f"Match #{match_id} has not started yet."
        await h.click(ALICE, f"tl:start:{match_id}", channel=thread)
        version = (await h.service.info(match_id)).version
        await h.slash(ALICE, "game abort", channel=thread)
        await h.slash(BOB, "game abort", channel=thread)
        assert (await h.service.info(match_id)).status == "aborted"
        # buttons under posts made while it ran
        over = f"Match #{match_id} is over."
        for custom_id in (f"tp:{match_id}:{version}", f"tz:{match_id}:{version}"):
            answer = reply(await h.click(ALICE, custom_id, channel=thread))
            assert answer.ephemeral and answer.content == over, custom_id
        answer = reply(await h.slash(ALICE, "hint", channel=thread))
        assert answer.content.startswith(f"Match #{match_id} is over"), answer.content
