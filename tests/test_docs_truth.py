"""What the README, CONTRIBUTING, docs/ and .env.example say about the code stays true.

Why a test: the docs name files, modules, classes, commands, options and levels, and the
code moves under them (issue 40 cut the service, the store and the words into packages;
issue 41 found the README offering strong in two games where three offer it, and calling
translated words English). Each check reads the docs as text and asks the code itself —
the file tree, the import system, the classes' source, ``python -m bot``'s argument
parser, Discord's real command tree, the computer levels — never a copy of the answer.

Already kept elsewhere, so not here: .env.example against ``bot/settings.py``
(tests/test_cli_env_example.py), the options table in docs/discord.md
(tests/test_options_table.py), the README's console example (tests/test_console_parity.py),
the invite permissions (tests/test_discord_tree.py).
"""

from __future__ import annotations

import argparse
import ast
import importlib
import importlib.util
import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from bot.__main__ import _parser
from bot.settings import Settings
from render.words.catalogue import LANGUAGES
from rules import get_game
from rules.ai import levels_for
from rules.registry import game_ids
from tests.discord_harness import running

ROOT = Path(__file__).resolve().parent.parent
#: The games we ship (a test may register more), by id.
SHIPPED = ("azul", "taj-mahal", "maharani", "pastiche")
#: Top folders of the repository a doc may name a path in.
TOP = ("bot", "render", "rules", "tests", "benchmarks", "data", "docs", "locale", "deploy")
#: Python packages of ours a doc may name a module or class of.
PACKAGES = ("bot", "render", "rules", "tests", "benchmarks")


def doc_files() -> list[Path]:
    return [
        ROOT / "README.md",
        ROOT / "CONTRIBUTING.md",
        ROOT / ".env.example",
        *sorted((ROOT / "docs").rglob("*.md")),
    ]


def where(doc: Path, text: str, at: int) -> str:
    return f"{doc.relative_to(ROOT)}:{text.count(chr(10), 0, at) + 1}"


def flat(text: str) -> str:
    """Line breaks and runs of spaces as one space (claims wrap across lines)."""
    return re.sub(r"\s+", " ", text)


# ----- files and modules ------------------------------------------------------------------
PATH = re.compile(rf"(?<![\w./@-])((?:{'|'.join(TOP)})/[\w./<>*@-]*)")
PLACEHOLDERS = {
    "<game>": [get_game(g).__module__.split(".")[1] for g in SHIPPED],
    "<lang>": [lang for lang in LANGUAGES if lang != "en"],
}


def path_exists(named: str) -> bool:
    """A path as a doc names it: exact, or with ``<game>``/``<lang>``/``*`` standing for any
    of ours (at least one must exist); ``render/<game>`` may be a module or a package."""
    named = named.rstrip(".,:;)")
    candidates = [named]
    for mark, values in PLACEHOLDERS.items():
        candidates = (
            [c.replace(mark, v) for c in candidates for v in values]
            if any(mark in c for c in candidates)
            else candidates
        )
    for candidate in candidates:
        if "<" in candidate:
            return True  # another placeholder (a name the reader picks): nothing to check
        found = list(ROOT.glob(candidate)) if "*" in candidate else [ROOT / candidate]
        if any(p.exists() or p.with_suffix(".py").exists() for p in found):
            return True
    return False


def test_every_path_the_docs_name_exists() -> None:
    missing = []
    for doc in doc_files():
        text = doc.read_text(encoding="utf-8")
        for m in PATH.finditer(text):
            if not path_exists(m.group(1)):
                missing.append(f"{where(doc, text, m.start())}: {m.group(1)}")
    assert missing == [], "paths named in the docs that do not exist:\n" + "\n".join(missing)


@cache
def our_python_files() -> tuple[str, ...]:
    return tuple(
        p.relative_to(ROOT).as_posix() for top in PACKAGES for p in (ROOT / top).rglob("*.py")
    )


