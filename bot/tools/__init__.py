"""What ``python -m bot <command>`` runs that is not the bot itself: the arena, benchmarks,
the load test, replay timing and the demo."""
