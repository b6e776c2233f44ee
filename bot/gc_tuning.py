"""The garbage collector's settings for a long-running bot process (Discord, console, load).

Why: a move reads a match's snapshot (thousands of dicts and lists from its JSON) and lists
its legal moves (hundreds in Pastiche), so it allocates tens of thousands of container
objects that die with the move. With CPython's default first threshold (700 allocations)
the young collection runs many times inside every move, finds the move's objects still in
use and promotes them to the older generations; they die there soon after, but a full
collection is triggered by how much was *promoted*, not by how much is still alive. So the
process kept walking its whole heap — every module, cache and remembered listing, about
300,000 objects — every few hundred moves: about a sixth of the bot's CPU per move under
load (0.9 of 4.9 ms, measured with ``gc.callbacks`` in the ``benchmarks/pg_cpu.py
--phases`` player; 0.3 ms with these settings).

A larger first threshold lets a move's objects die young (refcounting frees them before a
collection looks), and ``gc.freeze`` moves what start-up built (the imported modules, the
games' data) out of the collector's sight for good. Nothing the bot does depends on when
cyclic garbage is collected; at most :data:`YOUNG` more objects wait for it.
"""

from __future__ import annotations

import gc

#: Allocations (minus deallocations) of container objects between young collections.
YOUNG = 10_000


def tune() -> None:
    """Collect what start-up left, freeze the survivors, raise the young threshold: once,
    in a process about to serve matches (``python -m bot``, ``python -m bot load``)."""
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG, older, oldest)
