"""The real bot as a separate process (``python -m bot``) against the local Discord."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


class BotProcess:
    """``python -m bot`` started with cwd = the repository root (so this checkout's code
    runs), a token and ``TESSERA_DISCORD_API`` pointing at the local Discord."""

    def __init__(
        self,
        api: str,
        db: Path,
        *,
        token: str,
        sync: bool = False,
        capture_stderr: bool = False,
        **env: Any,
    ) -> None:
        self.api = api
        self.capture_stderr = capture_stderr
        self.db = db
        self.token = token
        self.sync = sync
        self.env = {f"TESSERA_{k.upper()}": str(v) for k, v in env.items()}
        self.proc: asyncio.subprocess.Process | None = None
        self.log = db.with_suffix(f".{os.getpid()}.log")

    async def start(self) -> BotProcess:
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith("TESSERA_") and k != "DISCORD_TOKEN"
        }
        env.update(
            {
                "DISCORD_TOKEN": self.token,
                "TESSERA_DISCORD_API": self.api,
                "TESSERA_DATABASE_PATH": str(self.db),
                "TESSERA_LOG_LEVEL": "WARNING",
                "TESSERA_RENDER_WORKERS": "1",
                # the tests' members are scripts clicking at the machine's speed, far past
                # any person: the per-minute flood limits are off unless a test sets them
                # (tests/test_flood.py tests them)
                "TESSERA_FLOOD_PER_MEMBER": "0",
                "TESSERA_FLOOD_PER_SERVER": "0",
                "PYTHONPATH": str(ROOT),
                **self.env,
            }
        )
        args = [sys.executable, "-m", "bot"] + (["--sync"] if self.sync else [])
        handle = self.log.open("ab")
        # Its own process group: the render workers go down with it on kill -9, as on a
        # machine crash, and no orphan keeps the test waiting.
        self.proc = await asyncio.create_subprocess_exec(
            *args,
            cwd=ROOT,
            env=env,
            stdout=handle,
            stderr=asyncio.subprocess.PIPE if self.capture_stderr else handle,
            start_new_session=True,
        )
        handle.close()
        return self

    async def stderr_and_exit(self, timeout: float = 60.0) -> tuple[str, int]:
        assert self.proc is not None and self.proc.stderr is not None
        err = await asyncio.wait_for(self.proc.stderr.read(), timeout)
        code = await asyncio.wait_for(self.proc.wait(), timeout)
        return err.decode(errors="replace"), code

    def kill9(self) -> None:
        """SIGKILL the bot and its render workers (the process group it leads)."""
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)

    async def stop(self) -> None:
        if self.proc is None or self.proc.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            self.proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.proc.wait(), 20)
        except TimeoutError:
            self.kill9()
            await self.proc.wait()

    async def wait_dead(self) -> None:
        assert self.proc is not None
        await self.proc.wait()
