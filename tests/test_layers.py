"""The layers import only downward: ``bot`` → ``render`` → ``rules`` → ``data``.

Why a test: an upward import works the day it is written and rots the design from then
on — rules that know the renderer cannot be checked without it, a renderer that knows the
bot cannot draw without a database. Every module of ours is parsed with :mod:`ast` (never
imported), and *every* import statement counts: module level, inside functions (a lazy
import is still a dependency), under ``if TYPE_CHECKING:``, relative imports resolved
against their package, and ``from pkg import sub`` read as an import of ``pkg.sub`` (so
``from bot import console`` is seen for what it is). Imports by a computed name
(``importlib.import_module(name)`` in the registries) cannot be seen statically and are not
checked.

The rules, each with the reason it holds:

* ``data/`` (the games' JSON and its reader) imports nothing of ours: it is the bottom.
* ``rules/`` imports only ``rules`` and ``data``: a game's rules are pure logic over its
  component data, playable and testable with no picture and no bot.
* ``render/`` imports only ``render`` and ``rules``: it draws and words what the rules say;
  the JSON reaches it through the rules, never behind their back.
* ``bot/`` may import anything of ours; but nothing in ``bot``, ``render``, ``rules`` or
  ``data`` imports ``tests`` or ``benchmarks`` (the product must run without them).

Inside ``bot/``, the parts (``bot.matches``, ``bot.storage``, ``bot.computers``,
``bot.community``) serve the front ends (``bot.discord``, ``bot.console``) and the command
line (``bot.__main__``, ``bot.tools``):

* no part imports a front end, ``bot.tools`` or ``bot.__main__``: the same service runs
  under Discord, the console and the tools, so it cannot depend on any of them. (The
  computers' driver is shared by both front ends and obeys this too.)
* ``bot.tools`` and ``bot.__main__`` are imported only by ``bot.__main__`` and the tools
  themselves: the developer commands are leaves of the command line, not a library.
* the two front ends do not import each other: either runs without the other.
* ``bot.settings``, ``bot.gc_tuning`` and ``bot.ops.metrics`` import nothing of ``bot``:
  everything reads the settings, and the parts count into the metrics' registry with
  one-line calls, so they sit at the bottom of the bot.
* ``bot.storage`` imports nothing of ``bot`` but ``bot.storage`` and ``bot.settings``: the
  store is the database and nothing else, so the service can be changed without touching
  it. The one exception is ``bot.storage.copydb`` (``python -m bot copy-db``), which audits
  the copied database through ``bot.matches`` — the same audit the service runs — inside
  the function that needs it.

And no two modules import each other, directly or round a longer circle
(:func:`test_no_import_cycles`): a circle means neither module can be read, tested or moved
without the other, and at import time it works only by the order in which modules happen to
load. Importing ``a.b.c`` runs ``a/__init__`` and ``a/b/__init__`` first, so those count as
imported too. At module level no circle is allowed anywhere; counting lazy imports (inside
functions) and type-only ones as well, the one circle left is the Discord front end's
(``bot.discord``: the move panel's buttons call the cogs' handlers and the cogs build the
panel; the client is named in type hints), to be cut when ``panel.py`` is split.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Our top-level packages from top to bottom, and what each may import of ours.
LAYERS = ("bot", "render", "rules", "data")
MAY_IMPORT = {
    "bot": {"bot", "render", "rules", "data"},
    "render": {"render", "rules"},
    "rules": {"rules", "data"},
    "data": {"data"},
}
#: Ours too, but never imported by the product.
NOT_PRODUCT = ("tests", "benchmarks")

PARTS = ("bot.matches", "bot.storage", "bot.computers", "bot.community")
FRONT_ENDS = ("bot.discord", "bot.console")
COMMAND_LINE = ("bot.__main__", "bot.tools")
LEAVES = ("bot.settings", "bot.gc_tuning", "bot.ops.metrics")
#: (importer, imported) pairs allowed despite the rules above, each explained in the docstring.
EXCEPTIONS = {("bot.storage.copydb", "bot.matches")}


@dataclass(frozen=True)
class Import:
    """One imported module name, where it is imported."""

    path: str  # the importing file, relative to the scanned root
    line: int
    importer: str  # the importing module's dotted name
    target: str  # what it imports, dotted (``from a import b`` gives ``a.b``)


def within(name: str, package: str) -> bool:
    """Whether the dotted ``name`` is ``package`` or inside it."""
    return name == package or name.startswith(package + ".")


def inside(name: str, packages: tuple[str, ...]) -> str | None:
    """The one of ``packages`` that holds ``name``, if any."""
    return next((p for p in packages if within(name, p)), None)


def module_name(path: Path, root: Path) -> tuple[str, str]:
    """The dotted name of the module at ``path`` and the package its relative imports
    start from."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
        return ".".join(parts), ".".join(parts)
    return ".".join(parts), ".".join(parts[:-1])


