"""Strategies to copy for the games played through the seam (docs/strategies.md): each a
class with ``game`` (the game it plays) and one method, ``choose(view) -> int``."""
