"""A bare HTTP client for the local Discord, for the tests of its refusals.

Requests go straight over HTTP, as any client would send them (JSON, or multipart with
``payload_json`` and ``files[n]``), so a test sees Discord's status, code and body.
"""

from __future__ import annotations

import json
from types import TracebackType
from typing import Any

import aiohttp

from .core import Core

#: What a call returns: the status, the JSON body (None for 204) and the headers.
Answer = tuple[int, Any, Any]


class Rest:
    """``async with Rest(fake) as call: await call("POST", path, body, files)``."""

    def __init__(self, fake: Core) -> None:
        self.fake = fake
        self.session: aiohttp.ClientSession | None = None

    async def __aenter__(self) -> Rest:
        auth = {"Authorization": f"Bot {self.fake.token}"}
        self.session = aiohttp.ClientSession(headers=auth)
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self.session is not None:
            await self.session.close()

    async def __call__(
        self,
        method: str,
        path: str,
        body: Any = None,
        files: list[tuple[str, bytes]] | None = None,
    ) -> Answer:
        assert self.session is not None, "use Rest inside async with"
        kwargs: dict[str, Any] = {}
        if files is not None:
            form = aiohttp.FormData()
            form.add_field("payload_json", json.dumps(body or {}))
            for i, (name, data) in enumerate(files):
                form.add_field(f"files[{i}]", data, filename=name)
            kwargs["data"] = form
        elif body is not None:
            kwargs["json"] = body
        async with self.session.request(method, self.fake.api + path, **kwargs) as r:
            answer: Any = await r.json() if r.status != 204 else None
            return r.status, answer, r.headers


def form_error(answer: Answer, *path: str | int) -> str:
    """The code of the first form error at ``path`` in Discord's 400 / 50035 "Invalid Form
    Body" answer (fails when the answer is anything else)."""
    status, body, _ = answer
    assert status == 400 and body["code"] == 50035, (status, body)
    node = body["errors"]
    for part in path:
        assert str(part) in node, (path, body["errors"])
        node = node[str(part)]
    return str(node["_errors"][0]["code"])
