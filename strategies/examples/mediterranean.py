"""A strategy to copy for the Mediterranean (docs/strategies.md,
docs/rules-mediterranean.md): ``Trader`` takes the contract that pays the most (gold, or
temple points at two gold each) into its first empty column, plays its strongest rowing
card, makes the delivery that pays the most whenever it can, and passes on extra turns. It
reads the options' words (as the replay pages name them) and its register; it cannot read
the map from them, so it sails at random when it cannot deliver. A starting point, not a
good player: among four greedy seats it scored about 6 VP a game to their 28 (50 games).

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
TEMPLE = re.compile(r"\((\d+) temple points")
COLUMN = re.compile(r"into column (\d+)")
ROWING = re.compile(r"rowing (\d+) / wind ([+-]\d+)")


def _contract(option: str, empty: set[int]) -> tuple[int, int]:
    """A contract option's worth to it: its gold and temple points (a temple point counted
    as two gold), and whether it fills the first empty column of its register."""
    gold = int(m.group(1)) if (m := GOLD.search(option)) else 0
    temple = int(m.group(1)) if (m := TEMPLE.search(option)) else 0
    column = int(m.group(1)) if (m := COLUMN.search(option)) else 0
    return gold + 2 * temple, int(column == min(empty, default=0))


class Trader:
    """The richest contract into its first empty column, the strongest rowing, the
    delivery that pays the most."""

    name = "trader"
    game = "mediterranean"

    def choose(self, view: GameView) -> int:
        options = view.options
        if view.decision in ("contract", "turned-contract"):
            me = view.observation["seats"][view.seat]
            empty = {k + 1 for k, c in enumerate(me["register"]) if c["status"] == "Empty"}
            return max(range(len(options)), key=lambda i: _contract(options[i], empty))
        if view.decision in ("rowing-card", "extra-rowing-card"):
            power = [int(m.group(1)) if (m := ROWING.search(o)) else 0 for o in options]
            return max(range(len(options)), key=lambda i: power[i])
        if view.decision == "sail":
            delivering = [i for i, o in enumerate(options) if "delivers" in o]
            if delivering:  # the delivery that pays the most gold
                return max(delivering, key=lambda i: int(m.group(1)) if (m := GOLD.search(
                    options[i])) else 0)
            moving = [i for i, o in enumerate(options) if "(0 miles" not in o]
            if moving:  # on somewhere: it cannot read the map from the words
                return moving[int(view.rng.integers(len(moving)))]
        if view.decision == "extra-turn":
            return next((i for i, o in enumerate(options) if o == "passes"), 0)
        return int(view.rng.integers(len(options)))
