"""Pillow pictures of what one seat (or a spectator) may see, drawn from a game's *view*."""

from render.registry import render_png

__all__ = ["render_png"]