def imports_of(path: Path, root: Path, lazy: bool = True) -> list[Import]:
    """Every import in the file, at any depth of the syntax tree; or (``lazy=False``) only
    those that run when the module loads."""
    importer, package = module_name(path, root)
    rel = path.relative_to(root).as_posix()
    tree = ast.parse(path.read_text("utf-8"), filename=rel)
    found = []
    for node in ast.walk(tree) if lazy else _module_level(tree.body):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            targets = [
                module if alias.name == "*" else f"{module}.{alias.name}" for alias in node.names
            ]
        else:
            continue
        found += [Import(rel, node.lineno, importer, target) for target in targets]
    return found


def broken_rule(imp: Import) -> str | None:
    """Why ``imp`` imports upward or sideways, or None when it is allowed."""
    importer, target = imp.importer, imp.target
    top, their_top = importer.split(".")[0], target.split(".")[0]
    if their_top in NOT_PRODUCT:
        return f"{top}/ must not import {their_top}/"
    if their_top not in LAYERS:
        return None  # the standard library or a third-party library
    if their_top not in MAY_IMPORT[top]:
        return f"{top}/ may import only {', '.join(sorted(MAY_IMPORT[top]))} of ours"
    if top != "bot" or any(within(importer, a) and within(target, b) for a, b in EXCEPTIONS):
        return None
    if inside(importer, PARTS) and inside(target, FRONT_ENDS + COMMAND_LINE):
        return f"a part of the bot must not import {inside(target, FRONT_ENDS + COMMAND_LINE)}"
    if inside(target, COMMAND_LINE) and not inside(importer, COMMAND_LINE):
        return f"only the command line may import {inside(target, COMMAND_LINE)}"
    front, other = inside(importer, FRONT_ENDS), inside(target, FRONT_ENDS)
    if front and other and front != other:
        return f"front end {front} must not import front end {other}"
    leaf = inside(importer, LEAVES)
    if leaf and within(target, "bot") and not within(target, leaf):
        return f"{leaf} must import nothing of bot"
    if within(importer, "bot.storage") and not inside(target, ("bot.storage", "bot.settings")):
        return "bot.storage may import only bot.storage and bot.settings of bot"
    return None


def scan(root: Path) -> tuple[int, list[Import]]:
    """How many modules of the layers lie under ``root``, and their imports."""
    files = sorted(p for layer in LAYERS for p in (root / layer).rglob("*.py"))
    return len(files), [imp for path in files for imp in imports_of(path, root)]


def offences(root: Path) -> list[str]:
    """Every import under ``root`` that breaks a rule, one line each with file and line."""
    _, found = scan(root)
    return [
        f"{imp.path}:{imp.line}: {imp.importer} imports {imp.target} ({why})"
        for imp in found
        if (why := broken_rule(imp)) is not None
    ]


def test_layers_import_only_downward() -> None:
    files, found = scan(ROOT)
    assert files > 100, "the scan should see every module of bot/, render/, rules/, data/"
    assert any(within(i.importer, "bot") and within(i.target, "rules") for i in found)
    problems = offences(ROOT)
    assert not problems, "upward imports:\n" + "\n".join(problems)


def module_graph(root: Path, lazy: bool) -> dict[str, set[str]]:
    """Which of our modules each module imports: at module level only, or (``lazy``) with
    the imports inside functions and under ``if TYPE_CHECKING:`` too. A ``from a import b``
    names the module ``a.b`` when there is one, else ``a``; importing a module also imports
    the packages above it (their ``__init__`` runs first)."""
    files = sorted(p for layer in LAYERS for p in (root / layer).rglob("*.py"))
    graph: dict[str, set[str]] = {module_name(path, root)[0]: set() for path in files}
    for path in files:
        for imp in imports_of(path, root, lazy):
            target = imp.target
            while target and target not in graph:  # a name inside a module
                target = target.rpartition(".")[0]
            while target and not within(imp.importer, target):
                if target in graph:
                    graph[imp.importer].add(target)
                target = target.rpartition(".")[0]
    return graph


