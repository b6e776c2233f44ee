"""Azul: the game package. See :mod:`rules.azul.game` for the rule decisions."""

from rules.azul.game import GAME, Azul, AzulOptions

__all__ = ["GAME", "Azul", "AzulOptions"]
