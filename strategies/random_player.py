"""random — uniform over the legal options: the sanity floor every other player must beat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from cdsim.cards import Payment
from cdsim.components import ObjectiveCard
from cdsim.players import CircleChoice, FountainChoice, Move, PlayerView, SealBuild, Take

T = TypeVar("T")


def _pick(view: PlayerView, options: Sequence[T]) -> T:
    return options[int(view.rng.integers(len(options)))]


class RandomStrategy:
    """Chooses uniformly among the legal options, from the seat's own stream."""

    name = "random"
    reads_scores = False
    description = "uniform over legal options (sanity floor)"

    def choose_start(self, view: PlayerView, options: Sequence[int]) -> int:
        return _pick(view, options)

    def choose_move(self, view: PlayerView, options: Sequence[Move]) -> Move:
        return _pick(view, options)

    def choose_take(self, view: PlayerView, options: Sequence[Take]) -> Take:
        return _pick(view, options)

    def choose_seal(self, view: PlayerView, options: Sequence[SealBuild]) -> SealBuild:
        return _pick(view, options)

    def choose_fountain(self, view: PlayerView,
                        options: Sequence[FountainChoice]) -> FountainChoice:
        return _pick(view, options)

    def choose_circle(self, view: PlayerView, options: Sequence[CircleChoice]) -> CircleChoice:
        return _pick(view, options)

    def choose_payment(self, view: PlayerView, card: ObjectiveCard,
                       options: Sequence[Payment]) -> Payment:
        return _pick(view, options)
