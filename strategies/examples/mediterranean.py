"""A strategy to copy for the Mediterranean (docs/strategies.md,
docs/rules-mediterranean.md): ``Trader`` takes the contract that pays the most gold, plays
its strongest rowing card, delivers whenever a sailing option delivers, and passes on extra
turns. It reads the options' words (as the replay pages name them) and its observation.

    cdsim simulate --game mediterranean --players 5 --games 300 \\
        --strategies strategies.examples.mediterranean:Trader,greedy,greedy,greedy,greedy

``view.observation`` holds what the seat may know (docs/strategies.md lists it): the
contracts in the row (a face-down one shows only its gold), the wind and its forecast, the
play order and rowing track, every seat's gold, ship, hand of rowing cards, register and
temple tokens, and its own face-down rowing card this turn (``own_pick``), never another
seat's.
"""

from __future__ import annotations

import re

from strategies.base import GameView

GOLD = re.compile(r"\((\d+) gold\)")
ROWING = re.compile(r"rowing (\d+) / wind ([+-]\d+)")


class Trader:
    """Gold first: the richest contract, the strongest rowing, every delivery."""

    name = "trader"
    game = "mediterranean"

    def choose(self, view: GameView) -> int:
        options = view.options
        if view.decision in ("contract", "turned-contract"):
            gold = [int(m.group(1)) if (m := GOLD.search(o)) else 0 for o in options]
            return max(range(len(options)), key=lambda i: gold[i])
        if view.decision in ("rowing-card", "extra-rowing-card"):
            power = [int(m.group(1)) if (m := ROWING.search(o)) else 0 for o in options]
            return max(range(len(options)), key=lambda i: power[i])
        if view.decision == "sail":
            delivering = [i for i, o in enumerate(options) if "delivers" in o]
            if delivering:
                return delivering[0]
        if view.decision == "extra-turn":
            return next((i for i, o in enumerate(options) if o == "passes"), 0)
        return int(view.rng.integers(len(options)))