def test_every_python_file_the_docs_name_by_its_name_exists() -> None:
    """``english_pictures.py``, ``cogs/hint.py`` (in code spans, so the library
    discord.py is not one): a short name must be the end of a path of ours."""
    missing = []
    for doc in doc_files():
        text = doc.read_text(encoding="utf-8")
        for at, code in code_snippets(text):
            for name in re.findall(r"(?<![\w./<>-])([\w/]+\.py)\b", code):
                if not any(f == name or f.endswith("/" + name) for f in our_python_files()):
                    missing.append(f"{where(doc, text, at)}: {name}")
    assert missing == [], "Python files named in the docs that do not exist:\n" + "\n".join(missing)


def resolves(dotted: str) -> bool:
    """``bot.matches.option_table.docs_table``: the longest importable module, then
    attributes (imported, never run as a program)."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        name = ".".join(parts[:i])
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, AttributeError, ValueError):
            found = False
        if not found:
            continue
        obj: Any = importlib.import_module(name)
        for attribute in parts[i:]:
            if not hasattr(obj, attribute):
                return False
            obj = getattr(obj, attribute)
        return True
    return False


def test_every_module_the_docs_name_imports() -> None:
    dotted = re.compile(rf"(?<![\w./-])((?:{'|'.join(PACKAGES)})(?:\.\w+)+)")
    missing = []
    for doc in doc_files():
        text = doc.read_text(encoding="utf-8")
        for m in dotted.finditer(text):
            name = m.group(1)
            if name.rsplit(".", 1)[-1] in ("py", "md", "json") or any(
                part.isupper()
                for part in name.split(".")  # benchmarks.NAME: a placeholder
            ):
                continue
            if not resolves(name):
                missing.append(f"{where(doc, text, m.start())}: {name}")
    assert missing == [], "modules named in the docs that do not import:\n" + "\n".join(missing)


@cache
def class_members() -> dict[str, tuple[set[str], set[str]]]:
    """Every class of ours by name: (its members, its bases' names). Members are what its
    body defines or assigns and what its methods assign on ``self``."""
    classes: dict[str, tuple[set[str], set[str]]] = {}
    for file in our_python_files():
        if not file.startswith(("bot/", "render/", "rules/")):
            continue
        tree = ast.parse((ROOT / file).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            members, bases = classes.setdefault(node.name, (set(), set()))
            bases.update(b.id if isinstance(b, ast.Name) else ast.unparse(b) for b in node.bases)
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    members.add(item.name)
                elif isinstance(item, ast.Assign):
                    members.update(t.id for t in item.targets if isinstance(t, ast.Name))
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    members.add(item.target.id)
            for sub in ast.walk(node):
                if (
                    isinstance(sub, ast.Attribute)
                    and isinstance(sub.ctx, ast.Store)
                    and isinstance(sub.value, ast.Name)
                    and sub.value.id == "self"
                ):
                    members.add(sub.attr)
    return classes


def has_member(cls: str, member: str, seen: frozenset[str] = frozenset()) -> bool:
    members, bases = class_members()[cls]
    return member in members or any(
        has_member(base, member, seen | {cls})
        for base in bases
        if base in class_members() and base not in seen
    )


def test_every_class_member_the_docs_name_exists() -> None:
    """```MatchService.turn_for```, ```Subs._hand_seat```: the class is ours and has it (its
    own or inherited). Classes not of ours (``Counter.update``) are not checked."""
    missing = []
    for doc in doc_files():
        text = doc.read_text(encoding="utf-8")
        for m in re.finditer(r"`([A-Z]\w*)\.(\w+)", text):
            cls, member = m.groups()
            if cls in class_members() and not has_member(cls, member):
                missing.append(f"{where(doc, text, m.start())}: {cls}.{member}")
    assert missing == [], "class members named in the docs that do not exist:\n" + "\n".join(
        missing
    )


# ----- commands ---------------------------------------------------------------------------
def code_snippets(text: str) -> list[tuple[int, str]]:
    """(offset, code): each line of a fenced block (``\\`` continuations joined) and each
    inline code span, split at ``;`` and ``&&`` into single commands."""
    out: list[tuple[int, str]] = []
    for block in re.finditer(r"```[^\n]*\n(.*?)```", text, re.S):
        body = block.group(1).replace("\\\n", " ")
        for line in body.splitlines():
            out.append((block.start(), line.split(" #")[0]))
    inline = re.sub(r"```.*?```", lambda b: " " * len(b.group(0)), text, flags=re.S)
    for span in re.finditer(r"`([^`]+)`", inline):
        out.append((span.start(), span.group(1)))
    return [(at, part) for at, code in out for part in re.split(r";|&&", code)]


def python_commands() -> list[tuple[str, str, list[str]]]:
    """(where, module, arguments) of every ``python -m MODULE …`` the docs show."""
    found = []
    for doc in doc_files():
        text = doc.read_text(encoding="utf-8")
        for at, code in code_snippets(text):
            for m in re.finditer(r"python3? -m ([\w.]+)(.*)", flat(code)):
                found.append((where(doc, text, at), m.group(1), m.group(2).split()))
    return found


def flags_of(arguments: list[str]) -> list[str]:
    return [re.sub(r"[\]\[…)]+$", "", a.split("=")[0]) for a in arguments if a.startswith("--")]


def bot_parser() -> tuple[set[str], dict[str, set[str]]]:
    parser = _parser()
    top = {o for a in parser._actions for o in a.option_strings}
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return top, {
        name: {o for a in sub._actions for o in a.option_strings}
        for name, sub in commands.choices.items()
    }


def source_with_helpers(module: str) -> str:
    """A developer module's source and that of the modules of ours it imports from the
    same package (``benchmarks.pool`` holds the arguments several benchmarks share)."""
    package = module.split(".")[0]
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None
    text = Path(spec.origin).read_text(encoding="utf-8")
    for helper in set(re.findall(rf"from ({package}\.\w+) import|import ({package}\.\w+)", text)):
        name = next(h for h in helper if h)
        text += source_with_helpers(name) if name != module else ""
    return text


def test_every_python_m_command_in_the_docs_exists_with_its_options() -> None:
    """``python -m bot SUB --flag``: the subcommand and each flag are in the argument parser;
    ``python -m benchmarks.NAME --flag``: the module exists and declares the flag."""
    top, subcommands = bot_parser()
    problems = []
    for at, module, arguments in python_commands():
        if any(part.isupper() for part in module.split(".")):
            continue  # benchmarks.NAME
        if importlib.util.find_spec(module) is None:
            problems.append(f"{at}: no module {module}")
            continue
        if module == "bot":
            words = [a for a in arguments if not a.startswith("-")]
            first = words[0] if words else None
            if arguments[:1] == ["--db"] and len(words) > 1:
                first = words[1]  # python -m bot --db FILE audit
            sub = first if first and re.fullmatch(r"[a-z][a-z0-9-]*", first) else None
            if sub is not None and sub not in subcommands:
                problems.append(f"{at}: python -m bot has no command {sub!r}")
                continue
            allowed = top | (subcommands[sub] if sub else set())
            problems += [
                f"{at}: python -m bot {sub} has no {f}"
                for f in flags_of(arguments)
                if f not in allowed
            ]
        elif module.split(".")[0] in PACKAGES:
            source = source_with_helpers(module)
            problems += [
                f"{at}: {module} has no {f}" for f in flags_of(arguments) if f'"{f}"' not in source
            ]
    assert problems == [], "\n".join(problems)


def test_every_pip_extra_the_docs_install_is_declared() -> None:
    extras = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
            "optional-dependencies"
        ]
    )
    problems = []
    for doc in doc_files():
        text = doc.read_text(encoding="utf-8")
        for m in re.finditer(r"pip install [^\n`]*?\[(\w+)\]", text):
            if m.group(1) not in extras:
                problems.append(f"{where(doc, text, m.start())}: no extra [{m.group(1)}]")
    assert problems == [], "\n".join(problems)


def test_every_setting_the_docs_name_exists() -> None:
    """The other way round (every setting in .env.example) is tests/test_cli_env_example.py."""
    names = {"DISCORD_TOKEN"} | {f"TESSERA_{f.upper()}" for f in Settings.model_fields}
    unknown = []
    for doc in doc_files():
        text = doc.read_text(encoding="utf-8")
        for m in re.finditer(r"\bTESSERA_[A-Z_]+\b", text):
            if m.group(0) not in names:
                unknown.append(f"{where(doc, text, m.start())}: {m.group(0)}")
    assert unknown == [], "settings the docs name that bot/settings.py lacks:\n" + "\n".join(
        unknown
    )


# ----- Discord's commands -----------------------------------------------------------------
async def slash_commands(tmp_path: Path, monkeypatch: Any) -> dict[str, set[str]]:
    """Discord's real command tree: every command path ("game new") -> its options."""
    async with running(tmp_path, monkeypatch) as h:
        payloads = [c.to_dict(h.bot.tree) for c in h.bot.tree.get_commands()]
    out: dict[str, set[str]] = {}

    def walk(path: str, options: list[dict[str, Any]]) -> None:
        groups = [o for o in options if o["type"] in (1, 2)]
        for group in groups:
            walk(f"{path} {group['name']}", group.get("options", []))
        if not groups:
            out[path] = {o["name"] for o in options}

    for payload in payloads:
        if payload.get("type", 1) == 1:
            walk(payload["name"], payload.get("options", []))
    return out


def documented_commands() -> dict[str, set[str]]:
    """docs/discord.md's command table: each ``/command sub [option] option:<…>`` of its
    first column -> the options it names."""
    text = (ROOT / "docs" / "discord.md").read_text(encoding="utf-8")
    table = text.split("## Commands as a player sees them", 1)[1].split("\n\n**", 1)[0]
    out: dict[str, set[str]] = {}
    for row in table.splitlines():
        if not row.startswith("| `/"):
            continue
        for span in re.findall(r"`(/[^`]+)`", row.split(" | ")[0]):
            words = span[1:].split()
            path = [words[0]]
            for word in words[1:]:
                if not re.fullmatch(r"[a-z]+", word):
                    break
                path.append(word)
            options = set(re.findall(r"\[(\w+)\]", span)) | set(re.findall(r"(\w+):", span))
            out.setdefault(" ".join(path), set()).update(options)
    return out


async def test_docs_name_every_slash_command_and_option(tmp_path: Path, monkeypatch: Any) -> None:
    real = await slash_commands(tmp_path, monkeypatch)
    documented = documented_commands()
    problems = [
        f"/{p}: not in docs/discord.md's command table" for p in real if p not in documented
    ]
    problems += [f"/{p}: in the docs, not on Discord" for p in documented if p not in real]
    for path in set(real) & set(documented):
        if real[path] != documented[path]:
            problems.append(
                f"/{path}: Discord's options {sorted(real[path])}, "
                f"the docs' {sorted(documented[path])}"
            )
    readme = flat((ROOT / "README.md").read_text(encoding="utf-8"))
    listed = {
        f"{m.group(1)} {sub}"
        for m in re.finditer(r"`/(\w+) ([\w|]+)`", readme)
        for sub in m.group(2).split("|")
    }
    for path in real:
        name = path.split()[0]
        if f"`/{name}" not in readme:
            problems.append(f"/{name}: not in the README's command list")
        elif " " in path and path not in listed:
            problems.append(f"/{path}: not in the README's /{name} a|b|… list")
    assert problems == [], "\n".join(problems)


# ----- what the docs say the code does ----------------------------------------------------
GAME = r"(?:Azul|Taj Mahal|Maharani|Pastiche)"
GAMES = rf"({GAME}(?:(?:, | and ){GAME})*)"
#: the ways the docs say where strong is offered
STRONG_CLAIMS = (
    rf"\bstrong (?:is offered )?(?:only )?in {GAMES}",
    rf"\bin {GAMES} \([^)]*\), strong\b",
    rf"measured beating normal(?::| \()\s*{GAMES}",
)


def test_the_levels_the_docs_offer_per_game_are_the_codes() -> None:
    """Strong is offered where ``rules.ai.levels_for`` offers it, wherever the docs say so:
    the README, docs/discord.md and how computer players think (docs/computer_players.md;
    its later sections are dated measurements)."""
    offered = {
        get_game(g).name for g in game_ids() if g in SHIPPED and "strong" in levels_for(get_game(g))
    }
    assert {"easy", "normal"} <= {lv for g in SHIPPED for lv in levels_for(get_game(g))}
    players = (ROOT / "docs" / "computer_players.md").read_text(encoding="utf-8")
    texts = {
        "README.md": (ROOT / "README.md").read_text(encoding="utf-8"),
        "docs/discord.md": (ROOT / "docs" / "discord.md").read_text(encoding="utf-8"),
        "docs/computer_players.md": players.split("\n## What makes", 1)[0],
    }
    problems = []
    for name, text in texts.items():
        claims = [m.group(1) for p in STRONG_CLAIMS for m in re.finditer(p, flat(text))]
        if not claims:
            problems.append(f"{name}: says nowhere where strong is offered")
        for claim in claims:
            said = set(re.findall(GAME, claim))
            # a list of games is the whole list; one game named alone must offer it
            if said != offered and not (len(said) == 1 and said <= offered):
                problems.append(f"{name}: strong in {sorted(said)}; the code: {sorted(offered)}")
    assert problems == [], "\n".join(problems)


def sentences(text: str) -> list[str]:
    """Prose split into sentences; a table row is one unit."""
    out: list[str] = []
    for paragraph in re.split(r"\n\s*\n", text):
        if paragraph.lstrip().startswith("|"):
            out += paragraph.splitlines()
        else:
            out += re.split(r"(?<=[.!?])\s+", flat(paragraph))
    return out


def test_the_docs_do_not_call_translated_words_english() -> None:
    """Labels, events, refusals and status lines are messages said in the reader's
    language (docs/words.md): no sentence may say they stay English."""
    said_in_language = r"\b(move labels|labels|events|refusals|status lines)\b"
    problems = []
    for doc in doc_files():
        for sentence in sentences(doc.read_text(encoding="utf-8")):
            if re.search(
                r"\b(still|stays?|remains?) English\b|\bEnglish (only|everywhere)\b", sentence, re.I
            ) and re.search(said_in_language, sentence):
                problems.append(f"{doc.relative_to(ROOT)}: {sentence[:160]}")
    assert problems == [], "\n".join(problems)


def test_the_rules_references_data_is_the_data_files() -> None:
    """[R] honesty: every JSON block in docs/rules/ is exactly the data file the game plays
    by, so the reference shows what the game does."""
    import json

    files = {p: json.loads(p.read_text(encoding="utf-8")) for p in (ROOT / "data").rglob("*.json")}
    problems = []
    for doc in sorted((ROOT / "docs" / "rules").glob("*.md")):
        text = doc.read_text(encoding="utf-8")
        for m in re.finditer(r"```json\n(.*?)```", text, re.S):
            block = json.loads(m.group(1))
            if not any(block == data for data in files.values()):
                problems.append(f"{where(doc, text, m.start())}: equals no file in data/")
    assert problems == [], "\n".join(problems)


def test_the_readmes_games_table_is_the_rules() -> None:
    """Each game's row in the README names its player counts as the rules have them."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = {}
    for row in re.findall(r"^\| ([^|]+) \| (\d+)–(\d+) \|", text, re.M):
        name = next(
            (get_game(g).name for g in SHIPPED if row[0].startswith(get_game(g).name)), None
        )
        if name is not None:
            rows[name] = (int(row[1]), int(row[2]))
    assert rows == {
        get_game(g).name: (get_game(g).min_players, get_game(g).max_players) for g in SHIPPED
    }
