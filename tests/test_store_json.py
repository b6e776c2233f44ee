"""The store reads its JSON faster (orjson) only where that gives exactly what the standard
library gives: snapshots, settings and payloads must read back the same whichever reader
ran (a snapshot's random generator is a 64-bit number; an integer orjson cannot hold
exactly, a NaN or a lone surrogate must still come back as ``json.loads`` gives it)."""

from __future__ import annotations

import json
import math
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.storage.codec import _EXACT, _dumps, _exact_integers, _loads

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
        '[1234567890123456789, "x", -12345678901234567890]',
        '{"é": "€ 99999999999999999999 €", "n": 1}',
        "-9223372036854775808123",
        '["\\u00e9", 18446744073709551615, 9999999999999999999]',
    ):
        assert same(_loads(text), json.loads(text)), text


def _exact_by_expression(text: str) -> bool:
    """The guard's definition as first written (a regular expression over the text)."""
    return all(int(m.group()) in _EXACT for m in re.finditer(r"-?[0-9]{19,}", text))


#: Text made of what the guard looks at: numbers around 64 bits, minus signs, and what
#: separates them (a quote, a comma, a non-ASCII letter: byte offsets differ from
#: character offsets); adjacent pieces run together into longer runs of digits.
DIGITS_AND_SEPARATORS = st.lists(
    st.integers(min_value=-(2**66), max_value=2**66).map(str)
    | st.sampled_from(["-", '"', ",", "é", "€", " ", "0", "7"]),
    max_size=12,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(DIGITS_AND_SEPARATORS)
def test_the_fast_guard_finds_what_the_expression_finds(text: str) -> None:
    assert _exact_integers(text.encode()) == _exact_by_expression(text)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=-(2**66), max_value=2**66), max_size=6), st.text(max_size=8))
def test_long_integers_read_back_as_the_standard_library_reads_them(
    numbers: list[int], words: str
) -> None:
    text = json.dumps([words, *numbers, words], ensure_ascii=False)
    assert same(_loads(text), json.loads(text))
