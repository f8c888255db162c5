"""User strategies with bugs, for the tests of how a failing strategy is reported."""

from collections.abc import Sequence

from cdsim.rules.strategy import Move, PlayerView
from strategies.example import Random as RandomStrategy


class RaisesOnOddDeals(RandomStrategy):
    """Raises at its first decision in about half of the deals (the top light tile's
    index is odd), so some chunks of a batch fail and the others finish."""

    name = "raises-on-odd-deals"

    def choose_start(self, view: PlayerView, options: Sequence[int]) -> int:
        if view.state.light_deck[-1] % 2:
            raise ValueError("odd deal")
        return super().choose_start(view, options)


class MovesNowhere(RandomStrategy):
    """Returns a move that is never offered."""

    name = "moves-nowhere"

    def choose_move(self, view: PlayerView, options: Sequence[Move]) -> Move:
        return Move(99, False)