def _module_level(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements run when the module loads: its body, and the branches of its ``if``
    and ``try`` blocks, but not ``if TYPE_CHECKING:``."""
    found: list[ast.stmt] = []
    for node in body:
        if isinstance(node, ast.If):
            if "TYPE_CHECKING" not in ast.unparse(node.test):
                found += _module_level(node.body) + _module_level(node.orelse)
        elif isinstance(node, ast.Try):
            found += _module_level(node.body) + _module_level(node.orelse)
            for handler in node.handlers:
                found += _module_level(handler.body)
            found += _module_level(node.finalbody)
        else:
            found.append(node)
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, written
    without recursion so a long chain cannot overflow the stack)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_no_import_cycles() -> None:
    assert cycles(module_graph(ROOT, lazy=False)) == []
    lazy = cycles(module_graph(ROOT, lazy=True))
    outside = [group for group in lazy if not all(within(m, "bot.discord") for m in group)]
    assert outside == [], "modules that import each other (lazily or for types):\n" + "\n".join(
        " <-> ".join(group) for group in outside
    )


def test_the_cycle_finder_finds_a_circle(tmp_path: Path) -> None:
    """Two modules that import each other inside functions, and one that only a package's
    ``__init__`` closes into a circle; a chain that is no circle beside them."""
    _write(
        tmp_path,
        {
            "rules/__init__.py": "",
            "rules/a.py": "def f():\n    from rules import b\n",
            "rules/b.py": "from rules.a import f\n",
            "rules/c.py": "from rules.b import f\n",
            "bot/__init__.py": "",
            "bot/matches/__init__.py": "from bot.matches.service import S\n",
            "bot/matches/service.py": "from bot.community.ratings import rate\n",
            "bot/community/__init__.py": "",
            "bot/community/ratings.py": "from bot.matches.holders import h\n",
            "bot/matches/holders.py": "import json\n",
        },
    )
    assert cycles(module_graph(tmp_path, lazy=False)) == [
        ["bot.community.ratings", "bot.matches", "bot.matches.service"]
    ]
    assert cycles(module_graph(tmp_path, lazy=True)) == [
        ["bot.community.ratings", "bot.matches", "bot.matches.service"],
        ["rules.a", "rules.b"],
    ]


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")


def test_the_checker_reports_what_it_should(tmp_path: Path) -> None:
    """A synthetic tree with one offence of each kind (and allowed imports beside them)."""
    _write(
        tmp_path,
        {
            "data/__init__.py": "import json\n",
            "rules/__init__.py": "from data import read_json\n",
            "rules/game.py": "import os\n\n\ndef draw():\n    from render import board\n",
            "render/__init__.py": "",
            "render/board.py": "from rules.game import Game\nfrom . import palette\n",
            "render/palette.py": "import data\n",
            "bot/__init__.py": "",
            "bot/settings.py": "from bot.matches import MatchService\n",
            "bot/console.py": "from bot.matches import MatchService\nimport bot.discord.client\n",
            "bot/discord/__init__.py": "",
            "bot/discord/client.py": "from ..matches import service\nfrom tests import fakes\n",
            "bot/matches/__init__.py": "from .service import MatchService\n",
            "bot/matches/service.py": "def f():\n    from .. import console\n",
            "bot/storage/__init__.py": "from bot.settings import Settings\n",
            "bot/storage/store.py": "from bot.matches import MatchService\n",
            "bot/storage/copydb.py": "def audit():\n    from bot.matches import MatchService\n",
            "bot/tools/__init__.py": "from bot.console import run\n",
            "bot/community/stats.py": "from bot.tools import demo\n",
        },
    )
    assert sorted(offences(tmp_path)) == [
        "bot/community/stats.py:1: bot.community.stats imports bot.tools.demo "
        "(a part of the bot must not import bot.tools)",
        "bot/console.py:2: bot.console imports bot.discord.client "
        "(front end bot.console must not import front end bot.discord)",
        "bot/discord/client.py:2: bot.discord.client imports tests.fakes "
        "(bot/ must not import tests/)",
        "bot/matches/service.py:2: bot.matches.service imports bot.console "
        "(a part of the bot must not import bot.console)",
        "bot/settings.py:1: bot.settings imports bot.matches.MatchService "
        "(bot.settings must import nothing of bot)",
        "bot/storage/store.py:1: bot.storage.store imports bot.matches.MatchService "
        "(bot.storage may import only bot.storage and bot.settings of bot)",
        "render/palette.py:1: render.palette imports data (render/ may import only render, "
        "rules of ours)",
        "rules/game.py:5: rules.game imports render.board (rules/ may import only data, "
        "rules of ours)",
    ]
