"""The five surfaces of a match's end say one ranking (issue 41, "Results and pictures that
disagree"): the result text of the final post, the final picture (and the replay's last
board and standings), the score chart, the game record, and the ratings.

Each game × ending is played through the service (SQLite, no picture workers, random legal
moves from a fixed seed; computer seats are moved by the test like anyone else), then each
surface is read on its own — the post's words parsed, the picture and the chart drawn under
a probe that collects what they draw, the record's JSON, the rating rows — and every one
must give the same place to every seat (shared places shared). An aborted match must have
no ranking anywhere. The seeds are chosen so that a resigner is leading when they give up
(the ranking then contradicts the scores) and several finishes end in shared places.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import render.header
from bot.computers.players import is_computer
from bot.matches.replay import make_job, turn_views
from bot.matches.reports import User
from bot.matches.score_chart import chart_png
from bot.matches.service import MatchService
from render.registry import get_drawer
from render.words.posts import result_text
from rules import get_game
from rules.rng import Rng
from rules.taj_mahal.words import listed
from rules.words import Msg, Seat, to_json
from tests.picture_probe import Probe, fresh_caches, probing

ANN, BEN, CID, EVE = (User(f"40{i}", n) for i, n in enumerate(["Ann", "Ben", "Cid", "Eve"], 1))

#: the endings; "resigned-2" ends the match, "resigned"/"forfeit" hand the seat to a
#: computer that plays it out, "substituted" votes Eve into a resigned seat
ENDINGS = ("finished", "resigned-2", "resigned", "forfeit", "substituted", "aborted")
#: (game, how many plies before the seat is given up / handed on / the match aborted)
GAMES = {"azul": 40, "taj-mahal": 110, "maharani": 35, "pastiche": 140}
#: per game, the match seed, chosen so the finished games end in shared places: Azul and
#: Maharani share the first place (1, 3, 1 and 1, 1, 3), Taj Mahal the second (2, 2, 1),
#: Pastiche the first (1, 1, 3)
SEEDS = {"azul": 1, "taj-mahal": 38, "maharani": 60, "pastiche": 12}
CASES = [
    (game, ending)
    for game in GAMES
    for ending in ENDINGS
    if not (game == "taj-mahal" and ending == "resigned-2")  # Taj Mahal: 3–5 players
]

Places = dict[int, int]  # seat -> place (1 = first; shared places repeat)


# ----- playing ------------------------------------------------------------------------------
async def start(service: MatchService, game_id: str, players: int) -> int:
    people = [ANN, BEN, CID][:players]
    info = await service.create_match(
        game_id, ANN, max_players=players, seed=SEEDS[game_id], guild_id="9", channel_id="9"
    )
    for user in people[1:]:
        await service.join(info.id, user)
    await service.start(info.id, ANN)
    return info.id


async def play(service: MatchService, match_id: int, picker: Rng, plies: int) -> None:
    """Up to ``plies`` random legal moves by whoever is to act (computer seats included)."""
    for _ in range(plies):
        match = await service.store.get_match(match_id)
        assert match is not None
        if match.status != "running":
            return
        game = get_game(match.game_id)
        seat = game.to_act(match.state)[0]
        moves = game.legal_moves(match.state, seat)
        holder = match.seats[seat]
        move = moves[picker.below(len(moves))]
        await service.play(match_id, User(holder.user_id, holder.name), move.notation)


async def leader(service: MatchService, match_id: int) -> User:
    """The person with the highest score now: giving up then contradicts the scores."""
    match = await service.store.get_match(match_id)
    assert match is not None and match.state is not None
    scores = get_game(match.game_id).scores(match.state)
    seat = max(range(len(scores)), key=lambda s: (scores[s], -s))
    return User(match.seats[seat].user_id, match.seats[seat].name)


async def drive(service: MatchService, game_id: str, ending: str) -> int:
    match_id = await start(service, game_id, 2 if ending == "resigned-2" else 3)
    picker = Rng.from_seed(SEEDS[game_id], "rankings")
    await play(service, match_id, picker, 0 if ending == "finished" else GAMES[game_id])
    if ending in ("resigned", "resigned-2", "substituted"):
        quitter = await leader(service, match_id)
        await service.resign(match_id, quitter)
        if ending == "substituted":
            seats = (await service.info(match_id)).seats
            seat = next(s.seat for s in seats if is_computer(s.user_id))
            asker, other = (u for u in (ANN, BEN, CID) if u.id != quitter.id)
            vote = (await service.propose_sub(match_id, asker, seat, EVE)).proposal["id"]
            await service.answer_sub(match_id, EVE, seat, vote, True)
            assert (await service.vote_sub(match_id, other, seat, vote, True)).status == "done"
    elif ending == "forfeit":
        info = await service.info(match_id)
        await service.expire_turn(match_id, info.version, "forfeit")
    elif ending == "aborted":
        for user in (ANN, BEN):
            await service.abort(match_id, user)
    await play(service, match_id, picker, 5000)
    info = await service.info(match_id)
    assert info.status == ("aborted" if ending == "aborted" else "finished"), info.status_text
    result = info.result
    if ending == "finished":  # the seeds' shared places (SEEDS)
        assert result is not None and len(set(result["ranks"])) < len(result["ranks"])
    if ending == "resigned":  # the ranking contradicts the scores: the quitter was not last
        assert result is not None and result["gave_up"]
        scores = result["scores"]
        assert scores[result["gave_up"][0]["seat"]] > min(scores), result
    if ending == "forfeit":
        assert result is not None and result["gave_up"][0]["how"] == "forfeit"
    return match_id


# ----- reading each surface -------------------------------------------------------------------
def seat_named(text: str, names: list[str]) -> int:
    """The seat whose name ``text`` starts with (the longest such name: "Ada (for Bob…)")."""
    found = [s for s, name in enumerate(names) if text.strip().startswith(name.rstrip("…"))]
    assert found, f"no seat named in {text!r} ({names})"
    return max(found, key=lambda s: len(names[s]))


async def text_places(service: MatchService, match_id: int, names: list[str]) -> Places:
    """The places the final post's words give: its "2. Ben — 42 points" lines."""
    cur = await service.store._reader.execute(
        "SELECT payload FROM outbox WHERE match_id = ? AND kind = 'turn' ORDER BY id DESC LIMIT 1",
        (match_id,),
    )
    post = json.loads((await cur.fetchone())[0])
    assert post["final"]
    places: Places = {}
    for line in post["text"].splitlines():
        m = re.match(r"^(\d+)\. (.+) — ", line)
        if m:
            places[seat_named(m.group(2), names)] = int(m.group(1))
    return places


