"""The container files build what the README's "Operations" section says: the
``Dockerfile`` installs this project from ``pyproject.toml`` and runs the bot's real command
as an unprivileged user with a health check that exists; ``compose.yaml`` starts it with
PostgreSQL (a named volume, a health check the bot waits for) and sets only real settings,
valid ones, with the database URL pointing at the compose service.

Everything that can be checked without Docker is checked here without it: the files are
parsed (the Dockerfile by its documented syntax, the compose file as YAML), every name they
use is looked up in the code, and the image's install step is done for real — the files
the Dockerfile copies, exactly as ``.dockerignore`` leaves them, built into a wheel with
pip, and the bot run from that install alone (no source tree). Only ``docker build`` itself
needs Docker's daemon: that test skips, saying so, where the daemon does not answer (the
``docker`` client alone cannot build).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
import zipfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.__main__ import _parser
from bot.ops import health
from bot.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
#: Variables the postgres image reads (https://hub.docker.com/_/postgres, "Environment
#: Variables"), the only ones its service may set.
POSTGRES_VARIABLES = {"POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB", "PGDATA"}


def setting_names() -> set[str]:
    return {
        "DISCORD_TOKEN" if f == "discord_token" else f"TESSERA_{f.upper()}"
        for f in Settings.model_fields
    }


# ----- the Dockerfile, read by its documented syntax -----------------------------------------
def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the Dockerfile: comments dropped, lines continued with a
    trailing backslash joined (docs.docker.com/reference/dockerfile, "Format")."""
    found: list[tuple[str, str]] = []
    pending = ""
    for raw in (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        word, _, rest = (pending + line).partition(" ")
        found.append((word.upper(), rest.strip()))
        pending = ""
    assert not pending, "the Dockerfile ends inside a continued line"
    return found


def arguments(text: str) -> list[str]:
    """An instruction's arguments: exec form (a JSON array) or shell words."""
    return json.loads(text) if text.startswith("[") else shlex.split(text)


def options_and_rest(text: str) -> tuple[dict[str, str], str]:
    """``--name=value`` options before an instruction's arguments, and the arguments."""
    options: dict[str, str] = {}
    while text.startswith("--"):
        option, _, text = text.partition(" ")
        name, _, value = option[2:].partition("=")
        options[name] = value
        text = text.strip()
    return options, text


def the(word: str) -> list[str]:
    return [rest for w, rest in instructions() if w == word]


def env_of_dockerfile() -> dict[str, str]:
    env: dict[str, str] = {}
    for rest in the("ENV"):
        for pair in shlex.split(rest):
            name, _, value = pair.partition("=")
            env[name] = value
    return env


def ignored(path: str) -> bool:
    """Whether ``.dockerignore`` keeps ``path`` (relative, with /) out of the build
    context: the last matching rule wins, ``!`` re-includes, a rule that matches a folder
    covers everything in it, ``**`` matches any number of folders (Go's filepath.Match
    otherwise: docs.docker.com/build/concepts/context/#dockerignore-files)."""
    rules = []
    for raw in (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            rules.append((line.startswith("!"), line.lstrip("!").strip("/")))
    parts = path.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    out = False
    for negate, pattern in rules:
        regex = re.escape(pattern).replace(r"\*\*/", "(?:.*/)?").replace(r"\*\*", ".*")
        regex = regex.replace(r"\*", "[^/]*").replace(r"\?", "[^/]")
        if any(re.fullmatch(regex, p) for p in prefixes):
            out = not negate
    return out


def copied() -> list[tuple[str, str]]:
    """(source, destination) of every COPY from the build context."""
    pairs = []
    for rest in the("COPY"):
        options, rest = options_and_rest(rest)
        if "from" in options:
            continue
        *sources, destination = arguments(rest)
        pairs += [(source, destination) for source in sources]
    return pairs


def test_the_image_is_python_slim_and_installs_this_project() -> None:
    (base,) = the("FROM")
    assert re.fullmatch(r"python:3\.1[12]-slim", base), base
    requires = PYPROJECT["project"]["requires-python"]
    assert requires == ">=3.11", "the image's Python must meet requires-python"
    installs = [arguments(r) for r in the("RUN") if "pip install" in r]
    assert len(installs) == 1, installs
    words = installs[0]
    target = words[words.index("install") + 1]
    found = re.fullmatch(r"\.\[(\w+)\]", target)
    assert found, f"pip install {target}: the project itself, with its extra"
    assert found.group(1) in PYPROJECT["project"]["optional-dependencies"]
    assert found.group(1) == "postgres", "the compose file runs PostgreSQL: asyncpg is needed"


def test_every_copied_source_exists_and_reaches_the_build_context() -> None:
    pairs = copied()
    assert pairs
    for source, _ in pairs:
        path = ROOT / source
        assert path.exists(), f"COPY {source}: no such file in the repository"
        assert not ignored(source), f"COPY {source}: .dockerignore keeps it out"
    sources = {s for s, _ in pairs}
    # what pip needs to build the project: its pyproject, its readme, every package
    assert {"pyproject.toml", PYPROJECT["project"]["readme"]} <= sources
    for include in PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"]:
        assert include.rstrip("*") in sources, f"the package {include} is not copied"
    # and nothing secret or local
    for secret in (".env", "tessera.db", "tests/conftest.py", ".git"):
        assert ignored(secret), secret


def test_it_runs_as_an_unprivileged_user_it_creates() -> None:
    words = [w for w, _ in instructions()]
    (user,) = the("USER")
    assert user not in ("root", "0") and not user.startswith("0:"), user
    assert words.index("USER") > max(i for i, w in enumerate(words) if w == "RUN")
    assert any(re.search(rf"\buseradd\b.*\b{user}$", r) for r in the("RUN")), user


def test_its_command_is_the_bot_and_its_health_check_exists() -> None:
    (cmd,) = the("CMD")
    command = arguments(cmd)
    assert cmd.startswith("["), "exec form: the bot is PID 1's child of init and gets SIGTERM"
    assert command[:3] == ["python", "-m", "bot"]
    args = _parser().parse_args(command[3:])
    assert args.command is None and not args.console  # the bot, not a tool or the console
    (check,) = the("HEALTHCHECK")
    options, rest = options_and_rest(check)
    assert rest.startswith("CMD ")
    probe = arguments(rest[4:])
    assert probe == ["python", "-m", "bot.ops.health"]
    assert importlib.util.find_spec(probe[2]) is not None
    assert float(options["timeout"].rstrip("s")) > health.TIMEOUT


def test_the_image_settings_are_real_and_valid(monkeypatch: pytest.MonkeyPatch) -> None:
    env = env_of_dockerfile()
    ours = {k: v for k, v in env.items() if k.startswith("TESSERA_") or k == "DISCORD_TOKEN"}
    assert set(ours) <= setting_names(), set(ours) - setting_names()
    assert set(env) - set(ours) <= {
        "PYTHONDONTWRITEBYTECODE",
        "PYTHONUNBUFFERED",
        "PIP_NO_CACHE_DIR",
        "PIP_DISABLE_PIP_VERSION_CHECK",
    }
    for name in list(os.environ):
        if name.startswith("TESSERA_"):
            monkeypatch.delenv(name)
    for name, text in ours.items():
        monkeypatch.setenv(name, text)
    settings = Settings(_env_file=None)  # valid, or this raises naming the setting
    (exposed,) = the("EXPOSE")
    assert int(exposed) == settings.metrics_port != 0  # the health check asks that port
    assert health.health_url(settings) == f"http://127.0.0.1:{exposed}/healthz"


# ----- compose.yaml ----------------------------------------------------------------------------
@cache
def compose() -> dict[str, Any]:
    data = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def interpolated(text: str) -> str:
    """Compose's interpolation with nothing set: ``${X:-default}`` is the default,
    ``${X:?message}`` must be set (a stand-in value here), ``${X}`` is empty
    (docs.docker.com/reference/compose-file/interpolation)."""

    def one(found: re.Match[str]) -> str:
        _name, op, word = found.group(1), found.group(2), found.group(3)
        if op in (":-", "-"):
            return word
        if op in (":?", "?"):
            return "required-value"
        return ""

    return re.sub(r"\$\{(\w+)(?:(:?[-?])([^}]*))?\}", one, text)


def bot_environment() -> dict[str, str]:
    env = compose()["services"]["bot"]["environment"]
    assert isinstance(env, dict), "environment as a mapping"
    return {k: interpolated(str(v)) for k, v in env.items()}


def test_compose_starts_the_bot_after_a_healthy_postgres_with_a_named_volume() -> None:
    services = compose()["services"]
    assert set(services) == {"bot", "postgres"}
    pg, bot = services["postgres"], services["bot"]
    assert bot["build"] == "." and (ROOT / "Dockerfile").is_file()
    assert bot["depends_on"] == {"postgres": {"condition": "service_healthy"}}
    assert bot["env_file"] == ".env"  # the settings file of README's set-up
    assert bot["restart"] == pg["restart"] == "unless-stopped"
    assert re.fullmatch(r"postgres:\d+", pg["image"]), pg["image"]
    (mount,) = pg["volumes"]
    volume, target = mount.split(":")
    assert volume in compose()["volumes"] and target == "/var/lib/postgresql/data"
    test = pg["healthcheck"]["test"]
    assert test[0] == "CMD" and test[1] == "pg_isready"
    assert set(pg["environment"]) <= POSTGRES_VARIABLES


def test_compose_sets_only_real_settings_and_valid_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    env = bot_environment()
    assert set(env) <= setting_names(), set(env) - setting_names()
    for name in list(os.environ):
        if name.startswith("TESSERA_") or name == "DISCORD_TOKEN":
            monkeypatch.delenv(name)
    for name, text in {**env_of_dockerfile(), **env}.items():
        monkeypatch.setenv(name, text)
    settings = Settings(_env_file=None)
    assert settings.database_url  # PostgreSQL, not an SQLite file inside the container
    published = [p.rsplit(":", 1) for p in compose()["services"]["bot"]["ports"]]
    assert [int(c) for _, c in published] == [settings.metrics_port]
    assert all(h.startswith("127.0.0.1:") for h, _ in published)  # not on every network
    assert settings.metrics_host == "0.0.0.0"  # inside the container: reachable through it


def test_the_database_url_points_at_the_postgres_service() -> None:
    url = bot_environment()["TESSERA_DATABASE_URL"]
    found = re.fullmatch(r"postgresql://(\w+):([^@]*)@(\w+):(\d+)/(\w+)", url)
    assert found, url
    user, password, host, port, database = found.groups()
    pg = {
        k: interpolated(str(v)) for k, v in compose()["services"]["postgres"]["environment"].items()
    }
    assert host in compose()["services"] and host == "postgres"
    assert (user, password, port, database) == (
        pg["POSTGRES_USER"],
        pg["POSTGRES_PASSWORD"],
        "5432",
        pg["POSTGRES_DB"],
    )
    raw = compose()["services"]["bot"]["environment"]["TESSERA_DATABASE_URL"]
    password_ref = compose()["services"]["postgres"]["environment"]["POSTGRES_PASSWORD"]
    assert password_ref in raw, "one password, read from .env by both services"


def test_the_bot_refuses_to_start_without_a_token() -> None:
    """Compose stops with the message when DISCORD_TOKEN is missing, instead of starting
    the local console (which reads a closed stdin) in a restart loop."""
    raw = str(compose()["services"]["bot"]["environment"]["DISCORD_TOKEN"])
    assert re.fullmatch(r"\$\{DISCORD_TOKEN:\?[^}]+\}", raw), raw


def test_the_readme_shows_these_files() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Operations", 1)[1].split("\n## ", 1)[0]
    assert "docker compose up" in section
    for name in ("Dockerfile", "compose.yaml", ".dockerignore", ".env", "/healthz", "/metrics"):
        assert name in section, name
    assert "TESSERA_METRICS_PORT" in section and "TESSERA_LOG_FORMAT" in section
    # the set-up stays the README's two commands
    head = readme.split("\n## ", 1)[0]
    commands = re.findall(r"^(pip install .*?)\s+#", head, re.M)
    assert len(commands) == 2, commands


# ----- the image's install step, without Docker ------------------------------------------------
def build_context(into: Path) -> None:
    """The files the Dockerfile copies, at the place it copies them to, minus what
    .dockerignore keeps out of the context (caches in the worktree, say)."""
    for source, destination in copied():
        where = into / (source if destination in ("./", ".") else destination.lstrip("./"))
        path = ROOT / source
        if path.is_file():
            where.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, where)
            continue
        for file in path.rglob("*"):
            relative = file.relative_to(ROOT).as_posix()
            if file.is_file() and not ignored(relative):
                target = where / file.relative_to(path)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(file, target)


def tracked_runtime_files() -> set[str]:
    """Files of the packages the bot reads at run time that git tracks (data, fonts,
    catalogues and the code)."""
    listed = subprocess.run(
        ["git", "ls-files", "bot", "render", "rules", "data", "locale"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return {f for f in listed if not f.endswith((".md", ".gitignore"))}


def test_the_image_install_holds_every_runtime_file_and_runs_the_bot(tmp_path: Path) -> None:
    """``pip install .`` of the image, done here: pip builds the copied context into a
    wheel (the same build the Dockerfile's RUN does), the wheel holds every file of the
    packages git tracks, and the bot runs from the install alone (a whole demo game with
    its pictures from another folder; a Hungarian word from the installed catalogue)."""
    context = tmp_path / "context"
    build_context(context)
    built = subprocess.run(
        # no network in tests: the build backend installed here, nothing fetched
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-index",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path),
            ".",
        ],
        cwd=context,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = tmp_path.glob("tessera-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        inside = set(archive.namelist())
        missing = tracked_runtime_files() - inside
        assert not missing, f"not installed by pip install .: {sorted(missing)[:10]}"
        archive.extractall(tmp_path / "site")
    run = tmp_path / "run"
    run.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("TESSERA_")}
    env["PYTHONPATH"] = str(tmp_path / "site")
    probe = (
        "import bot, render.words.catalogue as c; print(bot.__file__); print(c.t('btn.join', 'hu'))"
    )
    where = subprocess.run(
        [sys.executable, "-c", probe], cwd=run, env=env, capture_output=True, text=True, timeout=60
    )
    assert where.returncode == 0, where.stderr
    path, word = where.stdout.splitlines()
    assert path.startswith(str(tmp_path / "site")) and word == "Csatlakozás"
    demo = subprocess.run(
        [sys.executable, "-m", "bot", "demo", "azul", "--players", "2", "--out", "demo"],
        cwd=run,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert demo.returncode == 0, demo.stderr[-2000:]
    assert (run / "demo" / "record.json").is_file() and list((run / "demo").glob("turn-*.png"))


# ----- with Docker ------------------------------------------------------------------------------
def docker_missing() -> str | None:
    """Why ``docker build`` cannot run here, or None when it can."""
    if shutil.which("docker") is None:
        return "docker is not installed on this machine"
    try:
        info = subprocess.run(["docker", "info"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"docker info failed: {exc}"
    if info.returncode != 0:
        last = (info.stderr.strip().splitlines() or ["no answer"])[-1]
        return f"the docker client is installed but its daemon does not answer ({last})"
    return None


DOCKER_MISSING = docker_missing()


@pytest.mark.skipif(DOCKER_MISSING is not None, reason=str(DOCKER_MISSING))
def test_docker_builds_the_image_and_compose_accepts_the_file() -> None:
    tag = "tessera-test:container-files"
    built = subprocess.run(
        ["docker", "build", "-t", tag, "."], cwd=ROOT, capture_output=True, text=True, timeout=1800
    )
    assert built.returncode == 0, built.stderr[-3000:]
    try:
        uid = subprocess.run(
            ["docker", "run", "--rm", "--entrypoint", "id", tag, "-u"],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert uid.returncode == 0 and uid.stdout.strip() != "0", uid
        helped = subprocess.run(
            ["docker", "run", "--rm", tag, "python", "-m", "bot", "--help"],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert helped.returncode == 0 and "python -m bot" in helped.stdout, helped
    finally:
        subprocess.run(["docker", "image", "rm", "-f", tag], capture_output=True, timeout=120)


def compose_missing() -> str | None:
    """Why ``docker compose`` cannot read the file here (it needs no daemon for that)."""
    if shutil.which("docker") is None:
        return "docker is not installed on this machine"
    try:
        version = subprocess.run(
            ["docker", "compose", "version"], capture_output=True, text=True, timeout=20
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"docker compose version failed: {exc}"
    if version.returncode != 0:
        return "the docker client has no compose plugin here (docker compose version failed)"
    return None


COMPOSE_MISSING = compose_missing()


@pytest.mark.skipif(COMPOSE_MISSING is not None, reason=str(COMPOSE_MISSING))
def test_docker_compose_accepts_the_file(tmp_path: Path) -> None:
    """Compose's own reading of the file (its schema, interpolation, env_file), with the
    README's set-up: a .env holding the token."""
    shutil.copy2(ROOT / "compose.yaml", tmp_path / "compose.yaml")
    shutil.copy2(ROOT / "Dockerfile", tmp_path / "Dockerfile")
    (tmp_path / ".env").write_text("DISCORD_TOKEN=x\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    config = subprocess.run(
        ["docker", "compose", "config", "--format", "json"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert config.returncode == 0, config.stderr
    read = json.loads(config.stdout)
    bot_env = read["services"]["bot"]["environment"]
    assert bot_env["DISCORD_TOKEN"] == "x"
    assert bot_env["TESSERA_DATABASE_URL"] == bot_environment()["TESSERA_DATABASE_URL"]
    (tmp_path / ".env").write_text("", encoding="utf-8")
    refused = subprocess.run(
        ["docker", "compose", "config"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert refused.returncode != 0 and "DISCORD_TOKEN" in refused.stderr


def test_the_ignore_rules_read_as_docker_reads_them() -> None:
    """The small matcher above, on the cases Docker documents."""
    assert ignored(".env") and ignored("bot/__pycache__/x.pyc") and ignored("a/b/c.db")
    assert not ignored("bot/ops/server.py") and not ignored("README.md")
