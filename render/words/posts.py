"""The bot's own words in a post, kept as data so every front end says them in its reader's
language: the match's for a turn post, the reader's for a DM.

Why: the match service writes a post once, in the transaction of the change it reports,
but the language it is read in is known only where it is delivered (the match's language
on Discord and in the console; the reader's for a direct message). So beside the English
``lines`` a payload keeps ``words``: per line, its message in the stored JSON form of
docs/words.md (``{"key", "params"}``; rule words as the rules gave them), or one of the
bot's few composite forms below, and :func:`said_in` says them again.

Composite line forms (all JSON):

- ``{"mover": seat, "label": <message>}``: "Bob: <the move's label>";
- ``{"mover": seat, "label": <message>, "told": <message>}``: the move told to the
  table, "Bob took 2 blue from factory 3 to line 4." (``rules.base.Game.tell``; the
  label stays for the mover's own reply, "You played: …");
- ``{"result": <result JSON>, "unit": "points"}``: the final standings
  (:func:`result_text`);
- ``{"away": name, "until": timestamp}``: "Bob is away until 12 Dec" (the date in the
  reader's language).

A line without words (None) is shown as stored: names, numbers, or a post written before
words were kept.
"""

from __future__ import annotations

from typing import Any

from render.words.catalogue import DEFAULT_LANGUAGE, MESSAGES, language_of, t, tn
from render.words.say import is_plural, say
from render.words.stamps import discord_time


def word(key: str, /, **params: Any) -> dict[str, Any]:
    """A catalogue message in its stored form (params: numbers and plain strings, such as
    player names, shown verbatim)."""
    return {"key": key, "params": params}


def listing(items: list[str], lang: Any = None) -> str:
    """ "A, B and C" in ``lang``: the catalogue's separators (``words.comma``,
    ``words.and``), so no list is joined in English."""
    if len(items) <= 1:
        return "".join(items)
    return t("words.comma", lang).join(items[:-1]) + t("words.and", lang) + items[-1]


def listing_word(items: list[str]) -> dict[str, Any]:
    """:func:`listing` as stored words (a join of a join, see ``rules.words.Join``)."""
    if len(items) <= 1:
        return {"join": "words.comma", "items": list(items)}
    return {"join": "words.and", "items": [{"join": "words.comma", "items": items[:-1]}, items[-1]]}


def score_words(score: Any, unit: str, lang: Any = None) -> str:
    """ "12 points" / "12 gold": the unit is a plural family ``unit.<unit>`` when the
    catalogue has one (else the unit as the game names it)."""
    if isinstance(score, int) and f"unit.{unit}.other" in MESSAGES["en"]:
        return tn(f"unit.{unit}", score, lang)
    return f"{score} {unit}"


def result_text(
    result: dict[str, Any], names: list[str], unit: str = "points", lang: Any = None
) -> str:
    """The final standings in words; ``unit`` is what the game's scores count (gold...)."""
    order = sorted(range(len(names)), key=lambda s: (result["ranks"][s], s))
    who = standing_names(result, names, lang)
    parts = [
        t(
            "result.line",
            lang,
            rank=result["ranks"][s],
            name=who[s],
            score=score_words(result["scores"][s], unit, lang),
        )
        for s in order
    ]
    winners = [names[s] for s in result["winners"]]
    head = (
        t("result.wins", lang, name=winners[0])
        if len(winners) == 1
        else t("result.shared", lang, names=listing(winners, lang))
    )
    if result.get("ended_by"):  # "Bob resigned — 🏆 Carol wins!"
        what = ended_by(result, lang, names)
        head = t("result.ended", lang, what=what, head=head)
    reason = result_reason(result, lang, names)
    return "\n".join([head, *parts, *([reason] if reason else [])])