@contextmanager
def drawing() -> Iterator[tuple[Probe, list[render.header.Band]]]:
    """Probe every text drawn, and keep every header band a renderer builds."""
    bands: list[render.header.Band] = []
    original = render.header.header_band

    def spy(width: int, band: render.header.Band, *args: Any, **kwargs: Any) -> Any:
        bands.append(band)
        return original(width, band, *args, **kwargs)

    render.header.header_band = spy  # the probe wraps it in every renderer module
    try:
        with probing() as probe:
            yield probe, bands
    finally:
        render.header.header_band = original


def picture_places(game_id: str, probe: Probe, bands: list[Any], names: list[str]) -> Places:
    """Every ranking mark a board picture draws, checked against each other: the band's
    places, and the game's own marks (Pastiche's "#2 · …" lines, Azul's "★ winner" tag,
    Maharani's "★" beside the gold). Winner marks give place 1 to the marked seats and
    say nothing of the other places, so they are compared on the winners only."""
    band = bands[-1]
    places: Places = dict(getattr(band, "places", None) or {})
    in_band = probe.band_texts()  # the places make the scores wider: nothing may overlap
    for i, a in enumerate(in_band):
        assert a.box[0] >= 0 and a.box[2] <= a.canvas[0], f"{a.text!r} leaves the band"
        for b in in_band[i + 1 :]:
            apart = a.box[2] <= b.box[0] or b.box[2] <= a.box[0] or a.box[3] <= b.box[1]
            assert apart or b.box[3] <= a.box[1], f"{a.text!r} overlaps {b.text!r}"
    board = [x.text for x in probe.texts if x.image_id not in probe.band_ids]
    marks: dict[str, Places] = {"band": places}
    if game_id == "pastiche":
        drawn = [int(m.group(1)) for x in board if (m := re.match(r"^#(\d+) · ", x))]
        marks["panel"] = dict(enumerate(drawn))
    winners: set[int] | None = None
    if game_id == "azul":
        winners = {seat_named(board[i - 1], names) for i, x in enumerate(board) if "★" in x}
    if game_id == "maharani":
        golds = [x for x in board if re.match(r"^\d+ gold", x)]
        winners = {s for s, x in enumerate(golds) if "★" in x}
    for source, found in marks.items():
        if found and places:
            assert found == places, f"the picture's {source} says {found}, its band {places}"
        places = places or found
    if winners is not None and places:
        assert winners == {s for s, p in places.items() if p == 1}, (winners, places)
    if winners and not places:
        places = {s: 1 for s in winners}
    return places


async def board_places(service: MatchService, match_id: int, game_id: str) -> Places:
    service._pictures.clear()
    fresh_caches(game_id)
    names = (await service.info(match_id)).names
    with drawing() as (probe, bands):
        await service.picture(match_id)
    return picture_places(game_id, probe, bands, names)


async def replay_places(
    service: MatchService, match_id: int, game_id: str
) -> tuple[Places, Places]:
    """(the replay's standings card, its last board as drawn)."""
    match = await service.store.get_match(match_id)
    assert match is not None
    job = make_job(match, await service.store.moves(match_id))
    card = {row.seat: row.rank for row in job.final.standings}
    with drawing() as (probe, bands):
        get_drawer(game_id)(turn_views(job)[-1], job.names, None, job.lang)
    return card, picture_places(game_id, probe, bands, job.names)


