"""Computer players: who they are (levels, names), the worker processes they think in, the
driver that plays their turns through the match service, and calibration of their budgets."""
