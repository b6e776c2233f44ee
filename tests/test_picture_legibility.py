"""Pictures read on a phone: measured on many random states of every game, player count
and catalogue language.

- the header band's smallest text is ≥ 9 px tall when the picture is shown 400 px wide;
- every text of a public picture is ≥ 11 px tall when it is shown 1,080 px wide (hand
  pictures: at their own width when narrower, as Discord never enlarges a picture);
- no text box leaves the image it is drawn on (board, band or sprite), nor touches the
  picture's edge; band texts stay inside the band;
- measured, not clipped: no text a renderer fits into a box (``render.common.fit_text``)
  is cut with "…" — a longer language is set smaller (down to the legible floor) or on
  more lines; the band's last move — each sampled state's real public sentence
  (``Game.tell``) in the drawn language, and now and then an endless one — is drawn whole,
  on as many rows as it takes;
- hand pictures are cropped to their content (no wide empty margin).

"Text height" is the font size in pixels (the em box), scaled to the shown width.

Every language we ship is drawn, and a pseudo-language whose every word is ~40 % longer
(like German compounds, with non-English letters), so a layout that only fits English
fails here before a translation reaches players.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from PIL import Image, ImageChops

from render.registry import _RENDERERS
from render.words.catalogue import LANGUAGES, MESSAGES
from render.words.say import say
from rules import get_game
from rules.playout import random_playout
from rules.registry import game_ids
from tests.picture_probe import DrawnText, FittedText, draw_probed, fresh_caches, probing

NAMES = ["Ágnes", "Bálint", "Łucja", "Dénes", "Özge"]
LONG_MOVE = "a long move description " * 6
#: the pseudo-language: "qps" (the pseudo-locale code), drawn beside the real ones
PSEUDO = "qps"


def longer(text: str) -> str:
    """Every word ~40 % longer (at least one letter), placeholders untouched."""
    parts = re.split(r"(\{[^}]*\})", text)
    return "".join(
        p
        if p.startswith("{")
        else re.sub(
            r"[^\W\d_]{2,}",
            lambda m: m.group(0) + ("äöüßőł" * 9)[: max(1, round(len(m.group(0)) * 0.4))],
            p,
        )
        for p in parts
    )


PHONE, TAPPED = 400, 1080
STATES_PER_COUNT = 10


def sample_states(game_id: str, players: int) -> list[tuple[dict[str, Any], Any]]:
    """States spread over a random game, each with the public sentence of the move that
    led to it (None for the fresh game)."""
    game = get_game(game_id)
    states: list[tuple[dict[str, Any], Any]] = []

    def step_hook(_before: Any, seat: int, move: Any, after: Any, events: list[Any]) -> None:
        told = game.tell(seat, move.notation, [e.public() for e in events])
        states.append((after, told.words if told else None))

    random_playout(game, players, 40 + players, on_step=step_hook)
    step = max(1, len(states) // (STATES_PER_COUNT - 1))
    return [(game.setup(players, 3), None), *states[step::step][: STATES_PER_COUNT - 2], states[-1]]


#: every game whose pictures our renderers draw (a test's stand-in game draws its own)
GAMES = [g for g in game_ids() if g in _RENDERERS and _RENDERERS[g].startswith("render.")]
CASES = [(g, n) for g in GAMES for n in range(get_game(g).min_players, get_game(g).max_players + 1)]


def _inside(text: DrawnText, margin: int) -> bool:
    w, h = text.canvas
    x0, y0, x1, y1 = text.box
    return x0 >= margin and y0 >= margin and x1 <= w - margin and y1 <= h - margin


@pytest.mark.parametrize("lang", [*LANGUAGES, PSEUDO])
@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_texts_are_big_enough_and_inside(
    game_id: str, players: int, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if lang == PSEUDO:
        monkeypatch.setitem(MESSAGES, PSEUDO, {k: longer(v) for k, v in MESSAGES["en"].items()})
    game = get_game(game_id)
    names = NAMES[:players]
    fresh_caches(game_id)  # the static layers' texts are drawn (and measured) again
    for i, (state, told) in enumerate(sample_states(game_id, players)):
        view = game.view(state, None)
        if told is not None:
            view["last_move"] = say(told, lang, names)
        if i % 4 == 3:
            view["last_move"] = f"{names[0]}: " + LONG_MOVE
        if i % 3 == 1:  # players away (/notify away): their note beside who must act
            view["away"] = {str(s): 1_800_000_000.0 for s in range(players)}
        img, probe = draw_probed(game_id, view, names, None, lang)
        assert probe.texts, "nothing measured"
        # the band: on top, every text readable at phone width, inside the band
        band = probe.band_texts()
        assert band and probe.band_height > 0
        assert min(x.size for x in band) * PHONE / img.width >= 9, [(x.text, x.size) for x in band]
        assert all(_inside(x, 2) for x in band), [x for x in band if not _inside(x, 2)]
        texts = {x.text for x in band}
        if view.get("last_move"):  # the last move whole: every word of it in the band
            drawn = " ".join(x.text for x in band).split()
            assert " ".join(view["last_move"].split()) in " ".join(drawn), view["last_move"]
        assert any(names[s] in x for s in game.to_act(state) for x in texts) or not game.to_act(
            state
        )
        # after a tap: every text ≥ 11 px
        small = [(x.text, x.size) for x in probe.texts if x.size * TAPPED / img.width < 11]
        assert small == [], f"{game_id} {players}p: too small at {TAPPED} px: {small[:5]}"
        # every text inside the image it is drawn on; on the final canvas, off the edge
        outside = [x for x in probe.texts if not _inside(x, 0)]
        assert outside == [], outside[:3]
        edge = [x for x in probe.texts if x.canvas == img.size and not _inside(x, 3)]
        assert edge == [], edge[:3]
        assert probe.fitted and clipped(probe.fitted) == []
        if game.has_hidden_information:
            seat = game.to_act(state)[0] if game.to_act(state) else 0
            hand, hp = draw_probed(game_id, game.view(state, seat), names, seat, lang)
            scale = min(1.0, TAPPED / hand.width)
            assert min(x.size for x in hp.texts) * scale >= 11
            assert [x for x in hp.texts if not _inside(x, 0)] == []
            assert clipped(hp.fitted) == []
            assert_cropped(hand)


def clipped(fitted: list[FittedText]) -> list[tuple[str, str, int, int]]:
    """Texts cut to fit their box (none may be: not even an endless last move)."""
    return [(f.text, f.shown, round(f.width), f.room) for f in fitted if f.clipped]


def assert_cropped(img: Image.Image) -> None:
    """Below the full-width heading, the content spans at least half the width (not the
    left third of a wide strip) and reaches the bottom; the picture is phone-shaped."""
    rgb = img.convert("RGB")
    body = rgb.crop((0, rgb.height // 4, rgb.width, rgb.height))
    background = Image.new("RGB", body.size, rgb.getpixel((rgb.width - 1, rgb.height - 1)))
    box = ImageChops.difference(body, background).getbbox()
    assert box is not None
    assert box[2] >= img.width / 2, (img.size, box)
    assert body.height - box[3] <= 40, (img.size, box)
    assert img.width <= 1100  # laid out for a phone, not a desktop-wide strip


CHART_NAMES = ["Łucja Wiśniewska", "🤖 Barbara (normal)", "Ágnes", "🤖 Edsger (strong)"]


@pytest.mark.parametrize("lang", [*LANGUAGES, PSEUDO])
def test_the_chart_and_the_replays_cards_fit_in_every_language(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The score chart (translated title, both marked moments, every line's end) and the
    replay's cards (a long result sentence, a seat played on by someone else) keep every
    text whole and inside, in every language and the longer pseudo-language."""
    from render.chart import HEIGHT, WIDTH, ScoreChart, draw_score_chart
    from render.replay import FinalCard, Seat, Standing, TitleCard, final_frame, title_frame
    from render.words.catalogue import t, tn

    if lang == PSEUDO:
        monkeypatch.setitem(MESSAGES, PSEUDO, {k: longer(v) for k, v in MESSAGES["en"].items()})
    title = t("chart.title", lang, match=1234, game="Taj Mahal", unit="points")
    if lang != "en":
        assert "points" not in title and "after every turn" not in title
    scores = [
        [0, 0, 0, 0],
        [3, 0, 0, 0],
        [3, 9, 0, 0],
        [5, 9, 4, 0],
        [12, 9, 4, 2],
        [31, 14, 22, 9],
    ]
    chart = ScoreChart(title, CHART_NAMES, scores, [1, 3, 2, 4])
    with probing() as probe:
        draw_score_chart(chart, lang)
    texts = {x.text for x in probe.texts}
    assert t("chart.end", lang, change="+19", name=CHART_NAMES[0]) in texts
    assert t("chart.swing", lang, change="+9", name=CHART_NAMES[1], turn=2) in texts
    assert [x for x in probe.texts if not _inside(x, 0)] == []
    assert min(x.size for x in probe.texts) * TAPPED / (WIDTH * 2) >= 11
    assert clipped(probe.fitted) == [] and probe.texts[0].canvas == (WIDTH * 2, HEIGHT * 2)

    names = [*NAMES[:3], *CHART_NAMES[1:]]
    points = [tn("unit.points", n, lang) for n in (46, 46, 31, 20, 2)]
    seat = t("result.forfeited_seat", lang, name=names[3], resigner=names[4])
    wins = t("end.wins", lang, names=names[0])
    ending = t("end.over_gave_up", lang, wins=wins, names=f"{names[4]}, {names[3]}")
    tie = tn("azul.result.tie_break", 46, lang, tied=", ".join(names[:2]), who=names[0], rows=3,
             other=2)  # fmt: skip
    reason = t("azul.result.no_row_possible", lang, reason=tie)
    rows = [Standing(r + 1, r, seat if r == 3 else names[r], points[r]) for r in range(5)]
    card = FinalCard(t("pic.replay.final", lang), [ending, reason], rows)
    title_card = TitleCard("Taj Mahal", 12, [Seat(n, s) for s, n in enumerate(names)], "2025", 99)
    with probing() as probe:
        final_frame(card, (960, 758), lang)
        title_frame(title_card, (960, 758), lang)
    drawn = " ".join(x.text for x in probe.texts)
    assert all(word in drawn for word in reason.split()), reason  # the whole sentence
    assert [x for x in probe.texts if not _inside(x, 0)] == []
    assert clipped(probe.fitted) == []
