"""The scripted evening (tests/test_evening.py): what a new group types in the console, and
the checks every printed line must pass."""
