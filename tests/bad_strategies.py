"""User strategies with bugs, for the tests of how a failing strategy is reported."""

from collections.abc import Sequence

from cdsim.games.carpe_diem.rules.observation import Observation
from cdsim.games.carpe_diem.rules.options import Action, Move
from strategies.example import Random as RandomStrategy


def odd_deal(view: Observation) -> bool:
    """True in about half of the deals, known to every seat before the first decision: the
    objective cards dealt face up on the grid (R2.2) have an odd sum of numbers."""
    return sum(int(card[1:]) for card in view.grid if card) % 2 == 1


class RaisesOnOddDeals(RandomStrategy):
    """Raises at its first decision in about half of the deals (``odd_deal``), so some
    chunks of a batch fail and the others finish."""

    name = "raises-on-odd-deals"

    def choose(self, view: Observation, options: Sequence[Action]) -> Action:
        if view.decision == "start" and odd_deal(view):
            raise ValueError("odd deal")
        return super().choose(view, options)


class MovesNowhere(RandomStrategy):
    """Returns a move that is never offered."""

    name = "moves-nowhere"

    def choose(self, view: Observation, options: Sequence[Action]) -> Action:
        return Move(99, False) if view.decision == "move" else super().choose(view, options)
