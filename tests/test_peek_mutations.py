"""The never-peeks tests catch peeks: each peek of ``tests/peek_mutations.py`` is applied to
a copy of the code and the never-peeks tests that should catch it must fail there, for
that reason; the unmutated copy must pass them. (``python -m tests.peek_mutations
--full`` runs every peek against the whole never-peeks file: docs/computer_players.md.)"""

from __future__ import annotations

import pytest

from tests.peek_mutations import (
    MUTATIONS,
    REDUCED_POSITIONS,
    Mutation,
    check_clean,
    check_mutation,
    union,
)


def test_the_unmutated_copy_passes_the_never_peeks_tests() -> None:
    """Else a mutation's failure would prove nothing."""
    outcome = check_clean(union(MUTATIONS), REDUCED_POSITIONS)
    assert outcome.passed, outcome.output[-3000:]


@pytest.mark.parametrize("mutation", MUTATIONS, ids=[m.name for m in MUTATIONS])
def test_every_peek_is_caught(mutation: Mutation) -> None:
    outcome = check_mutation(mutation)
    assert not outcome.passed, f"{mutation.name} was not caught: {mutation.peek}"
    assert outcome.catches(mutation), (
        f"{mutation.name} failed the tests, but not as a peek (expected {mutation.says!r}):\n"
        + outcome.output[-3000:]
    )


def test_the_peeks_are_different_and_many() -> None:
    """At least the issue's three kinds: shared module state, the snapshot passed along, a
    reversible seed."""
    names = {m.name for m in MUTATIONS}
    assert len(names) == len(MUTATIONS) >= 3
    assert {"view-shares-the-truth", "snapshot-to-the-worker", "reversible-seed"} <= names
