"""Gold by source, kept as the game goes, so the final picture can show the arithmetic as
the rulebook scores it: tile areas, worker groups, second tiles paid for, and each
quarter's result (rules §5–§6).

The state keeps ``tally[seat] = [tile gold, worker gold, gold paid for second tiles]`` and
``results[quarter]``: None until the quarter is scored, then each seat's workers there per
worker colour (its gold follows from the quarter table). A state saved before these keys
existed (a match running across the upgrade) has neither: nothing is recorded for it and
its view says ``sources: None``.

Every function changes the state in place like the rest of :mod:`rules.maharani.engine`;
``results`` entries are replaced, never edited, so :func:`copy` shares them.
"""

from __future__ import annotations

from typing import Any

State = dict[str, Any]

TILES, WORKERS, PAID = 0, 1, 2


def fresh(n: int) -> dict[str, Any]:
    """The keys a new game starts with."""
    return {"tally": [[0, 0, 0] for _ in range(n)], "results": [None] * 4}


def copy(st: State, out: State) -> None:
    """Copy what a move may change into ``out`` (a shallow copy of ``st``)."""
    if "tally" in st:
        out["tally"] = [list(x) for x in st["tally"]]
        out["results"] = list(st["results"])


def add(st: State, seat: int, source: int, gold: int) -> None:
    """``gold`` won (or, for :data:`PAID`, paid) by ``seat`` from ``source``."""
    tally = st.get("tally")
    if tally is not None:
        tally[seat][source] += gold


def quarter(st: State, q: int, workers: list[list[int]]) -> None:
    """Quarter ``q`` was scored with ``workers[seat][colour]`` workers in it."""
    if "results" in st:
        st["results"][q] = workers


def sources(st: State, table: tuple[int, ...]) -> list[dict[str, Any]] | None:
    """Each seat's gold by source for the view (None for a state without a tally): tile
    areas, worker groups, second tiles (negative), and per quarter None (not scored yet) or
    its workers per worker colour, the gold each colour won by ``table``, and their sum."""
    tally = st.get("tally")
    if tally is None:
        return None
    top = len(table) - 1
    out = []
    for seat, (tiles, workers, paid) in enumerate(tally):
        quarters: list[dict[str, Any] | None] = []
        for result in st["results"]:
            if result is None:
                quarters.append(None)
                continue
            counts = list(result[seat])
            golds = [table[min(k, top)] for k in counts]
            quarters.append({"workers": counts, "golds": golds, "gold": sum(golds)})
        out.append(
            {"tiles": tiles, "workers": workers, "second_tiles": -paid, "quarters": quarters}
        )
    return out


def from_view(view: dict[str, Any]) -> dict[str, Any]:
    """The state's keys back from a view's ``sources`` (the computer players rebuild a
    state from the view); nothing when the view has none."""
    got = view.get("sources")
    if got is None:
        return {}
    tally = [[s["tiles"], s["workers"], -s["second_tiles"]] for s in got]
    results: list[Any] = []
    for q in range(4):
        if got and got[0]["quarters"][q] is not None:
            results.append([list(s["quarters"][q]["workers"]) for s in got])
        else:
            results.append(None)
    return {"tally": tally, "results": results}