def reason_words(result: dict[str, Any]) -> Any:
    """What a result's reason adds to its standings, as words (or a stored English string),
    or None when it adds nothing.

    Why: a game's reason for a plain win (``<game>.result.wins``: "Bob wins with 85
    points.") restates the headline and the first standing, so the final post said who won
    three times (with the game's end event) — and after a resignation it named the game's
    winner, not the match's, beside a headline naming another. Such a reason is left out;
    one that wraps it (``{reason}``: why the game ended early, a tie-break) is said without
    it. Tie-breaks, shared wins and early ends stay: the standings do not say them."""
    words = result.get("reason_msg")
    if words is None:  # a result stored before its reason was kept as words
        return result.get("reason") or None
    if _restates_the_winner(words):
        return None
    inner = words.get("params", {}).get("reason") if isinstance(words, dict) else None
    if _restates_the_winner(inner):
        return {**words, "params": {**words["params"], "reason": ""}}
    return words


def _restates_the_winner(words: Any) -> bool:
    return isinstance(words, dict) and str(words.get("key", "")).endswith(".result.wins")


def result_reason(result: dict[str, Any], lang: Any, names: list[str]) -> str:
    """The game's words for how its result was decided, in ``lang``, or "" when they
    would only restate the winner (see :func:`reason_words`). A reason stored before its
    message became a plural family lacks the count that chooses the family's form (Azul's
    and Taj Mahal's "wins with N points" before issue 41): such a result is said from the
    English it keeps beside its words."""
    words = reason_words(result)
    if not words:  # nothing beyond the standings (a plain win restates the headline)
        return ""
    if not isinstance(words, str) and _lacks_count(words):
        return say(result.get("reason") or "", lang, names).strip()
    return say(words, lang, names).strip()


def _lacks_count(words: Any) -> bool:
    """Whether stored words name a plural family without its count ``n``, anywhere inside."""
    if isinstance(words, dict):
        params = words.get("params") or {}
        if "key" in words and is_plural(str(words["key"])) and "n" not in params:
            return True
        return any(_lacks_count(v) for v in [*params.values(), *(words.get("items") or [])])
    return False


def standing_names(result: dict[str, Any], names: list[str], lang: Any = None) -> list[str]:
    """Each seat's name as the standings say it: the holder's, and for a seat given up and
    played on by someone else, whose it was and how ("Ada (for Bob, who resigned)", "… who
    ran out of time"). Shared by the result text and the replay's standings card."""
    gave_up = {r["seat"]: r for r in result.get("gave_up", [])}
    out = []
    for s, name in enumerate(names):
        if s in gave_up and gave_up[s]["name"] != name:
            key = "result.forfeited_seat" if gave_up[s].get("how") else "result.resigned_seat"
            name = t(key, lang, name=name, resigner=gave_up[s]["name"])
        out.append(name)
    return out


def ended_by(result: dict[str, Any], lang: Any, names: list[str]) -> str:
    """Who ended the match early, in a few words ("Bob resigned"): its stored words when
    the result has them, else the English stored before words were kept."""
    if result.get("ended_by_words"):
        return say(result["ended_by_words"], lang, names)
    return str(result["ended_by"])


def end_summary(
    status: str,
    result: dict[str, Any] | None,
    end_reason: str | None,
    names: list[str],
    lang: Any = None,
    end_words: Any = None,
) -> dict[str, Any] | None:
    """What a picture of an ended match says instead of whose turn it is — ``{"text",
    "winners"}`` — or None when the board itself tells the end (the game's own game
    over with nobody resigned). Plain words, no emoji: pictures draw them. ``end_words``:
    an aborted match's reason as stored words (the match settings' ``end_words``)."""
    if status == "aborted":
        if end_words:
            return {"text": say(end_words, lang, names), "winners": []}
        return {"text": end_reason or t("end.aborted", lang), "winners": []}
    if status != "finished" or not result:
        return None
    if not result.get("ended_by") and not result.get("gave_up"):
        return None
    winners = [names[s] for s in result["winners"] if s < len(names)]
    key = "end.wins" if len(winners) == 1 else "end.win_shared"
    wins = t(key, lang, names=listing(winners, lang))
    if result.get("ended_by"):
        text = t("end.early", lang, what=ended_by(result, lang, names), wins=wins)
    else:
        gave_up = listing([r["name"] for r in result["gave_up"]], lang)
        hows = {r.get("how") for r in result["gave_up"]}
        key = "end.over_resigned"  # who gave up: resigned, ran out of time, or both
        if "forfeit" in hows:
            key = "end.over_forfeit" if hows == {"forfeit"} else "end.over_gave_up"
        text = t(key, lang, wins=wins, names=gave_up)
    return {"text": text, "winners": list(result["winners"])}


