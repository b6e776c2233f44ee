"""The store reads its JSON faster (orjson) only where that gives exactly what the standard
library gives: snapshots, settings and payloads must read back the same whichever reader
ran (a snapshot's random generator is a 64-bit number; an integer orjson cannot hold
exactly, a NaN or a lone surrogate must still come back as ``json.loads`` gives it)."""

from __future__ import annotations

import json
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.store import _dumps, _loads

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=10,
)


def same(a: object, b: object) -> bool:
    """Equal values of the same types (NaN equal to NaN, 1 not equal to 1.0)."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return a == b


@settings(max_examples=60, deadline=None)
@given(VALUES)
def test_stored_json_reads_back_as_the_standard_library_reads_it(value: object) -> None:
    for text in (_dumps(value), json.dumps(value)):
        assert same(_loads(text), json.loads(text))


def test_the_edges_of_orjsons_integers_and_what_it_refuses() -> None:
    for text in (
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        '{"rng": 12345678901234567890123, "id": "99999999999999999999"}',
        "[NaN, Infinity, -Infinity, 1e400]",
        '"\\ud800"',
    ):
        assert same(_loads(text), json.loads(text)), text
