"""Support for the Azul tests (no tests here): hand-built tables and tile counts."""

from __future__ import annotations

import copy
from typing import Any

from rules.azul import GAME
from rules.azul.board import COLOURS, MARKER, printed_colour
from rules.base import Event, Move

State = dict[str, Any]


def counts(tiles: str) -> list[int]:
    """'RRB' -> per-colour counts in B Y R K W order."""
    return [tiles.count(c) for c in COLOURS]


def table(players: int = 2, grey: bool = False, seed: int = 0) -> State:
    """A fresh game with an empty table and seat 0 on turn, ready to be arranged by a test.
    Tiles are not conserved in such states; tests that need conservation play real games."""
    s = copy.deepcopy(GAME.setup(players, seed, {"grey_wall": grey}))
    s["fac"] = [[0] * 5 for _ in s["fac"]]
    s["centre"] = [0] * 5
    s["left"] = 0
    s["turn"] = s["first"] = 0
    return s


def set_factory(s: State, index: int, tiles: str) -> None:
    s["fac"][index] = counts(tiles)
    s["left"] = sum(map(sum, s["fac"])) + sum(s["centre"])


def set_centre(s: State, tiles: str) -> None:
    s["centre"] = counts(tiles)
    s["left"] = sum(map(sum, s["fac"])) + sum(s["centre"])


def set_line(s: State, seat: int, line: int, colour: str, count: int) -> None:
    """``line`` is 1-based as players say it."""
    s["lc"][seat][line - 1] = COLOURS.index(colour) if count else -1
    s["ln"][seat][line - 1] = count


def set_wall(s: State, seat: int, cells: list[tuple[int, int]], colour: str | None = None) -> None:
    """Tile 1-based (row, column) cells: the printed colour, or ``colour`` (grey wall)."""
    for r, c in cells:
        k = printed_colour(r - 1, c - 1) if colour is None else COLOURS.index(colour)
        s["wall"][seat][(r - 1) * 5 + c - 1] = k
        s["rows"][seat][r - 1] |= 1 << k


def set_floor(s: State, seat: int, items: str) -> None:
    """Floor items as letters, 'M' for the first-player marker."""
    s["floor"][seat] = [MARKER if ch == "M" else COLOURS.index(ch) for ch in items]


def play(s: State, seat: int, notation: str) -> tuple[State, list[Event]]:
    move = GAME.parse(s, seat, notation)
    return GAME.apply(s, seat, move)


def notations(s: State, seat: int) -> set[str]:
    return {m.notation for m in GAME.legal_moves(s, seat)}


def legal(s: State, seat: int, notation: str) -> Move | None:
    for m in GAME.legal_moves(s, seat):
        if m.notation == notation:
            return m
    return None


def tile_total(s: State) -> int:
    """Tiles anywhere: bag + lid + factories + centre + pattern lines + walls + floors."""
    total = sum(s["bag"]) + sum(s["lid"]) + sum(map(sum, s["fac"])) + sum(s["centre"])
    for p in range(s["players"]):
        total += sum(s["ln"][p])
        total += sum(1 for x in s["wall"][p] if x >= 0)
        total += sum(1 for x in s["floor"][p] if x != MARKER)
    return total


def per_colour_total(s: State) -> list[int]:
    out = [a + b + c for a, b, c in zip(s["bag"], s["lid"], s["centre"], strict=True)]
    for f in s["fac"]:
        out = [a + b for a, b in zip(out, f or [0] * 5, strict=True)]
    for p in range(s["players"]):
        for k, n in zip(s["lc"][p], s["ln"][p], strict=True):
            if n:
                out[k] += n
        for x in s["wall"][p]:
            if x >= 0:
                out[x] += 1
        for x in s["floor"][p]:
            if x != MARKER:
                out[x] += 1
    return out