async def chart_places(service: MatchService, match_id: int, names: list[str]) -> Places | None:
    """The places at the chart's line ends ("#1 Ann 46"), as drawn; None: no chart."""
    with probing() as probe:
        png = await chart_png(service.store, match_id)
    if png is None:
        return None
    places: Places = {}
    for x in probe.texts:
        m = re.match(r"^#(\d+) (.+) -?\d+$", x.text)
        if m:
            places[seat_named(m.group(2), names)] = int(m.group(1))
    return places


async def rating_order(service: MatchService, match_id: int) -> dict[str, float]:
    """Each rated person's change of conservative rating (everyone starts equal here, so
    a better place gains more and shared places gain alike)."""
    cur = await service.store._reader.execute(
        "SELECT user_id, mu_before, sigma_before, mu_after, sigma_after FROM rating_changes "
        "WHERE match_id = ?",
        (match_id,),
    )
    return {uid: (mu1 - 3 * s1) - (mu0 - 3 * s0) for uid, mu0, s0, mu1, s1 in await cur.fetchall()}


# ----- the test -----------------------------------------------------------------------------
@pytest.mark.parametrize(("game_id", "ending"), CASES)
async def test_every_surface_says_one_ranking(tmp_path: Path, game_id: str, ending: str) -> None:
    service = await MatchService.open(
        tmp_path / "r.db", render=False, render_processes=False, render_workers=1
    )
    try:
        match_id = await drive(service, game_id, ending)
        info = await service.info(match_id)
        names = info.names
        text = await text_places(service, match_id, names)
        picture = await board_places(service, match_id, game_id)
        card, last_board = await replay_places(service, match_id, game_id)
        chart = await chart_places(service, match_id, names)
        record = (await service.export_record(match_id))["result"]
        ratings = await rating_order(service, match_id)

        cur = await service.store._reader.execute(
            "SELECT COUNT(*) FROM outbox WHERE match_id = ? AND kind = 'chart'", (match_id,)
        )
        charts_posted = (await cur.fetchone())[0]
        if ending == "aborted":  # no result: no ranking anywhere, no chart, no rating
            assert text == {} and picture == {} and card == {} and last_board == {}
            assert chart is None and charts_posted == 0
            assert record is None and ratings == {}
            return
        assert charts_posted == 1
        seats = range(len(names))
        assert sorted(text) == list(seats), text
        assert picture == text, f"final picture {picture} ≠ result text {text}"
        assert last_board == text, f"replay's last board {last_board} ≠ result text {text}"
        assert card == text, f"replay's standings {card} ≠ result text {text}"
        assert chart == text, f"score chart {chart} ≠ result text {text}"
        assert dict(enumerate(record["ranks"])) == text, f"record {record['ranks']} ≠ {text}"
        # the ratings: people holding a seat at the end in the seat's order; a person who
        # gave a seat up (and no longer holds it) below every one of them
        holders = {s.user_id: s.seat for s in info.seats if not is_computer(s.user_id)}
        assert ratings and set(holders) <= set(ratings)
        for a, sa in holders.items():
            for b, sb in holders.items():
                if text[sa] < text[sb]:
                    assert ratings[a] > ratings[b], (ratings, text)
                elif text[sa] == text[sb]:
                    assert ratings[a] == pytest.approx(ratings[b]), (ratings, text)
        for quitter in set(ratings) - set(holders):
            assert ratings[quitter] < min(ratings[u] for u in holders), ratings
    finally:
        await service.close()


def test_the_result_texts_reason_says_one_point_and_reads_a_result_stored_before() -> None:
    """The reason under the standings says a winning score of 1 in the singular (issue
    41, "1 points"), and a result stored before its reason became a plural family (no
    count ``n`` in its words) is said from the English it keeps, not refused. A plain win's
    reason only restates the standings' first line and is left out (said once)."""
    names = ["Ann", "Ben"]
    both = listed([Seat(0), Seat(1)])
    one = Msg("taj_mahal.result.shared", who=both, n=1, points=1)
    result = {"scores": [1, 1], "ranks": [1, 1], "winners": [0, 1], "reason": str(one)}
    result["reason_msg"] = to_json(one)
    assert result_text(result, names).endswith(
        "\nAnn and Ben share the win with 1 point (no tie-breaker)."
    )
    assert result_text(result, names, lang="de").endswith(
        "\nAnn und Ben teilen sich den Sieg mit je 1 Punkt (keine Entscheidung bei Gleichstand)."
    )
    assert "po 1 punkcie" in result_text(result, names, lang="pl")
    stored = {"key": "azul.result.shared", "params": {"who": to_json(both), "points": 45}}
    english = "{p0} and {p1} share the victory with 45 points and 2 complete rows each."
    old = {**result, "scores": [45, 45], "reason": english, "reason_msg": stored}
    assert result_text(old, names, lang="de").endswith(
        "\nAnn and Ben share the victory with 45 points and 2 complete rows each."
    )
    win = Msg("taj_mahal.result.wins", who=Seat(0), n=1, points=1)
    plain = {"scores": [1, 0], "ranks": [1, 2], "winners": [0], "reason": str(win)}
    plain["reason_msg"] = to_json(win)
    assert "wins with" not in result_text(plain, names)
