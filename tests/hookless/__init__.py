"""Test games kept in a package of their own so that no ``ai`` module sits beside them:
``rules.ai.hooks.ai_for`` looks for ``<the game's package>.ai``, and ``tests/ai.py`` gives the
registered Pile game hooks. These games must get the generic defaults (or none).
"""
