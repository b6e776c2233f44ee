"""How the store writes and reads the JSON of its text columns (options, snapshots,
settings, move events, post payloads).

Why a module of their own: both backends store the same text, so both must write it and
read it back the same way; and reading it is hot (every move reads its match's snapshot and
settings), which is why :func:`_loads` goes through orjson wherever that gives the very
value the standard library would.
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


#: Digits to ``0``, everything else as it is: a run of 19 digits becomes ``b"0" * 19``,
#: which ``bytes.find`` looks for at C speed.
_DIGITS_TO_ZERO = bytes.maketrans(b"123456789", b"000000000")
_LONG_RUN = b"0" * 19
_DIGIT_RUN = re.compile(rb"[0-9]+")
#: The integers orjson reads exactly (beyond them it makes a float).
_EXACT = range(-(2**63), 2**64)


def _exact_integers(raw: bytes) -> bool:
    """Whether every run of 19 or more digits in ``raw`` (with the ``-`` before it, if
    any; inside strings too: the test only has to be safe) is an integer orjson reads
    exactly. Shorter runs always are (below 10**18 in size). Why not a regular expression
    over the text (``-?\\d{19,}``, as before): it tried a match at every character and cost
    more than orjson's whole parse (37-84 µs for a 0.6-2 KB snapshot, against 7-16 µs);
    the translated copy and ``find`` cost a few µs, and only the rare long runs are
    looked at in Python."""
    zeros = raw.translate(_DIGITS_TO_ZERO)
    start = zeros.find(_LONG_RUN)
    while start >= 0:
        # ``find`` gives the leftmost window of 19 digits, so ``start`` begins a run
        run = _DIGIT_RUN.match(raw, start)
        assert run is not None
        first = start - 1 if start and raw[start - 1] == 45 else start  # 45: "-"
        if int(raw[first : run.end()]) not in _EXACT:
            return False
        start = zeros.find(_LONG_RUN, run.end())
    return True


def _loads(text: str) -> Any:
    """``json.loads``, read by orjson where that gives the very same value. Why: a move
    reads its match (the snapshot, the settings) and its post's payload, and decoding
    them with the standard library was about a tenth of the bot's CPU per move; orjson
    takes a third of that. It reads valid JSON as the standard library does except
    integers outside 64 bits (signed or unsigned: it makes them floats) and what it
    refuses (NaN, Infinity, lone surrogates, numbers out of a float's range): text where
    a run of digits (read as a whole integer, even inside a string: the test only has
    to be safe) falls outside those (:func:`_exact_integers`), text that is not UTF-8
    (a lone surrogate) and text orjson refuses go to ``json.loads``. The snapshots'
    random generators are 64-bit numbers, so a run of 19 digits is common."""
    try:
        raw = text.encode()
    except UnicodeEncodeError:  # a lone surrogate: orjson refuses it
        return json.loads(text)
    if _exact_integers(raw):
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text)
