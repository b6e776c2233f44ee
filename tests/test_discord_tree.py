"""The command tree built offline: every payload within Discord's limits (which discord.py
does not check itself), the catalogue complete in English with fallback, the translator,
and the documented invite permissions matching the code."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.discord.client import PERMISSIONS, intents, invite_url
from bot.discord.i18n import CatalogueTranslator, L
from render.words.catalogue import LANGUAGES, MESSAGES, language_of, t
from tests.discord_harness import running
from tests.fakediscord.limits import check_commands, command_size

#: Discord's locale key for each language we ship (a language with regions: the one used)
LOCALES = {"hu": "hu", "de": "de", "pl": "pl", "sv": "sv-SE"}

ROOT = Path(__file__).resolve().parent.parent
NAME = re.compile(r"^[-_\w]{1,32}$")


def check_options(where: str, options: list[dict[str, Any]], problems: list[str]) -> None:
    if len(options) > 25:
        problems.append(f"{where}: {len(options)} options")
    seen_optional = False
    for opt in options:
        here = f"{where} {opt['name']}"
        if not NAME.match(opt["name"]) or opt["name"] != opt["name"].lower():
            problems.append(f"{here}: bad name")
        if not 1 <= len(opt.get("description", "")) <= 100:
            problems.append(f"{here}: description length {len(opt.get('description', ''))}")
        if opt["type"] in (1, 2):
            check_options(here, opt.get("options", []), problems)
            continue
        if opt.get("required"):
            if seen_optional:
                problems.append(f"{here}: required after optional")
        else:
            seen_optional = True
        choices = opt.get("choices") or []
        if len(choices) > 25:
            problems.append(f"{here}: {len(choices)} choices")
        if choices and opt.get("autocomplete"):
            problems.append(f"{here}: choices together with autocomplete")
        for c in choices:
            if not 1 <= len(c["name"]) <= 100 or len(str(c["value"])) > 100:
                problems.append(f"{here}: choice {c['name']!r} too long")


async def test_every_command_payload_is_within_discords_limits(tmp_path, monkeypatch) -> None:
    async with running(tmp_path, monkeypatch) as h:
        payloads = [c.to_dict(h.bot.tree) for c in h.bot.tree.get_commands()]
    names = {p["name"] for p in payloads}
    assert {"game", "play", "board", "hand", "history", "resign", "undo", "rules", "notify"} <= (
        names
    )
    assert len(payloads) <= 100
    problems: list[str] = []
    for p in payloads:
        if not NAME.match(p["name"]) or p["name"] != p["name"].lower():
            problems.append(f"{p['name']}: bad name")
        if not 1 <= len(p["description"]) <= 100:
            problems.append(f"{p['name']}: description length {len(p['description'])}")
        check_options(p["name"], p.get("options", []), problems)
    assert problems == []
    game = next(p for p in payloads if p["name"] == "game")
    subs = {o["name"] for o in game["options"]}
    assert {"new", "join", "leave", "start", "list", "abort", "settings"} <= subs
    new = next(o for o in game["options"] if o["name"] == "new")
    values = [c["value"] for c in new["options"][0]["choices"]]
    assert "test-pile" in values  # games listed generically from the registry


async def test_sync_sends_translated_payload(tmp_path, monkeypatch) -> None:
    MESSAGES["de"] = {"cmd.board": "Das Brett noch einmal zeigen"}
    try:
        async with running(tmp_path, monkeypatch) as h:
            count = await h.bot.sync_commands("global")
            put = [c for c in h.fake.calls if c.method == "PUT"][-1]
    finally:
        del MESSAGES["de"]
    assert count == len(put.payload)
    board = next(c for c in put.payload if c["name"] == "board")  # type: ignore[union-attr]
    assert board["description_localizations"]["de"] == "Das Brett noch einmal zeigen"


def used_keys() -> set[str]:
    keys: set[str] = set()
    pattern = re.compile(r"""\b(?:t|L|UserError)\(\s*(?:f?)["']([a-z_.{}]+)["']""")
    for path in (ROOT / "bot").rglob("*.py"):
        for key in pattern.findall(path.read_text(encoding="utf-8")):
            if "{" in key:  # f"btn.{action}" and the like: expand below
                continue
            keys.add(key)
    keys |= {f"btn.{a}" for a in ("join", "leave", "start")}
    keys |= {f"mode.{m}" for m in ("mention", "dm", "off")}
    return keys


def test_every_key_used_exists_in_english() -> None:
    keys = used_keys()
    assert len(keys) > 60
    missing = sorted(k for k in keys if k not in MESSAGES["en"])
    assert missing == []


def test_missing_translation_falls_back_to_english() -> None:
    MESSAGES["hu"] = {"btn.join": "Csatlakozom"}
    try:
        assert t("btn.join", "hu") == "Csatlakozom"
        assert t("btn.leave", "hu") == MESSAGES["en"]["btn.leave"]
        assert t("lobby.left", discord.Locale.hungarian, user="Bob", match=3) == (
            "Bob left match #3."
        )
        assert t("btn.join", "pt-BR") == "Join"  # a language we do not speak
    finally:
        del MESSAGES["hu"]
    assert language_of(discord.Locale.american_english) == "en"
    with pytest.raises(KeyError):
        t("no.such.key")


async def test_translator_returns_none_for_english_and_untranslated() -> None:
    tr = CatalogueTranslator()
    ctx = app_commands.TranslationContext(app_commands.TranslationContextLocation.other, None)
    assert await tr.translate(L("cmd.board"), discord.Locale.brazil_portuguese, ctx) is None
    MESSAGES["pl"] = {"cmd.board": "Pokaż planszę"}
    try:
        assert await tr.translate(L("cmd.board"), discord.Locale.polish, ctx) == "Pokaż planszę"
        assert await tr.translate(L("cmd.board"), discord.Locale.british_english, ctx) is None
    finally:
        del MESSAGES["pl"]


def test_least_privilege_and_docs_agree() -> None:
    assert not intents().message_content and not intents().members
    assert not intents().presences and intents().guilds
    perms = PERMISSIONS
    assert not perms.administrator and not perms.manage_messages and not perms.mention_everyone
    url = invite_url(123)
    assert "scope=bot+applications.commands" in url and f"permissions={perms.value}" in url
    doc = (ROOT / "README.md").read_text(encoding="utf-8")
    assert str(perms.value) in doc
    assert "python -m bot --sync" in doc


def test_env_example_documents_every_setting() -> None:
    from bot.settings import Settings

    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    assert "\nDISCORD_TOKEN=" in text
    for name in Settings.model_fields:
        if name != "discord_token":
            assert f"\nTESSERA_{name.upper()}=" in text, name


def test_env_example_states_the_defaults(monkeypatch) -> None:
    from bot.settings import Settings

    for key in list(__import__("os").environ):
        if key.startswith("TESSERA_") or key == "DISCORD_TOKEN":
            monkeypatch.delenv(key)
    assert Settings(_env_file=ROOT / ".env.example") == Settings(_env_file=None)


async def translated_payloads(tree: app_commands.CommandTree) -> list[dict[str, Any]]:
    """Exactly what ``tree.sync()`` sends: every command with its localisations."""
    translator = CatalogueTranslator()
    return [await c.get_translated_payload(tree, translator) for c in tree.get_commands()]


def command_keys() -> list[str]:
    """The catalogue keys of command metadata: descriptions, option descriptions, choices."""
    return [k for k in MESSAGES["en"] if k.startswith(("cmd.", "opt.", "choice."))]


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_translated_payload_within_discords_limits(lang: str, tmp_path, monkeypatch) -> None:
    """Per language we ship: every command text fits Discord's 100 characters as written
    (the translator would clip it, silently), and what sync() sends passes the strict
    local Discord's checks, the 8,000 characters counted with the longest localisation."""
    too_long = {k: len(text) for k in command_keys() if len(text := t(k, lang)) > 100}
    assert too_long == {}
    async with running(tmp_path, monkeypatch) as h:
        payloads = await translated_payloads(h.bot.tree)
    check_commands(payloads)  # raises Discord's 50035 error body on any violation
    if lang != "en":  # its texts really reach the payload, under Discord's locale key
        board = next(p for p in payloads if p["name"] == "board")
        assert board["description_localizations"][str(LOCALES[lang])] == t("cmd.board", lang)


async def test_long_translations_are_counted_like_discord_does(tmp_path, monkeypatch) -> None:
    """A stand-in language whose command texts are ~40% longer than English (clipped to
    100 by the translator) reaches the payload, and the strict check counts it: each
    command's size is taken with its longest localisation and still fits 8,000."""
    monkeypatch.setitem(
        MESSAGES, "sv", {k: (v + " " + v[: len(v) * 2 // 5]) for k, v in MESSAGES["en"].items()}
    )
    async with running(tmp_path, monkeypatch) as h:
        payloads = await translated_payloads(h.bot.tree)
        english = [c.to_dict(h.bot.tree) for c in h.bot.tree.get_commands()]
    check_commands(payloads)
    game = next(p for p in payloads if p["name"] == "game")
    assert game["description_localizations"]["sv-SE"].startswith(t("cmd.game"))
    plain = next(p for p in english if p["name"] == "game")
    assert command_size(plain) < command_size(game) < 8000
