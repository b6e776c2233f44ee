"""Developer benchmarks: they print figures for the README and docs/performance.md and are
not part of the test run (each says how to run it: ``python -m benchmarks.NAME``)."""