def say_line(value: Any, lang: Any, names: list[str]) -> str:
    """One stored line's words in ``lang`` (see the module docstring for the forms)."""
    if isinstance(value, dict) and "told" in value:  # the move told to the table
        return say(value["told"], lang, names)
    if isinstance(value, dict) and "mover" in value:
        seat = int(value["mover"])
        who = names[seat] if 0 <= seat < len(names) else "?"
        return f"{who}: {say(value['label'], lang, names)}"
    if isinstance(value, dict) and "result" in value:
        return result_text(value["result"], names, str(value.get("unit", "points")), lang)
    if isinstance(value, dict) and "away" in value:
        return t(
            "away.status", lang, name=value["away"], date=discord_time(float(value["until"]), "D")
        )
    return say(value, lang, names)


def said_in(
    p: dict[str, Any], lines: list[str], status: str, lang: str, names: list[str]
) -> tuple[list[str], str]:
    """A turn post's lines and status in ``lang``: each line kept as words (``words``, see
    ``MatchService._turn_post``) is said again in that language, the others (names, posts
    written before words were kept) stay as stored. In English, with the names the post
    was written with (``names``, stored since), the stored lines are those words said."""
    if p.get("names") == names and language_of(lang) == DEFAULT_LANGUAGE:
        # The service wrote the English lines and status from these very words with these
        # names (``MatchService._turn_post``): saying them again in English gives the same
        # text (tests/test_whole_game_languages.py says so) and was most of a post's words.
        return lines, status
    words = list(p.get("words") or [])
    out = []
    for k, line in enumerate(lines):
        value = words[k] if k < len(words) else None
        out.append(line if value is None else say_line(value, lang, names))
    if p.get("status_words") is not None:
        status = say(p["status_words"], lang, names)
    return out, status


def post_body(
    p: dict[str, Any],
    lang: str,
    names: list[str],
    said: tuple[list[str], str] | None = None,
) -> str:
    """A whole turn post in ``lang``: its lines, its status and, on a final post, the
    rating changes (``rating_words``, added by the finishing commit). A post stored with
    no words at all keeps its English ``text``. ``said``: what :func:`said_in` gave for
    this post in ``lang`` already (delivery says the lines first for a fold's record;
    saying them again was a sizeable share of a post's CPU)."""
    if "lines" not in p:
        if p.get("text_words") is not None:
            return say_line(p["text_words"], lang, names)
        return str(p.get("text", ""))
    if said is None:
        said = said_in(p, [str(x) for x in p["lines"]], str(p.get("status", "")), lang, names)
    lines, status = said
    ratings = [say(w, lang, names) for w in p.get("rating_words") or []]
    if not ratings and p.get("text") and not p.get("rating_words"):
        # rating lines appended to ``text`` by an older bot: keep them
        stored = "\n".join(x for x in [*map(str, p["lines"]), str(p.get("status", ""))] if x)
        extra = str(p["text"])[len(stored) :] if str(p["text"]).startswith(stored) else ""
        ratings = [x for x in extra.split("\n") if x]
    return "\n".join(x for x in [*lines, status, *ratings] if x)
