"""A throwaway PostgreSQL server for the tests, started from the machine's own binaries.

Why a real server and not a stand-in: the PostgreSQL backend is only as good as the SQL
that PostgreSQL accepts and the locks it takes. ``initdb`` + ``pg_ctl`` build a cluster in
a temporary folder and serve it on 127.0.0.1 (a free port) in about two seconds; durability
settings are off because the tests kill bot processes, never the database server.

``initdb`` refuses to run as root: then the cluster belongs to the ``postgres`` user (made
by Debian's package) and the commands run through ``runuser``.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path


def find_binary(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if candidates:
        return candidates[-1]
    raise RuntimeError(
        f"PostgreSQL's {name} is not installed: the PostgreSQL tests need a local server "
        "(Debian: apt-get install -y postgresql; .ci/run does this)"
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class PgServer:
    folder: Path
    port: int
    user: str
    run_as: list[str]

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    def socket_url(self, database: str = "postgres") -> str:
        """The same database through the server's Unix socket (in its folder): on one
        machine a round trip costs both sides less CPU than over TCP on 127.0.0.1."""
        return f"postgresql://{self.user}@/{database}?host={self.folder}&port={self.port}"

    def stop(self) -> None:
        subprocess.run(
            [
                *self.run_as,
                find_binary("pg_ctl"),
                "-D",
                str(self.folder / "data"),
                "-m",
                "immediate",
                "stop",
            ],
            capture_output=True,
            check=False,
        )
        shutil.rmtree(self.folder, ignore_errors=True)


def start(*, durable: bool = False) -> PgServer:
    """Start a cluster; ``durable`` keeps PostgreSQL's default fsync and synchronous commit
    (for benchmarks: the tests switch both off, a database crash is not what they test)."""
    initdb, pg_ctl = find_binary("initdb"), find_binary("pg_ctl")
    # in memory where there is a tmpfs: every test makes a database (~8 MB of files), and
    # creating and finally deleting those on a busy disk took longer than the tests
    shm = Path("/dev/shm")
    where = shm if not durable and shm.is_dir() and os.access(shm, os.W_OK) else None
    folder = Path(tempfile.mkdtemp(prefix="tessera-pg-", dir=where))
    run_as: list[str] = []
    user = pwd.getpwuid(os.getuid()).pw_name
    if os.getuid() == 0:
        user = "postgres"
        owner = pwd.getpwnam(user)
        os.chown(folder, owner.pw_uid, owner.pw_gid)
        run_as = ["runuser", "-u", user, "--"]
    data = folder / "data"
    port = free_port()
    subprocess.run(
        [
            *run_as,
            initdb,
            "-D",
            str(data),
            "-U",
            user,
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
        ],
        capture_output=True,
        check=True,
    )
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c max_connections=200"
    if not durable:
        options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    result = subprocess.run(
        [*run_as, pg_ctl, "-D", str(data), "-l", str(folder / "log"), "-o", options, "-w", "start"],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        log = (folder / "log").read_text() if (folder / "log").exists() else ""
        raise RuntimeError(f"PostgreSQL did not start: {result.stderr}\n{log}")
    return PgServer(folder, port, user, run_as)
