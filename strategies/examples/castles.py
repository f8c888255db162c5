"""A strategy to copy for The Castles of Tuscany (docs/strategies.md, docs/rules-castles.md):
``Builder`` places a tile from its storage whenever it can, else takes one from the
display, else draws cards; every other decision it leaves to chance. It reads the options'
words (as the replay pages name them) and, for its chance, the seat's own stream. A
starting point, not a good player: greedy seats beat it easily.

    cdsim simulate --game castles --players 3 --games 300 \\
        --strategies strategies.examples.castles:Builder,greedy,greedy

``view.observation`` holds what the seat may know (docs/strategies.md lists it): the
display, the piles' sizes, every seat's storage, workers, marble, tokens and board, its
own hand of cards (another seat's is ``None``, only its size shows) and another seat's
territory once every seat has laid its pieces.
"""

from __future__ import annotations

from strategies.base import GameView


class Builder:
    """Places before it takes, takes before it draws."""

    name = "castles-builder"
    game = "castles"

    def choose(self, view: GameView) -> int:
        if view.decision == "turn":
            for verb in ("places", "castle: places", "takes", "draws"):
                found = [i for i, o in enumerate(view.options) if o.startswith(verb)]
                if found:
                    return found[int(view.rng.integers(len(found)))]
        return int(view.rng.integers(len(view.options)))


class Random:
    """Uniform over the options, from the seat's own stream (as the built-in ``random``)."""

    name = "castles-random"
    game = "castles"

    def choose(self, view: GameView) -> int:
        return int(view.rng.integers(len(view.options)))
